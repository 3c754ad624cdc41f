//! Snapshot tests of the frontend's printed IR and rendered errors, and unit
//! tests of SSA construction (the lit tests in test/frontend cover each spec
//! construct through pydevc).

use crate::{compile_to_text, Diagnostics};

fn ir(source: &str, function: &str, signature: &str) -> String {
    compile_to_text("k.py", source, function, signature).unwrap_or_else(|d| panic!("{d}"))
}

fn errors(source: &str, function: &str, signature: &str) -> String {
    match compile_to_text("k.py", source, function, signature) {
        Ok(text) => panic!("expected errors, got IR:\n{text}"),
        Err(Diagnostics(d)) => d.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n"),
    }
}

const HEADER: &str = "import cuda.device as device\n";

#[test]
fn vector_add_ir() {
    let src = format!(
        "{HEADER}
@device.kernel
def vadd(a, b, c):
    i = device.tid(1)
    if i < c.size:
        c[i] = a[i] + b[i]
"
    );
    insta::assert_snapshot!(ir(&src, "vadd", "float32[::1], float32[::1], float32[::1]"));
}

#[test]
fn if_merge_promotes_and_loops_carry_locals() {
    let src = format!(
        "{HEADER}
@device.func
def f(n, flag):
    x = 1
    if flag:
        x = 2.5
    total = 0.0
    i = 0
    while i < n:
        total += x
        i += 1
    return total
"
    );
    insta::assert_snapshot!(ir(&src, "f", "int32, bool"));
}

#[test]
fn errors_render_with_caret_and_help() {
    let src = format!(
        "{HEADER}
@device.kernel
def k(a):
    d = {{}}
    return a[0]
"
    );
    insta::assert_snapshot!(errors(&src, "k", "float32[:]"));
}

#[test]
fn local_changing_type_in_a_loop_is_an_error() {
    let src = format!(
        "{HEADER}
@device.func
def f(n):
    x = 0
    for i in range(n):
        x = x + 0.5
    return x
"
    );
    let e = errors(&src, "f", "int32");
    assert!(e.contains("local 'x' is int32 before the loop and float32 inside it"), "{e}");
}

#[test]
fn maybe_unassigned_and_recursion() {
    let src = format!(
        "{HEADER}
@device.func
def f(n):
    if n > 0:
        y = 1
    return y

@device.func
def g(n):
    return g(n - 1)
"
    );
    assert!(errors(&src, "f", "int32").contains("k.py:7:12: error: local 'y' may be used before it is assigned"));
    assert!(errors(&src, "g", "int32").contains("recursive call to 'g'"));
}

#[test]
fn syntax_errors_and_missing_functions() {
    assert!(errors("def f(:\n", "f", "").contains("k.py:1:7: error: syntax error"));
    let e = errors(&format!("{HEADER}def plain(): pass\n"), "plain", "");
    assert!(e.contains("function 'plain' is not decorated with @device.kernel or @device.func"), "{e}");
}

#[test]
fn const_expr_parameters_specialise_on_their_value() {
    let src = format!(
        "{HEADER}
@device.func
def tile(x, n: device.ConstExpr[int]):
    buf = device.local_array(n, device.float32)
    buf[0] = x
    return buf[0]

@device.kernel
def k(out, v, m):
    out[0] = tile(v, 8) + tile(v, 4)
    out[1] = tile(v, m)
"
    );
    let e = errors(&src, "k", "float32[:], float32, int32");
    assert!(e.contains("k.py:12:14: error: argument 'n' of 'tile' must be a constant expression"), "{e}");
    let ok = src.replace("    out[1] = tile(v, m)\n", "");
    let text = ir(&ok, "k", "float32[:], float32, int32");
    assert!(text.contains("@tile_float32_int32_c8(") && text.contains("@tile_float32_int32_c4("), "{text}");
    assert!(text.contains("pydev.local_array shape [8]"), "{text}");
}

#[test]
fn structured_dtypes_and_free_names() {
    let src = format!(
        "{HEADER}
@device.kernel
def k(ps, out):
    i = device.tid(1)
    out[i] = ps[i].mass * SCALE
"
    );
    let mut free = crate::FreeNames::new();
    free.insert("SCALE".into(), crate::module::GlobalConst::Num(crate::ir::Const::Float(2.0)));
    let text = crate::compile_to_text_with("k.py", &src, "k", "{pos: float32x4, mass: float32}[::1], float32[:]", &free).unwrap_or_else(|d| panic!("{d}"));
    assert!(text.contains(r#"!pydev.array<!pydev.struct<"structured", {pos: !pydev.vector<4 x f32>, mass: f32}>, 1, c>"#), "{text}");
    assert!(text.contains("pydev.constant 0x40000000 : f32"), "{text}");
    let e = errors(&src, "k", "{pos: float32x4, mass: float32}[::1], float32[:]");
    assert!(e.contains("name 'SCALE' is not defined in device code"), "{e}");
}

#[test]
fn literal_masks_name_32_bits() {
    let src = format!(
        "{HEADER}
@device.kernel
def k(out, x):
    i = device.tid(1)
    out[i] = device.shfl_down_sync(0xffffffff, x[i], 1)
"
    );
    let text = ir(&src, "k", "float32[:], float32[:]");
    assert!(text.contains("pydev.constant -1 : si32"), "{text}");
    assert!(text.contains("pydev.cast %v") && text.contains("to !pydev.warp_mask"), "{text}");
}

#[test]
fn constant_zero_divisors_are_errors() {
    let src = format!("{HEADER}\n@device.kernel\ndef k(a):\n    a[0] = 10 // 0\n");
    let e = errors(&src, "k", "int32[:]");
    assert!(e.contains("k.py:5:12: error: '//' by a constant zero"), "{e}");
}
