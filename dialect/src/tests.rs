//! Unit tests of the dialect's registration, its Rust mirror of pydev.td and
//! the CUDA C++ layouts.

use crate::{
    attrs::{ScopeAttr, ShuffleKindAttr, TargetAttr},
    enum_value, field_offset, new_context, type_layout,
    types::{self, ArrayType, StructType, TupleType, VectorType},
    AtomicRMWKind, CmpPredicate, Layout, MemoryOrder, MemorySpace, Scope, ShuffleKind, TargetKind, VoteKind, SM_ARCHS,
};
use melior::ir::{operation::OperationLike, Attribute, Module, Type};

fn ty<'c>(ctx: &'c melior::Context, text: &str) -> Type<'c> {
    Type::parse(ctx, text).unwrap_or_else(|| panic!("cannot parse {text}"))
}

#[test]
fn registered_ops_verify_and_malformed_ops_fail() {
    let ctx = new_context();
    let good = Module::parse(
        &ctx,
        r#"func.func @f(%r: !pydev.atomic_ref<i32>, %v: i32) -> i32 {
             %o = pydev.atomic_rmw add %r, %v memory <relaxed> scope <device> : !pydev.atomic_ref<i32>, i32
             return %o : i32
           }"#,
    )
    .expect("parses");
    assert!(good.as_operation().verify());
    // A well-formed generic op with a wrong operand count parses but must not verify.
    ctx.attach_diagnostic_handler(|_| true);
    let bad = Module::parse(
        &ctx,
        r#""func.func"() <{function_type = (!pydev.warp_mask) -> (), sym_name = "g"}> ({
           ^bb0(%m: !pydev.warp_mask):
             %0 = "pydev.vote"(%m) <{kind = #pydev<vote_kind all>}> : (!pydev.warp_mask) -> i1
             "func.return"() : () -> ()
           }) : () -> ()"#,
    );
    assert!(bad.is_none_or(|m| !m.as_operation().verify()));
}

/// The generated Rust enums and enum attributes agree with the C++ dialect:
/// every spelling parses to its value.
#[test]
fn enums_match_the_ods_definition() {
    let ctx = new_context();
    fn check<T: Copy + std::fmt::Display>(ctx: &melior::Context, mnemonic: &str, all: &[T], value: fn(T) -> i64) {
        for &v in all {
            let attr = Attribute::parse(ctx, &format!("#pydev.{mnemonic}<{v}>"))
                .unwrap_or_else(|| panic!("#pydev.{mnemonic}<{v}> does not parse"));
            assert_eq!(enum_value(attr), Some(value(v)), "{mnemonic} {v}");
        }
    }
    check(&ctx, "memory_order", MemoryOrder::ALL, |v| v as i64);
    check(&ctx, "scope", Scope::ALL, |v| v as i64);
    // The other enum attributes print in `#pydev<mnemonic value>` form.
    fn check_generic<T: Copy + std::fmt::Display>(
        ctx: &melior::Context,
        mnemonic: &str,
        all: &[T],
        value: fn(T) -> i64,
    ) {
        for &v in all {
            let attr = Attribute::parse(ctx, &format!("#pydev<{mnemonic} {v}>"))
                .unwrap_or_else(|| panic!("#pydev<{mnemonic} {v}> does not parse"));
            assert_eq!(enum_value(attr), Some(value(v)), "{mnemonic} {v}");
        }
    }
    check_generic(&ctx, "layout", Layout::ALL, |v| v as i64);
    check_generic(&ctx, "atomic_rmw_kind", AtomicRMWKind::ALL, |v| v as i64);
    check_generic(&ctx, "cmp_predicate", CmpPredicate::ALL, |v| v as i64);
    check_generic(&ctx, "vote_kind", VoteKind::ALL, |v| v as i64);
    check_generic(&ctx, "shuffle_kind", ShuffleKind::ALL, |v| v as i64);
    for &space in MemorySpace::ALL {
        // readonly: an array in the constant space must be.
        let t = ty(&ctx, &format!("!pydev.array<f32, 1, {space}, readonly>"));
        assert_eq!(ArrayType::from_type(t).unwrap().space(), space);
    }
}

