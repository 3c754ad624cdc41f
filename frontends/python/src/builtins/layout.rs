//! The `cuda.device` builtins of one family in device code. Types and their
//! layout: `align(t, n)` and `machine_representation()` (the C++ ABI,
//! "itanium").

use super::*;

impl Lowerer<'_, '_, '_> {
    /// Lowers call `device.name(...)` `c` of this family (types and their layout);
    /// `device_call` routes only its names here.
    pub(super) fn layout_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let what = &format!("device.{name}");
        match name {
            "machine_representation" => {
                self.bind_all(c, what, [])?;
                Ok(Item::Str("itanium".into()))
            }
            "align" => {
                let [t, n] = self.bind_all(c, what, ["t", "n"])?;
                let t = self.dtype_arg(t, &format!("the type of {what}()"))?;
                let n_range = n.range();
                let n = self.const_int_arg(n, "the alignment")?;
                if n <= 0 || (n & (n - 1)) != 0 {
                    return self.err_help(
                        n_range,
                        format!("the alignment of {what}() must be a power of two, got {n}"),
                        "e.g. device.align(device.float32, 16)",
                    );
                }
                Ok(Item::Dtype(Ty::aligned(t, n as u64)))
            }
            _ => unreachable!("device.{name} is not one of the layout builtins"),
        }
    }
}
