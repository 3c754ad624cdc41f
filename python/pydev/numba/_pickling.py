"""Pickling pydev.numba's `@cuda.jit` kernels and device functions and
`cuda.declare_device` declarations (docs/distributed.md), as Numba-CUDA's
dispatchers pickle: by reference when importable, else by value (the Python
function with its globals, cells and file text: pydev._pickling), with the
jit options, the signatures given (compiled again on load, as at
decoration) and the link files' contents. Compiled overloads, locks and
launch caches never travel."""

from pydev import _pickling


def reduce_dispatcher(d):
    if _pickling.importable(d):
        return _pickling.by_reference(d)
    what = "device function" if d.device else "kernel"
    fn_args, fn_state = _pickling.function_parts(d.py_func, owner=f"pydev.numba {what} '{d.__qualname__}'")
    options = {k: v for k, v in d.options.items() if k != "link"}
    args = (type(d), fn_args, d.device, options, _pickling.link_contents(d.link))
    return (_new_dispatcher, args, {"function": fn_state, "signatures": list(d._declared)}, None, None, _fill)


def _new_dispatcher(cls, fn_args, device, options, link):
    fn = _pickling.new_function(*fn_args)
    paths = _pickling.link_paths(link)
    d = cls(fn, None, device, dict(options, link=list(paths)) if paths else options)
    try:
        d.source()  # read now from the text registered in linecache, which a cleared linecache would lose
    except Exception:
        pass  # no source came with it: its first compile says so
    return d


def _fill(d, state):
    _pickling.fill_function(d.py_func, state["function"])
    for sig in state["signatures"]:  # as Dispatcher() does with the signatures it is given
        d._declared.append(sig)
        if not d.device:
            d.compile(tuple(sig.args))
    return d


def reduce_extern(e):
    """A `cuda.declare_device` declaration: its name, signature and link
    files' contents."""
    return (_new_extern, (type(e), e.name, e.sig, _pickling.link_contents(e.link), e.abi, e._symbol, e._unsupported))


def _new_extern(cls, name, sig, link, abi="c", symbol=None, unsupported=None):
    return cls(name, sig, _pickling.link_paths(link), abi, symbol, unsupported)