#[test]
fn target_descriptions_and_architectures() {
    let ctx = new_context();
    for &sm in SM_ARCHS {
        let attr = Attribute::parse(&ctx, &format!("#pydev.target<provides(sm_{sm})>")).unwrap();
        let t = TargetAttr::from_attribute(attr).unwrap();
        assert_eq!((t.kind(), t.sm(), t.operands().len()), (TargetKind::Provides, sm, 0));
        assert_eq!(TargetAttr::new(&ctx, TargetKind::Provides, sm, &[]), Some(t));
    }
    ctx.attach_diagnostic_handler(|_| true);
    assert!(Attribute::parse(&ctx, "#pydev.target<provides(sm_99)>").is_none());
    let tree = Attribute::parse(&ctx, "#pydev.target<or(is_host, not(is_exactly(sm_90)))>").unwrap();
    let tree = TargetAttr::from_attribute(tree).unwrap();
    assert_eq!(tree.kind(), TargetKind::Or);
    let operands = tree.operands();
    assert_eq!(operands.len(), 2);
    let not = TargetAttr::from_attribute(operands[1]).unwrap();
    assert_eq!(not.kind(), TargetKind::Not);
    assert_eq!(TargetAttr::from_attribute(not.operands()[0]).unwrap().sm(), 90);
    // The verifier's rules hold for built attributes too: `not` takes one operand.
    assert_eq!(TargetAttr::new(&ctx, TargetKind::Not, 0, &operands), None);
}

/// CUDA C++ sizes and alignments (vector_types.h, standard-layout structs).
#[test]
fn layouts_follow_cuda_cpp() {
    let ctx = new_context();
    let cases = [
        ("i8", (1, 1)),
        ("i1", (1, 1)),
        ("f16", (2, 2)),
        ("complex<f32>", (8, 4)),
        ("complex<f64>", (16, 8)),
        ("!pydev.vector<3 x i8>", (3, 1)),    // char3
        ("!pydev.vector<2 x f32>", (8, 8)),   // float2
        ("!pydev.vector<3 x f32>", (12, 4)),  // float3
        ("!pydev.vector<4 x f32>", (16, 16)), // float4
        ("!pydev.vector<4 x f64>", (32, 16)), // double4 (16-byte aligned)
        ("!pydev.vector<2 x f16>", (4, 4)),   // __half2
        ("!pydev.struct<\"P\", {x: i8, y: f64, z: i16}>", (24, 8)),
        ("!pydev.struct<\"C\", {re: f32, im: f32}, align 16>", (16, 16)),
        ("!pydev.struct<\"V\", {tag: i32, v: !pydev.vector<4 x f32>}>", (32, 16)),
        ("!pydev.tuple<i32, f64>", (16, 8)),
        ("!pydev.tuple<>", (0, 1)),
        ("!pydev.array<f32, 2>", (40, 8)), // data + shape[2] + strides[2]
        ("!pydev.warp_mask", (4, 4)),
    ];
    for (text, expected) in cases {
        assert_eq!(type_layout(ty(&ctx, text)), Some(expected), "{text}");
    }
    let s = ty(&ctx, "!pydev.struct<\"P\", {x: i8, y: f64, z: i16}>");
    assert_eq!((0..3).map(|i| field_offset(s, i)).collect::<Vec<_>>(), vec![Some(0), Some(8), Some(16)]);
    assert_eq!(field_offset(s, 3), None);
    assert_eq!(type_layout(ty(&ctx, "index")), Some((8, 8)));
    assert_eq!(type_layout(ty(&ctx, "() -> ()")), None);
}

