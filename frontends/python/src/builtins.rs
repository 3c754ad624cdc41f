//! The entities of `cuda.device` in device code: thread positioning, target
//! specialization, local/shared memory, atomics, block and warp
//! synchronization, numeric intrinsics, and the `math` module.
//! `device_call` routes a call to its family's lowering, one file each
//! under builtins/ (position, sync, warp, memory, atomics, intrinsics,
//! targets, layout).

use crate::{
    ir::{v, Const, Typed, Val},
    lower::{describe, Item, Lowerer, Target, R},
    types::{ArrayLayout, FloatKind, Space, Ty, FLOAT32, INT32, UINT32},
};
use pydev_dialect::{
    ops::generic::{self, TextValue},
    AtomicRMWKind, MemoryOrder, Scope, ShuffleKind, TargetKind, VoteKind,
};
use ruff_python_ast::{self as ast, Expr};
use ruff_text_size::{Ranged, TextRange};

mod atomics;
mod intrinsics;
mod layout;
mod memory;
mod position;
mod sync;
mod targets;
mod warp;

/// The Python name of the atomic read-modify-write `kind`: its spelling,
/// with a `_` after a Python keyword (`and_`, `or_`).
pub fn rmw_method(kind: AtomicRMWKind) -> &'static str {
    match kind.as_str() {
        "and" => "and_",
        "or" => "or_",
        name => name,
    }
}

/// The methods of an atomic reference (spec: AtomicInterface): one per
/// [`AtomicRMWKind`] ([`rmw_method`]), then compare-and-swap, load, store,
/// wait and notify.
pub static ATOMIC_METHODS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let rmw = AtomicRMWKind::ALL.iter().map(|&k| rmw_method(k));
    rmw.chain(["cas", "load", "store", "wait", "notify_one", "notify_all"]).collect()
});

/// The memory orders and thread scopes of atomics and fences: the dialect's.
const MEMORY_ORDERS: &[&str] = MemoryOrder::NAMES;
const SCOPES: &[&str] = Scope::NAMES;

/// Names of cuda.device usable in device code only: in host Python each
/// is a stand-in that raises DeviceOnlyError (`cuda.device.DEVICE_ONLY`).
pub const DEVICE_ONLY: &[&str] = &[
    "thread_idx",
    "block_idx",
    "block_dim",
    "grid_dim",
    "tid",
    "grid_size",
    "warp_size",
    "lane_id",
    "local_array",
    "shared_array",
    "dynamic_shared_array",
    "atomic_ref",
    "threadfence",
    "syncthreads",
    "syncthreads_count",
    "syncthreads_and",
    "syncthreads_or",
    "activemask",
    "lanemask_lt",
    "syncwarp",
    "all_sync",
    "any_sync",
    "eq_sync",
    "ballot_sync",
    "shfl_sync",
    "shfl_up_sync",
    "shfl_down_sync",
    "shfl_xor_sync",
    "match_any_sync",
    "match_all_sync",
];

/// The other names of cuda.device that are values or callables in device
/// code (heterogeneous: they work in host Python too).
pub const DEVICE_NAMES: &[&str] = &[
    "popc",
    "brev",
    "clz",
    "ffs",
    "cbrt",
    "fma",
    "target",
    "is_exactly",
    "provides",
    "machine_representation",
    "WarpMask",
    "align",
    "ConstExpr",
    "Atomic",
    "kernel",
    "func",
    "struct",
    "launch",
];

/// Whether `name` of cuda.device is a value or callable in device code.
fn is_device_name(name: &str) -> bool {
    DEVICE_ONLY.contains(&name) || DEVICE_NAMES.contains(&name)
}

