# omnimessage: one command runs the main job (`make demo`), one runs every test (`make test`).
# Recipes run in bash with -e, -u and pipefail: a failing command anywhere in a pipeline fails it.
SHELL       := bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
TS_DIR   := typescript
TS_STAMP := $(TS_DIR)/.setup-stamp
# The TypeScript build (dist/), redone when a source or a tsconfig changes, and only then: `make test`
# builds it once (setup), ts-test type-checks and tests that build instead of building it again.
TS_BUILT   := $(TS_DIR)/dist/.build-stamp
TS_SOURCES := $(shell find $(TS_DIR)/src $(TS_DIR)/bin -type f 2>/dev/null) $(wildcard $(TS_DIR)/tsconfig*.json)
# `omnimessage conformance --impl typescript` (and --matrix) run this build's testee, named explicitly:
# the installed code never looks for the checkout's typescript/ folder.
export OMNIMESSAGE_TS_BIN ?= $(CURDIR)/$(TS_DIR)/bin/omnimessage.mjs
# ... and `--impl rust` the release build of the Rust binding (built by `make rust-test`).
RS_DIR := rust
export OMNIMESSAGE_RS_BIN ?= $(CURDIR)/$(RS_DIR)/target/release/omnimessage-rs
# ... and `--impl go` the Go binding's command (built by `make go-test` or `make go-build`).
GO_DIR := go
export OMNIMESSAGE_GO_BIN ?= $(CURDIR)/$(GO_DIR)/bin/omnimessage-go

# Every generated file, by what writes it (all committed; `make generate` rewrites them all,
# `make check-generated` fails when one is stale, missing, or left over):
# - target:directory pairs of the code generator (`omnimessage generate`; the `*-testee` targets render the
#   testee protocol's schema, conformance/testee-protocol.schema.json); in the OWNED directories every
#   file is the generator's, so a file it no longer writes is reported too;
# - the conformance fixture builders, each with `--check` (a temporary build compared with its folder);
# - docs/rules.md, rendered from the validator's rule registry.
GENERATED := python:python/omnimessage/_generated c:python/omnimessage/_native/generated markdown:docs typescript:typescript/src/generated rust:rust/src/generated go:go/messages pydantic:conformance/baselines/pydantic \
             python-testee:python/omnimessage/conformance typescript-testee:typescript/src/cli rust-testee:rust/src/bin/omnimessage-rs \
             go-testee:go/cmd/omnimessage-go
OWNED     := python/omnimessage/_generated python/omnimessage/_native/generated typescript/src/generated rust/src/generated go/messages
BUILDERS  := conformance/tools/generate.py conformance/validator/build.py conformance/producers/build.py schema/versions/build.py
RULES_DOC := docs/rules.md

.PHONY: pytest-all ts-test rust-test rust-build go-test go-build peers-build peers-lint setup generate check-generated lint test test-hostile demo bench bench-quick bench-ecosystem fuzz fuzz-short fuzz-differential fuzz-ts mutants clean

setup: $(STAMP) $(TS_BUILT)

