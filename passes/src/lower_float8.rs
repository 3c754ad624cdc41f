//! `pydev-lower-float8`: the spec's 8-bit floats (`float8e4m3`,
//! `float8e5m2`) as their bits, converted in software.
//!
//! Expects: promoted IR where `arith-emulate-unsupported-floats` has widened
//! float8 arithmetic to f32, so that float8 values are only converted
//! (`arith.extf`/`arith.truncf`), constants, moved, loaded and stored.
//! Guarantees: no `f8E4M3FN` or `f8E5M2` type remains (values, block
//! arguments, functions, array/vector/atomic element types are `i8`); the
//! conversions call helper functions added to the module (plain integer and
//! f32 arithmetic, so they lower for every target): round to nearest even,
//! subnormals kept; overflow gives NaN (e4m3, which has no infinity) or
//! infinity (e5m2), as ml_dtypes does.
//! Does not fire on IR without float8 types.
//!
//! Rewrites (T in {e4m3, e5m2}):
//!   arith.truncf %x : f32 -> f8T   =>  call @__pydev_f32_to_f8T(%x) : i8
//!   arith.truncf %x : f64 -> f8T   =>  the same of (truncf %x to f32)
//!   arith.extf %b : f8T -> f32|f64 =>  call @__pydev_f8T_to_f32(%b) (then extf to f64)
//!   arith.constant c : f8T         =>  llvm.mlir.constant(bits of c : i8)
//!   truncf(vector<N x f32|f64|f16> -> vector<N x f8T>)
//!                                  =>  N x (llvm.extractelement, software truncf), insertelement
//!                                      chain on undef : vector<N x i8>
//!   extf(vector<N x f8T> -> vector<N x f32|f64>)
//!                                  =>  N x (llvm.extractelement, software extf), insertelement
//!                                      chain on undef : vector<N x f32> (then extf to f64)
//!   arith.constant dense<[c..]> : vector<N x f8T>  =>  arith.constant dense<[bits of c..]> : vector<N x i8>
//!   every f8T in a type            =>  i8 (pydev vectors, arrays and structs of float8
//!                                      included: `!pydev.vector<2 x f8E4M3FN>` => `!pydev.vector<2 x i8>`)

use crate::capi::PassIr;
use crate::ir::{PassResult, Reported};
use crate::{
    capi,
    ir::{external_pass, retype_all, rewrite_all, Builder, PassId},
    PassInfo,
};
use melior::ir::{
    attribute::FlatSymbolRefAttribute, operation::OperationLike, r#type::IntegerType, BlockLike, Location, Module,
    OperationRef, Type, TypeLike, Value, ValueLike,
};
use std::collections::BTreeSet;

static ID: PassId = PassId;

pub const INFO: PassInfo = PassInfo {
    argument: "pydev-lower-float8",
    summary: "represent float8 values by their bits and convert them in software",
    options: &[],
    create: |_| Ok(external_pass(&ID, INFO.argument, INFO.summary, run)),
};

/// (type name, helper suffix, mantissa bits, bias, largest finite code,
/// overflow code, NaN code).
const FORMATS: &[(&str, &str, u32, i32, u32, u32, u32)] =
    &[("f8E4M3FN", "f8e4m3", 3, 7, 0x7E, 0x7F, 0x7F), ("f8E5M2", "f8e5m2", 2, 15, 0x7B, 0x7C, 0x7F)];

fn format_of(t: Type) -> Option<&'static (&'static str, &'static str, u32, i32, u32, u32, u32)> {
    let text = t.to_string();
    FORMATS.iter().find(|f| f.0 == text)
}

fn call<'c>(b: &Builder<'c>, name: &str, arg: Value<'c, 'c>, result: Type<'c>) -> Value<'c, 'c> {
    let ir = b.ir;
    let op =
        b.op("func.call", &[arg], &[result], &[b.named("callee", FlatSymbolRefAttribute::new(b.ctx, name).into())]);
    ir.value(op.result(0).expect("result").into())
}

