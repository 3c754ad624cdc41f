//! The `cuda.device` builtins of one family in device code. Block
//! synchronization and fences: `syncthreads`, its counting and predicate
//! forms, `threadfence(memory, scope)`.

use super::*;

impl Lowerer<'_, '_, '_> {
    /// Lowers call `device.name(...)` `c` of this family (block synchronization and
    /// fences); `device_call` routes only its names here.
    pub(super) fn sync_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let r = c.range();
        let what = &format!("device.{name}");
        match name {
            "syncthreads" => {
                self.bind_all(c, what, [])?;
                self.at(r);
                self.b.op(&[], &generic::syncthreads());
                Ok(Item::NoneV)
            }
            "syncthreads_count" | "syncthreads_and" | "syncthreads_or" => {
                let [p] = self.bind_all(c, what, ["pred"])?;
                let p = self.predicate(p, what)?;
                self.at(r);
                let (op, ty): (fn(&dyn TextValue, &str) -> String, Ty) = match name {
                    "syncthreads_count" => (generic::syncthreads_count, INT32),
                    "syncthreads_and" => (generic::syncthreads_and, Ty::Bool),
                    _ => (generic::syncthreads_or, Ty::Bool),
                };
                Ok(Item::Val(self.b.op1(&op(&p, &ty.mlir()), ty)))
            }
            "threadfence" => {
                let [memory, scope] = self.bind(c, what, &["memory", "scope"], 0)?[..] else { unreachable!() };
                let memory = self.order_arg(memory)?;
                let scope = self.scope_arg(scope)?;
                self.at(r);
                self.b.op(
                    &[],
                    &generic::threadfence(
                        MemoryOrder::parse(&memory).expect("checked by order_arg"),
                        Scope::parse(&scope).expect("checked by scope_arg"),
                    ),
                );
                Ok(Item::NoneV)
            }
            _ => unreachable!("device.{name} is not one of the sync builtins"),
        }
    }
}
