//! The host's C ABI adapters of interoperable functions (spec: Python and
//! CUDA C++; docs/interop.md, "How the call is made on the host").
//!
//! LLVM passes first-class aggregates in registers field by field, which is
//! not the platform's C calling convention. So the host module calls a
//! declared function `<name>` through `__pydev_cabi_<name>` (the prefix is
//! [`pydev_dialect::abi::HOST_ADAPTER_PREFIX`]; the `pydev-host-adapters`
//! pass renames the calls), and a Python interop function compiled to an
//! object file (`stage="object"`) gets a C entry `<name>`.
//!
//! Expects: signatures as pydev IR type texts (`Ty::mlir`, what
//! `pydev._c_types` writes: `f32`, `si32`, `!pydev.vector<4 x f32>`,
//! `!pydev.struct<"vec3", {x: f32, y: f32, z: f32}>`, `!pydev.tuple<...>`,
//! `!pydev.array<f64, 2>`) of the value types that cross the C ABI: numbers,
//! bools, vectors, structs, tuples and the interoperable array descriptor.
//! Sizes, alignments and offsets are the dialect's CUDA C++ layout
//! (`pydev_dialect::type_layout`, `field_offset`); C++ types are named as
//! the header generator names them ([`crate::cxx_header::cxx_types`]).
//!
//! Guarantees: every scalar is written and read at its CUDA C++ offset, and
//! the C++ text holds `static_assert`s that clang's `sizeof`, `alignof` and
//! `offsetof` of every scalar member are those offsets; so clang makes the
//! call exactly as the C or C++ code that defines (or calls) the function
//! expects. The texts are a function of the signatures alone (they are part
//! of the cache key of the host library).
//!
//! Shape of the code written ([`host_adapters`]), per declared function:
//!
//! ```text
//! declare void @__pydev_packed_f(ptr)
//! define <reg result> @__pydev_cabi_f(<reg a0> %a0, ...) {
//!   %args = alloca [n+1 x ptr]            ; one slot per argument, one for the result
//!   %m0 = alloca [size x i8]              ; each argument's C memory: every scalar
//!   ... extractvalue/extractelement, store at its offset (i1 as an i8 0/1)
//!   %r = alloca [size x i8]               ; the result's C memory
//!   call void @__pydev_packed_f(ptr %args)
//!   ... load every scalar, insertvalue/insertelement, ret
//! }
//! ```
//! and in C++ `extern "C" R f(A0, ...);` with
//! `extern "C" void __pydev_packed_f(void** a) { *(R*)a[n] = f(*(A0*)a[0], ...); }`.
//! [`reverse_adapter`] is the mirror image: `@f` of the module becomes
//! `@__pydev_py_f`, `__pydev_rpacked_f(ptr)` (LLVM IR) loads the arguments
//! from their C memory, calls it and stores the result; the C++ `f` takes
//! the CUDA C++ types by value and calls `__pydev_rpacked_f`.

use crate::cxx_header::{cxx_types, parse_ty, CxxHeaderError};
use melior::ir::Type;
use pydev_frontend_python::types::{FloatKind, Ty};
use std::fmt::Write;

/// The prefix of the C++ shim a host adapter calls.
pub const PACKED_PREFIX: &str = "__pydev_packed_";
/// The new name of a Python interop function's register-form definition.
pub const PY_PREFIX: &str = "__pydev_py_";
/// The prefix of the LLVM IR function a reverse adapter's C++ entry calls.
pub const RPACKED_PREFIX: &str = "__pydev_rpacked_";

/// A signature: parameter types and the result type (None: void), as
/// pydev IR type texts.
#[derive(Debug, Clone)]
pub struct Signature {
    pub name: String,
    pub params: Vec<String>,
    pub result: Option<String>,
}

