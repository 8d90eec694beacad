# Two commands set everything up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
LOCAL_STAMP := $(VENV)/.installed-local-stamp

.PHONY: demo test lint typecheck pytest bench fuzz clean docs

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,web]'
	touch $(STAMP)

# The test suite also starts a real llama.cpp server (the `local` extra: the first time
# llama-cpp-python compiles from source, a few minutes), tests every lint tier (`lint`), a
# local Ray (`ray`), and the web UI in Debian's chromium driven by Playwright (`web`; the
# browser comes from apt, never a download by Playwright).
$(LOCAL_STAMP): $(STAMP)
	$(PY) -m pip install -q -e '.[dev,local,lint,ray,web]'
	command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)
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

pytest: $(LOCAL_STAMP)
	$(PY) -m pytest -q

# The four outside boundaries (suite files, transcripts, model answers, agent replies) with
# 2,500 generated inputs each: 10,000 in all (make test runs 60 each, always the same).
fuzz: $(STAMP)
	POLYGON_FUZZ_EXAMPLES=2500 $(PY) -m pytest -q -p no:cacheprovider tests/fuzz

bench: $(STAMP)
	$(PY) -m tests.bench.run

clean:
	rm -rf $(VENV) .typecheck build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache
