# The two jobs of this repository. Both create .venv and install into it when missing.
#   make run   regenerate from schemas/, verify nothing drifted, validate every example,
#              run the conformance suite, build the documentation site into site/
#   make test  lint, type-check, and run the tests with coverage (fails under 96 %)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# pytest-xdist workers: one per core by default (`make test JOBS=0` runs the tests in one process).
# --dist worksteal: a worker that runs out of tests takes half of the other's queue, so a long
# test (the compiled-wheel build, started first by tests/conftest.py) leaves no worker idle.
JOBS   ?= auto

.PHONY: run test generate check lint types pytest bench docs clean node wheel

# The Node toolchain (tools/node: Ajv, TypeScript, locked) and the generated TypeScript package
# compiled with the conformance harness into build/node. The tests install and build it
# themselves when it is missing (tests/typescript/toolchain.py). The compiled harness finds its
# npm packages (Ajv, re2js, js-tiktoken) through a link beside it to tools/node/node_modules.
NODE_HARNESS := build/node/tools/node/harness.js
node:
	cd tools/node && npm ci --no-audit --no-fund --loglevel=error
	node tools/node/node_modules/typescript/bin/tsc -p tools/node
	ln -sfn ../../../../tools/node/node_modules build/node/tools/node/node_modules

# pyproject.toml says which packages (compatible ranges); constraints.txt pins their exact versions.
$(STAMP): pyproject.toml constraints.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip -c constraints.txt
	$(PY) -m pip install --quiet -e '.[dev]' -c constraints.txt
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m generator
	$(PY) -m generator --check
	$(PY) -m generator.examples
	$(MAKE) node
	$(PY) -m conformance run --impl "node $(NODE_HARNESS)" --expected-failures conformance/expected-failures/node.txt --report build/conformance/node.json --matrix build/conformance/node.md
	$(PY) -m conformance run --beside build/conformance/node.json
	$(PY) -m generator.docs
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

# The docs site's browser test drives Debian's Chromium (never a downloaded browser).
/usr/bin/chromium:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

# The store tests start their own throwaway cluster with Debian's PostgreSQL server binaries
# (tests/store/conftest.py); the package's default cluster is not wanted, so none is created.
/usr/lib/postgresql:
	mkdir -p /etc/postgresql-common
	test -e /etc/postgresql-common/createcluster.conf || echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null

test: $(STAMP) /usr/bin/chromium /usr/lib/postgresql lint types
	$(PY) -m generator --check
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest -n $(JOBS) --dist worksteal --durations=25 --cov --cov-report=term --cov-fail-under=96

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

types: $(STAMP)
	$(PY) -m mypy -p interlingua -p generator -p conformance
	$(PY) -m mypy tests benchmarks build_support setup.py

bench: $(STAMP)
	$(PY) benchmarks/validate.py
	$(PY) benchmarks/views.py
	$(PY) benchmarks/convert.py
	$(PY) benchmarks/floor.py
	$(PY) benchmarks/stream.py
	$(PY) benchmarks/linear.py
	$(PY) benchmarks/refuse.py
	$(PY) benchmarks/detect.py
	$(PY) benchmarks/startup.py
	$(PY) benchmarks/batch.py
	$(PY) benchmarks/store_import.py
	$(PY) benchmarks/store_query.py

# The wheel into dist/: compiled with mypyc when a C compiler exists (minutes), pure Python
# otherwise or with INTERLINGUA_PURE_PYTHON=1 (build_support/compiled.py says which modules).
wheel: $(STAMP)
	$(PY) -m pip wheel --no-deps --no-build-isolation -w dist .

generate: $(STAMP)
	$(PY) -m generator

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) build dist site tools/node/node_modules .coverage .mypy_cache .pytest_cache .ruff_cache .hypothesis
