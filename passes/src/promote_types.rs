//! `pydev-promote-types`: Python arithmetic with Array-API promotion to
//! `arith`/`math`/`complex` on signless machine types.
//!
//! Expects: pydev IR as the frontend emits it: Python-level ops (`pydev.add`
//! .. `pydev.cast`, `pydev.constant`) whose result types are the promoted
//! types, and values of signed (`si32`) or unsigned (`ui8`) integer types,
//! also inside pydev aggregate, array and atomic types.
//! Guarantees: no Python-level arithmetic op remains (casts to and from
//! `!pydev.warp_mask` excepted: `pydev-lower-sync-nvvm` owns them); every
//! integer type is signless, in values, block arguments, function types and
//! nested pydev types. Signedness decides the lowering before it is erased;
//! unsigned `atomic_rmw max|min` keep it as the `pydev.unsigned` attribute.
//! Does not fire on IR without Python-level ops or signed types.
//!
//! Float `+ - *` carry `fastmath<contract>` (as nvcc's default `-fmad=true`:
//! `a * b + c` may become one `fma`); option `contract=0` (nvcc's
//! `-fmad=false`) leaves them without it, so each op rounds as NumPy's
//! does; option `fastmath=fast` gives them and
//! `/` all fast-math flags. An op with `{pydev.contract = false}` (pydev.ir's
//! `contract=False`) is never contracted, whatever the option.
//!
//! Rewrites (operands first converted to the result type, or for `cmp` to
//! the operands' common type):
//!   add|sub|mul (int)         =>  arith.addi|subi|muli     (int32, int64: overflow<nsw>, as C++)
//!   add|sub|mul|truediv (fp)  =>  arith.addf|subf|mulf|divf     (complex: complex.*)
//!   add|sub|mul (fp) {pydev.contract = false}  =>  the same without `contract`
//!   floordiv (sint)           =>  arith.floordivsi              (uint: divui; fp: floor(divf))
//!   mod (sint)                =>  r = remsi a, b; (r != 0 && (r < 0) != (b < 0)) ? r + b : r
//!   mod (fp)                  =>  the same on remf               (uint: remui)
//!   pow (int)                 =>  math.ipowi                     (fp: math.powf)
//!   and|or|xor|lshift         =>  arith.andi|ori|xori|shli
//!   rshift (sint)             =>  arith.shrsi                    (uint, bool: shrui)
//!   min a, b (fp)             =>  (b < a) ? b : a                (max: (b > a) ? b : a; Python's NaN order)
//!   min|max (int)             =>  arith.minsi|maxsi|minui|maxui
//!   math.fma (f16, bf16)      =>  truncf(round_to_odd_f32(extf a *f64 extf b +f64 extf c))
//!   cmp p (int)               =>  arith.cmpi (signed or unsigned p) (fp: ordered p, `ne` unordered)
//!   neg|invert|not            =>  0 - x | x ^ -1 | x ^ true      (fp neg: negf)
//!   abs                       =>  math.absi | math.absf | complex.abs
//!   cast                      =>  extsi|extui|trunci|sitofp|uitofp|fptosi|fptoui|extf|truncf|complex.create
//!   constant                  =>  arith.constant

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, Builder, PassId, RewriteError},
    PassError, PassInfo,
};
use melior::{
    ir::{
        attribute::{FloatAttribute, IntegerAttribute},
        operation::OperationLike,
        r#type::{FunctionType, IntegerType},
        OperationRef, Type, TypeLike, Value, ValueLike,
    },
    Context,
};
use pydev_dialect::ops::{self, PydevOp};
use pydev_dialect::{
    attrs::CmpPredicateAttr,
    types::{self, ArrayType},
    CmpPredicate,
};

