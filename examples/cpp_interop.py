"""A kernel calling CUDA C++: interop_ops.cu defines two extern "C"
__host__ __device__ functions; @device.func(interop=True) declares them
(annotations are the C signature, the body is `...`), and link= builds and
links the file: with NVRTC and nvJitLink on a GPU, with clang on the host
target (docs/interop.md). Structs cross the call with their C++ layout.

Skips (exit 0, with the reason) when the toolchain it needs is missing.
Run: python3 examples/cpp_interop.py
"""

import os
import shutil
import sys

import numpy as np

import cuda.device as device
import pydev


@device.struct
class vec3:
    x: device.float32
    y: device.float32
    z: device.float32


@device.func(interop=True, link=["interop_ops.cu"])  # relative to this file
def smoothstep(edge0: device.float32, edge1: device.float32, x: device.float32) -> device.float32:
    """Defined in interop_ops.cu."""
    ...


@device.func(interop=True, link=["interop_ops.cu"])
def cross3(a: vec3, b: vec3) -> vec3: ...


@device.kernel
def shade(out, normals, x, light):
    i = device.tid(1)
    if i < out.shape[0]:
        n = normals[i]
        c = cross3(n, light)  # a struct in, a struct out, by value
        out[i, 0] = c.x
        out[i, 1] = c.y
        out[i, 2] = c.z
        out[i, 3] = smoothstep(-1.0, 1.0, x[i])


def host_clang():
    """Where the host target looks for clang (docs/interop.md, "The host")."""
    for cc in (os.environ.get("PYDEV_CLANG"), "/usr/lib/llvm-22/bin/clang"):
        if cc and os.access(cc, os.X_OK):
            return cc
    return shutil.which("clang-22") or shutil.which("clang")


def main():
    if pydev.active_target() == "host" and host_clang() is None:
        print(
            "skipped: the host target builds link= files with clang, and none was found ($PYDEV_CLANG, clang-22, clang)"
        )
        return 0
    rng = np.random.default_rng(17)
    n = 3000
    normals = np.zeros(n, vec3.dtype)
    for f in "xyz":
        normals[f] = rng.standard_normal(n).astype(np.float32)
    x = rng.uniform(-1.5, 1.5, n).astype(np.float32)
    light = vec3(0.3, -0.5, 0.8)
    out = pydev.to_device(np.full((n, 4), np.nan, np.float32))  # NaN: unwritten shows
    stream = pydev.default_stream()
    try:
        device.launch(
            shade,
            out,
            pydev.to_device(normals),
            pydev.to_device(x),
            light,
            grid=(n + 127) // 128,
            block=128,
            stream=stream,
        )
    except pydev.CompileError as e:
        if "nvrtc" in str(e).lower() or "nvjitlink" in str(e).lower():
            print("skipped: linking CUDA C++ on the GPU needs NVRTC and nvJitLink:", str(e).splitlines()[0])
            return 0
        raise
    stream.synchronize()
    got = out.copy_to_host()

    nv = np.stack([normals[f] for f in "xyz"], 1)
    want_c = np.cross(nv, np.array([0.3, -0.5, 0.8], np.float32))
    t = np.clip((x + 1) / 2, 0, 1)
    want_s = t * t * (3 - 2 * t)
    ok = True
    good = not np.isnan(got).any() and np.allclose(got[:, :3], want_c, rtol=1e-5, atol=1e-5)
    print(f"{'ok' if good else 'MISMATCH'}: cross3 (a C++ function taking and returning structs) for {n} normals")
    ok &= good
    good = np.allclose(got[:, 3], want_s, rtol=1e-5, atol=1e-6)
    print(f"{'ok' if good else 'MISMATCH'}: smoothstep (C++ floats) for {n} values")
    ok &= good
    header = pydev.cxx_header(vec3, smoothstep, cross3)  # the C++ view of the same declarations
    good = "vec3" in header and "smoothstep" in header and "static_assert" in header
    print(
        f"{'ok' if good else 'MISMATCH'}: pydev.cxx_header declares vec3 and both functions ({len(header.splitlines())} lines)"
    )
    ok &= good
    print("cpp_interop", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