impl Lowerer<'_, '_, '_> {
    pub fn device_attr(&mut self, attr: &str, range: TextRange) -> R<Item> {
        if let Some(t) = Ty::from_dtype_name(attr).filter(|_| !matches!(attr, "int" | "float" | "complex" | "bool")) {
            return Ok(Item::Dtype(t));
        }
        if let Some(t) = Ty::from_vector_name(attr) {
            return Ok(Item::Dtype(t));
        }
        if let Some(sm) = attr.strip_prefix("sm").and_then(|s| s.parse::<u32>().ok()) {
            if !pydev_sm(sm) {
                let known = pydev_dialect::SM_ARCHS.iter().map(|a| format!("sm{a}")).collect::<Vec<_>>().join(", ");
                return self.err_help(
                    range,
                    format!("cuda.device has no architecture 'sm{sm}'"),
                    format!("the SM selectors are {known}"),
                );
            }
            return Ok(Item::Sm(sm));
        }
        Ok(match attr {
            "is_host" => Item::Target(Target::leaf(TargetKind::IsHost, 0)),
            "is_device" => Item::Target(Target::leaf(TargetKind::IsDevice, 0)),
            "any_target" => Item::Target(Target::leaf(TargetKind::AnyTarget, 0)),
            "no_target" => Item::Target(Target::leaf(TargetKind::NoTarget, 0)),
            "warp_size" => Item::Val(self.constant(Const::Int(32), range)?),
            "lane_id" => {
                let i = self.b.op1("gpu.lane_id", Ty::Raw("index"));
                Item::Val(self.index_to(i.id, &INT32))
            }
            a if is_device_name(a) => Item::Device(a.to_owned()),
            // Exposition-only entities describe others and are not part of
            // the interface (spec: General Requirements).
            "Dim3Like" => {
                return self.err_help(
                    range,
                    "'Dim3Like' is exposition only in the spec: cuda.device has no such entity",
                    "grid and block take an int or a tuple of 1 to 3 ints; thread_idx and friends are device.Dim3",
                )
            }
            a => return self.err(range, format!("cuda.device has no '{a}'")),
        })
    }

    /// `np.X` in device code: NumPy's dtypes (API.md: NumPy dtypes are
    /// accepted wherever a dtype is) and `np.dtype(...)`.
    pub fn numpy_attr(&mut self, attr: &str, range: TextRange) -> R<Item> {
        if let Some(t) = numpy_dtype(attr) {
            return Ok(Item::Dtype(t));
        }
        if attr == "dtype" {
            return Ok(Item::Builtin("numpy.dtype"));
        }
        self.err_help(range, format!("numpy.{attr} is not supported in device code"), "device code takes NumPy's dtypes (np.float32, np.int64, np.dtype(...)); use math and cuda.device for the rest")
    }

    /// `np.dtype(t)`: the dtype `t` names (a dtype, or its name: "float32", "<f4").
    pub fn numpy_dtype_call(&mut self, c: &ast::ExprCall) -> R<Item> {
        let [arg] = self.bind_all(c, "numpy.dtype", ["dtype"])?;
        match self.expr(arg)? {
            Item::Dtype(t) => Ok(Item::Dtype(t)),
            Item::StructClass(def) => Ok(Item::Dtype(Ty::Struct(def))),
            Item::Str(s) => match numpy_dtype(&s).or_else(|| numpy_typestr(&s)) {
                Some(t) => Ok(Item::Dtype(t)),
                None => self.err_help(
                    arg.range(),
                    format!("'{s}' is not a dtype device code supports"),
                    "e.g. np.dtype('float32') or np.dtype(np.int8)",
                ),
            },
            other => self.err_help(
                arg.range(),
                format!("numpy.dtype() needs a dtype or its name, got {}", describe(&other)),
                "e.g. np.dtype(np.int8)",
            ),
        }
    }

    /// A Dim3 (`thread_idx`, ...) as the uint32x3 it is (spec: Thread
    /// Positioning, `Dim3` is a subclass of `uint32x3`); other items as they are.
    pub fn dim3_as_vector(&mut self, item: Item, range: TextRange) -> R<Item> {
        match item {
            Item::Device(n) if matches!(n.as_str(), "thread_idx" | "block_idx" | "block_dim" | "grid_dim") => {
                Ok(Item::Val(self.dim3_value(&n, range)?))
            }
            other => Ok(other),
        }
    }

    /// `index` (from gpu ops) to a Python integer type.
    fn index_to(&mut self, id: usize, ty: &Ty) -> Val {
        let i32v = self.b.op1(&format!("arith.index_cast {} : index to i32", v(id)), Ty::Raw("i32"));
        self.b.op1(&generic::cast(&i32v, &ty.mlir()), ty.clone())
    }

    pub fn dim3_component(&mut self, name: &str, c: &str, range: TextRange) -> R<Item> {
        let op = match name {
            "thread_idx" => "gpu.thread_id",
            "block_idx" => "gpu.block_id",
            "block_dim" => "gpu.block_dim",
            _ => "gpu.grid_dim",
        };
        if !matches!(c, "x" | "y" | "z") {
            return self.err(range, format!("device.{name} has components x, y and z, not '{c}'"));
        }
        let i = self.b.op1(&format!("{op} {c}"), Ty::Raw("index"));
        Ok(Item::Val(self.index_to(i.id, &UINT32)))
    }

    /// `tx + bx * bd` (tid) or `bd * gd` (grid_size) per dimension, as int32.
    /// `tid(n)` / `grid_size(n)` as int32. Their values are non-negative and
    /// one that int32 cannot represent is undefined behaviour (spec: Builtin
    /// Numbers), so the arithmetic is `nsw nuw`: LLVM then knows indices
    /// built from them are non-negative and drops Python's negative-index
    /// wrap-around (and the shape loads it needs).
    fn position(&mut self, grid_size: bool, n: u32) -> Vec<Item> {
        let index = Ty::Raw("index");
        let i32t = Ty::Raw("i32");
        let mut out = Vec::new();
        for c in ["x", "y", "z"].iter().take(n as usize) {
            let mut read = |op: &str| {
                let x = self.b.op1(&format!("{op} {c}"), index.clone());
                self.b.op1(&format!("arith.index_castui {} : index to i32", v(x.id)), i32t.clone())
            };
            let r = if grid_size {
                let bd = read("gpu.block_dim");
                let gd = read("gpu.grid_dim");
                self.b.op1(&format!("arith.muli {}, {} overflow<nsw, nuw> : i32", v(bd.id), v(gd.id)), i32t.clone())
            } else {
                let t = read("gpu.thread_id");
                let bi = read("gpu.block_id");
                let bd = read("gpu.block_dim");
                let m = self
                    .b
                    .op1(&format!("arith.muli {}, {} overflow<nsw, nuw> : i32", v(bi.id), v(bd.id)), i32t.clone());
                self.b.op1(&format!("arith.addi {}, {} overflow<nsw, nuw> : i32", v(m.id), v(t.id)), i32t.clone())
            };
            out.push(Item::Val(self.b.op1(&generic::cast(&Typed(r.id, "i32".into()), &INT32.mlir()), INT32)));
        }
        out
    }

    fn const_int_arg(&mut self, e: &Expr, what: &str) -> R<i128> {
        match self.expr(e)? {
            Item::Val(Val { konst: Some(Const::Int(i)), ty: Ty::Int { .. }, .. }) => Ok(i),
            Item::Val(Val { konst: Some(_), ty, .. }) => {
                self.err(e.range(), format!("{what} must be an integer, got {ty}"))
            }
            _ => self.err_help(
                e.range(),
                format!("{what} must be a constant expression"),
                "use a literal, or a local or global assigned a constant",
            ),
        }
    }

    fn string_arg(&mut self, e: &Expr, what: &str, allowed: &[&str]) -> R<String> {
        let choices = format!("use one of {}", allowed.iter().map(|a| format!("'{a}'")).collect::<Vec<_>>().join(", "));
        match self.expr(e)? {
            Item::Str(s) if allowed.contains(&s.as_str()) => Ok(s),
            Item::Str(s) => self.err_help(e.range(), format!("'{s}' is not a valid {what}"), choices),
            other => self.err_help(
                e.range(),
                format!("the {what} must be a constant string, got {}", describe(&other)),
                choices,
            ),
        }
    }

    fn dtype_arg(&mut self, e: &Expr, what: &str) -> R<Ty> {
        match self.expr(e)? {
            Item::Dtype(t) => Ok(t),
            Item::StructClass(s) => Ok(Ty::Struct(s)),
            other => self.err_help(
                e.range(),
                format!("{what} must be a type, got {}", describe(&other)),
                "use a number type such as device.float32 or int, a vector type, or a @device.struct class",
            ),
        }
    }

    /// A predicate argument: a callable with no parameters (a lambda, a local
    /// `def`, or a `@device.func` without parameters), called here.
    fn predicate(&mut self, e: &Expr, what: &str) -> R<Val> {
        let result = match self.expr(e)? {
            Item::Closure(body) => self.call_closure(&body, e.range())?,
            Item::Func(f) if self.c.m.funcs.get(&f).is_some_and(|d| d.def.parameters.args.is_empty()) => {
                self.call_user(&f, None, vec![], e.range())?
            }
            other => {
                return self.err_help(
                    e.range(),
                    format!("{what}() takes a predicate callable with no arguments, got {}", describe(&other)),
                    "pass e.g. `lambda: x > 0`",
                )
            }
        };
        self.truth(result, e.range())
    }

    fn mask_arg(&mut self, e: &Expr, what: &str) -> R<Val> {
        // A literal mask such as 0xffffffff names 32 bits, not an int32 value.
        if let Expr::NumberLiteral(ast::ExprNumberLiteral { value: ast::Number::Int(i), .. }) = e {
            if let Some(bits) = i.as_u64().filter(|b| *b <= u64::from(u32::MAX)) {
                let m32 = self.typed_const(&Const::Int(i128::from(bits as u32 as i32)), &INT32);
                return self.convert(&m32, &Ty::WarpMask, e.range());
            }
        }
        let m = self.value(e)?;
        match &m.ty {
            Ty::WarpMask => Ok(m),
            t if t.is_integer() => {
                let m32 = self.convert(&m, &INT32, e.range())?;
                self.convert(&m32, &Ty::WarpMask, e.range())
            }
            t => self.err_help(
                e.range(),
                format!("the mask of {what}() must be a WarpMask or an int32, got {t}"),
                "e.g. device.activemask(), or -1 for the whole warp",
            ),
        }
    }

    /// A lane of a warp mask (`m[i]`, `m[i] = b`): an integer, 0 to 31 when
    /// constant (spec: WarpMask.__getitem__ / __setitem__).
    pub fn mask_index(&mut self, e: &Expr) -> R<Val> {
        let i = self.expr(e)?;
        let i = self.index_value(i, e.range())?;
        if let Some(Const::Int(k)) = i.konst {
            if !(0..32).contains(&k) {
                return self.err_help(
                    e.range(),
                    format!("lane {k} is outside the warp mask (0 to 31)"),
                    "a WarpMask has one bit per lane of the warp",
                );
            }
        }
        Ok(i)
    }

    /// The arguments of a call bound to the spec's parameter names
    /// (positional, then keywords); `None` where an optional one is absent.
    /// Unknown, repeated, missing and extra arguments are errors.
    fn bind<'e>(
        &mut self,
        c: &'e ast::ExprCall,
        what: &str,
        params: &[&str],
        required: usize,
    ) -> R<Vec<Option<&'e Expr>>> {
        let args = &c.arguments.args;
        if let Some(s) = args.iter().find(|a| matches!(a, Expr::Starred(_))) {
            return self.err(s.range(), "*args unpacking is not supported in device code");
        }
        if args.len() > params.len() {
            let n = params.len();
            return self.err(
                c.range(),
                format!("{what}() takes {n} argument{}, {} given", if n == 1 { "" } else { "s" }, args.len()),
            );
        }
        let mut out: Vec<Option<&Expr>> = (0..params.len()).map(|i| args.get(i)).collect();
        for k in &c.arguments.keywords {
            let Some(name) = k.arg.as_ref().map(|a| a.id.as_str()) else {
                return self.err(k.range(), "**kwargs unpacking is not supported in device code");
            };
            let Some(i) = params.iter().position(|p| *p == name) else {
                let help = if params.is_empty() {
                    format!("{what}() takes no arguments")
                } else {
                    format!(
                        "the parameters of {what}() are {}",
                        params.iter().map(|p| format!("'{p}'")).collect::<Vec<_>>().join(", ")
                    )
                };
                return self.err_help(k.range(), format!("{what}() has no keyword argument '{name}'"), help);
            };
            if out[i].is_some() {
                return self.err(k.range(), format!("{what}() got two values for argument '{name}'"));
            }
            out[i] = Some(&k.value);
        }
        if let Some(p) = params[..required].iter().zip(&out).find(|(_, a)| a.is_none()).map(|(p, _)| *p) {
            return self.err(c.range(), format!("{what}() is missing argument '{p}'"));
        }
        Ok(out)
    }

    /// [`Self::bind`] for calls whose parameters are all required.
    fn bind_all<'e, const N: usize>(
        &mut self,
        c: &'e ast::ExprCall,
        what: &str,
        params: [&str; N],
    ) -> R<[&'e Expr; N]> {
        let bound = self.bind(c, what, &params, N)?;
        Ok(std::array::from_fn(|i| bound[i].expect("required argument")))
    }

    /// A call of `cuda.device` entity `name` in device code, lowered by the
    /// family of builtins it belongs to (one file each under builtins/);
    /// decorators, `launch` and `ConstExpr` are errors here.
    pub fn device_call(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let r = c.range();
        match name {
            "tid" | "grid_size" => self.position_call(name, c),
            "syncthreads" | "syncthreads_count" | "syncthreads_and" | "syncthreads_or" | "threadfence" => {
                self.sync_call(name, c)
            }
            "activemask" | "lanemask_lt" | "syncwarp" | "all_sync" | "any_sync" | "eq_sync" | "ballot_sync"
            | "shfl_sync" | "shfl_up_sync" | "shfl_down_sync" | "shfl_xor_sync" | "match_any_sync"
            | "match_all_sync" | "WarpMask" => self.warp_call(name, c),
            "local_array" | "shared_array" | "dynamic_shared_array" => self.memory_call(name, c),
            "atomic_ref" | "Atomic" => self.atomic_call(name, c),
            "popc" | "brev" | "clz" | "ffs" | "cbrt" | "fma" => self.intrinsic_call(name, c),
            "target" | "is_exactly" | "provides" => self.target_call(name, c),
            "machine_representation" | "align" => self.layout_call(name, c),
            "kernel" | "func" | "struct" => self.err_help(
                r,
                format!("@device.{name} is a decorator, not a function of device code"),
                "apply it to a definition at module level",
            ),
            "launch" => {
                self.err_help(r, "device.launch cannot be called in device code", "launch kernels from host code")
            }
            "ConstExpr" => self.err(r, "ConstExpr is a type hint, not a function"),
            other => self.err(r, format!("device.{other} cannot be called")),
        }
    }

    /// A memory order (spec: Memory Orderings), `seq_cst` when absent.
    fn order_arg(&mut self, e: Option<&Expr>) -> R<String> {
        match e {
            Some(e) => self.string_arg(e, "memory order", MEMORY_ORDERS),
            None => Ok("seq_cst".into()),
        }
    }

    /// A thread scope (spec: Thread Scopes), `system` when absent.
    fn scope_arg(&mut self, e: Option<&Expr>) -> R<String> {
        match e {
            Some(e) => self.string_arg(e, "thread scope", SCOPES),
            None => Ok("system".into()),
        }
    }

    fn static_array(&mut self, name: &str, c: &ast::ExprCall) -> R<Item> {
        let what = &format!("device.{name}");
        let [shape_e, dtype_e, order_e, align_e] = self.bind(c, what, &["shape", "dtype", "order", "align"], 2)?[..]
        else {
            unreachable!()
        };
        let (shape_e, dtype_e) = (shape_e.expect("required"), dtype_e.expect("required"));
        let shape_item = self.expr(shape_e)?;
        let dims = match shape_item {
            Item::Tuple(items) => items,
            other => vec![other],
        };
        if dims.is_empty() {
            return self.err_help(
                shape_e.range(),
                format!("the shape of {what}() is empty"),
                "give at least one extent, e.g. (32,)",
            );
        }
        let mut shape = Vec::new();
        for d in dims {
            match d {
                Item::Val(Val { konst: Some(Const::Int(i)), ty: Ty::Int { .. }, .. }) if i > 0 => shape.push(i),
                Item::Val(Val { konst: Some(Const::Int(i)), ty: Ty::Int { .. }, .. }) => {
                    return self.err_help(
                        shape_e.range(),
                        format!("the extents of {what}() must be positive, got {i}"),
                        "an array has at least one element per dimension",
                    )
                }
                Item::Val(Val { konst: Some(_), ty, .. }) => {
                    return self.err_help(
                        shape_e.range(),
                        format!("the shape of {what}() must be an integer or a tuple of integers, got {ty}"),
                        "write the extents as integers, e.g. (32, 32)",
                    )
                }
                _ => {
                    return self.err_help(
                        shape_e.range(),
                        format!("the shape of {what}() must be a constant expression"),
                        "use literals, or locals or globals assigned constants",
                    )
                }
            }
        }
        let dtype = self.dtype_arg(dtype_e, &format!("the dtype of {what}()"))?;
        let order = match order_e {
            Some(e) => self.string_arg(e, "order", &["C", "F"])?,
            None => "C".into(),
        };
        let align = match align_e {
            Some(e) => {
                let a = self.const_int_arg(e, "the align of an array")?;
                if a < 0 || (a != 0 && (a & (a - 1)) != 0) || a > i128::from(u32::MAX) {
                    return self.err_help(
                        e.range(),
                        format!("the align of {what}() must be a power of two, got {a}"),
                        "e.g. align=16",
                    );
                }
                a
            }
            None => 0,
        };
        let space = if name == "local_array" { Space::Local } else { Space::Shared };
        let layout = if order == "C" { ArrayLayout::C } else { ArrayLayout::F };
        let ty = Ty::Array { dtype: Box::new(dtype), ndim: shape.len() as u32, layout, readonly: false, space };
        let dims: Vec<i64> = shape.iter().map(|d| *d as i64).collect();
        self.at(c.range());
        let op = if name == "local_array" { generic::local_array } else { generic::shared_array };
        Ok(Item::Val(self.b.op1(&op(&dims, &order, align as i64, &ty.mlir()), ty)))
    }

    pub fn atomic_method(&mut self, r: Val, method: &str, c: &ast::ExprCall) -> R<Item> {
        let Ty::AtomicRef { dtype, .. } = r.ty.clone() else { unreachable!("atomic ref") };
        let range = c.range();
        let what = &format!("AtomicInterface.{method}");
        if method.starts_with("notify") {
            self.bind_all(c, what, [])?;
            self.at(range);
            self.b.op(&[], &generic::atomic_notify(&r, method == "notify_all"));
            return Ok(Item::NoneV);
        }
        // The spec's parameters: the values, then `memory` and `scope`.
        let values: &[&str] = match method {
            "load" => &[],
            "cas" => &["old", "val"],
            "wait" => &["old"],
            _ => &["val"],
        };
        let params: Vec<&str> = values.iter().copied().chain(["memory", "scope"]).collect();
        let bound = self.bind(c, what, &params, values.len())?;
        let int_ok = matches!(&*dtype, Ty::Int { bits: 32 | 64, .. });
        let float_ok = matches!(&*dtype, Ty::Float(FloatKind::F32 | FloatKind::F64));
        let allowed = match method {
            "add" | "sub" | "max" | "min" | "nanmax" | "nanmin" => int_ok || float_ok,
            "and_" | "or_" | "xor" => int_ok,
            "exch" | "cas" | "wait" => dtype.size() <= 8,
            _ => dtype.size() <= 16,
        };
        if !allowed {
            let need = match method {
                "and_" | "or_" | "xor" => "uint32, int32, uint64 or int64",
                "exch" | "cas" | "wait" => "a type of at most 8 bytes",
                "load" | "store" => "a type of at most 16 bytes",
                _ => "uint32, int32, uint64, int64, float32 or float64",
            };
            return self.err_help(
                range,
                format!("{what}() is not defined for {dtype}"),
                format!("{method}() needs {need}; use an array of such a type"),
            );
        }
        let mut vals = Vec::new();
        for e in bound[..values.len()].iter().map(|e| e.expect("required")) {
            let x = self.value(e)?;
            // Python scalars and values that convert to the atomic's type without loss.
            let lossless = x.ty.is_number()
                && dtype.is_number()
                && crate::types::promote(&x.ty, x.weak, &dtype, false).is_ok_and(|t| t == *dtype);
            vals.push(if lossless {
                self.convert(&x, &dtype, e.range())?
            } else {
                self.coerce(&x, &dtype, e.range(), &format!("the value of {what}()"))?
            });
        }
        let memory_e = bound[values.len()];
        let memory = self.order_arg(memory_e)?;
        let scope = self.scope_arg(bound[values.len() + 1])?;
        let bad_order = match method {
            "load" | "wait" => matches!(memory.as_str(), "release" | "acq_rel"),
            "store" => matches!(memory.as_str(), "consume" | "acquire" | "acq_rel"),
            _ => false,
        };
        if bad_order {
            let ok = if method == "store" {
                "'relaxed', 'release' or 'seq_cst'"
            } else {
                "'relaxed', 'consume', 'acquire' or 'seq_cst'"
            };
            return self.err_help(
                memory_e.map_or(range, Ranged::range),
                format!("memory order '{memory}' is not valid for {what}()"),
                format!("a {method} takes {ok}"),
            );
        }
        let memory = MemoryOrder::parse(&memory).expect("checked by order_arg");
        let scope = Scope::parse(&scope).expect("checked by scope_arg");
        self.at(range);
        let dt = dtype.mlir();
        Ok(match method {
            "load" => Item::Val(self.b.op1(&generic::atomic_load(&r, memory, scope, &dt), (*dtype).clone())),
            "store" => {
                self.b.op(&[], &generic::atomic_store(&vals[0], &r, memory, scope));
                Item::NoneV
            }
            "wait" => {
                self.b.op(&[], &generic::atomic_wait(&r, &vals[0], memory, scope));
                Item::NoneV
            }
            "cas" => Item::Val(
                self.b.op1(&generic::atomic_cas(&r, &vals[0], &vals[1], memory, scope, &dt), (*dtype).clone()),
            ),
            _ => {
                let kind = AtomicRMWKind::ALL
                    .iter()
                    .copied()
                    .find(|&k| rmw_method(k) == method)
                    .expect("one of ATOMIC_METHODS");
                Item::Val(self.b.op1(&generic::atomic_rmw(kind, &r, &vals[0], memory, scope, &dt), (*dtype).clone()))
            }
        })
    }

    pub fn math_call(&mut self, f: &str, c: &ast::ExprCall) -> R<Item> {
        let args = self.positional_values(c)?;
        let r = c.range();
        let Some(function) = math_function(f) else {
            return self.err(r, format!("math.{f} is not supported in device code"));
        };
        let want = function.arity;
        if args.len() != want {
            return self.err(r, format!("math.{f}() takes {want} arguments, {} given", args.len()));
        }
        let mut ty = FLOAT32;
        for a in &args {
            if !matches!(a.ty, Ty::Int { .. } | Ty::Float(_) | Ty::Bool) {
                return self.err(r, format!("math.{f}() needs real numbers, got {}", a.ty));
            }
            if a.ty.is_float() && !a.weak {
                ty = crate::types::promote(
                    &ty,
                    !args.iter().take_while(|b| !std::ptr::eq(*b, a)).any(|b| b.ty.is_float() && !b.weak),
                    &a.ty,
                    false,
                )
                .map_err(|e| self.c.error(r, e.to_string()))?;
            }
        }
        let conv = args.iter().map(|a| self.convert(a, &ty, r)).collect::<R<Vec<_>>>()?;
        let t = ty.mlir();
        let names: Vec<String> = conv.iter().map(|x| v(x.id)).collect();
        let op = match function.op {
            MathOp::Op(op) => op,
            MathOp::Test { predicate, abs: false } => {
                let x = &names[0];
                return Ok(Item::Val(self.b.op1(&format!("arith.cmpf {predicate}, {x}, {x} : {t}"), Ty::Bool)));
            }
            MathOp::Test { predicate, abs: true } => {
                let abs = self.b.op1(&format!("math.absf {} : {t}", names[0]), ty.clone());
                let inf = self
                    .b
                    .op1(&format!("arith.constant {} : {t}", crate::lower::float_attr(f64::INFINITY, &ty)), ty.clone());
                return Ok(Item::Val(
                    self.b.op1(&format!("arith.cmpf {predicate}, {}, {} : {t}", v(abs.id), v(inf.id)), Ty::Bool),
                ));
            }
        };
        Ok(Item::Val(self.b.op1(&format!("{op} {} : {t}", names.join(", ")), ty)))
    }
}

