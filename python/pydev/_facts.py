"""The facts of device code that the Rust crates define once and the
Python package needs too.

GENERATED from `pydev._pydev.facts()` (python/src/facts.rs) by
python/tests/test_facts.py (`python3 python/tests/test_facts.py --write`),
which fails when this file is stale. Do not edit."""

# the CUDA architectures of `device.smXX` selectors, in capability order (pydev_dialect::SM_ARCHS).
SM_ARCHS = (50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121)

# the memory orders of atomics and fences (the dialect's MemoryOrder).
MEMORY_ORDERS = ('relaxed', 'consume', 'acquire', 'release', 'acq_rel', 'seq_cst')

# the thread scopes of atomics and fences (the dialect's Scope).
SCOPES = ('system', 'device', 'block', 'thread')

# the methods of an atomic reference (frontend builtins::ATOMIC_METHODS).
ATOMIC_METHODS = (
    'add',
    'sub',
    'and_',
    'or_',
    'xor',
    'max',
    'min',
    'nanmax',
    'nanmin',
    'exch',
    'cas',
    'load',
    'store',
    'wait',
    'notify_one',
    'notify_all',
)

# {method: the dialect's AtomicRMWKind} of the read-modify-write methods.
ATOMIC_RMW_METHODS = {
    'add': 'add',
    'sub': 'sub',
    'and_': 'and',
    'or_': 'or',
    'xor': 'xor',
    'max': 'max',
    'min': 'min',
    'nanmax': 'nanmax',
    'nanmin': 'nanmin',
    'exch': 'exch',
}

# the names of cuda.device that only device code can use (builtins::DEVICE_ONLY).
DEVICE_ONLY = (
    'thread_idx',
    'block_idx',
    'block_dim',
    'grid_dim',
    'tid',
    'grid_size',
    'warp_size',
    'lane_id',
    'local_array',
    'shared_array',
    'dynamic_shared_array',
    'atomic_ref',
    'threadfence',
    'syncthreads',
    'syncthreads_count',
    'syncthreads_and',
    'syncthreads_or',
    'activemask',
    'lanemask_lt',
    'syncwarp',
    'all_sync',
    'any_sync',
    'eq_sync',
    'ballot_sync',
    'shfl_sync',
    'shfl_up_sync',
    'shfl_down_sync',
    'shfl_xor_sync',
    'match_any_sync',
    'match_all_sync',
)

# the other names of cuda.device that device code resolves (builtins::DEVICE_NAMES).
DEVICE_NAMES = (
    'popc',
    'brev',
    'clz',
    'ffs',
    'cbrt',
    'fma',
    'target',
    'is_exactly',
    'provides',
    'machine_representation',
    'WarpMask',
    'align',
    'ConstExpr',
    'Atomic',
    'kernel',
    'func',
    'struct',
    'launch',
)

# {name: (arity, op)} of the `math` functions of device code (builtins::MATH_FUNCTIONS): op
# is the MLIR op, or ('arith.cmpf', predicate, abs) for a float-class test of x with itself
# (abs False) or of |x| with +inf (abs True).
MATH_FUNCTIONS = {
    'sqrt': (1, 'math.sqrt'),
    'exp': (1, 'math.exp'),
    'exp2': (1, 'math.exp2'),
    'expm1': (1, 'math.expm1'),
    'log': (1, 'math.log'),
    'log2': (1, 'math.log2'),
    'log10': (1, 'math.log10'),
    'log1p': (1, 'math.log1p'),
    'sin': (1, 'math.sin'),
    'cos': (1, 'math.cos'),
    'tan': (1, 'math.tan'),
    'asin': (1, 'math.asin'),
    'acos': (1, 'math.acos'),
    'atan': (1, 'math.atan'),
    'sinh': (1, 'math.sinh'),
    'cosh': (1, 'math.cosh'),
    'tanh': (1, 'math.tanh'),
    'asinh': (1, 'math.asinh'),
    'acosh': (1, 'math.acosh'),
    'atanh': (1, 'math.atanh'),
    'erf': (1, 'math.erf'),
    'erfc': (1, 'math.erfc'),
    'floor': (1, 'math.floor'),
    'ceil': (1, 'math.ceil'),
    'trunc': (1, 'math.trunc'),
    'fabs': (1, 'math.absf'),
    'pow': (2, 'math.powf'),
    'atan2': (2, 'math.atan2'),
    'copysign': (2, 'math.copysign'),
    'fmod': (2, 'arith.remf'),
    'isnan': (1, ('arith.cmpf', 'uno', False)),
    'isinf': (1, ('arith.cmpf', 'oeq', True)),
    'isfinite': (1, ('arith.cmpf', 'olt', True)),
}

# {name: (exponent bits, mantissa bits, finite only)} (pydev_dialect::float::SMALL_FLOATS).
SMALL_FLOATS = {
    'float16': (5, 10, False),
    'bfloat16': (8, 7, False),
    'float8e4m3': (4, 3, True),
    'float8e5m2': (5, 2, False),
}

# the symbol prefix of the host's C-ABI adapters of external functions.
HOST_ADAPTER_PREFIX = '__pydev_cabi_'

# the function device code calls to raise a Python exception (pydev_dialect::abi::RAISE).
RAISE_FUNCTION = '__pydev_raise'

# whether the calling thread raised one in this launch (pydev_dialect::abi::RAISED).
RAISED_FUNCTION = '__pydev_raised'

# {op mnemonic: its kind in PROMOTION} of the promoting ops (pydev_dialect::promotion::OPS).
PROMOTING_OPS = {
    'add': 'arith',
    'sub': 'arith',
    'mul': 'arith',
    'truediv': 'truediv',
    'floordiv': 'arith',
    'mod': 'arith',
    'pow': 'arith',
    'min': 'minmax',
    'max': 'minmax',
    'and': 'bitwise',
    'or': 'bitwise',
    'xor': 'bitwise',
    'lshift': 'shift',
    'rshift': 'shift',
}

