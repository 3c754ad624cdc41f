//! The program description that `pydev._launch` passes to `compile` decoded
//! into the frontend's types: free names' constants, functions with their
//! environments and ConstExpr arguments, target descriptions.

use pydev_frontend_python::{
    ir::Const, module::GlobalConst, Binding, Env, Free, FreeNames, FuncKind, FuncSpec, Program, Target as Target_,
    TargetKind,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple};

fn global(name: &str, v: &Bound<'_, PyAny>) -> PyResult<GlobalConst> {
    Ok(if v.is_instance_of::<PyBool>() {
        GlobalConst::Num(Const::Bool(v.extract()?))
    } else if v.is_instance_of::<PyInt>() {
        GlobalConst::Num(Const::Int(v.extract()?))
    } else if v.is_instance_of::<PyFloat>() {
        GlobalConst::Num(Const::Float(v.extract()?))
    } else if v.is_instance_of::<PyString>() {
        GlobalConst::Str(v.extract()?)
    } else if let Ok(t) = v.downcast::<PyTuple>() {
        GlobalConst::Tuple(t.iter().map(|x| global(name, &x)).collect::<PyResult<_>>()?)
    } else {
        return Err(PyTypeError::new_err(format!("global '{name}' is a {} that device code cannot use as a constant (numbers, strings and tuples of them can be)", v.get_type().name()?)));
    })
}

pub(crate) fn free_names(consts: Option<&Bound<'_, PyDict>>) -> PyResult<FreeNames> {
    let mut free = FreeNames::new();
    if let Some(d) = consts {
        for (k, v) in d.iter() {
            let name: String = k.extract()?;
            free.insert(name.clone(), global(&name, &v)?);
        }
    }
    Ok(free)
}

/// A constant of a program description: `("num", x)` (a Python number,
/// weak), `("typed", dtype, x)` (a NumPy scalar), `("str", s)`,
/// `("tuple", (c, ...))`.
fn program_const(name: &str, v: &Bound<'_, PyAny>) -> PyResult<GlobalConst> {
    let t = v.downcast::<PyTuple>()?;
    let tag: String = t.get_item(0)?.extract()?;
    Ok(match tag.as_str() {
        "num" | "str" => global(name, &t.get_item(1)?)?,
        "typed" => {
            let dtype: String = t.get_item(1)?.extract()?;
            let GlobalConst::Num(c) = global(name, &t.get_item(2)?)? else {
                return Err(PyValueError::new_err(format!("'{name}': a {dtype} scalar must be a number")));
            };
            GlobalConst::Typed(dtype, c)
        }
        "tuple" => GlobalConst::Tuple(
            t.get_item(1)?.downcast::<PyTuple>()?.iter().map(|x| program_const(name, &x)).collect::<PyResult<_>>()?,
        ),
        other => return Err(PyValueError::new_err(format!("'{name}': unknown constant kind {other}"))),
    })
}

/// A target description tree: `(op, sm, (operands...))`.
fn program_target(t: &Bound<'_, PyTuple>) -> PyResult<Target_> {
    let op: String = t.get_item(0)?.extract()?;
    let kind =
        TargetKind::parse(&op).ok_or_else(|| PyValueError::new_err(format!("unknown target description {op}")))?;
    let operands = t
        .get_item(2)?
        .downcast::<PyTuple>()?
        .iter()
        .map(|o| program_target(o.downcast::<PyTuple>()?))
        .collect::<PyResult<_>>()?;
    Ok(Target_ { kind, sm: t.get_item(1)?.extract()?, operands })
}

/// The value of a free name in a program description (see
/// `pydev._launch._Function._program`).
fn program_free(name: &str, v: &Bound<'_, PyAny>) -> PyResult<Free> {
    let t = v.downcast::<PyTuple>()?;
    let tag: String = t.get_item(0)?.extract()?;
    let text = || -> PyResult<String> { t.get_item(1)?.extract() };
    Ok(match tag.as_str() {
        "const" => Free::Const(program_const(name, &t.get_item(1)?)?),
        "func" => Free::Func(t.get_item(1)?.extract()?),
        "struct" => Free::Struct(text()?),
        "dtype" => Free::Dtype(text()?),
        "device" => Free::Device(text()?),
        "module" => Free::Module(match text()?.as_str() {
            "device" => Binding::DeviceModule,
            "cuda" => Binding::CudaPackage,
            "math" => Binding::MathModule,
            "numpy" => Binding::NumpyModule,
            other => return Err(PyValueError::new_err(format!("'{name}': unknown module {other}"))),
        }),
        "target" => Free::Target(program_target(t.get_item(1)?.downcast::<PyTuple>()?)?),
        "host" => Free::HostOnly(text()?),
        other => return Err(PyValueError::new_err(format!("'{name}': unknown kind of value {other}"))),
    })
}

/// `[(line, qualname, kind, interop, ((name, value), ...), ((index, constant), ...)), ...]`,
/// the root first; the last part holds the root kernel's ConstExpr arguments.
pub(crate) fn program(p: &Bound<'_, PyAny>) -> PyResult<Program> {
    let mut funcs = Vec::new();
    for f in p.try_iter()? {
        let f = f?;
        let f = f.downcast::<PyTuple>()?;
        let kind = match f.get_item(2)?.extract::<String>()?.as_str() {
            "kernel" => FuncKind::Kernel,
            "func" => FuncKind::Func,
            other => return Err(PyValueError::new_err(format!("unknown function kind {other}"))),
        };
        let mut env = Env::new();
        for item in f.get_item(4)?.try_iter()? {
            let item = item?;
            let (name, value): (String, Bound<'_, PyAny>) = item.extract()?;
            let v = program_free(&name, &value)?;
            env.insert(name, v);
        }
        let mut const_args = Vec::new();
        if f.len() > 5 {
            for item in f.get_item(5)?.try_iter()? {
                let (i, c): (usize, Bound<'_, PyAny>) = item?.extract()?;
                let value = match program_const("a ConstExpr argument", &c)? {
                    GlobalConst::Num(v) | GlobalConst::Typed(_, v) => v,
                    _ => return Err(PyValueError::new_err("a ConstExpr argument must be a number")),
                };
                const_args.push((i, value));
            }
        }
        funcs.push(FuncSpec {
            line: f.get_item(0)?.extract()?,
            qualname: f.get_item(1)?.extract()?,
            kind,
            interop: f.get_item(3)?.extract()?,
            env,
            const_args,
        });
    }
    if funcs.is_empty() {
        return Err(PyValueError::new_err("a program has at least its root function"));
    }
    Ok(Program { funcs })
}