#[test]
fn typed_constructors_round_trip() {
    let ctx = new_context();
    let f32_ty = ty(&ctx, "f32");
    let array = ArrayType::new(&ctx, f32_ty, 3, MemorySpace::Shared, Layout::C, true).unwrap();
    let t: Type = array.into();
    assert_eq!(t, ty(&ctx, "!pydev.array<f32, 3, shared, c, readonly>"));
    let back = ArrayType::from_type(t).unwrap();
    assert_eq!(
        (back.element_type(), back.rank(), back.space(), back.layout(), back.readonly()),
        (f32_ty, 3, MemorySpace::Shared, Layout::C, true)
    );
    assert_eq!(back.to_string(), "!pydev.array<f32, 3, shared, c, readonly>");

    ctx.attach_diagnostic_handler(|_| true);
    assert!(VectorType::new(&ctx, 0, f32_ty).is_none(), "the verifier rejects 0 lanes");
    assert!(StructType::new(&ctx, "P", &["x", "x"], &[f32_ty, f32_ty], 0).is_none(), "duplicate fields");
    assert_eq!(TupleType::new(&ctx, &[]).types(), vec![]);
    let scope = ScopeAttr::new(&ctx, Scope::Block);
    assert_eq!((scope.value(), enum_value(scope.into())), (Scope::Block, Some(2)));
    assert_eq!(ShuffleKindAttr::from_attribute(scope.into()), None);
    assert!(types::vector_type(&ctx, 5, f32_ty).is_none());
    let v = types::vector_type(&ctx, 4, f32_ty).unwrap();
    assert_eq!(types::vector_parts(v), Some((4, f32_ty)));

    let s = types::struct_type(&ctx, "Point", &[("x", f32_ty), ("y", f32_ty)], 8).unwrap();
    let (name, fields, align) = types::struct_parts(s).unwrap();
    assert_eq!((name.as_str(), fields.len(), fields[1].0.as_str(), align), ("Point", 2, "y", 8));

    let tup = types::tuple_type(&ctx, &[f32_ty, v]);
    assert_eq!(types::tuple_parts(tup).unwrap().len(), 2);
    let r = types::atomic_ref_type(&ctx, f32_ty, MemorySpace::Local);
    assert_eq!(types::atomic_ref_parts(r), Some((f32_ty, MemorySpace::Local)));
    assert!(types::is_warp_mask(types::warp_mask_type(&ctx)));
    assert!(ArrayType::from_type(f32_ty).is_none());
}

/// The host ABI's facts are consistent: thread-context fields in order
/// without overlap, the frame head inside its size, attribute names unique.
/// (The runtime checks its `ThreadCtx` against `abi::ctx` at compile time.)
#[test]
fn host_abi_is_consistent() {
    use crate::abi::{attr, ctx, frame};
    // (offset, size) of every thread-context field, in order.
    let fields = [
        (ctx::TID, 12),
        (ctx::BID, 12),
        (ctx::BDIM, 12),
        (ctx::GDIM, 12),
        (ctx::SHARED, 8),
        (ctx::DYN_SHARED, 8),
        (ctx::DYN_SHARED_BYTES, 8),
        (ctx::LAUNCH, 8),
        (ctx::FIBER, 8),
        (ctx::SCRATCH, 8),
        (ctx::COUNT, 4),
        (ctx::TOTAL, 4),
    ];
    for w in fields.windows(2) {
        assert_eq!(w[0].0 + w[0].1, w[1].0, "{w:?}");
    }
    assert_eq!(fields[0].0, 0);
    assert_eq!(ctx::SIZE, 104);
    assert_eq!(ctx::dim(ctx::BDIM, 2), 32);
    let head = [
        (frame::STATE, 4),
        (frame::MASK, 4),
        (frame::VALUE, 8),
        (frame::ARG, 4),
        (frame::OP, 4),
        (frame::RESULT, 8),
        (frame::READY, 4),
    ];
    for w in head.windows(2) {
        assert!(w[0].0 + w[0].1 <= w[1].0, "{w:?}");
    }
    for (off, size) in head {
        assert_eq!(off % size, 0, "aligned");
        assert!((off + size) as u64 <= frame::HEAD);
    }
    let names: std::collections::HashSet<&str> = attr::ALL.iter().copied().collect();
    assert_eq!(names.len(), attr::ALL.len());
    assert!(attr::ALL.iter().all(|n| n.starts_with("pydev.")));
}

