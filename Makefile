# pydev: `make demo` and `make test` are the two commands (README.md).
# Both run scripts/setup.sh first, which installs what is missing and
# returns in about a second when nothing is.

SHELL := /bin/bash
export MLIR_SYS_220_PREFIX ?= /usr/lib/llvm-22
export TABLEGEN_220_PREFIX ?= /usr/lib/llvm-22
export LLVM_SYS_221_PREFIX ?= /usr/lib/llvm-22
# libdevice.10.bc (nvidia-nvvm wheel) for CUDA math functions; empty until setup ran.
export PYDEV_LIBDEVICE ?= $(shell scripts/find-libdevice.sh 2>/dev/null)
PROFILE ?= debug
CARGO_FLAGS := $(if $(filter release,$(PROFILE)),--release,)
BIN := target/$(PROFILE)
LLVM_BIN := $(MLIR_SYS_220_PREFIX)/bin
LIT := $(LLVM_BIN)/lit
SAMPLE := test/samples/histogram.mlir
PY_SAMPLE := test/samples/saxpy.py
PY_SIGNATURE := float32, float32[::1], float32[::1], float32[::1]

.PHONY: all setup build wheel dev-wheel demo test lint test-rust test-lit check-ptx test-gpu test-host test-python test-distributed test-numba-compat check-docs docs clean

all: build

setup:
	@scripts/setup.sh

build: setup
	cargo build $(CARGO_FLAGS) -p pydev-opt -p pydevc -p pydev-plugin -p pydev-pass-template
	@$(MAKE) --no-print-directory $(PLUGIN_TOOLS)

# mlir-lsp-server and mlir-reduce with pydev: upstream's own mains plus
# libpydev_plugin.so (the upstream binaries take no plugins), linked to the
# shared libMLIR.so, so each is a few KB (docs/ARCHITECTURE.md, "Tools").
PLUGIN_TOOLS := $(BIN)/pydev-lsp-server $(BIN)/pydev-reduce
$(PLUGIN_TOOLS): $(BIN)/pydev-%: tools/pydev-plugin/cpp/%.cpp $(BIN)/libpydev_plugin.so
	c++ -std=c++17 -O1 -fno-rtti -fno-exceptions -w -I$(MLIR_SYS_220_PREFIX)/include $< -o $@ \
	  -L$(BIN) -Wl,--no-as-needed -lpydev_plugin -Wl,--as-needed -L$(MLIR_SYS_220_PREFIX)/lib -lMLIR -lLLVM \
	  '-Wl,-rpath,$$ORIGIN' -Wl,-rpath,$(MLIR_SYS_220_PREFIX)/lib

# Compile a sample kernel to PTX and print it, then build and install the
# wheel and run the README's quick start (on the GPU where there is one,
# else on the host target).
demo: build wheel
	@echo "== $(PY_SAMPLE) -> PTX (sm_90) =="
	@cat $(PY_SAMPLE)
	@echo
	@$(BIN)/pydevc $(PY_SAMPLE) --kernel saxpy --signature '$(PY_SIGNATURE)' --emit ptx
	@echo "== the README's quick start (test/samples/vector_add.py) =="
	@cd test/samples && python3 vector_add.py