/// How a function of the `math` module lowers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathOp {
    /// One op on the operands converted to the call's float type; the
    /// result has that type.
    Op(&'static str),
    /// A test of the float class, a bool: `arith.cmpf <predicate>` of `x`
    /// with itself, or (`abs`) of `|x|` with +inf.
    Test { predicate: &'static str, abs: bool },
}

/// A function of the `math` module in device code: its name, its number of
/// arguments (real numbers, converted to a float type) and its lowering.
/// The one table of them: `pydev.numba` reads it from `pydev._facts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MathFunction {
    pub name: &'static str,
    pub arity: usize,
    pub op: MathOp,
}

const fn math(name: &'static str, arity: usize, op: &'static str) -> MathFunction {
    MathFunction { name, arity, op: MathOp::Op(op) }
}

const fn test(name: &'static str, predicate: &'static str, abs: bool) -> MathFunction {
    MathFunction { name, arity: 1, op: MathOp::Test { predicate, abs } }
}

/// The functions of the `math` module that device code has (math.* MLIR ops
/// lower to libdevice on `cuda` and to libm calls or instructions on the host).
pub const MATH_FUNCTIONS: &[MathFunction] = &[
    math("sqrt", 1, "math.sqrt"),
    math("exp", 1, "math.exp"),
    math("exp2", 1, "math.exp2"),
    math("expm1", 1, "math.expm1"),
    math("log", 1, "math.log"),
    math("log2", 1, "math.log2"),
    math("log10", 1, "math.log10"),
    math("log1p", 1, "math.log1p"),
    math("sin", 1, "math.sin"),
    math("cos", 1, "math.cos"),
    math("tan", 1, "math.tan"),
    math("asin", 1, "math.asin"),
    math("acos", 1, "math.acos"),
    math("atan", 1, "math.atan"),
    math("sinh", 1, "math.sinh"),
    math("cosh", 1, "math.cosh"),
    math("tanh", 1, "math.tanh"),
    math("asinh", 1, "math.asinh"),
    math("acosh", 1, "math.acosh"),
    math("atanh", 1, "math.atanh"),
    math("erf", 1, "math.erf"),
    math("erfc", 1, "math.erfc"),
    math("floor", 1, "math.floor"),
    math("ceil", 1, "math.ceil"),
    math("trunc", 1, "math.trunc"),
    math("fabs", 1, "math.absf"),
    math("pow", 2, "math.powf"),
    math("atan2", 2, "math.atan2"),
    math("copysign", 2, "math.copysign"),
    math("fmod", 2, "arith.remf"),
    test("isnan", "uno", false),
    test("isinf", "oeq", true),
    test("isfinite", "olt", true),
];

