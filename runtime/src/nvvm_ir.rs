//! NVVM IR for libNVVM: the cuda pipeline's LLVM 22 module written as
//! NVVM IR 2.0 text, which is LLVM 7.0.1's syntax (typed pointers).
//! libNVVM compiles it to LTO-IR (`pydev.compile(..., stage="ltoir")`),
//! which nvJitLink optimises together with NVRTC's LTO-IR of `link=` files.
//!
//! Expects: the `llvm` stage of the cuda pipeline (a gpu.module of LLVM
//! dialect ops) translated by MLIR to an LLVM module: unoptimised, with
//! libdevice's `__nv_*` functions declared, not linked (libNVVM links its
//! own libdevice).
//! Guarantees: text in LLVM 7 syntax whose functions have the prototypes
//! LLVM 22 gives them in PTX (`.param` sizes and alignments), or an error
//! naming the construct that has no NVVM IR 2.0 form here (bfloat16
//! vector arithmetic and intrinsics, atomic instructions: pydev's
//! pipeline emits atomics as inline PTX). Metadata (debug locations) is
//! dropped.
//!
//! Rewrites (LLVM 22 => LLVM 7):
//!   every `ptr addrspace(N)` value     => `i8 addrspace(N)*`
//!   load T, ptr %p                     => %t = bitcast i8* %p to T*; load T, T* %t
//!   store T %v, ptr %p                 => %t = bitcast i8* %p to T*; store T %v, T* %t
//!   getelementptr S, ptr %p, I...      => bitcast to S*; getelementptr S, S* .., I...; bitcast to i8*
//!   alloca T                           => alloca T; bitcast to i8*
//!   @g as a value                      => bitcast (T addrspace(N)* @g to i8 addrspace(N)*)
//!   fneg T %x                          => fsub T -0.0, %x
//!   poison                             => undef
//!   define ptx_kernel @k               => define @k; !nvvm.annotations {@k, !"kernel", i32 1};
//!                                         @k in @llvm.used (else libNVVM's LTO-IR loses the kernel)
//!   "nvvm.maxntid"="x,y,z" (reqntid)   => annotations maxntidx/y/z (reqntidx/y/z); minctasm, maxnreg,
//!                                         maxclusterrank (cluster_max_blocks) likewise
//!   param T %p alignstack(A)           => param T* byval align A (loaded at entry; a call passes a copy)
//!   barrier.cta.sync.aligned.all(0)    => barrier0();  (%n) => barrier.n(%n)
//!   barrier.cta.sync.aligned.count     => barrier;  barrier.cta.sync.all => barrier.sync;  .count => barrier.sync.cnt
//!   barrier.cta.red.OP.aligned.all(0, %p) => barrier0.OP(zext %p) (OP popc, and, or; and/or compared with 0)
//!   llvm.smin/smax/umin/umax(a, b)     => icmp + select;  llvm.abs(x) => sub + icmp + select
//!   overloads mangled .pN              => .pNi8
//!   bfloat                             => i16 (its bits); its arithmetic and conversions in float
//!                                         and integer code (`Writer::bf16` lists them)
//!   flags newer than LLVM 7 (gep nuw, nneg, disjoint, samesign, trunc nuw), attributes, metadata => dropped

use crate::capi::llvm_read::{LlvmModule, B, T, V};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// libNVVM's data layout for nvptx64 (NVVM IR specification, "Data Layout").
const DATA_LAYOUT: &str = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64";
const PTX_KERNEL_CC: u32 = 71;

/// Errors of writing a gpu.module's NVVM IR (the `nvvm-ir` stage).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NvvmIrError {
    #[error("'{chip}' is not an sm_XX chip")]
    Chip { chip: String },
    #[error("cannot translate the gpu.module to LLVM IR")]
    Translate,
    /// LLVM IR that NVVM IR 2.0 cannot express (a type, an instruction, a
    /// linkage, an interoperable function's ABI): the sentence names it.
    #[error("{0}")]
    Unsupported(String),
    /// An error inside function `name`.
    #[error("function '{name}': {source}")]
    Function { name: String, source: Box<NvvmIrError> },
}

impl From<String> for NvvmIrError {
    fn from(message: String) -> Self {
        NvvmIrError::Unsupported(message)
    }
}

impl From<&str> for NvvmIrError {
    fn from(message: &str) -> Self {
        NvvmIrError::Unsupported(message.to_owned())
    }
}

type R<X> = Result<X, NvvmIrError>;

/// The NVVM IR 2.0 text of `module`, compiled for `sm` (90 for sm_90: it
/// picks the PTX instructions that round bfloat16).
pub fn write(module: &LlvmModule, sm: u32) -> R<String> {
    let mut w = Writer {
        alignstack: module.attribute_kind("alignstack"),
        types: BTreeMap::new(),
        decls: BTreeMap::new(),
        annotations: Vec::new(),
        kernels: Vec::new(),
        sm,
    };
    let mut globals = String::new();
    for g in module.globals() {
        globals += &w.global(g)?;
    }
    for f in module.functions() {
        w.check_c_signature(f)?;
    }
    let mut defs = String::new();
    for f in module.functions() {
        if !f.is_declaration() {
            defs += &w.function(f)?;
        }
    }
    let mut out = format!("target datalayout = \"{DATA_LAYOUT}\"\ntarget triple = \"nvptx64-nvidia-cuda\"\n\n");
    for (name, body) in &w.types {
        writeln!(out, "{name} = type {body}").unwrap();
    }
    out += &globals;
    if !w.kernels.is_empty() {
        let used: Vec<String> =
            w.kernels.iter().map(|(sym, fty)| format!("i8* bitcast ({} {sym} to i8*)", ptr_to(fty, 0))).collect();
        writeln!(
            out,
            "@llvm.used = appending global [{} x i8*] [{}], section \"llvm.metadata\"",
            used.len(),
            used.join(", ")
        )
        .unwrap();
    }
    out += &defs;
    for d in w.decls.values() {
        out += d;
    }
    let n = w.annotations.len();
    if n > 0 {
        out +=
            &format!("\n!nvvm.annotations = !{{{}}}\n", (0..n).map(|k| format!("!{k}")).collect::<Vec<_>>().join(", "));
        for (k, a) in w.annotations.iter().enumerate() {
            writeln!(out, "!{k} = !{{{a}}}").unwrap();
        }
    }
    writeln!(out, "!nvvmir.version = !{{!{n}}}\n!{n} = !{{i32 2, i32 0}}").unwrap();
    Ok(out)
}

