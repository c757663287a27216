/**
 * `make bench-check` (= `node dist/bench/check.js`): runs the micro suite and the budget rows (budgets.ts),
 * then compares each row, in the same run, with bench/results/baseline.json. Exit 1 when a budget row is over
 * its limit, or a row is more than MAX_REGRESSION× worse than its baseline (ops/s for a micro row, the
 * budgeted value for a budget row). A row has to fail twice: the rows that failed are measured again at once
 * and the better of the two measurements counts — the cores here are shared, and a burst of another tenant's
 * work made a single micro row 3.25× slower in one run (ARCHITECTURE.md, bench/README.md). Each ratio is read
 * against the calibration row (calibration.ts) measured in the same run: when the machine runs that fixed
 * workload k× slower than when the baseline was written, a row's ratio is divided by k — k clamped to
 * [1/MAX_CALIBRATION_CREDIT, MAX_CALIBRATION_CREDIT], so no machine state can excuse a row more than
 * MAX_REGRESSION × MAX_CALIBRATION_CREDIT worse than its baseline. `--write-baseline`
 * records this run as the new baseline instead. The write figure (writeFigure.ts: the node's CPU per entry in
 * single-thread signature checks, from a short write run) is already a ratio to this machine: it fails past
 * its own 1.1× of the baseline, not read against the calibration. The comparison is written to bench/results/check.json.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { budgetRows } from "./budgets.js";
import { CALIBRATION_ID, calibrationRow } from "./calibration.js";
import { describeMachine, type MachineDescription } from "./machine.js";
import { runMicro } from "./micro.js";
import { useBenchPorts } from "./ports.js";
import type { BenchRow } from "./row.js";
import { WRITE_FIGURE_ID, writeFigureRow } from "./writeFigure.js";

/** A row fails when it is more than this many times worse than its baseline. */
export const MAX_REGRESSION = 2;
/**
 * Most a slower calibration may excuse (and a faster one tighten): a row more than MAX_REGRESSION ×
 * MAX_CALIBRATION_CREDIT (4×) worse than its baseline fails however slow the machine runs now.
 */
export const MAX_CALIBRATION_CREDIT = 2;

const BASELINE = fileURLToPath(new URL("../../bench/results/baseline.json", import.meta.url));
const CHECK = fileURLToPath(new URL("../../bench/results/check.json", import.meta.url));

export interface Baseline {
  schema: 1;
  date: string;
  machine: MachineDescription;
  rows: BenchRow[];
}

/** The verdict on one row. */
export interface RowCheck {
  id: string;
  /**
   * how many times worse than the baseline (> 1 = worse), read against the calibration (`machine`);
   * undefined when there is nothing to compare
   */
  worse?: number;
  overBudget: boolean;
  failed: boolean;
  why: string;
}

/**
 * How many times slower this run's calibration row is than the baseline's, clamped to
 * [1/MAX_CALIBRATION_CREDIT, MAX_CALIBRATION_CREDIT]; 1 when either has none.
 */
export function machineSlowdown(rows: readonly BenchRow[], baseline: readonly BenchRow[]): number {
  const now = rows.find((r) => r.id === CALIBRATION_ID);
  const then = baseline.find((r) => r.id === CALIBRATION_ID);
  if (now === undefined || then === undefined || !(now.opsPerSec > 0) || !(then.opsPerSec > 0)) return 1;
  const k = then.opsPerSec / now.opsPerSec;
  return Math.min(MAX_CALIBRATION_CREDIT, Math.max(1 / MAX_CALIBRATION_CREDIT, k));
}

/** Compare `rows` with `baseline` (pure: the tests of check.ts call it with made-up rows). */
export function compareRows(rows: readonly BenchRow[], baseline: readonly BenchRow[]): RowCheck[] {
  const before = new Map(baseline.map((r) => [r.id, r]));
  const slowdown = machineSlowdown(rows, baseline);
  return rows.map((r): RowCheck => {
    if (r.samples === 0) return { id: r.id, overBudget: false, failed: false, why: r.note ?? "no figures" };
    if (r.id === CALIBRATION_ID) {
      const why = `the machine runs ${slowdown.toFixed(2)}× slower than for the baseline (clamped); ratios read against it`;
      return { id: r.id, overBudget: false, failed: false, why };
    }
    const overBudget = r.budget !== undefined && !(r.budget.value <= r.budget.limit);
    const b = before.get(r.id);
    let worse: number | undefined;
    if (b !== undefined && b.samples > 0) {
      if (r.budget !== undefined && b.budget !== undefined) {
        if (b.budget.value > 0)
          worse = r.budget.value / b.budget.value / (r.budget.maxRegression === undefined ? slowdown : 1);
      } else if (r.opsPerSec > 0) {
        worse = b.opsPerSec / r.opsPerSec / slowdown;
      }
    }
    const own = r.budget?.maxRegression;
    const limit = own ?? MAX_REGRESSION;
    const regressed = worse !== undefined && worse > limit;
    const why = [
      overBudget ? `over budget: ${r.budget!.value} > ${r.budget!.limit} ${r.budget!.unit}` : "",
      regressed
        ? `${worse!.toFixed(2)}× worse than the baseline (limit ${limit}×${slowdown === 1 || own !== undefined ? "" : `, machine ${slowdown.toFixed(2)}× slower`})`
        : "",
      b === undefined ? "no baseline row" : "",
    ]
      .filter((x) => x !== "")
      .join("; ");
    return {
      id: r.id,
      ...(worse !== undefined ? { worse: Math.round(worse * 100) / 100 } : {}),
      overBudget,
      failed: overBudget || regressed,
      why: why === "" ? "ok" : why,
    };
  });
}