fn run(ir: PassIr) -> PassResult {
    let module = ir.root();
    // Most modules have no float8: one walk over the distinct types and
    // attributes says so, before the rewrites print the type of every
    // constant (a millisecond of a small kernel's compile).
    if !mentions_float8(ir, module) {
        return Ok(());
    }
    let ctx = capi::context(module);
    let mut used: BTreeSet<String> = BTreeSet::new();
    let i8t: Type = IntegerType::new(ctx, 8).into();
    let f32t = Type::parse(ctx, "f32").expect("f32");
    let ok = rewrite_all(ir, module, &["arith.truncf", "arith.extf", "arith.constant"], |b, op| {
        let name = op.name();
        let name = name.as_string_ref().as_str().unwrap_or_default().to_owned();
        let result_type = op.result(0).expect("result").r#type();
        // Vectors of float8: lane by lane (the conversions have no vector form).
        let operand_type = op.operand(0).ok().map(|o| ir.value(o).r#type());
        if let Some((lanes, f)) =
            vector_of(result_type)
                .or_else(|| if name == "arith.extf" { operand_type.and_then(vector_of) } else { None })
        {
            let bits_type = b.ty(&format!("vector<{lanes}xi8>"));
            let v = match name.as_str() {
                "arith.truncf" => {
                    let x = ir.value(op.operand(0).expect("operand"));
                    let elem = element_of(ctx, x.r#type()).ok_or("truncf of a non-vector to a vector")?;
                    let helper = format!("__pydev_f32_to_{}", f.1);
                    used.insert(helper.clone());
                    let mut acc = b.value("llvm.mlir.undef", &[], bits_type, &[]);
                    for k in 0..lanes {
                        let mut e = lane(b, x, k, elem);
                        if e.r#type().is_f64() {
                            e = b.value("arith.truncf", &[e], f32t, &[]);
                        } else if !e.r#type().is_f32() {
                            e = b.value("arith.extf", &[e], f32t, &[]);
                        }
                        acc = put(b, acc, call(b, &helper, e, i8t), k);
                    }
                    b.cast(acc, result_type)
                }
                "arith.extf" => {
                    let input = ir.value(op.operand(0).expect("operand"));
                    let helper = format!("__pydev_{}_to_f32", f.1);
                    used.insert(helper.clone());
                    let bits = b.cast(input, bits_type);
                    let wide = b.ty(&format!("vector<{lanes}xf32>"));
                    let mut acc = b.value("llvm.mlir.undef", &[], wide, &[]);
                    for k in 0..lanes {
                        let e = lane(b, bits, k, i8t);
                        acc = put(b, acc, call(b, &helper, e, f32t), k);
                    }
                    if result_type == wide {
                        acc
                    } else {
                        b.value("arith.extf", &[acc], result_type, &[])
                    }
                }
                _ => {
                    let value =
                        op.attribute("value").map_err(|_| "a float8 vector constant without a value")?.to_string();
                    let codes = dense_codes(&value, lanes, f)
                        .ok_or_else(|| format!("cannot read the float8 vector constant {value}"))?;
                    let list = codes.iter().map(|c| (*c as i8).to_string()).collect::<Vec<_>>().join(", ");
                    let c = b.value(
                        "arith.constant",
                        &[],
                        bits_type,
                        &[b.named("value", b.attr(&format!("dense<[{list}]> : vector<{lanes}xi8>")))],
                    );
                    b.cast(c, result_type)
                }
            };
            b.replace(op, &[v]);
            return Ok(());
        }
        match name.as_str() {
            "arith.truncf" => {
                let Some(f) = format_of(result_type) else { return Ok(()) };
                let mut x = ir.value(op.operand(0).expect("operand"));
                if x.r#type().is_f64() {
                    x = b.value("arith.truncf", &[x], f32t, &[]);
                } else if !x.r#type().is_f32() {
                    x = b.value("arith.extf", &[x], f32t, &[]);
                }
                let helper = format!("__pydev_f32_to_{}", f.1);
                used.insert(helper.clone());
                let bits = call(b, &helper, x, i8t);
                let v = b.cast(bits, result_type);
                b.replace(op, &[v]);
            }
            "arith.extf" => {
                let input = ir.value(op.operand(0).expect("operand"));
                let Some(f) = format_of(input.r#type()) else { return Ok(()) };
                let helper = format!("__pydev_{}_to_f32", f.1);
                used.insert(helper.clone());
                let bits = b.cast(input, i8t);
                let mut v = call(b, &helper, bits, f32t);
                if !result_type.is_f32() {
                    v = b.value("arith.extf", &[v], result_type, &[]);
                }
                b.replace(op, &[v]);
            }
            _ => {
                let Some(f) = format_of(result_type) else { return Ok(()) };
                let value = op
                    .attribute("value")
                    .ok()
                    .and_then(capi::float_attr_value)
                    .ok_or("a float8 constant without a float value")?;
                let bits = encode(value as f32, f.2, f.3, f.4, f.5, f.6);
                let c = b.const_int(i8t, i64::from(bits as i8));
                let v = b.cast(c, result_type);
                b.replace(op, &[v]);
            }
        }
        Ok(())
    });
    if ok.is_err() {
        return Err(Reported);
    }
    retype_all(ir, module, |t| retype(ctx, t, i8t));
    // The casts between float8 and its bits are now i8 to i8.
    let _ = rewrite_all(ir, module, &["builtin.unrealized_conversion_cast"], |b, op| {
        let input = ir.value(op.operand(0).expect("operand"));
        if op.operand_count() == 1 && op.result_count() == 1 && input.r#type() == op.result(0).expect("result").r#type()
        {
            b.replace(op, &[input]);
        }
        Ok(())
    });
    let mut text = String::from("module {\n");
    for h in &used {
        let f = FORMATS.iter().find(|f| h.ends_with(f.1) || h.contains(&format!("{}_", f.1))).expect("a known format");
        text += &if h.starts_with("__pydev_f32_to_") { to_f8(h, f) } else { from_f8(h, f) };
    }
    text += "}\n";
    // Text (upstream arith/llvm helper functions, no pydev op): the float8
    // conversion helpers are templates per format; still to convert.
    let parsed = Module::parse(ctx, &text).unwrap_or_else(|| panic!("pydev-lower-float8 built invalid IR:\n{text}"));
    let body = module.region(0).ok().and_then(|r| ir.entry_block(r)).expect("module body");
    // The helpers' code has no source line of its own: it takes the first
    // function's location (the kernel's def line), not the text's ("-").
    let at = body.first_operation().map(|f| f.location()).unwrap_or_else(|| Location::unknown(ctx));
    let mut op = parsed.body().first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        body.append_operation(capi::clone_op_at(o, at));
    }
    Ok(())
}

