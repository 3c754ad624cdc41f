"""Every public name of cuda.device, pydev, pydev.ir and pydev.numba (and its
`cuda` namespace) has a docstring of its own: the API reference
(`make docs`, docs/api/) is generated from them."""

import importlib
import inspect
import types

import pytest

MODULES = ["cuda.device", "pydev", "pydev.ir", "pydev.numba", "pydev.numba.cuda"]


def _own_doc(obj):
    """The object's own docstring: a class's or a function's, not one inherited
    from a base class; for other objects (instances), what help() shows."""
    if inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
    elif inspect.isroutine(obj):
        doc = obj.__doc__
    else:
        doc = getattr(obj, "__doc__", None)
    return (doc or "").strip()


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_has_a_docstring(module):
    m = importlib.import_module(module)
    assert _own_doc(m), f"module {module} has no docstring"
    names = getattr(m, "__all__", None)
    assert names, f"{module} has no __all__: its public names are not declared"
    missing = [n for n in names if not isinstance(getattr(m, n), types.ModuleType) and not _own_doc(getattr(m, n))]
    assert not missing, f"{module}: public names without a docstring: {missing}"


@pytest.mark.parametrize("module", ["pydev", "pydev.ir"])
def test_public_methods_of_public_classes_have_docstrings(module):
    m = importlib.import_module(module)
    missing = []
    for name in m.__all__:
        cls = getattr(m, name)
        if not inspect.isclass(cls) or not cls.__module__.startswith(("pydev", "cuda")):
            continue
        for attr, value in vars(cls).items():
            if attr.startswith("_") or not (inspect.isfunction(value) or isinstance(value, property)):
                continue
            if not (value.__doc__ or "").strip():
                missing.append(f"{name}.{attr}")
    assert not missing, f"{module}: public methods without a docstring: {missing}"