static ID: PassId = PassId;
static ID_NO_CONTRACT: PassId = PassId;
static ID_FAST: PassId = PassId;
static ID_FAST_NO_CONTRACT: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-promote-types",
    summary: "lower Python arithmetic with type promotion to arith/math and erase integer signedness",
    options: &[
        crate::PassOption {
            name: "fastmath",
            default: "contract",
            help: "contract (fused multiply-add allowed) or fast",
        },
        crate::PassOption {
            name: "contract",
            default: "1",
            help: "0: no multiply-add contraction (nvcc's -fmad=false)",
        },
    ],
    create: |options| {
        let contract = match options.get(&INFO, "contract") {
            "1" => true,
            "0" => false,
            other => {
                return Err(PassError::InvalidOption {
                    pass: INFO.argument,
                    message: format!("contract must be 0 or 1, got '{other}'"),
                })
            }
        };
        match (options.get(&INFO, "fastmath"), contract) {
            ("contract", true) => Ok(external_pass(&ID, INFO.argument, INFO.summary, |ir| run(ir, Flags::CONTRACT))),
            ("contract", false) => {
                Ok(external_pass(&ID_NO_CONTRACT, INFO.argument, INFO.summary, |ir| run(ir, Flags::NONE)))
            }
            ("fast", true) => Ok(external_pass(&ID_FAST, INFO.argument, INFO.summary, |ir| run(ir, Flags::FAST))),
            ("fast", false) => Ok(external_pass(&ID_FAST_NO_CONTRACT, INFO.argument, INFO.summary, |ir| {
                run(ir, Flags::FAST_NO_CONTRACT)
            })),
            (other, _) => Err(PassError::InvalidOption {
                pass: INFO.argument,
                message: format!("fastmath must be contract or fast, got '{other}'"),
            }),
        }
    },
};

/// The fast-math flags float `+ - *` (and with `fast`, `/`) carry.
#[derive(Clone, Copy)]
struct Flags {
    /// All of LLVM's fast-math flags (`/` too).
    fast: bool,
    /// Multiply-add contraction allowed.
    contract: bool,
}

impl Flags {
    const CONTRACT: Flags = Flags { fast: false, contract: true };
    const NONE: Flags = Flags { fast: false, contract: false };
    const FAST: Flags = Flags { fast: true, contract: true };
    const FAST_NO_CONTRACT: Flags = Flags { fast: true, contract: false };

    /// The `#arith.fastmath<...>` text, or None for no flags.
    fn attr(self) -> Option<&'static str> {
        match (self.fast, self.contract) {
            (true, true) => Some("#arith.fastmath<fast>"),
            (true, false) => Some("#arith.fastmath<nnan,ninf,nsz,arcp,afn,reassoc>"),
            (false, true) => Some("#arith.fastmath<contract>"),
            (false, false) => None,
        }
    }
}

/// The discardable attribute that turns contraction off for one op
/// (`pydev.ir`'s `contract=False`).
pub const CONTRACT_ATTR: &str = "pydev.contract";

const ARITH_OPS: &[&str] = &[
    ops::ConstantOperation::NAME,
    ops::AddOperation::NAME,
    ops::SubOperation::NAME,
    ops::MulOperation::NAME,
    ops::TrueDivOperation::NAME,
    ops::FloorDivOperation::NAME,
    ops::ModOperation::NAME,
    ops::PowOperation::NAME,
    ops::MinOperation::NAME,
    ops::MaxOperation::NAME,
    ops::AndOperation::NAME,
    ops::OrOperation::NAME,
    ops::XorOperation::NAME,
    ops::LShiftOperation::NAME,
    ops::RShiftOperation::NAME,
    ops::CmpOperation::NAME,
    ops::NegOperation::NAME,
    ops::PosOperation::NAME,
    ops::InvertOperation::NAME,
    ops::NotOperation::NAME,
    ops::AbsOperation::NAME,
    ops::CastOperation::NAME,
];

