//! The `cuda.device` builtins of one family in device code. Target
//! specialization: `target(desc)`, the SM selectors `is_exactly(sm)` and
//! `provides(sm)`.

use super::*;

impl Lowerer<'_, '_, '_> {
    /// Lowers call `device.name(...)` `c` of this family (target specialization);
    /// `device_call` routes only its names here.
    pub(super) fn target_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let r = c.range();
        let what = &format!("device.{name}");
        match name {
            "target" => {
                let [d] = self.bind_all(c, what, ["desc"])?;
                let t = match self.expr(d)? {
                    Item::Target(t) => t,
                    other => {
                        return self.err_help(
                            d.range(),
                            format!("{what}() takes a constant target description, got {}", describe(&other)),
                            "e.g. target(is_host) or target(provides(sm80) & ~is_exactly(sm90))",
                        )
                    }
                };
                self.at(r);
                let v = self.b.op1(&generic::target(&t.text(), &Ty::Bool.mlir()), Ty::Bool);
                if let Some(target) = self.c.target {
                    self.target_known.insert(v.id, t.holds(target));
                }
                Ok(Item::Val(v))
            }
            "is_exactly" | "provides" => {
                let [s] = self.bind_all(c, what, ["sm"])?;
                let Item::Sm(sm) = self.expr(s)? else {
                    return self.err_help(s.range(), format!("{what}() takes an SM selector"), "e.g. device.sm80");
                };
                Ok(Item::Target(Target::leaf(
                    if name == "provides" { TargetKind::Provides } else { TargetKind::IsExactly },
                    sm,
                )))
            }
            _ => unreachable!("device.{name} is not one of the targets builtins"),
        }
    }
}
