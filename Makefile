# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
LOCAL_STAMP := $(VENV)/.installed-local-stamp
BENCH_STAMP := $(VENV)/.installed-bench-stamp

.PHONY: demo test lint typecheck pytest test-random test-busy test-parallel bench bench-scale fuzz clean docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,web]'
	touch $(STAMP)

# The test suite also starts a real llama.cpp server (the `local` extra: the first time
# llama-cpp-python compiles from source, a few minutes), tests every lint tier (`lint`), a
# local Ray (`ray`), and the web UI in Debian's chromium driven by Playwright (`web`; the
# browser comes from apt, never a download by Playwright). llama.cpp's multimodal library
# (llava/mtmd, a quarter of the compile) is never used here, so it is not built.
# llama.cpp is built for x86-64 with AVX2 (GGML_NATIVE=OFF), not for this machine's own CPU: a
# native build on a CPU with AMX and AVX-512 crashed in its first decode (the llama.cpp server
# the tests start too), and one portable build gives every machine the same kernels.
# Chromium downloads while llama.cpp compiles (one waits on the network, the other on the CPU).
$(LOCAL_STAMP): $(STAMP)
	( command -v chromium >/dev/null || (apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) ) > $(VENV)/chromium.log 2>&1 & apt=$$!; \
	CMAKE_ARGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF $$CMAKE_ARGS" $(PY) -m pip install -q -e '.[dev,local,lint,ray,web]'; pip=$$?; \
	wait $$apt || { cat $(VENV)/chromium.log; exit 1; }; exit $$pip
	touch $(LOCAL_STAMP)

demo: $(STAMP)
	$(VENV)/bin/polygon demo

test: lint typecheck pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# mypy and import-linter cannot follow setuptools' package-dir map, so we lay the package out
# as it is installed (real folders, files linked) and check every module of that tree.
typecheck: $(STAMP)
	rm -rf .typecheck && mkdir -p .typecheck
	cp -rs "$$PWD/polygon" .typecheck/polygon
	for d in events projections cli rubrics examples; do cp -rs "$$PWD/$$d" .typecheck/polygon/$$d; done
	cd .typecheck && ../$(VENV)/bin/mypy --config-file ../pyproject.toml -p polygon
	cd .typecheck && PYTHONPATH=. ../$(VENV)/bin/lint-imports ../pyproject.toml

# The reference pages (docs/reference/) and the JSON Schemas shipped in the package are generated
# from the code; a test fails when they drift. Regenerate them after changing a model, a command,
# an event or the agent protocol.
docs: $(STAMP)
	$(PY) -m polygon.docs

# In file order (-p no:randomly), with the slowest tests named at the end.
pytest: $(LOCAL_STAMP)
	$(PY) -m pytest -q -p no:randomly --durations=15

# No test may depend on order, speed or running alone. These three prove it (docs/testing.md):
# random order (the seed is printed first; SEED=N make test-random reruns that order),
# pinned to one core that a busy loop also wants, and two xdist workers.
test-random: $(LOCAL_STAMP)
	seed=$${SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}; echo "random order, --randomly-seed=$$seed"; \
	$(PY) -m pytest -q -p randomly --randomly-seed=$$seed --durations=15

test-busy: $(LOCAL_STAMP)
	taskset -c 0 sh -c 'while :; do :; done' & hog=$$!; \
	taskset -c 0 $(PY) -m pytest -q -p no:randomly --durations=15; rc=$$?; kill $$hog; exit $$rc

test-parallel: $(LOCAL_STAMP)
	$(PY) -m pytest -q -p no:randomly -n 2 --durations=15

# The outside boundaries (suite files, transcripts, model answers, agent replies, the web UI's
# endpoints, label files) with 2,500 generated inputs each (make test runs 60 each, always the
# same). `python -m tests.fuzz.hostile_table` and `tests.fuzz.ray_table` count named hostile tries.
fuzz: $(STAMP)
	POLYGON_FUZZ_EXAMPLES=2500 $(PY) -m pytest -q -p no:cacheprovider tests/fuzz

# `bench` installs the `bench` extra (Inspect AI, the baseline of issue 31's throughput and
# memory goals); `make test` never needs it.
$(BENCH_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[bench]'
	touch $(BENCH_STAMP)

bench: $(BENCH_STAMP)
	$(PY) -m tests.bench.run

# Only the CLI table of `make bench`; POLYGON_BENCH_CALLS=100000 makes its largest run the
# 100,000-call one of issue 31 (about an hour of one core).
bench-scale: $(STAMP)
	$(PY) -m tests.bench.run scale

clean:
	rm -rf $(VENV) .typecheck build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