struct Writer {
    sm: u32,
    alignstack: u32,
    /// Named struct types: name => body.
    types: BTreeMap<String, String>,
    /// Declarations of called functions (intrinsics as renamed): name => line.
    decls: BTreeMap<String, String>,
    annotations: Vec<String>,
    /// Kernels: (symbol, function type).
    kernels: Vec<(String, String)>,
}

/// Per-function state: the names of values and blocks, the code that goes
/// at the top of the entry block (byval loads, call-argument copies).
struct Func<'m> {
    names: HashMap<V<'m>, String>,
    blocks: HashMap<B<'m>, String>,
    tmp: usize,
    entry: String,
    body: String,
}

impl Func<'_> {
    fn temp(&mut self) -> String {
        self.tmp += 1;
        format!("%t{}", self.tmp)
    }
}

fn ptr_to(pointee: &str, space: u32) -> String {
    if space == 0 {
        format!("{pointee}*")
    } else {
        format!("{pointee} addrspace({space})*")
    }
}

/// `@name` or `@"name"` (LLVM's identifier rule, escapes as LLVM writes them).
fn global_name(name: &str) -> String {
    let plain = !name.is_empty()
        && !name.as_bytes()[0].is_ascii_digit()
        && name.bytes().all(|c| c.is_ascii_alphanumeric() || b"-$._".contains(&c));
    if plain {
        format!("@{name}")
    } else {
        format!("@\"{}\"", escape(name.as_bytes()))
    }
}

/// LLVM's escaping of string constants, asm strings and quoted names.
fn escape(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &c in bytes {
        if (0x20..0x7f).contains(&c) && c != b'"' && c != b'\\' {
            s.push(c as char);
        } else {
            write!(s, "\\{c:02X}").unwrap();
        }
    }
    s
}

/// The text after LLVM's leading type ("float 1.0e+00" => "1.0e+00").
fn strip_type(printed: &str) -> String {
    printed.split_once(' ').map(|(_, v)| v.trim().to_owned()).unwrap_or_else(|| printed.to_owned())
}

fn fast_math(bits: u32) -> String {
    if bits & 127 == 127 {
        return "fast ".into();
    }
    let names = [(2, "nnan"), (4, "ninf"), (8, "nsz"), (16, "arcp"), (32, "contract"), (64, "afn"), (1, "reassoc")];
    names.iter().filter(|(b, _)| bits & b != 0).map(|(_, n)| format!("{n} ")).collect()
}

fn cast_name(opcode: u32) -> Option<&'static str> {
    Some(match opcode {
        30 => "trunc",
        31 => "zext",
        32 => "sext",
        33 => "fptoui",
        34 => "fptosi",
        35 => "uitofp",
        36 => "sitofp",
        37 => "fptrunc",
        38 => "fpext",
        39 => "ptrtoint",
        40 => "inttoptr",
        41 => "bitcast",
        60 => "addrspacecast",
        _ => return None,
    })
}

fn binary_name(opcode: u32) -> Option<&'static str> {
    Some(match opcode {
        8 => "add",
        9 => "fadd",
        10 => "sub",
        11 => "fsub",
        12 => "mul",
        13 => "fmul",
        14 => "udiv",
        15 => "sdiv",
        16 => "fdiv",
        17 => "urem",
        18 => "srem",
        19 => "frem",
        20 => "shl",
        21 => "lshr",
        22 => "ashr",
        23 => "and",
        24 => "or",
        25 => "xor",
        _ => return None,
    })
}

/// Names of LLVM's other instructions, for errors.
fn opcode_name(opcode: u32) -> String {
    match opcode {
        4 => "indirectbr".into(),
        5 => "invoke".into(),
        49 => "va_arg".into(),
        55 => "fence".into(),
        56 => "cmpxchg".into(),
        57 => "atomicrmw".into(),
        67 => "callbr".into(),
        68 => "freeze".into(),
        69 => "ptrtoaddr".into(),
        o => format!("opcode {o}"),
    }
}

const ICMP: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
const FCMP: [&str; 16] =
    ["false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une", "true"];

impl Writer {
    fn ty(&mut self, t: T) -> R<String> {
        Ok(match t.kind() {
            0 => "void".into(),
            1 => "half".into(),
            2 => "float".into(),
            3 => "double".into(),
            5 => "fp128".into(),
            7 => "label".into(),
            8 => format!("i{}", t.int_width()),
            9 => {
                let params = t.param_types().into_iter().map(|p| self.ty(p)).collect::<R<Vec<_>>>()?;
                let dots = if t.is_var_arg() {
                    if params.is_empty() {
                        "..."
                    } else {
                        ", ..."
                    }
                } else {
                    ""
                };
                format!("{} ({}{dots})", self.ty(t.return_type())?, params.join(", "))
            }
            10 => {
                let fields = t.fields().into_iter().map(|f| self.ty(f)).collect::<R<Vec<_>>>()?;
                let body = if fields.is_empty() {
                    "{}".to_owned()
                } else if t.is_packed() {
                    format!("<{{ {} }}>", fields.join(", "))
                } else {
                    format!("{{ {} }}", fields.join(", "))
                };
                match t.struct_name() {
                    Some(name) => {
                        let name = format!("%{}", &global_name(&name)[1..]);
                        self.types.insert(name.clone(), body);
                        name
                    }
                    None => body,
                }
            }
            11 => format!("[{} x {}]", t.array_len(), self.ty(t.element())?),
            12 => ptr_to("i8", t.address_space()),
            13 => format!("<{} x {}>", t.vector_len(), self.ty(t.element())?),
            // bfloat16 values are their bits; their arithmetic is written out (`Writer::bf16`).
            18 => "i16".into(),
            _ => return Err(NvvmIrError::Unsupported(format!("type '{}' has no NVVM IR 2.0 form", t.print()))),
        })
    }

