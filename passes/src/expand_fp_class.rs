//! `pydev-expand-fp-class`: the floating-point class tests that no upstream
//! lowering takes on every target, as comparisons.
//!
//! Expects: `math.isinf` / `math.isnormal` on scalar or vector floats of any
//! width (f16, bf16, f32, f64), anywhere (a framework's `pydev.Program` may
//! use them; upstream `convert-math-to-llvm` lowers only `isnan` and
//! `isfinite`, and the NVVM lowering has no `isnormal`).
//! Guarantees: no `math.isinf` or `math.isnormal` remains; each becomes
//! ordered comparisons of `math.absf` of its operand, at the op's location,
//! so NaN is neither infinite nor normal, as C's `isinf`/`isnormal` say.
//! Both pipelines run it before their math lowering.
//! Does not fire on the other `math` ops, nor on IR without these two.
//!
//! Rewrites (`a = math.absf x`, `inf` and `min` the type's infinity and
//! smallest normal, splatted for vectors):
//!   math.isinf x    =>  arith.cmpf oeq, a, inf
//!   math.isnormal x =>  arith.andi (arith.cmpf oge, a, min), (arith.cmpf olt, a, inf)

use crate::capi::PassIr;
use crate::ir::{rewrite_all, Builder, PassResult, RewriteError};
use crate::{
    ir::{external_pass, PassId},
    PassInfo,
};
use melior::ir::{operation::OperationLike, Type, Value, ValueLike};

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-expand-fp-class",
    summary: "expand math.isinf and math.isnormal into comparisons of the absolute value",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    if ir.ops_named(root, &["math.isinf", "math.isnormal"]).is_empty() {
        return Ok(());
    }
    rewrite_all(ir, root, &["math.isinf", "math.isnormal"], |b, op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
        let x = b.ir.value(op.operand(0).map_err(|_| "a class test without an operand")?);
        let result = op.result(0).map_err(|_| "a class test without a result")?.r#type();
        let a = b.value("math.absf", &[x], x.r#type(), &[]);
        let inf = constant(b, x.r#type(), Limit::Infinity)?;
        let is_inf = cmpf(b, "oeq", a, inf, result);
        let value = if name == "math.isinf" {
            is_inf
        } else {
            let min = constant(b, x.r#type(), Limit::SmallestNormal)?;
            let big_enough = cmpf(b, "oge", a, min, result);
            let finite = cmpf(b, "olt", a, inf, result);
            b.value("arith.andi", &[big_enough, finite], result, &[])
        };
        b.replace(op, &[value]);
        Ok(())
    })
}

enum Limit {
    Infinity,
    SmallestNormal,
}

/// The scalar float type of `ty` (itself, or a vector's element) and its
/// vector shape text (`vector<4x` .. `>`), if a vector.
fn element(ty: Type<'_>) -> (String, Option<String>) {
    let text = ty.to_string();
    match text.strip_prefix("vector<").and_then(|r| r.strip_suffix('>')) {
        Some(inner) => {
            let (shape, elem) = inner.rsplit_once('x').unwrap_or(("", inner));
            (elem.to_owned(), Some(shape.to_owned()))
        }
        None => (text, None),
    }
}

/// `arith.constant` of `limit` in float type `ty` (splatted for a vector).
fn constant<'c>(b: &Builder<'c>, ty: Type<'c>, limit: Limit) -> Result<Value<'c, 'c>, RewriteError> {
    let (elem, shape) = element(ty);
    // The bits of +inf and of the smallest normal number of each format.
    let bits = match (elem.as_str(), limit) {
        ("f16", Limit::Infinity) => "0x7C00",
        ("f16", Limit::SmallestNormal) => "0x0400",
        ("bf16", Limit::Infinity) => "0x7F80",
        ("bf16", Limit::SmallestNormal) => "0x0080",
        ("f32", Limit::Infinity) => "0x7F800000",
        ("f32", Limit::SmallestNormal) => "0x00800000",
        ("f64", Limit::Infinity) => "0x7FF0000000000000",
        ("f64", Limit::SmallestNormal) => "0x0010000000000000",
        (other, _) => {
            return Err(RewriteError::Unsupported(format!(
                "a floating-point class test of {other} (supported: f16, bf16, f32, f64)"
            )))
        }
    };
    let attr = match shape {
        Some(shape) => format!("dense<{bits}> : vector<{shape}x{elem}>"),
        None => format!("{bits} : {elem}"),
    };
    Ok(b.value("arith.constant", &[], ty, &[b.named("value", b.attr(&attr))]))
}

fn cmpf<'c>(b: &Builder<'c>, predicate: &str, x: Value<'c, 'c>, y: Value<'c, 'c>, result: Type<'c>) -> Value<'c, 'c> {
    // arith::CmpFPredicate's values.
    let code = match predicate {
        "oeq" => 1,
        "oge" => 3,
        "olt" => 4,
        _ => unreachable!("a predicate this pass does not use"),
    };
    b.value("arith.cmpf", &[x, y], result, &[b.named("predicate", b.attr(&format!("{code} : i64")))])
}
