//! `pydevc FILE --emit cxx-header` and `pydev.cxx_header(...)`: a C++
//! header declaring a Python file's `@device.struct` classes, the
//! interoperable array descriptor, and its interoperable functions and
//! kernels (spec: Python and CUDA C++; docs/interop.md).
//!
//! Every size, alignment and offset comes from the dialect's one layout
//! definition (`pydev_dialect::type_layout` / `field_offset`, i.e.
//! `getTypeLayout` in dialect/cpp/PydevDialect.cpp); the header states each
//! as a `static_assert`, so a C++ compiler that lays a declaration out
//! differently rejects the header instead of passing garbage.

use melior::ir::Type;
use pydev_frontend_python::{
    interop::{c_abi_problem, declared_type},
    module::Module,
    types::{FloatKind, Ty},
    FuncKind, SourceFile,
};
use ruff_python_ast::{Expr, Stmt};
use std::fmt::Write;

/// What the header holds, in dependency order.
#[derive(Default)]
struct Decls {
    defs: Vec<String>,
    asserts: Vec<String>,
    named: Vec<(String, String)>, // (MLIR type, C++ name)
    tuples: usize,
    half: bool,
    bf16: bool,
    fp8: bool,
    cuda_vectors: Vec<(String, String, u64, u32)>, // (name, element C type, align, lanes)
    array: bool,
}

const CUDA: &str = "defined(__CUDACC__) || defined(__CUDACC_RTC__)";

fn scalar(t: &Ty) -> Option<&'static str> {
    Some(match t {
        Ty::Bool => "bool",
        Ty::Int { bits: 8, signed: true } => "int8_t",
        Ty::Int { bits: 16, signed: true } => "int16_t",
        Ty::Int { bits: 32, signed: true } => "int32_t",
        Ty::Int { bits: 64, signed: true } => "int64_t",
        Ty::Int { bits: 8, signed: false } => "uint8_t",
        Ty::Int { bits: 16, signed: false } => "uint16_t",
        Ty::Int { bits: 32, signed: false } => "uint32_t",
        Ty::Int { bits: 64, signed: false } => "uint64_t",
        Ty::Float(FloatKind::F16) => "__half",
        Ty::Float(FloatKind::BF16) => "__nv_bfloat16",
        Ty::Float(FloatKind::F8E4M3) => "__nv_fp8_e4m3",
        Ty::Float(FloatKind::F8E5M2) => "__nv_fp8_e5m2",
        Ty::Float(FloatKind::F32) => "float",
        Ty::Float(FloatKind::F64) => "double",
        _ => return None,
    })
}

/// CUDA's vector type base names (vector_types.h).
fn cuda_vector_base(t: &Ty) -> Option<&'static str> {
    Some(match t {
        Ty::Int { bits: 8, signed: true } => "char",
        Ty::Int { bits: 8, signed: false } => "uchar",
        Ty::Int { bits: 16, signed: true } => "short",
        Ty::Int { bits: 16, signed: false } => "ushort",
        Ty::Int { bits: 32, signed: true } => "int",
        Ty::Int { bits: 32, signed: false } => "uint",
        Ty::Int { bits: 64, signed: true } => "longlong",
        Ty::Int { bits: 64, signed: false } => "ulonglong",
        Ty::Float(FloatKind::F32) => "float",
        Ty::Float(FloatKind::F64) => "double",
        _ => return None,
    })
}

/// Errors of naming a type in C++ (why it cannot cross the C ABI).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CTypeError {
    #[error("cannot parse the type {text}")]
    Parse { text: String },
    #[error("{ty} has no C layout")]
    NoLayout { ty: String },
    #[error("no offset for field '{field}' of {ty}")]
    NoOffset { field: String, ty: String },
    #[error("{ty} has no C++ type")]
    NoCxxType { ty: String },
    /// What the C ABI does not carry (the sentence says what and why).
    #[error("{0}")]
    Abi(String),
}

