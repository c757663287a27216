# ledgerd — build, test, run, bench. Every target installs dependencies from the lock file first.
NODE_MODULES_STAMP := node_modules/.package-lock.json
TEST_FILES = $(shell find dist/test -name '*.test.js' | sort)
HOMEDIR ?= $(HOME)/.ledgerd

.PHONY: all install os-packages-test os-packages-bench build run test test-long bench lint clean

all: build

# `npm install` with the committed lock file installs exactly the locked versions. Not `npm ci`: the
# registry mirror this project builds from lacks the other platforms' optional binaries (e.g.
# @biomejs/cli-darwin-arm64), which npm 11 can then not record in the lock, and `npm ci` refuses such a lock.
$(NODE_MODULES_STAMP): package.json package-lock.json
	npm install --no-audit --no-fund
	@touch $(NODE_MODULES_STAMP)

install: $(NODE_MODULES_STAMP)

# Debian packages the tests and benchmarks run for real; installed only where missing, only as root.
os-packages-test:
	tools/os/install-packages.sh nats-server chromium

os-packages-bench:
	tools/os/install-packages.sh nats-server wrk

build: install
	rm -rf dist
	node_modules/.bin/tsc -p .

run: build
	bin/ledgerd -network=LOCAL -homedir=$(HOMEDIR)

# Lint runs first (STYLE.md §9: Biome in CI); the type check is the build itself.
test: build os-packages-test
	node_modules/.bin/biome check src test bench tools
	node --test --test-reporter=spec --test-timeout=300000 $(TEST_FILES)

# Long modes of the reliability suites (crash rounds, fuzz cases): see docs/operations.md.
test-long: build
	LEDGERD_LONG=1 node --test --test-reporter=spec --test-timeout=3600000 $$(find dist/test/reliability -name '*.test.js' | sort)

bench: build os-packages-bench
	node dist/bench/run.js

lint: install
	node_modules/.bin/biome check src test bench tools
	node_modules/.bin/tsc -p . --noEmit

clean:
	rm -rf dist node_modules bench/results/latest.json
