# dicehall — two commands matter: `make run` and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
WEB_STAMP := dicehall/web/static/.built

.PHONY: run test lint typecheck pytest bench slow chaos system-deps web kernels bytecode catalogs clean lock flaky

# Python packages come from uv.lock only (exact versions and hashes, every platform): `uv sync --locked` refuses a
# pyproject.toml that no longer matches the lock. uv itself is pinned with its hashes in deps/uv.txt.
UV      := .uv/bin/uv
export UV_PYTHON_DOWNLOADS := never
$(UV): deps/uv.txt
	test -x .uv/bin/python || $(PY) -m venv .uv
	.uv/bin/python -m pip install -q --require-hashes -r deps/uv.txt
	touch $(UV)

# Installed with their bytecode (as pip does), and the project's own modules compiled below: a machine that sets
# PYTHONDONTWRITEBYTECODE (as this project's build machines do) otherwise compiles every module from source in
# every process, seconds for each command, test worker and server.
$(STAMP): pyproject.toml uv.lock $(UV)
	$(UV) sync --locked --extra dev --python $(PY) --compile-bytecode
	touch $(STAMP)

BYTECODE_STAMP := $(VENV)/.bytecode
bytecode: $(BYTECODE_STAMP)
$(BYTECODE_STAMP): $(STAMP) $(shell find dicehall tests tools bench -name '*.py' 2>/dev/null)
	$(BIN)/python -m compileall -q -j 0 dicehall tests tools bench
	touch $@

# The message catalogues compiled to gettext tables, each named after its .po's digest and used only while it matches
# (dicehall/i18n/catalogs.py): a command then opens a table instead of parsing 2,500 messages.
CATALOG_STAMP := $(VENV)/.catalogs
catalogs: $(CATALOG_STAMP)
$(CATALOG_STAMP): $(STAMP) $(wildcard dicehall/i18n/locales/*.po) dicehall/i18n/catalogs.py
	$(BIN)/python -m dicehall.i18n.catalogs
	touch $@

# The web front end is built by Vite into the package's static files (skipped while web/ does not exist).
web: $(WEB_STAMP)
$(WEB_STAMP): $(shell find web -type f -not -path 'web/node_modules/*' 2>/dev/null)
	@if [ -d web ]; then cd web && npm ci --no-audit --no-fund && npm run build; fi
	@mkdir -p $(dir $(WEB_STAMP)) && touch $(WEB_STAMP)

# Numba kernels (Clever rules and bot:master) compiled once into their on-disk cache at install, not by the
# first game, test or bot move (a cold compile costs about a minute of CPU).
KERNEL_STAMP := $(VENV)/.kernels
kernels: $(KERNEL_STAMP)
# Numba keys a cached kernel on its own file only, not on the modules it calls (their constants are compiled in):
# any change to a file that uses Numba, or that the Clever kernel reads, drops every cached kernel before they are
# compiled again. The simulation's Clever block kernel is also compiled ahead of time into an extension module,
# so that a random simulation loads no Numba (dicehall/clever/kernel/compiled.py; used only while its sources match).
KERNEL_SRC := $(shell grep -rlE --include='*.py' 'numba|njit' dicehall 2>/dev/null) \
	$(shell $(BIN)/python -m dicehall.clever.kernel.compiled --sources 2>/dev/null)
$(KERNEL_STAMP): $(BYTECODE_STAMP) $(KERNEL_SRC) dicehall/web/botwarm.py
	find dicehall -name '*.nbi' -delete -o -name '*.nbc' -delete
	$(BIN)/python -c "import dicehall.web.botwarm"
	$(BIN)/python -c "import dicehall.clever.blocks as b; b.warm()"
	$(BIN)/python -m dicehall.clever.kernel.compiled || echo "The ahead-of-time Clever kernel was not built (it needs a C \
	compiler and Python's headers): random simulations use Numba's kernel, the same games, a second slower to start."
	touch $@

# The main job: the web lobby on http://127.0.0.1:8000 (ARGS="play thousand" runs another command instead).
run: $(STAMP) web kernels catalogs
	$(BIN)/dicehall $(if $(ARGS),$(ARGS),serve)

lint: $(STAMP)
	$(BIN)/ruff check dicehall tests scripts bench tools
	$(BIN)/ruff format --check dicehall tests scripts bench tools

typecheck: $(STAMP)
	$(BIN)/mypy

# Debian packages (Chromium, OSMesa, PostgreSQL, stress-ng), named in deps/debian-packages.txt; the missing ones are
# installed, as root.
DEBIAN_PKGS := $(shell grep -v '^\#' deps/debian-packages.txt)
system-deps:
	@missing=$$(for p in $(DEBIAN_PKGS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "installing Debian packages: $$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; fi

# Tests in parallel processes (pytest-xdist), a whole file per process: a file's module fixtures (a server, a Ray
# instance) start once; each process has its own session (user data directory, browser server). PYTEST_JOBS=0: serial.
PYTEST_JOBS ?= auto
pytest: $(STAMP) web kernels catalogs system-deps
	$(BIN)/pytest -m "not slow" -n $(PYTEST_JOBS) --dist loadfile --durations=15

test: lint typecheck pytest

slow: $(STAMP) kernels catalogs
	$(BIN)/pytest -m slow

chaos: $(STAMP) web
	CHAOS_ITERATIONS=100 $(BIN)/pytest -m chaos

# The benchmarks live in bench/ and the developer tools they use in tools/, outside the installed package.
bench: $(STAMP) kernels catalogs
	$(BIN)/python -m bench $(ARGS)

clean:
	rm -rf $(VENV) .uv web/node_modules dicehall/web/static .mypy_cache .ruff_cache

# Every dependency to its newest release in one deliberate step: a new uv.lock (and web/package-lock.json), then the
# whole suite on it. Commit the two lock files only when this passes.
lock: $(UV)
	$(UV) lock --upgrade
	cd web && npm update --no-audit --no-fund
	$(MAKE) test

# CI's whole test job from N fresh clones in a row (LOADED of them with one core busy), then a table of failures.
N ?= 5
LOADED ?= 2
flaky: system-deps
	$(PY) tools/flaky.py --runs $(N) --loaded $(LOADED)
