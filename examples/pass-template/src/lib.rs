//! A pass plugin built outside pydev, to copy and change.
//!
//! It adds one pass, `example-mul-pow2-to-shift`, and exports it with
//! [`pydev_passes::export_plugin!`], which makes the library load into
//! upstream `mlir-opt-22 --load-dialect-plugin=P --load-pass-plugin=P`,
//! into `pydev-opt --load-pass-plugin=P`, and into the Python JIT
//! (`passes={"after-frontend": "example-mul-pow2-to-shift"}, plugins=[P]`).
//! It uses only pydev's public Rust API, `pydev_passes::api`: the run's
//! token, the rewrite helpers and the generated op views.
//!
//! Contract of `example-mul-pow2-to-shift`:
//! Expects: pydev IR before type promotion (the `after-frontend` point).
//! Guarantees: the same values; a multiplication of an integer by a
//! constant power of two, all three of one integer type, is a shift.
//! Does not fire on floats, on `i1`, on mixed types (promotion decides
//! those), on other constants, or on negative and zero constants.
//!
//! Rewrites (`T` an integer type, `c = 2^k`, `k >= 1`):
//!   pydev.mul x, (pydev.constant c : T) : T, T -> T
//!     =>  pydev.lshift x, (pydev.constant k : T) : T, T -> T

use melior::ir::{operation::OperationLike, TypeLike, ValueLike};
use pydev_passes::api::ops;
use pydev_passes::api::{external_pass, integer_attr_value, rewrite_all, PassId, PassInfo, PassIr, PassResult};

static ID: PassId = PassId;

/// The registry entry: the plugin's passes are listed as pydev's are.
pub const MUL_POW2_TO_SHIFT: PassInfo = PassInfo {
    argument: "example-mul-pow2-to-shift",
    summary: "multiplications of integers by a constant power of two become shifts (an example plugin pass)",
    options: &[],
    create: |_| Ok(external_pass(&ID, MUL_POW2_TO_SHIFT.argument, MUL_POW2_TO_SHIFT.summary, run)),
};

fn run(ir: PassIr) -> PassResult {
    let root = ir.root();
    rewrite_all(ir, root, &[ops::MulOperation::NAME], |b, op| {
        // pydev.mul x, (pydev.constant 2^k : T) : T, T -> T
        let (Ok(x), Ok(c), Ok(result)) = (op.operand(0), op.operand(1), op.result(0)) else { return Ok(()) };
        let ty = result.r#type();
        let integer = ty.is_integer() && ty.to_string() != "i1";
        if !integer || x.r#type() != ty || c.r#type() != ty {
            return Ok(()); // does not fire: floats, bools, mixed types
        }
        let Some(constant) = b.ir.defining_op(c) else { return Ok(()) };
        if constant.name().as_string_ref().as_str() != Ok(ops::ConstantOperation::NAME) {
            return Ok(());
        }
        let Some(value) = constant.attribute("value").ok().and_then(integer_attr_value) else { return Ok(()) };
        if value < 2 || value & (value - 1) != 0 {
            return Ok(()); // does not fire: not a power of two above 1
        }
        // => pydev.lshift x, (pydev.constant k : T) : T, T -> T
        let k = b.attr(&format!("{} : {ty}", value.trailing_zeros()));
        let k = b.value(ops::ConstantOperation::NAME, &[], ty, &[b.named("value", k)]);
        let x = b.ir.value(x);
        let shifted = b.value(ops::LShiftOperation::NAME, &[x, k], ty, &[]);
        b.replace(op, &[shifted]);
        Ok(())
    })
}

pydev_passes::export_plugin!("pydev-pass-template", [MUL_POW2_TO_SHIFT]);
