# ledgerd — build, test, run, bench. Every target installs dependencies from the lock file first.
NODE_MODULES_STAMP := node_modules/.package-lock.json
# The test tiers (docs/testing.md §Tiers, test/support/tiers.ts): `node dist/test/support/tiers.js unit|process`.
TIER = node dist/test/support/tiers.js
# --test-timeout is a net for a hung file, not a speed bound (a process-isolated file's timeout covers the whole
# file): 15 min, because a file of ~2 min on a quiet machine took over 5 min at load average 20-30.
NODE_TEST = node --test --test-reporter=spec --test-timeout=900000
# Unit-tier files two at a time: each binds its servers on port 0 in-process and works in its own temp
# directory, so no two share a port or a directory (measured: 495 s against 749 s one at a time, load 10-20,
# all 1,185 tests passing). The process tier runs in two lanes side by side (test/support/tiers.ts
# processLanes), each one file at a time: its nodes and nats-servers take ports that were free a moment
# before (tools/net/freePorts.ts), so each lane takes them from its own range, below the kernel's ephemeral
# ports (32768-60999), and no lane or client socket can take a port another lane just released.
UNIT_CONCURRENCY = 2
CLUSTER_LANE_PORTS = 20000-25999
OTHER_LANE_PORTS = 26000-31999
# `make run PORT=8089 HOMEDIR=/tmp/node2`; without them, the quickstart's LEDGERD_PORT and LEDGERD_HOME
# (docs/quickstart.md), else port 8088 and ~/.ledgerd.
PORT ?= $(or $(LEDGERD_PORT),8088)
# The control panel's port: PANELPORT, else LEDGERD_PANELPORT, else the API port + 2 (8088 → 8090, as the
# reference; a second node on PORT=8089 gets 8091 instead of a warning that 8090 is taken).
PANELPORT ?= $(or $(LEDGERD_PANELPORT),$(shell echo $$(($(PORT) + 2))))
HOMEDIR ?= $(or $(LEDGERD_HOME),$(HOME)/.ledgerd)

# nats-server for the tests and benchmarks (and bin/ledgerd-devnet run from a recipe): a current upstream release
# built from the Go module proxy into .tools/ (tools/os/install-nats-server.sh), first on every recipe's PATH.
# Debian's 2.9.10 let a paused stream leader leave replicas that disagree (docs/cluster.md §"When a machine is
# lost"); the fault suites passed on v2.15.2 with the same code (docs/testing.md §"The nats-server the tests run").
NATS_SERVER_VERSION = v2.15.2
NATS_SERVER_DIR := .tools/nats-server-$(NATS_SERVER_VERSION)
export PATH := $(CURDIR)/$(NATS_SERVER_DIR):$(PATH)

.PHONY: all install nats-server os-packages-test os-packages-bench python-venv build run test test-unit test-long bench mutation lint format bench-check clean

all: build