/// A number's kind, read before signedness is erased.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Num<'c> {
    Int { width: u32, signed: bool },
    Bool,
    Float(Type<'c>),
    Complex(Type<'c>),
    Other,
}

fn kind(ty: Type) -> Num {
    if let Ok(i) = IntegerType::try_from(ty) {
        if i.width() == 1 {
            return Num::Bool;
        }
        return Num::Int { width: i.width(), signed: !i.is_unsigned() };
    }
    if ty.is_float() {
        return Num::Float(ty);
    }
    if ty.is_complex() {
        return Num::Complex(capi::complex_element(ty));
    }
    Num::Other
}

/// The signless form of a type, also inside pydev and function types.
pub fn erase<'c>(ctx: &'c Context, ty: Type<'c>) -> Type<'c> {
    if let Ok(i) = IntegerType::try_from(ty) {
        return if i.is_signless() { ty } else { IntegerType::new(ctx, i.width()).into() };
    }
    if let Some(a) = ArrayType::from_type(ty) {
        let element = erase(ctx, a.element_type());
        return ArrayType::new(ctx, element, a.rank(), a.space(), a.layout(), a.readonly())
            .expect("a verified array")
            .into();
    }
    if let Some((lanes, e)) = types::vector_parts(ty) {
        return types::vector_type(ctx, lanes, erase(ctx, e)).expect("lanes of a verified vector");
    }
    if let Some(items) = types::tuple_parts(ty) {
        let items: Vec<Type> = items.into_iter().map(|t| erase(ctx, t)).collect();
        return types::tuple_type(ctx, &items);
    }
    if let Some((name, fields, align)) = types::struct_parts(ty) {
        let fields: Vec<(String, Type)> = fields.into_iter().map(|(n, t)| (n, erase(ctx, t))).collect();
        let refs: Vec<(&str, Type)> = fields.iter().map(|(n, t)| (n.as_str(), *t)).collect();
        return types::struct_type(ctx, &name, &refs, align).expect("a verified struct");
    }
    if let Some((e, space)) = types::atomic_ref_parts(ty) {
        return types::atomic_ref_type(ctx, erase(ctx, e), space);
    }
    if let Ok(f) = FunctionType::try_from(ty) {
        let inputs: Vec<Type> = (0..f.input_count()).map(|i| erase(ctx, f.input(i).expect("input"))).collect();
        let results: Vec<Type> = (0..f.result_count()).map(|i| erase(ctx, f.result(i).expect("result"))).collect();
        return FunctionType::new(ctx, &inputs, &results).into();
    }
    ty
}

struct Pending<'c> {
    op: OperationRef<'c, 'c>,
    operands: Vec<Num<'c>>,
    result: Num<'c>,
}

/// fma(a, b, c) rounded once for float16 and bfloat16 (spec: fma), on every
/// target; the upstream lowerings widen to float32 and round twice:
///   math.fma (f16|bf16) a, b, c  =>  s = extf a *f64 extf b +f64 extf c;
///                                    truncf(round_to_odd_f32(s))
/// The f64 product is exact; for float16 the sum is exact too (its operands
/// span at most 42 bits) or far from a float16 tie. Rounding s to float32
/// toward zero and setting the last bit when inexact (round to odd) keeps
/// enough information for the one rounding to float16 to be s's own, with
/// no f64-to-half conversion (a libcall on x86). For bfloat16 the same holds
/// unless the addend is over 2^37 times smaller than a product on a tie.
fn half_fma<'c>(ir: PassIr<'c>, root: OperationRef<'c, '_>) -> PassResult {
    crate::ir::rewrite_all(ir, root, &["math.fma"], |b, op| {
        let ty = op.result(0).expect("fma result").r#type();
        if !(ty.is_f16() || ty.is_bf16()) {
            return Ok(());
        }
        let f64t = melior::ir::r#type::Type::float64(b.ctx);
        let f32t = melior::ir::r#type::Type::float32(b.ctx);
        let i1: Type = IntegerType::new(b.ctx, 1).into();
        let wide: Vec<_> = op.operands().map(|v| b.value("arith.extf", &[ir.value(v)], f64t, &[])).collect();
        let product = b.value("arith.mulf", &[wide[0], wide[1]], f64t, &[]);
        let sum = b.value("arith.addf", &[product, wide[2]], f64t, &[]);
        let near = b.value("arith.truncf", &[sum], f32t, &[]);
        let back = b.value("arith.extf", &[near], f64t, &[]);
        // one: ordered and unequal, so NaN stays as it is.
        let inexact = b.value("arith.cmpf", &[back, sum], i1, &[b.named("predicate", b.attr("6 : i64"))]);
        let abs_back = b.value("math.absf", &[back], f64t, &[]);
        let abs_sum = b.value("math.absf", &[sum], f64t, &[]);
        let away = b.value("arith.cmpf", &[abs_back, abs_sum], i1, &[b.named("predicate", b.attr("2 : i64"))]);
        let bits = b.value("arith.bitcast", &[near], b.i32(), &[]);
        let toward_zero = b.value("arith.subi", &[bits, b.const_int(b.i32(), 1)], b.i32(), &[]);
        let truncated = b.value("arith.select", &[away, toward_zero, bits], b.i32(), &[]);
        let odd = b.value("arith.ori", &[truncated, b.const_int(b.i32(), 1)], b.i32(), &[]);
        let rounded = b.value("arith.select", &[inexact, odd, bits], b.i32(), &[]);
        let f = b.value("arith.bitcast", &[rounded], f32t, &[]);
        let v = b.value("arith.truncf", &[f], ty, &[]);
        b.replace(op, &[v]);
        Ok(())
    })
}