/// The `math` function `name`, if device code has it.
pub fn math_function(name: &str) -> Option<&'static MathFunction> {
    MATH_FUNCTIONS.iter().find(|f| f.name == name)
}

/// The type a NumPy scalar type name stands for (`np.float32`, `np.intc`,
/// `np.double`, ...), `None` for names that are no dtype device code has.
pub fn numpy_dtype(name: &str) -> Option<Ty> {
    let canonical = match name {
        "int8" | "int16" | "int32" | "int64" | "uint8" | "uint16" | "uint32" | "uint64" | "float16" | "float32"
        | "float64" | "complex64" | "complex128" => name,
        "bool" | "bool_" => "bool",
        "byte" => "int8",
        "ubyte" => "uint8",
        "short" => "int16",
        "ushort" => "uint16",
        "intc" => "int32",
        "uintc" => "uint32",
        "int_" | "intp" | "long" | "longlong" => "int64",
        "uint" | "uintp" | "ulong" | "ulonglong" => "uint64",
        "half" => "float16",
        "single" => "float32",
        "double" => "float64",
        "csingle" => "complex64",
        "cdouble" => "complex128",
        _ => return None,
    };
    Ty::from_dtype_name(canonical)
}

/// A NumPy type string (`"<f4"`, `"i8"`, `"u1"`, `"?"`) as a type.
fn numpy_typestr(s: &str) -> Option<Ty> {
    let s = s.trim_start_matches(['<', '=', '|']);
    if s == "?" || s == "b1" {
        return Some(Ty::Bool);
    }
    let (kind, size) = s.split_at(1.min(s.len()));
    let bits = size.parse::<u32>().ok()? * 8;
    let name = match kind {
        "i" => format!("int{bits}"),
        "u" => format!("uint{bits}"),
        "f" => format!("float{bits}"),
        "c" => format!("complex{bits}"),
        _ => return None,
    };
    numpy_dtype(&name)
}

fn pydev_sm(sm: u32) -> bool {
    pydev_dialect::SM_ARCHS.contains(&sm)
}
