"""The pydev ops as dialect/pydev.td defines them, for `pydev.ir`.

GENERATED from TableGen's records of dialect/pydev.td by
python/tests/test_ir_ods.py (`python3 python/tests/test_ir_ods.py --write`),
which fails when this file is stale. Do not edit.

OPS[name] = (operands, attributes, results, attr_sized_operands): operands
and results as (name, arity) with arity '1', '?' (optional) or '*' (variadic);
attributes as (name, kind, required), kind one of enum:<mnemonic>, i32array,
i64array, unit, strarray, typed, str, i64, target. ENUMS[mnemonic]: the
cases of the enum attributes ops take; ENUM_CASES[class]: (spelling, value)
of every enum of pydev.td.

TYPES[mnemonic] (every TypeDef) and ATTRS[mnemonic] (every AttrDef): name
(`pydev.array`), cpp (class), summary, params as (name, kind, optional)
with kind one of type, unsigned, uint64, bool, str, types, attrs, strs,
enum:<class> (cases in ENUM_CASES), format (the declarative assembly
format; None: custom) and examples (those of the description)."""

OPS = {
    'abs': ((('operand', '1'),), (), (('result', '1'),), False),
    'activemask': ((), (), (('result', '1'),), False),
    'add': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'and': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'array_index': ((('array', '1'), ('indices', '*')), (), (('result', '1'),), False),
    'array_load': ((('array', '1'), ('indices', '*')), (), (('result', '1'),), False),
    'array_reshape': ((('array', '1'), ('shape', '*')), (), (('result', '1'),), False),
    'array_shape': ((('array', '1'),), (), (('result', '1'),), False),
    'array_size': ((('array', '1'),), (), (('result', '1'),), False),
    'array_slice': ((('array', '1'), ('starts', '*'), ('stops', '*'), ('steps', '*')), (('kinds', 'i32array', True),), (('result', '1'),), True),
    'array_store': ((('value', '1'), ('array', '1'), ('indices', '*')), (), (), False),
    'array_strides': ((('array', '1'),), (), (('result', '1'),), False),
    'array_view': ((('array', '1'),), (), (('result', '1'),), False),
    'atomic_cas': ((('ref', '1'), ('expected', '1'), ('desired', '1')), (('memory', 'enum:memory_order', True), ('scope', 'enum:scope', True)), (('result', '1'),), False),
    'atomic_load': ((('ref', '1'),), (('memory', 'enum:memory_order', True), ('scope', 'enum:scope', True)), (('result', '1'),), False),
    'atomic_notify': ((('ref', '1'),), (('all', 'unit', False),), (), False),
    'atomic_ref': ((('array', '1'), ('indices', '*')), (('field', 'strarray', False),), (('result', '1'),), False),
    'atomic_rmw': ((('ref', '1'), ('value', '1')), (('kind', 'enum:atomic_rmw_kind', True), ('memory', 'enum:memory_order', True), ('scope', 'enum:scope', True)), (('result', '1'),), False),
    'atomic_store': ((('value', '1'), ('ref', '1')), (('memory', 'enum:memory_order', True), ('scope', 'enum:scope', True)), (), False),
    'atomic_wait': ((('ref', '1'), ('old', '1')), (('memory', 'enum:memory_order', True), ('scope', 'enum:scope', True)), (), False),
    'cast': ((('input', '1'),), (), (('result', '1'),), False),
    'cmp': ((('lhs', '1'), ('rhs', '1')), (('predicate', 'enum:cmp_predicate', True),), (('result', '1'),), False),
    'constant': ((), (('value', 'typed', True),), (('result', '1'),), False),
    'dynamic_shared_array': ((), (), (('result', '1'),), False),
    'floordiv': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'invert': ((('operand', '1'),), (), (('result', '1'),), False),
    'lanemask_lt': ((), (), (('result', '1'),), False),
    'local_array': ((), (('shape', 'i64array', True), ('order', 'str', False), ('alignment', 'i64', False)), (('result', '1'),), False),
    'lshift': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'match_all': ((('mask', '1'), ('value', '1')), (), (('result', '1'), ('pred', '1')), False),
    'match_any': ((('mask', '1'), ('value', '1')), (), (('result', '1'),), False),
    'max': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'min': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'mod': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'mul': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'neg': ((('operand', '1'),), (), (('result', '1'),), False),
    'not': ((('operand', '1'),), (), (('result', '1'),), False),
    'or': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'pos': ((('operand', '1'),), (), (('result', '1'),), False),
    'pow': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'rshift': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'shared_array': ((), (('shape', 'i64array', True), ('order', 'str', False), ('alignment', 'i64', False)), (('result', '1'),), False),
    'shfl': ((('mask', '1'), ('value', '1'), ('lane', '1')), (('kind', 'enum:shuffle_kind', True),), (('result', '1'),), False),
    'struct_create': ((('fields', '*'),), (), (('result', '1'),), False),
    'struct_extract': ((('input', '1'),), (('field', 'str', True),), (('result', '1'),), False),
    'struct_insert': ((('value', '1'), ('input', '1')), (('field', 'str', True),), (('result', '1'),), False),
    'sub': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'syncthreads': ((), (), (), False),
    'syncthreads_and': ((('predicate', '1'),), (), (('result', '1'),), False),
    'syncthreads_count': ((('predicate', '1'),), (), (('result', '1'),), False),
    'syncthreads_or': ((('predicate', '1'),), (), (('result', '1'),), False),
    'syncwarp': ((('mask', '1'),), (), (), False),
    'target': ((), (('desc', 'target', True),), (('result', '1'),), False),
    'threadfence': ((), (('memory', 'enum:memory_order', True), ('scope', 'enum:scope', True)), (), False),
    'truediv': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
    'tuple_create': ((('elements', '*'),), (), (('result', '1'),), False),
    'tuple_extract': ((('input', '1'),), (('index', 'i64', True),), (('result', '1'),), False),
    'tuple_insert': ((('value', '1'), ('input', '1')), (('index', 'i64', True),), (('result', '1'),), False),
    'vector_create': ((('elements', '*'),), (), (('result', '1'),), False),
    'vector_extract': ((('input', '1'), ('index', '1')), (), (('result', '1'),), False),
    'vector_insert': ((('value', '1'), ('input', '1'), ('index', '1')), (), (('result', '1'),), False),
    'vote': ((('mask', '1'), ('predicate', '1')), (('kind', 'enum:vote_kind', True),), (('result', '1'),), False),
    'xor': ((('lhs', '1'), ('rhs', '1')), (), (('result', '1'),), False),
}

