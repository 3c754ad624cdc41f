# None as a kernel argument and as an argument of interoperable functions
# (spec: None: NoneType is heterogeneous; in a call to an interoperable
# function it is a `void*`, None a `nullptr`). The signature names it `None`;
# a kernel takes no parameter for it, an interop function or kernel a `void*`.
# RUN: pydevc %s --kernel none_argument --signature 'int32[::1], None' --emit pydev | FileCheck %s --check-prefix=KERNEL
# RUN: pydevc %s --kernel none_interop --signature 'float32[::1], float32[::1]' --emit pydev | FileCheck %s --check-prefix=INTEROP
# RUN: pydevc %s --kernel none_interop_kernel --signature 'int32[::1], None' --emit pydev | FileCheck %s --check-prefix=INTEROP-KERNEL
# RUN: pydevc %s --kernel none_interop --signature 'float32[::1], float32[::1]' -o %t.ptx
# RUN: FileCheck %s --check-prefix=PTX --input-file=%t.ptx
# RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
# RUN: pydevc %s --kernel none_interop --signature 'float32[::1], float32[::1]' --target sm_70 -o %t.70.ptx
# RUN: ptxas -arch=sm_70 %t.70.ptx -o %t.70.cubin
# RUN: pydevc %s --kernel none_interop_kernel --signature 'int32[::1], None' --target sm_80 -o %t.80.ptx
# RUN: FileCheck %s --check-prefix=PTX-KERNEL --input-file=%t.80.ptx
# RUN: ptxas -arch=sm_80 %t.80.ptx -o %t.80.cubin
# RUN: not pydevc %s --kernel reassigned --signature 'float32[::1], float32[::1]' --emit pydev 2>&1 | FileCheck %s --check-prefix=REASSIGNED
import cuda.device as device


# KERNEL-LABEL: func.func @none_argument(%{{.*}}: !pydev.array<si32, 1, c>) attributes {pydev.kernel}
# KERNEL: %[[T:.*]] = pydev.constant false
# KERNEL: pydev.not %[[T]]
@device.kernel
def none_argument(out, p):
    out[0] = 1 if not p else 0
    out[1] = 1 if p is None else 0


@device.func(interop=True)
def with_pointer(p, x):
    return x + 1.0 if p is None else x


# INTEROP-LABEL: func.func @with_pointer(%{{.*}}: !llvm.ptr, %{{.*}}: f32) -> f32 attributes {pydev.interop}
# INTEROP-LABEL: func.func @none_interop
# INTEROP: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
# INTEROP: call @with_pointer(%[[NULL]], %{{.*}}) : (!llvm.ptr, f32) -> f32
# PTX-LABEL: .visible .func  (.param .b32 func_retval0) with_pointer(
# PTX-NEXT: .param .b64 with_pointer_param_0,
# PTX-NEXT: .param .b32 with_pointer_param_1
@device.kernel
def none_interop(out, x):
    i = device.tid(1)
    if i < x.size:
        out[i] = with_pointer(None, x[i])


# INTEROP-KERNEL-LABEL: func.func @none_interop_kernel(%{{.*}}: !pydev.array<si32, 1, c>, %{{.*}}: !llvm.ptr) attributes {pydev.interop, pydev.kernel}
# PTX-KERNEL-LABEL: .visible .entry none_interop_kernel(
# PTX-KERNEL: .param .u64 .ptr .align 1 none_interop_kernel_param_1
@device.kernel(interop=True)
def none_interop_kernel(out, p):
    out[0] = 1 if p is None else 0


@device.func(interop=True)
def reassigns(p, x):
    p = x
    return p


# REASSIGNED: error: parameter 'p' of the interoperable function 'reassigns' is None and is assigned in its body
@device.kernel
def reassigned(out, x):
    out[0] = reassigns(None, x[0])