fn run(ir: PassIr, flags: Flags) -> PassResult {
    let root = ir.root();
    let ctx = capi::context(root);
    // 1. Record the kinds of the ops to lower while signedness is known.
    let mut pending = Vec::new();
    for op in ir.ops_named(root, ARITH_OPS) {
        let operands: Vec<Num> = op.operands().map(|v| kind(v.r#type())).collect();
        let result = op.result(0).map(|r| kind(r.r#type())).unwrap_or(Num::Other);
        pending.push(Pending { op, operands, result });
    }
    for op in ir.ops_named(root, &[ops::AtomicRMWOperation::NAME]) {
        let unsigned =
            op.operand(1).ok().and_then(|v| IntegerType::try_from(v.r#type()).ok()).is_some_and(|i| i.is_unsigned());
        if unsigned {
            ir.set_discardable_attribute(op, pydev_dialect::abi::attr::UNSIGNED, melior::ir::Attribute::unit(ctx));
        }
    }
    // 2. Erase signedness everywhere.
    crate::ir::retype_all(ir, root, |t| erase(ctx, t));
    // 3. Lower the recorded ops on the now signless values.
    let mut ok = half_fma(ir, root).is_ok();
    for p in pending {
        let b = Builder::before(ir, p.op);
        match lower(&b, &p, flags) {
            Ok(Some(v)) => b.replace(p.op, &[v]),
            Ok(None) => {}
            Err(message) => {
                capi::emit_error(p.op.location(), &message.to_string());
                ok = false;
            }
        }
    }
    if ok {
        Ok(())
    } else {
        Err(Reported)
    }
}

fn machine<'c>(b: &Builder<'c>, k: Num<'c>) -> Type<'c> {
    match k {
        Num::Int { width, .. } => IntegerType::new(b.ctx, width).into(),
        Num::Bool => IntegerType::new(b.ctx, 1).into(),
        Num::Float(t) => t,
        Num::Complex(e) => capi::complex_type(e),
        Num::Other => unreachable!("only numbers are converted"),
    }
}

fn float_bits(t: Type) -> u32 {
    if t.is_f64() {
        64
    } else if t.is_f32() {
        32
    } else if t.is_f16() || t.is_bf16() {
        16
    } else {
        8
    }
}

fn zero<'c>(b: &Builder<'c>, k: Num<'c>) -> Value<'c, 'c> {
    match k {
        Num::Float(t) => {
            b.value("arith.constant", &[], t, &[b.named("value", FloatAttribute::new(b.ctx, t, 0.0).into())])
        }
        other => {
            let t = machine(b, other);
            b.value("arith.constant", &[], t, &[b.named("value", IntegerAttribute::new(t, 0).into())])
        }
    }
}

fn cmpi<'c>(b: &Builder<'c>, pred: i64, x: Value<'c, 'c>, y: Value<'c, 'c>) -> Value<'c, 'c> {
    let i1 = IntegerType::new(b.ctx, 1).into();
    b.value("arith.cmpi", &[x, y], i1, &[b.named("predicate", b.attr(&format!("{pred} : i64")))])
}

fn cmpf<'c>(b: &Builder<'c>, pred: i64, x: Value<'c, 'c>, y: Value<'c, 'c>) -> Value<'c, 'c> {
    let i1 = IntegerType::new(b.ctx, 1).into();
    b.value("arith.cmpf", &[x, y], i1, &[b.named("predicate", b.attr(&format!("{pred} : i64")))])
}

fn select<'c>(b: &Builder<'c>, c: Value<'c, 'c>, x: Value<'c, 'c>, y: Value<'c, 'c>) -> Value<'c, 'c> {
    b.value("arith.select", &[c, x, y], x.r#type(), &[])
}

/// Converts a (signless) value of kind `from` to kind `to`.
fn convert<'c>(b: &Builder<'c>, v: Value<'c, 'c>, from: Num<'c>, to: Num<'c>) -> Result<Value<'c, 'c>, RewriteError> {
    use Num::*;
    if from == to {
        return Ok(v);
    }
    let t = |k| machine(b, k);
    Ok(match (from, to) {
        (Int { width: w1, signed }, Int { width: w2, .. }) => {
            if w2 > w1 {
                b.value(if signed { "arith.extsi" } else { "arith.extui" }, &[v], t(to), &[])
            } else if w2 < w1 {
                b.value("arith.trunci", &[v], t(to), &[])
            } else {
                v
            }
        }
        (Bool, Int { .. }) => b.value("arith.extui", &[v], t(to), &[]),
        (Bool, Float(ft)) => b.value("arith.uitofp", &[v], ft, &[]),
        (Int { signed, .. }, Float(ft)) => b.value(if signed { "arith.sitofp" } else { "arith.uitofp" }, &[v], ft, &[]),
        (Float(_), Int { signed, .. }) => {
            b.value(if signed { "arith.fptosi" } else { "arith.fptoui" }, &[v], t(to), &[])
        }
        (Int { .. }, Bool) => cmpi(b, 1, v, zero(b, from)),
        (Float(_), Bool) => cmpf(b, 13, v, zero(b, from)),
        (Float(f1), Float(f2)) => {
            if float_bits(f2) > float_bits(f1) || (float_bits(f2) == float_bits(f1) && f1 != f2 && f2.is_f32()) {
                b.value("arith.extf", &[v], f2, &[])
            } else if float_bits(f2) == float_bits(f1) {
                // float16 <-> bfloat16: through float32.
                let f32t = Type::float32(b.ctx);
                let wide = b.value("arith.extf", &[v], f32t, &[]);
                b.value("arith.truncf", &[wide], f2, &[])
            } else {
                b.value("arith.truncf", &[v], f2, &[])
            }
        }
        (real @ (Int { .. } | Bool | Float(_)), Complex(e)) => {
            let re = convert(b, v, real, Float(e))?;
            let im = zero(b, Float(e));
            b.value("complex.create", &[re, im], t(to), &[])
        }
        (Complex(e1), Complex(e2)) => {
            let re = b.value("complex.re", &[v], e1, &[]);
            let im = b.value("complex.im", &[v], e1, &[]);
            let re = convert(b, re, Float(e1), Float(e2))?;
            let im = convert(b, im, Float(e1), Float(e2))?;
            b.value("complex.create", &[re, im], t(to), &[])
        }
        (f, t) => {
            return Err(RewriteError::Unsupported(format!("cannot convert {f:?} to {t:?} in pydev-promote-types")))
        }
    })
}

/// The common kind of two operands (Array API, for comparisons).
fn common<'c>(x: Num<'c>, y: Num<'c>) -> Num<'c> {
    use Num::*;
    match (x, y) {
        _ if x == y => x,
        (Bool, o) | (o, Bool) => o,
        (Int { width: a, signed: sa }, Int { width: c, signed: sc }) => {
            if sa == sc {
                Int { width: a.max(c), signed: sa }
            } else {
                let (s, u) = if sa { (a, c) } else { (c, a) };
                Int { width: if u < s { s } else { (u * 2).min(64) }, signed: true }
            }
        }
        (Int { .. }, f @ Float(_)) | (f @ Float(_), Int { .. }) => f,
        (Float(a), Float(c)) => {
            if float_bits(a) >= float_bits(c) {
                Float(a)
            } else {
                Float(c)
            }
        }
        (c @ Complex(_), _) | (_, c @ Complex(_)) => c,
        _ => Other,
    }
}

fn lower<'c>(b: &Builder<'c>, p: &Pending<'c>, flags: Flags) -> Result<Option<Value<'c, 'c>>, RewriteError> {
    let ir = b.ir;
    // add|sub|mul (fp) {pydev.contract = false} => the same without `contract`
    let flags = match p.op.attribute(CONTRACT_ATTR).ok().and_then(|a| capi::integer_attr_value(a)) {
        Some(0) => Flags { contract: false, ..flags },
        _ => flags,
    };
    let name = p.op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    let name = ops::mnemonic(name).unwrap_or(name).to_owned();
    let operand = |i: usize| ir.value(p.op.operand(i).expect("verified operand"));
    let result_type = || p.op.result(0).expect("verified result").r#type();
    let rk = p.result;
    if name == ops::ConstantOperation::MNEMONIC {
        let attr = p.op.attribute("value").expect("constant value");
        let ty = result_type();
        let value = match rk {
            Num::Int { .. } | Num::Bool => {
                IntegerAttribute::new(ty, capi::integer_attr_value(attr).ok_or("constant is not an integer")?).into()
            }
            Num::Float(t) => {
                FloatAttribute::new(b.ctx, t, capi::float_attr_value(attr).ok_or("constant is not a float")?).into()
            }
            _ => {
                return Err(RewriteError::Unsupported(format!(
                    "complex {} is not lowered; use complex.constant",
                    ops::ConstantOperation::NAME
                )))
            }
        };
        return Ok(Some(b.value("arith.constant", &[], ty, &[b.named("value", value)])));
    }
    if name == ops::CastOperation::MNEMONIC {
        let (from, to) = (p.operands[0], rk);
        if from == Num::Other || to == Num::Other {
            return Ok(None); // warp masks: pydev-lower-sync-nvvm
        }
        return convert(b, operand(0), from, to).map(Some);
    }
    if matches!(
        name.as_str(),
        ops::NegOperation::MNEMONIC
            | ops::PosOperation::MNEMONIC
            | ops::InvertOperation::MNEMONIC
            | ops::NotOperation::MNEMONIC
            | ops::AbsOperation::MNEMONIC
    ) {
        let from = p.operands[0];
        let x = if name == ops::AbsOperation::MNEMONIC { operand(0) } else { convert(b, operand(0), from, rk)? };
        let t = result_type();
        return Ok(Some(match (name.as_str(), rk) {
            (ops::PosOperation::MNEMONIC, _) => x,
            (ops::NegOperation::MNEMONIC, Num::Float(_)) => b.value("arith.negf", &[x], t, &[]),
            (ops::NegOperation::MNEMONIC, Num::Complex(_)) => b.value("complex.neg", &[x], t, &[]),
            (ops::NegOperation::MNEMONIC, _) => b.value("arith.subi", &[zero(b, rk), x], t, &[]),
            (ops::InvertOperation::MNEMONIC, _) | (ops::NotOperation::MNEMONIC, _) => {
                let ones = b.value("arith.constant", &[], t, &[b.named("value", IntegerAttribute::new(t, -1).into())]);
                b.value("arith.xori", &[x, ones], t, &[])
            }
            (ops::AbsOperation::MNEMONIC, _) => match from {
                Num::Float(_) => b.value("math.absf", &[x], t, &[]),
                Num::Complex(_) => b.value("complex.abs", &[x], t, &[]),
                Num::Bool => convert(b, x, from, rk)?,
                _ => b.value("math.absi", &[x], t, &[]),
            },
            _ => unreachable!("unary names"),
        }));
    }
    if name == ops::CmpOperation::MNEMONIC {
        let k = common(p.operands[0], p.operands[1]);
        let x = convert(b, operand(0), p.operands[0], k)?;
        let y = convert(b, operand(1), p.operands[1], k)?;
        let pred = ops::CmpOperation::view(p.op)
            .and_then(|c| c.predicate().ok())
            .and_then(CmpPredicateAttr::from_attribute)
            .ok_or("a cmp without a predicate")?
            .value();
        use CmpPredicate::*;
        return Ok(Some(match k {
            Num::Float(_) => cmpf(
                b,
                match pred {
                    Eq => 1,
                    Ne => 13,
                    Lt => 4,
                    Le => 5,
                    Gt => 2,
                    Ge => 3,
                },
                x,
                y,
            ),
            Num::Complex(_) => {
                let i1 = IntegerType::new(b.ctx, 1).into();
                b.value(if pred == Eq { "complex.eq" } else { "complex.neq" }, &[x, y], i1, &[])
            }
            Num::Int { signed: true, .. } => cmpi(
                b,
                match pred {
                    Eq => 0,
                    Ne => 1,
                    Lt => 2,
                    Le => 3,
                    Gt => 4,
                    Ge => 5,
                },
                x,
                y,
            ),
            _ => cmpi(
                b,
                match pred {
                    Eq => 0,
                    Ne => 1,
                    Lt => 6,
                    Le => 7,
                    Gt => 8,
                    Ge => 9,
                },
                x,
                y,
            ),
        }));
    }
    // Binary ops: compute in the result type.
    let x = convert(b, operand(0), p.operands[0], rk)?;
    let y = convert(b, operand(1), p.operands[1], rk)?;
    let t = result_type();
    let v = |op: &str| b.value(op, &[x, y], t, &[]);
    let contracted = |op: &str| match flags.attr() {
        Some(attr) => b.value(op, &[x, y], t, &[b.named("fastmath", b.attr(attr))]),
        None => b.value(op, &[x, y], t, &[]),
    };
    Ok(Some(match (name.as_str(), rk) {
        (ops::AddOperation::MNEMONIC, Num::Float(_)) => contracted("arith.addf"),
        (ops::SubOperation::MNEMONIC, Num::Float(_)) => contracted("arith.subf"),
        (ops::MulOperation::MNEMONIC, Num::Float(_)) => contracted("arith.mulf"),
        (ops::TrueDivOperation::MNEMONIC, Num::Float(_)) if flags.fast => contracted("arith.divf"),
        (ops::TrueDivOperation::MNEMONIC, Num::Float(_)) => v("arith.divf"),
        (ops::AddOperation::MNEMONIC, Num::Complex(_)) => v("complex.add"),
        (ops::SubOperation::MNEMONIC, Num::Complex(_)) => v("complex.sub"),
        (ops::MulOperation::MNEMONIC, Num::Complex(_)) => v("complex.mul"),
        (ops::TrueDivOperation::MNEMONIC, Num::Complex(_)) => v("complex.div"),
        (ops::PowOperation::MNEMONIC, Num::Complex(_)) => v("complex.pow"),
        // int32/int64 overflow is undefined behaviour (spec: a value its
        // format cannot represent), as for CUDA C++'s int and long long:
        // `nsw` lets LLVM prove indices such as `i + 1` non-negative.
        (
            ops::AddOperation::MNEMONIC | ops::SubOperation::MNEMONIC | ops::MulOperation::MNEMONIC,
            Num::Int { signed: true, width: 32 | 64 },
        ) => {
            let op = match name.as_str() {
                ops::AddOperation::MNEMONIC => "arith.addi",
                ops::SubOperation::MNEMONIC => "arith.subi",
                _ => "arith.muli",
            };
            b.value(op, &[x, y], t, &[b.named("overflowFlags", b.attr("#arith.overflow<nsw>"))])
        }
        (ops::AddOperation::MNEMONIC, _) => v("arith.addi"),
        (ops::SubOperation::MNEMONIC, _) => v("arith.subi"),
        (ops::MulOperation::MNEMONIC, _) => v("arith.muli"),
        (ops::FloorDivOperation::MNEMONIC, Num::Float(_)) => {
            let q = v("arith.divf");
            b.value("math.floor", &[q], t, &[])
        }
        (ops::FloorDivOperation::MNEMONIC, Num::Int { signed: true, .. }) => v("arith.floordivsi"),
        (ops::FloorDivOperation::MNEMONIC, _) => v("arith.divui"),
        (ops::ModOperation::MNEMONIC, Num::Float(_)) => {
            // Python: the remainder has the sign of the divisor.
            let r = v("arith.remf");
            let z = zero(b, rk);
            let nonzero = cmpf(b, 13, r, z);
            let rneg = cmpf(b, 4, r, z);
            let yneg = cmpf(b, 4, y, z);
            let differ = b.value("arith.xori", &[rneg, yneg], rneg.r#type(), &[]);
            let fix = b.value("arith.andi", &[nonzero, differ], rneg.r#type(), &[]);
            let adjusted = b.value("arith.addf", &[r, y], t, &[]);
            select(b, fix, adjusted, r)
        }
        (ops::ModOperation::MNEMONIC, Num::Int { signed: true, .. }) => {
            let r = v("arith.remsi");
            let z = zero(b, rk);
            let nonzero = cmpi(b, 1, r, z);
            let rneg = cmpi(b, 2, r, z);
            let yneg = cmpi(b, 2, y, z);
            let differ = b.value("arith.xori", &[rneg, yneg], rneg.r#type(), &[]);
            let fix = b.value("arith.andi", &[nonzero, differ], rneg.r#type(), &[]);
            let adjusted = b.value("arith.addi", &[r, y], t, &[]);
            select(b, fix, adjusted, r)
        }
        (ops::ModOperation::MNEMONIC, _) => v("arith.remui"),
        (ops::PowOperation::MNEMONIC, Num::Float(_)) => v("math.powf"),
        (ops::PowOperation::MNEMONIC, _) => v("math.ipowi"),
        (ops::AndOperation::MNEMONIC, _) => v("arith.andi"),
        (ops::OrOperation::MNEMONIC, _) => v("arith.ori"),
        (ops::XorOperation::MNEMONIC, _) => v("arith.xori"),
        (ops::LShiftOperation::MNEMONIC, _) => v("arith.shli"),
        (ops::RShiftOperation::MNEMONIC, Num::Int { signed: true, .. }) => v("arith.shrsi"),
        (ops::RShiftOperation::MNEMONIC, _) => v("arith.shrui"),
        (ops::MinOperation::MNEMONIC, Num::Float(_)) => select(b, cmpf(b, 4, y, x), y, x),
        (ops::MaxOperation::MNEMONIC, Num::Float(_)) => select(b, cmpf(b, 2, y, x), y, x),
        (ops::MinOperation::MNEMONIC, Num::Int { signed: true, .. }) => v("arith.minsi"),
        (ops::MaxOperation::MNEMONIC, Num::Int { signed: true, .. }) => v("arith.maxsi"),
        (ops::MinOperation::MNEMONIC, _) => v("arith.minui"),
        (ops::MaxOperation::MNEMONIC, _) => v("arith.maxui"),
        (op, k) => return Err(RewriteError::Unsupported(format!("'pydev.{op}' on {k:?} is not lowered yet"))),
    }))
}
