"""The stages `pydev.compile` and `pydev.Program.compile` give, and the one
check of a (target, stage) request that both make (a leaf module)."""

import re

# Text stages, in pipeline order ("python-ast" only for a Python frontend's
# functions; "nvvm-ir" and "ptx" only for sm_XX).
STAGES = ("python-ast", "pydev", "pydev-opt", "llvm", "llvm-ir", "nvvm-ir", "ptx")
# Bytes (docs/interop.md): "object" for the host, "cubin" and "ltoir" for sm_XX.
BYTES_STAGES = ("object", "cubin", "ltoir")
ARCH_RE = re.compile(r"^sm_(\d+)[a-z]?$")


def check(target, stage):
    """(target, stage) of a compile request, the stage defaulting to "ptx"
    for sm_XX and "llvm" for the host; a ValueError names what is wrong."""
    if not isinstance(target, str) or not (target == "host" or ARCH_RE.match(target)):
        raise ValueError(f"target must be 'host' or 'sm_XX' (e.g. 'sm_90'), got {target!r}")
    if stage is None:
        return target, "llvm" if target == "host" else "ptx"
    if stage not in STAGES and stage not in BYTES_STAGES:
        raise ValueError(f"stage must be one of {', '.join(STAGES + BYTES_STAGES)}, got {stage!r}")
    # ("nvvm-ir" on the host is the compiler's CompileError, as it was.)
    if target == "host" and stage == "ptx":
        raise ValueError(f"stage '{stage}' needs an sm_XX target, not 'host'")
    if target == "host" and stage in ("cubin", "ltoir"):
        raise ValueError(f"stage '{stage}' needs an sm_XX target (the host's linkable stage is 'object')")
    if target != "host" and stage == "object":
        raise ValueError(
            f"stage 'object' is the host's (a relocatable object file for C/C++ linkers); for {target} use stage 'cubin'"
        )
    return target, stage
