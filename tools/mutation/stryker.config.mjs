// StrykerJS over one source file of src/ at a time (`make mutation`, docs/testing.md §Mutation testing).
// LEDGERD_MUTATE names it without the extension, e.g. `protocol/entry` or `ledger/ledger`. Stryker copies
// the project into .stryker-tmp/, instruments the file with every mutant at once (switched on by an
// environment variable), compiles the copy with tsc once, runs the chosen test files unmutated to learn
// which of them execute each mutant, then runs each mutant against only those (the tap runner: one
// node:test file per process, stopping at the first that fails).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";

const target = process.env.LEDGERD_MUTATE ?? "";
const folder = target.split("/")[0] ?? "";

/**
 * The compiled test files that may run against each folder's mutants. Left out: close-performance (a
 * timing budget, not a rule) and the integration and reliability suites (they start the node as a child
 * process, whose coverage the runner cannot see, and take minutes).
 */
const CANDIDATES = {
  // ed25519KeyCache last: a second of 10,001 keys, needed only by the key cache's own mutants
  crypto: [
    "crypto/ed25519",
    "crypto/ed25519Verdicts",
    "protocol/commit",
    "protocol/transaction",
    "protocol/address",
    "crypto/ed25519KeyCache",
  ],
  protocol: readdirSync("test/unit/protocol")
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `protocol/${f.slice(0, -".test.ts".length)}`),
  ledger: [
    "ledger/consensus",
    "ledger/rulesRangeAndExpiry",
    "ledger/rules",
    "ledger/messages",
    "ledger/messageRefusals",
    "ledger/holdingPolicy",
    "ledger/holdingSharePaidReveals",
    "ledger/merkleBuilder",
    "ledger/decodedBlockCache",
    "ledger/decodedBlockCacheBounds",
    "ledger/clock",
    "ledger/clockSchedule",
    "ledger/holdingQueue",
    "ledger/processList",
    "ledger/replay",
    "ledger/closeBookkeeping",
    "ledger/closeDurability",
    "ledger/blockBuilderStored",
    "ledger/debugViews",
    "ledger/closingOverlay",
    "ledger/bootstrapIdentity",
    "ledger/holdingSource",
    "ledger/byteArena",
    "ledger/holdingJournal",
    "ledger/blocks",
    "ledger/reader",
    "ledger/readerClusterAcks",
    "ledger/errorNames",
    "ledger/queries",
    // test/unit/idleRelease.test.ts: a released cache (decodedBlockCache's releaseHeld) holds and counts nothing
    "idleRelease",
    "ledger/rulesFromLog",
    "ledger/replayAfterFailedWrite",
    "ledger/writer",
    "ledger/callerAddress",
  ],
  // the federation's rules only (Makefile CLUSTER_RULES): the driver and the NATS transport need real
  // nats-servers and timers, tested end to end instead
  cluster: [
    "cluster/recordCodec",
    "cluster/dbSigChecks",
    "cluster/governance",
    "cluster/clientSignatures",
    "cluster/heightMachine",
    "cluster/election",
    "cluster/federationRules",
    "cluster/blockSets",
  ],
  // the store's format-2 record codec and its migration (entryRecords: real LMDB in a temp directory); the
  // other store files are not mutated yet (the Makefile's MUTATION_FOLDERS leaves store/ out)
  store: readdirSync("test/unit/store")
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `store/${f.slice(0, -".test.ts".length)}`),
};

/**
 * The ledger's fast rule tests (seconds each; a real ledger over LMDB), fastest first: a mutant stops at the
 * first file that fails. They are the tests of every ledger part the hub (ledger.ts) delegates to. The
 * block tests (`ledger/blocks`, a minute per run) are a second pass: LEDGERD_MUTATION_SLOW=1 adds them, for
 * the mutants only they can kill (a second pass replaces the first pass's results of that file).
 */
const LEDGER_FAST = [
  "ledger/holdingSharePaidReveals",
  "ledger/holdingPolicy",
  "ledger/rulesRangeAndExpiry",
  "ledger/holdingJournal",
  "ledger/consensus",
  "ledger/rules",
  ...(process.env.LEDGERD_MUTATION_SLOW === "1" ? ["ledger/blocks"] : []),
];

