# The two jobs of this repository. Both create .venv and install into it when missing.
#   make run   regenerate from schemas/, verify nothing drifted, validate every example,
#              run the conformance suite, build the documentation site into site/
#   make test  lint, type-check, and run the tests with coverage (fails under 96 %)

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
# pytest-xdist workers: one per core by default (`make test JOBS=0` runs the tests in one process).
JOBS   ?= auto

.PHONY: run test generate check lint types pytest bench docs clean wheel

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
	$(PY) -m conformance run
	$(PY) -m generator.docs
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

# The docs site's browser test drives Debian's Chromium (never a downloaded browser).
/usr/bin/chromium:
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

test: $(STAMP) /usr/bin/chromium lint types
	$(PY) -m generator --check
	HYPOTHESIS_PROFILE=ci $(PY) -m pytest -n $(JOBS) --cov --cov-report=term --cov-fail-under=96

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
	$(PY) benchmarks/stream.py
	$(PY) benchmarks/linear.py
	$(PY) benchmarks/startup.py
	$(PY) benchmarks/batch.py

# The wheel into dist/: compiled with mypyc when a C compiler exists (minutes), pure Python
# otherwise or with INTERLINGUA_PURE_PYTHON=1 (build_support/compiled.py says which modules).
wheel: $(STAMP)
	$(PY) -m pip wheel --no-deps --no-build-isolation -w dist .

generate: $(STAMP)
	$(PY) -m generator

docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(PY) -m mkdocs build --strict --site-dir site

clean:
	rm -rf $(VENV) build dist site .coverage .mypy_cache .pytest_cache .ruff_cache .hypothesis
