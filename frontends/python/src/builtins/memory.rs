//! The `cuda.device` builtins of one family in device code. Memory: local and
//! shared arrays (`local_array`, `shared_array`) and the dynamic shared
//! array.

use super::*;

impl Lowerer<'_, '_, '_> {
    /// Lowers call `device.name(...)` `c` of this family (memory); `device_call`
    /// routes only its names here.
    pub(super) fn memory_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let r = c.range();
        let what = &format!("device.{name}");
        match name {
            "local_array" | "shared_array" => self.static_array(name, c),
            "dynamic_shared_array" => {
                self.bind_all(c, what, [])?;
                self.at(r);
                let ty = Ty::Array {
                    dtype: Box::new(Ty::Int { bits: 8, signed: false }),
                    ndim: 1,
                    layout: ArrayLayout::C,
                    readonly: false,
                    space: Space::Shared,
                };
                Ok(Item::Val(self.b.op1(&generic::dynamic_shared_array(&ty.mlir()), ty)))
            }
            _ => unreachable!("device.{name} is not one of the memory builtins"),
        }
    }
}