# Editable: python/, codegen/ and dev/ (the dev-only omnimessage_dev package: the synthetic-message
# generator, the validator bench; never in the wheel) go on the path (hatch dev-mode-dirs).
# The build hook (hatch_build.py) compiles the native accelerator in place: a change to its C
# sources or its generated table reinstalls.
NATIVE_SRC := hatch_build.py $(wildcard python/omnimessage/_native/*.[ch] python/omnimessage/_native/generated/*.h)
$(STAMP): pyproject.toml constraints.txt $(NATIVE_SRC)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev,bench]'
	@touch $(STAMP)

# The TypeScript binding: pinned dev tools from the lock file, then the build (dist/).
$(TS_STAMP): $(TS_DIR)/package.json $(TS_DIR)/package-lock.json
	cd $(TS_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $(TS_STAMP)

$(TS_BUILT): $(TS_STAMP) $(TS_SOURCES)
	cd $(TS_DIR) && npm run --silent build
	@touch $(TS_BUILT)

# TypeScript: the build (when stale), type-level tests (tsc --noEmit), unit tests (node --test).
ts-test: setup
	cd $(TS_DIR) && npm run --silent typecheck && npm run --silent test

# Rust (std only, no registry): format, lints, unit and integration tests, after the release build
# the conformance tests, the differential fuzzer and the bench run (OMNIMESSAGE_RS_BIN; rust-build).
rust-test: rust-build
	cd $(RS_DIR) && cargo fmt --check && cargo clippy --offline --all-targets -- -D warnings \
	  && cargo test --offline --release --quiet

# The release build alone (`make test` builds it first: pytest, fuzz-short and bench-quick run it;
# `make bench` and `make demo` on a fresh clone).
rust-build:
	cd $(RS_DIR) && cargo build --offline --release --quiet

# Go (standard library only): gofmt (nothing to reformat, the generator's golden Go output included), go vet, the tests under the race detector
# (the suite's shipped cases in-process: go/conformance_test.go), after the command the conformance runner,
# the differential fuzzer and the demo run (OMNIMESSAGE_GO_BIN; go-build). No network: the module has no
# dependency.
go-test: go-build
	@cd $(GO_DIR) && out=$$(gofmt -l . ../codegen/tests/golden) && { test -z "$$out" || { echo "gofmt: not formatted: $$out"; exit 1; }; }
	cd $(GO_DIR) && go vet ./... && go test -race -count=1 ./...

# The command alone (`make test` builds it first, for pytest, fuzz-short and bench-quick; `make demo`
# and `make bench` on a fresh clone).
go-build:
	cd $(GO_DIR) && go build -o bin/omnimessage-go ./cmd/omnimessage-go

# Each binding's own ecosystem for `make bench` (development only: a module and a crate of their own,
# go/bench-peers and rust/bench-peers, pinned by go.sum and Cargo.lock; the runtime module and crate
# still depend on nothing): encoding/json and goccy/go-json into structs, serde_json and sonic-rs into
# serde-derive structs. Fetches their dependencies from the Go module proxy and crates.io on first use.
peers-build:
	cd $(GO_DIR)/bench-peers && go build -mod=readonly -o ../bin/omnimessage-go-peers .
	cd $(RS_DIR)/bench-peers && cargo build --locked --release --quiet

# Their lint, in `make test` (gofmt of go/bench-peers is in go-test's `gofmt -l .`), which also builds them first:
# python/tests/test_bench_peers.py runs the binaries.
peers-lint:
	cd $(GO_DIR)/bench-peers && go vet ./...
	cd $(RS_DIR)/bench-peers && cargo fmt --check && cargo clippy --locked --release --quiet -- -D warnings

generate: setup
	@for pair in $(GENERATED); do \
	  $(BIN)/omnimessage generate --target $${pair%%:*} --out $${pair#*:} || exit 1; \
	done
	@for b in $(BUILDERS); do $(BIN)/python $$b; done
	@$(BIN)/python -m omnimessage.validate.engine.catalogue > $(RULES_DOC).tmp && mv $(RULES_DOC).tmp $(RULES_DOC)

check-generated: setup
	@tmp=$$(mktemp -d); rc=0; \
	for pair in $(GENERATED); do \
	  t=$${pair%%:*}; d=$${pair#*:}; \
	  $(BIN)/omnimessage generate --target $$t --out $$tmp/$$t 2>$$tmp/$$t.log || { \
	    cat $$tmp/$$t.log >&2; echo "check-generated: 'omnimessage generate --target $$t' failed"; rc=1; break; }; \
	  grep -v '^wrote ' $$tmp/$$t.log >&2 || true; \
	  for f in $$(cd $$tmp/$$t && find . -type f); do \
	    diff -u "$$d/$$f" "$$tmp/$$t/$$f" || { echo "generated file $$d/$$f is stale: run 'make generate'"; rc=1; }; \
	  done; \
	  case " $(OWNED) " in *" $$d "*) \
	    for f in $$(cd $$d && git ls-files); do \
	      test -f "$$tmp/$$t/$$f" || { echo "$$d/$$f is committed but no longer generated: remove it"; rc=1; }; \
	    done;; \
	  esac; \
	done; \
	$(BIN)/python -m omnimessage.validate.engine.catalogue > $$tmp/rules.md && diff -u $(RULES_DOC) $$tmp/rules.md \
	  || { echo "$(RULES_DOC) is stale: run 'make generate'"; rc=1; }; \
	rm -rf $$tmp; \
	for b in $(BUILDERS); do \
	  $(BIN)/python $$b --check || { echo "files written by $$b are stale: run 'make generate'"; rc=1; }; \
	done; \
	if [ $$rc = 0 ]; then echo "generated code is fresh"; fi; exit $$rc

lint: setup
	$(BIN)/ruff check python codegen bench dev fuzz
	$(BIN)/mypy

# Every part of `make test` runs side by side (TEST_JOBS at a time): none writes what another reads,
# and each waits only for what it runs (the builds named in its prerequisites). pytest is the longest
# part, so it comes first: it starts once the binaries its tests run are built (setup, rust-build,
# go-build, peers-build) and spreads its tests over PYTEST_WORKERS processes (pytest-xdist;
# python/tests/xdist_groups.py keeps a file with a module-scoped fixture on one of them); the lints,
# the other languages' tests, the short fuzz runs and the bench smoke run fill the cores beside it.
# Each part's output is printed whole when it ends (--output-sync), and every part runs to its end
# even when another failed (--keep-going), so a red run names all its failures.
TEST_JOBS      ?= 3
PYTEST_WORKERS ?= auto
test: setup
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --keep-going --output-sync=target \
	  pytest-all check-generated lint ts-test rust-test go-test peers-lint fuzz-short bench-quick

# The whole pytest suite as `make test` runs it (a missing tool fails its test instead of skipping it; the
# fifteen slowest tests are listed at the end, where the suite's time goes).
pytest-all: setup rust-build go-build peers-build
	OMNIMESSAGE_REQUIRE_TOOLS=1 $(BIN)/pytest -n $(PYTEST_WORKERS) --durations=15

# The whole hostile file catalogue (conformance/hostile/), `tier: full` included: a million `{}`
# lines through every reader, a 257 MiB line (a few minutes, about 1.5 GB of /tmp).
test-hostile: setup
	cd $(TS_DIR) && npm run --silent build
	OMNIMESSAGE_HOSTILE=full $(BIN)/pytest -p no:cacheprovider python/tests/test_hostile_files.py -s

# Throughput side by side with the peers (about 15 minutes from a fresh clone on an idle 2-core machine;
# BENCH_SCALE scales the corpora), then the instructions of the passes the ratio targets compare, counted by
# valgrind's callgrind (bench/callgrind.py; a few minutes, the figure those targets are judged on):
# writes bench/results.json, bench/RESULTS.md and bench/throughput.png; a peer that cannot run is an error.
bench: setup rust-build go-build peers-build
	$(BIN)/python -m bench.run --require-all

# The Go and Rust rows alone against their own ecosystem's parsers, wall and CPU time (a few minutes; issue 36):
# writes bench/ecosystem.json and bench/ECOSYSTEM.md.
bench-ecosystem: setup rust-build go-build peers-build
	$(BIN)/python -m bench.ecosystem

# One-minute smoke run of the same harness, so it never rots (its numbers mean nothing).
bench-quick: setup rust-build go-build peers-build
	@$(BIN)/python -m bench.run --quick --require-all > .bench-quick.log 2>&1 || { cat .bench-quick.log; exit 1; }
	@n=$$(grep -c 'MB/s' .bench-quick.log || true); \
	  test "$$n" -gt 0 || { cat .bench-quick.log; echo "bench-quick: the harness measured nothing"; exit 1; }; \
	  echo "bench-quick: the harness ran every task ($$n measurements)"

# Coverage-guided fuzzing (atheris): the decoder and the validator, FUZZ_SECONDS each, then the native
# canonical-form verifier (fuzz/native/: gcc -fsanitize=address,undefined, a mutation driver), seeded from
# the conformance fixtures and conformance/validator/ with a dictionary from the schema; crashes and
# inputs slower than 10 s land in fuzz/crashes-new/ (make it a fixture in fuzz/crashes/, then fix). Then the Go
# decoder with Go's native fuzzing (go/fuzz_test.go, seeded from the conformance cases and the examples):
# a failing input Go keeps in go/testdata/fuzz/FuzzDecode/ is copied to fuzz/crashes-new/go-*.
FUZZ_SECONDS ?= 600
FUZZ_CORPUS  := .fuzz-corpus
fuzz: setup
	@mkdir -p fuzz/crashes-new $(FUZZ_CORPUS)/decode $(FUZZ_CORPUS)/validate
	@$(BIN)/python fuzz/seed_corpus.py $(FUZZ_CORPUS)/decode
	@$(BIN)/python fuzz/seed_corpus.py --files $(FUZZ_CORPUS)/validate
	@$(BIN)/python fuzz/seed_corpus.py --dict $(FUZZ_CORPUS)/omnimessage.dict
	@rc=0; for t in decode validate; do \
	  echo "== fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  $(BIN)/python fuzz/fuzz_$$t.py $(FUZZ_CORPUS)/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
	    -dict=$(FUZZ_CORPUS)/omnimessage.dict -artifact_prefix=fuzz/crashes-new/$$t- -print_final_stats=1 || rc=1; \
	done; \
	echo "== fuzz_native: $(FUZZ_SECONDS) s"; \
	bash fuzz/native/run.sh $(FUZZ_SECONDS) $(FUZZ_CORPUS)/decode || rc=1; \
	echo "== fuzz_go: $(FUZZ_SECONDS) s"; \
	(cd $(GO_DIR) && go test -run '^$$' -fuzz '^FuzzDecode$$' -fuzztime $(FUZZ_SECONDS)s -parallel 1 .) || rc=1; \
	for f in $(GO_DIR)/testdata/fuzz/FuzzDecode/*; do \
	  test -f "$$f" && cp "$$f" fuzz/crashes-new/go-$$(basename "$$f") && rc=1; \
	done; \
	exit $$rc

# Differential fuzzing, Python against TypeScript, Rust and Go on the same generated and mutated lines
# (fuzz/differential.py): DIFF_INPUTS inputs; disagreements land in fuzz/crashes-new/.
DIFF_INPUTS ?= 200000
fuzz-differential: setup go-build
	cd $(TS_DIR) && npm run --silent build
	$(BIN)/python fuzz/differential.py --inputs $(DIFF_INPUTS)

# Property-based fuzzing of the TypeScript decoder (fast-check): FC_RUNS runs per property.
FC_RUNS ?= 100000
fuzz-ts: setup
	cd $(TS_DIR) && npm run --silent build && OMNIMESSAGE_FC_RUNS=$(FC_RUNS) npm run --silent fuzz

# The short forms, in make test: FUZZ_SHORT_SECONDS (15 s) per atheris target, of the native
# verifier under ASan+UBSan and of the Go decoder, as long of differential fuzzing (the fast-check short run is part of
# ts-test). Red unless every target ran to its final `Done N runs` line: a missing atheris or
# compiler, or a fuzzer that cannot start, fails.
FUZZ_SHORT_SECONDS ?= 15
FUZZ_SHOWN := ^(== fuzz_|Done|stat::number_of_executed_units|==[0-9]+== ERROR|ok  |--- FAIL)|new seeds in|dictionary entries|atheris is not installed
FUZZ_NOISE := ^(INFO: |WARNING: Failed to find function|\#[0-9]+[[:space:]]|Dictionary: |\#\#\#\#\#\# |"|stat::)
fuzz-short: setup rust-build go-build
	@log=$$(mktemp); trap 'rm -f "$$log"' EXIT; rc=0; \
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(FUZZ_SHORT_SECONDS) 2>&1 | tee "$$log" \
	  | { grep -E '$(FUZZ_SHOWN)' || true; } || rc=1; \
	for t in decode validate native; do \
	  awk -v t="fuzz_$$t:" '$$1 == "==" && $$2 ~ /^fuzz_/ { cur = $$2 } cur == t && /^Done [0-9]+ runs/ { ok = 1 } END { exit !ok }' "$$log" \
	    || { echo "fuzz-short: fuzz_$$t did not run to the end (no libFuzzer 'Done N runs' line)"; rc=1; }; \
	done; \
	awk '$$1 == "==" && $$2 ~ /^fuzz_/ { cur = $$2 } cur == "fuzz_go:" && /^ok  / { ok = 1 } END { exit !ok }' "$$log" \
	  || { echo "fuzz-short: fuzz_go did not run to the end (no 'ok' line of go test)"; rc=1; }; \
	test -z "$$(ls fuzz/crashes-new 2>/dev/null)" || { echo "fuzzing found crashes: fuzz/crashes-new/"; rc=1; }; \
	if [ $$rc != 0 ]; then \
	  echo "fuzz-short: FAILED; the errors in the atheris output:"; \
	  grep -vE '$(FUZZ_SHOWN)|$(FUZZ_NOISE)' "$$log" | tail -n 60 || true; exit 1; fi
	@$(BIN)/python fuzz/differential.py --seconds $(FUZZ_SHORT_SECONDS)

# Mutation runs of the three hand-written fast paths (issue 38; dev/mutation/run.py): the C verifier,
# the Rust crate's scanner, grammar and numbers, the TypeScript one-pass reader. MUTANTS one-line
# mutants per language drawn with MUTANTS_SEED, plus the families of issue 38, each run against a
# fast oracle subset (the hard-line catalogue judged by the pure Python path, and for Rust and
# TypeScript the conformance suite) and stopped at its first kill; writes docs/mutants.md (killed
# over total per language, every survivor). Measured on a 2-core machine under a load average of
# 12-15: 53 C mutants in 13 minutes, 23 Rust mutants in 36 (each a cargo build), 33 TypeScript
# mutants in 19; docs/mutants.md's run used MUTANTS=40 for C, 20 for Rust, 30 for TypeScript.
MUTANTS      ?= 40
MUTANTS_SEED ?= 38
mutants: setup rust-build
	$(BIN)/python dev/mutation/run.py --count $(MUTANTS) --seed $(MUTANTS_SEED)

# `make demo` needs the runtime, pydantic (the `pydantic` baseline of the matrix), the TypeScript
# build and the Rust release build (OMNIMESSAGE_RS_BIN: without it the matrix's rust row says "not
# installed"), not the dev and bench extras: its own stamp installs `.[pydantic]` into the same venv
# (nothing to do once `make setup` has installed everything); cargo rebuilds only what changed.
DEMO_STAMP := $(VENV)/.demo-stamp
$(DEMO_STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@test $(STAMP) -nt pyproject.toml \
	  || $(BIN)/python -m pip install --quiet --disable-pip-version-check \
	       $(if $(wildcard constraints.txt),-c constraints.txt) -e '.[pydantic]'
	@touch $(DEMO_STAMP)

demo: $(DEMO_STAMP) $(TS_BUILT) rust-build go-build
	@echo "== conformance matrix: implementations x groups, every case checked byte for byte =="
	@$(BIN)/omnimessage conformance --matrix
	@echo
	@echo "== examples/trace.jsonl: decoded strictly, re-encoded byte for byte =="
	@$(BIN)/omnimessage canonicalize -- examples/trace.jsonl | cmp - examples/trace.jsonl && \
	  echo "identical: $$(wc -l < examples/trace.jsonl) lines, every fidelity/parameters/output value kept verbatim"
	@echo
	@echo "== examples/invalid.jsonl: every line refused with its category, pointer and offset =="
	@rc=0; $(BIN)/omnimessage canonicalize -- examples/invalid.jsonl > /dev/null || rc=$$?; test $$rc = 1
	@echo
	@echo "== examples/stream.jsonl and examples/broken-stream.jsonl: the protocol validator =="
	@$(BIN)/omnimessage validate --profile stream --color never -- examples/stream.jsonl
	@rc=0; $(BIN)/omnimessage validate --profile stream --color never -- examples/broken-stream.jsonl || rc=$$?; test $$rc = 1

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
