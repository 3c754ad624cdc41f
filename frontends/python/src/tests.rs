//! Snapshot tests of the frontend's printed IR and rendered errors, and unit
//! tests of SSA construction (the lit tests in test/frontend cover each spec
//! construct through pydevc).

use crate::{compile_to_text, Diagnostics};

fn ir(source: &str, function: &str, signature: &str) -> String {
    printed(&compile_to_text("k.py", source, function, signature).unwrap_or_else(|d| panic!("{d}")))
}

/// The frontend's text as MLIR parses, verifies and prints it (custom syntax,
/// with locations): what `pydevc --emit pydev` shows.
fn printed(text: &str) -> String {
    use pydev_dialect::melior::ir::{
        operation::{OperationLike, OperationPrintingFlags},
        Module,
    };
    let ctx = pydev_dialect::new_pipeline_context();
    let module = Module::parse(&ctx, text).unwrap_or_else(|| panic!("the frontend's IR does not parse:\n{text}"));
    assert!(module.as_operation().verify(), "the frontend's IR does not verify:\n{text}");
    module
        .as_operation()
        .to_string_with_flags(OperationPrintingFlags::new().enable_debug_info(true, false).use_local_scope())
        .expect("printable")
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
    let text = printed(
        &crate::compile_to_text_with_free_names(
            "k.py",
            &src,
            "k",
            "{pos: float32x4, mass: float32}[::1], float32[:]",
            &free,
        )
        .unwrap_or_else(|d| panic!("{d}")),
    );
    assert!(
        text.contains(r#"!pydev.array<!pydev.struct<"structured", {pos: !pydev.vector<4 x f32>, mass: f32}>, 1, c>"#),
        "{text}"
    );
    assert!(text.contains("pydev.constant 2.000000e+00 : f32"), "{text}");
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
    assert!(text.contains("pydev.cast %") && text.contains("to !pydev.warp_mask"), "{text}");
}

#[test]
fn constant_zero_divisors_are_errors() {
    let src = format!("{HEADER}\n@device.kernel\ndef k(a):\n    a[0] = 10 // 0\n");
    let e = errors(&src, "k", "int32[:]");
    assert!(e.contains("k.py:5:12: error: '//' by a constant zero"), "{e}");
}

/// A program by identity: `(line, qualname, kind, env)` per function.
fn program(funcs: Vec<(usize, &str, crate::FuncKind, Vec<(&str, crate::Free)>)>) -> crate::Program {
    let funcs = funcs
        .into_iter()
        .map(|(line, q, kind, env)| crate::FuncSpec {
            line,
            qualname: q.into(),
            kind,
            interop: false,
            env: env.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
            const_args: vec![],
        })
        .collect();
    crate::Program { funcs }
}

const FACTORY: &str = "import cuda.device as device

def make(k):
    @device.func
    def helper(x):
        return x * k

    @device.kernel
    def scale(out, a):
        i = device.tid(1)
        out[i] = helper(a[i]) + table[0]
    return scale
";

#[test]
fn nested_functions_are_found_by_line_and_qualified_name() {
    use crate::{Free, FuncKind};
    let k = |v| Free::Const(crate::module::GlobalConst::Num(crate::ir::Const::Int(v)));
    let p = program(vec![
        (
            8,
            "make.<locals>.scale",
            FuncKind::Kernel,
            vec![
                ("helper", Free::Func(1)),
                (
                    "table",
                    Free::Const(crate::module::GlobalConst::Tuple(vec![crate::module::GlobalConst::Num(
                        crate::ir::Const::Int(40),
                    )])),
                ),
            ],
        ),
        (4, "make.<locals>.helper", FuncKind::Func, vec![("k", k(3))]),
    ]);
    let text = printed(
        &crate::compile_to_text_for_target(
            "k.py",
            FACTORY,
            "scale",
            "int32[::1], int32[::1]",
            &crate::FreeNames::new(),
            Some("host"),
            Some(&p),
        )
        .unwrap_or_else(|d| panic!("{d}")),
    );
    assert!(text.contains("func.func @scale(") && text.contains("pydev.kernel"), "{text}");
    assert!(text.contains("func.func @helper_int32("), "{text}");
    assert!(text.contains("pydev.constant 3 : si32") && text.contains("pydev.constant 40 : si32"), "{text}");
}

#[test]
fn a_captured_host_value_is_an_error_where_it_is_read() {
    use crate::{Free, FuncKind};
    let p = program(vec![
        (
            8,
            "make.<locals>.scale",
            FuncKind::Kernel,
            vec![("helper", Free::Func(1)), ("table", Free::HostOnly("a list captured from 'make'".into()))],
        ),
        (4, "make.<locals>.helper", FuncKind::Func, vec![("k", Free::HostOnly("a dict captured from 'make'".into()))]),
    ]);
    let e = crate::compile_to_text_for_target(
        "k.py",
        FACTORY,
        "scale",
        "int32[::1], int32[::1]",
        &crate::FreeNames::new(),
        None,
        Some(&p),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("k.py:6:20: error: 'k' is a dict captured from 'make', which device code cannot hold"), "{e}");
    let mut p = p;
    p.funcs[1].env.insert("k".into(), Free::Const(crate::module::GlobalConst::Num(crate::ir::Const::Int(2))));
    let e = crate::compile_to_text_for_target(
        "k.py",
        FACTORY,
        "scale",
        "int32[::1], int32[::1]",
        &crate::FreeNames::new(),
        None,
        Some(&p),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("k.py:11:33: error: 'table' is a list captured from 'make', which device code cannot hold"),
        "{e}"
    );
}

#[test]
fn a_definition_not_where_python_loaded_it_is_reported_at_that_line() {
    use crate::FuncKind;
    let e = crate::compile_to_text_for_target(
        "k.py",
        FACTORY,
        "scale",
        "int32[::1], int32[::1]",
        &crate::FreeNames::new(),
        None,
        Some(&program(vec![(9, "make.<locals>.scale", FuncKind::Kernel, vec![])])),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("k.py:9:1: error: 'make.<locals>.scale' is defined at line 8 of k.py, not at line 9"), "{e}");
    let e = crate::compile_to_text_for_target(
        "k.py",
        FACTORY,
        "gone",
        "int32[::1]",
        &crate::FreeNames::new(),
        None,
        Some(&program(vec![(3, "make.<locals>.gone", FuncKind::Kernel, vec![])])),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("k.py:3:1: error: no definition of 'make.<locals>.gone' in k.py"), "{e}");
}

/// The frontend sizes aggregates without an MLIR context (`Ty::size`,
/// `Ty::align`); the dialect's `getTypeLayout` is the one definition of the
/// C layout: they agree on every kind of type.
#[test]
fn type_layout_agrees_with_the_dialect() {
    use crate::types::{StructDef, Ty};
    use std::rc::Rc;
    let context = pydev_dialect::new_pipeline_context();
    let n = |name: &str| {
        Ty::from_dtype_name(name).or_else(|| Ty::from_vector_name(name)).unwrap_or_else(|| panic!("{name}"))
    };
    let inner = Rc::new(StructDef {
        name: "Inner".into(),
        fields: vec![("a".into(), n("int8")), ("b".into(), n("float64")), ("c".into(), n("int16"))],
        align: 0,
    });
    let mut types: Vec<Ty> = [
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint64",
        "float16",
        "bfloat16",
        "float32",
        "float64",
        "float8e4m3",
        "complex64",
        "complex128",
        "float32x3",
        "float32x4",
        "int8x3",
        "float64x2",
        "float16x4",
        "uint16x1",
    ]
    .iter()
    .map(|t| n(t))
    .collect();
    types.push(Ty::Struct(inner.clone()));
    types.push(Ty::Struct(Rc::new(StructDef {
        name: "Outer".into(),
        fields: vec![("x".into(), n("int8")), ("i".into(), Ty::Struct(inner.clone())), ("v".into(), n("float32x3"))],
        align: 0,
    })));
    types.push(Ty::Struct(Rc::new(StructDef {
        name: "Wide".into(),
        fields: vec![("x".into(), n("int8"))],
        align: 16,
    })));
    types.push(Ty::Tuple(vec![n("int8"), n("float64"), n("int32")]));
    types.push(Ty::Tuple(vec![n("int16"), Ty::Struct(inner), n("complex64")]));
    types.push(Ty::aligned(n("float32"), 16));
    for t in types {
        let text = t.mlir();
        let parsed = melior::ir::Type::parse(&context, &text).unwrap_or_else(|| panic!("cannot parse {text}"));
        assert_eq!(pydev_dialect::type_layout(parsed), Some((t.size(), t.align())), "layout of {text}");
    }
}

#[test]
fn a_file_parsed_again_is_the_same_and_an_edited_one_is_new() {
    // The last source a thread parsed is kept (`parse_cached`): its kernels
    // compile from the kept tree, an edited text (same length, same names)
    // is parsed anew, and a syntax error is still reported after a good parse.
    let a = "import cuda.device as device\n\n@device.kernel\ndef k(out, x):\n    i = device.tid(1)\n    out[i] = x[i] + 1.0\n\n@device.kernel\ndef j(out, x):\n    i = device.tid(1)\n    out[i] = x[i] * 3.0\n";
    let b = a.replace("+ 1.0", "- 1.0");
    let sig = "float32[::1], float32[::1]";
    let (k, j) = (ir(a, "k", sig), ir(a, "j", sig));
    let adds_one = |t: &str| t.contains("pydev.add %14, %15 : f32");
    assert!(adds_one(&k) && j.contains("pydev.mul %14, %15 : f32"), "{k}\n{j}");
    assert_eq!(ir(a, "k", sig), k);
    let edited = ir(&b, "k", sig);
    assert!(edited.contains("pydev.sub %14, %15 : f32") && !adds_one(&edited), "{edited}");
    assert!(errors(&a.replace("out[i] = x[i] * 3.0", "out[i] = x[i] *"), "j", sig).contains("syntax error"));
    assert_eq!(ir(a, "k", sig), k);
}

/// Structs defined anywhere (issue 30): a signature names one by
/// `qualname@line`; two classes of one name stay two types, each with its
/// own fields, field types of the scopes around them, and methods.
#[test]
fn structs_defined_anywhere_are_found_by_qualname_and_line() {
    let src = format!(
        "{HEADER}
def first():
    @device.struct
    class P:
        x: device.int32

        @device.func
        def get(self):
            return self.x

def second():
    @device.struct
    class Inner:
        a: device.float64

    @device.struct
    class P:
        x: device.float32
        inner: Inner

@device.kernel
def k(out, p, q):
    out[0] = p.get()
    out[1] = q.x + q.inner.a
"
    );
    let text = ir(&src, "k", "float64[::1], first.<locals>.P@4, second.<locals>.P@15");
    assert!(text.contains("<\"P\", {x: si32}>") && text.contains("<\"Inner\", {a: f64}>"), "{text}");
    assert!(text.contains("P_get_first__locals__P_4"), "{text}");
    // Any line of the class's definition finds it.
    ir(&src, "k", "float64[::1], first.<locals>.P@6, second.<locals>.P@16");
    let e = errors(&src, "k", "float64[::1], first.<locals>.P@4, third.<locals>.P@4");
    assert!(e.contains("unknown type 'third.<locals>.P@4'"), "{e}");
}