ENUMS = {
    'atomic_rmw_kind': ('add', 'sub', 'and', 'or', 'xor', 'max', 'min', 'nanmax', 'nanmin', 'exch'),
    'cmp_predicate': ('eq', 'ne', 'lt', 'le', 'gt', 'ge'),
    'memory_order': ('relaxed', 'consume', 'acquire', 'release', 'acq_rel', 'seq_cst'),
    'scope': ('system', 'device', 'block', 'thread'),
    'shuffle_kind': ('idx', 'up', 'down', 'xor'),
    'vote_kind': ('all', 'any', 'eq', 'ballot'),
}

ENUM_CASES = {
    'AtomicRMWKind': (('add', 0), ('sub', 1), ('and', 2), ('or', 3), ('xor', 4), ('max', 5), ('min', 6), ('nanmax', 7), ('nanmin', 8), ('exch', 9)),
    'CmpPredicate': (('eq', 0), ('ne', 1), ('lt', 2), ('le', 3), ('gt', 4), ('ge', 5)),
    'Layout': (('strided', 0), ('c', 1), ('f', 2)),
    'MemoryOrder': (('relaxed', 0), ('consume', 1), ('acquire', 2), ('release', 3), ('acq_rel', 4), ('seq_cst', 5)),
    'MemorySpace': (('global', 0), ('shared', 1), ('local', 2)),
    'Scope': (('system', 0), ('device', 1), ('block', 2), ('thread', 3)),
    'ShuffleKind': (('idx', 0), ('up', 1), ('down', 2), ('xor', 3)),
    'SmArch': (('sm_50', 50), ('sm_52', 52), ('sm_53', 53), ('sm_60', 60), ('sm_61', 61), ('sm_62', 62), ('sm_70', 70), ('sm_72', 72), ('sm_75', 75), ('sm_80', 80), ('sm_86', 86), ('sm_87', 87), ('sm_89', 89), ('sm_90', 90), ('sm_100', 100), ('sm_101', 101), ('sm_103', 103), ('sm_110', 110), ('sm_120', 120), ('sm_121', 121)),
    'TargetKind': (('is_host', 0), ('is_device', 1), ('is_exactly', 2), ('provides', 3), ('and', 4), ('or', 5), ('not', 6), ('any_target', 7), ('no_target', 8)),
    'VoteKind': (('all', 0), ('any', 1), ('eq', 2), ('ballot', 3)),
}

