# omnimessage: one command runs the main job (`make demo`), one runs every test (`make test`).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

# target:directory pairs of everything the generator writes (all committed).
GENERATED := python:python/omnimessage/_generated markdown:docs

.PHONY: setup generate check-generated lint test demo bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $(STAMP)

generate: setup
	@for pair in $(GENERATED); do \
	  $(BIN)/omnimessage generate --target $${pair%%:*} --out $${pair#*:} || exit 1; \
	done

check-generated: setup
	@tmp=$$(mktemp -d); rc=0; \
	for pair in $(GENERATED); do \
	  t=$${pair%%:*}; d=$${pair#*:}; \
	  $(BIN)/omnimessage generate --target $$t --out $$tmp/$$t 2>/dev/null || { rc=1; break; }; \
	  for f in $$(cd $$tmp/$$t && find . -type f); do \
	    diff -u "$$d/$$f" "$$tmp/$$t/$$f" || { echo "generated file $$d/$$f is stale: run 'make generate'"; rc=1; }; \
	  done; \
	done; rm -rf $$tmp; \
	if [ $$rc = 0 ]; then echo "generated code is fresh"; fi; exit $$rc

lint: setup
	$(BIN)/ruff check python codegen bench
	$(BIN)/mypy

test: setup check-generated lint
	$(BIN)/pytest

demo: setup
	@echo "== examples/trace.jsonl: decoded strictly, re-encoded byte for byte =="
	@$(BIN)/omnimessage canonicalize examples/trace.jsonl | cmp - examples/trace.jsonl && \
	  echo "identical: $$(wc -l < examples/trace.jsonl) lines, every fidelity/parameters/output value kept verbatim"
	@echo
	@echo "== examples/invalid.jsonl: every line refused with its category, pointer and offset =="
	@$(BIN)/omnimessage canonicalize examples/invalid.jsonl > /dev/null; test $$? = 1

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