/// Lane `k` of vector `v`.
fn lane<'c>(b: &Builder<'c>, v: Value<'c, 'c>, k: u32, t: Type<'c>) -> Value<'c, 'c> {
    let index = b.const_int(b.i32(), i64::from(k));
    b.value("llvm.extractelement", &[v, index], t, &[])
}

/// `acc` with lane `k` set to `x`.
fn put<'c>(b: &Builder<'c>, acc: Value<'c, 'c>, x: Value<'c, 'c>, k: u32) -> Value<'c, 'c> {
    let index = b.const_int(b.i32(), i64::from(k));
    b.value("llvm.insertelement", &[acc, x, index], acc.r#type(), &[])
}

type Format = (&'static str, &'static str, u32, i32, u32, u32, u32);

/// `vector<N x f8T>`: (N, the format).
fn vector_of(t: Type) -> Option<(u32, &'static Format)> {
    let text = t.to_string();
    let inner = text.strip_prefix("vector<")?.strip_suffix('>')?;
    let (lanes, elem) = inner.split_once('x')?;
    let f = FORMATS.iter().find(|f| f.0 == elem)?;
    Some((lanes.parse().ok()?, f))
}

/// The element type of a builtin vector type.
fn element_of<'c>(ctx: &'c melior::Context, t: Type<'c>) -> Option<Type<'c>> {
    let text = t.to_string();
    let (_, elem) = text.strip_prefix("vector<")?.strip_suffix('>')?.split_once('x')?;
    Type::parse(ctx, elem)
}

/// The float8 codes of a printed `dense<...> : vector<N x f8T>` (a splat or
/// one value a lane; hexadecimal values are codes already).
fn dense_codes(text: &str, lanes: u32, f: &Format) -> Option<Vec<u32>> {
    let body = text.strip_prefix("dense<")?;
    let body = &body[..body.rfind("> :")?];
    let body = body.trim().trim_start_matches('[').trim_end_matches(']');
    let codes: Option<Vec<u32>> = body
        .split(',')
        .map(|t| {
            let t = t.trim();
            match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(hex) => u32::from_str_radix(hex, 16).ok().map(|c| c & 0xff),
                None => t.parse::<f64>().ok().map(|x| encode(x as f32, f.2, f.3, f.4, f.5, f.6)),
            }
        })
        .collect();
    let codes = codes?;
    match codes.len() {
        1 => Some(vec![codes[0]; lanes as usize]),
        n if n == lanes as usize => Some(codes),
        _ => None,
    }
}

