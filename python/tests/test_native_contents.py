"""What the native module links: only the dialects the pipelines use
(docs/ARCHITECTURE.md, "The JIT and the wheel register only what the
pipelines use"). A full MLIR context anywhere in the module's code (one
`new_context()`) links every upstream dialect and grows the release wheel
from about 27 MB to 41 MB, past the 40 MB budget."""

import pathlib


def test_the_native_module_links_only_the_pipelines_dialects(native):
    so = pathlib.Path(native.__file__).read_bytes()
    assert b"pydev.shfl" in so and b"nvvm.shfl.sync" in so
    for op in [b"tosa.conv2d", b"spirv.module", b"linalg.matmul", b"sparse_tensor.convert"]:
        assert op not in so, (
            f"{op.decode()} is linked into the native module: something registers every upstream dialect"
        )
