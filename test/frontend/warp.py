# Thread warp synchronization (spec: Thread Warp Synchronization): masks,
# votes with predicates, shuffles of each kind on int32, float32, float64 and
# small aggregates, match_any/match_all, WarpMask bits, and
# machine_representation().
# RUN: pydevc %s --kernel votes --signature 'int32[:], int32[:]' --emit pydev | FileCheck %s --check-prefix=VOTES
# RUN: pydevc %s --kernel shuffles --signature 'int32[:], float32[:], float64[:], float64[:]' --emit pydev | FileCheck %s --check-prefix=SHUFFLES
# RUN: pydevc %s --kernel shuffle_values --signature 'float32[:], float32[:]' --emit pydev | FileCheck %s --check-prefix=VALUES
# RUN: pydevc %s --kernel matches --signature 'int32[:], float64[:], int32[:]' --emit pydev | FileCheck %s --check-prefix=MATCHES
# RUN: pydevc %s --kernel matches --signature 'uint64[:], float32[:], int32[:]' --emit pydev | FileCheck %s --check-prefix=MATCHES64
# RUN: pydevc %s --kernel mask_bits --signature 'int32[:]' --emit pydev | FileCheck %s --check-prefix=BITS
# RUN: pydevc %s --kernel representation --signature 'int32[:]' --emit pydev | FileCheck %s --check-prefix=REPR
# RUN: pydevc %s --kernel mask_ints --signature 'int32[:], int32' --emit pydev | FileCheck %s --check-prefix=MASK-INT

import cuda.device as device
from cuda.device import activemask, shfl_down_sync, match_all_sync

FULL = -1


# VOTES-LABEL: func.func @votes
# VOTES: %[[M:.*]] = pydev.activemask
# VOTES-NEXT: %[[LT:.*]] = pydev.lanemask_lt
# VOTES-NEXT: pydev.syncwarp %[[M]]
# VOTES: %[[FULL:.*]] = pydev.cast %{{.*}} : si32 to !pydev.warp_mask
# VOTES-NEXT: pydev.syncwarp %[[FULL]]
# VOTES: %[[P:.*]] = pydev.cmp gt, %{{.*}}, %{{.*}} : si32, si32
# VOTES-NEXT: pydev.vote all %[[M]], %[[P]] : i1
# VOTES: pydev.vote any %[[M]], %{{.*}} : i1
# VOTES: %[[ODD:.*]] = pydev.cmp eq, %{{.*}}, %{{.*}} : si32, si32
# VOTES-NEXT: pydev.vote eq %[[M]], %[[ODD]] : i1
# VOTES: %[[B:.*]] = pydev.vote ballot %[[M]], %{{.*}} : !pydev.warp_mask
# VOTES: %[[B32:.*]] = pydev.cast %[[B]] : !pydev.warp_mask to si32
# VOTES-NEXT: pydev.array_store %[[B32]], %arg1
# VOTES: %[[LT32:.*]] = pydev.cast %[[LT]] : !pydev.warp_mask to si32
# VOTES-NEXT: pydev.array_store %[[LT32]], %arg1
@device.kernel
def votes(a, out):
    i = device.tid(1)
    m = device.activemask()
    lt = device.lanemask_lt()
    device.syncwarp(m)
    device.syncwarp(FULL)
    al = device.all_sync(m, lambda: a[i] > 0)
    an = device.any_sync(mask=m, pred=lambda: a[i] < 0)

    def odd():
        r = a[i] % 2
        return r == 1

    eq = device.eq_sync(m, odd)
    b = device.ballot_sync(m, odd)
    out[i] = al + an + eq
    out[0] = b
    out[1] = lt


