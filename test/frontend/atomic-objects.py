# Atomic objects (spec: Atomics / Atomic, Atomic.__init__, Atomic.dtype) and
# device.Atomic fields of structs in memory (spec: User-Defined Types, the
# ticket_mutex example): an Atomic in device code is a zeroed one-element
# local array with an atomic reference to it; `m = mutexes[i]` of a struct
# holding Atomic fields is a reference (a one-element view), whose Atomic
# fields are atomic references to the member (`atomic_ref ... field [..]`).
# RUN: pydevc %s --kernel atomic_objects --signature 'int32[::1]' --emit pydev | FileCheck %s --check-prefix=OBJECTS
# RUN: pydevc %s --kernel ticket_counter --signature 'TicketMutex[::1], int32[::1]' --emit pydev | FileCheck %s --check-prefix=TICKET
# RUN: pydevc %s --kernel shared_mutex --signature 'int32[::1]' --emit pydev | FileCheck %s --check-prefix=SHARED
# RUN: pydevc %s --kernel ticket_counter --signature 'TicketMutex[::1], int32[::1]' -o %t.ptx
# RUN: FileCheck %s --check-prefix=TICKET-PTX --input-file=%t.ptx
# RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: pydevc %s --kernel ticket_counter --signature 'TicketMutex[::1], int32[::1]' --target sm_70 -o %t.70.ptx
# RUN: ptxas -arch=sm_70 %t.70.ptx -o %t.70.cubin
# RUN: pydevc %s --kernel ticket_counter --signature 'TicketMutex[::1], int32[::1]' --target sm_80 -o %t.80.ptx
# RUN: ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
# RUN: pydevc %s --kernel atomic_objects --signature 'int32[::1]' -o %t.obj.ptx
# RUN: FileCheck %s --check-prefix=OBJECTS-PTX --input-file=%t.obj.ptx
# RUN: ptxas -arch=sm_90 %t.obj.ptx -o %t.obj.cubin
# RUN: pydevc %s --kernel atomic_objects --signature 'int32[::1]' --target sm_70 -o %t.obj70.ptx
# RUN: ptxas -arch=sm_70 %t.obj70.ptx -o %t.obj70.cubin
# RUN: pydevc %s --kernel atomic_objects --signature 'int32[::1]' --target sm_80 -o %t.obj80.ptx
# RUN: ptxas -arch=sm_80 %t.obj80.ptx -o %t.obj80.cubin

import cuda.device as device


@device.struct
class TicketMutex:
    line: device.Atomic(int, align=16)
    current: device.Atomic(int, align=16)
    owner: device.int32

    @device.func
    def lock(self):
        my = self.line.add(1)
        while True:
            now = self.current.load()
            if now == my:
                break
            self.current.wait(now)

    @device.func
    def unlock(self):
        self.current.add(1)
        self.current.notify_all()


