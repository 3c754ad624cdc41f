# Atomic load/store of objects up to 16 bytes and exch/cas of aggregates up
# to 8 (spec: Atomics / AtomicInterface.load, store, exch): aggregates travel
# as the integer of their size; 16 bytes are `ld`/`st .b128`, which need PTX
# ISA 8.3 (8.4 with scope system): pydev-raise-ptx raises the module's
# version only for such kernels. Assembled for sm_70, sm_80 and sm_90.
# REQUIRES: ptxas
# RUN: pydevc %s --kernel wide_load_store --signature 'complex128[::1], complex128[::1]' -o %t.wide.ptx
# RUN: FileCheck %s --check-prefix=WIDE --input-file=%t.wide.ptx
# RUN: ptxas -arch=sm_90 %t.wide.ptx -o %t.wide.cubin
# RUN: pydevc %s --kernel wide_load_store --signature 'complex128[::1], complex128[::1]' --target sm_70 -o %t.wide70.ptx
# RUN: ptxas -arch=sm_70 %t.wide70.ptx -o %t.wide70.cubin
# RUN: pydevc %s --kernel wide_load_store --signature 'complex128[::1], complex128[::1]' --target sm_80 -o %t.wide80.ptx
# RUN: ptxas -arch=sm_80 %t.wide80.ptx -o %t.wide80.cubin
# RUN: pydevc %s --kernel small_aggregates --signature 'Pair[::1], Pair[::1], float32x4[::1]' -o %t.small.ptx
# RUN: FileCheck %s --check-prefix=SMALL --input-file=%t.small.ptx
# RUN: ptxas -arch=sm_90 %t.small.ptx -o %t.small.cubin
# RUN: pydevc %s --kernel small_aggregates --signature 'Pair[::1], Pair[::1], float32x4[::1]' --target sm_70 -o %t.small70.ptx
# RUN: ptxas -arch=sm_70 %t.small70.ptx -o %t.small70.cubin
# RUN: pydevc %s --kernel small_aggregates --signature 'Pair[::1], Pair[::1], float32x4[::1]' --target sm_80 -o %t.small80.ptx
# RUN: ptxas -arch=sm_80 %t.small80.ptx -o %t.small80.cubin
# Kernels without 16-byte atomics keep the default ISA.
# RUN: pydevc %s --kernel narrow --signature 'int32[::1]' | FileCheck %s --check-prefix=NARROW

import cuda.device as device


@device.struct
class Pair:
    a: device.float32
    b: device.int32


# WIDE: .version 8.4
# WIDE-LABEL: .visible .entry wide_load_store(
# WIDE: ld.relaxed.sys.global.b128 %q, [%rd{{[0-9]+}}];
# WIDE-NEXT: mov.b128 {%rd{{[0-9]+}}, %rd{{[0-9]+}}}, %q;
# WIDE: fence.sc.sys;
# WIDE-NEXT: st.relaxed.sys.global.b128 [%rd{{[0-9]+}}], %q;
@device.kernel
def wide_load_store(z, out):
    i = device.tid(1)
    if i < z.size:
        v = device.atomic_ref(z, i).load(memory="relaxed")
        device.atomic_ref(out, i).store(v * 2.0)


# SMALL: .version 8.3
# SMALL-LABEL: .visible .entry small_aggregates(
# SMALL: atom.acquire.sys.global.exch.b64
# SMALL: ld.acquire.gpu.global.b128
# SMALL: st.release.cta.global.b128
@device.kernel
def small_aggregates(p, q, v):
    i = device.tid(1)
    if i < p.size:
        q[i] = device.atomic_ref(p, i).exch(Pair(1.5, i))
        w = device.atomic_ref(v, i).load(memory="acquire", scope="device")
        device.atomic_ref(v, i).store(device.float32x4(w.y, w.x, w.w, w.z), memory="release", scope="block")


# NARROW: .version 8.0
@device.kernel
def narrow(a):
    device.atomic_ref(a, 0).store(1)
