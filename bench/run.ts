/**
 * `make bench` (= `node dist/bench/run.js`): the micro suite, the budget rows (budgets.ts), then the
 * end-to-end load benchmark when it is built (dist/tools/loadgen/index.js exporting `runLoad`), then the
 * read comparison against a bare uWebSockets.js server (reads.ts), then the query rows on a 1,000,000-entry
 * store (queryRows.ts; `--no-query` leaves them out), then the cluster scenario
 * (dist/tools/loadgen/cluster.js), printed as ONE table and written to
 * bench/results/latest.json with a description of the machine. Interface: bench/README.md.
 * `make bench-check` (check.ts) compares the micro suite and the budget rows with bench/results/baseline.json.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { budgetRows } from "./budgets.js";
import { describeMachine, type MachineDescription } from "./machine.js";
import { runMicro } from "./micro.js";
import { useBenchPorts } from "./ports.js";
import { queryRows } from "./queryRows.js";
import { readComparisonRows } from "./reads.js";
import { type BenchRow, formatTable } from "./row.js";

/** What an end-to-end load module must export (tools/loadgen/index.ts). */
export interface LoadModule {
  runLoad(): Promise<BenchRow[]>;
}

/** Ratios between rows of the same run: the figures docs/performance.md discusses. */
export interface DerivedFigures {
  /** PoolVerifier (batched) signatures/s ÷ single-core node:crypto verifies/s */
  poolVerifyOverCeiling?: number;
  /** PoolVerifier batched ÷ one signature per task (the batching lever) */
  batchedOverSingleTask?: number;
  /** node:crypto verify ÷ @noble/ed25519 verify */
  nodeOverNobleVerify?: number;
  /** node:crypto sha256 ÷ @noble/hashes sha256, 64 B */
  nodeOverNobleSha256?: number;
  /** Merkle root of 10,000 leaves: main-thread time ÷ MerkleHasher time */
  merkleMainOverPool?: number;
  /**
   * the 60-s write run: node CPU per acknowledged entry ÷ one single-thread libsodium verify measured in the
   * same run (issue 35's "signature checks per entry"; target ≤ 3.0)
   */
  writeSignatureChecksPerEntry?: number;
  /** read comparison (reads.ts): node req/s ÷ bare uWebSockets.js req/s in the adjacent run, per method */
  readRatios?: Record<string, number>;
}

export interface BenchReport {
  /** bumped when the shape changes */
  schema: 1;
  date: string;
  command: string;
  machine: MachineDescription;
  rows: BenchRow[];
  derived: DerivedFigures;
  load: { ran: boolean; reason?: string };
}

const LOAD_MODULE = new URL("../tools/loadgen/index.js", import.meta.url);
const CLUSTER_MODULE = new URL("../tools/loadgen/cluster.js", import.meta.url);
const RESULTS = fileURLToPath(new URL("../../bench/results/latest.json", import.meta.url));

/** Ratios between rows of one run (absent when a row is missing or skipped). */
export function deriveFigures(rows: readonly BenchRow[]): DerivedFigures {
  const rate = (id: string): number | undefined => {
    const row = rows.find((r) => r.id === id);
    if (row === undefined || row.samples === 0) return undefined;
    return row.itemsPerSec ?? row.opsPerSec;
  };
  const ratio = (a: string, b: string): number | undefined => {
    const x = rate(a);
    const y = rate(b);
    return x === undefined || y === undefined ? undefined : Math.round((x / y) * 100) / 100;
  };
  const derived: DerivedFigures = {};
  const set = <K extends keyof DerivedFigures>(key: K, value: DerivedFigures[K] | undefined): void => {
    if (value !== undefined) derived[key] = value;
  };
  set("poolVerifyOverCeiling", ratio("workers.verify.pool.batched", "crypto.ed25519.node"));
  set("batchedOverSingleTask", ratio("workers.verify.pool.batched", "workers.verify.pool.single"));
  set("nodeOverNobleVerify", ratio("crypto.ed25519.node", "crypto.ed25519.noble"));
  set("nodeOverNobleSha256", ratio("crypto.sha256.node", "crypto.sha256.noble"));
  set("merkleMainOverPool", ratio("workers.merkle.pool", "workers.merkle.main"));
  set("writeSignatureChecksPerEntry", rows.find((r) => r.id === "load.writes.signatureChecks")?.budget?.value);
  return derived;
}