/// Why no adapter could be written.
#[derive(Debug, thiserror::Error)]
pub enum CabiError {
    #[error(transparent)]
    Cxx(#[from] CxxHeaderError),
    #[error("cannot read the type {text}")]
    UnreadableType { text: String },
    #[error("the type {ty} has no C ABI adapter")]
    Unsupported { ty: String },
    #[error("the type {ty} has no CUDA C++ layout")]
    NoLayout { ty: String },
}

/// A type as the adapters see it: its LLVM register form and C layout.
enum M {
    Scalar {
        llvm: &'static str,
        size: u64,
    },
    Vec {
        llvm: &'static str,
        elem_size: u64,
        lanes: u32,
        size: u64,
        align: u64,
    },
    Arr {
        ndim: u32,
    },
    /// A struct or a tuple: (member name, type, offset) of each field.
    Agg {
        fields: Vec<(String, M, u64)>,
        size: u64,
        align: u64,
    },
}

impl M {
    fn size(&self) -> u64 {
        match self {
            M::Scalar { size, .. } | M::Vec { size, .. } | M::Agg { size, .. } => *size,
            M::Arr { ndim } => 8 + 16 * u64::from(*ndim),
        }
    }

    fn align(&self) -> u64 {
        match self {
            M::Scalar { size, .. } => *size,
            M::Vec { align, .. } | M::Agg { align, .. } => *align,
            M::Arr { .. } => 8,
        }
    }

    /// The LLVM register type (the host pipeline's lowering).
    fn reg(&self) -> String {
        match self {
            M::Scalar { llvm, .. } => (*llvm).to_owned(),
            M::Vec { llvm, lanes, .. } => format!("<{lanes} x {llvm}>"),
            M::Arr { ndim } => format!("{{ ptr, [{ndim} x i64], [{ndim} x i64] }}"),
            M::Agg { fields, .. } => {
                format!("{{ {} }}", fields.iter().map(|(_, t, _)| t.reg()).collect::<Vec<_>>().join(", "))
            }
        }
    }