    /// The type that indexing `source` by the GEP indices after the first gives.
    fn indexed<'m>(&mut self, source: T<'m>, indices: &[V<'m>]) -> R<T<'m>> {
        let mut t = source;
        for i in indices {
            t = match t.kind() {
                11 | 13 => t.element(),
                10 => {
                    if !i.is_const_int() {
                        return Err("getelementptr into a struct by a non-constant index".into());
                    }
                    t.fields().get(i.int_sext() as usize).copied().ok_or("getelementptr: struct index out of range")?
                }
                _ => return Err(NvvmIrError::Unsupported(format!("getelementptr into '{}'", t.print()))),
            };
        }
        Ok(t)
    }

    /// A constant (or a global as a value) in LLVM 7 syntax.
    fn constant(&mut self, v: V) -> R<String> {
        let t = v.ty();
        if v.is_const_int() {
            let w = t.int_width();
            return Ok(if w == 1 {
                (if v.int_sext() != 0 { "true" } else { "false" }).into()
            } else if w <= 64 {
                v.int_sext().to_string()
            } else {
                strip_type(&v.print())
            });
        }
        if v.is_const_fp() {
            let text = strip_type(&v.print());
            if t.kind() == 18 {
                // "0xR3F80": the bits as an i16.
                let bits = text
                    .strip_prefix("0xR")
                    .and_then(|h| u16::from_str_radix(h, 16).ok())
                    .ok_or_else(|| format!("bfloat16 constant '{text}'"))?;
                return Ok((bits as i16).to_string());
            }
            return Ok(text);
        }
        if v.is_undef() {
            self.ty(t)?;
            return Ok("undef".into());
        }
        if v.is_global() {
            let space = t.address_space();
            let name = global_name(&v.name());
            let pointee = if v.is_function() {
                self.declare(v)?;
                self.fn_type(v)?
            } else {
                self.ty(v.value_type())?
            };
            return Ok(format!("bitcast ({} {name} to {})", ptr_to(&pointee, space), ptr_to("i8", space)));
        }
        if v.is_aggregate_zero() {
            return Ok("zeroinitializer".into());
        }
        if t.kind() == 12 && v.is_null() {
            return Ok("null".into());
        }
        if v.is_const_string() {
            return Ok(format!("c\"{}\"", escape(&v.string_bytes())));
        }
        if v.is_const_aggregate() {
            let (n, open, close) = match t.kind() {
                11 => (t.array_len() as u32, "[", "]"),
                13 => (t.vector_len(), "<", ">"),
                _ if t.is_packed() => (t.fields().len() as u32, "<{ ", " }>"),
                _ => (t.fields().len() as u32, "{ ", " }"),
            };
            let mut parts = Vec::new();
            for k in 0..n {
                let e = v.element(k).ok_or("a constant aggregate without its elements")?;
                parts.push(format!("{} {}", self.ty(e.ty())?, self.constant(e)?));
            }
            return Ok(format!("{open}{}{close}", parts.join(", ")));
        }
        if v.is_const_expr() {
            let ops = v.operands();
            let op = v.const_opcode();
            if op == 29 {
                let source = v.gep_source_type();
                let result = self.indexed(source, &ops[2.min(ops.len())..])?;
                let space = ops[0].ty().address_space();
                let src = self.ty(source)?;
                let res = self.ty(result)?;
                let base = self.constant(ops[0])?;
                let mut idx = Vec::new();
                for i in &ops[1..] {
                    idx.push(format!("{} {}", self.ty(i.ty())?, self.constant(*i)?));
                }
                let inb = if v.in_bounds() { "inbounds " } else { "" };
                return Ok(format!(
                    "bitcast ({} getelementptr {inb}({src}, {} bitcast ({} {base} to {}), {}) to {})",
                    ptr_to(&res, space),
                    ptr_to(&src, space),
                    ptr_to("i8", space),
                    ptr_to(&src, space),
                    idx.join(", "),
                    ptr_to("i8", space)
                ));
            }
            if let Some(name) = cast_name(op) {
                return Ok(format!("{name} ({} {} to {})", self.ty(ops[0].ty())?, self.constant(ops[0])?, self.ty(t)?));
            }
            return Err(NvvmIrError::Unsupported(format!(
                "constant expression '{}' has no NVVM IR 2.0 form here",
                v.print()
            )));
        }
        Err(NvvmIrError::Unsupported(format!("value '{}' has no NVVM IR 2.0 form here", v.print())))
    }

    fn val<'m>(&mut self, f: &Func<'m>, v: V<'m>) -> R<String> {
        if let Some(n) = f.names.get(&v) {
            return Ok(n.clone());
        }
        if v.is_basic_block() {
            return f
                .blocks
                .get(&v.as_block())
                .map(|b| format!("%{b}"))
                .ok_or_else(|| "a block of another function".into());
        }
        if v.is_instruction() || v.is_argument() {
            return Err("a value of another function".into());
        }
        self.constant(v)
    }

