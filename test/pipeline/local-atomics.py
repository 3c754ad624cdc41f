# Atomics on local memory (spec: Atomics, Thread Scopes; issue 14): PTX
# defines `atom` only on .global and .shared, so an atomic on a thread's
# local_array (or a device.Atomic made in device code) is a plain load/op/store
# (pydev-lower-atomics); global and shared atomics beside them stay atom/ld/st
# with their order and scope (the conformance kernel block_scope, which
# returned 0 on an H100, is checked in conformance-atomics.py SCOPES, and
# device.Atomic objects in frontend/atomic-objects.py OBJECTS-PTX). FileChecked
# for sm_90 and assembled by ptxas for sm_70, sm_80 and sm_90.
# local_every_kind is in python/tests/local_atomics_kernels.py;
# python/tests/test_local_atomics.py runs it on the host target and checks
# every returned value.
# REQUIRES: ptxas
# RUN: pydevc %S/../../python/tests/local_atomics_kernels.py --kernel local_every_kind --signature 'int64[:, :], uint64[:, :], float64[:, :], float32[:], int64' --target sm_90 -o %t.every.ptx
# RUN: FileCheck %s --check-prefix=EVERY --input-file=%t.every.ptx
# RUN: ptxas -arch=sm_90 %t.every.ptx -o %t.every.cubin
# RUN: pydevc %S/../../python/tests/local_atomics_kernels.py --kernel local_every_kind --signature 'int64[:, :], uint64[:, :], float64[:, :], float32[:], int64' --target sm_70 -o %t.every.70.ptx
# RUN: ptxas -arch=sm_70 %t.every.70.ptx -o %t.every.70.cubin
# RUN: pydevc %S/../../python/tests/local_atomics_kernels.py --kernel local_every_kind --signature 'int64[:, :], uint64[:, :], float64[:, :], float32[:], int64' --target sm_80 -o %t.every.80.ptx
# RUN: ptxas -arch=sm_80 %t.every.80.ptx -o %t.every.80.cubin

# Every AtomicInterface method on local arrays indexed at run time (so they
# stay in local memory: ld/st.local): no atom and no ordered ld/st; the one
# membar left is the explicit threadfence at the end.
# EVERY-LABEL: .visible .entry local_every_kind(
# EVERY: __local_depot
# EVERY-NOT: atom.
# EVERY-NOT: fence
# EVERY: st.local.b32
# EVERY-NOT: atom.
# EVERY-NOT: fence
# EVERY: ld.local.b32
# EVERY-NOT: atom.
# EVERY-NOT: .relaxed.
# EVERY-NOT: .acquire.
# EVERY-NOT: .release.
# EVERY: membar.sys;
# EVERY-NOT: atom.
# EVERY: ret;

