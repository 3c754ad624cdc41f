//! `facts()`: the facts of device code that the Python package needs (SM
//! architectures, memory orders and scopes, atomic methods, device-only
//! names, the math table, the small float formats, the host adapter
//! prefix, the numeric promotion table), from their one definition in the
//! dialect and frontend crates.
//! python/tests/test_facts.py writes them into python/pydev/_facts.py (so
//! that `import cuda.device` loads no native code) and fails when that file
//! is stale. `small_float_bits` exposes the one rounding of small floats to
//! the agreement test of `pydev._types.soft_encode`.

use pydev_dialect::promotion::{self, OpKind, NUMBERS};
use pydev_dialect::{float, AtomicRMWKind, MemoryOrder, Scope, SM_ARCHS};
use pydev_frontend_python::facts::{self as f, MathOp};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

/// {name: value} of every fact; tuples for lists, dicts for tables.
#[pyfunction]
pub fn facts(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("SM_ARCHS", PyTuple::new(py, SM_ARCHS)?)?;
    d.set_item("MEMORY_ORDERS", PyTuple::new(py, MemoryOrder::NAMES)?)?;
    d.set_item("SCOPES", PyTuple::new(py, Scope::NAMES)?)?;
    d.set_item("ATOMIC_METHODS", PyTuple::new(py, f::ATOMIC_METHODS.iter())?)?;
    let rmw = PyDict::new(py);
    for &k in AtomicRMWKind::ALL {
        rmw.set_item(f::rmw_method(k), k.as_str())?;
    }
    d.set_item("ATOMIC_RMW_METHODS", rmw)?;
    d.set_item("DEVICE_ONLY", PyTuple::new(py, f::DEVICE_ONLY)?)?;
    d.set_item("DEVICE_NAMES", PyTuple::new(py, f::DEVICE_NAMES)?)?;
    let math = PyDict::new(py);
    for m in f::MATH_FUNCTIONS {
        let op = match m.op {
            MathOp::Op(op) => op.into_pyobject(py)?.into_any(),
            MathOp::Test { predicate, abs } => ("arith.cmpf", predicate, abs).into_pyobject(py)?.into_any(),
        };
        math.set_item(m.name, (m.arity, op))?;
    }
    d.set_item("MATH_FUNCTIONS", math)?;
    let small = PyDict::new(py);
    for s in float::SMALL_FLOATS {
        small.set_item(s.name, (s.exp_bits, s.man_bits, s.finite_only))?;
    }
    d.set_item("SMALL_FLOATS", small)?;
    d.set_item("HOST_ADAPTER_PREFIX", f::HOST_ADAPTER_PREFIX)?;
    d.set_item("RAISE_FUNCTION", pydev_dialect::abi::RAISE)?;
    d.set_item("RAISED_FUNCTION", pydev_dialect::abi::RAISED)?;
    let kind = |k: OpKind| format!("{k:?}").to_lowercase();
    let ops = PyDict::new(py);
    for (mnemonic, _, k) in promotion::OPS {
        ops.set_item(mnemonic, kind(k))?;
    }
    d.set_item("PROMOTING_OPS", ops)?;
    let table = PyDict::new(py);
    for k in [OpKind::Arith, OpKind::MinMax, OpKind::TrueDiv, OpKind::Bitwise, OpKind::Shift] {
        let results = PyDict::new(py);
        for a in NUMBERS {
            for b in NUMBERS {
                if let Some(r) = promotion::result(k, a, b) {
                    results.set_item((a.mlir(), b.mlir()), r.mlir())?;
                }
            }
        }
        table.set_item(kind(k), results)?;
    }
    d.set_item("PROMOTION", table)?;
    Ok(d)
}

/// The bits of each of `values` rounded to the small float format `name`
/// (`pydev_dialect::float::SmallFloat::round`).
#[pyfunction]
pub fn small_float_bits(name: &str, values: Vec<f64>) -> PyResult<Vec<u64>> {
    let format =
        float::SmallFloat::by_name(name).ok_or_else(|| PyValueError::new_err(format!("no small float '{name}'")))?;
    Ok(values.into_iter().map(|x| format.round(x)).collect())
}
