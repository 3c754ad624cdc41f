"""A 2-D five-point stencil: explicit heat diffusion on a grid with fixed
(Dirichlet) edges, stepped by ping-ponging two device arrays.

Run: python3 examples/stencil.py
"""

import sys

import numpy as np

import cuda.device as device
import pydev

ALPHA = 0.2  # diffusion number; < 0.25 keeps the explicit scheme stable


@device.kernel
def heat_step(dst, src):
    """dst = one diffusion step of src; the boundary is copied unchanged."""
    i, j = device.tid(2)
    ny, nx = src.shape[0], src.shape[1]
    if i < ny and j < nx:
        if i == 0 or j == 0 or i == ny - 1 or j == nx - 1:
            dst[i, j] = src[i, j]
        else:
            lap = src[i - 1, j] + src[i + 1, j] + src[i, j - 1] + src[i, j + 1] - 4.0 * src[i, j]
            dst[i, j] = src[i, j] + ALPHA * lap


def numpy_step(u):
    v = u.copy()
    v[1:-1, 1:-1] = u[1:-1, 1:-1] + np.float32(ALPHA) * (
        u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1]
    )
    return v


def main():
    rng = np.random.default_rng(7)
    ny, nx, steps = 96, 130, 20
    u0 = rng.random((ny, nx), dtype=np.float32)
    stream = pydev.default_stream()
    a = pydev.to_device(u0)
    b = pydev.to_device(np.full_like(u0, np.nan))  # NaN: unwritten shows
    block = (16, 16)
    grid = ((ny + 15) // 16, (nx + 15) // 16)  # tid(2) is (x, y): x runs over rows here
    for _ in range(steps):
        device.launch(heat_step, b, a, grid=grid, block=block, stream=stream)
        a, b = b, a
    stream.synchronize()
    got = a.copy_to_host()

    want = u0
    for _ in range(steps):
        want = numpy_step(want)
    ok = True
    good = not np.isnan(got).any() and np.allclose(got, want, rtol=1e-5, atol=1e-6)
    print(
        f"{'ok' if good else 'MISMATCH'}: {steps} steps on {ny}x{nx}, max abs error {np.nanmax(np.abs(got - want)):.2e}"
    )
    ok &= good
    # Diffusion conserves nothing at fixed edges, but it must smooth: the
    # interior's variance drops and its values stay within the initial range.
    good = got[1:-1, 1:-1].var() < u0[1:-1, 1:-1].var() and got.min() >= u0.min() and got.max() <= u0.max()
    print(f"{'ok' if good else 'MISMATCH'}: smoothing (variance {u0.var():.4f} -> {got.var():.4f}), maximum principle")
    ok &= good
    print("stencil", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
