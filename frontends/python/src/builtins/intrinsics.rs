//! The `cuda.device` builtins of one family in device code. Numeric
//! intrinsics: bit counts and reversal (`popc`, `brev`, `clz`, `ffs`), `cbrt`
//! and `fma`.

use super::*;

impl Lowerer<'_, '_, '_> {
    /// Lowers call `device.name(...)` `c` of this family (numeric intrinsics);
    /// `device_call` routes only its names here.
    pub(super) fn intrinsic_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let r = c.range();
        let what = &format!("device.{name}");
        match name {
            "popc" | "brev" | "clz" | "ffs" => {
                let [x] = self.bind_all(c, what, ["x"])?;
                let x_range = x.range();
                let x = self.value(x)?;
                let Ty::Int { bits, .. } = x.ty else {
                    return self.err_help(
                        x_range,
                        format!("{what}() needs an integer, got {}", x.ty),
                        "convert it, e.g. device.int32(x)",
                    );
                };
                self.at(r);
                let raw_ty = Ty::Raw(if bits == 64 {
                    "i64"
                } else if bits == 32 {
                    "i32"
                } else if bits == 16 {
                    "i16"
                } else {
                    "i8"
                });
                let raw = self.b.op1(&generic::cast(&x, &raw_ty.mlir()), raw_ty.clone());
                let it = format!("i{bits}");
                let res = match name {
                    "popc" => self.b.op1(&format!("math.ctpop {} : {it}", v(raw.id)), raw_ty.clone()),
                    "clz" => self.b.op1(&format!("math.ctlz {} : {it}", v(raw.id)), raw_ty.clone()),
                    "brev" => {
                        let b = self
                            .b
                            .op1(&format!("llvm.intr.bitreverse({}) : ({it}) -> {it}", v(raw.id)), raw_ty.clone());
                        return Ok(Item::Val(self.b.op1(&generic::cast(&b, &x.ty.mlir()), x.ty.clone())));
                    }
                    _ => {
                        // ffs(x) = x == 0 ? 0 : cttz(x) + 1
                        let tz = self.b.op1(&format!("math.cttz {} : {it}", v(raw.id)), raw_ty.clone());
                        let one = self.b.op1(&format!("arith.constant 1 : {it}"), raw_ty.clone());
                        let zero = self.b.op1(&format!("arith.constant 0 : {it}"), raw_ty.clone());
                        let p1 = self.b.op1(&format!("arith.addi {}, {} : {it}", v(tz.id), v(one.id)), raw_ty.clone());
                        let is0 =
                            self.b.op1(&format!("arith.cmpi eq, {}, {} : {it}", v(raw.id), v(zero.id)), Ty::Raw("i1"));
                        self.b.op1(
                            &format!("arith.select {}, {}, {} : {it}", v(is0.id), v(zero.id), v(p1.id)),
                            raw_ty.clone(),
                        )
                    }
                };
                let res32 = match bits {
                    32 => res,
                    b if b < 32 => self.b.op1(&format!("arith.extui {} : {it} to i32", v(res.id)), Ty::Raw("i32")),
                    _ => self.b.op1(&format!("arith.trunci {} : {it} to i32", v(res.id)), Ty::Raw("i32")),
                };
                Ok(Item::Val(self.b.op1(&generic::cast(&res32, &INT32.mlir()), INT32)))
            }
            "cbrt" => {
                let [x] = self.bind_all(c, what, ["a"])?;
                let x_range = x.range();
                let x = self.value(x)?;
                if !x.ty.is_float() {
                    return self.err_help(
                        x_range,
                        format!("{what}() needs a floating-point number, got {}", x.ty),
                        "convert it, e.g. device.float32(x)",
                    );
                }
                self.at(r);
                Ok(Item::Val(self.b.op1(&format!("math.cbrt {} : {}", v(x.id), x.ty.mlir()), x.ty.clone())))
            }
            "fma" => {
                let exprs = self.bind_all(c, what, ["a", "b", "c"])?;
                let mut args = Vec::new();
                for e in exprs {
                    let x = self.value(e)?;
                    if !x.ty.is_float() {
                        return self.err_help(
                            e.range(),
                            format!("{what}() needs floating-point numbers, got {}", x.ty),
                            "convert it, e.g. device.float32(x), or write a float literal such as 2.0",
                        );
                    }
                    args.push(x);
                }
                // The common type; Python floats adopt the others' type.
                let (mut ty, mut weak) = (args[0].ty.clone(), args[0].weak);
                for x in &args[1..] {
                    ty = crate::types::promote(&ty, weak, &x.ty, x.weak).map_err(|e| self.c.error(r, e.to_string()))?;
                    weak &= x.weak;
                }
                let conv = args.iter().map(|x| self.convert(x, &ty, r)).collect::<R<Vec<_>>>()?;
                self.at(r);
                Ok(Item::Val(self.b.op1(
                    &format!("math.fma {}, {}, {} : {}", v(conv[0].id), v(conv[1].id), v(conv[2].id), ty.mlir()),
                    ty,
                )))
            }
            _ => unreachable!("device.{name} is not one of the intrinsics builtins"),
        }
    }
}
