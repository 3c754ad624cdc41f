//! `pydev-lower-math-libm`: the math ops whose upstream LLVM lowering loses
//! accuracy, as calls of the C library's accurate functions (host target).
//!
//! Upstream `convert-math-to-llvm` lowers `math.expm1` as `exp(x) - 1` and
//! `math.log1p` as `log(1 + x)`, which cancel digits near zero
//! (`log1p(1e-17)` gives 0, `log1p(-0.0)` gives +0.0). Its other lowerings
//! are LLVM intrinsics that are exact (`fabs`, `floor`, `sqrt`, `fma`, ...) or
//! become the libm call of the same name (`sin`, `exp`, `log`, `pow`, ...),
//! so the host pipeline runs this pass just before it, as the cuda pipeline
//! calls libdevice's `__nv_expm1`/`__nv_log1p`.
//! Expects: `math.expm1` / `math.log1p` on scalar f16, bf16, f32 or f64,
//! anywhere under a module (run on the module: the C functions are declared
//! in it).
//! Guarantees: no scalar `math.expm1` or `math.log1p` remains; each is a
//! `func.call` of libm's function, at the op's location, by upstream's
//! MathToLibm patterns (f16 and bf16 extended to f32 and the result
//! truncated back); `func.func private @expm1` etc. declared once.
//! Does not fire on the other `math` ops, nor on vector operands (those keep
//! upstream's lowering: unrolling them needs the vector dialect, which the
//! pipelines do not load).
//!
//! Rewrites:
//!   math.expm1 x : f64  =>  func.call @expm1(x)
//!   math.expm1 x : f32  =>  func.call @expm1f(x)
//!   math.log1p x : f64  =>  func.call @log1p(x)
//!   math.log1p x : f32  =>  func.call @log1pf(x)
//!   math.log1p x : f16  =>  arith.truncf (func.call @log1pf(arith.extf x))   (bf16 alike)

use crate::{ir::PassId, PassInfo};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-math-libm",
    summary: "lower math.expm1 and math.log1p to libm's accurate expm1/log1p calls",
    options: &[],
    create: |_| {
        Ok(crate::ir::external_pass_on_op(&ID, INFO.argument, INFO.summary, |op| {
            if pydev_dialect::lower_math_libm(op) {
                Ok(())
            } else {
                Err("pydev-lower-math-libm: a math.expm1 or math.log1p could not be lowered to libm".to_owned())
            }
        }))
    },
};