/// Errors of declaring one interoperable function or kernel in C++.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrototypeError {
    #[error("parameter '{param}' of '{function}' has no annotation, which the header needs for its C type")]
    NoAnnotation { param: String, function: String },
    #[error("the annotation of parameter '{param}' of '{function}' does not name a type")]
    ParamNotAType { param: String, function: String },
    #[error("parameter '{param}' of '{function}' cannot cross the C ABI: {source}")]
    Param { param: String, function: String, source: CTypeError },
    #[error("'{function}' has no return annotation, which the header needs (-> None for void)")]
    NoReturn { function: String },
    #[error("the return annotation of '{function}' does not name a type")]
    ReturnNotAType { function: String },
    #[error("the result of '{function}' cannot cross the C ABI: {source}")]
    Result { function: String, source: CTypeError },
}

/// Errors of making a C++ header of a Python file ([`cxx_header`]) or the
/// C++ names of pydev IR types ([`cxx_types`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CxxHeaderError {
    #[error("{file}: syntax error: {message}")]
    Syntax { file: String, message: String },
    /// The frontend's diagnostics of the file, rendered.
    #[error("{0}")]
    Frontend(String),
    #[error("{at}: error: struct '{name}': {source}")]
    Struct { at: String, name: String, source: CTypeError },
    #[error("{at}: error: '{name}' is not interoperable: the header declares @device.func(interop=True) functions and @device.kernel(interop=True) kernels")]
    NotInteroperable { at: String, name: String },
    #[error("{at}: error: {source}")]
    Prototype { at: String, source: PrototypeError },
    #[error(
        "{file}: error: no @device.struct class or @device.func/@device.kernel '{name}' at the top level of the file"
    )]
    Missing { file: String, name: String },
    #[error("cannot read the type {text}")]
    UnreadableType { text: String },
    #[error("{ty} cannot cross the C ABI: {source}")]
    Type { ty: String, source: CTypeError },
}

