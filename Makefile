# One command each on a fresh clone: `make test`, `make demo`; `make check` while changing code.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
LAYER  := layers/shared/python

export PYTHONPATH := $(LAYER)
export POWERTOOLS_TRACE_DISABLED := 1
export POWERTOOLS_METRICS_NAMESPACE := BedrockAgentSearch

# pytest's workers (pytest-xdist): one per core. Each test module stays on one worker, so that its module-scoped
# fixtures (functions and their worker processes, servers, prepared data) start once, and modules are handed out in
# the order they are collected, as one process would run them. WORKERS=0: no worker processes.
WORKERS := auto
PYTEST  := $(PY) -m pytest -n $(WORKERS) --dist loadscope --no-loadscope-reorder

SAM_VENV := .venv-sam
SAM      := $(SAM_VENV)/bin/sam

.PHONY: setup check test lint typecheck artefact demo mcp chat bench schema build upload-data clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet '.[dev]'
	touch $(STAMP)

# The quick loop while changing code: ruff, mypy and every test not marked slow (about 2 minutes on 2 cores).
check: setup lint typecheck
	$(PYTEST) -m 'not slow and not artefact'

test: setup lint typecheck
	$(PYTEST)

# The artefact tier: the layer built by its Makefile (for this machine's architecture) and each function run by
# awslambdaric under Python 3.13, read-only at /opt/python and /var/task in a private mount namespace (needs root
# for unshare, and Python 3.13 on PATH or from pyenv: it fails, never skips, without them).
artefact: setup
	$(PY) -m pytest -m artefact tests/artefact

lint: setup
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: setup
	$(PY) -m mypy

demo: setup
	$(PY) scripts/demo.py

# A local MCP server over stdio (docs/doors.md, "Local MCP server"). Its stdout is the protocol: setup's output goes to
# stderr and nothing is echoed. An MCP client runs `make -s -C <repo> mcp`: without -s, make's own "Entering
# directory" line would reach the client.
mcp:
	@$(MAKE) --no-print-directory setup >&2
	@$(PY) scripts/mcp_server.py

# Talk to the deployed agent (docs/deployment.md, "make chat"), found from the outputs of the stack STACK, each tool call printed
# as it happens, each answer's tokens after it. Q="..." asks one question and fails when a tool call failed, the service
# failed the answer or no tool was called: the smoke test after `sam deploy`.
# STACK and Q reach the script as the shell's variables, so no quote in a question can break the command.
chat: setup
	@$(PY) scripts/chat.py $${STACK:+--stack "$$STACK"} $${Q:+--question "$$Q"}

# Measure everything at every size, then write BENCHMARKS.md and docs/benchmarks.png (about 40 minutes on 2 cores;
# the first run also spends ~40 minutes generating and preparing the data, 100,000 decisions among it, and needs
# ~8 GB of memory and ~15 GB of disk under build/bench/).
bench: setup
	$(PY) -m pip install --quiet '.[bench]'
	mkdir -p build/bench
	$(PY) scripts/bench_sql.py
	$(PY) scripts/bench_layer.py
	$(PY) scripts/bench_cases.py > build/bench/cases.md
	$(PY) scripts/bench_hostile_cases.py > build/bench/hostile.md
	$(PY) scripts/bench_statutes.py > build/bench/statutes.md
	$(PY) scripts/bench_doors.py > build/bench/doors.md
	$(PY) scripts/bench_compare.py
	$(PY) scripts/bench_report.py

# Regenerate what is derived from the catalogue and the code: each SQL function's app.py and example event,
# events/env.json, template.yaml's functions, payloads and permissions, the layer's requirements.
schema: setup
	$(PY) scripts/schema.py
	$(PY) scripts/layer_requirements.py

# Validate and build the SAM application; report the layer's unzipped size (Lambda allows 250 MB in all).
build: $(SAM)
	AWS_DEFAULT_REGION=$${AWS_DEFAULT_REGION:-ap-northeast-1} $(SAM) validate --lint
	$(SAM) build
	@du -sm .aws-sam/build/SharedLayer | awk '{print "layer unzipped: " $$1 " MB (limit 250 MB with the functions)"}'
	@find .aws-sam/build/SharedLayer -name '*.cpython-313.pyc' | wc -l | \
		awk '{print "layer bytecode: " $$1 " .pyc files for python3.13" ($$1 ? "" : " (none: cold starts 0.6–0.9 s slower)")}'

$(SAM):
	python3 -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/pip install --quiet --upgrade pip
	$(SAM_VENV)/bin/pip install --quiet aws-sam-cli==1.170.0

# Validate, prepare and upload every dataset of the catalogue under the keys template.yaml expects.
upload-data: setup
	@test -n "$(BUCKET)" || (echo "usage: make upload-data BUCKET=<bucket> [CASES=cases.db] [STATUTES=laws.zip] [SOURCES='name=file.csv ...']"; exit 2)
	$(PY) scripts/upload_data.py --bucket "$(BUCKET)" $(if $(CASES),--source cases="$(CASES)") $(if $(STATUTES),--source statutes="$(STATUTES)") $(foreach s,$(SOURCES),--source "$(s)")

clean:
	rm -rf $(VENV) $(SAM_VENV) .aws-sam .pytest_cache .mypy_cache .ruff_cache .hypothesis build