/// Whether a float8 type appears anywhere under `module`: in a value's or
/// block argument's type or in an attribute (a function type, a type or
/// dense attribute). Types and attributes are uniqued, so each distinct one
/// is printed once (printing the whole module cost more than the rest of
/// the pass on IR without float8).
fn mentions_float8<'c>(ir: PassIr<'c>, module: OperationRef<'c, '_>) -> bool {
    use melior::ir::{attribute::AttributeLike, BlockLike, RegionLike};
    let mut seen = std::collections::HashSet::new();
    let mut has =
        |key: usize, text: &dyn Fn() -> String| seen.insert(key) && FORMATS.iter().any(|f| text().contains(f.0));
    for op in ir.all_ops(module) {
        for r in op.results() {
            let t = r.r#type();
            if has(t.to_raw().ptr as usize, &|| t.to_string()) {
                return true;
            }
        }
        // An attribute mentions float8 through its type (a dense constant's
        // shaped type) or the type it holds (function and global types):
        // printing types, not whole attributes, keeps this walk cheap.
        for (_, a) in op.attributes() {
            let held = melior::ir::attribute::TypeAttribute::try_from(a).ok().map(|t| t.value());
            for t in [Some(a.r#type()), held].into_iter().flatten() {
                if has(t.to_raw().ptr as usize, &|| t.to_string()) {
                    return true;
                }
            }
        }
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                for i in 0..b.argument_count() {
                    let t = b.argument(i).expect("argument below the count").r#type();
                    if has(t.to_raw().ptr as usize, &|| t.to_string()) {
                        return true;
                    }
                }
                block = b.next_in_region();
            }
        }
    }
    false
}

/// `t` with every float8 type inside it replaced by `i8`.
fn retype<'c>(ctx: &'c melior::Context, t: Type<'c>, i8t: Type<'c>) -> Type<'c> {
    if format_of(t).is_some() {
        return i8t;
    }
    let text = t.to_string();
    if FORMATS.iter().any(|f| text.contains(f.0)) {
        let mut new = text.clone();
        for f in FORMATS {
            new = new.replace(f.0, "i8");
        }
        if let Some(parsed) = Type::parse(ctx, &new) {
            return parsed;
        }
    }
    t
}