# OBJECTS-LABEL: func.func @atomic_objects
# OBJECTS: %[[A:.*]] = pydev.local_array shape [1] order "C" : <si32, 1, local, c>
# OBJECTS: pydev.array_store %{{.*}}, %[[A]][%{{.*}}] : si32, <si32, 1, local, c>, si64
# OBJECTS: %[[R:.*]] = pydev.atomic_ref %[[A]][%{{.*}}] : <si32, 1, local, c>, si64 -> <si32, local>
# OBJECTS: pydev.atomic_store %{{.*}}, %[[R]] memory <seq_cst> scope <system>
# OBJECTS: pydev.atomic_load %[[R]] memory <seq_cst> scope <system>
# OBJECTS: %[[C:.*]] = pydev.local_array shape [1] order "C" align 16 : <f64, 1, local, c>
# OBJECTS: %[[RC:.*]] = pydev.atomic_ref %[[C]][%{{.*}}] : <f64, 1, local, c>, si64 -> <f64, local>
# OBJECTS: pydev.atomic_rmw add %[[RC]], %{{.*}} memory <relaxed> scope <thread>
# OBJECTS: pydev.atomic_rmw exch %[[R]]
# An Atomic made in device code is the thread's own local memory, where PTX
# has no atom (issue 14): its operations are plain loads and stores, which
# LLVM folds to the results (5, 2.5 * 2, 5 + 7, 7).
# OBJECTS-PTX-LABEL: .visible .entry atomic_objects(
# OBJECTS-PTX-NOT: atom.
# OBJECTS-PTX-NOT: .local
# OBJECTS-PTX: st.global.b32 [%rd{{[0-9]+}}], 5;
# OBJECTS-PTX-NEXT: st.global.b32 [%rd{{[0-9]+}}+4], 5;
# OBJECTS-PTX-NEXT: st.global.b32 [%rd{{[0-9]+}}+8], 12;
# OBJECTS-PTX-NEXT: st.global.b32 [%rd{{[0-9]+}}+12], 7;
# OBJECTS-PTX-NEXT: ret;
@device.kernel
def atomic_objects(out):
    a = device.Atomic(device.int32)
    a.store(5)
    out[0] = a.load()
    c = device.Atomic(device.float64, align=16)
    c.add(2.5, memory="relaxed", scope="thread")
    out[1] = int(c.load() * 2.0)
    out[2] = a.exch(7) + a.load()
    out[3] = a.dtype(7.9)


# TICKET-LABEL: func.func @TicketMutex_lock_ref_TicketMutex(
# TICKET-SAME: %[[M:.*]]: !pydev.array<!pydev.struct<"TicketMutex", {line: !pydev.struct<"atomic_int32_16", {value: si32}, align 16>, current: !pydev.struct<"atomic_int32_16", {value: si32}, align 16>, owner: si32}>, 1>)
# TICKET: %[[L:.*]] = pydev.atomic_ref %[[M]][%{{.*}}] field ["line", "value"]
# TICKET: pydev.atomic_rmw add %[[L]]
# TICKET: pydev.atomic_ref %[[M]][%{{.*}}] field ["current", "value"]
# TICKET: pydev.atomic_wait
# TICKET-LABEL: func.func @TicketMutex_unlock_ref_TicketMutex(
# TICKET: pydev.atomic_notify %{{.*}} all
# TICKET-LABEL: func.func @ticket_counter
# TICKET: %[[REF:.*]] = pydev.array_slice %arg0 [1] starts(%{{.*}} : si64) stops(%{{.*}} : si64) steps(%{{.*}} : si64)
# TICKET: call @TicketMutex_lock_ref_TicketMutex(%[[REF]])
# TICKET: pydev.array_load %[[REF]][%{{.*}}] : <!pydev.struct<"TicketMutex"
# TICKET: pydev.struct_extract %{{.*}}["owner"]
# TICKET: call @TicketMutex_unlock_ref_TicketMutex(%[[REF]])
# The field `current` is at byte 16 of the element.
# TICKET-PTX-LABEL: .visible .entry ticket_counter(
# TICKET-PTX: atom.acquire.sys.global.add.u32
# TICKET-PTX: ld.acquire.sys.global.b32
# TICKET-PTX: nanosleep.u32
@device.kernel
def ticket_counter(mutexes, out):
    m = mutexes[0]
    m.lock()
    out[0] += 1
    out[1] = m.owner
    m.unlock()


# SHARED-LABEL: func.func @shared_mutex
# SHARED: %[[S:.*]] = pydev.shared_array shape [1]
# SHARED: pydev.array_slice %[[S]]
# SHARED: pydev.atomic_ref %{{.*}}[%{{.*}}] field ["line", "value"] : <!pydev.struct<"TicketMutex", {{.*}}>, 1, shared>, si64 -> <si32, shared>
@device.kernel
def shared_mutex(out):
    s = device.shared_array(1, TicketMutex)
    m = s[0]
    out[device.tid(1)] = m.line.add(1, memory="relaxed", scope="block")