# {kind: {(lhs type, rhs type): result type}} of the promoting ops (pydev_dialect::promotion::result):
# the one table the dialect's verifier, the frontends and pydev.ir's operators follow.
PROMOTION = {
    'arith': {('i1', 'i1'): 'si32', ('i1', 'si8'): 'si8', ('i1', 'si16'): 'si16', ('i1', 'si32'): 'si32', ('i1', 'si64'): 'si64', ('i1', 'ui8'): 'ui8', ('i1', 'ui16'): 'ui16', ('i1', 'ui32'): 'ui32', ('i1', 'ui64'): 'ui64', ('i1', 'f8E4M3FN'): 'f8E4M3FN', ('i1', 'f8E5M2'): 'f8E5M2', ('i1', 'f16'): 'f16', ('i1', 'bf16'): 'bf16', ('i1', 'f32'): 'f32', ('i1', 'f64'): 'f64', ('i1', 'complex<f32>'): 'complex<f32>', ('i1', 'complex<f64>'): 'complex<f64>', ('si8', 'i1'): 'si8', ('si8', 'si8'): 'si8', ('si8', 'si16'): 'si16', ('si8', 'si32'): 'si32', ('si8', 'si64'): 'si64', ('si8', 'ui8'): 'si16', ('si8', 'ui16'): 'si32', ('si8', 'ui32'): 'si64', ('si8', 'f8E4M3FN'): 'f8E4M3FN', ('si8', 'f8E5M2'): 'f8E5M2', ('si8', 'f16'): 'f16', ('si8', 'bf16'): 'bf16', ('si8', 'f32'): 'f32', ('si8', 'f64'): 'f64', ('si8', 'complex<f32>'): 'complex<f32>', ('si8', 'complex<f64>'): 'complex<f64>', ('si16', 'i1'): 'si16', ('si16', 'si8'): 'si16', ('si16', 'si16'): 'si16', ('si16', 'si32'): 'si32', ('si16', 'si64'): 'si64', ('si16', 'ui8'): 'si16', ('si16', 'ui16'): 'si32', ('si16', 'ui32'): 'si64', ('si16', 'f8E4M3FN'): 'f8E4M3FN', ('si16', 'f8E5M2'): 'f8E5M2', ('si16', 'f16'): 'f16', ('si16', 'bf16'): 'bf16', ('si16', 'f32'): 'f32', ('si16', 'f64'): 'f64', ('si16', 'complex<f32>'): 'complex<f32>', ('si16', 'complex<f64>'): 'complex<f64>', ('si32', 'i1'): 'si32', ('si32', 'si8'): 'si32', ('si32', 'si16'): 'si32', ('si32', 'si32'): 'si32', ('si32', 'si64'): 'si64', ('si32', 'ui8'): 'si32', ('si32', 'ui16'): 'si32', ('si32', 'ui32'): 'si64', ('si32', 'f8E4M3FN'): 'f8E4M3FN', ('si32', 'f8E5M2'): 'f8E5M2', ('si32', 'f16'): 'f16', ('si32', 'bf16'): 'bf16', ('si32', 'f32'): 'f32', ('si32', 'f64'): 'f64', ('si32', 'complex<f32>'): 'complex<f32>', ('si32', 'complex<f64>'): 'complex<f64>', ('si64', 'i1'): 'si64', ('si64', 'si8'): 'si64', ('si64', 'si16'): 'si64', ('si64', 'si32'): 'si64', ('si64', 'si64'): 'si64', ('si64', 'ui8'): 'si64', ('si64', 'ui16'): 'si64', ('si64', 'ui32'): 'si64', ('si64', 'f8E4M3FN'): 'f8E4M3FN', ('si64', 'f8E5M2'): 'f8E5M2', ('si64', 'f16'): 'f16', ('si64', 'bf16'): 'bf16', ('si64', 'f32'): 'f32', ('si64', 'f64'): 'f64', ('si64', 'complex<f32>'): 'complex<f32>', ('si64', 'complex<f64>'): 'complex<f64>', ('ui8', 'i1'): 'ui8', ('ui8', 'si8'): 'si16', ('ui8', 'si16'): 'si16', ('ui8', 'si32'): 'si32', ('ui8', 'si64'): 'si64', ('ui8', 'ui8'): 'ui8', ('ui8', 'ui16'): 'ui16', ('ui8', 'ui32'): 'ui32', ('ui8', 'ui64'): 'ui64', ('ui8', 'f8E4M3FN'): 'f8E4M3FN', ('ui8', 'f8E5M2'): 'f8E5M2', ('ui8', 'f16'): 'f16', ('ui8', 'bf16'): 'bf16', ('ui8', 'f32'): 'f32', ('ui8', 'f64'): 'f64', ('ui8', 'complex<f32>'): 'complex<f32>', ('ui8', 'complex<f64>'): 'complex<f64>', ('ui16', 'i1'): 'ui16', ('ui16', 'si8'): 'si32', ('ui16', 'si16'): 'si32', ('ui16', 'si32'): 'si32', ('ui16', 'si64'): 'si64', ('ui16', 'ui8'): 'ui16', ('ui16', 'ui16'): 'ui16', ('ui16', 'ui32'): 'ui32', ('ui16', 'ui64'): 'ui64', ('ui16', 'f8E4M3FN'): 'f8E4M3FN', ('ui16', 'f8E5M2'): 'f8E5M2', ('ui16', 'f16'): 'f16', ('ui16', 'bf16'): 'bf16', ('ui16', 'f32'): 'f32', ('ui16', 'f64'): 'f64', ('ui16', 'complex<f32>'): 'complex<f32>', ('ui16', 'complex<f64>'): 'complex<f64>', ('ui32', 'i1'): 'ui32', ('ui32', 'si8'): 'si64', ('ui32', 'si16'): 'si64', ('ui32', 'si32'): 'si64', ('ui32', 'si64'): 'si64', ('ui32', 'ui8'): 'ui32', ('ui32', 'ui16'): 'ui32', ('ui32', 'ui32'): 'ui32', ('ui32', 'ui64'): 'ui64', ('ui32', 'f8E4M3FN'): 'f8E4M3FN', ('ui32', 'f8E5M2'): 'f8E5M2', ('ui32', 'f16'): 'f16', ('ui32', 'bf16'): 'bf16', ('ui32', 'f32'): 'f32', ('ui32', 'f64'): 'f64', ('ui32', 'complex<f32>'): 'complex<f32>', ('ui32', 'complex<f64>'): 'complex<f64>', ('ui64', 'i1'): 'ui64', ('ui64', 'ui8'): 'ui64', ('ui64', 'ui16'): 'ui64', ('ui64', 'ui32'): 'ui64', ('ui64', 'ui64'): 'ui64', ('ui64', 'f8E4M3FN'): 'f8E4M3FN', ('ui64', 'f8E5M2'): 'f8E5M2', ('ui64', 'f16'): 'f16', ('ui64', 'bf16'): 'bf16', ('ui64', 'f32'): 'f32', ('ui64', 'f64'): 'f64', ('ui64', 'complex<f32>'): 'complex<f32>', ('ui64', 'complex<f64>'): 'complex<f64>', ('f8E4M3FN', 'i1'): 'f8E4M3FN', ('f8E4M3FN', 'si8'): 'f8E4M3FN', ('f8E4M3FN', 'si16'): 'f8E4M3FN', ('f8E4M3FN', 'si32'): 'f8E4M3FN', ('f8E4M3FN', 'si64'): 'f8E4M3FN', ('f8E4M3FN', 'ui8'): 'f8E4M3FN', ('f8E4M3FN', 'ui16'): 'f8E4M3FN', ('f8E4M3FN', 'ui32'): 'f8E4M3FN', ('f8E4M3FN', 'ui64'): 'f8E4M3FN', ('f8E4M3FN', 'f8E4M3FN'): 'f8E4M3FN', ('f8E4M3FN', 'f8E5M2'): 'f16', ('f8E4M3FN', 'f16'): 'f16', ('f8E4M3FN', 'bf16'): 'bf16', ('f8E4M3FN', 'f32'): 'f32', ('f8E4M3FN', 'f64'): 'f64', ('f8E4M3FN', 'complex<f32>'): 'complex<f32>', ('f8E4M3FN', 'complex<f64>'): 'complex<f64>', ('f8E5M2', 'i1'): 'f8E5M2', ('f8E5M2', 'si8'): 'f8E5M2', ('f8E5M2', 'si16'): 'f8E5M2', ('f8E5M2', 'si32'): 'f8E5M2', ('f8E5M2', 'si64'): 'f8E5M2', ('f8E5M2', 'ui8'): 'f8E5M2', ('f8E5M2', 'ui16'): 'f8E5M2', ('f8E5M2', 'ui32'): 'f8E5M2', ('f8E5M2', 'ui64'): 'f8E5M2', ('f8E5M2', 'f8E4M3FN'): 'f16', ('f8E5M2', 'f8E5M2'): 'f8E5M2', ('f8E5M2', 'f16'): 'f16', ('f8E5M2', 'bf16'): 'bf16', ('f8E5M2', 'f32'): 'f32', ('f8E5M2', 'f64'): 'f64', ('f8E5M2', 'complex<f32>'): 'complex<f32>', ('f8E5M2', 'complex<f64>'): 'complex<f64>', ('f16', 'i1'): 'f16', ('f16', 'si8'): 'f16', ('f16', 'si16'): 'f16', ('f16', 'si32'): 'f16', ('f16', 'si64'): 'f16', ('f16', 'ui8'): 'f16', ('f16', 'ui16'): 'f16', ('f16', 'ui32'): 'f16', ('f16', 'ui64'): 'f16', ('f16', 'f8E4M3FN'): 'f16', ('f16', 'f8E5M2'): 'f16', ('f16', 'f16'): 'f16', ('f16', 'bf16'): 'f32', ('f16', 'f32'): 'f32', ('f16', 'f64'): 'f64', ('f16', 'complex<f32>'): 'complex<f32>', ('f16', 'complex<f64>'): 'complex<f64>', ('bf16', 'i1'): 'bf16', ('bf16', 'si8'): 'bf16', ('bf16', 'si16'): 'bf16', ('bf16', 'si32'): 'bf16', ('bf16', 'si64'): 'bf16', ('bf16', 'ui8'): 'bf16', ('bf16', 'ui16'): 'bf16', ('bf16', 'ui32'): 'bf16', ('bf16', 'ui64'): 'bf16', ('bf16', 'f8E4M3FN'): 'bf16', ('bf16', 'f8E5M2'): 'bf16', ('bf16', 'f16'): 'f32', ('bf16', 'bf16'): 'bf16', ('bf16', 'f32'): 'f32', ('bf16', 'f64'): 'f64', ('bf16', 'complex<f32>'): 'complex<f32>', ('bf16', 'complex<f64>'): 'complex<f64>', ('f32', 'i1'): 'f32', ('f32', 'si8'): 'f32', ('f32', 'si16'): 'f32', ('f32', 'si32'): 'f32', ('f32', 'si64'): 'f32', ('f32', 'ui8'): 'f32', ('f32', 'ui16'): 'f32', ('f32', 'ui32'): 'f32', ('f32', 'ui64'): 'f32', ('f32', 'f8E4M3FN'): 'f32', ('f32', 'f8E5M2'): 'f32', ('f32', 'f16'): 'f32', ('f32', 'bf16'): 'f32', ('f32', 'f32'): 'f32', ('f32', 'f64'): 'f64', ('f32', 'complex<f32>'): 'complex<f32>', ('f32', 'complex<f64>'): 'complex<f64>', ('f64', 'i1'): 'f64', ('f64', 'si8'): 'f64', ('f64', 'si16'): 'f64', ('f64', 'si32'): 'f64', ('f64', 'si64'): 'f64', ('f64', 'ui8'): 'f64', ('f64', 'ui16'): 'f64', ('f64', 'ui32'): 'f64', ('f64', 'ui64'): 'f64', ('f64', 'f8E4M3FN'): 'f64', ('f64', 'f8E5M2'): 'f64', ('f64', 'f16'): 'f64', ('f64', 'bf16'): 'f64', ('f64', 'f32'): 'f64', ('f64', 'f64'): 'f64', ('f64', 'complex<f32>'): 'complex<f64>', ('f64', 'complex<f64>'): 'complex<f64>', ('complex<f32>', 'i1'): 'complex<f32>', ('complex<f32>', 'si8'): 'complex<f32>', ('complex<f32>', 'si16'): 'complex<f32>', ('complex<f32>', 'si32'): 'complex<f32>', ('complex<f32>', 'si64'): 'complex<f32>', ('complex<f32>', 'ui8'): 'complex<f32>', ('complex<f32>', 'ui16'): 'complex<f32>', ('complex<f32>', 'ui32'): 'complex<f32>', ('complex<f32>', 'ui64'): 'complex<f32>', ('complex<f32>', 'f8E4M3FN'): 'complex<f32>', ('complex<f32>', 'f8E5M2'): 'complex<f32>', ('complex<f32>', 'f16'): 'complex<f32>', ('complex<f32>', 'bf16'): 'complex<f32>', ('complex<f32>', 'f32'): 'complex<f32>', ('complex<f32>', 'f64'): 'complex<f64>', ('complex<f32>', 'complex<f32>'): 'complex<f32>', ('complex<f32>', 'complex<f64>'): 'complex<f64>', ('complex<f64>', 'i1'): 'complex<f64>', ('complex<f64>', 'si8'): 'complex<f64>', ('complex<f64>', 'si16'): 'complex<f64>', ('complex<f64>', 'si32'): 'complex<f64>', ('complex<f64>', 'si64'): 'complex<f64>', ('complex<f64>', 'ui8'): 'complex<f64>', ('complex<f64>', 'ui16'): 'complex<f64>', ('complex<f64>', 'ui32'): 'complex<f64>', ('complex<f64>', 'ui64'): 'complex<f64>', ('complex<f64>', 'f8E4M3FN'): 'complex<f64>', ('complex<f64>', 'f8E5M2'): 'complex<f64>', ('complex<f64>', 'f16'): 'complex<f64>', ('complex<f64>', 'bf16'): 'complex<f64>', ('complex<f64>', 'f32'): 'complex<f64>', ('complex<f64>', 'f64'): 'complex<f64>', ('complex<f64>', 'complex<f32>'): 'complex<f64>', ('complex<f64>', 'complex<f64>'): 'complex<f64>'},
    'minmax': {('i1', 'i1'): 'i1', ('i1', 'si8'): 'si8', ('i1', 'si16'): 'si16', ('i1', 'si32'): 'si32', ('i1', 'si64'): 'si64', ('i1', 'ui8'): 'ui8', ('i1', 'ui16'): 'ui16', ('i1', 'ui32'): 'ui32', ('i1', 'ui64'): 'ui64', ('i1', 'f8E4M3FN'): 'f8E4M3FN', ('i1', 'f8E5M2'): 'f8E5M2', ('i1', 'f16'): 'f16', ('i1', 'bf16'): 'bf16', ('i1', 'f32'): 'f32', ('i1', 'f64'): 'f64', ('i1', 'complex<f32>'): 'complex<f32>', ('i1', 'complex<f64>'): 'complex<f64>', ('si8', 'i1'): 'si8', ('si8', 'si8'): 'si8', ('si8', 'si16'): 'si16', ('si8', 'si32'): 'si32', ('si8', 'si64'): 'si64', ('si8', 'ui8'): 'si16', ('si8', 'ui16'): 'si32', ('si8', 'ui32'): 'si64', ('si8', 'f8E4M3FN'): 'f8E4M3FN', ('si8', 'f8E5M2'): 'f8E5M2', ('si8', 'f16'): 'f16', ('si8', 'bf16'): 'bf16', ('si8', 'f32'): 'f32', ('si8', 'f64'): 'f64', ('si8', 'complex<f32>'): 'complex<f32>', ('si8', 'complex<f64>'): 'complex<f64>', ('si16', 'i1'): 'si16', ('si16', 'si8'): 'si16', ('si16', 'si16'): 'si16', ('si16', 'si32'): 'si32', ('si16', 'si64'): 'si64', ('si16', 'ui8'): 'si16', ('si16', 'ui16'): 'si32', ('si16', 'ui32'): 'si64', ('si16', 'f8E4M3FN'): 'f8E4M3FN', ('si16', 'f8E5M2'): 'f8E5M2', ('si16', 'f16'): 'f16', ('si16', 'bf16'): 'bf16', ('si16', 'f32'): 'f32', ('si16', 'f64'): 'f64', ('si16', 'complex<f32>'): 'complex<f32>', ('si16', 'complex<f64>'): 'complex<f64>', ('si32', 'i1'): 'si32', ('si32', 'si8'): 'si32', ('si32', 'si16'): 'si32', ('si32', 'si32'): 'si32', ('si32', 'si64'): 'si64', ('si32', 'ui8'): 'si32', ('si32', 'ui16'): 'si32', ('si32', 'ui32'): 'si64', ('si32', 'f8E4M3FN'): 'f8E4M3FN', ('si32', 'f8E5M2'): 'f8E5M2', ('si32', 'f16'): 'f16', ('si32', 'bf16'): 'bf16', ('si32', 'f32'): 'f32', ('si32', 'f64'): 'f64', ('si32', 'complex<f32>'): 'complex<f32>', ('si32', 'complex<f64>'): 'complex<f64>', ('si64', 'i1'): 'si64', ('si64', 'si8'): 'si64', ('si64', 'si16'): 'si64', ('si64', 'si32'): 'si64', ('si64', 'si64'): 'si64', ('si64', 'ui8'): 'si64', ('si64', 'ui16'): 'si64', ('si64', 'ui32'): 'si64', ('si64', 'f8E4M3FN'): 'f8E4M3FN', ('si64', 'f8E5M2'): 'f8E5M2', ('si64', 'f16'): 'f16', ('si64', 'bf16'): 'bf16', ('si64', 'f32'): 'f32', ('si64', 'f64'): 'f64', ('si64', 'complex<f32>'): 'complex<f32>', ('si64', 'complex<f64>'): 'complex<f64>', ('ui8', 'i1'): 'ui8', ('ui8', 'si8'): 'si16', ('ui8', 'si16'): 'si16', ('ui8', 'si32'): 'si32', ('ui8', 'si64'): 'si64', ('ui8', 'ui8'): 'ui8', ('ui8', 'ui16'): 'ui16', ('ui8', 'ui32'): 'ui32', ('ui8', 'ui64'): 'ui64', ('ui8', 'f8E4M3FN'): 'f8E4M3FN', ('ui8', 'f8E5M2'): 'f8E5M2', ('ui8', 'f16'): 'f16', ('ui8', 'bf16'): 'bf16', ('ui8', 'f32'): 'f32', ('ui8', 'f64'): 'f64', ('ui8', 'complex<f32>'): 'complex<f32>', ('ui8', 'complex<f64>'): 'complex<f64>', ('ui16', 'i1'): 'ui16', ('ui16', 'si8'): 'si32', ('ui16', 'si16'): 'si32', ('ui16', 'si32'): 'si32', ('ui16', 'si64'): 'si64', ('ui16', 'ui8'): 'ui16', ('ui16', 'ui16'): 'ui16', ('ui16', 'ui32'): 'ui32', ('ui16', 'ui64'): 'ui64', ('ui16', 'f8E4M3FN'): 'f8E4M3FN', ('ui16', 'f8E5M2'): 'f8E5M2', ('ui16', 'f16'): 'f16', ('ui16', 'bf16'): 'bf16', ('ui16', 'f32'): 'f32', ('ui16', 'f64'): 'f64', ('ui16', 'complex<f32>'): 'complex<f32>', ('ui16', 'complex<f64>'): 'complex<f64>', ('ui32', 'i1'): 'ui32', ('ui32', 'si8'): 'si64', ('ui32', 'si16'): 'si64', ('ui32', 'si32'): 'si64', ('ui32', 'si64'): 'si64', ('ui32', 'ui8'): 'ui32', ('ui32', 'ui16'): 'ui32', ('ui32', 'ui32'): 'ui32', ('ui32', 'ui64'): 'ui64', ('ui32', 'f8E4M3FN'): 'f8E4M3FN', ('ui32', 'f8E5M2'): 'f8E5M2', ('ui32', 'f16'): 'f16', ('ui32', 'bf16'): 'bf16', ('ui32', 'f32'): 'f32', ('ui32', 'f64'): 'f64', ('ui32', 'complex<f32>'): 'complex<f32>', ('ui32', 'complex<f64>'): 'complex<f64>', ('ui64', 'i1'): 'ui64', ('ui64', 'ui8'): 'ui64', ('ui64', 'ui16'): 'ui64', ('ui64', 'ui32'): 'ui64', ('ui64', 'ui64'): 'ui64', ('ui64', 'f8E4M3FN'): 'f8E4M3FN', ('ui64', 'f8E5M2'): 'f8E5M2', ('ui64', 'f16'): 'f16', ('ui64', 'bf16'): 'bf16', ('ui64', 'f32'): 'f32', ('ui64', 'f64'): 'f64', ('ui64', 'complex<f32>'): 'complex<f32>', ('ui64', 'complex<f64>'): 'complex<f64>', ('f8E4M3FN', 'i1'): 'f8E4M3FN', ('f8E4M3FN', 'si8'): 'f8E4M3FN', ('f8E4M3FN', 'si16'): 'f8E4M3FN', ('f8E4M3FN', 'si32'): 'f8E4M3FN', ('f8E4M3FN', 'si64'): 'f8E4M3FN', ('f8E4M3FN', 'ui8'): 'f8E4M3FN', ('f8E4M3FN', 'ui16'): 'f8E4M3FN', ('f8E4M3FN', 'ui32'): 'f8E4M3FN', ('f8E4M3FN', 'ui64'): 'f8E4M3FN', ('f8E4M3FN', 'f8E4M3FN'): 'f8E4M3FN', ('f8E4M3FN', 'f8E5M2'): 'f16', ('f8E4M3FN', 'f16'): 'f16', ('f8E4M3FN', 'bf16'): 'bf16', ('f8E4M3FN', 'f32'): 'f32', ('f8E4M3FN', 'f64'): 'f64', ('f8E4M3FN', 'complex<f32>'): 'complex<f32>', ('f8E4M3FN', 'complex<f64>'): 'complex<f64>', ('f8E5M2', 'i1'): 'f8E5M2', ('f8E5M2', 'si8'): 'f8E5M2', ('f8E5M2', 'si16'): 'f8E5M2', ('f8E5M2', 'si32'): 'f8E5M2', ('f8E5M2', 'si64'): 'f8E5M2', ('f8E5M2', 'ui8'): 'f8E5M2', ('f8E5M2', 'ui16'): 'f8E5M2', ('f8E5M2', 'ui32'): 'f8E5M2', ('f8E5M2', 'ui64'): 'f8E5M2', ('f8E5M2', 'f8E4M3FN'): 'f16', ('f8E5M2', 'f8E5M2'): 'f8E5M2', ('f8E5M2', 'f16'): 'f16', ('f8E5M2', 'bf16'): 'bf16', ('f8E5M2', 'f32'): 'f32', ('f8E5M2', 'f64'): 'f64', ('f8E5M2', 'complex<f32>'): 'complex<f32>', ('f8E5M2', 'complex<f64>'): 'complex<f64>', ('f16', 'i1'): 'f16', ('f16', 'si8'): 'f16', ('f16', 'si16'): 'f16', ('f16', 'si32'): 'f16', ('f16', 'si64'): 'f16', ('f16', 'ui8'): 'f16', ('f16', 'ui16'): 'f16', ('f16', 'ui32'): 'f16', ('f16', 'ui64'): 'f16', ('f16', 'f8E4M3FN'): 'f16', ('f16', 'f8E5M2'): 'f16', ('f16', 'f16'): 'f16', ('f16', 'bf16'): 'f32', ('f16', 'f32'): 'f32', ('f16', 'f64'): 'f64', ('f16', 'complex<f32>'): 'complex<f32>', ('f16', 'complex<f64>'): 'complex<f64>', ('bf16', 'i1'): 'bf16', ('bf16', 'si8'): 'bf16', ('bf16', 'si16'): 'bf16', ('bf16', 'si32'): 'bf16', ('bf16', 'si64'): 'bf16', ('bf16', 'ui8'): 'bf16', ('bf16', 'ui16'): 'bf16', ('bf16', 'ui32'): 'bf16', ('bf16', 'ui64'): 'bf16', ('bf16', 'f8E4M3FN'): 'bf16', ('bf16', 'f8E5M2'): 'bf16', ('bf16', 'f16'): 'f32', ('bf16', 'bf16'): 'bf16', ('bf16', 'f32'): 'f32', ('bf16', 'f64'): 'f64', ('bf16', 'complex<f32>'): 'complex<f32>', ('bf16', 'complex<f64>'): 'complex<f64>', ('f32', 'i1'): 'f32', ('f32', 'si8'): 'f32', ('f32', 'si16'): 'f32', ('f32', 'si32'): 'f32', ('f32', 'si64'): 'f32', ('f32', 'ui8'): 'f32', ('f32', 'ui16'): 'f32', ('f32', 'ui32'): 'f32', ('f32', 'ui64'): 'f32', ('f32', 'f8E4M3FN'): 'f32', ('f32', 'f8E5M2'): 'f32', ('f32', 'f16'): 'f32', ('f32', 'bf16'): 'f32', ('f32', 'f32'): 'f32', ('f32', 'f64'): 'f64', ('f32', 'complex<f32>'): 'complex<f32>', ('f32', 'complex<f64>'): 'complex<f64>', ('f64', 'i1'): 'f64', ('f64', 'si8'): 'f64', ('f64', 'si16'): 'f64', ('f64', 'si32'): 'f64', ('f64', 'si64'): 'f64', ('f64', 'ui8'): 'f64', ('f64', 'ui16'): 'f64', ('f64', 'ui32'): 'f64', ('f64', 'ui64'): 'f64', ('f64', 'f8E4M3FN'): 'f64', ('f64', 'f8E5M2'): 'f64', ('f64', 'f16'): 'f64', ('f64', 'bf16'): 'f64', ('f64', 'f32'): 'f64', ('f64', 'f64'): 'f64', ('f64', 'complex<f32>'): 'complex<f64>', ('f64', 'complex<f64>'): 'complex<f64>', ('complex<f32>', 'i1'): 'complex<f32>', ('complex<f32>', 'si8'): 'complex<f32>', ('complex<f32>', 'si16'): 'complex<f32>', ('complex<f32>', 'si32'): 'complex<f32>', ('complex<f32>', 'si64'): 'complex<f32>', ('complex<f32>', 'ui8'): 'complex<f32>', ('complex<f32>', 'ui16'): 'complex<f32>', ('complex<f32>', 'ui32'): 'complex<f32>', ('complex<f32>', 'ui64'): 'complex<f32>', ('complex<f32>', 'f8E4M3FN'): 'complex<f32>', ('complex<f32>', 'f8E5M2'): 'complex<f32>', ('complex<f32>', 'f16'): 'complex<f32>', ('complex<f32>', 'bf16'): 'complex<f32>', ('complex<f32>', 'f32'): 'complex<f32>', ('complex<f32>', 'f64'): 'complex<f64>', ('complex<f32>', 'complex<f32>'): 'complex<f32>', ('complex<f32>', 'complex<f64>'): 'complex<f64>', ('complex<f64>', 'i1'): 'complex<f64>', ('complex<f64>', 'si8'): 'complex<f64>', ('complex<f64>', 'si16'): 'complex<f64>', ('complex<f64>', 'si32'): 'complex<f64>', ('complex<f64>', 'si64'): 'complex<f64>', ('complex<f64>', 'ui8'): 'complex<f64>', ('complex<f64>', 'ui16'): 'complex<f64>', ('complex<f64>', 'ui32'): 'complex<f64>', ('complex<f64>', 'ui64'): 'complex<f64>', ('complex<f64>', 'f8E4M3FN'): 'complex<f64>', ('complex<f64>', 'f8E5M2'): 'complex<f64>', ('complex<f64>', 'f16'): 'complex<f64>', ('complex<f64>', 'bf16'): 'complex<f64>', ('complex<f64>', 'f32'): 'complex<f64>', ('complex<f64>', 'f64'): 'complex<f64>', ('complex<f64>', 'complex<f32>'): 'complex<f64>', ('complex<f64>', 'complex<f64>'): 'complex<f64>'},
    'truediv': {('i1', 'i1'): 'f32', ('i1', 'si8'): 'f32', ('i1', 'si16'): 'f32', ('i1', 'si32'): 'f32', ('i1', 'si64'): 'f64', ('i1', 'ui8'): 'f32', ('i1', 'ui16'): 'f32', ('i1', 'ui32'): 'f32', ('i1', 'ui64'): 'f64', ('i1', 'f8E4M3FN'): 'f8E4M3FN', ('i1', 'f8E5M2'): 'f8E5M2', ('i1', 'f16'): 'f16', ('i1', 'bf16'): 'bf16', ('i1', 'f32'): 'f32', ('i1', 'f64'): 'f64', ('i1', 'complex<f32>'): 'complex<f32>', ('i1', 'complex<f64>'): 'complex<f64>', ('si8', 'i1'): 'f32', ('si8', 'si8'): 'f32', ('si8', 'si16'): 'f32', ('si8', 'si32'): 'f32', ('si8', 'si64'): 'f64', ('si8', 'ui8'): 'f32', ('si8', 'ui16'): 'f32', ('si8', 'ui32'): 'f64', ('si8', 'f8E4M3FN'): 'f8E4M3FN', ('si8', 'f8E5M2'): 'f8E5M2', ('si8', 'f16'): 'f16', ('si8', 'bf16'): 'bf16', ('si8', 'f32'): 'f32', ('si8', 'f64'): 'f64', ('si8', 'complex<f32>'): 'complex<f32>', ('si8', 'complex<f64>'): 'complex<f64>', ('si16', 'i1'): 'f32', ('si16', 'si8'): 'f32', ('si16', 'si16'): 'f32', ('si16', 'si32'): 'f32', ('si16', 'si64'): 'f64', ('si16', 'ui8'): 'f32', ('si16', 'ui16'): 'f32', ('si16', 'ui32'): 'f64', ('si16', 'f8E4M3FN'): 'f8E4M3FN', ('si16', 'f8E5M2'): 'f8E5M2', ('si16', 'f16'): 'f16', ('si16', 'bf16'): 'bf16', ('si16', 'f32'): 'f32', ('si16', 'f64'): 'f64', ('si16', 'complex<f32>'): 'complex<f32>', ('si16', 'complex<f64>'): 'complex<f64>', ('si32', 'i1'): 'f32', ('si32', 'si8'): 'f32', ('si32', 'si16'): 'f32', ('si32', 'si32'): 'f32', ('si32', 'si64'): 'f64', ('si32', 'ui8'): 'f32', ('si32', 'ui16'): 'f32', ('si32', 'ui32'): 'f64', ('si32', 'f8E4M3FN'): 'f8E4M3FN', ('si32', 'f8E5M2'): 'f8E5M2', ('si32', 'f16'): 'f16', ('si32', 'bf16'): 'bf16', ('si32', 'f32'): 'f32', ('si32', 'f64'): 'f64', ('si32', 'complex<f32>'): 'complex<f32>', ('si32', 'complex<f64>'): 'complex<f64>', ('si64', 'i1'): 'f64', ('si64', 'si8'): 'f64', ('si64', 'si16'): 'f64', ('si64', 'si32'): 'f64', ('si64', 'si64'): 'f64', ('si64', 'ui8'): 'f64', ('si64', 'ui16'): 'f64', ('si64', 'ui32'): 'f64', ('si64', 'f8E4M3FN'): 'f8E4M3FN', ('si64', 'f8E5M2'): 'f8E5M2', ('si64', 'f16'): 'f16', ('si64', 'bf16'): 'bf16', ('si64', 'f32'): 'f32', ('si64', 'f64'): 'f64', ('si64', 'complex<f32>'): 'complex<f32>', ('si64', 'complex<f64>'): 'complex<f64>', ('ui8', 'i1'): 'f32', ('ui8', 'si8'): 'f32', ('ui8', 'si16'): 'f32', ('ui8', 'si32'): 'f32', ('ui8', 'si64'): 'f64', ('ui8', 'ui8'): 'f32', ('ui8', 'ui16'): 'f32', ('ui8', 'ui32'): 'f32', ('ui8', 'ui64'): 'f64', ('ui8', 'f8E4M3FN'): 'f8E4M3FN', ('ui8', 'f8E5M2'): 'f8E5M2', ('ui8', 'f16'): 'f16', ('ui8', 'bf16'): 'bf16', ('ui8', 'f32'): 'f32', ('ui8', 'f64'): 'f64', ('ui8', 'complex<f32>'): 'complex<f32>', ('ui8', 'complex<f64>'): 'complex<f64>', ('ui16', 'i1'): 'f32', ('ui16', 'si8'): 'f32', ('ui16', 'si16'): 'f32', ('ui16', 'si32'): 'f32', ('ui16', 'si64'): 'f64', ('ui16', 'ui8'): 'f32', ('ui16', 'ui16'): 'f32', ('ui16', 'ui32'): 'f32', ('ui16', 'ui64'): 'f64', ('ui16', 'f8E4M3FN'): 'f8E4M3FN', ('ui16', 'f8E5M2'): 'f8E5M2', ('ui16', 'f16'): 'f16', ('ui16', 'bf16'): 'bf16', ('ui16', 'f32'): 'f32', ('ui16', 'f64'): 'f64', ('ui16', 'complex<f32>'): 'complex<f32>', ('ui16', 'complex<f64>'): 'complex<f64>', ('ui32', 'i1'): 'f32', ('ui32', 'si8'): 'f64', ('ui32', 'si16'): 'f64', ('ui32', 'si32'): 'f64', ('ui32', 'si64'): 'f64', ('ui32', 'ui8'): 'f32', ('ui32', 'ui16'): 'f32', ('ui32', 'ui32'): 'f32', ('ui32', 'ui64'): 'f64', ('ui32', 'f8E4M3FN'): 'f8E4M3FN', ('ui32', 'f8E5M2'): 'f8E5M2', ('ui32', 'f16'): 'f16', ('ui32', 'bf16'): 'bf16', ('ui32', 'f32'): 'f32', ('ui32', 'f64'): 'f64', ('ui32', 'complex<f32>'): 'complex<f32>', ('ui32', 'complex<f64>'): 'complex<f64>', ('ui64', 'i1'): 'f64', ('ui64', 'ui8'): 'f64', ('ui64', 'ui16'): 'f64', ('ui64', 'ui32'): 'f64', ('ui64', 'ui64'): 'f64', ('ui64', 'f8E4M3FN'): 'f8E4M3FN', ('ui64', 'f8E5M2'): 'f8E5M2', ('ui64', 'f16'): 'f16', ('ui64', 'bf16'): 'bf16', ('ui64', 'f32'): 'f32', ('ui64', 'f64'): 'f64', ('ui64', 'complex<f32>'): 'complex<f32>', ('ui64', 'complex<f64>'): 'complex<f64>', ('f8E4M3FN', 'i1'): 'f8E4M3FN', ('f8E4M3FN', 'si8'): 'f8E4M3FN', ('f8E4M3FN', 'si16'): 'f8E4M3FN', ('f8E4M3FN', 'si32'): 'f8E4M3FN', ('f8E4M3FN', 'si64'): 'f8E4M3FN', ('f8E4M3FN', 'ui8'): 'f8E4M3FN', ('f8E4M3FN', 'ui16'): 'f8E4M3FN', ('f8E4M3FN', 'ui32'): 'f8E4M3FN', ('f8E4M3FN', 'ui64'): 'f8E4M3FN', ('f8E4M3FN', 'f8E4M3FN'): 'f8E4M3FN', ('f8E4M3FN', 'f8E5M2'): 'f16', ('f8E4M3FN', 'f16'): 'f16', ('f8E4M3FN', 'bf16'): 'bf16', ('f8E4M3FN', 'f32'): 'f32', ('f8E4M3FN', 'f64'): 'f64', ('f8E4M3FN', 'complex<f32>'): 'complex<f32>', ('f8E4M3FN', 'complex<f64>'): 'complex<f64>', ('f8E5M2', 'i1'): 'f8E5M2', ('f8E5M2', 'si8'): 'f8E5M2', ('f8E5M2', 'si16'): 'f8E5M2', ('f8E5M2', 'si32'): 'f8E5M2', ('f8E5M2', 'si64'): 'f8E5M2', ('f8E5M2', 'ui8'): 'f8E5M2', ('f8E5M2', 'ui16'): 'f8E5M2', ('f8E5M2', 'ui32'): 'f8E5M2', ('f8E5M2', 'ui64'): 'f8E5M2', ('f8E5M2', 'f8E4M3FN'): 'f16', ('f8E5M2', 'f8E5M2'): 'f8E5M2', ('f8E5M2', 'f16'): 'f16', ('f8E5M2', 'bf16'): 'bf16', ('f8E5M2', 'f32'): 'f32', ('f8E5M2', 'f64'): 'f64', ('f8E5M2', 'complex<f32>'): 'complex<f32>', ('f8E5M2', 'complex<f64>'): 'complex<f64>', ('f16', 'i1'): 'f16', ('f16', 'si8'): 'f16', ('f16', 'si16'): 'f16', ('f16', 'si32'): 'f16', ('f16', 'si64'): 'f16', ('f16', 'ui8'): 'f16', ('f16', 'ui16'): 'f16', ('f16', 'ui32'): 'f16', ('f16', 'ui64'): 'f16', ('f16', 'f8E4M3FN'): 'f16', ('f16', 'f8E5M2'): 'f16', ('f16', 'f16'): 'f16', ('f16', 'bf16'): 'f32', ('f16', 'f32'): 'f32', ('f16', 'f64'): 'f64', ('f16', 'complex<f32>'): 'complex<f32>', ('f16', 'complex<f64>'): 'complex<f64>', ('bf16', 'i1'): 'bf16', ('bf16', 'si8'): 'bf16', ('bf16', 'si16'): 'bf16', ('bf16', 'si32'): 'bf16', ('bf16', 'si64'): 'bf16', ('bf16', 'ui8'): 'bf16', ('bf16', 'ui16'): 'bf16', ('bf16', 'ui32'): 'bf16', ('bf16', 'ui64'): 'bf16', ('bf16', 'f8E4M3FN'): 'bf16', ('bf16', 'f8E5M2'): 'bf16', ('bf16', 'f16'): 'f32', ('bf16', 'bf16'): 'bf16', ('bf16', 'f32'): 'f32', ('bf16', 'f64'): 'f64', ('bf16', 'complex<f32>'): 'complex<f32>', ('bf16', 'complex<f64>'): 'complex<f64>', ('f32', 'i1'): 'f32', ('f32', 'si8'): 'f32', ('f32', 'si16'): 'f32', ('f32', 'si32'): 'f32', ('f32', 'si64'): 'f32', ('f32', 'ui8'): 'f32', ('f32', 'ui16'): 'f32', ('f32', 'ui32'): 'f32', ('f32', 'ui64'): 'f32', ('f32', 'f8E4M3FN'): 'f32', ('f32', 'f8E5M2'): 'f32', ('f32', 'f16'): 'f32', ('f32', 'bf16'): 'f32', ('f32', 'f32'): 'f32', ('f32', 'f64'): 'f64', ('f32', 'complex<f32>'): 'complex<f32>', ('f32', 'complex<f64>'): 'complex<f64>', ('f64', 'i1'): 'f64', ('f64', 'si8'): 'f64', ('f64', 'si16'): 'f64', ('f64', 'si32'): 'f64', ('f64', 'si64'): 'f64', ('f64', 'ui8'): 'f64', ('f64', 'ui16'): 'f64', ('f64', 'ui32'): 'f64', ('f64', 'ui64'): 'f64', ('f64', 'f8E4M3FN'): 'f64', ('f64', 'f8E5M2'): 'f64', ('f64', 'f16'): 'f64', ('f64', 'bf16'): 'f64', ('f64', 'f32'): 'f64', ('f64', 'f64'): 'f64', ('f64', 'complex<f32>'): 'complex<f64>', ('f64', 'complex<f64>'): 'complex<f64>', ('complex<f32>', 'i1'): 'complex<f32>', ('complex<f32>', 'si8'): 'complex<f32>', ('complex<f32>', 'si16'): 'complex<f32>', ('complex<f32>', 'si32'): 'complex<f32>', ('complex<f32>', 'si64'): 'complex<f32>', ('complex<f32>', 'ui8'): 'complex<f32>', ('complex<f32>', 'ui16'): 'complex<f32>', ('complex<f32>', 'ui32'): 'complex<f32>', ('complex<f32>', 'ui64'): 'complex<f32>', ('complex<f32>', 'f8E4M3FN'): 'complex<f32>', ('complex<f32>', 'f8E5M2'): 'complex<f32>', ('complex<f32>', 'f16'): 'complex<f32>', ('complex<f32>', 'bf16'): 'complex<f32>', ('complex<f32>', 'f32'): 'complex<f32>', ('complex<f32>', 'f64'): 'complex<f64>', ('complex<f32>', 'complex<f32>'): 'complex<f32>', ('complex<f32>', 'complex<f64>'): 'complex<f64>', ('complex<f64>', 'i1'): 'complex<f64>', ('complex<f64>', 'si8'): 'complex<f64>', ('complex<f64>', 'si16'): 'complex<f64>', ('complex<f64>', 'si32'): 'complex<f64>', ('complex<f64>', 'si64'): 'complex<f64>', ('complex<f64>', 'ui8'): 'complex<f64>', ('complex<f64>', 'ui16'): 'complex<f64>', ('complex<f64>', 'ui32'): 'complex<f64>', ('complex<f64>', 'ui64'): 'complex<f64>', ('complex<f64>', 'f8E4M3FN'): 'complex<f64>', ('complex<f64>', 'f8E5M2'): 'complex<f64>', ('complex<f64>', 'f16'): 'complex<f64>', ('complex<f64>', 'bf16'): 'complex<f64>', ('complex<f64>', 'f32'): 'complex<f64>', ('complex<f64>', 'f64'): 'complex<f64>', ('complex<f64>', 'complex<f32>'): 'complex<f64>', ('complex<f64>', 'complex<f64>'): 'complex<f64>'},
    'bitwise': {('i1', 'i1'): 'i1', ('i1', 'si8'): 'si8', ('i1', 'si16'): 'si16', ('i1', 'si32'): 'si32', ('i1', 'si64'): 'si64', ('i1', 'ui8'): 'ui8', ('i1', 'ui16'): 'ui16', ('i1', 'ui32'): 'ui32', ('i1', 'ui64'): 'ui64', ('si8', 'i1'): 'si8', ('si8', 'si8'): 'si8', ('si8', 'si16'): 'si16', ('si8', 'si32'): 'si32', ('si8', 'si64'): 'si64', ('si8', 'ui8'): 'si16', ('si8', 'ui16'): 'si32', ('si8', 'ui32'): 'si64', ('si16', 'i1'): 'si16', ('si16', 'si8'): 'si16', ('si16', 'si16'): 'si16', ('si16', 'si32'): 'si32', ('si16', 'si64'): 'si64', ('si16', 'ui8'): 'si16', ('si16', 'ui16'): 'si32', ('si16', 'ui32'): 'si64', ('si32', 'i1'): 'si32', ('si32', 'si8'): 'si32', ('si32', 'si16'): 'si32', ('si32', 'si32'): 'si32', ('si32', 'si64'): 'si64', ('si32', 'ui8'): 'si32', ('si32', 'ui16'): 'si32', ('si32', 'ui32'): 'si64', ('si64', 'i1'): 'si64', ('si64', 'si8'): 'si64', ('si64', 'si16'): 'si64', ('si64', 'si32'): 'si64', ('si64', 'si64'): 'si64', ('si64', 'ui8'): 'si64', ('si64', 'ui16'): 'si64', ('si64', 'ui32'): 'si64', ('ui8', 'i1'): 'ui8', ('ui8', 'si8'): 'si16', ('ui8', 'si16'): 'si16', ('ui8', 'si32'): 'si32', ('ui8', 'si64'): 'si64', ('ui8', 'ui8'): 'ui8', ('ui8', 'ui16'): 'ui16', ('ui8', 'ui32'): 'ui32', ('ui8', 'ui64'): 'ui64', ('ui16', 'i1'): 'ui16', ('ui16', 'si8'): 'si32', ('ui16', 'si16'): 'si32', ('ui16', 'si32'): 'si32', ('ui16', 'si64'): 'si64', ('ui16', 'ui8'): 'ui16', ('ui16', 'ui16'): 'ui16', ('ui16', 'ui32'): 'ui32', ('ui16', 'ui64'): 'ui64', ('ui32', 'i1'): 'ui32', ('ui32', 'si8'): 'si64', ('ui32', 'si16'): 'si64', ('ui32', 'si32'): 'si64', ('ui32', 'si64'): 'si64', ('ui32', 'ui8'): 'ui32', ('ui32', 'ui16'): 'ui32', ('ui32', 'ui32'): 'ui32', ('ui32', 'ui64'): 'ui64', ('ui64', 'i1'): 'ui64', ('ui64', 'ui8'): 'ui64', ('ui64', 'ui16'): 'ui64', ('ui64', 'ui32'): 'ui64', ('ui64', 'ui64'): 'ui64'},
    'shift': {('i1', 'i1'): 'si32', ('i1', 'si8'): 'si8', ('i1', 'si16'): 'si16', ('i1', 'si32'): 'si32', ('i1', 'si64'): 'si64', ('i1', 'ui8'): 'ui8', ('i1', 'ui16'): 'ui16', ('i1', 'ui32'): 'ui32', ('i1', 'ui64'): 'ui64', ('si8', 'i1'): 'si8', ('si8', 'si8'): 'si8', ('si8', 'si16'): 'si16', ('si8', 'si32'): 'si32', ('si8', 'si64'): 'si64', ('si8', 'ui8'): 'si16', ('si8', 'ui16'): 'si32', ('si8', 'ui32'): 'si64', ('si16', 'i1'): 'si16', ('si16', 'si8'): 'si16', ('si16', 'si16'): 'si16', ('si16', 'si32'): 'si32', ('si16', 'si64'): 'si64', ('si16', 'ui8'): 'si16', ('si16', 'ui16'): 'si32', ('si16', 'ui32'): 'si64', ('si32', 'i1'): 'si32', ('si32', 'si8'): 'si32', ('si32', 'si16'): 'si32', ('si32', 'si32'): 'si32', ('si32', 'si64'): 'si64', ('si32', 'ui8'): 'si32', ('si32', 'ui16'): 'si32', ('si32', 'ui32'): 'si64', ('si64', 'i1'): 'si64', ('si64', 'si8'): 'si64', ('si64', 'si16'): 'si64', ('si64', 'si32'): 'si64', ('si64', 'si64'): 'si64', ('si64', 'ui8'): 'si64', ('si64', 'ui16'): 'si64', ('si64', 'ui32'): 'si64', ('ui8', 'i1'): 'ui8', ('ui8', 'si8'): 'si16', ('ui8', 'si16'): 'si16', ('ui8', 'si32'): 'si32', ('ui8', 'si64'): 'si64', ('ui8', 'ui8'): 'ui8', ('ui8', 'ui16'): 'ui16', ('ui8', 'ui32'): 'ui32', ('ui8', 'ui64'): 'ui64', ('ui16', 'i1'): 'ui16', ('ui16', 'si8'): 'si32', ('ui16', 'si16'): 'si32', ('ui16', 'si32'): 'si32', ('ui16', 'si64'): 'si64', ('ui16', 'ui8'): 'ui16', ('ui16', 'ui16'): 'ui16', ('ui16', 'ui32'): 'ui32', ('ui16', 'ui64'): 'ui64', ('ui32', 'i1'): 'ui32', ('ui32', 'si8'): 'si64', ('ui32', 'si16'): 'si64', ('ui32', 'si32'): 'si64', ('ui32', 'si64'): 'si64', ('ui32', 'ui8'): 'ui32', ('ui32', 'ui16'): 'ui32', ('ui32', 'ui32'): 'ui32', ('ui32', 'ui64'): 'ui64', ('ui64', 'i1'): 'ui64', ('ui64', 'ui8'): 'ui64', ('ui64', 'ui16'): 'ui64', ('ui64', 'ui32'): 'ui64', ('ui64', 'ui64'): 'ui64'},
}