/// The float8 bits of `x` (the same algorithm as the helpers, for constants).
fn encode(x: f32, m: u32, bias: i32, max_code: u32, overflow: u32, nan: u32) -> u32 {
    let bits = x.to_bits();
    let sign = (bits >> 31) << 7;
    let a = bits & 0x7fff_ffff;
    if a > 0x7f80_0000 {
        return sign | nan;
    }
    let f = f32::from_bits(a);
    let min_normal = 2f32.powi(1 - bias);
    let code = if f < min_normal {
        let scaled = f * 2f32.powi(bias - 1 + m as i32);
        ((scaled + 8_388_608.0) - 8_388_608.0) as u32
    } else {
        let shift = 23 - m;
        let r = (a + ((1 << (shift - 1)) - 1) + ((a >> shift) & 1)) >> shift;
        r.wrapping_sub(((127 - bias) as u32) << m)
    };
    sign | if code > max_code { overflow } else { code }
}

fn to_f8(name: &str, f: &(&str, &str, u32, i32, u32, u32, u32)) -> String {
    let (_, _, m, bias, max_code, overflow, nan) = *f;
    let min_normal = 2f64.powi(1 - bias);
    let scale = 2f64.powi(bias - 1 + m as i32);
    let shift = 23 - m;
    let half = (1u32 << (shift - 1)) - 1;
    let rebias = ((127 - bias) as u32) << m;
    format!(
        r#"func.func private @{name}(%x: f32) -> i8 {{
  %bits = arith.bitcast %x : f32 to i32
  %c31 = arith.constant 31 : i32
  %c7 = arith.constant 7 : i32
  %c1 = arith.constant 1 : i32
  %s = arith.shrui %bits, %c31 : i32
  %sign = arith.shli %s, %c7 : i32
  %absmask = arith.constant 2147483647 : i32
  %a = arith.andi %bits, %absmask : i32
  %inf = arith.constant 2139095040 : i32
  %isnan = arith.cmpi ugt, %a, %inf : i32
  %f = arith.bitcast %a : i32 to f32
  %minnorm = arith.constant {min_normal:e} : f32
  %issub = arith.cmpf olt, %f, %minnorm : f32
  %scale = arith.constant {scale:e} : f32
  %fs = arith.mulf %f, %scale : f32
  %big = arith.constant 8388608.0 : f32
  %t = arith.addf %fs, %big : f32
  %q = arith.subf %t, %big : f32
  %qi = arith.fptoui %q : f32 to i32
  %shift = arith.constant {shift} : i32
  %half = arith.constant {half} : i32
  %lsb0 = arith.shrui %a, %shift : i32
  %lsb = arith.andi %lsb0, %c1 : i32
  %t0 = arith.addi %a, %half : i32
  %t1 = arith.addi %t0, %lsb : i32
  %r0 = arith.shrui %t1, %shift : i32
  %rebias = arith.constant {rebias} : i32
  %rn = arith.subi %r0, %rebias : i32
  %code0 = arith.select %issub, %qi, %rn : i32
  %maxc = arith.constant {max_code} : i32
  %over = arith.cmpi ugt, %code0, %maxc : i32
  %ovc = arith.constant {overflow} : i32
  %code1 = arith.select %over, %ovc, %code0 : i32
  %nanc = arith.constant {nan} : i32
  %code2 = arith.select %isnan, %nanc, %code1 : i32
  %code = arith.ori %code2, %sign : i32
  %r = arith.trunci %code : i32 to i8
  return %r : i8
}}
"#
    )
}

