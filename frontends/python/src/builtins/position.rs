//! The `cuda.device` builtins of one family in device code. Thread
//! positioning: `tid(ndims)` and `grid_size(ndims)`, a value or a tuple of
//! one per dimension.

use super::*;

impl Lowerer<'_, '_, '_> {
    /// Lowers call `device.name(...)` `c` of this family (thread positioning);
    /// `device_call` routes only its names here.
    pub(super) fn position_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let r = c.range();
        let what = &format!("device.{name}");
        match name {
            "tid" | "grid_size" => {
                let [n] = self.bind_all(c, what, ["ndims"])?;
                let n = self.const_int_arg(n, &format!("the ndims of {what}()"))?;
                if !(1..=3).contains(&n) {
                    return self.err_help(
                        r,
                        format!("{what}({n}): ndims must be 1, 2 or 3"),
                        "the grid has three dimensions, x, y and z",
                    );
                }
                self.at(r);
                let mut items = self.position(name == "grid_size", n as u32);
                Ok(if n == 1 { items.remove(0) } else { Item::Tuple(items) })
            }
            _ => unreachable!("device.{name} is not one of the position builtins"),
        }
    }
}
