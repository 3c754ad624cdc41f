"""Numba's ABI for foreign device functions (`cuda.declare_device(...,
abi="numba")`, numba-cuda's default): `extern "C" __device__ int f(T* ret,
args...)`, the result through a pointer to a local and the int a status.

pydev IR has no pointers, so pydev.numba calls such a function through a
small C-ABI adapter it generates, linked with the kernel as any `.cu` link
file (NVRTC and nvJitLink on cuda, clang on the host):

    extern "C" __device__ int f(float *ret, int a0);
    extern "C" __device__ float __pydev_numba_abi_f(int a0) { float r; f(&r, a0); return r; }

The status is not read: a foreign function raises no Python exception (as
numba-cuda's documentation says, the callee returns 0)."""

from .. import types as _t

PREFIX = "__pydev_numba_abi_"

# The C type of each number type that crosses the ABI.
C_TYPES = {
    _t.boolean: "bool",
    _t.int8: "signed char",
    _t.uint8: "unsigned char",
    _t.int16: "short",
    _t.uint16: "unsigned short",
    _t.int32: "int",
    _t.uint32: "unsigned int",
    _t.int64: "long long",
    _t.uint64: "unsigned long long",
    _t.float32: "float",
    _t.float64: "double",
}


def unsupported(sig):
    """The first type of `sig` that cannot cross this ABI in pydev.numba, or None."""
    ret = [] if isinstance(sig.return_type, _t.NoneType) else [sig.return_type]
    for t in list(sig.args) + ret:
        if t not in C_TYPES:
            return t
    return None


def adapter(name, sig):
    """(the adapter's symbol, its CUDA C++ source) for function `name` of
    signature `sig` (every type in C_TYPES)."""
    void = isinstance(sig.return_type, _t.NoneType)
    ret = "char" if void else C_TYPES[sig.return_type]  # a void result still gets a pointer
    params = [f"{C_TYPES[t]} a{i}" for i, t in enumerate(sig.args)]
    names = [f"a{i}" for i in range(len(sig.args))]
    symbol = PREFIX + name
    body = f"{ret} r; {name}({', '.join(['&r'] + names)});" + ("" if void else " return r;")
    src = (
        f'extern "C" __device__ int {name}({", ".join([f"{ret} *ret"] + params)});\n'
        f'extern "C" __device__ {"void" if void else ret} {symbol}({", ".join(params)}) {{ {body} }}\n'
    )
    return symbol, src