fn from_f8(name: &str, f: &(&str, &str, u32, i32, u32, u32, u32)) -> String {
    if f.1 == "f8e5m2" {
        // e5m2 is the upper byte of an IEEE half.
        return format!(
            r#"func.func private @{name}(%b: i8) -> f32 {{
  %x = arith.extui %b : i8 to i16
  %c8 = arith.constant 8 : i16
  %h = arith.shli %x, %c8 : i16
  %f16 = arith.bitcast %h : i16 to f16
  %f = arith.extf %f16 : f16 to f32
  return %f : f32
}}
"#
        );
    }
    let (_, _, m, bias, ..) = *f;
    let step = 2f64.powi(1 - bias - m as i32);
    let rebias = 127 - bias;
    format!(
        r#"func.func private @{name}(%b: i8) -> f32 {{
  %x = arith.extui %b : i8 to i32
  %c7 = arith.constant 7 : i32
  %c3 = arith.constant {m} : i32
  %c15 = arith.constant 15 : i32
  %mmask = arith.constant {mmask} : i32
  %s = arith.shrui %x, %c7 : i32
  %e0 = arith.shrui %x, %c3 : i32
  %e = arith.andi %e0, %c15 : i32
  %mant = arith.andi %x, %mmask : i32
  %c127 = arith.constant 127 : i32
  %low = arith.andi %x, %c127 : i32
  %isnan = arith.cmpi eq, %low, %c127 : i32
  %zero = arith.constant 0 : i32
  %issub = arith.cmpi eq, %e, %zero : i32
  %mf = arith.uitofp %mant : i32 to f32
  %step = arith.constant {step:e} : f32
  %subv = arith.mulf %mf, %step : f32
  %rb = arith.constant {rebias} : i32
  %eb = arith.addi %e, %rb : i32
  %c23 = arith.constant 23 : i32
  %ebits = arith.shli %eb, %c23 : i32
  %mshift = arith.constant {mshift} : i32
  %mbits = arith.shli %mant, %mshift : i32
  %nbits = arith.ori %ebits, %mbits : i32
  %normv = arith.bitcast %nbits : i32 to f32
  %v = arith.select %issub, %subv, %normv : f32
  %nan = arith.constant 0x7FC00000 : f32
  %v2 = arith.select %isnan, %nan, %v : f32
  %neg = arith.cmpi ne, %s, %zero : i32
  %nv = arith.negf %v2 : f32
  %v3 = arith.select %neg, %nv, %v2 : f32
  return %v3 : f32
}}
"#,
        mmask = (1u32 << m) - 1,
        mshift = 23 - m,
    )
}

#[cfg(test)]
mod tests {
    use super::{dense_codes, encode, FORMATS};

    #[test]
    fn reads_vector_constants() {
        let e4 = &FORMATS[0];
        assert_eq!(
            dense_codes("dense<[1.000000e+00, -2.000000e+00]> : vector<2xf8E4M3FN>", 2, e4),
            Some(vec![0x38, 0xC0])
        );
        assert_eq!(dense_codes("dense<4.480000e+02> : vector<4xf8E4M3FN>", 4, e4), Some(vec![0x7E; 4]));
        assert_eq!(
            dense_codes("dense<[0x7F, 1.000000e+00]> : vector<2xf8E5M2>", 2, &FORMATS[1]),
            Some(vec![0x7F, 0x3C])
        );
        assert_eq!(dense_codes("dense<[1.0, 2.0, 3.0]> : vector<2xf8E4M3FN>", 2, e4), None, "lane count mismatch");
    }

    #[test]
    fn encodes_like_ml_dtypes() {
        // e4m3fn: 1.0 = 0x38, 448 = 0x7E (max), 0.5 = 0x30, 2^-9 = 0x01, 460 -> 448 (RNE), 500 -> NaN.
        let e4 = |x: f32| encode(x, 3, 7, 0x7E, 0x7F, 0x7F);
        assert_eq!((e4(1.0), e4(448.0), e4(0.5), e4(2f32.powi(-9)), e4(-2.0)), (0x38, 0x7E, 0x30, 0x01, 0xC0));
        assert_eq!(e4(1.0625), 0x38, "halfway rounds to even");
        assert_eq!(e4(1.1875), 0x3A, "halfway rounds to even (up)");
        assert_eq!(e4(500.0), 0x7F);
        // e5m2: 1.0 = 0x3C, 57344 = 0x7B (max), overflow = inf 0x7C.
        let e5 = |x: f32| encode(x, 2, 15, 0x7B, 0x7C, 0x7F);
        assert_eq!((e5(1.0), e5(57344.0), e5(1e6), e5(2f32.powi(-16))), (0x3C, 0x7B, 0x7C, 0x01));
    }
}