    fn tv<'m>(&mut self, f: &Func<'m>, v: V<'m>) -> R<String> {
        Ok(format!("{} {}", self.ty(v.ty())?, self.val(f, v)?))
    }

    /// The alignment of parameter `k` (0-based) of function `f` that
    /// CUDA gives beyond LLVM's (`alignstack`): passed `byval`.
    fn byval(&self, f: V, k: usize) -> Option<u64> {
        f.enum_attribute(k as u32 + 1, self.alignstack, false)
    }

    /// The parameters of function `f`: each type, and the alignment of
    /// those passed `byval` (as a pointer to the type).
    fn params_of(&mut self, f: V) -> R<Vec<(String, Option<u64>)>> {
        let mut out = Vec::new();
        for (k, p) in f.value_type().param_types().into_iter().enumerate() {
            out.push((self.ty(p)?, self.byval(f, k)));
        }
        Ok(out)
    }

    /// The parameter list of function `f` as NVVM IR declares it.
    fn param_types(&mut self, f: V) -> R<Vec<String>> {
        Ok(self
            .params_of(f)?
            .into_iter()
            .map(|(t, a)| a.map_or(t.clone(), |a| format!("{t}* byval align {a}")))
            .collect())
    }

    /// `RET (PARAMS)` of function `f` (its type, byval parameters as pointers).
    fn fn_type(&mut self, f: V) -> R<String> {
        let ret = self.ty(f.value_type().return_type())?;
        let params: Vec<String> =
            self.params_of(f)?.into_iter().map(|(t, a)| if a.is_some() { format!("{t}*") } else { t }).collect();
        Ok(format!("{ret} ({})", params.join(", ")))
    }

    /// bfloat16 crosses the C ABI as nvcc's `__nv_bfloat16` (a struct:
    /// `.param .align 2 .b8 [2]`), which the i16 standing for it here is
    /// not: a visible function (interop, defined or declared) with one in
    /// its signature is an error rather than a wrong call.
    fn check_c_signature(&self, f: V) -> R<()> {
        fn has_bf16(t: T) -> bool {
            match t.kind() {
                18 => true,
                10 => t.fields().into_iter().any(has_bf16),
                11 | 13 => has_bf16(t.element()),
                _ => false,
            }
        }
        /// Whether `t` holds a struct over-aligned by pydev-lower-aggregates,
        /// whose mark is a zero-length array of `<N x i8>` first.
        fn over_aligned(t: T) -> bool {
            match t.kind() {
                10 => t
                    .fields()
                    .into_iter()
                    .enumerate()
                    .any(|(k, m)| (k == 0 && m.kind() == 11 && m.array_len() == 0) || over_aligned(m)),
                11 => over_aligned(t.element()),
                _ => false,
            }
        }
        let fty = f.value_type();
        let visible = matches!(f.linkage(), 0 | 5 | 12) && f.call_conv() != PTX_KERNEL_CC;
        if visible && (has_bf16(fty.return_type()) || fty.param_types().into_iter().any(has_bf16)) {
            return Err(NvvmIrError::Unsupported(format!("interoperable function '{}' takes or returns bfloat16, whose C ABI (a struct) NVVM IR here does not give it", f.name())));
        }
        // NVRTC's LTO-IR calls an interop function with its own IR types,
        // which are not these: nvJitLink then calls through a prototype that
        // aligns each aggregate as its members, so a value aligned beyond
        // them (align=, a device.align field) lands in other registers than
        // the definition reads (seen on an H200: wrong results, no error).
        // Such a definition goes as PTX, whose `.param` alignment both
        // sides keep.
        if visible && !f.is_declaration() {
            let aligned = (0..fty.param_types().len()).find(|&k| self.byval(f, k).is_some());
            if let Some(k) = aligned {
                return Err(NvvmIrError::Unsupported(format!("interoperable function '{}' takes parameter {k} aligned beyond its members, which CUDA C++ linked by link-time optimisation would pass misaligned", f.name())));
            }
            if over_aligned(fty.return_type()) {
                return Err(NvvmIrError::Unsupported(format!("interoperable function '{}' returns a value aligned beyond its members, which CUDA C++ linked by link-time optimisation would receive misaligned", f.name())));
            }
        }
        Ok(())
    }

    fn declare(&mut self, f: V) -> R<()> {
        if !f.is_declaration() {
            return Ok(());
        }
        let name = f.name();
        if f.value_type().is_var_arg() {
            return Err(NvvmIrError::Unsupported(format!("function '{name}' takes variable arguments")));
        }
        let line = format!(
            "declare {} {}({})\n",
            self.ty(f.value_type().return_type())?,
            global_name(&name),
            self.param_types(f)?.join(", ")
        );
        self.decls.insert(name, line);
        Ok(())
    }

    fn global(&mut self, g: V) -> R<String> {
        let name = g.name();
        let t = self.ty(g.value_type())?;
        let space = g.ty().address_space();
        let linkage = linkage(g.linkage(), &name)?;
        let (linkage, init) = match g.initializer() {
            Some(i) => (linkage, format!(" {}", self.constant(i)?)),
            None => ("external ", String::new()),
        };
        let space = if space == 0 { String::new() } else { format!("addrspace({space}) ") };
        let kind = if g.is_constant_global() { "constant" } else { "global" };
        let align = if g.alignment() > 0 { format!(", align {}", g.alignment()) } else { String::new() };
        Ok(format!("{} = {linkage}{space}{kind} {t}{init}{align}\n", global_name(&name)))
    }

    fn function(&mut self, fun: V) -> R<String> {
        let name = fun.name();
        self.function_body(fun).map_err(|e| NvvmIrError::Function { name: name.to_string(), source: Box::new(e) })
    }

    fn function_body<'m>(&mut self, fun: V<'m>) -> R<String> {
        let name = fun.name();
        let mut f =
            Func { names: HashMap::new(), blocks: HashMap::new(), tmp: 0, entry: String::new(), body: String::new() };
        let mut params = Vec::new();
        for (k, p) in fun.params().into_iter().enumerate() {
            let t = self.ty(p.ty())?;
            let n = format!("%a{k}");
            match self.byval(fun, k) {
                Some(a) => {
                    params.push(format!("{t}* byval align {a} {n}.p"));
                    writeln!(f.entry, "  {n} = load {t}, {t}* {n}.p, align {a}").unwrap();
                }
                None => params.push(format!("{t} {n}")),
            }
            f.names.insert(p, n);
        }
        let blocks = fun.blocks();
        let mut count = 0;
        for (k, b) in blocks.iter().enumerate() {
            f.blocks.insert(*b, format!("b{k}"));
            for i in b.instructions() {
                if i.ty().kind() != 0 {
                    count += 1;
                    f.names.insert(i, format!("%v{count}"));
                }
            }
        }
        for (k, b) in blocks.iter().enumerate() {
            if k > 0 {
                writeln!(f.body, "b{k}:").unwrap();
            }
            for i in b.instructions() {
                self.instruction(&mut f, i)?;
            }
        }
        let kernel = fun.call_conv() == PTX_KERNEL_CC;
        let fty = self.fn_type(fun)?;
        if kernel {
            let sym = global_name(&name);
            self.annotations.push(format!("{} {sym}, !\"kernel\", i32 1", ptr_to(&fty, 0)));
            self.kernels.push((sym.clone(), fty.clone()));
            for (attr, key) in [("nvvm.maxntid", "maxntid"), ("nvvm.reqntid", "reqntid")] {
                if let Some(dims) = fun.string_attribute(attr) {
                    for (d, n) in ["x", "y", "z"].iter().zip(dims.split(',')) {
                        self.annotations.push(format!("{} {sym}, !\"{key}{d}\", i32 {}", ptr_to(&fty, 0), n.trim()));
                    }
                }
            }
            for (attr, key) in [
                ("nvvm.minctasm", "minctasm"),
                ("nvvm.maxnreg", "maxnreg"),
                ("nvvm.maxclusterrank", "cluster_max_blocks"),
            ] {
                if let Some(n) = fun.string_attribute(attr) {
                    self.annotations.push(format!("{} {sym}, !\"{key}\", i32 {}", ptr_to(&fty, 0), n.trim()));
                }
            }
        }
        let ret = self.ty(fun.value_type().return_type())?;
        Ok(format!(
            "\ndefine {}{ret} {}({}) {{\nb0:\n{}{}}}\n",
            linkage(fun.linkage(), &name)?,
            global_name(&name),
            params.join(", "),
            f.entry,
            f.body
        ))
    }

    fn instruction<'m>(&mut self, f: &mut Func<'m>, i: V<'m>) -> R<()> {
        let op = i.opcode();
        let ops = i.operands();
        let res = f.names.get(&i).cloned().unwrap_or_default();
        let lhs = if res.is_empty() { String::new() } else { format!("{res} = ") };
        if self.bf16(f, i, op, &ops, &lhs)? {
            return Ok(());
        }
        let line: String = match op {
            1 => match ops.first() {
                Some(v) => format!("ret {}", self.tv(f, *v)?),
                None => "ret void".into(),
            },
            2 => {
                let s = i.successors();
                if i.is_conditional() {
                    format!("br {}, label %{}, label %{}", self.tv(f, i.condition())?, f.blocks[&s[0]], f.blocks[&s[1]])
                } else {
                    format!("br label %{}", f.blocks[&s[0]])
                }
            }
            3 => {
                let mut cases = String::new();
                for pair in ops[2..].chunks(2) {
                    write!(cases, " {}, {}", self.tv(f, pair[0])?, self.tv(f, pair[1])?).unwrap();
                }
                format!("switch {}, {} [{cases} ]", self.tv(f, ops[0])?, self.tv(f, ops[1])?)
            }
            7 => "unreachable".into(),
            66 => {
                let t = i.ty();
                let zero = neg_zero(self, t)?;
                format!("{lhs}fsub {}{} {zero}, {}", fast_math(i.fast_math()), self.ty(t)?, self.val(f, ops[0])?)
            }
            8..=25 => {
                let name = binary_name(op).unwrap();
                let mut flags = String::new();
                if matches!(op, 8 | 10 | 12 | 20) {
                    flags += if i.nuw() { "nuw " } else { "" };
                    flags += if i.nsw() { "nsw " } else { "" };
                } else if matches!(op, 14 | 15 | 21 | 22) && i.exact() {
                    flags += "exact ";
                } else if matches!(op, 9 | 11 | 13 | 16 | 19) {
                    flags += &fast_math(i.fast_math());
                }
                format!("{lhs}{name} {flags}{}, {}", self.tv(f, ops[0])?, self.val(f, ops[1])?)
            }
            26 => {
                let t = self.ty(i.allocated_type())?;
                let space = i.ty().address_space();
                let tmp = f.temp();
                let count = if ops[0].is_const_int() && ops[0].int_sext() == 1 {
                    String::new()
                } else {
                    format!(", {}", self.tv(f, ops[0])?)
                };
                let aspace = if space == 0 { String::new() } else { format!(", addrspace({space})") };
                writeln!(f.body, "  {tmp} = alloca {t}{count}, align {}{aspace}", i.alignment().max(1)).unwrap();
                format!("{lhs}bitcast {} {tmp} to {}", ptr_to(&t, space), ptr_to("i8", space))
            }
            27 | 28 => {
                if i.is_atomic() {
                    return Err(NvvmIrError::Unsupported(format!(
                        "atomic {} (pydev emits atomics as inline PTX)",
                        if op == 27 { "load" } else { "store" }
                    )));
                }
                let (value_ty, p) = if op == 27 { (i.ty(), ops[0]) } else { (ops[0].ty(), ops[1]) };
                let t = self.ty(value_ty)?;
                let space = p.ty().address_space();
                let typed = self.typed_pointer(f, p, &t)?;
                let vol = if i.is_volatile() { "volatile " } else { "" };
                let align = if i.alignment() > 0 { format!(", align {}", i.alignment()) } else { String::new() };
                if op == 27 {
                    format!("{lhs}load {vol}{t}, {} {typed}{align}", ptr_to(&t, space))
                } else {
                    format!("store {vol}{}, {} {typed}{align}", self.tv(f, ops[0])?, ptr_to(&t, space))
                }
            }
            29 => {
                if ops[0].ty().kind() != 12 {
                    return Err("getelementptr over a vector of pointers".into());
                }
                let source = i.gep_source_type();
                let result = self.indexed(source, &ops[2.min(ops.len())..])?;
                let (src, rt) = (self.ty(source)?, self.ty(result)?);
                let space = ops[0].ty().address_space();
                let base = self.typed_pointer(f, ops[0], &src)?;
                let mut idx = Vec::new();
                for x in &ops[1..] {
                    idx.push(self.tv(f, *x)?);
                }
                let tmp = f.temp();
                let inb = if i.in_bounds() { "inbounds " } else { "" };
                writeln!(
                    f.body,
                    "  {tmp} = getelementptr {inb}{src}, {} {base}, {}",
                    ptr_to(&src, space),
                    idx.join(", ")
                )
                .unwrap();
                format!("{lhs}bitcast {} {tmp} to {}", ptr_to(&rt, space), ptr_to("i8", space))
            }
            30..=41 | 60 => format!("{lhs}{} {} to {}", cast_name(op).unwrap(), self.tv(f, ops[0])?, self.ty(i.ty())?),
            42 => format!(
                "{lhs}icmp {} {}, {}",
                ICMP[(i.icmp_predicate() - 32) as usize],
                self.tv(f, ops[0])?,
                self.val(f, ops[1])?
            ),
            43 => format!(
                "{lhs}fcmp {}{} {}, {}",
                fast_math(i.fast_math()),
                FCMP[i.fcmp_predicate() as usize],
                self.tv(f, ops[0])?,
                self.val(f, ops[1])?
            ),
            44 => {
                let mut parts = Vec::new();
                for (v, b) in i.incoming() {
                    parts.push(format!("[ {}, %{} ]", self.val(f, v)?, f.blocks[&b]));
                }
                format!("{lhs}phi {} {}", self.ty(i.ty())?, parts.join(", "))
            }
            45 => return self.call(f, i, &lhs),
            46 => format!("{lhs}select {}, {}, {}", self.tv(f, ops[0])?, self.tv(f, ops[1])?, self.tv(f, ops[2])?),
            50 => format!("{lhs}extractelement {}, {}", self.tv(f, ops[0])?, self.tv(f, ops[1])?),
            51 => {
                format!("{lhs}insertelement {}, {}, {}", self.tv(f, ops[0])?, self.tv(f, ops[1])?, self.tv(f, ops[2])?)
            }
            52 => {
                let mask: Vec<String> =
                    i.mask().into_iter().map(|m| if m < 0 { "i32 undef".into() } else { format!("i32 {m}") }).collect();
                format!(
                    "{lhs}shufflevector {}, {}, <{} x i32> <{}>",
                    self.tv(f, ops[0])?,
                    self.tv(f, ops[1])?,
                    mask.len(),
                    mask.join(", ")
                )
            }
            53 | 54 => {
                let idx: Vec<String> = i.indices().iter().map(|k| k.to_string()).collect();
                if op == 53 {
                    format!("{lhs}extractvalue {}, {}", self.tv(f, ops[0])?, idx.join(", "))
                } else {
                    format!("{lhs}insertvalue {}, {}, {}", self.tv(f, ops[0])?, self.tv(f, ops[1])?, idx.join(", "))
                }
            }
            o => {
                return Err(NvvmIrError::Unsupported(format!(
                    "instruction '{}' has no NVVM IR 2.0 form here",
                    opcode_name(o)
                )))
            }
        };
        writeln!(f.body, "  {line}").unwrap();
        Ok(())
    }

    /// `p` (an `i8 addrspace(N)*`) as a pointer to `pointee`: a bitcast
    /// instruction for a value, a constant expression for a constant.
    fn typed_pointer<'m>(&mut self, f: &mut Func<'m>, p: V<'m>, pointee: &str) -> R<String> {
        let space = p.ty().address_space();
        let val = self.val(f, p)?;
        if p.is_global() && !p.is_function() && self.ty(p.value_type())? == pointee {
            return Ok(global_name(&p.name()));
        }
        if !(p.is_instruction() || p.is_argument()) {
            return Ok(format!("bitcast ({} {val} to {})", ptr_to("i8", space), ptr_to(pointee, space)));
        }
        let tmp = f.temp();
        writeln!(f.body, "  {tmp} = bitcast {} {val} to {}", ptr_to("i8", space), ptr_to(pointee, space)).unwrap();
        Ok(tmp)
    }

    /// bfloat16 arithmetic, conversions and comparisons on the i16 bits
    /// that stand for bfloat16 values (LLVM 7 has no bfloat type); true
    /// when `i` was one:
    ///   fpext bf16 %x to float         => bitcast (shl (zext %x), 16)        (exact)
    ///   fptrunc float %x to bf16       => cvt.rn.bf16.f32 (sm_80 on; before, round to nearest even
    ///                                     on the bits, NaN kept quiet)
    ///   fptrunc double %x to bf16      => double to float rounded to odd, then as float (no double rounding)
    ///   OP bf16 %a, %b (fadd fsub fmul fdiv frem) => fptrunc (OP float (fpext %a), (fpext %b))
    ///                                     (float's 24 bits make the double rounding innocuous)
    ///   fneg bf16 %x                   => xor %x, 0x8000;  fcmp P bf16 => fcmp P float
    ///   fpto[su]i bf16 => from float;    [su]itofp iN to bf16 (N <= 32) => via double (exact)
    fn bf16<'m>(&mut self, f: &mut Func<'m>, i: V<'m>, op: u32, ops: &[V<'m>], lhs: &str) -> R<bool> {
        let is_bf16 = |t: T| t.kind() == 18 || (t.kind() == 13 && t.element().kind() == 18);
        let involved = is_bf16(i.ty()) || ops.iter().any(|o| is_bf16(o.ty()));
        let arith = matches!(op, 9 | 11 | 13 | 16 | 19 | 66 | 43 | 33..=38 | 45);
        if !involved || !arith {
            return Ok(false);
        }
        if op == 45 {
            let callee = i.called_value();
            if callee.is_function() && callee.name().starts_with("llvm.") {
                return Err(NvvmIrError::Unsupported(format!("intrinsic '{}' on bfloat16 values", callee.name())));
            }
            return Ok(false); // a call of a pydev function: bits in, bits out
        }
        if i.ty().kind() == 13 || ops.iter().any(|o| o.ty().kind() == 13) {
            return Err("bfloat16 vector arithmetic".into());
        }
        let fmf = fast_math(i.fast_math());
        let line = match op {
            66 => format!("{lhs}xor i16 {}, -32768", self.val(f, ops[0])?),
            9 | 11 | 13 | 16 | 19 => {
                let a = self.val(f, ops[0])?;
                let b = self.val(f, ops[1])?;
                let (a, b) = (bf16_to_f32(f, &a), bf16_to_f32(f, &b));
                let r = f.temp();
                writeln!(f.body, "  {r} = {} {fmf}float {a}, {b}", binary_name(op).unwrap()).unwrap();
                let h = self.f32_to_bf16(f, &r);
                format!("{lhs}bitcast i16 {h} to i16")
            }
            43 => {
                let a = self.val(f, ops[0])?;
                let b = self.val(f, ops[1])?;
                let (a, b) = (bf16_to_f32(f, &a), bf16_to_f32(f, &b));
                format!("{lhs}fcmp {fmf}{} float {a}, {b}", FCMP[i.fcmp_predicate() as usize])
            }
            38 | 33 | 34 => {
                let x = self.val(f, ops[0])?;
                let x = bf16_to_f32(f, &x);
                let to = self.ty(i.ty())?;
                match (op, to.as_str()) {
                    (38, "float") => format!("{lhs}bitcast float {x} to float"),
                    (38, _) => format!("{lhs}fpext float {x} to {to}"),
                    _ => format!("{lhs}{} float {x} to {to}", cast_name(op).unwrap()),
                }
            }
            37 => {
                let x = self.val(f, ops[0])?;
                let h = match ops[0].ty().kind() {
                    2 => self.f32_to_bf16(f, &x),
                    3 => self.f64_to_bf16(f, &x),
                    _ => {
                        return Err(NvvmIrError::Unsupported(format!(
                            "fptrunc of '{}' to bfloat16",
                            ops[0].ty().print()
                        )))
                    }
                };
                format!("{lhs}bitcast i16 {h} to i16")
            }
            35 | 36 => {
                let from = ops[0].ty();
                if from.kind() != 8 || from.int_width() > 32 {
                    return Err(NvvmIrError::Unsupported(format!("conversion of '{}' to bfloat16", from.print())));
                }
                let d = f.temp();
                writeln!(f.body, "  {d} = {} {} to double", cast_name(op).unwrap(), self.tv(f, ops[0])?).unwrap();
                let h = self.f64_to_bf16(f, &d);
                format!("{lhs}bitcast i16 {h} to i16")
            }
            _ => return Err(NvvmIrError::Unsupported(format!("bfloat16 operand of '{}'", opcode_name(op)))),
        };
        writeln!(f.body, "  {line}").unwrap();
        Ok(true)
    }

    /// The bfloat16 bits (i16) nearest double `x`: `x` rounded to odd as
    /// a float (so that rounding that float again is as rounding `x` once).
    fn f64_to_bf16(&mut self, f: &mut Func, x: &str) -> String {
        self.decls.insert("llvm.fabs.f64".into(), "declare double @llvm.fabs.f64(double)\n".into());
        let [r, e, inexact, ae, ax, away, bits, dec, tb, odd, ob, ro] = std::array::from_fn(|_| f.temp());
        for line in [
            format!("{r} = fptrunc double {x} to float"),
            format!("{e} = fpext float {r} to double"),
            format!("{inexact} = fcmp one double {e}, {x}"),
            format!("{ae} = call double @llvm.fabs.f64(double {e})"),
            format!("{ax} = call double @llvm.fabs.f64(double {x})"),
            format!("{away} = fcmp ogt double {ae}, {ax}"),
            format!("{bits} = bitcast float {r} to i32"),
            format!("{dec} = sub i32 {bits}, 1"),
            format!("{tb} = select i1 {away}, i32 {dec}, i32 {bits}"),
            format!("{odd} = or i32 {tb}, 1"),
            format!("{ob} = select i1 {inexact}, i32 {odd}, i32 {bits}"),
            format!("{ro} = bitcast i32 {ob} to float"),
        ] {
            writeln!(f.body, "  {line}").unwrap();
        }
        self.f32_to_bf16(f, &ro)
    }

    /// The bfloat16 bits (i16) of float `x` rounded to nearest even: PTX's
    /// `cvt.rn.bf16.f32` from sm_80 on, else written in integer code.
    fn f32_to_bf16(&mut self, f: &mut Func, x: &str) -> String {
        if self.sm < 80 {
            return f32_to_bf16_bits(f, x);
        }
        let h = f.temp();
        writeln!(f.body, "  {h} = call i16 asm \"cvt.rn.bf16.f32 $0, $1;\", \"=h,f\"(float {x})").unwrap();
        h
    }

    fn call<'m>(&mut self, f: &mut Func<'m>, i: V<'m>, lhs: &str) -> R<()> {
        let ops = i.operands();
        let args = &ops[..i.arg_count() as usize];
        let callee = i.called_value();
        let fty = i.called_function_type();
        let ret = self.ty(fty.return_type())?;
        let fmf = fast_math(i.fast_math());
        if callee.is_inline_asm() {
            let (asm, constraints, side, align) = callee.inline_asm();
            let mut a = Vec::new();
            for x in args {
                a.push(self.tv(f, *x)?);
            }
            let flags = format!("{}{}", if side { "sideeffect " } else { "" }, if align { "alignstack " } else { "" });
            writeln!(
                f.body,
                "  {lhs}call {ret} asm {flags}\"{}\", \"{}\"({})",
                escape(&asm),
                escape(&constraints),
                a.join(", ")
            )
            .unwrap();
            return Ok(());
        }
        if !callee.is_function() {
            return Err("indirect call".into());
        }
        let name = callee.name();
        if name.starts_with("llvm.") {
            return self.intrinsic(f, &name, fty, args, lhs, &fmf);
        }
        self.declare(callee)?;
        let mut a = Vec::new();
        for (k, x) in args.iter().enumerate() {
            let t = self.ty(x.ty())?;
            match self.byval(callee, k) {
                Some(align) => {
                    let copy = f.temp();
                    writeln!(f.entry, "  {copy} = alloca {t}, align {align}").unwrap();
                    writeln!(f.body, "  store {}, {t}* {copy}, align {align}", self.tv(f, *x)?).unwrap();
                    a.push(format!("{t}* byval align {align} {copy}"));
                }
                None => a.push(self.tv(f, *x)?),
            }
        }
        writeln!(f.body, "  {lhs}call {fmf}{ret} {}({})", global_name(&name), a.join(", ")).unwrap();
        Ok(())
    }

    /// Declares intrinsic `name` (`RET @name(PARAMS)`) and writes a call of
    /// it on `args`, its result named by `lhs` ("" or "%v = ").
    fn emit(&mut self, f: &mut Func, lhs: &str, fmf: &str, ret: &str, name: &str, params: &[String], args: &str) {
        self.decls.insert(name.to_owned(), format!("declare {ret} @{name}({})\n", params.join(", ")));
        writeln!(f.body, "  {lhs}call {fmf}{ret} @{name}({args})").unwrap();
    }

    /// A call of LLVM 22 intrinsic `name`, as LLVM 7 names it (the module
    /// header's table).
    fn intrinsic<'m>(
        &mut self,
        f: &mut Func<'m>,
        name: &str,
        fty: T<'m>,
        args: &[V<'m>],
        lhs: &str,
        fmf: &str,
    ) -> R<()> {
        let ret = self.ty(fty.return_type())?;
        let mut a = Vec::new();
        for x in args {
            a.push(self.tv(f, *x)?);
        }
        let params = fty.param_types().into_iter().map(|p| self.ty(p)).collect::<R<Vec<_>>>()?;
        let zero_id = |v: &V| v.is_const_int() && v.int_sext() == 0;
        match name {
            "llvm.nvvm.barrier.cta.sync.aligned.all" if zero_id(&args[0]) => {
                self.emit(f, lhs, "", "void", "llvm.nvvm.barrier0", &[], "")
            }
            _ if RENAMED.iter().any(|(new, _)| *new == name) => {
                let old = RENAMED.iter().find(|(new, _)| *new == name).map(|(_, old)| *old).unwrap_or_default();
                self.emit(f, lhs, fmf, &ret, old, &params, &a.join(", "));
            }
            "llvm.nvvm.barrier.cta.red.popc.aligned.all"
            | "llvm.nvvm.barrier.cta.red.and.aligned.all"
            | "llvm.nvvm.barrier.cta.red.or.aligned.all" => {
                if !zero_id(&args[0]) {
                    return Err(NvvmIrError::Unsupported(format!("'{name}' on a barrier other than 0")));
                }
                let old = format!("llvm.nvvm.barrier0.{}", name.split('.').nth(5).unwrap_or_default());
                let p = f.temp();
                writeln!(f.body, "  {p} = zext {} to i32", a[1]).unwrap();
                let i32s = ["i32".to_owned()];
                if ret == "i32" {
                    self.emit(f, lhs, "", "i32", &old, &i32s, &format!("i32 {p}"));
                } else {
                    let r = f.temp();
                    self.emit(f, &format!("{r} = "), "", "i32", &old, &i32s, &format!("i32 {p}"));
                    writeln!(f.body, "  {lhs}icmp ne i32 {r}, 0").unwrap();
                }
            }
            _ if ["llvm.smin.", "llvm.smax.", "llvm.umin.", "llvm.umax."].iter().any(|p| name.starts_with(p)) => {
                let pred = match &name[5..9] {
                    "smin" => "slt",
                    "smax" => "sgt",
                    "umin" => "ult",
                    _ => "ugt",
                };
                let c = f.temp();
                writeln!(f.body, "  {c} = icmp {pred} {}, {}", a[0], self.val(f, args[1])?).unwrap();
                writeln!(f.body, "  {lhs}select {} {c}, {}, {}", cmp_type(&ret), a[0], a[1]).unwrap();
            }
            _ if name.starts_with("llvm.abs.") => {
                let (n, c) = (f.temp(), f.temp());
                let x = self.val(f, args[0])?;
                writeln!(f.body, "  {n} = sub {ret} zeroinitializer, {x}").unwrap();
                writeln!(f.body, "  {c} = icmp slt {ret} {x}, zeroinitializer").unwrap();
                writeln!(f.body, "  {lhs}select {} {c}, {ret} {n}, {ret} {x}", cmp_type(&ret)).unwrap();
            }
            _ => {
                // Overloads on opaque pointers (`.p1`) name typed ones (`.p1i8`).
                let renamed: Vec<String> = name
                    .split('.')
                    .map(|s| {
                        if s.len() > 1 && s.starts_with('p') && s[1..].bytes().all(|c| c.is_ascii_digit()) {
                            format!("{s}i8")
                        } else {
                            s.to_owned()
                        }
                    })
                    .collect();
                let renamed = renamed.join(".");
                self.emit(f, lhs, fmf, &ret, &renamed, &params, &a.join(", "));
            }
        }
        Ok(())
    }
}

