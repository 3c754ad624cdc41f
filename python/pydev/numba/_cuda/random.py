"""`pydev.numba.cuda.random`: Numba-CUDA's xoroshiro128+ generator.

The same algorithm and API as `numba.cuda.random` (xoroshiro128+ with
splitmix64 seeding, one state per thread, each state 2**64 steps after the
previous one), written here in Numba syntax and compiled by pydev.numba;
streams of numbers equal Numba's for the same seed. The states are
initialised by a one-thread kernel on the active target."""

import math

import numpy as np

from . import jit
from .. import types as _t
from ..types import float32, float64, int64, uint32, uint64

__all__ = [
    "xoroshiro128p_dtype",
    "create_xoroshiro128p_states",
    "init_xoroshiro128p_states",
    "xoroshiro128p_uniform_float32",
    "xoroshiro128p_uniform_float64",
    "xoroshiro128p_normal_float32",
    "xoroshiro128p_normal_float64",
    "xoroshiro128p_next",
    "xoroshiro128p_jump",
]

xoroshiro128p_dtype = np.dtype([("s0", np.uint64), ("s1", np.uint64)], align=True)
xoroshiro128p_type = _t.from_dtype(xoroshiro128p_dtype)

_SPLITMIX_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_JUMP0 = np.uint64(0xBEAC0467EBA5FACB)
_JUMP1 = np.uint64(0xD86B048B86AA9922)
_TWO_PI_F32 = np.float32(2 * math.pi)
_TWO_PI_F64 = np.float64(2 * math.pi)


@jit(device=True)
def _seed_state(states, index, seed):
    # splitmix64 of the seed, in both words
    z = seed + _SPLITMIX_GAMMA
    z = (z ^ (z >> uint32(30))) * _MIX1
    z = (z ^ (z >> uint32(27))) * _MIX2
    z = z ^ (z >> uint32(31))
    states[index].s0 = z
    states[index].s1 = z


@jit(device=True)
def _rotl(x, k):
    return (x << k) | (x >> uint32(64 - k))


@jit(device=True)
def xoroshiro128p_next(states, index):
    """The next 64-bit number of state `index` (advances it)."""
    i = int64(index)
    a = states[i].s0
    b = states[i].s1
    result = a + b
    b ^= a
    states[i].s0 = _rotl(a, uint32(55)) ^ b ^ (b << uint32(14))
    states[i].s1 = _rotl(b, uint32(36))
    return result


@jit(device=True)
def xoroshiro128p_jump(states, index):
    """Advances state `index` by 2**64 steps."""
    i = int64(index)
    s0 = uint64(0)
    s1 = uint64(0)
    for w in range(2):
        word = _JUMP0 if w == 0 else _JUMP1
        for bit in range(64):
            if word & (uint64(1) << uint32(bit)):
                s0 ^= states[i].s0
                s1 ^= states[i].s1
            xoroshiro128p_next(states, i)
    states[i].s0 = s0
    states[i].s1 = s1


@jit(device=True)
def _unit_float64(x):
    return (x >> uint32(11)) * (float64(1) / (uint64(1) << uint32(53)))


@jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform in [0, 1) from state `index`."""
    return float32(_unit_float64(xoroshiro128p_next(states, index)))


@jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform in [0, 1) from state `index`."""
    return _unit_float64(xoroshiro128p_next(states, index))


@jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A float32 standard normal (Box-Muller, the first of the pair)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float32(2.0) * math.log(u1)) * math.cos(_TWO_PI_F32 * u2)


@jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A float64 standard normal (Box-Muller, the first of the pair). As in
    Numba, its two uniforms are float32 draws (so the streams agree)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-float64(2.0) * math.log(u1)) * math.cos(_TWO_PI_F64 * u2)


@jit
def _init_states(states, seed, subsequence_start):
    n = states.shape[0]
    if n >= 1:
        _seed_state(states, 0, seed)
        k = uint64(0)
        while k < subsequence_start:
            xoroshiro128p_jump(states, 0)
            k += uint64(1)
        for i in range(1, n):
            states[i] = states[i - 1]
            xoroshiro128p_jump(states, i)


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Seeds `states` (an array of xoroshiro128p_dtype) in place."""
    _init_states[1, 1, stream](states, np.uint64(int(seed) & (2**64 - 1)), np.uint64(subsequence_start))


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A device array of `n` generator states seeded from `seed`."""
    from . import device_array

    states = device_array(n, dtype=xoroshiro128p_dtype, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states