    /// (access path, LLVM scalar type, C offset) of every scalar.
    fn leaves(&self, path: &[Step], offset: u64, out: &mut Vec<(Vec<Step>, &'static str, u64)>) {
        let with = |steps: &[Step]| [path, steps].concat();
        match self {
            M::Scalar { llvm, .. } => out.push((path.to_vec(), llvm, offset)),
            M::Vec { llvm, elem_size, lanes, .. } => {
                for i in 0..*lanes {
                    out.push((with(&[Step::E(i as usize)]), llvm, offset + u64::from(i) * elem_size));
                }
            }
            M::Arr { ndim } => {
                let n = u64::from(*ndim);
                out.push((with(&[Step::V(0)]), "ptr", offset));
                for i in 0..n {
                    out.push((with(&[Step::V(1), Step::V(i as usize)]), "i64", offset + 8 + 8 * i));
                }
                for i in 0..n {
                    out.push((with(&[Step::V(2), Step::V(i as usize)]), "i64", offset + 8 + 8 * n + 8 * i));
                }
            }
            M::Agg { fields, .. } => {
                for (i, (_, t, off)) in fields.iter().enumerate() {
                    t.leaves(&with(&[Step::V(i)]), offset + off, out);
                }
            }
        }
    }

    fn all_leaves(&self) -> Vec<(Vec<Step>, &'static str, u64)> {
        let mut out = Vec::new();
        self.leaves(&[], 0, &mut out);
        out
    }

    /// (member designator, C offset) of every scalar (`v.y`,
    /// `d.shape[1]`, `__0.re`), for the `static_assert`s.
    fn designators(&self, prefix: &str, offset: u64, out: &mut Vec<(String, u64)>) {
        let dot = if prefix.is_empty() { String::new() } else { format!("{prefix}.") };
        match self {
            M::Scalar { .. } => {
                if !prefix.is_empty() {
                    out.push((prefix.to_owned(), offset));
                }
            }
            M::Vec { elem_size, lanes, .. } => {
                for (i, l) in "xyzw".chars().take(*lanes as usize).enumerate() {
                    out.push((format!("{dot}{l}"), offset + i as u64 * elem_size));
                }
            }
            M::Arr { ndim } => {
                let n = u64::from(*ndim);
                out.push((format!("{dot}data"), offset));
                for i in 0..n {
                    out.push((format!("{dot}shape[{i}]"), offset + 8 + 8 * i));
                    out.push((format!("{dot}strides[{i}]"), offset + 8 + 8 * n + 8 * i));
                }
            }
            M::Agg { fields, .. } => {
                for (f, t, off) in fields {
                    t.designators(&format!("{dot}{f}"), offset + off, out);
                }
            }
        }
    }
}

/// A step of an access path: `extractvalue` (V) or `extractelement` (E).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    V(usize),
    E(usize),
}

fn scalar(t: &Ty) -> Option<(&'static str, u64)> {
    Some(match t {
        Ty::Bool => ("i1", 1),
        Ty::Int { bits: 8, .. } => ("i8", 1),
        Ty::Int { bits: 16, .. } => ("i16", 2),
        Ty::Int { bits: 32, .. } => ("i32", 4),
        Ty::Int { bits: 64, .. } => ("i64", 8),
        Ty::Float(FloatKind::F16) => ("half", 2),
        Ty::Float(FloatKind::BF16) => ("bfloat", 2),
        Ty::Float(FloatKind::F8E4M3 | FloatKind::F8E5M2) => ("i8", 1),
        Ty::Float(FloatKind::F32) => ("float", 4),
        Ty::Float(FloatKind::F64) => ("double", 8),
        _ => return None,
    })
}

/// The model of type `t`, its layout from the dialect.
fn model(ctx: &melior::Context, t: &Ty) -> Result<M, CabiError> {
    if let Some((llvm, size)) = scalar(t) {
        return Ok(M::Scalar { llvm, size });
    }
    let text = t.mlir();
    let no_layout = || CabiError::NoLayout { ty: text.clone() };
    let ty = Type::parse(ctx, &text).ok_or_else(|| CabiError::UnreadableType { text: text.clone() })?;
    let (size, align) = pydev_dialect::type_layout(ty).ok_or_else(no_layout)?;
    let members = |items: Vec<(String, &Ty)>| -> Result<M, CabiError> {
        let mut fields = Vec::new();
        for (i, (f, ft)) in items.into_iter().enumerate() {
            let off = pydev_dialect::field_offset(ty, i as u32).ok_or_else(no_layout)?;
            fields.push((f, model(ctx, ft)?, off));
        }
        Ok(M::Agg { fields, size, align })
    };
    match t {
        Ty::Vector { elem, lanes } => {
            let (llvm, elem_size) = scalar(elem).ok_or_else(|| CabiError::Unsupported { ty: text.clone() })?;
            Ok(M::Vec { llvm, elem_size, lanes: *lanes, size, align })
        }
        Ty::Array { ndim, .. } => Ok(M::Arr { ndim: *ndim }),
        Ty::Struct(def) => members(def.fields.iter().map(|(f, t)| (f.clone(), t)).collect()),
        Ty::Tuple(items) => members(items.iter().enumerate().map(|(i, t)| (format!("__{i}"), t)).collect()),
        _ => Err(CabiError::Unsupported { ty: text.clone() }),
    }
}

fn read(ctx: &melior::Context, text: &str) -> Result<M, CabiError> {
    let t = parse_ty(text).ok_or_else(|| CabiError::UnreadableType { text: text.to_owned() })?;
    model(ctx, &t)
}

/// The models of a signature's parameters and result.
type Models = (Vec<M>, Option<M>);

fn read_signature(ctx: &melior::Context, params: &[String], result: Option<&String>) -> Result<Models, CabiError> {
    Ok((params.iter().map(|p| read(ctx, p)).collect::<Result<_, _>>()?, result.map(|r| read(ctx, r)).transpose()?))
}

/// (C++ declarations, [(parameter C++ types, result C++ type), ...]) of
/// signatures `sigs` ([(params, result)]): the types named and declared as
/// the header generator names them, plus `static_assert`s that C++'s offset
/// of every scalar is the one the adapters read and write.
pub fn cxx_signatures(sigs: &[(Vec<String>, Option<String>)]) -> Result<(String, Vec<CxxSignature>), CabiError> {
    let ctx = pydev_dialect::new_pipeline_context();
    let mut texts = Vec::new();
    let mut models = Vec::new();
    for (params, result) in sigs {
        let (ps, r) = read_signature(&ctx, params, result.as_ref())?;
        texts.extend(params.iter().cloned().chain(result.iter().cloned()));
        models.extend(ps.into_iter().chain(r));
    }
    let (text, names) = cxx_types(&texts)?;
    let mut asserts: Vec<String> = Vec::new();
    for (m, n) in models.iter().zip(&names) {
        if matches!(m, M::Scalar { .. }) {
            continue;
        }
        let mut n = n.clone();
        if n.contains(',') {
            // a template's name inside the offsetof macro: an alias
            let alias = format!("__pydev_assert_t{}", asserts.len());
            asserts.push(format!("typedef {n} {alias};"));
            n = alias;
        }
        let mut ds = Vec::new();
        m.designators("", 0, &mut ds);
        let mut new = vec![
            format!("static_assert(sizeof({n}) == {}, \"sizeof({n})\");", m.size()),
            format!("static_assert(alignof({n}) == {}, \"alignof({n})\");", m.align()),
        ];
        new.extend(
            ds.iter().map(|(d, off)| format!("static_assert(offsetof({n}, {d}) == {off}, \"offsetof({n}, {d})\");")),
        );
        for a in new {
            if !asserts.contains(&a) {
                asserts.push(a);
            }
        }
    }
    let mut it = names.into_iter();
    let mut out = Vec::new();
    for (params, result) in sigs {
        let cp: Vec<String> = params.iter().map(|_| it.next().unwrap_or_default()).collect();
        let cr = if result.is_some() { it.next().unwrap_or_default() } else { "void".to_owned() };
        out.push((cp, cr));
    }
    Ok((text + &asserts.join("\n") + "\n", out))
}

/// (parameter C++ types, result C++ type) of a signature.
pub type CxxSignature = (Vec<String>, String);

/// A function body being written: numbered temporaries, indented lines.
#[derive(Default)]
struct Body {
    lines: Vec<String>,
    n: usize,
}

impl Body {
    fn tmp(&mut self) -> String {
        self.n += 1;
        format!("%t{}", self.n)
    }