# Each shuffle kind, with constant and computed lanes.
# SHUFFLES-LABEL: func.func @shuffles
# SHUFFLES: %[[M:.*]] = pydev.activemask
# SHUFFLES: pydev.shfl idx %[[M]], %{{.*}}, %{{.*}} : si32, si32
# SHUFFLES: pydev.shfl up %[[M]], %{{.*}}, %{{.*}} : f32, si32
# SHUFFLES: pydev.shfl down %[[M]], %{{.*}}, %{{.*}} : f64, si32
# SHUFFLES: pydev.shfl xor %[[M]], %{{.*}}, %{{.*}} : f64, si32
# SHUFFLES: %[[LANE:.*]] = pydev.mod %{{.*}}, %{{.*}} : si32, si32 -> si32
# SHUFFLES: pydev.shfl idx %{{.*}}, %{{.*}}, %[[LANE]] : si32, si32
# SHUFFLES: pydev.shfl down %[[M]], %{{.*}}, %{{.*}} : f32, si32
# SHUFFLES: pydev.shfl xor %[[M]], %{{.*}}, %[[M]] : si32, !pydev.warp_mask
@device.kernel
def shuffles(x, y, z, out):
    i = device.tid(1)
    m = device.activemask()
    v = device.shfl_sync(m, x[i], 0)
    w = device.shfl_up_sync(m, y[i], 1)
    u = device.shfl_down_sync(m, z[i], 16)
    t = device.shfl_xor_sync(m, z[i], 31)
    s = device.shfl_sync(-1, x[i], i % 32)
    d = shfl_down_sync(mask=m, value=y[i], delta=2)
    f = device.shfl_xor_sync(m, x[i], m)
    out[i] = v + w + u + t + s + d + f


# Any value of at most 8 bytes: vectors, tuples, structs, bools, masks, complex64.
# VALUES-LABEL: func.func @shuffle_values
# VALUES: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : !pydev.vector<2 x f32>, si32
# VALUES: pydev.shfl down %{{.*}}, %{{.*}}, %{{.*}} : !pydev.tuple<si32, f32>, si32
# VALUES: pydev.shfl xor %{{.*}}, %{{.*}}, %{{.*}} : !pydev.struct<"Pair", {a: si32, b: f32}>, si32
# VALUES: pydev.shfl up %{{.*}}, %{{.*}}, %{{.*}} : i1, si32
# VALUES: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : !pydev.warp_mask, si32
# VALUES: pydev.shfl idx %{{.*}}, %{{.*}}, %{{.*}} : complex<f32>, si32
@device.struct
class Pair:
    a: int
    b: float


@device.kernel
def shuffle_values(x, out):
    i = device.tid(1)
    m = device.activemask()
    v = device.shfl_sync(m, device.float32x2(x[i], 1.0), 0)
    t = device.shfl_down_sync(m, (i, x[i]), 1)
    p = device.shfl_xor_sync(m, Pair(i, x[i]), 1)
    b = device.shfl_up_sync(m, x[i] > 0, 1)
    mm = device.shfl_sync(m, m, 0)
    c = device.shfl_sync(m, device.complex64(x[i]), 0)
    out[i] = v.x + t[1] + p.b + b + mm + c.real


# MATCHES-LABEL: func.func @matches
# MATCHES: %[[M:.*]] = pydev.activemask
# MATCHES: %[[SAME:.*]] = pydev.match_any %[[M]], %{{.*}} : si32
# MATCHES: %[[EQ:.*]], %[[PRED:.*]] = pydev.match_all %[[M]], %{{.*}} : f64
# MATCHES: %[[EQ2:.*]], %{{.*}} = pydev.match_all %[[M]], %{{.*}} : si32
# MATCHES: pydev.cast %[[SAME]] : !pydev.warp_mask to si32
# MATCHES: cf.cond_br %[[PRED]]
# MATCHES: pydev.cast %[[EQ]] : !pydev.warp_mask to si32
# MATCHES: pydev.cast %[[EQ2]] : !pydev.warp_mask to si32
# MATCHES64-LABEL: func.func @matches
# MATCHES64: pydev.match_any %{{.*}}, %{{.*}} : ui64
# MATCHES64: pydev.match_all %{{.*}}, %{{.*}} : f32
@device.kernel
def matches(x, d, out):
    i = device.tid(1)
    m = activemask()
    same = device.match_any_sync(m, x[i], 0)
    eq, pred = match_all_sync(m, d[i], 0)
    r = device.match_all_sync(m, x[i], flag=0)
    out[0] = same
    if pred:
        out[1] = eq
    out[2] = r[0]
    out[3] = r[1]


