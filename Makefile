# One command each on a fresh clone: `make test`, `make demo`.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
LAYER  := layers/shared/python

export PYTHONPATH := $(LAYER)
export POWERTOOLS_TRACE_DISABLED := 1
export POWERTOOLS_METRICS_NAMESPACE := BedrockAgentSearch

.PHONY: setup test lint typecheck demo bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet '.[dev]'
	touch $(STAMP)

test: setup lint typecheck
	$(PY) -m pytest

lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: setup
	$(PY) -m mypy

demo: setup
	$(PY) scripts/demo.py

bench: setup
	$(PY) scripts/bench_sql.py
	$(PY) scripts/bench_cases.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis build
