/**
 * What the query index costs the write path (issue 29: "the write path's node CPU per entry before and after the
 * index", target ≤ +10 %): write runs of the end-to-end load generator (tools/loadgen, writes only, 64 in flight)
 * on a node started with the index (the default) and on one started with `-queryindex=false`, alternated on, off,
 * off, on, … so that a shared machine's drift falls on both sides. A run's figure is the node's CPU, all threads,
 * per acknowledged entry: HTTP, verify, the ledger, the journal, the block-set writer (where the index is made,
 * inside the save's transaction) and V8's own threads.
 *
 * Measured on a node, not on the ledger in process: a running node keeps one block-set writer thread, whose code
 * is compiled once; a store opened per round started a new writer (a new V8 isolate) every round, and the rounds
 * with the index paid for compiling more code each time (2026-11-29: on ÷ off 1.13–1.27 that way).
 */
import { importLoadgen, type LoadModule } from "./loadgenModule.js";
import type { BenchRow } from "./row.js";

/** Seconds of each write run: three block closes of the loadgen's 6-s blocks, whose saves carry the index's work. */
export const INDEX_WRITE_COST_SECONDS = 20;
/** Pairs of runs (each an on and an off run): 2 pairs are ~4–5 minutes with their setups. */
export const INDEX_WRITE_COST_PAIRS = 2;
/** The target: node CPU per entry with the index ÷ without, at most. */
export const WRITE_CPU_RATIO_TARGET = 1.1;

/** One write run's figure: node CPU µs per acknowledged entry, and the rate it was measured at. */
interface WriteRun {
  usPerEntry: number;
  entriesPerSecond: number;
  lost: number | undefined;
}

async function writeRun(mod: LoadModule, index: boolean, seconds: number, log: (l: string) => void): Promise<WriteRun> {
  const report = await mod.runLoadScenarios({
    ...mod.defaultLoadOptions(false),
    scenarios: ["writes"],
    writesSeconds: seconds,
    nodeFlags: index ? [] : ["-queryindex=false"],
    log: (line: string) => log(`${index ? "index" : "no index"}: ${line}`),
  });
  const w = report.results.find((r) => r.name === "writes");
  const cpu = w?.resources.nodeCpuSeconds;
  if (w === undefined || cpu === undefined || w.entries === undefined || w.entries === 0)
    throw new Error(report.failures[0]?.split("\n")[0] ?? "no write figure (/proc/<pid>/stat unavailable)");
  return { usPerEntry: (cpu / w.entries) * 1e6, entriesPerSecond: w.entriesPerSecond ?? 0, lost: w.confirmation?.lost };
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The rows `query.writeCpu.noIndex` and `query.writeCpu.index` (its budget: the ratio against the target). */
export async function indexWriteCostRows(
  options: { pairs?: number; seconds?: number; log?: (line: string) => void } = {},
): Promise<BenchRow[]> {
  const pairs = options.pairs ?? INDEX_WRITE_COST_PAIRS;
  const seconds = options.seconds ?? INDEX_WRITE_COST_SECONDS;
  const log = options.log ?? ((line: string) => process.stderr.write(`index write cost: ${line}\n`));
  const mod = await importLoadgen();
  const on: WriteRun[] = [];
  const off: WriteRun[] = [];
  for (let p = 0; p < pairs; p++) {
    // on off, then off on: A B B A …
    for (const index of p % 2 === 0 ? [true, false] : [false, true]) {
      const run = await writeRun(mod, index, seconds, log);
      (index ? on : off).push(run);
      log(
        `index ${index ? "on" : "off"}: ${round(run.usPerEntry)} µs of node CPU per entry at ${Math.round(run.entriesPerSecond)} entries/s, ${run.lost ?? "?"} lost`,
      );
    }
  }
  const usOn = mean(on.map((r) => r.usPerEntry));
  const usOff = mean(off.map((r) => r.usPerEntry));
  const ratio = Math.round((usOn / usOff) * 1000) / 1000;
  const describe = (runs: WriteRun[]) =>
    runs.map((r) => `${round(r.usPerEntry)} µs at ${Math.round(r.entriesPerSecond)}/s`).join(", ");
  const row = (id: string, name: string, us: number, runs: WriteRun[], note: string): BenchRow => ({
    id,
    section: "query",
    name,
    opsPerSec: Math.round(mean(runs.map((r) => r.entriesPerSecond))),
    meanUs: round(us),
    p99Us: 0,
    samples: runs.length,
    itemUnit: "entry",
    note: `${note}; runs ${describe(runs)}; lost ${runs.map((r) => r.lost ?? "?").join(", ")}`,
  });
  return [
    row(
      "query.writeCpu.noIndex",
      `writes: node CPU per entry, -queryindex=false (${pairs} runs of ${seconds} s, alternated)`,
      usOff,
      off,
      "node CPU (all threads) ÷ acknowledged entries",
    ),
    {
      ...row(
        "query.writeCpu.index",
        `writes: node CPU per entry, with the query index (${pairs} runs of ${seconds} s, alternated)`,
        usOn,
        on,
        `${ratio <= WRITE_CPU_RATIO_TARGET ? "met" : "MISS"}: ${ratio}× the runs without (target ≤ ${WRITE_CPU_RATIO_TARGET}×)`,
      ),
      budget: { value: ratio, limit: WRITE_CPU_RATIO_TARGET, unit: "×" },
    },
  ];
}
