"""Extra passes at the pipelines' points (`passes=`, `plugins=`,
`PYDEV_PASSES`, `PYDEV_PASS_PLUGINS`; docs/research.md).

`passes={"before-lowering": "pydev-x,canonicalize"}` adds passes at one of
the points of both pipelines (`POINTS`); `plugins=[path.so]` loads pass
plugins whose passes those pipelines may name. The native side checks every
point, plugin and pass (a ValueError naming it) and gives the normalized
text; the cache key carries that text and each plugin's content digest.
"""

import hashlib
import os

from . import _native

POINTS = ("after-frontend", "after-promotion", "before-lowering", "llvm", "llvm-ir")


class Extra:
    """Checked extra passes: `text` (`point=pipeline;...`, points in
    pipeline order), `plugins` (absolute paths) and `key` (for caches)."""

    __slots__ = ("text", "plugins", "key")

    def __init__(self, text, plugins):
        self.text = text
        self.plugins = tuple(plugins)
        digests = []
        for p in self.plugins:
            with open(p, "rb") as f:
                digests.append(hashlib.sha256(f.read()).hexdigest()[:16])
        self.key = f"passes={text}|plugins={','.join(digests)}"

    def __eq__(self, other):
        return isinstance(other, Extra) and (self.text, self.plugins) == (other.text, other.plugins)

    def __hash__(self):
        return hash((self.text, self.plugins))

    def __repr__(self):
        return f"<passes {self.text!r} plugins={list(self.plugins)!r}>"

    def options(self):
        """The keywords of the native compile calls."""
        return {"passes": self.text, "plugins": list(self.plugins)}

    def as_dict(self):
        """`passes=` as given back (pickling)."""
        return dict(item.split("=", 1) for item in self.text.split(";") if item)


def _points(passes, what):
    """[(point, pipeline)] of `passes=`: a dict {point: "a,b" or ["a", "b"]}."""
    if passes is None:
        return []
    if not isinstance(passes, dict):
        raise TypeError(
            f"{what}: passes= takes a dict {{point: 'pass-a,pass-b'}} (points: {', '.join(POINTS)}), got {type(passes).__name__}"
        )
    out = []
    for point, pipeline in passes.items():
        if not isinstance(point, str) or point not in POINTS:
            raise ValueError(f"{what}: unknown pass point {point!r} (known: {', '.join(POINTS)})")
        if isinstance(pipeline, (list, tuple)):
            pipeline = ",".join(pipeline)
        if not isinstance(pipeline, str):
            raise TypeError(f"{what}: the passes at {point!r} must be a str or a list of str, got {pipeline!r}")
        if ";" in pipeline:
            raise ValueError(f"{what}: the passes at {point!r} contain ';', which separates points")
        out.append((point, pipeline.strip()))
    return out


def _plugins(plugins, what):
    if plugins is None:
        return []
    if isinstance(plugins, (str, os.PathLike)):
        plugins = [plugins]
    out = []
    for p in plugins:
        path = os.path.abspath(os.fspath(p))
        if not os.path.isfile(path):
            raise ValueError(f"{what}: pass plugin '{p}' does not exist")
        out.append(path)
    return out


def _check(points, plugins):
    text = ";".join(f"{p}={t}" for p, t in points if t)
    if not text and not plugins:
        return None
    return Extra(_native.get().check_passes(text, plugins), plugins)


def extra(passes, plugins, what):
    """The checked `passes=`/`plugins=` of an object (None: none): a
    ValueError names an unknown point, pass or plugin."""
    points = _points(passes, what)
    paths = _plugins(plugins, what)
    if not points and not paths:
        return None
    try:
        return _check(points, paths)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


_ENV = {}


def from_env():
    """The process's extra passes (PYDEV_PASSES=`point=a,b;point=c`,
    PYDEV_PASS_PLUGINS=`a.so:b.so`), checked once per value."""
    passes = os.environ.get("PYDEV_PASSES", "").strip()
    plugins = os.environ.get("PYDEV_PASS_PLUGINS", "").strip()
    if not passes and not plugins:
        return None
    got = _ENV.get((passes, plugins))
    if got is None:
        points = []
        for item in filter(None, (i.strip() for i in passes.split(";"))):
            point, sep, pipeline = item.partition("=")
            if not sep:
                raise ValueError(f"PYDEV_PASSES: '{item}' must be point=pass-a,pass-b")
            points.append((point.strip(), pipeline))
        what = "PYDEV_PASSES"
        for point, _ in points:
            if point not in POINTS:
                raise ValueError(f"{what}: unknown pass point '{point}' (known: {', '.join(POINTS)})")
        try:
            got = _ENV[(passes, plugins)] = _check(
                points, _plugins([p for p in plugins.split(":") if p], "PYDEV_PASS_PLUGINS")
            )
        except ValueError as e:
            raise ValueError(f"{what}: {e}") from None
    return got


_COMBINED = {}


def combine(*extras):
    """One Extra of several (an object's own, then the process's): the
    pipelines of each point in order, the plugins of all."""
    extras = tuple(e for e in extras if e is not None)
    if len(extras) <= 1:
        return extras[0] if extras else None
    got = _COMBINED.get(extras)
    if got is None:
        got = _COMBINED[extras] = _combine(extras)
    return got


def _combine(extras):
    points, plugins = {}, []
    for e in extras:
        for point, pipeline in e.as_dict().items():
            points[point] = f"{points[point]},{pipeline}" if point in points else pipeline
        plugins += [p for p in e.plugins if p not in plugins]
    return _check([(p, points[p]) for p in POINTS if p in points], plugins)


def options(extra):
    """The native compile keywords of `extra` (None: none)."""
    return {} if extra is None else extra.options()
