# ledgerd — build, test, run, bench. Every target installs dependencies from the lock file first.
NODE_MODULES_STAMP := node_modules/.package-lock.json
TEST_FILES = $(shell find dist/test -name '*.test.js' | sort)
# `make run PORT=8089 HOMEDIR=/tmp/node2`; without them, the quickstart's LEDGERD_PORT and LEDGERD_HOME
# (docs/quickstart.md), else port 8088 and ~/.ledgerd.
PORT ?= $(or $(LEDGERD_PORT),8088)
# The control panel's port: PANELPORT, else LEDGERD_PANELPORT, else the API port + 2 (8088 → 8090, as the
# reference; a second node on PORT=8089 gets 8091 instead of a warning that 8090 is taken).
PANELPORT ?= $(or $(LEDGERD_PANELPORT),$(shell echo $$(($(PORT) + 2))))
HOMEDIR ?= $(or $(LEDGERD_HOME),$(HOME)/.ledgerd)

.PHONY: all install os-packages-test os-packages-bench build run test test-long bench mutation lint format bench-check clean

all: build

# `npm ci` installs exactly the committed lock file and never rewrites it (a fresh clone stays
# `git status`-clean); it fails when package.json and the lock disagree: add packages with
# `npm install <pkg>`, which updates both. The lock is as npm 11 writes it (commit 116f292).
$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

# Debian packages the tests and benchmarks run for real; installed only where missing, only as root.
os-packages-test:
	tools/os/install-packages.sh nats-server chromium wrk prometheus nginx

os-packages-bench:
	tools/os/install-packages.sh nats-server wrk

# The control panel's browser code (src/panel/web) has its own tsconfig: DOM types, browser modules; its RPC
# calls are typed by the method contract's declarations (dist/types, contract.tsconfig.json).
# The build also brings deploy/ledgerd.conf.example up to date with the configuration fields (written only
# when a field was added or changed; commit the result then).
build: install
	rm -rf dist
	node_modules/.bin/tsc -p .
	node_modules/.bin/tsc -p src/panel/web/contract.tsconfig.json
	node_modules/.bin/tsc -p src/panel/web
	node dist/tools/deploy/confExample.js

run: build
	bin/ledgerd -network=LOCAL -homedir=$(HOMEDIR) -port=$(PORT) -controlpanelport=$(PANELPORT)

# Lint runs first (STYLE.md §9: Biome in CI); the type check is the build itself.
test: build os-packages-test
	node_modules/.bin/biome check src test bench tools
	node --test --test-reporter=spec --test-timeout=300000 $(TEST_FILES)

# Long modes of the reliability suites (crash rounds, fuzz cases): see docs/operations.md.
test-long: build
	LEDGERD_LONG=1 node --test --test-reporter=spec --test-timeout=3600000 $$(find dist/test/reliability -name '*.test.js' | sort)

bench: build os-packages-bench
	node dist/bench/run.js

# The micro suite and the budget rows (bench/budgets.ts), compared in the same run with the committed
# bench/results/baseline.json: fails when a row is over its budget or more than 2x worse than its baseline.
# `node dist/bench/check.js --write-baseline` records a new baseline.
bench-check: build
	node dist/bench/check.js

# Mutation testing (StrykerJS; docs/testing.md §Mutation testing): one source file per Stryker run, one
# mutant at a time, niced. Incremental: results of unchanged code and tests are re-used from
# tools/mutation/incremental/ (a fresh clone re-uses them: ~6.5 min; hours on 2 cores from nothing). Not part of `make test`.
# MUTATION_FOLDERS=protocol for one folder; MUTATION_FILES="protocol/entry ledger/ledger" for some files.
MUTATION_FOLDERS ?= crypto protocol ledger
MUTATION_FILES ?= $(shell for f in $(MUTATION_FOLDERS); do find src/$$f -name '*.ts' ! -path 'src/protocol/genesis/data.ts'; done | sed 's#^src/##; s#\.ts$$##' | sort)
mutation: build
	@for t in $(MUTATION_FILES); do \
	  echo "== mutation: src/$$t.ts"; \
	  LEDGERD_MUTATE=$$t nice -n 19 node_modules/.bin/stryker run tools/mutation/stryker.config.mjs || exit 1; \
	done
	node tools/mutation/scores.mjs $(MUTATION_FOLDERS)

lint: install
	node_modules/.bin/biome check src test bench tools
	node_modules/.bin/tsc -p . --noEmit
	node_modules/.bin/tsc -p src/panel/web --noEmit

# Apply the formatter and Biome's safe fixes (import order, node: prefix) in place.
format: install
	node_modules/.bin/biome check --write src test bench tools

clean:
	rm -rf dist node_modules bench/results/latest.json reports .stryker-tmp