# `npm ci` installs exactly the committed lock file and never rewrites it (a fresh clone stays
# `git status`-clean); it fails when package.json and the lock disagree: add packages with
# `npm install <pkg>`, which updates both. The lock is as npm 11 writes it (commit 116f292).
$(NODE_MODULES_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

nats-server:
	tools/os/install-nats-server.sh $(NATS_SERVER_VERSION) $(NATS_SERVER_DIR)

# Debian packages the tests and benchmarks run for real; installed only where missing, only as root.
os-packages-test: nats-server
	tools/os/install-packages.sh chromium wrk faketime nftables prometheus nginx

os-packages-bench: nats-server
	tools/os/install-packages.sh wrk

# The independent decoder of test/integration/independent-decoder.test.ts: the PyPI package factom-core
# (pinned in tools/python/requirements.txt) in a virtual environment of the machine's python3, remade when
# the requirements change. An install that fails (no PyPI, no C compiler for ed25519) fails `make test`.
PYTHON_VENV := .venv-test
PYTHON_VENV_STAMP := $(PYTHON_VENV)/.installed
$(PYTHON_VENV_STAMP): tools/python/requirements.txt
	rm -rf $(PYTHON_VENV)
	python3 -m venv $(PYTHON_VENV)
	$(PYTHON_VENV)/bin/pip install --disable-pip-version-check --no-input -r tools/python/requirements.txt
	$(PYTHON_VENV)/bin/python -c "import factom_core.blocks"
	@touch $(PYTHON_VENV_STAMP)

python-venv: $(PYTHON_VENV_STAMP)

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
# Every tier and lane runs even when one fails (one report of every failure); the target fails if any did.
# The lists are taken first: a tiers.js that fails stops the target (an empty list would make node --test
# look for test files on its own). The two process lanes write to files in test-output/ (ignored by git),
# printed whole, one after the other, as each ends.
test: build os-packages-test python-venv
	node_modules/.bin/biome check src test bench tools
	unit="$$($(TIER) unit)" && cluster="$$($(TIER) process-cluster)" && other="$$($(TIER) process-other)" && { \
	  failed=0; $(NODE_TEST) --test-concurrency=$(UNIT_CONCURRENCY) $$unit || failed=$$?; \
	  rm -rf test-output && mkdir -p test-output; \
	  LEDGERD_TEST_PORTS=$(CLUSTER_LANE_PORTS) $(NODE_TEST) $$cluster > test-output/cluster-lane.log 2>&1 & cpid=$$!; \
	  LEDGERD_TEST_PORTS=$(OTHER_LANE_PORTS) $(NODE_TEST) $$other > test-output/other-lane.log 2>&1 & opid=$$!; \
	  wait $$opid || failed=$$?; echo "=== process tier, other lane"; cat test-output/other-lane.log; \
	  wait $$cpid || failed=$$?; echo "=== process tier, cluster lane (test/cluster, test/reliability)"; cat test-output/cluster-lane.log; \
	  exit $$failed; }

# The unit tier (docs/testing.md §Tiers): test/unit/ minus the files that start processes (nodes, nats-server,
# a second wallet), as listed in test/support/tiers.ts and checked by test/unit/testTiers.test.ts. No OS
# packages needed. `make test` above runs this tier the same way, then the process tier.
test-unit: build
	node_modules/.bin/biome check src test bench tools
	unit="$$($(TIER) unit)" && $(NODE_TEST) --test-concurrency=$(UNIT_CONCURRENCY) $$unit

# Long modes of the reliability suites (crash rounds, fuzz cases: docs/operations.md) and of the federation's
# fault tests (each fault twice in a row: docs/cluster.md §1.12).
test-long: build os-packages-test
	LEDGERD_LONG=1 node --test --test-reporter=spec --test-timeout=3600000 $$(find dist/test/reliability -name '*.test.js' | sort) dist/test/cluster/faults-servers.test.js dist/test/cluster/faults-network.test.js

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
MUTATION_FOLDERS ?= crypto protocol ledger cluster store
# cluster/: the federation's rules only (the driver and the NATS transport are tested end to end)
CLUSTER_RULES := cluster/heightMachine cluster/election cluster/clientSignatures cluster/dbSig cluster/records cluster/authorities cluster/snapshotChain cluster/snapshotHeaders cluster/snapshotCertification
# store/: the format-2 entry record codec and the format 1 → 2 migration (the other store files: not mutated yet)
STORE_RULES := store/entryRecord store/formatMigration
MUTATION_FILES ?= $(sort $(shell for f in $(filter-out cluster store,$(MUTATION_FOLDERS)); do find src/$$f -name '*.ts' ! -path 'src/protocol/genesis/data.ts'; done | sed 's\#^src/\#\#; s\#\.ts$$\#\#') $(if $(filter cluster,$(MUTATION_FOLDERS)),$(CLUSTER_RULES)) $(if $(filter store,$(MUTATION_FOLDERS)),$(STORE_RULES)))
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