async function loadRows(): Promise<{ rows: BenchRow[]; ran: boolean; reason?: string }> {
  if (process.argv.includes("--micro-only")) return { rows: [], ran: false, reason: "--micro-only" };
  if (!existsSync(LOAD_MODULE)) return { rows: [], ran: false, reason: "dist/tools/loadgen/index.js is not built" };
  try {
    const mod = (await import(LOAD_MODULE.href)) as Partial<LoadModule>;
    if (typeof mod.runLoad !== "function")
      return { rows: [], ran: false, reason: "dist/tools/loadgen/index.js does not export runLoad()" };
    return { rows: await mod.runLoad(), ran: true };
  } catch (error) {
    return {
      rows: [],
      ran: false,
      reason: `runLoad() failed: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * The cluster scenario (tools/loadgen/cluster.ts: 3 nats-servers + 3 federated servers, one killed
 * mid-run, the single node beside it); skipped rows, never a throw, when it cannot run.
 */
async function clusterRows(): Promise<BenchRow[]> {
  if (process.argv.includes("--micro-only") || process.argv.includes("--no-cluster")) return [];
  try {
    const mod = (await import(CLUSTER_MODULE.href)) as { clusterBenchRows?: () => Promise<BenchRow[]> };
    if (typeof mod.clusterBenchRows !== "function") return [];
    return await mod.clusterBenchRows();
  } catch (error) {
    return [
      {
        id: "load.cluster.writes",
        section: "load",
        name: "cluster",
        opsPerSec: 0,
        meanUs: 0,
        p99Us: 0,
        samples: 0,
        note: `skipped: ${error instanceof Error ? error.message : String(error)}`,
      },
    ];
  }
}

/** Write bench/results/latest.json atomically (a crash mid-write leaves the previous file). */
function writeReport(report: BenchReport): void {
  mkdirSync(dirname(RESULTS), { recursive: true });
  writeFileSync(`${RESULTS}.tmp`, `${JSON.stringify(report, null, 2)}\n`);
  renameSync(`${RESULTS}.tmp`, RESULTS);
}

async function main(): Promise<void> {
  useBenchPorts();
  const machine = describeMachine();
  const started = performance.now();
  console.log(
    `ledgerd benchmarks — ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, node ${machine.node}, load ${machine.loadAverage1m}`,
  );
  const rows = await runMicro();
  console.log(`micro suite: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const report: BenchReport = {
    schema: 1,
    date: new Date().toISOString(),
    command: ["node dist/bench/run.js", ...process.argv.slice(2)].join(" "),
    machine,
    rows,
    derived: deriveFigures(rows),
    load: { ran: false, reason: "running" },
  };
  // The micro figures are kept even if the load benchmark later takes the process down.
  writeReport(report);

  if (!process.argv.includes("--micro-only")) {
    rows.push(...(await budgetRows()));
    writeReport(report);
  }

  const load = await loadRows();
  rows.push(...load.rows);
  writeReport(report);
  const reads =
    process.argv.includes("--micro-only") || process.argv.includes("--no-reads")
      ? { rows: [], ratios: {} }
      : await readComparisonRows();
  rows.push(...reads.rows);
  writeReport(report);
  // the query extensions on a 1,000,000-entry store (queryRows.ts; the store is filled once and cached)
  if (!process.argv.includes("--micro-only") && !process.argv.includes("--no-query")) {
    rows.push(...(await queryRows()));
    writeReport(report);
  }
  rows.push(...(await clusterRows()));
  report.derived = deriveFigures(rows);
  if (Object.keys(reads.ratios).length > 0) report.derived.readRatios = reads.ratios;
  report.load = load.ran ? { ran: true } : { ran: false, reason: load.reason! };

  console.log("");
  console.log(formatTable(rows));
  console.log("");
  for (const [key, value] of Object.entries(report.derived))
    console.log(`${key}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
  if (!load.ran) console.log(`load benchmark: not run (${load.reason})`);
  writeReport(report);
  console.log("written: bench/results/latest.json");
}

await main();
