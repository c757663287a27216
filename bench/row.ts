/**
 * One line of the benchmark table and of bench/results/latest.json. Micro benchmarks (runMicro) and the
 * end-to-end load benchmark (runLoad, tools/loadgen) both produce BenchRow[], merged into one table.
 */
export interface BenchRow {
  /** stable key for comparisons across runs and for derived figures, e.g. "crypto.ed25519.node" */
  id: string;
  /** table section: "crypto", "protocol", "workers", "store" (micro) or "load" (end to end) */
  section: string;
  /** what was measured, for people */
  name: string;
  /** operations per second (one operation = one call of the measured function, or one request) */
  opsPerSec: number;
  /** mean time of one operation, µs */
  meanUs: number;
  /** 99th percentile of one operation, µs */
  p99Us: number;
  /** operations measured (in the reported round for micro rows) */
  samples: number;
  /** ops/s of every round when a case ran in several rounds; the row reports the median one */
  roundOpsPerSec?: number[];
  /** items handled per operation when an operation is a batch (e.g. 256 signatures); absent = 1 */
  itemsPerOp?: number;
  /** items per second = opsPerSec × itemsPerOp (e.g. signatures/s); absent when itemsPerOp is absent */
  itemsPerSec?: number;
  /** unit of an item, e.g. "sig", "put", "request" */
  itemUnit?: string;
  /** why a row has no figures ("skipped: …") or what bounds it */
  note?: string;
  /**
   * a measured quantity with a ceiling (budget rows, budgets.ts): `value` and `limit` in `unit`, lower is
   * better; `make bench-check` fails when value > limit
   */
  budget?: {
    value: number;
    limit: number;
    unit: string;
    /**
     * fail when value is more than this many times the baseline's, read as it is (no calibration: the value
     * is already a ratio to this machine, e.g. signature checks per entry); absent = check.ts's MAX_REGRESSION
     * read against the calibration row
     */
    maxRegression?: number;
  };
}

/** A row with no figures: the benchmark could not run (e.g. a function not implemented yet). */
export function skippedRow(id: string, section: string, name: string, reason: string): BenchRow {
  return { id, section, name, opsPerSec: 0, meanUs: 0, p99Us: 0, samples: 0, note: `skipped: ${reason}` };
}

/** 3 significant digits below 1000, whole numbers with separators above (e.g. 0.745, 65.5, 15,312). */
function fmt(value: number): string {
  if (value === 0) return "–";
  if (value >= 1000) return Math.round(value).toLocaleString("en-US");
  return value.toPrecision(3);
}

/** Spread of the rounds around the reported (median) one: (max − min) / median, e.g. "±4%". */
function spread(r: BenchRow): string {
  const rounds = r.roundOpsPerSec;
  if (rounds === undefined || rounds.length < 2 || r.opsPerSec === 0) return "";
  return `±${Math.round(((Math.max(...rounds) - Math.min(...rounds)) / r.opsPerSec) * 50)}%`;
}

/** The table printed by `make bench`: one line per row, grouped by section in the order given. */
export function formatTable(rows: readonly BenchRow[]): string {
  const header = ["section", "name", "ops/s", "mean µs", "p99 µs", "samples", "spread", "items/s", "budget"];
  const lines = rows.map((r) => [
    r.section,
    r.name + (r.note?.startsWith("skipped") ? ` (${r.note})` : ""),
    fmt(r.opsPerSec),
    fmt(r.meanUs),
    fmt(r.p99Us),
    r.samples === 0 ? "–" : String(r.samples),
    spread(r),
    r.itemsPerSec === undefined ? "" : `${fmt(r.itemsPerSec)} ${r.itemUnit ?? ""}/s`,
    r.budget === undefined ? "" : `${fmt(r.budget.value)} / ${fmt(r.budget.limit)} ${r.budget.unit}`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const numeric = new Set([2, 3, 4, 5, 6, 7, 8]);
  const render = (cells: string[]): string =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [render(header), widths.map((w) => "-".repeat(w)).join("  "), ...lines.map(render)].join("\n");
}
