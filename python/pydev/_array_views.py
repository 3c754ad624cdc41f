"""`DeviceArray`'s host-side array methods, as Numba-CUDA's device arrays
have them (so that Numba driver code runs on pydev arrays): basic
indexing and slicing (`d[1:3]`, `d[i, :]`), assignment (`d[2:] = x`),
`copy_to_device`, `reshape`, `ravel`, `transpose`/`T`, `view(dtype)`, `squeeze`, `split`,
`is_c_contiguous`, `flags`. Every view shares its base's memory.

One rule for both targets: NumPy computes a view's geometry. On host it
does so on the array's own memory (`_host`, a NumPy array); on cuda on a
stand-in NumPy array of the same shape and strides over one element
(`_stand_in`), which is never read, and the view is the base's pointer
moved by the stand-in's offset. Operations that would copy (a reshape of a
strided view, fancy indexing) are refused rather than silently giving an
array that no longer shares memory."""

import numpy as np


class IncompatibleArrays(ValueError, TypeError):
    """A copy between arrays of different dtypes: a ValueError (pydev's
    rule for incompatible arrays) that is also Numba's TypeError."""


def _is_index(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def _basic_key(key, what):
    """`key` as a tuple of basic indices (ints, slices, None, ...): what
    Numba's device arrays take; advanced (array) indexing would copy."""
    parts = key if isinstance(key, tuple) else (key,)
    for k in parts:
        if not (_is_index(k) or isinstance(k, slice) or k is None or k is Ellipsis):
            raise TypeError(
                f"{what}: pydev.DeviceArray takes basic indices (integers, slices, None, ...), got {type(k).__name__} "
                "(advanced indexing would copy; copy the array to the host first)"
            )
    return parts


def _squeezed(shape):
    return tuple(e for e in shape if e != 1)


def check_copy_target(d, ary, what):
    """Numba's compatibility rule for a copy between DeviceArray `d` and
    array `ary`: the same dtype and the same shape up to dimensions of
    extent 1; errors name both."""
    if not isinstance(ary, np.ndarray):
        raise TypeError(f"{what}(ary): ary must be a NumPy array, got {type(ary).__name__}")
    if ary.dtype != d.dtype:
        raise IncompatibleArrays(
            f"{what}: incompatible dtype: the device array's {d.dtype} vs. the array's {ary.dtype}"
        )
    if ary.shape != d.shape and _squeezed(ary.shape) != _squeezed(d.shape):
        raise ValueError(f"{what}: incompatible shape: the device array's {d.shape} vs. the array's {ary.shape}")
    if what == "copy_to_host" and not ary.flags.writeable:
        raise ValueError("copy_to_host(ary): ary is read-only")


def reshape_view(a, shape, order):
    """NumPy view of `a` with `shape` in `order` ("C", "F", "A"; "K": the
    order of `a`'s memory, for shapes that differ by dimensions of extent
    1), or a NotImplementedError when the reshape needs a copy (as Numba's)."""
    if order == "K":
        order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
    try:
        return np.reshape(a, shape, order=order, copy=False)
    except TypeError:  # NumPy before 2.1: no copy=; a view's shape is set in place or refused
        if order == "A":
            order = "F" if a.flags.f_contiguous and not a.flags.c_contiguous else "C"
        v = a.view() if order == "C" else a.T.view()
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        try:
            v.shape = shape if order == "C" else shape[::-1]
        except AttributeError:
            raise NotImplementedError("reshape: the operation requires copying (the array is not contiguous)") from None
        return v if order == "C" else v.T
    except ValueError as e:
        if "copy" in str(e):
            raise NotImplementedError("reshape: the operation requires copying (the array is not contiguous)") from None
        raise


class ArrayViews:
    """The mixin of DeviceArray's host-side methods (see the module)."""

    # -- geometry --
    def _stand_in(self):
        """A NumPy array of this array's shape, dtype and strides over a
        single element: NumPy indexes and reshapes it without reading it."""
        item = self.dtype.itemsize
        return np.lib.stride_tricks.as_strided(
            np.zeros(1, self.dtype), self.shape, [s * item for s in self._elem_strides()], writeable=False
        )

    def _view_of(self, fn, stream=None):
        """The view `fn` (a NumPy view operation) makes of this array."""
        if self.target == "host":
            return self._wrap(fn(self._host), stream)
        stand_in = self._stand_in()
        return self._geometry_view(stand_in, fn(stand_in), stream)

    def _geometry_view(self, stand_in, g, stream=None, element=False):
        """The cuda view whose geometry is NumPy view `g` of `stand_in`
        (`element`: the 0-d view of `g`'s first element): the base's
        pointer moved by `g`'s offset in the stand-in."""
        offset = g.__array_interface__["data"][0] - stand_in.__array_interface__["data"][0] if g.size else 0
        item = self.dtype.itemsize
        return type(self)(
            () if element else g.shape,
            self.dtype,
            "cuda",
            stream=self.stream if stream is None or (type(stream) is int and stream == 0) else stream,
            device=self.device,
            _view=(
                self._base if self._base is not None else self,
                self._ptr + offset,
                () if element else [s // item for s in g.strides],
            ),
        )

    def _index_view(self, parts, stream):
        """(the cuda view `parts` selects, whether it is one element)."""
        stand_in = self._stand_in()
        element = len(parts) == self.ndim and all(_is_index(k) for k in parts)
        # An element's index with `..., None` appended gives a 1-element view: nothing is read.
        g = stand_in[parts + (Ellipsis, None)] if element else stand_in[parts]
        return self._geometry_view(stand_in, g, stream, element), element

    def _wrap(self, a, stream=None):
        """A host view of `a` (a NumPy view of `_host`) as a DeviceArray
        (`stream`: its stream, by default this array's)."""
        own = stream is None or (type(stream) is int and stream == 0)
        return type(self)(a.shape, self.dtype, "host", stream=self.stream if own else stream, _host=a)

    # -- Numba's flags --
    def is_c_contiguous(self):
        if self.target == "host":
            return bool(self._host.flags.c_contiguous)
        return bool(self._stand_in().flags.c_contiguous)

    def is_f_contiguous(self):
        if self.target == "host":
            return bool(self._host.flags.f_contiguous)
        return bool(self._stand_in().flags.f_contiguous)

    @property
    def flags(self):
        """Numba's `flags`: a dict with "C_CONTIGUOUS" and "F_CONTIGUOUS"."""
        return {"C_CONTIGUOUS": self.is_c_contiguous(), "F_CONTIGUOUS": self.is_f_contiguous()}

    @property
    def alloc_size(self):
        """Numba's `alloc_size`: the bytes the array's elements span in
        memory, from its lowest to its highest byte (0 when empty); a view's
        is its own span, not its base's allocation."""
        if self.size == 0:
            return 0
        lo = sum(s * (e - 1) for e, s in zip(self.shape, self.strides) if s < 0)
        hi = sum(s * (e - 1) for e, s in zip(self.shape, self.strides) if s > 0)
        return hi - lo + self.dtype.itemsize

    # -- indexing --
    def __getitem__(self, key):
        return self.getitem(key)

    def getitem(self, key, stream=0):
        """`d[key]` with basic indices: a view sharing `d`'s memory, or a
        NumPy scalar when every dimension is indexed by an integer (a
        copy of the element, as Numba's)."""
        parts = _basic_key(key, "DeviceArray[...]")
        if self.target == "host":
            r = self._host[parts]
            return self._wrap(r, stream) if isinstance(r, np.ndarray) else r
        view, element = self._index_view(parts, stream)
        return view.copy_to_host(stream=stream)[()] if element else view

    def __setitem__(self, key, value):
        self.setitem(key, value)

    def setitem(self, key, value, stream=0):
        """`d[key] = value`: `value` (a number, a NumPy array, a
        DeviceArray) broadcast and cast to the indexed elements, as NumPy
        assigns."""
        parts = _basic_key(key, "DeviceArray[...] = ...")
        if isinstance(value, ArrayViews):
            value = value._host if value.target == "host" else value.copy_to_host()
        if self.target == "host":
            self._host[parts] = value
            return
        self._index_view(parts, stream)[0]._write(value, stream)

    def copy_to_device(self, ary, stream=0):
        """Copies `ary` (a NumPy array or another device array of the same
        dtype and shape, up to dimensions of extent 1) into this array."""
        if isinstance(ary, ArrayViews):
            src = ary._host if ary.target == "host" else ary.copy_to_host()
        else:
            src = np.asarray(ary)
        if src.size == 0 and self.size == 0:
            return
        check_copy_target(self, src, "copy_to_device")
        src = src.reshape(self.shape)
        if self.target == "host":
            self._host[...] = src
        else:
            self._write(src, stream)

    # -- views --
    def reshape(self, *newshape, order="C"):
        """A view with shape `newshape`; NotImplementedError when that needs
        a copy (as Numba's)."""
        if len(newshape) == 1 and isinstance(newshape[0], (tuple, list)):
            newshape = tuple(newshape[0])
        if order not in ("C", "F", "A"):
            raise ValueError(f"reshape: order must be 'C', 'F' or 'A', got {order!r}")
        return self._view_of(lambda a: reshape_view(a, newshape, order))

    def ravel(self, order="C", stream=0):
        """A 1-d view; NotImplementedError when that needs a copy (as Numba's)."""
        if order not in ("C", "F", "A"):
            raise ValueError(f"ravel: order must be 'C', 'F' or 'A', got {order!r}")
        return self._view_of(lambda a: reshape_view(a, -1, order), stream)

    def transpose(self, axes=None):
        return self._view_of(lambda a: a.transpose(axes))

    @property
    def T(self):  # noqa: N802 - NumPy's and Numba's name
        return self.transpose()

    def view(self, dtype):
        """Numba's `view(dtype)`: the same memory read as elements of
        `dtype` (NumPy's rule: a dtype of another size needs a contiguous
        last axis, whose extent it rescales)."""
        dtype = np.dtype(dtype)
        if self.target == "host":
            a = self._host.view(dtype)
            return type(self)(a.shape, a.dtype, "host", stream=self.stream, _host=a)
        g = self._stand_in().view(dtype)
        item = dtype.itemsize
        if any(s % item for s in g.strides):
            raise ValueError(f"view: the array's strides {g.strides} are not multiples of {dtype}'s size {item}")
        return type(self)(
            g.shape,
            dtype,
            "cuda",
            stream=self.stream,
            device=self.device,
            _view=(self._base if self._base is not None else self, self._ptr, [s // item for s in g.strides]),
        )

    def squeeze(self, axis=None, stream=0):
        return self._view_of(lambda a: a.squeeze(axis), stream)

    def split(self, section, stream=0):
        """Views of `section` elements each (the last may be shorter) of a
        1-d array with unit stride, as Numba's `split` yields them."""
        if self.ndim != 1:
            raise ValueError(f"split: only 1-d arrays split, this one has {self.ndim} dimensions")
        if self.size and self.strides[0] != self.dtype.itemsize:
            raise ValueError("split: only arrays of unit stride split")
        section = int(section)
        if section <= 0:
            raise ValueError(f"split: the section size must be positive, got {section}")
        return (
            self.getitem(slice(begin, min(begin + section, self.size)), stream)
            for begin in range(0, self.size, section)
        )