/// The float (exactly) of bfloat16 bits `x` (an i16 operand).
fn bf16_to_f32(f: &mut Func, x: &str) -> String {
    let [w, s, r] = std::array::from_fn(|_| f.temp());
    writeln!(f.body, "  {w} = zext i16 {x} to i32\n  {s} = shl i32 {w}, 16\n  {r} = bitcast i32 {s} to float").unwrap();
    r
}

/// The bfloat16 bits (i16) of float `x` rounded to nearest even; NaN
/// stays NaN (quiet).
fn f32_to_bf16_bits(f: &mut Func, x: &str) -> String {
    let [b, h, l, r1, r2, r3, nan, q, sel, out] = std::array::from_fn(|_| f.temp());
    for line in [
        format!("{b} = bitcast float {x} to i32"),
        format!("{h} = lshr i32 {b}, 16"),
        format!("{l} = and i32 {h}, 1"),
        format!("{r1} = add i32 {b}, 32767"),
        format!("{r2} = add i32 {r1}, {l}"),
        format!("{r3} = lshr i32 {r2}, 16"),
        format!("{nan} = fcmp uno float {x}, 0.000000e+00"),
        format!("{q} = or i32 {h}, 64"),
        format!("{sel} = select i1 {nan}, i32 {q}, i32 {r3}"),
        format!("{out} = trunc i32 {sel} to i16"),
    ] {
        writeln!(f.body, "  {line}").unwrap();
    }
    out
}