# m[i] reads bit i; m[i] = b sets or clears it and rebinds m.
# BITS-LABEL: func.func @mask_bits
# BITS: %[[M:.*]] = pydev.activemask
# BITS: %[[THREE:.*]] = pydev.constant 3 : si32
# BITS-NEXT: %[[M32:.*]] = pydev.cast %[[M]] : !pydev.warp_mask to si32
# BITS-NEXT: %[[SH:.*]] = pydev.rshift %[[M32]], %[[THREE]] : si32, si32 -> si32
# BITS-NEXT: %[[ONE:.*]] = pydev.constant 1 : si32
# BITS-NEXT: pydev.and %[[SH]], %[[ONE]] : si32, si32 -> si32
# BITS: %[[CLEAR:.*]] = pydev.constant false
# BITS: %[[BIT:.*]] = pydev.lshift %{{.*}}, %{{.*}} : si32, si32 -> si32
# BITS-NEXT: %[[WITH:.*]] = pydev.or %{{.*}}, %[[BIT]] : si32, si32 -> si32
# BITS-NEXT: %[[NBIT:.*]] = pydev.invert %[[BIT]] : si32 -> si32
# BITS-NEXT: %[[WITHOUT:.*]] = pydev.and %{{.*}}, %[[NBIT]] : si32, si32 -> si32
# BITS-NEXT: %[[SEL:.*]] = arith.select %[[CLEAR]], %[[WITH]], %[[WITHOUT]] : si32
# BITS-NEXT: %[[M2:.*]] = pydev.cast %[[SEL]] : si32 to !pydev.warp_mask
# BITS: gpu.lane_id
# BITS: %[[M3:.*]] = pydev.cast %{{.*}} : si32 to !pydev.warp_mask
# BITS: pydev.syncwarp %[[M3]]
# BITS: %[[W:.*]] = pydev.cast %{{.*}} : si32 to !pydev.warp_mask
# BITS: pydev.cast %[[W]] : !pydev.warp_mask to si32
# BITS: pydev.rshift
@device.kernel
def mask_bits(out):
    m = device.activemask()
    out[0] = m[3]
    m[3] = False
    m[device.lane_id] = True
    device.syncwarp(m)
    out[1] = m
    w = device.WarpMask(5)
    if w[31]:
        out[2] = 1


# machine_representation() is "itanium" (API); the comparison folds.
# REPR-LABEL: func.func @representation
# REPR-NOT: cf.cond_br
# REPR: %[[ONE:.*]] = pydev.constant 1 : si32
# REPR-NEXT: %[[ZERO:.*]] = pydev.constant 0 : si32
# REPR-NEXT: pydev.array_store %[[ONE]], %arg0[%[[ZERO]]]
# REPR-NOT: pydev.array_store
# REPR: return
@device.kernel
def representation(out):
    if device.machine_representation() == "itanium":
        out[0] = 1
    if device.machine_representation() != "itanium":
        out[0] = 2


# A WarpMask is an int32 (spec: WarpMask; API.md): mixed with ints in a
# conditional expression, where paths join, in arithmetic, comparisons and
# min/max it is converted to int32, and the result is an int32.
# MASK-INT-LABEL: func.func @mask_ints
# MASK-INT: %[[M:.*]] = pydev.activemask
# MASK-INT: %[[C:.*]] = pydev.cast %[[M]] : !pydev.warp_mask to si32
# MASK-INT-NEXT: cf.br ^[[J:.*]](%[[C]] : si32)
# MASK-INT: %[[Z:.*]] = pydev.constant 0 : si32
# MASK-INT-NEXT: cf.br ^[[J]](%[[Z]] : si32)
# MASK-INT: ^[[J]](%[[V:.*]]: si32):
# MASK-INT: pydev.array_store %[[V]]
# MASK-INT: %[[A:.*]] = pydev.cast %[[M]] : !pydev.warp_mask to si32
# MASK-INT-NEXT: pydev.add %[[A]], %{{.*}} : si32, si32 -> si32
# MASK-INT: %[[E:.*]] = pydev.cast %[[M]] : !pydev.warp_mask to si32
# MASK-INT-NEXT: pydev.cmp eq, %[[E]], %{{.*}} : si32, si32
# MASK-INT: %[[X:.*]] = pydev.cast %[[M]] : !pydev.warp_mask to si32
# MASK-INT-NEXT: pydev.max %[[X]], %arg1 : si32, si32 -> si32
# MASK-INT: ^{{.*}}(%[[R:.*]]: si32):
# MASK-INT: pydev.array_store %[[R]]
@device.kernel
def mask_ints(out, p):
    m = device.activemask()
    out[0] = m if p else 0
    out[1] = m + 1
    out[2] = m == -1
    out[3] = max(m, p)
    r = m
    if p == 0:
        r = -7
    out[4] = r