/**
 * Source files whose own tests are named here rather than found by imports: the ledger's parts are reached
 * through the hub (ledger.ts) by every ledger test, but only these state their rules; the block tests (a
 * minute per run) would only re-test what these already kill. A ledger file named neither here nor by a
 * test of its own (messages, merkleBuilder, decodedBlockCache) runs LEDGER_FAST.
 */
const FOCUS = {
  // rulesFromLog: the rules' own refusals of messages from the replicated log (no writer's check before them);
  // holdingPolicy, holdingSharePaidReveals: the tests of wouldHold (a reveal with a caller address, the per-source share)
  "ledger/rules": [
    "ledger/rulesFromLog",
    "ledger/consensus",
    "ledger/rulesRangeAndExpiry",
    "ledger/rules",
    "ledger/holdingPolicy",
    "ledger/holdingSharePaidReveals",
  ],
  // its schedule on mock timers (clockSchedule, seconds), then on real timers (blockTimeSeconds 0.5)
  "ledger/clock": ["ledger/clockSchedule", "ledger/clock"],
  // plain state the rules fill: its own unit test first (milliseconds), then the rules' tests
  "ledger/holdingQueue": ["ledger/holdingQueue", ...LEDGER_FAST],
  "ledger/processList": ["ledger/processList", ...LEDGER_FAST],
  "ledger/byteArena": ["ledger/byteArena", ...LEDGER_FAST],
  // the close's logs, counters and journal removal (closeBookkeeping), its durability, a cluster node's close, failed
  // saves and cleanups (closeDurability), a replayed close whose save fails (replay), then the rules' tests
  "ledger/close": ["ledger/closeBookkeeping", "ledger/closeDurability", "ledger/replay", ...LEDGER_FAST],
  // what the builder stores, read back against the wire format (blockBuilderStored), then the rules' tests
  "ledger/blockBuilder": ["ledger/blockBuilderStored", ...LEDGER_FAST],
  // reads of a closed block during its save against the store's answers after it (closingOverlay), the chains remembered (savedChains),
  // the saved paid commits read through the filter (recentPaidCommits)
  "ledger/savedState": ["ledger/closingOverlay", "ledger/savedChains", "ledger/recentPaidCommits", ...LEDGER_FAST],
  // the filter's own edges and a real store's bound (recentPaidCommits, ~2 s), then the rules' tests
  "ledger/recentPaidCommits": ["ledger/recentPaidCommits", ...LEDGER_FAST],
  // the per-source share's address normalization (holdingSource, milliseconds) and when a caller's address
  // is read (callerAddress) before the rules' tests
  "ledger/holdingPolicy": ["ledger/holdingSource", "ledger/callerAddress", ...LEDGER_FAST],
  // the bootstrap signer and the CUSTOM genesis check at open (bootstrapIdentity)
  "ledger/bootstrap": ["ledger/bootstrapIdentity", ...LEDGER_FAST],
  // the /debug views field by field (debugViews), then the rules' tests
  "ledger/debugViews": ["ledger/debugViews", ...LEDGER_FAST],
  // replay.ts: its own test (restarts over hand-written journal records) first, then the rules' tests and the
  // property test that restarts a ledger from its journal mid-sequence
  // replayAfterFailedWrite: the rebuild after a failed journal write (cleanup: false) removes no record
  "ledger/replay": ["ledger/replay", "ledger/replayAfterFailedWrite", ...LEDGER_FAST, "property/ledgerProperties"],
  // the reads no rule test makes (current-minute, blocks by hash, the cluster reads, a follower's reader:
  // reader), the /debug views (debugViews), a cluster node's NotConfirmed over a real JetStream log
  // (readerClusterAcks, one nats-server), then the rules' tests
  "ledger/reader": ["ledger/reader", "ledger/debugViews", "ledger/readerClusterAcks", ...LEDGER_FAST],
  // a rejection's name and message as logs show them (errorNames), then the rules' tests
  "ledger/errors": ["ledger/errorNames", ...LEDGER_FAST],
  // every read checked against the submitted messages and src/protocol's hashes (queries), then the rules' tests
  "ledger/queries": ["ledger/queries", ...LEDGER_FAST],
  // its own tests, then the release when the node goes quiet (idleRelease, milliseconds)
  "ledger/decodedBlockCache": ["ledger/decodedBlockCache", "ledger/decodedBlockCacheBounds", "idleRelease"],
  // the writer's own rules (writer: answers, refusals, journal, observer, failure and recovery, cluster
  // writes, options), when a reveal's caller address is read (callerAddress), then a journal commit that fails
  // after its message was applied (journalFailure: the rebuild from disk, `rollBack`; skipped without prlimit),
  // then the rules' tests
  "ledger/ledger": ["ledger/writer", "ledger/callerAddress", "ledger/journalFailure", ...LEDGER_FAST],
};
// the height machine: its own record-by-record tests (seconds, no log), the governance records' and the
// promotion grace's (record by record too), then the announced rates through a federation in memory; the
// election's tally behind it
FOCUS["cluster/heightMachine"] = [
  "cluster/heightMachine",
  "cluster/governance",
  "cluster/promotionGrace",
  "cluster/memoryEcRate",
];
FOCUS["cluster/election"] = ["cluster/election", "cluster/heightMachine"];
FOCUS["cluster/clientSignatures"] = ["cluster/clientSignatures"];
// dbSig: the tests that import it (as CANDIDATES would choose them), then the header chain's, the only caller of
// `untilMajority`. Named here rather than snapshotChain added to CANDIDATES.cluster: through test/support's
// memoryFederation it reaches records.ts too, and would change (and re-run in full) records' and others' lists.
FOCUS["cluster/dbSig"] = [
  "cluster/dbSigChecks",
  "cluster/governance",
  "cluster/heightMachine",
  "cluster/federationRules",
  "cluster/blockSets",
  "cluster/snapshotChain",
  "cluster/snapshotChainEdges",
];
// the header chain from genesis (pure, real ed25519): its rule tests as they were before its first mutation run
// (snapshotChain), then those written against that run's survivors (snapshotChainEdges: a mutant killed only there
// survived the first), then a starting node's snapshot over a real archive and LMDB stores (snapshots, ~25 s a run
// on the loaded machine) for what only that reaches. The cost walk (snapshotChainCost, 300 heights) is left out.
FOCUS["cluster/snapshotChain"] = ["cluster/snapshotChain", "cluster/snapshotChainEdges", "cluster/snapshots"];
// the segments' writer and reader: the header chain's rule tests (their archive reader), the reader's edges written
// for this file's first run (snapshotHeaders), then the federation's snapshots (segments written from real stores;
// ~40 s a run on the loaded machine: last, and the writer's mutants, which only it runs, run only it)
FOCUS["cluster/snapshotHeaders"] = ["cluster/snapshotChain", "cluster/snapshotHeaders", "cluster/snapshots"];
// the certification rule: its edges (pure, ~1 s), then its rule tests and the federation's snapshots (snapshots)
FOCUS["cluster/snapshotCertification"] = ["cluster/snapshotCertification", "cluster/snapshots"];
// the record codec byte for byte (entryRecordCodec, pure, under a second), then the records written, merged and
// migrated in real LMDB directories (entryRecords, ~5 s a run on the loaded machine)
FOCUS["store/entryRecord"] = ["store/entryRecordCodec", "store/entryRecords"];
// the migration: the whole migrations as they were before its first mutation run (entryRecords), then the edges
// written against that run's survivors (formatMigration: a mutant killed only there survived the first)
FOCUS["store/formatMigration"] = ["store/entryRecords", "store/formatMigration"];
const OWN_TESTS = new Set(["ledger/messages", "ledger/merkleBuilder", "ledger/decodedBlockCache"]);
if (folder === "ledger" && !(target in FOCUS) && !OWN_TESTS.has(target)) FOCUS[target] = LEDGER_FAST;