/// The host storage layout (what `pydev-host-barrier-fission` spills) of
/// the LLVM type `pydev-lower-aggregates` gives an aggregate is the CUDA
/// C++ layout of the aggregate: both apply one member rule.
#[test]
fn storage_layout_of_lowered_aggregates_is_the_c_layout() {
    use crate::storage_layout;
    let ctx = new_context();
    let cases = [
        ("i1", "i1"),
        ("i8", "i8"),
        ("f16", "f16"),
        ("index", "index"),
        ("!pydev.vector<3 x f32>", "!llvm.array<3 x f32>"),
        ("!pydev.vector<3 x i8>", "!llvm.array<3 x i8>"),
        ("!pydev.struct<\"P\", {x: i8, y: f64, z: i16}>", "!llvm.struct<(i8, f64, i16)>"),
        ("!pydev.struct<\"Q\", {a: !pydev.vector<3 x i8>, b: i32}>", "!llvm.struct<(array<3 x i8>, i32)>"),
        ("!pydev.tuple<i32, f64>", "!llvm.struct<(i32, f64)>"),
        ("!pydev.tuple<i8, !pydev.tuple<i16, i64>>", "!llvm.struct<(i8, struct<(i16, i64)>)>"),
        ("!pydev.array<f32, 2>", "!llvm.struct<(ptr, array<2 x i64>, array<2 x i64>)>"),
    ];
    for (pydev, llvm) in cases {
        assert_eq!(storage_layout(ty(&ctx, llvm)), type_layout(ty(&ctx, pydev)), "{pydev} as {llvm}");
    }
    // Types LLVM cannot store as they are have no frame layout.
    for text in ["complex<f32>", "vector<4xf32>", "!llvm.struct<packed (i8, i32)>", "f128", "!pydev.tuple<i32>"] {
        assert_eq!(storage_layout(ty(&ctx, text)), None, "{text}");
    }
    assert_eq!(storage_layout(ty(&ctx, "i24")), Some((4, 4)), "LLVM's power-of-two integers");
    assert_eq!(storage_layout(ty(&ctx, "!llvm.ptr<1>")), Some((8, 8)));
}

/// Every op of pydev.td (each `def X : Pydev_...Op<"mnemonic"` of the
/// source, whatever class it goes through) has its generated entry: a name
/// constant that the registered dialect knows, and a struct with a builder
/// and a matcher.
#[test]
fn every_op_has_its_generated_api() {
    use crate::ops::{self, PydevOp};
    use melior::ir::{BlockLike, RegionLike};
    let source = include_str!("../pydev.td");
    let mut declared: Vec<&str> = source
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("def ")?;
            let (_, class) = rest.split_once(" : ")?;
            let (class, args) = class.split_once("<\"")?;
            (class.starts_with("Pydev_") && class.ends_with("Op")).then(|| args.split('"').next().unwrap())
        })
        .collect();
    declared.sort();
    let mut generated: Vec<&str> = ops::ALL.iter().map(|(_, mnemonic, _)| *mnemonic).collect();
    generated.sort();
    assert_eq!(declared.len(), 65, "ops in pydev.td");
    assert_eq!(generated, declared);
    let ctx = new_context();
    for (name, mnemonic, summary) in ops::ALL {
        assert_eq!(*name, format!("pydev.{mnemonic}"));
        assert!(ctx.is_registered_operation(name), "{name} is not registered");
        assert!(!summary.is_empty(), "{name} has no summary");
    }
    assert_eq!(ops::ShuffleOperation::NAME, "pydev.shfl");
    assert_eq!(<ops::AtomicRMWOperation as PydevOp>::MNEMONIC, "atomic_rmw");

    // Build with the generated builder, then match and read it back.
    let loc = melior::ir::Location::unknown(&ctx);
    let module = Module::new(loc);
    let i32t = melior::ir::r#type::IntegerType::new(&ctx, 32).into();
    let mask_t = ty(&ctx, "!pydev.warp_mask");
    let block = melior::ir::Block::new(&[(mask_t, loc), (i32t, loc), (i32t, loc)]);
    let kind = Attribute::parse(&ctx, "#pydev<shuffle_kind xor>").unwrap();
    let shfl = ops::ShuffleOperation::builder(&ctx, loc)
        .result(i32t)
        .mask(block.argument(0).unwrap().into())
        .value(block.argument(1).unwrap().into())
        .lane(block.argument(2).unwrap().into())
        .kind(kind)
        .build();
    let shfl = block.append_operation(shfl.into());
    let func = melior::dialect::func::func(
        &ctx,
        melior::ir::attribute::StringAttribute::new(&ctx, "f"),
        melior::ir::attribute::TypeAttribute::new(
            melior::ir::r#type::FunctionType::new(&ctx, &[mask_t, i32t, i32t], &[]).into(),
        ),
        {
            block.append_operation(melior::dialect::func::r#return(&[], loc));
            let region = melior::ir::Region::new();
            region.append_block(block);
            region
        },
        &[],
        loc,
    );
    module.body().append_operation(func);
    assert!(module.as_operation().verify());
    assert!(ops::ShuffleOperation::matches(&shfl));
    assert!(!ops::VoteOperation::matches(&shfl));
    assert!(ops::VoteOperation::view(shfl).is_none());
    let view = ops::ShuffleOperation::view(shfl).expect("a shfl");
    assert_eq!(view.kind().unwrap(), kind);
    assert_eq!(view.lane().unwrap().to_string(), "<block argument> of type 'i32' at index: 2");
    drop(view);
    assert!(module.as_operation().verify(), "the view does not destroy the op");
}

