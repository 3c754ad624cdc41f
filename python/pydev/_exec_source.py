"""The source text of functions compiled from a string: `exec`/`compile` of
a string and `python -c`, which leave no file and no `linecache` entry.

The frontends compile device code from its Python source; Numba works from
bytecode, so code written for Numba may define kernels this way. An audit hook
(`sys.addaudithook`, installed when a frontend is imported) records the
text of each `compile` event whose file name is not a real file and whose
text holds a `def`; `source_of(code)` then finds the recorded text that
defines a code object by compiling each candidate of that file name and
comparing the code objects exactly (`==`: name, first line, bytecode,
constants and nested code, names), so two texts named `<string>` that both
define `fn` are told apart and a near miss is never taken. A `python -c`
program, compiled before any hook existed, is read from `sys.orig_argv`.

Bound: the newest MAX_ENTRIES texts, at most MAX_CHARS characters in all
(about that many bytes held; a text over the bound is not kept). Texts
compiled before the hook was installed, or evicted since, are not found:
the frontends' error for a function without source stays.

Cost: the hook runs on every audited event of the process (one Python call
and a string comparison, 0.12-0.15 us; `id()` and `sys._getframe()` are
audited too: docs/performance.md); a recorded `compile` costs a dictionary
insertion, plus a `stat` for a file name that is not `<...>`."""

import __future__
import functools
import importlib.util
import operator
import os
import re
import sys
import threading
import types
import warnings

MAX_ENTRIES = 1024
MAX_CHARS = 16 << 20

_store = {}  # (file name, text) -> len(text), oldest first
_chars = 0
_lock = threading.Lock()
_installed = False

# The compiler flags of `from __future__ import ...` that a code object
# carries in co_flags (exec inherits its caller's: the candidate must too).
_FUTURE = functools.reduce(operator.or_, (getattr(__future__, f).compiler_flag for f in __future__.all_feature_names))


def install():
    """Installs the audit hook once per process (it cannot be removed)."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    sys.addaudithook(_hook)


def _hook(event, args):
    if event != "compile":
        return
    try:
        _record(args[0], args[1])
    except Exception:  # a hook that raises would abort the user's compile()
        pass


def _record(text, filename):
    global _chars
    if type(filename) is not str or not isinstance(text, (str, bytes)):
        return  # an AST (compile(tree, ...)) has no text to keep
    if (b"def" if type(text) is bytes else "def") not in text:
        return  # defines no function
    if filename[:1] != "<" and os.path.isfile(filename):
        return  # a real file: linecache reads it
    n = len(text)
    if n > MAX_CHARS:
        return
    key = (filename, text)
    with _lock:
        old = _store.pop(key, None)  # again: now the newest
        if old is None:
            _chars += n
        _store[key] = n
        while len(_store) > MAX_ENTRIES or _chars > MAX_CHARS:
            _chars -= _store.pop(next(iter(_store)))


def source_of(code):
    """The text (str) compiled from a string that defines code object
    `code`, newest first, or None when no recorded text does."""
    filename, name = code.co_filename, code.co_name
    with _lock:
        candidates = [t for (f, t) in reversed(_store) if f == filename]
    if filename == "<string>":
        program = command_text()
        if program is not None:
            candidates.append(program)
    if not candidates or not name.isidentifier():
        return None
    pattern = re.compile(r"\bdef\s+" + re.escape(name) + r"\s*[\(\[]")
    bpattern = re.compile(pattern.pattern.encode())
    flags = code.co_flags & _FUTURE
    # compile(..., optimize=N) drops asserts or docstrings: the interpreter's level first
    levels = dict.fromkeys((sys.flags.optimize, 0, 1, 2))
    for text in candidates:
        if not (bpattern if type(text) is bytes else pattern).search(text):
            continue
        for level in levels:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # its SyntaxWarnings were shown when it ran
                    top = compile(text, filename, "exec", flags=flags, dont_inherit=True, optimize=level)
            except (SyntaxError, ValueError):
                break
            if _defines(top, code):
                return importlib.util.decode_source(text) if type(text) is bytes else text
    return None


def _defines(top, code):
    """Whether `code` equals a code object nested in module code `top`."""
    stack = [top]
    while stack:
        c = stack.pop()
        if c.co_firstlineno == code.co_firstlineno and c.co_name == code.co_name and c == code:
            return True
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return False


def command_text():
    """The program of `python -c PROGRAM` (this process's), else None."""
    if not sys.argv or sys.argv[0] != "-c":
        return None
    argv = getattr(sys, "orig_argv", None) or []
    i = 1
    while i < len(argv):
        a = argv[i]
        if not a.startswith("-") or a == "--" or a == "-":
            return None
        for j in range(1, len(a)):
            ch = a[j]
            if ch == "c":
                rest = a[j + 1 :]
                if rest:
                    return rest
                return argv[i + 1] if i + 1 < len(argv) else None
            if ch in "WX":  # options that take an argument: attached, or the next word
                if j + 1 == len(a):
                    i += 1
                break
            if ch == "-":  # a long option (--check-hash-based-pycs takes an argument)
                if a == "--check-hash-based-pycs":
                    i += 1
                break
        i += 1
    return None