impl Decls {
    fn layout<'c>(ctx: &'c melior::Context, t: &Ty) -> Result<(Type<'c>, u64, u64), CTypeError> {
        let text = t.mlir();
        let ty = Type::parse(ctx, &text).ok_or_else(|| CTypeError::Parse { text: text.clone() })?;
        let (size, align) = pydev_dialect::type_layout(ty).ok_or_else(|| CTypeError::NoLayout { ty: t.to_string() })?;
        Ok((ty, size, align))
    }

    fn assert_layout(&mut self, name: &str, size: u64, align: u64, offsets: &[(String, u64)]) {
        self.asserts.push(format!("static_assert(sizeof({name}) == {size}, \"sizeof({name})\");"));
        self.asserts.push(format!("static_assert(alignof({name}) == {align}, \"alignof({name})\");"));
        for (f, off) in offsets {
            self.asserts.push(format!("static_assert(offsetof({name}, {f}) == {off}, \"offsetof({name}, {f})\");"));
        }
    }

    /// The C++ name of `t`, declaring what it needs.
    fn name(&mut self, ctx: &melior::Context, t: &Ty) -> Result<String, CTypeError> {
        if let Some(s) = scalar(t) {
            match t {
                Ty::Float(FloatKind::F16) => self.half = true,
                Ty::Float(FloatKind::BF16) => self.bf16 = true,
                Ty::Float(FloatKind::F8E4M3 | FloatKind::F8E5M2) => self.fp8 = true,
                _ => {}
            }
            return Ok(s.to_owned());
        }
        if let Some(problem) = c_abi_problem(t).filter(|_| !matches!(t, Ty::Struct(_))) {
            return Err(CTypeError::Abi(problem));
        }
        let key = t.mlir();
        if let Some((_, n)) = self.named.iter().find(|(k, _)| *k == key) {
            return Ok(n.clone());
        }
        let name = match t {
            Ty::Vector { elem, lanes } => {
                let (_, size, align) = Self::layout(ctx, t)?;
                let e = self.name(ctx, elem)?;
                let lanes_text: Vec<String> = "xyzw".chars().take(*lanes as usize).map(String::from).collect();
                let offsets: Vec<(String, u64)> =
                    lanes_text.iter().enumerate().map(|(i, l)| (l.clone(), i as u64 * elem.size())).collect();
                let name = match (cuda_vector_base(elem), elem.as_ref(), lanes) {
                    (Some(base), _, _) => {
                        let n = format!("{base}{lanes}");
                        self.cuda_vectors.push((n.clone(), e.clone(), align, *lanes));
                        n
                    }
                    (None, Ty::Float(FloatKind::F16), 2) => "__half2".to_owned(),
                    (None, Ty::Float(FloatKind::BF16), 2) => "__nv_bfloat162".to_owned(),
                    _ => {
                        let n = format!("pydev_{elem}x{lanes}");
                        self.defs.push(format!("struct alignas({align}) {n} {{ {e} {}; }};", lanes_text.join(", ")));
                        n
                    }
                };
                self.assert_layout(&name, size, align, &offsets);
                name
            }
            Ty::Array { dtype, ndim, .. } => {
                self.array = true;
                let e = self.name(ctx, dtype)?;
                return Ok(format!("cuda::interoperable_array_descriptor<{e}, {ndim}>"));
            }
            Ty::Struct(_) | Ty::Tuple(_) => {
                let (fields, name, explicit_align): (Vec<(String, Ty)>, String, u64) = match t {
                    Ty::Struct(def) => {
                        let n = if def.name.contains(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                            || def.name.starts_with("aligned_")
                            || def.name.starts_with("atomic_")
                        {
                            format!("pydev_{}", def.name.replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_"))
                        } else {
                            def.name.clone()
                        };
                        (def.fields.clone(), n, def.align)
                    }
                    Ty::Tuple(items) => {
                        let n = format!("__anonymous_tuple_{}", self.tuples);
                        self.tuples += 1;
                        (items.iter().enumerate().map(|(i, t)| (format!("__{i}"), t.clone())).collect(), n, 0)
                    }
                    _ => unreachable!(),
                };
                let (ty, size, align) = Self::layout(ctx, t)?;
                let mut members = String::new();
                let mut offsets = Vec::new();
                for (i, (f, ft)) in fields.iter().enumerate() {
                    let c = self.name(ctx, ft)?;
                    let _ = writeln!(members, "  {c} {f};");
                    let off = pydev_dialect::field_offset(ty, i as u32)
                        .ok_or_else(|| CTypeError::NoOffset { field: f.clone(), ty: t.to_string() })?;
                    offsets.push((f.clone(), off));
                }
                let head = if explicit_align > 0 {
                    format!("struct alignas({align}) {name}")
                } else {
                    format!("struct {name}")
                };
                self.defs.push(format!("{head} {{\n{members}}};"));
                self.assert_layout(&name, size, align, &offsets);
                name
            }
            other => return Err(CTypeError::NoCxxType { ty: other.to_string() }),
        };
        self.named.push((key, name.clone()));
        Ok(name)
    }

    fn prelude(&self) -> Vec<String> {
        // NVRTC has no C library headers: the fixed-width types (LP64, as
        // glibc's) and offsetof from the compiler, whose front end knows
        // `__builtin_offsetof` only from NVRTC 13.4 on (before, it is an
        // unknown function: so with 13.0.88, and on an H200 machine); EDG's `__INTADDR__`
        // keeps the older form a constant expression, as libcu++ does.
        // The C ABI shims (`cabi_adapters`) get this prelude through `cxx_types`.
        let mut out = vec![
            "#if defined(__CUDACC_RTC__)\n#ifndef PYDEV_RTC_STDINT\n#define PYDEV_RTC_STDINT\n\
             typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;\n\
             typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t; typedef unsigned long uint64_t;\n\
             #endif\n#ifndef offsetof\n\
             #if __CUDACC_VER_MAJOR__ > 13 || (__CUDACC_VER_MAJOR__ == 13 && __CUDACC_VER_MINOR__ >= 4)\n\
             #define offsetof(t, m) __builtin_offsetof(t, m)\n#else\n\
             #define offsetof(t, m) ((unsigned long)__INTADDR__(&(((t *)0)->m)))\n#endif\n#endif\n\
             #else\n#include <stddef.h>\n#include <stdint.h>\n#endif"
                .to_owned(),
        ];
        if self.half || self.bf16 || self.fp8 {
            out.push(format!("#if {CUDA}"));
            if self.half {
                out.push("#include <cuda_fp16.h>".into());
            }
            if self.bf16 {
                out.push("#include <cuda_bf16.h>".into());
            }
            if self.fp8 {
                out.push("#include <cuda_fp8.h>".into());
            }
            out.push("#else  // host compilers: stand-ins with the layout (and C ABI) of CUDA's".into());
            if self.half {
                out.push("#ifndef PYDEV_HAVE_HALF\n#define PYDEV_HAVE_HALF\nstruct alignas(2) __half { unsigned short __x; };\nstruct alignas(4) __half2 { __half x, y; };\n#endif".into());
            }
            if self.bf16 {
                out.push("#ifndef PYDEV_HAVE_BF16\n#define PYDEV_HAVE_BF16\nstruct alignas(2) __nv_bfloat16 { unsigned short __x; };\nstruct alignas(4) __nv_bfloat162 { __nv_bfloat16 x, y; };\n#endif".into());
            }
            if self.fp8 {
                out.push("#ifndef PYDEV_HAVE_FP8\n#define PYDEV_HAVE_FP8\nstruct __nv_fp8_e4m3 { unsigned char __x; };\nstruct __nv_fp8_e5m2 { unsigned char __x; };\n#endif".into());
            }
            out.push("#endif".into());
        }
        if !self.cuda_vectors.is_empty() {
            out.push(format!("#if !({CUDA}) && !defined(__VECTOR_TYPES_H__)  // CUDA's vector types (vector_types.h)"));
            for (n, e, align, lanes) in &self.cuda_vectors {
                let l: Vec<String> = "xyzw".chars().take(*lanes as usize).map(String::from).collect();
                // One definition when headers of several files meet.
                out.push(format!("#ifndef PYDEV_HAVE_{n}\n#define PYDEV_HAVE_{n}\nstruct alignas({align}) {n} {{ {e} {}; }};\n#endif", l.join(", ")));
            }
            out.push("#endif".into());
        }
        if self.array {
            out.push(
                "#ifndef PYDEV_INTEROPERABLE_ARRAY_DESCRIPTOR\n#define PYDEV_INTEROPERABLE_ARRAY_DESCRIPTOR\nnamespace cuda {\n\
                 // spec: Arrays. Strides count elements (as cuda::std::layout_stride).\n\
                 template <typename dtype, uint64_t ndim>\nstruct interoperable_array_descriptor {\n  dtype* data;\n  uint64_t shape[ndim];\n  uint64_t strides[ndim];\n};\n\
                 }  // namespace cuda\n#endif"
                    .into(),
            );
        }
        out.push(
            "#ifndef PYDEV_INTEROP\n#if defined(__CUDACC__) || defined(__CUDACC_RTC__)\n#define PYDEV_INTEROP __host__ __device__\n#else\n#define PYDEV_INTEROP\n#endif\n#endif\n\
             #if !(defined(__CUDACC__) || defined(__CUDACC_RTC__)) && !defined(__global__)\n#define __global__\n#endif"
                .into(),
        );
        out
    }
}

/// The header for `names` of Python file `file_name` (`text`): the
/// `@device.struct` classes and interoperable functions and kernels named
/// (all of them, in file order, when `names` is None; functions without
/// annotations are then skipped with a comment saying why).
pub fn cxx_header(file_name: &str, text: &str, names: Option<&[String]>) -> Result<String, CxxHeaderError> {
    let parsed = ruff_python_parser::parse_module(text)
        .map_err(|e| CxxHeaderError::Syntax { file: file_name.to_owned(), message: e.error.to_string() })?;
    let body = &parsed.syntax().body;
    let file = SourceFile::new(file_name, text);
    let m = Module::scan(file.clone(), body);
    if !m.diags.is_empty() {
        return Err(CxxHeaderError::Frontend(
            pydev_frontend_python::Diagnostics(m.diags).to_string().trim_end().to_owned(),
        ));
    }
    // The pipeline context: the full one would link every upstream dialect
    // into the wheel (docs/ARCHITECTURE.md, "The JIT and the wheel register
    // only what the pipelines use").
    let ctx = pydev_dialect::new_pipeline_context();
    let mut d = Decls::default();
    let mut protos = Vec::new();
    let wanted = |n: &str| names.is_none_or(|ns| ns.iter().any(|x| x == n));
    let mut found: Vec<String> = Vec::new();
    for stmt in body {
        match stmt {
            Stmt::ClassDef(c) if m.structs.contains_key(c.name.id.as_str()) && wanted(c.name.id.as_str()) => {
                found.push(c.name.id.to_string());
                let t = Ty::Struct(m.structs[c.name.id.as_str()].def.clone());
                d.name(&ctx, &t).map_err(|source| CxxHeaderError::Struct {
                    at: loc(&file, c.range),
                    name: c.name.id.to_string(),
                    source,
                })?;
            }
            Stmt::FunctionDef(f) if m.funcs.contains_key(f.name.id.as_str()) && wanted(f.name.id.as_str()) => {
                let name = f.name.id.to_string();
                found.push(name.clone());
                let def = &m.funcs[name.as_str()];
                let at = loc(&file, f.range);
                if !def.interop {
                    if names.is_some() {
                        return Err(CxxHeaderError::NotInteroperable { at, name });
                    }
                    continue;
                }
                match prototype(&ctx, &m, &mut d, f, def.kind) {
                    Ok(p) => protos.push(p),
                    Err(e) if names.is_none() => protos.push(format!("// '{name}' ({at}) is not declared: {e}")),
                    Err(source) => return Err(CxxHeaderError::Prototype { at, source }),
                }
            }
            _ => {}
        }
    }
    if let Some(ns) = names {
        if let Some(missing) = ns.iter().find(|n| !found.contains(n)) {
            return Err(CxxHeaderError::Missing { file: file_name.to_owned(), name: missing.clone() });
        }
    }
    let mut out = vec![format!("// Generated by pydev {} from {file_name}: C++ declarations of its @device.struct types and interoperable functions.", env!("CARGO_PKG_VERSION")), "#pragma once".to_owned()];
    out.extend(d.prelude());
    out.extend(d.defs);
    out.extend(d.asserts);
    out.extend(protos);
    Ok(out.join("\n") + "\n")
}

fn loc(file: &SourceFile, range: ruff_text_size::TextRange) -> String {
    let (line, _) = file.line_col(range.start());
    format!("{}:{line}", file.name)
}

fn prototype(
    ctx: &melior::Context,
    m: &Module,
    d: &mut Decls,
    f: &ruff_python_ast::StmtFunctionDef,
    kind: FuncKind,
) -> Result<String, PrototypeError> {
    let name = f.name.id.as_str();
    let mut params = Vec::new();
    for p in &f.parameters.args {
        let pname = p.parameter.name.id.as_str();
        let ann = p
            .parameter
            .annotation
            .as_deref()
            .ok_or_else(|| PrototypeError::NoAnnotation { param: pname.to_owned(), function: name.to_owned() })?;
        let t = declared_type(m, ann)
            .ok_or_else(|| PrototypeError::ParamNotAType { param: pname.to_owned(), function: name.to_owned() })?;
        let c = d.name(ctx, &t).map_err(|source| PrototypeError::Param {
            param: pname.to_owned(),
            function: name.to_owned(),
            source,
        })?;
        params.push(format!("{c} {pname}"));
    }
    if kind == FuncKind::Kernel {
        return Ok(format!("extern \"C\" __global__ void {name}({});", params.join(", ")));
    }
    let result = match f.returns.as_deref() {
        None => return Err(PrototypeError::NoReturn { function: name.to_owned() }),
        Some(Expr::NoneLiteral(_)) => "void".to_owned(),
        Some(ann) => {
            let t =
                declared_type(m, ann).ok_or_else(|| PrototypeError::ReturnNotAType { function: name.to_owned() })?;
            d.name(ctx, &t).map_err(|source| PrototypeError::Result { function: name.to_owned(), source })?
        }
    };
    Ok(format!("extern \"C\" PYDEV_INTEROP {result} {name}({});", params.join(", ")))
}

/// The C++ names of pydev IR types `types` (`Ty::mlir` text: `f32`,
/// `!pydev.vector<3 x f32>`, `!pydev.struct<"vec3", {x: f32, ...}>`,
/// `!pydev.tuple<...>`, `!pydev.array<f64, 2>`) and the declarations they
/// need (prelude, definitions, `static_assert`s), named as the header names
/// them: the C ABI shims of `cabi_adapters` use this, so a shim and a header
/// name every type alike.
pub fn cxx_types(types: &[String]) -> Result<(String, Vec<String>), CxxHeaderError> {
    let ctx = pydev_dialect::new_pipeline_context();
    let mut d = Decls::default();
    let mut names = Vec::new();
    for text in types {
        let t = parse_ty(text).ok_or_else(|| CxxHeaderError::UnreadableType { text: text.clone() })?;
        names.push(d.name(&ctx, &t).map_err(|source| CxxHeaderError::Type { ty: t.to_string(), source })?);
    }
    let mut out = d.prelude();
    out.extend(d.defs);
    out.extend(d.asserts);
    Ok((out.join("\n") + "\n", names))
}

/// A type of `Ty::mlir`'s text (the value types that cross the C ABI).
pub(crate) fn parse_ty(text: &str) -> Option<Ty> {
    let mut p = TyParser { s: text.trim(), memo: std::collections::HashMap::new() };
    let t = p.ty()?;
    p.s.trim().is_empty().then_some(t)
}

struct TyParser<'s> {
    s: &'s str,
    /// One `StructDef` per struct type text.
    memo: std::collections::HashMap<String, std::rc::Rc<pydev_frontend_python::types::StructDef>>,
}

