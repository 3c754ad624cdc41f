"""A small framework on pydev's backend API: `@elementwise` traces a Python
function over symbolic values into pydev IR with `pydev.ir`, puts every
function of a "library" in one module, compiles each kernel of it as a
`pydev.Program` on first use, and launches them with `device.launch` exactly as
Python kernels launch (same arrays, streams and caches).

Run: python3 examples/framework_ir.py
"""

import sys

import numpy as np

import cuda.device as device
import pydev
from pydev import ir

F32 = ir.array(ir.f32, 1, "c")  # this toy's one array type: contiguous float32


class Library:
    """Functions traced into one module; each compiled on its first launch."""

    def __init__(self):
        self.module = ir.Module()
        self.names = []
        self.programs = {}

    def elementwise(self, fn):
        """fn(k, *xs) -> value: out[i] = fn(xs[0][i], ...) for every i."""
        nargs = fn.__code__.co_argcount - 1
        name = fn.__name__
        k = self.module.kernel(
            name, [F32] * (nargs + 1), loc=ir.loc(fn.__code__.co_filename, fn.__code__.co_firstlineno)
        )
        k.locations_from(fn)  # ops carry the line of fn that built them
        out, ins = k.args[0], k.args[1:]
        stride = k.grid_dim() * k.block_dim()
        # A grid-stride loop: any grid covers any length.
        with k.for_range(k.global_id(), k.cast(out.size, ir.si32), stride) as i:
            out[i] = fn(k, *(x[i] for x in ins))
        k.ret()
        self.names.append(name)
        return self._launcher(name)

    def _launcher(self, name):
        def launch(out, *xs, stream=None):
            if name not in self.programs:
                # Verified when made; kernel= picks one kernel of the module.
                self.programs[name] = pydev.Program(self.module, kernel=name)
            stream = stream or pydev.default_stream()
            device.launch(self.programs[name], out, *xs, grid=32, block=128, stream=stream)

        launch.__name__ = name
        return launch


lib = Library()


@lib.elementwise
def axpb(k, x):
    return x * 2.5 + 1.0


@lib.elementwise
def hypot(k, x, y):
    return k.emit("math.sqrt", [x * x + y * y], [ir.f32])  # any upstream op


@lib.elementwise
def relu_mix(k, x, y):
    return k.select(x > y, x - y, k.constant(0.0, ir.f32))


def main():
    rng = np.random.default_rng(5)
    n = 10_007
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    dx, dy = pydev.to_device(x), pydev.to_device(y)
    stream = pydev.default_stream()
    cases = [
        ("axpb", axpb, (dx,), x * np.float32(2.5) + np.float32(1.0)),
        ("hypot", hypot, (dx, dy), np.hypot(x, y)),
        ("relu_mix", relu_mix, (dx, dy), np.maximum(x - y, 0)),
    ]
    ok = True
    for name, fn, args, want in cases:
        out = pydev.to_device(np.full(n, np.nan, np.float32))  # NaN: unwritten shows
        fn(out, *args, stream=stream)
        stream.synchronize()
        got = out.copy_to_host()
        good = not np.isnan(got).any() and np.allclose(got, want, rtol=1e-6, atol=1e-6)
        print(f"{'ok' if good else 'MISMATCH'}: {name} over {n} elements")
        ok &= good
    print("kernels of the module:", lib.names)
    text = lib.programs["hypot"].compile(target="host", stage="pydev")
    good = "@hypot" in text and "math.sqrt" in text
    print(f"{'ok' if good else 'MISMATCH'}: the pydev stage of hypot calls math.sqrt ({len(text.splitlines())} lines)")
    ok &= good
    print("framework_ir", "ok" if ok else "FAILED", "on", pydev.active_target())
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
