"""Cooperative groups in device code: `cuda.cg.this_grid()` and its
`sync()`, a grid-wide barrier (pydev IR `pydev.grid_sync`).

As in Numba-CUDA, a kernel that synchronizes its grid (in its body or in a
device function it calls) is launched cooperatively: every block of its grid
is resident at once (`cuLaunchCooperativeKernel` on cuda; the host target
runs all the blocks together), which limits the grid's size
(`max_cooperative_grid_blocks`)."""

from ._typing import CompileTimeValue, _Method


class GridGroup:
    """The grid of the running kernel (`cuda.cg.this_grid()`), a compile-time
    object: `g.sync()` is the grid barrier."""

    _pydev_numba_name = "cuda.cg.GridGroup"

    def _pydev_numba_attr(self, c, attr, node):
        if attr == "sync":
            return CompileTimeValue(_Method("sync", _sync))
        raise c.err(node, f"a grid group (cuda.cg.this_grid()) has no attribute '{attr}' (sync)")


def _sync(c, args, kwargs, node):
    c.f.ops.grid_sync()
    c.mb.grid_sync = True
    return CompileTimeValue(None)


def this_grid(c, args, kwargs, node):
    if args or kwargs:
        raise c.err(node, "cuda.cg.this_grid() takes no arguments")
    return CompileTimeValue(GridGroup())