    fn emit(&mut self, text: String) {
        self.lines.push(format!("  {text}"));
    }

    /// The scalar at `path` of register value `value` of type `m`.
    fn extract(&mut self, m: &M, value: &str, path: &[Step]) -> String {
        enum Sub<'a> {
            M(&'a M),
            Raw(String),
        }
        let (mut ty, mut cur, mut sub) = (m.reg(), value.to_owned(), Sub::M(m));
        let mut i = 0;
        while i < path.len() {
            if let Step::E(k) = path[i] {
                let t = self.tmp();
                self.emit(format!("{t} = extractelement {ty} {cur}, i32 {k}"));
                return t;
            }
            // Consecutive extractvalue steps are one instruction.
            let mut idx = Vec::new();
            while let Some(Step::V(k)) = path.get(i) {
                idx.push(k.to_string());
                sub = match sub {
                    Sub::M(M::Agg { fields, .. }) => Sub::M(&fields[*k].1),
                    Sub::M(M::Arr { ndim }) => Sub::Raw(if *k == 0 { "ptr".into() } else { format!("[{ndim} x i64]") }),
                    _ => Sub::Raw("i64".into()),
                };
                i += 1;
            }
            let t = self.tmp();
            self.emit(format!("{t} = extractvalue {ty} {cur}, {}", idx.join(", ")));
            cur = t;
            ty = match &sub {
                Sub::M(m) => m.reg(),
                Sub::Raw(r) => r.clone(),
            };
        }
        cur
    }

    fn store_leaf(&mut self, scalar_ty: &str, value: &str, base: &str, offset: u64) {
        let p = self.tmp();
        self.emit(format!("{p} = getelementptr inbounds i8, ptr {base}, i64 {offset}"));
        if scalar_ty == "i1" {
            let z = self.tmp();
            self.emit(format!("{z} = zext i1 {value} to i8"));
            self.emit(format!("store i8 {z}, ptr {p}, align 1"));
        } else {
            self.emit(format!("store {scalar_ty} {value}, ptr {p}, align 1"));
        }
    }

    fn load_leaf(&mut self, scalar_ty: &str, base: &str, offset: u64) -> String {
        let p = self.tmp();
        self.emit(format!("{p} = getelementptr inbounds i8, ptr {base}, i64 {offset}"));
        let t = self.tmp();
        if scalar_ty == "i1" {
            self.emit(format!("{t} = load i8, ptr {p}, align 1"));
            let b = self.tmp();
            self.emit(format!("{b} = icmp ne i8 {t}, 0"));
            return b;
        }
        self.emit(format!("{t} = load {scalar_ty}, ptr {p}, align 1"));
        t
    }

