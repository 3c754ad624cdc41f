"""Pickling `@device.kernel` and `@device.func` (docs/distributed.md).

By reference when the function is importable (its module and qualified name
find it); by value otherwise (`__main__`, a closure, a module cloudpickle
pickles by value): the Python function (pydev._pickling: code, the values of
the globals it reads and of its closure cells, its file's text, registered
in linecache on load), the decorator's options, its link files' contents,
and what makes its cache keys: the module constants its file's device code
reads and the names structs have in its program description; and the code
its specializations compiled, by disk-cache key, which a worker with the
same target and compiler loads without compiling. Its lock, specializations
and loaded programs never travel: the loaded function compiles (or finds its
code, under the same keys) on first launch, and a CompileError points at the
same lines of the same text."""

from pydev import _pickling, _types


def reduce(f):
    """`f.__reduce_ex__`: by reference, or (shell, its arguments, state,
    None, None, fill) so that objects that refer back to `f` (a device
    function calling itself, a kernel's own global) are pickled after it."""
    if _pickling.importable(f):
        return _pickling.by_reference(f)
    consts = f._consts()
    what = "kernel" if type(f).__name__ == "Kernel" else "device function"
    fn_args, fn_state = _pickling.function_parts(
        f.underlying,
        extra_globals=consts,
        owner=f"{what} '{f.__qualname__}'",
        source=f._src[1] if f._src else None,  # the text it compiled, even if the file changed since
    )
    structs = []
    for v in list(fn_state["globals"].values()) + list(fn_state["cells"]):
        if _types.is_struct(v):
            structs.append((v, _types.sig_name(v)))
    compiled = {}
    for spec in f.__dict__.get("_specs", ()):
        compiled.update(spec._compiled())
    args = (type(f), fn_args, f.interop, f.lineinfo, _pickling.link_contents(f.link), tuple(f._names))
    state = {"function": fn_state, "structs": structs, "compiled": compiled, "fmad": f.fmad}
    if f.passes is not None:  # by its text and plugin paths: the plugins must exist where it is loaded
        state["passes"] = (f.passes.as_dict(), f.passes.plugins)
    return (_new, args, state, None, None, _fill)


def _new(cls, fn_args, interop, lineinfo, link, names):
    fn = _pickling.new_function(*fn_args)
    f = cls(fn, interop=interop, lineinfo=lineinfo)
    f.link = _pickling.link_paths(link)
    path, text = fn_args[-1]
    if text is not None:
        f._src = (path, text)  # the text it was pickled with, even where the file differs
    f._names = list(names)  # the names of constants its cache keys hold
    return f


def _fill(f, state):
    _pickling.fill_function(f.underlying, state["function"])
    if not state.get("fmad", True):
        f.fmad = False
    if state.get("passes"):
        from pydev import _passes

        passes, plugins = state["passes"]
        f.passes = _passes.extra(passes, list(plugins), f"kernel '{f.__qualname__}'")
    # The code its specializations compiled, by disk-cache key (target,
    # architecture, compiler): loaded without compiling where they match.
    f._carried = dict(state.get("compiled") or {}) or None
    for cls, name in state["structs"]:
        # A struct of __main__ is named by its name there, by qualname@line
        # where __main__ does not hold it: the program keeps the first name.
        if _types.sig_name(cls) != name:
            cls._sig_name = name
    return f
