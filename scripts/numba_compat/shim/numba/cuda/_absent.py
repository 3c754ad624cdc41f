"""numba-cuda internals the test modules import, as inert stand-ins.

Several in-scope test modules import numba-cuda internals (its compiler
passes, typing templates, data models, the `cuda.core` driver bindings) at
their top, for a few of their tests. So that the module's other tests run,
such an import gives an `Absent` stand-in: calling it, subclassing it,
decorating with it or reading its attributes gives more stand-ins and does
nothing. A test that relies on one fails (pydev.numba never receives a real
object), and scope.toml lists those tests as out of scope with the reason.
"""

import importlib.abc
import importlib.util
import sys
import types


class _AbsentMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Absent(f"{cls._absent_name}.{name}")


class Absent(Exception, metaclass=_AbsentMeta):
    """A numba-cuda internal not provided by the shim (a class, so that test
    modules may subclass it or name it in `except`)."""

    _absent_name = "numba internal"

    def __new__(cls, name="numba internal", *args, **kwargs):
        if cls is not Absent:
            # Instantiating a test's subclass of an internal.
            return Exception.__new__(cls)
        sub = _AbsentMeta(name.rsplit(".", 1)[-1], (Absent,), {"_absent_name": name})
        return sub

    def __init__(self, *args, **kwargs):
        pass

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Absent(f"{type(self)._absent_name}.{name}")

    def __call__(self, *args, **kwargs):
        return Absent(f"{type(self)._absent_name}()")


class _AbsentModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return Absent(f"{self.__name__}.{name}")


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, prefixes):
        self._prefixes = prefixes

    def find_spec(self, fullname, path=None, target=None):
        if any(fullname == p or fullname.startswith(p + ".") for p in self._prefixes):
            return importlib.util.spec_from_loader(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _AbsentModule(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


def install(prefixes):
    """Stand-ins for every module under these dotted names."""
    sys.meta_path.append(_Finder(prefixes))