/// The generated generic-form writers produce IR that parses and verifies,
/// for each kind of argument they handle: enum attributes in both syntaxes,
/// variadic operands with segment sizes, dense arrays, default-valued and
/// optional attributes, multiple results.
#[test]
fn generic_writers_round_trip() {
    use crate::ops::generic::{self, TextValue};
    struct V(&'static str, &'static str);
    impl TextValue for V {
        fn ssa_name(&self) -> String {
            self.0.into()
        }
        fn type_text(&self) -> String {
            self.1.into()
        }
    }
    let (m, x, lane, a, i, r) = (
        V("%m", "!pydev.warp_mask"),
        V("%x", "f32"),
        V("%lane", "i32"),
        V("%a", "!pydev.array<f32, 2>"),
        V("%i", "si64"),
        V("%r", "!pydev.atomic_ref<f32>"),
    );
    let body = [
        format!("%0 = {}", generic::shfl(ShuffleKind::Down, &m, &x, &lane, "f32")),
        format!("%1 = {}", generic::cmp(CmpPredicate::Lt, &x, &x, "i1")),
        format!("%2 = {}", generic::array_slice(&a, &[0, 1], &[&i, &i], &[&i], &[&i], "!pydev.array<f32, 1>")),
        format!("%3 = {}", generic::atomic_rmw(AtomicRMWKind::Add, &r, &x, MemoryOrder::Relaxed, Scope::Device, "f32")),
        format!("%4 = {}", generic::local_array(&[4, 8], "F", 16, "!pydev.array<f32, 2, local, f>")),
        format!("%5 = {}", generic::atomic_ref(&a, &[&i, &i], None, "!pydev.atomic_ref<f32>")),
        format!("%6:2 = {}", generic::match_all(&m, &x, "!pydev.warp_mask", "i1")),
        format!("%7 = {}", generic::target("or(is_host, provides(sm_80))", "i1")),
        format!("%8 = {}", generic::constant("2.5 : f32", "f32")),
    ];
    let text = format!(
        "func.func @f(%m: !pydev.warp_mask, %x: f32, %lane: i32, %a: !pydev.array<f32, 2>, %i: si64, %r: !pydev.atomic_ref<f32>) {{\n{}\n  return\n}}",
        body.join("\n")
    );
    let ctx = new_context();
    let module = Module::parse(&ctx, &text).unwrap_or_else(|| panic!("does not parse:\n{text}"));
    assert!(module.as_operation().verify(), "does not verify:\n{text}");
    let printed = module.as_operation().to_string();
    for expected in [
        "down %arg0",
        "lt, %arg1",
        "add %arg5, %arg1 memory <relaxed> scope <device>",
        "order \"F\" align 16",
        "<or(is_host, provides(sm_80))>",
    ] {
        assert!(printed.contains(expected), "{expected} not in\n{printed}");
    }
    assert_eq!(generic::quote("a\"b\\c\n"), r#""a\"b\\c\0A""#);
}
