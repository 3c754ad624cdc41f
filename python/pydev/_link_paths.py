"""The link files of interoperable code (spec: Python and CUDA C++;
docs/interop.md): `link=[paths]` of `@device.kernel` / `@device.func` and
`pydev.Program`, checked where they are given (`check_link`,
`check_link_paths`), gathered over the functions a kernel reaches
(`program_links`), and their contents' part of the disk-cache key
(`link_digest`). Building them is `_host_link`'s (host) and `_cudalink`'s
(cuda).
"""

import hashlib
import os

HOST_SOURCES = {".c": "c", ".cpp": "c++", ".cc": "c++", ".cxx": "c++", ".cu": "cu", ".bc": "ir", ".ll": "ir"}
HOST_BINARIES = (".o", ".a")
CUDA_ONLY = (".ptx", ".ltoir", ".cubin", ".fatbin")
SUFFIXES = tuple(HOST_SOURCES) + HOST_BINARIES + CUDA_ONLY


def LinkError(message):  # noqa: N802 - raised like a class
    """A link= file could not be built or linked: a pydev.CompileError
    (the message says which file or symbol, and why)."""
    from . import _native

    return _native.error_class("CompileError")(message)


def _site(fn):
    code = fn.__code__
    return f"{code.co_filename}:{code.co_firstlineno}"


def check_link_paths(link, owner, *, base=None, site=None):
    """The absolute paths of link files `link` (a path or a list of paths,
    str or os.PathLike) of `owner` (its description in messages:
    "@device.kernel 'f'", "pydev.Program 'k'"), each once: each must exist
    and have a suffix pydev links (SUFFIXES). Relative paths are relative
    to directory `base` (that of the file that defines a decorated
    function), else, or when not there, to the working directory; `site`
    ("file:line") starts each message."""
    if link is None:
        return ()
    at = f"{site}: error: " if site else ""
    if isinstance(link, (str, os.PathLike)):
        link = [link]
    if not isinstance(link, (list, tuple)):
        raise TypeError(f"{at}link= of {owner} must be a list of paths (str or os.PathLike), got {type(link).__name__}")
    out = []
    for p in link:
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"{at}link= of {owner} holds {p!r}, which is not a path (str or os.PathLike)")
        p = os.fspath(p)
        full = p if os.path.isabs(p) or base is None else os.path.join(base, p)
        if not os.path.exists(full) and not os.path.isabs(p) and os.path.exists(os.path.abspath(p)):
            full = os.path.abspath(p)
        suffix = os.path.splitext(p)[1].lower()
        if suffix not in SUFFIXES:
            raise ValueError(
                f"{at}link file '{p}' of {owner} has the unsupported suffix '{suffix}' (pydev links {', '.join(SUFFIXES)})"
            )
        full = os.path.normpath(os.path.abspath(full))
        if not os.path.isfile(full):
            raise FileNotFoundError(f"{at}link file '{p}' of {owner} does not exist (looked for {full})")
        if full not in out:
            out.append(full)
    return tuple(out)


def check_link(link, fn, decorator):
    """`check_link_paths` of function `fn` decorated by
    `@device.<decorator>`: relative paths are relative to the directory of
    the file that defines `fn`, messages start at its definition."""
    return check_link_paths(
        link,
        f"@device.{decorator} '{fn.__name__}'",
        base=os.path.dirname(os.path.abspath(fn.__code__.co_filename)),
        site=_site(fn),
    )


def link_digest(paths):
    """What the link files contribute to the disk-cache key: each path with
    the SHA-256 of its contents."""
    parts = []
    for p in paths:
        with open(p, "rb") as f:
            parts.append((p, hashlib.sha256(f.read()).hexdigest()))
    return tuple(parts)


def program_links(functions):
    """(link paths, declared functions) of `functions` (the _Function
    objects a kernel reaches): paths in order without repeats; declared
    interop functions as (name, params, result, site)."""
    paths, declared, seen = [], [], set()
    for f in functions:
        for p in getattr(f, "link", ()):
            if p not in seen:
                seen.add(p)
                paths.append(p)
        if getattr(f, "interop", False) and f._is_declaration():
            declared.append(f)
    return tuple(paths), declared
