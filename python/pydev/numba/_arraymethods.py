"""Array attributes and methods in device code beyond shape/size/ndim/
strides/dtype (_expressions): the reductions (`a.sum()`, _npfuncs)."""

from . import _npfuncs


def attr(c, base, name, node):
    """The attribute `name` of the array `base`, or None when it has none."""
    return _npfuncs.method(c, base, name, node)