/// LLVM 22's names of NVVM intrinsics that LLVM 7 spells otherwise with the
/// same operands (the reverse of LLVM's auto-upgrade): (LLVM 22, LLVM 7).
const RENAMED: &[(&str, &str)] = &[
    ("llvm.nvvm.barrier.cta.sync.aligned.all", "llvm.nvvm.barrier.n"),
    ("llvm.nvvm.barrier.cta.sync.aligned.count", "llvm.nvvm.barrier"),
    ("llvm.nvvm.barrier.cta.sync.all", "llvm.nvvm.barrier.sync"),
    ("llvm.nvvm.barrier.cta.sync.count", "llvm.nvvm.barrier.sync.cnt"),
];

/// `i1` or `<N x i1>` for comparisons of values of type `t` (text).
fn cmp_type(t: &str) -> String {
    match t.strip_prefix('<').and_then(|r| r.split_once(" x ")) {
        Some((n, _)) => format!("<{n} x i1>"),
        None => "i1".into(),
    }
}

/// `-0.0` of float type `t` (a splat for vectors).
fn neg_zero(w: &mut Writer, t: T) -> R<String> {
    let scalar = |k: u32| -> R<&'static str> {
        match k {
            1 => Ok("0xH8000"),
            2 | 3 => Ok("-0.000000e+00"),
            _ => Err("fneg of a non-float type".into()),
        }
    };
    if t.kind() == 13 {
        let e = w.ty(t.element())?;
        let z = scalar(t.element().kind())?;
        Ok(format!("<{}>", vec![format!("{e} {z}"); t.vector_len() as usize].join(", ")))
    } else {
        Ok(scalar(t.kind())?.into())
    }
}

fn linkage(l: u32, name: &str) -> R<&'static str> {
    Ok(match l {
        0 => "",
        1 => "available_externally ",
        2 => "linkonce ",
        3 => "linkonce_odr ",
        5 => "weak ",
        6 => "weak_odr ",
        8 => "internal ",
        9 => "private ",
        12 => "extern_weak ",
        14 => "common ",
        _ => return Err(NvvmIrError::Unsupported(format!("'{name}' has a linkage NVVM IR 2.0 lacks ({l})"))),
    })
}