TYPES = {
    'array': {
        'name': 'pydev.array',
        'cpp': 'ArrayType',
        'summary': 'an array descriptor (spec: Arrays)',
        'params': (('elementType', 'type', False), ('rank', 'unsigned', False), ('space', 'enum:MemorySpace', False), ('layout', 'enum:Layout', False), ('readonly', 'bool', False)),
        'format': None,
        'examples': ('!pydev.array<f32, 2>', '!pydev.array<si32, 1, shared, c>', '!pydev.array<f64, 3, readonly>'),
    },
    'atomic_ref': {
        'name': 'pydev.atomic_ref',
        'cpp': 'AtomicRefType',
        'summary': 'a reference to an object accessed atomically (spec: Atomics)',
        'params': (('elementType', 'type', False), ('space', 'enum:MemorySpace', False)),
        'format': None,
        'examples': ('!pydev.atomic_ref<f32>', '!pydev.atomic_ref<ui32, shared>'),
    },
    'struct': {
        'name': 'pydev.struct',
        'cpp': 'StructType',
        'summary': 'a heterogeneous struct (spec: User-Defined Types)',
        'params': (('name', 'str', False), ('fieldNames', 'strs', False), ('fieldTypes', 'types', False), ('align', 'uint64', False)),
        'format': None,
        'examples': ('!pydev.struct<"Point", {x: si32, y: f32}>', '!pydev.struct<"Complex", {real: f32, imag: f32}, align 16>'),
    },
    'tuple': {
        'name': 'pydev.tuple',
        'cpp': 'TupleType',
        'summary': 'a heterogeneous tuple (spec: Tuples)',
        'params': (('types', 'types', True),),
        'format': '`<` (`>`) : ($types^ `>`)?',
        'examples': ('!pydev.tuple<si32, f32>',),
    },
    'vector': {
        'name': 'pydev.vector',
        'cpp': 'VectorType',
        'summary': 'a CUDA vector type (spec: Vectors)',
        'params': (('lanes', 'unsigned', False), ('elementType', 'type', False)),
        'format': '`<` $lanes `x` $elementType `>`',
        'examples': (),
    },
    'warp_mask': {
        'name': 'pydev.warp_mask',
        'cpp': 'WarpMaskType',
        'summary': 'a warp mask (spec: Thread Warp Synchronization / WarpMask)',
        'params': (),
        'format': None,
        'examples': (),
    },
}

ATTRS = {
    'atomic_rmw_kind': {
        'name': 'pydev.atomic_rmw_kind',
        'cpp': 'AtomicRMWKindAttr',
        'summary': 'atomic read-modify-write',
        'params': (('value', 'enum:AtomicRMWKind', False),),
        'format': '$value',
        'examples': (),
    },
    'cmp_predicate': {
        'name': 'pydev.cmp_predicate',
        'cpp': 'CmpPredicateAttr',
        'summary': 'Python comparison',
        'params': (('value', 'enum:CmpPredicate', False),),
        'format': '$value',
        'examples': (),
    },
    'layout': {
        'name': 'pydev.layout',
        'cpp': 'LayoutAttr',
        'summary': "what is known of an array's strides",
        'params': (('value', 'enum:Layout', False),),
        'format': '$value',
        'examples': (),
    },
    'memory_order': {
        'name': 'pydev.memory_order',
        'cpp': 'MemoryOrderAttr',
        'summary': 'memory order (spec: Synchronization / Memory Orderings)',
        'params': (('value', 'enum:MemoryOrder', False),),
        'format': '`<` $value `>`',
        'examples': (),
    },
    'scope': {
        'name': 'pydev.scope',
        'cpp': 'ScopeAttr',
        'summary': 'thread scope (spec: Synchronization / Thread Scopes)',
        'params': (('value', 'enum:Scope', False),),
        'format': '`<` $value `>`',
        'examples': (),
    },
    'shuffle_kind': {
        'name': 'pydev.shuffle_kind',
        'cpp': 'ShuffleKindAttr',
        'summary': 'warp shuffle',
        'params': (('value', 'enum:ShuffleKind', False),),
        'format': '$value',
        'examples': (),
    },
    'target': {
        'name': 'pydev.target',
        'cpp': 'TargetAttr',
        'summary': 'a target description (spec: Target Specialization)',
        'params': (('kind', 'enum:TargetKind', False), ('sm', 'unsigned', False), ('operands', 'attrs', True)),
        'format': None,
        'examples': ('#pydev.target<or(is_host, and(provides(sm_80), not(is_exactly(sm_90))))>',),
    },
    'vote_kind': {
        'name': 'pydev.vote_kind',
        'cpp': 'VoteKindAttr',
        'summary': 'warp vote',
        'params': (('value', 'enum:VoteKind', False),),
        'format': '$value',
        'examples': (),
    },
}