    /// Every scalar of register value `value` of type `m` stored in C
    /// memory at `base`.
    fn store_value(&mut self, m: &M, value: &str, base: &str) {
        for (path, sty, off) in m.all_leaves() {
            let v = if path.is_empty() { value.to_owned() } else { self.extract(m, value, &path) };
            self.store_leaf(sty, &v, base, off);
        }
    }

    /// The register value of type `m` loaded from C memory at `base`.
    fn build_value(&mut self, m: &M, base: &str) -> String {
        let ty = m.reg();
        let mut cur = "poison".to_owned();
        match m {
            M::Scalar { llvm, .. } => return self.load_leaf(llvm, base, 0),
            M::Vec { llvm, elem_size, lanes, .. } => {
                for i in 0..*lanes {
                    let x = self.load_leaf(llvm, base, u64::from(i) * elem_size);
                    let t = self.tmp();
                    self.emit(format!("{t} = insertelement {ty} {cur}, {llvm} {x}, i32 {i}"));
                    cur = t;
                }
            }
            M::Arr { .. } => {
                for (path, sty, off) in m.all_leaves() {
                    let x = self.load_leaf(sty, base, off);
                    let t = self.tmp();
                    let idx: Vec<String> = path
                        .iter()
                        .map(|s| match s {
                            Step::V(k) | Step::E(k) => k.to_string(),
                        })
                        .collect();
                    self.emit(format!("{t} = insertvalue {ty} {cur}, {sty} {x}, {}", idx.join(", ")));
                    cur = t;
                }
            }
            M::Agg { fields, .. } => {
                for (i, (_, t, off)) in fields.iter().enumerate() {
                    let p = self.tmp();
                    self.emit(format!("{p} = getelementptr inbounds i8, ptr {base}, i64 {off}"));
                    let x = self.build_value(t, &p);
                    let r = self.tmp();
                    self.emit(format!("{r} = insertvalue {ty} {cur}, {} {x}, {i}", t.reg()));
                    cur = r;
                }
            }
        }
        cur
    }

