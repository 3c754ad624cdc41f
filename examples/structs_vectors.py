"""Structs and vectors: an array of @device.struct particles (a NumPy
structured array with the CUDA C++ layout) advanced by a kernel that also
takes a struct and a vector by value.

Run: python3 examples/structs_vectors.py
"""

import sys

import numpy as np

import cuda.device as device
import pydev


@device.struct
class Particle:
    pos: device.float32x4  # x, y, z and w (unused padding lane, kept as is)
    vel: device.float32x3
    mass: device.float32


@device.struct
class Field:
    gravity: device.float32x3
    drag: device.float32


@device.func
def accelerate(p, f, dt):
    # Vectors are values: building a new one and assigning it back updates p.
    a = f.gravity
    k = 1.0 - f.drag * dt / p.mass
    p.vel = device.float32x3((p.vel.x + a.x * dt) * k, (p.vel.y + a.y * dt) * k, (p.vel.z + a.z * dt) * k)
    p.pos = device.float32x4(p.pos.x + p.vel.x * dt, p.pos.y + p.vel.y * dt, p.pos.z + p.vel.z * dt, p.pos.w)
    return p


@device.kernel
def step(ps, energy, f, dt):
    """Advance every particle by dt; energy[i] = its kinetic energy after."""
    i = device.tid(1)
    if i < ps.size:
        p = accelerate(ps[i], f, dt)
        ps[i] = p
        v = p.vel
        energy[i] = 0.5 * p.mass * (v.x * v.x + v.y * v.y + v.z * v.z)


def numpy_step(ps, gravity, drag, dt):
    ps = ps.copy()
    k = 1.0 - drag * dt / ps["mass"]
    ps["vel"] = (ps["vel"] + gravity * dt) * k[:, None]
    ps["pos"][:, :3] += ps["vel"] * dt
    return ps, 0.5 * ps["mass"] * (ps["vel"] ** 2).sum(1)


def main():
    print("Particle.dtype:", Particle.dtype, "itemsize", Particle.dtype.itemsize)
    rng = np.random.default_rng(11)
    n, dt = 1000, np.float32(0.01)
    ps = np.zeros(n, Particle.dtype)
    ps["pos"] = rng.standard_normal((n, 4)).astype(np.float32)
    ps["vel"] = rng.standard_normal((n, 3)).astype(np.float32)
    ps["mass"] = rng.uniform(0.5, 2.0, n).astype(np.float32)
    gravity = np.array([0.0, -9.81, 0.0], np.float32)
    f = Field(device.float32x3(*gravity), 0.1)  # a struct built on the host
    print("field on the host:", f.gravity.y, f.drag)

    stream = pydev.default_stream()
    d_ps = pydev.to_device(ps)
    energy = pydev.to_device(np.full(n, np.nan, np.float32))  # NaN: unwritten shows
    want = ps
    for _ in range(5):
        device.launch(step, d_ps, energy, f, dt, grid=(n + 127) // 128, block=128, stream=stream)
        want, want_e = numpy_step(want, gravity, np.float32(0.1), dt)
    stream.synchronize()
    got = d_ps.copy_to_host()
    got_e = energy.copy_to_host()
    ok = True
    for field in ("pos", "vel", "mass"):
        good = np.allclose(got[field], want[field], rtol=1e-5, atol=1e-5)
        print(f"{'ok' if good else 'MISMATCH'}: field {field!r} after 5 steps")
        ok &= good
    good = not np.isnan(got_e).any() and np.allclose(got_e, want_e, rtol=1e-4)
    print(f"{'ok' if good else 'MISMATCH'}: kinetic energy, total {got_e.sum():.3f} (NumPy {want_e.sum():.3f})")
    ok &= good
    good = np.array_equal(got["pos"][:, 3], ps["pos"][:, 3])
    print(f"{'ok' if good else 'MISMATCH'}: the w lane of pos is untouched")
    ok &= good
    print("structs_vectors", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