if (!(folder in CANDIDATES) || !/^[a-z]+(\/[a-zA-Z0-9]+)+$/.test(target))
  throw new Error(
    `LEDGERD_MUTATE must name a source file of ${Object.keys(CANDIDATES).join(", ")} without .ts, got "${target}"`,
  );

/** Relative imports of a test/ module, as repository paths of .ts files. */
function localImports(file) {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/from\s+"(\.{1,2}\/[^"]+)\.js"/g)].map((m) => normalize(join(dirname(file), `${m[1]}.ts`)));
}

/** Does test module `file` import `source`, directly or through other test/ modules? */
function reaches(file, source, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  for (const imported of localImports(file)) {
    if (imported === source) return true;
    if (imported.startsWith("test/") && reaches(imported, source, seen)) return true;
  }
  return false;
}

// The candidates that import the file under test (through test helpers too); when none does (a part the
// folder's entry point delegates to, e.g. a ledger rule behind ledger.ts), every candidate of the folder.
const source = `src/${target}.ts`;
const candidates = CANDIDATES[folder].map((t) => `test/unit/${t}.test.ts`);
const direct = candidates.filter((t) => reaches(t, source));
const focus = FOCUS[target]?.map((t) => `test/unit/${t}.test.ts`);
const tests = (focus ?? (direct.length > 0 ? direct : candidates)).map((t) =>
  relative(".", join("dist", t.replace(/\.ts$/, ".js"))),
);

