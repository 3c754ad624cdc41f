# print() in device code: one gpu.printf per call, Python's spacing and
# newline; integers as %d/%u/%lld/%llu, floats widened to float64 as %g,
# strings (with % escaped) and None as text.
# RUN: pydevc %s --kernel show --signature 'float32[::1], int64' --emit pydev | FileCheck %s
# RUN: pydevc %s --kernel show --signature 'float32[::1], int64' --emit ptx | FileCheck %s --check-prefix=PTX
# RUN: pydevc %s --kernel show --signature 'float32[::1], int64' --target host --emit llvm | FileCheck %s --check-prefix=HOST
# RUN: not pydevc %s --kernel with_sep --signature 'float32[::1], int64' --emit pydev 2>&1 | FileCheck %s --check-prefix=SEP
# RUN: not pydevc %s --kernel a_bool --signature 'float32[::1], int64' --emit pydev 2>&1 | FileCheck %s --check-prefix=BOOL
# CHECK-LABEL: func.func @show
# CHECK: gpu.printf "i = %d x = %g n = %lld 100%% None\0A", %{{.*}}, %{{.*}}, %{{.*}} : si32, f64, si64
# PTX: call.uni (retval0), vprintf,
# HOST: llvm.call @printf(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) vararg(!llvm.func<i32 (ptr, ...)>) : (!llvm.ptr, i32, f64, i64) -> i32
# HOST: llvm.mlir.global internal constant @__pydev_printf_0("i = %d x = %g n = %lld 100%% None\0A\00")
# SEP: print.py:27:17: error: print() keywords (sep, end, file, flush) are not supported in device code
# BOOL: print.py:32:11: error: print() of a bool is not supported in device code
import cuda.device as device


@device.kernel
def show(x, n):
    i = device.tid(1)
    print("i =", i, "x =", x[i], "n =", n, "100%", None)


@device.kernel
def with_sep(x, n):
    print(1, 2, sep=",")


@device.kernel
def a_bool(x, n):
    print(n > 0)