    /// `%p = load ptr` of slot `i` of `%args`.
    fn slot(&mut self, i: usize) -> String {
        let slot = self.tmp();
        self.emit(format!("{slot} = getelementptr inbounds ptr, ptr %args, i64 {i}"));
        slot
    }
}

/// (LLVM IR text, C++ text) of the adapters of declared functions `sigs`:
/// `__pydev_cabi_<name>` takes the register form (what the host pipeline's
/// call passes), writes each argument in its C layout and calls
/// `__pydev_packed_<name>`, which the C++ compiler compiles into a C call
/// of `<name>`.
pub fn host_adapters(sigs: &[Signature]) -> Result<(String, String), CabiError> {
    let prefix = pydev_dialect::abi::HOST_ADAPTER_PREFIX;
    let ctx = pydev_dialect::new_pipeline_context();
    let pairs: Vec<_> = sigs.iter().map(|s| (s.params.clone(), s.result.clone())).collect();
    let (decls, ctypes) = cxx_signatures(&pairs)?;
    let mut ll =
        vec!["; pydev host adapters of declared interoperable functions (runtime/src/cabi_adapters.rs)".to_owned()];
    let mut cxx = vec!["// pydev host shims of declared interoperable functions".to_owned(), decls];
    for (sig, (cparams, cres)) in sigs.iter().zip(ctypes) {
        let name = &sig.name;
        let (params, result) = read_signature(&ctx, &sig.params, sig.result.as_ref())?;
        let mut b = Body::default();
        let n = params.len();
        b.emit(format!("%args = alloca [{} x ptr], align 8", n + 1));
        for (i, m) in params.iter().enumerate() {
            let mem = format!("%m{i}");
            b.emit(format!("{mem} = alloca [{} x i8], align {}", m.size().max(1), m.align().max(8)));
            b.store_value(m, &format!("%a{i}"), &mem);
            let slot = b.slot(i);
            b.emit(format!("store ptr {mem}, ptr {slot}, align 8"));
        }
        if let Some(r) = &result {
            b.emit(format!("%r = alloca [{} x i8], align {}", r.size(), r.align().max(8)));
            let slot = b.slot(n);
            b.emit(format!("store ptr %r, ptr {slot}, align 8"));
        }
        b.emit(format!("call void @{PACKED_PREFIX}{name}(ptr %args)"));
        let ret = match &result {
            None => {
                b.emit("ret void".into());
                "void".to_owned()
            }
            Some(r) => {
                let v = b.build_value(r, "%r");
                b.emit(format!("ret {} {v}", r.reg()));
                r.reg()
            }
        };
        let args: Vec<String> = params.iter().enumerate().map(|(i, m)| format!("{} %a{i}", m.reg())).collect();
        ll.push(format!("declare void @{PACKED_PREFIX}{name}(ptr)"));
        ll.push(format!("define {ret} @{prefix}{name}({}) {{", args.join(", ")));
        ll.extend(b.lines);
        ll.push("}".into());
        // The C++ side: the declaration with the CUDA C++ types, and the call.
        cxx.push(format!("extern \"C\" {cres} {name}({});", cparams.join(", ")));
        let call = format!(
            "{name}({})",
            cparams.iter().enumerate().map(|(i, c)| format!("*({c}*)a[{i}]")).collect::<Vec<_>>().join(", ")
        );
        let body = if result.is_none() { format!("{call};") } else { format!("*({cres}*)a[{n}] = {call};") };
        cxx.push(format!("extern \"C\" void {PACKED_PREFIX}{name}(void** a) {{ {body} }}"));
    }
    Ok((ll.join("\n") + "\n", cxx.join("\n") + "\n"))
}

/// `text` with every use of symbol `@name` (not a longer name's prefix)
/// renamed `@new`.
fn rename_symbol(text: &str, name: &str, new: &str) -> String {
    let needle = format!("@{name}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        let after = &rest[at + needle.len()..];
        let longer = after.chars().next().is_some_and(|c| c.is_alphanumeric() || "_.$".contains(c));
        out.push_str(&rest[..at]);
        out.push_str(if longer { &needle } else { new });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// (LLVM IR, C++) that make Python interop function `sig.name` of host
/// LLVM IR module `llvm_ir` callable with the platform's C ABI: the
/// module's `@name` (register form) becomes `@__pydev_py_name`;
/// `__pydev_rpacked_name(ptr)` (LLVM IR, appended to the module) reads the
/// arguments from their C layout and calls it; the C++ `name` takes the
/// CUDA C++ types by value and calls that.
pub fn reverse_adapter(llvm_ir: &str, sig: &Signature) -> Result<(String, String), CabiError> {
    let name = &sig.name;
    let ctx = pydev_dialect::new_pipeline_context();
    let (params, result) = read_signature(&ctx, &sig.params, sig.result.as_ref())?;
    let mut ir = rename_symbol(llvm_ir, name, &format!("@{PY_PREFIX}{name}"));
    let mut b = Body::default();
    let mut regs = Vec::new();
    for (i, m) in params.iter().enumerate() {
        let slot = b.slot(i);
        let p = b.tmp();
        b.emit(format!("{p} = load ptr, ptr {slot}, align 8"));
        let v = b.build_value(m, &p);
        regs.push(format!("{} {v}", m.reg()));
    }
    let call = format!("@{PY_PREFIX}{name}({})", regs.join(", "));
    match &result {
        None => b.emit(format!("call void {call}")),
        Some(r) => {
            let v = b.tmp();
            b.emit(format!("{v} = call {} {call}", r.reg()));
            let slot = b.slot(params.len());
            let p = b.tmp();
            b.emit(format!("{p} = load ptr, ptr {slot}, align 8"));
            b.store_value(r, &v, &p);
        }
    }
    b.emit("ret void".into());
    let _ = write!(ir, "\ndefine void @{RPACKED_PREFIX}{name}(ptr %args) {{\n{}\n}}\n", b.lines.join("\n"));
    let (decls, sigs) = cxx_signatures(&[(sig.params.clone(), sig.result.clone())])?;
    let (cparams, cres) = &sigs[0];
    let mut ptrs: Vec<String> = (0..params.len()).map(|i| format!("(void*)&a{i}")).collect();
    if result.is_some() {
        ptrs.push("(void*)&r".into());
    }
    let ptrs = if ptrs.is_empty() { "nullptr".to_owned() } else { ptrs.join(", ") };
    let mut body = format!("void* p[] = {{{ptrs}}}; {RPACKED_PREFIX}{name}(p);");
    if result.is_some() {
        body = format!("{cres} r; {body} return r;");
    }
    let cps: Vec<String> = cparams.iter().enumerate().map(|(i, c)| format!("{c} a{i}")).collect();
    let cxx = [
        "// pydev: the C ABI entry of a Python interoperable function (runtime/src/cabi_adapters.rs)".to_owned(),
        decls,
        format!("extern \"C\" void {RPACKED_PREFIX}{name}(void**);"),
        format!("extern \"C\" {cres} {name}({}) {{ {body} }}", cps.join(", ")),
    ]
    .join("\n")
        + "\n";
    Ok((ir, cxx))
}

#[cfg(test)]
mod tests {
    use super::{host_adapters, rename_symbol, reverse_adapter, Signature};

    fn sig(name: &str, params: &[&str], result: Option<&str>) -> Signature {
        Signature {
            name: name.into(),
            params: params.iter().map(|p| (*p).to_owned()).collect(),
            result: result.map(str::to_owned),
        }
    }

    const VEC3: &str = "!pydev.struct<\"vec3\", {x: f32, y: f32, z: f32}>";

    #[test]
    fn scalars_pass_through_the_packed_call() {
        let (ll, cxx) = host_adapters(&[sig("axpy", &["f32", "si32", "i1"], Some("f32"))]).unwrap();
        assert!(ll.contains("declare void @__pydev_packed_axpy(ptr)"), "{ll}");
        assert!(ll.contains("define float @__pydev_cabi_axpy(float %a0, i32 %a1, i1 %a2) {"), "{ll}");
        assert!(ll.contains("  %m2 = alloca [1 x i8], align 8"), "{ll}");
        assert!(ll.contains("zext i1 %a2 to i8"), "{ll}");
        assert!(ll.contains("  %r = alloca [4 x i8], align 8"), "{ll}");
        assert!(ll.contains("  ret float %t"), "{ll}");
        assert!(cxx.contains("extern \"C\" float axpy(float, int32_t, bool);"), "{cxx}");
        assert!(
            cxx.contains("extern \"C\" void __pydev_packed_axpy(void** a) { *(float*)a[3] = axpy(*(float*)a[0], *(int32_t*)a[1], *(bool*)a[2]); }"),
            "{cxx}"
        );
    }

    #[test]
    fn a_vec3_struct_is_stored_at_its_offsets() {
        let (ll, cxx) = host_adapters(&[sig("norm", &[VEC3], Some(VEC3))]).unwrap();
        let want = "define { float, float, float } @__pydev_cabi_norm({ float, float, float } %a0) {
  %args = alloca [2 x ptr], align 8
  %m0 = alloca [12 x i8], align 8
  %t1 = extractvalue { float, float, float } %a0, 0
  %t2 = getelementptr inbounds i8, ptr %m0, i64 0
  store float %t1, ptr %t2, align 1
  %t3 = extractvalue { float, float, float } %a0, 1
  %t4 = getelementptr inbounds i8, ptr %m0, i64 4
  store float %t3, ptr %t4, align 1
  %t5 = extractvalue { float, float, float } %a0, 2
  %t6 = getelementptr inbounds i8, ptr %m0, i64 8
  store float %t5, ptr %t6, align 1
  %t7 = getelementptr inbounds ptr, ptr %args, i64 0
  store ptr %m0, ptr %t7, align 8
  %r = alloca [12 x i8], align 8
  %t8 = getelementptr inbounds ptr, ptr %args, i64 1
  store ptr %r, ptr %t8, align 8
  call void @__pydev_packed_norm(ptr %args)
  %t9 = getelementptr inbounds i8, ptr %r, i64 0
  %t10 = getelementptr inbounds i8, ptr %t9, i64 0
  %t11 = load float, ptr %t10, align 1
  %t12 = insertvalue { float, float, float } poison, float %t11, 0
  %t13 = getelementptr inbounds i8, ptr %r, i64 4
  %t14 = getelementptr inbounds i8, ptr %t13, i64 0
  %t15 = load float, ptr %t14, align 1
  %t16 = insertvalue { float, float, float } %t12, float %t15, 1
  %t17 = getelementptr inbounds i8, ptr %r, i64 8
  %t18 = getelementptr inbounds i8, ptr %t17, i64 0
  %t19 = load float, ptr %t18, align 1
  %t20 = insertvalue { float, float, float } %t16, float %t19, 2
  ret { float, float, float } %t20
}";
        assert!(ll.contains(want), "{ll}");
        assert!(cxx.contains("struct vec3 {"), "{cxx}");
        assert!(cxx.contains("static_assert(offsetof(vec3, z) == 8, \"offsetof(vec3, z)\");"), "{cxx}");
        assert!(cxx.contains("extern \"C\" vec3 norm(vec3);"), "{cxx}");
    }

    #[test]
    fn a_float4_vector_and_an_array_descriptor() {
        let (ll, cxx) = host_adapters(&[sig("f", &["!pydev.vector<4 x f32>", "!pydev.array<f64, 2>"], None)]).unwrap();
        assert!(
            ll.contains("define void @__pydev_cabi_f(<4 x float> %a0, { ptr, [2 x i64], [2 x i64] } %a1) {"),
            "{ll}"
        );
        assert!(ll.contains("%m0 = alloca [16 x i8], align 16"), "{ll}");
        assert!(ll.contains("%t7 = extractelement <4 x float> %a0, i32 3"), "{ll}");
        assert!(ll.contains("%m1 = alloca [40 x i8], align 8"), "{ll}");
        assert!(ll.contains("extractvalue { ptr, [2 x i64], [2 x i64] } %a1, 2, 1"), "{ll}");
        assert!(ll.contains("getelementptr inbounds i8, ptr %m1, i64 32"), "{ll}");
        assert!(cxx.contains("typedef cuda::interoperable_array_descriptor<double, 2> __pydev_assert_t"), "{cxx}");
        assert!(cxx.contains("offsetof(__pydev_assert_t"), "{cxx}");
        assert!(cxx.contains("strides[1]) == 32"), "{cxx}");
        assert!(cxx.contains("static_assert(alignof(float4) == 16, \"alignof(float4)\");"), "{cxx}");
        assert!(
            cxx.contains("{ f(*(float4*)a[0], *(cuda::interoperable_array_descriptor<double, 2>*)a[1]); }"),
            "{cxx}"
        );
    }

    #[test]
    fn a_nested_struct_and_a_reverse_adapter() {
        let outer = format!("!pydev.struct<\"outer\", {{a: {VEC3}, b: si8, c: !pydev.vector<2 x f32>}}>");
        let (ll, cxx) = host_adapters(&[sig("g", &[&outer], Some("i1"))]).unwrap();
        assert!(ll.contains("{ { float, float, float }, i8, <2 x float> } %a0"), "{ll}");
        assert!(ll.contains("extractvalue { { float, float, float }, i8, <2 x float> } %a0, 0, 2"), "{ll}");
        assert!(ll.contains("extractelement <2 x float> %t"), "{ll}");
        assert!(ll.contains("icmp ne i8"), "{ll}");
        assert!(cxx.contains("static_assert(offsetof(outer, a.z) == 8, \"offsetof(outer, a.z)\");"), "{cxx}");
        assert!(cxx.contains("static_assert(offsetof(outer, c.y) == 20"), "{cxx}");
        let module = "define { float, float, float } @py_v3({ float, float, float } %0) {\n  ret { float, float, float } %0\n}\ndeclare void @py_v3x()\n";
        let (ir, cxx) = reverse_adapter(module, &sig("py_v3", &[VEC3], Some(VEC3))).unwrap();
        assert!(ir.contains("@__pydev_py_py_v3({") && ir.contains("@py_v3x()"), "{ir}");
        assert!(ir.contains("define void @__pydev_rpacked_py_v3(ptr %args) {"), "{ir}");
        assert!(ir.contains("= call { float, float, float } @__pydev_py_py_v3({ float, float, float } %t"), "{ir}");
        assert!(
            cxx.contains("extern \"C\" vec3 py_v3(vec3 a0) { vec3 r; void* p[] = {(void*)&a0, (void*)&r}; __pydev_rpacked_py_v3(p); return r; }"),
            "{cxx}"
        );
        assert_eq!(rename_symbol("@f @f.x @fg @f)", "f", "@h"), "@h @f.x @fg @h)");
    }
}
