"""Distinct kernels from generated sources, for the memory tests and
bench/memory.py: each adds its own constant, so none is another's cache
entry; linecache holds each source, as a file would."""

import linecache


def distinct_kernels(n, tag):
    out = []
    for i in range(n):
        name = f"<pydev-generated-{tag}-{i}>"
        text = f"import cuda.device as device\n\n@device.kernel\ndef k{i}(a):\n    t = device.tid(1)\n    if t < a.size:\n        a[t] = a[t] + {i}.0\n"
        linecache.cache[name] = (len(text), None, text.splitlines(True), name)
        module = {}
        exec(compile(text, name, "exec"), module)
        out.append(module[f"k{i}"])
    return out
