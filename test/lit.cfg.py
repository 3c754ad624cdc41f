# The pydev lit suite: `make test` runs it with the tools of target/<profile>.
#
# Tools on PATH: pydev-opt (PYDEV_BIN_DIR), FileCheck and not (LLVM 22), and
# ptxas (PTXAS, from the nvidia-cuda-nvcc wheel). `--param require_ptxas=1`
# (what `make test` passes) turns a missing ptxas into an error instead of
# skipping the tests that assemble PTX.

import os
import shutil

import lit.formats

config.name = "pydev"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.excludes = ["lit.cfg.py", "samples", "conformance", "Inputs", "gpu", "bin"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "lit-out")

root = os.path.dirname(config.test_source_root)
bin_dir = os.environ.get("PYDEV_BIN_DIR", os.path.join(root, "target", "debug"))
llvm_bin = os.path.join(os.environ.get("MLIR_SYS_220_PREFIX", "/usr/lib/llvm-22"), "bin")
path = [bin_dir, llvm_bin]

ptxas = os.environ.get("PTXAS") or shutil.which("ptxas")
if ptxas and os.path.exists(ptxas):
    # tools/bin/ptxas runs the ptxas that accepts each -arch (the CUDA 12
    # wheel's for sm_70, which CUDA 13 dropped).
    path.append(os.path.join(config.test_source_root, "tools", "bin"))
    config.available_features.add("ptxas")
elif lit_config.params.get("require_ptxas") == "1":
    lit_config.fatal("ptxas not found: set PTXAS or run `make setup`")

if os.environ.get("PYDEV_LIBDEVICE"):
    config.environment["PYDEV_LIBDEVICE"] = os.environ["PYDEV_LIBDEVICE"]
config.environment["PATH"] = os.pathsep.join(path + [config.environment.get("PATH", os.environ["PATH"])])
config.substitutions.append(("%samples", os.path.join(config.test_source_root, "samples")))
# The plugin upstream mlir-opt loads (`make build` puts it next to pydev-opt;
# `pydev-opt --print-plugin-path` prints this path).
config.substitutions.append(("%pydev_plugin", os.path.join(bin_dir, "libpydev_plugin.so")))
# The pass plugin built outside pydev (examples/pass-template; `make build`).
config.substitutions.append(("%pass_template", os.path.join(bin_dir, "libpydev_pass_template.so")))