/** Every test/ module `file` imports, directly or through other test/ modules, and itself. */
function closure(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return seen;
  seen.add(file);
  for (const imported of localImports(file)) if (imported.startsWith("test/")) closure(imported, seen);
  return seen;
}

// Stryker's incremental mode cannot see a change inside a test file of the tap runner (one test per file,
// no locations): it would re-use a "survived" that a new assertion now kills. So the results are kept per
// version of the tests: the file name carries a hash of the chosen test files, the test modules they
// import and the expected-error fixtures; other versions of this source file's results are removed.
const testSources = [...new Set(tests.flatMap((t) => [...closure(t.replace(/^dist\//, "").replace(/\.js$/, ".ts"))]))]
  .concat(readdirSync("test/fixtures/errors").map((f) => `test/fixtures/errors/${f}`))
  .sort();
const testsHash = createHash("sha256");
for (const f of testSources) testsHash.update(f).update(readFileSync(f));
const version = testsHash.digest("hex").slice(0, 12);
const resultsDir = dirname(`tools/mutation/incremental/${target}`);
const base = target.split("/").at(-1);
if (existsSync(resultsDir))
  for (const f of readdirSync(resultsDir))
    if ((f === `${base}.json` || (f.startsWith(`${base}@`) && f.endsWith(".json"))) && f !== `${base}@${version}.json`)
      rmSync(join(resultsDir, f));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [source],
  testRunner: "tap",
  tap: { testFiles: tests },
  coverageAnalysis: "perTest",
  buildCommand: "tsc -p .",
  // Stryker rewrites the tsconfig of the copy through the TypeScript compiler API, which TypeScript 7 (a
  // native compiler) no longer has; ours needs no rewriting (no extends, no references): point it nowhere.
  tsconfigFile: "tools/mutation/none.json",
  // 2 cores shared with other work: one mutant at a time (make mutation also runs Stryker under nice).
  concurrency: 1,
  // A mutant may turn a loop endless: per covering test run, its unmutated time × 2 + 10 s.
  timeoutFactor: 2,
  timeoutMS: 10_000,
  // dist/ stays in: the incremental run compares the compiled test files it ran with the last run's (make
  // mutation builds first), and re-tests only the mutants whose code or covering tests changed.
  // .venv-test: the Python virtual environment of `make test` (python-venv); its lib64 symlink to a directory
  // made the sandbox copy fail (EISDIR), and nothing in it is code under test
  ignorePatterns: ["bench/results", ".data", "tmp", "reports", ".stryker-tmp", ".venv-test"],
  incremental: true,
  incrementalFile: `tools/mutation/incremental/${target}@${version}.json`,
  reporters: ["clear-text", "progress-append-only", "json"],
  jsonReporter: { fileName: `reports/mutation/${target}.json` },
  clearTextReporter: { allowColor: false, logTests: false },
  tempDirName: `.stryker-tmp/${target.replaceAll("/", "-")}`,
  cleanTempDir: true,
  thresholds: { high: 90, low: 80, break: null },
};