impl TyParser<'_> {
    fn eat(&mut self, prefix: &str) -> bool {
        let t = self.s.trim_start();
        match t.strip_prefix(prefix) {
            Some(rest) => {
                self.s = rest;
                true
            }
            None => false,
        }
    }

    fn word(&mut self) -> &str {
        let t = self.s.trim_start();
        let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(t.len());
        let (w, rest) = t.split_at(end);
        self.s = rest;
        w
    }

    fn number(&mut self) -> Option<u64> {
        self.word().parse().ok()
    }

    fn ty(&mut self) -> Option<Ty> {
        use pydev_frontend_python::types::{ArrayLayout, Space, StructDef};
        if self.eat("!pydev.vector<") {
            let lanes = self.number()? as u32;
            self.eat("x").then_some(())?;
            let elem = self.ty()?;
            self.eat(">").then_some(())?;
            return Some(Ty::Vector { elem: Box::new(elem), lanes });
        }
        if self.eat("!pydev.tuple<") {
            let mut items = Vec::new();
            while !self.eat(">") {
                items.push(self.ty()?);
                self.eat(",");
            }
            return Some(Ty::Tuple(items));
        }
        if self.eat("!pydev.array<") {
            let dtype = self.ty()?;
            self.eat(",").then_some(())?;
            let ndim = self.number()? as u32;
            let (mut layout, mut readonly) = (ArrayLayout::Strided, false);
            while self.eat(",") {
                match self.word() {
                    "c" => layout = ArrayLayout::C,
                    "f" => layout = ArrayLayout::F,
                    "readonly" => readonly = true,
                    _ => return None,
                }
            }
            self.eat(">").then_some(())?;
            return Some(Ty::Array { dtype: Box::new(dtype), ndim, layout, readonly, space: Space::Global });
        }
        if self.eat("!pydev.struct<") {
            let start = self.s;
            self.eat("\"").then_some(())?;
            let name = self.word().to_owned();
            self.eat("\"").then_some(())?;
            self.eat(",").then_some(())?;
            self.eat("{").then_some(())?;
            let mut fields = Vec::new();
            while !self.eat("}") {
                let f = self.word().to_owned();
                self.eat(":").then_some(())?;
                fields.push((f, self.ty()?));
                self.eat(",");
            }
            let align = if self.eat(",") {
                (self.word() == "align").then_some(())?;
                self.number()?
            } else {
                0
            };
            self.eat(">").then_some(())?;
            let key = start[..start.len() - self.s.len()].to_owned();
            let def =
                self.memo.entry(key).or_insert_with(|| std::rc::Rc::new(StructDef { name, fields, align })).clone();
            return Some(Ty::Struct(def));
        }
        Some(match self.word() {
            "i1" => Ty::Bool,
            "f16" => Ty::Float(FloatKind::F16),
            "bf16" => Ty::Float(FloatKind::BF16),
            "f32" => Ty::Float(FloatKind::F32),
            "f64" => Ty::Float(FloatKind::F64),
            "f8E4M3FN" => Ty::Float(FloatKind::F8E4M3),
            "f8E5M2" => Ty::Float(FloatKind::F8E5M2),
            w => {
                let (signed, bits) =
                    w.strip_prefix("si").map(|b| (true, b)).or_else(|| w.strip_prefix("ui").map(|b| (false, b)))?;
                Ty::Int { bits: bits.parse().ok()?, signed }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{cxx_types, parse_ty};

    #[test]
    fn type_text_round_trips() {
        for t in [
            "f32",
            "i1",
            "si8",
            "ui64",
            "bf16",
            "f8E4M3FN",
            "!pydev.vector<3 x f32>",
            "!pydev.tuple<si32, !pydev.vector<2 x f16>>",
            "!pydev.struct<\"cplx16\", {re: f32, im: f32}, align 16>",
            "!pydev.struct<\"outer\", {a: !pydev.struct<\"vec3\", {x: f32, y: f32, z: f32}>, b: si8}>",
            "!pydev.array<f64, 2>",
        ] {
            assert_eq!(parse_ty(t).map(|t| t.mlir()).as_deref(), Some(t));
        }
        assert!(parse_ty("!pydev.vector<3 x f32").is_none());
    }

    #[test]
    fn names_are_the_headers() {
        let (text, names) = cxx_types(&[
            "!pydev.vector<3 x f32>".into(),
            "!pydev.struct<\"cplx16\", {re: f32, im: f32}, align 16>".into(),
            "!pydev.array<f64, 2>".into(),
        ])
        .unwrap();
        assert_eq!(names, ["float3", "cplx16", "cuda::interoperable_array_descriptor<double, 2>"]);
        assert!(
            text.contains("struct alignas(16) cplx16 {") && text.contains("static_assert(offsetof(cplx16, im) == 4"),
            "{text}"
        );
    }
}
