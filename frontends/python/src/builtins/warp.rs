//! The `cuda.device` builtins of one family in device code. Warp-level
//! builtins: masks (`activemask`, `lanemask_lt`, `WarpMask(x)`), `syncwarp`,
//! votes, shuffles and matches.

use super::*;

impl Lowerer<'_, '_, '_> {
    /// Lowers call `device.name(...)` `c` of this family (warp-level builtins);
    /// `device_call` routes only its names here.
    pub(super) fn warp_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let r = c.range();
        let what = &format!("device.{name}");
        match name {
            "activemask" | "lanemask_lt" => {
                self.bind_all(c, what, [])?;
                self.at(r);
                let mask = Ty::WarpMask.mlir();
                let op = if name == "activemask" { generic::activemask(&mask) } else { generic::lanemask_lt(&mask) };
                Ok(Item::Val(self.b.op1(&op, Ty::WarpMask)))
            }
            "syncwarp" => {
                let [m] = self.bind_all(c, what, ["mask"])?;
                let m = self.mask_arg(m, what)?;
                self.at(r);
                self.b.op(&[], &generic::syncwarp(&m));
                Ok(Item::NoneV)
            }
            "all_sync" | "any_sync" | "eq_sync" | "ballot_sync" => {
                let [m, p] = self.bind_all(c, what, ["mask", "pred"])?;
                let m = self.mask_arg(m, what)?;
                let p = self.predicate(p, what)?;
                self.at(r);
                let kind = VoteKind::parse(name.trim_end_matches("_sync")).expect("one of the vote builtins");
                let ty = if kind == VoteKind::Ballot { Ty::WarpMask } else { Ty::Bool };
                Ok(Item::Val(self.b.op1(&generic::vote(kind, &m, &p, &ty.mlir()), ty)))
            }
            "shfl_sync" | "shfl_up_sync" | "shfl_down_sync" | "shfl_xor_sync" => {
                let lane_name = match name {
                    "shfl_sync" => "src_lane",
                    "shfl_xor_sync" => "flag",
                    _ => "delta",
                };
                let [m, x, lane] = self.bind_all(c, what, ["mask", "value", lane_name])?;
                let m = self.mask_arg(m, what)?;
                let value_range = x.range();
                let x = self.value(x)?;
                if x.ty.size() > 8
                    || !matches!(
                        x.ty,
                        Ty::Bool
                            | Ty::Int { .. }
                            | Ty::Float(_)
                            | Ty::Complex(_)
                            | Ty::Vector { .. }
                            | Ty::Struct(_)
                            | Ty::Tuple(_)
                            | Ty::WarpMask
                    )
                {
                    return self.err_help(
                        value_range,
                        format!("{what}() moves values of at most 8 bytes, got {} ({} bytes)", x.ty, x.ty.size()),
                        "shuffle the parts of a larger value one by one",
                    );
                }
                let lane_item = self.expr(lane)?;
                let lane_v = match lane_item {
                    Item::Val(l) if l.ty.is_integer() || l.ty == Ty::WarpMask => l,
                    other => {
                        return self.err(
                            lane.range(),
                            format!("the {lane_name} of {what}() must be an int32, got {}", describe(&other)),
                        )
                    }
                };
                if let Some(Const::Int(k)) = lane_v.konst {
                    if !(0..32).contains(&k) {
                        return self.err_help(
                            lane.range(),
                            format!("{lane_name} {k} of {what}() is outside the warp (0 to 31)"),
                            "lanes of a warp are numbered 0 to 31",
                        );
                    }
                }
                let kind = match name {
                    "shfl_sync" => ShuffleKind::Idx,
                    "shfl_up_sync" => ShuffleKind::Up,
                    "shfl_down_sync" => ShuffleKind::Down,
                    _ => ShuffleKind::Xor,
                };
                self.at(r);
                Ok(Item::Val(self.b.op1(&generic::shfl(kind, &m, &x, &lane_v, &x.ty.mlir()), x.ty.clone())))
            }
            "match_any_sync" | "match_all_sync" => {
                // The spec's `flag` has no documented meaning; it is checked, not used.
                let [m, x, flag] = self.bind(c, what, &["mask", "value", "flag"], 2)?[..] else { unreachable!() };
                let m = self.mask_arg(m.expect("required"), what)?;
                let value = x.expect("required");
                let x = self.value(value)?;
                if !matches!(&x.ty, Ty::Int { bits: 32 | 64, .. } | Ty::Float(FloatKind::F32 | FloatKind::F64)) {
                    return self.err_help(
                        value.range(),
                        format!("{what}() compares 32- or 64-bit numbers, got {}", x.ty),
                        "convert the value, e.g. device.int32(...)",
                    );
                }
                if let Some(flag) = flag {
                    let f = self.value(flag)?;
                    if !f.ty.is_integer() {
                        return self.err(flag.range(), format!("the flag of {what}() must be an int32, got {}", f.ty));
                    }
                }
                self.at(r);
                if name == "match_any_sync" {
                    return Ok(Item::Val(self.b.op1(&generic::match_any(&m, &x, &Ty::WarpMask.mlir()), Ty::WarpMask)));
                }
                let (mask, pred) = (self.b.fresh(), self.b.fresh());
                self.b.op(&[mask, pred], &generic::match_all(&m, &x, &Ty::WarpMask.mlir(), &Ty::Bool.mlir()));
                Ok(Item::Tuple(vec![
                    Item::Val(Val { id: mask, ty: Ty::WarpMask, weak: false, konst: None }),
                    Item::Val(Val { id: pred, ty: Ty::Bool, weak: false, konst: None }),
                ]))
            }
            "WarpMask" => {
                // Like the number types, a WarpMask converts one positional value.
                if let Some(k) = c.arguments.keywords.first() {
                    return self.err_help(k.range(), "WarpMask() takes no keyword arguments", "write WarpMask(x)");
                }
                let [x] = self.bind_all(c, "WarpMask", ["x"])?;
                self.mask_arg(x, "WarpMask").map(Item::Val)
            }
            _ => unreachable!("device.{name} is not one of the warp builtins"),
        }
    }
}