/**
 * How the machine of a baseline differs from this one ("" when it does not): its CPU model, its cores, its Node.
 * A baseline belongs to its machine — the disk's flush time, for one, is in some rows and in no calibration — so
 * a check against another machine's baseline says so before its verdicts (bench/README.md §Baseline).
 */
export function machineDifference(now: MachineDescription, then: MachineDescription | undefined): string {
  if (then === undefined) return "the baseline names no machine";
  const parts: string[] = [];
  if (now.cpuModel !== then.cpuModel) parts.push(`CPU ${then.cpuModel}, here ${now.cpuModel}`);
  if (now.cpus !== then.cpus) parts.push(`${then.cpus} cores, here ${now.cpus}`);
  if (now.node !== then.node) parts.push(`Node ${then.node}, here ${now.node}`);
  return parts.join("; ");
}

/** Per row, the better of two measurements (higher ops/s; for a budget row, the lower value). */
export function betterOf(first: readonly BenchRow[], second: readonly BenchRow[]): BenchRow[] {
  const again = new Map(second.map((r) => [r.id, r]));
  return first.map((r) => {
    const s = again.get(r.id);
    if (s === undefined || s.samples === 0) return r;
    if (r.samples === 0) return s;
    if (r.budget !== undefined && s.budget !== undefined) return s.budget.value < r.budget.value ? s : r;
    return s.opsPerSec > r.opsPerSec ? s : r;
  });
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

async function main(): Promise<void> {
  useBenchPorts();
  const machine = describeMachine();
  process.stdout.write(`bench-check — ${machine.cpus} × ${machine.cpuModel}, load ${machine.loadAverage1m}\n`);
  let rows = [calibrationRow(), ...(await runMicro()), ...(await budgetRows()), await writeFigureRow()];
  if (process.argv.includes("--write-baseline")) {
    const baseline: Baseline = { schema: 1, date: new Date().toISOString(), machine, rows };
    writeJson(BASELINE, baseline);
    process.stdout.write(`written: bench/results/baseline.json (${rows.length} rows)\n`);
    return;
  }
  if (!existsSync(BASELINE)) throw new Error("bench/results/baseline.json is missing: run with --write-baseline");
  const baseline = JSON.parse(readFileSync(BASELINE, "utf8")) as Baseline;
  const otherMachine = machineDifference(machine, baseline.machine);
  if (otherMachine !== "")
    process.stdout.write(
      `note: the baseline of ${baseline.date} was recorded on another machine (${otherMachine}): its verdicts compare ` +
        "machines; record this machine's with `node dist/bench/check.js --write-baseline`\n",
    );
  let checks = compareRows(rows, baseline.rows);
  const failedIds = new Set(checks.filter((c) => c.failed).map((c) => c.id));
  if (failedIds.size > 0) {
    process.stdout.write(`measuring again: ${[...failedIds].join(", ")}\n`);
    const micro = [...failedIds].some((id) => !id.startsWith("budget.")) ? await runMicro() : [];
    const budgets = [...failedIds].some((id) => id.startsWith("budget.") && id !== WRITE_FIGURE_ID)
      ? await budgetRows()
      : [];
    const writes = failedIds.has(WRITE_FIGURE_ID) ? [await writeFigureRow()] : [];
    rows = betterOf(rows, [calibrationRow(), ...micro, ...budgets, ...writes]);
    checks = compareRows(rows, baseline.rows);
  }
  const width = Math.max(...checks.map((c) => c.id.length));
  for (const c of checks)
    process.stdout.write(
      `${c.failed ? "FAIL" : "ok  "}  ${c.id.padEnd(width)}  ${c.worse === undefined ? "     " : `${c.worse.toFixed(2)}×`.padStart(6)}  ${c.why}\n`,
    );
  writeJson(CHECK, {
    date: new Date().toISOString(),
    machine,
    baselineDate: baseline.date,
    ...(otherMachine === "" ? {} : { baselineMachine: otherMachine }),
    checks,
    rows,
  });
  const failed = checks.filter((c) => c.failed);
  const against = otherMachine === "" ? "" : " (another machine's)";
  process.stdout.write(
    failed.length === 0
      ? `bench-check: ${checks.length} rows within budget and within ${MAX_REGRESSION}× of the baseline of ${baseline.date}${against}\n`
      : `bench-check: ${failed.length} of ${checks.length} rows failed against the baseline of ${baseline.date}${against}: ${failed.map((c) => c.id).join(", ")}\n`,
  );
  if (failed.length > 0) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
