/**
 * The test tiers (docs/testing.md §Tiers). `make test-unit` runs the unit tier: the files of test/unit/
 * that run in this one process — a real ledger over LMDB in a temp directory, HTTP servers started
 * in-process on loopback — and start no process of their own. `make test` runs every file.
 *
 * The unit tier is test/unit/ minus PROCESS_TESTS_IN_UNIT, a list that test/unit/testTiers.test.ts keeps
 * honest from the compiled imports: a unit-tier file that reaches node:child_process (itself, or through a
 * module of test/, tools/ or bench/ it imports) fails that test until it is listed here, and a listed file
 * that no longer reaches it fails too (it belongs back in the unit tier). What the node's own code starts
 * (src/store/scrub.ts's background scrub of an environment, a niced child) is part of what the unit
 * tests test, so the walk stops at src/.
 *
 * `node dist/test/support/tiers.js unit|process|process-cluster|process-other|all` prints a tier's compiled files, one per line (the Makefile).
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** test/unit/ files (source paths) that start processes, with what they start. */
export const PROCESS_TESTS_IN_UNIT: Readonly<Record<string, string>> = {
  "test/unit/bench/reads.test.ts": "the read benchmark's node process",
  "test/unit/cluster/federation.test.ts": "nats-server clusters",
  "test/unit/cluster/jetStreamLog.test.ts": "nats-server clusters",
  "test/unit/ledger/readerClusterAcks.test.ts": "a nats-server",
  "test/unit/crypto/ed25519Verdicts.test.ts": "a Node.js child without libsodium (node:crypto alone decides)",
  "test/unit/loadgen/launcher.test.ts": "the launcher's shebang through /usr/bin/env -S",
  "test/unit/monitor/heapGrowth.test.ts":
    "two Node.js children that grow their heaps with V8's growth flag set at run time",
  "test/unit/wallet/walletFile.test.ts": "a second wallet process contending for the wallet file's lock",
  "test/unit/wallet/walletSeed.test.ts": "ledgerd-wallet restore reading a mnemonic from its standard input",
  "test/unit/bench/check.test.ts":
    "nothing (it checks bench/check.ts's verdicts on made-up rows), but check.ts runs the budget rows, which launch a node",
  "test/unit/devnet/devnet.test.ts":
    "nothing (it checks the devnet's configuration text), but imports tools/devnet, which launches nats-server and nodes",
};

/**
 * Modules that reach node:child_process and may still be imported by a unit-tier file, with the reason
 * (checked by testTiers.test.ts: a module here must exist).
 */
export const IN_PROCESS_EXCEPTIONS: Readonly<Record<string, string>> = {
  "test/support/fileSizeLimit.ts":
    "runs `prlimit --pid=<this process>` once and waits for it: it lowers this test process's own file-size limit and leaves nothing running",
};

/** The repository root, from dist/test/support/. */
export const ROOT = join(import.meta.dirname, "..", "..", "..");

/** Every `*.test.ts` under `dir` (source paths relative to ROOT, `/`-separated, sorted). */
export function testFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(join(ROOT, d), { withFileTypes: true })) {
      const p = `${d}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".test.ts")) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** The unit tier's source files. */
export function unitTier(): string[] {
  return testFiles("test/unit").filter((f) => !(f in PROCESS_TESTS_IN_UNIT));
}

/** Every test file that is not in the unit tier: integration, reliability, cluster, and the listed unit files. */
export function processTier(): string[] {
  const unit = new Set(unitTier());
  return testFiles("test").filter((f) => !unit.has(f));
}

/**
 * The process tier in two lanes that `make test` runs side by side, each one file at a time with its own
 * range of ports (LEDGERD_TEST_PORTS, tools/net/freePorts.ts): the federation's files (test/cluster/: nats
 * clusters, nftables on their own ports) with the reliability suites, and every other file. Each lane took
 * ~12 of the ~23 minutes of the process tier in a fresh-clone run (docs/testing.md §Tiers).
 */
export function processLanes(): { cluster: string[]; other: string[] } {
  const inCluster = (f: string): boolean => f.startsWith("test/cluster/") || f.startsWith("test/reliability/");
  const files = processTier();
  return { cluster: files.filter(inCluster), other: files.filter((f) => !inCluster(f)) };
}

/** `test/x/y.test.ts` → `dist/test/x/y.test.js`. */
export function compiled(source: string): string {
  return `dist/${source.slice(0, -".ts".length)}.js`;
}

function main(argv: readonly string[]): number {
  const tier = argv[0];
  const lanes = processLanes();
  const files =
    tier === "unit"
      ? unitTier()
      : tier === "process"
        ? processTier()
        : tier === "process-cluster"
          ? lanes.cluster
          : tier === "process-other"
            ? lanes.other
            : tier === "all"
              ? testFiles("test")
              : undefined;
  if (files === undefined) {
    process.stderr.write("usage: node dist/test/support/tiers.js unit|process|process-cluster|process-other|all\n");
    return 1;
  }
  process.stdout.write(`${files.map(compiled).join("\n")}\n`);
  return 0;
}

if (process.argv[1] !== undefined && relative(process.argv[1], join(import.meta.dirname, "tiers.js")) === "")
  process.exitCode = main(process.argv.slice(2));