# The wheel (maturin, pyo3 abi3) with `cuda.device` and `pydev`, installed
# into this Python. `make wheel` (and so `make demo` and the README's quick
# start) builds the optimized one users run and ship (release profile:
# DESIGN.md "Size"; auditwheel bundles libzstd for machines without it).
# `make dev-wheel` is the developers' fast loop (dev profile: it reuses
# `cargo build`'s artifacts and verifies the IR after every pass, but its
# unoptimized Rust makes a launch about ten times slower); `make test`
# tests it.
WHEEL_PROFILE ?= release
WHEEL_DIR := target/wheels/$(WHEEL_PROFILE)
wheel: setup
	@echo "== wheel ($(WHEEL_PROFILE)) =="
	rm -rf $(WHEEL_DIR)
	@# auditwheel repair rewrites the linked library in place (its libzstd
	@# becomes the bundled copy's name): relink so a second build can repair.
	$(if $(filter release,$(WHEEL_PROFILE)),rm -f target/maturin/lib_pydev.so target/release/lib_pydev.so target/release/deps/lib_pydev.so)
	maturin build --profile $(WHEEL_PROFILE) --strip $(if $(filter release,$(WHEEL_PROFILE)),--auditwheel repair,--auditwheel skip) -m python/Cargo.toml -o $(WHEEL_DIR)
	python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore --force-reinstall --no-deps $(WHEEL_DIR)/*.whl

dev-wheel:
	@$(MAKE) --no-print-directory wheel WHEEL_PROFILE=dev

test: build lint test-rust test-lit check-ptx test-gpu test-host test-python check-docs
	@echo "make test: all passed"

# rustfmt and ruff (rustfmt.toml, ruff.toml: format and lint) clean; the
# layers of python/ as .importlinter draws them (the backend imports no
# frontend, no import circles); every `unsafe` block and `unsafe impl` of
# the workspace says why it holds (a `// SAFETY:` comment): clippy's
# undocumented_unsafe_blocks, denied.
lint: setup
	@echo "== rustfmt =="
	cargo fmt --all -- --check
	@echo "== ruff: format and lint =="
	ruff format --check .
	ruff check .
	@echo "== import-linter: the layers of python/ (.importlinter) =="
	PYTHONPATH=python lint-imports
	@echo "== clippy: every unsafe block has a SAFETY comment =="
	cargo clippy $(CARGO_FLAGS) --workspace --all-targets -- -A clippy::all -D clippy::undocumented_unsafe_blocks

test-rust: setup
	@echo "== Rust tests =="
	cargo test $(CARGO_FLAGS) --workspace --lib --exclude pydev-bench

test-lit: build
	@echo "== lit suite =="
	PYDEV_BIN_DIR=$(CURDIR)/$(BIN) PTXAS=$$(scripts/find-ptxas.sh) $(LIT) -v --param require_ptxas=1 test

# Assembles the samples' PTX with ptxas for sm_90 (no GPU needed).
check-ptx: build
	@echo "== ptxas check =="
	@tmp=$$(mktemp -d) && \
	  $(BIN)/pydev-opt $(SAMPLE) --pydev-pipeline=cuda --emit=ptx -o $$tmp/ir.ptx && \
	  $(BIN)/pydevc $(PY_SAMPLE) --kernel saxpy --signature '$(PY_SIGNATURE)' -o $$tmp/py.ptx && \
	  $$(scripts/find-ptxas.sh) -arch=sm_90 $$tmp/ir.ptx -o $$tmp/ir.cubin && \
	  $$(scripts/find-ptxas.sh) -arch=sm_90 $$tmp/py.ptx -o $$tmp/py.cubin && \
	  echo "ptxas -arch=sm_90: $(SAMPLE) and $(PY_SAMPLE) assembled"; \
	  status=$$?; rm -rf $$tmp; exit $$status

# Compiles test/gpu/kernels.py with pydevc for sm_70, sm_80 and sm_90,
# assembles every PTX with ptxas, and, where a CUDA driver exists, runs the
# sm_90 build against NumPy (it says so and passes without one).
test-gpu: build
	@echo "== GPU kernels (test/gpu/run.py): ptxas for sm_70, sm_80, sm_90, then run =="
	@tmp=$$(mktemp -d) && \
	  for arch in sm_70 sm_80 sm_90; do \
	    python3 test/gpu/run.py --pydevc $(BIN)/pydevc --arch $$arch --assemble --compile $$tmp/$$arch || exit 1; \
	  done && python3 test/gpu/run.py --run $$tmp/sm_90; \
	  status=$$?; rm -rf $$tmp; exit $$status

# The same kernels on the host target (pydevc --target host, run through
# the wheel's runtime) against NumPy.
test-host: build dev-wheel
	@echo "== host target: test/gpu/kernels.py on the CPU =="
	@tmp=$$(mktemp -d) && python3 test/gpu/run.py --pydevc $(BIN)/pydevc --host $$tmp; \
	  status=$$?; rm -rf $$tmp; exit $$status

# The Python package's tests (the GPU module skips without a GPU).
# Run from the repository root: python/ itself would shadow the installed
# package (it has no native module).
test-python: dev-wheel
	@echo "== Python package (pytest) =="
	PYDEV_REQUIRE_NATIVE=1 python3 -m pytest -q -rs python/tests

# The engines of docs/distributed.md with Ray, which `make test` leaves out
# (its install is about 260 MB: `scripts/setup.sh --distributed`); Dask and
# mpi4py run here as in `make test`. About a minute.
test-distributed: dev-wheel
	@scripts/setup.sh --distributed
	@echo "== engines: Dask, mpi4py, Ray (python/tests/test_distributed.py) =="
	PYDEV_REQUIRE_NATIVE=1 PYDEV_TEST_RAY=1 python3 -m pytest -q -rs python/tests/test_distributed.py

# numba-cuda 0.30.4's own cudapy and doc_examples tests, unchanged, against
# pydev.numba on the host target: every in-scope module, a pass/fail/skip
# table and the pass rate (docs/numba.md, "numba-cuda's test suite"). `make
# test` runs a fixed slice of it (python/tests/test_numba_compat.py).
# NUMBA_COMPAT_FLAGS: more options for scripts/numba_compat/run.py
# (e.g. --json out.json, -m 'cudapy.test_atomics' -v, --classes 30).
test-numba-compat: dev-wheel
	@echo "== numba-cuda's test suite against pydev.numba (host target) =="
	PYDEV_TARGET=host python3 scripts/numba_compat/run.py --classes 30 $(NUMBA_COMPAT_FLAGS)

# docs/dialect.md is generated from dialect/pydev.td; check-docs fails when it is stale.
# Then the site: the user guide and the API reference generated from the
# installed package's docstrings (mkdocs.yml; MkDocs and mkdocstrings from
# scripts/setup.sh), into site/, failing on any warning.
docs: setup
	@{ echo "<!-- Generated from dialect/pydev.td by \`make docs\`; do not edit. -->"; \
	   $(LLVM_BIN)/mlir-tblgen -gen-dialect-doc -I$(MLIR_SYS_220_PREFIX)/include dialect/pydev.td; } > docs/dialect.md
	@echo "docs/dialect.md regenerated"
	python3 -m mkdocs build --strict --quiet
	@echo "site/ built: the user guide and the API reference (site/api/)"

check-docs: setup
	@echo "== docs/dialect.md is up to date =="
	@diff -q <({ echo "<!-- Generated from dialect/pydev.td by \`make docs\`; do not edit. -->"; \
	   $(LLVM_BIN)/mlir-tblgen -gen-dialect-doc -I$(MLIR_SYS_220_PREFIX)/include dialect/pydev.td; }) docs/dialect.md \
	  || { echo "docs/dialect.md is stale: run make docs"; exit 1; }

clean:
	cargo clean
	rm -rf test/lit-out
