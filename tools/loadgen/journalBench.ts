/**
 * The journal's appends alone, in process: `clients` loops each append a record, await it, append the next
 * (as 64 HTTP writers in flight append theirs), on a real journal in a temp directory. Prints appends per
 * second, CPU per record (the whole process, and the main thread alone from /proc, Linux) and latency.
 *
 *   node dist/tools/loadgen/journalBench.js [--records 30000] [--clients 64] [--bytes 150] [--root DIR]
 *
 * `--root` loads the journal of another build (DIR/dist/src/store/journal.js), to compare two builds in the
 * same minutes (docs/history/performance-history.md §"Writes: what a request waits on at 64 in flight (2026-11-28, branch perf-writes)").
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Journal } from "../../src/store/journal.js";

/** CPU ms of this process's main thread so far (Linux /proc; clock ticks of 10 ms). */
function mainThreadMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      records: { type: "string", default: "30000" },
      clients: { type: "string", default: "64" },
      bytes: { type: "string", default: "150" },
      root: { type: "string" },
    },
  });
  const records = Number(values.records);
  const clients = Number(values.clients);
  const module =
    values.root === undefined
      ? await import("../../src/store/journal.js")
      : ((await import(
          path.resolve(values.root, "dist/src/store/journal.js")
        )) as typeof import("../../src/store/journal.js"));
  const dir = mkdtempSync(path.join(tmpdir(), "ledgerd-journal-bench-"));
  const journal: Journal = module.Journal.open(dir, { verify: false });
  try {
    const bytes = new Uint8Array(Number(values.bytes)).fill(7);
    await journal.append(1, 0, bytes); // warm: a writer thread, if any, is up
    let seq = 1;
    const latencies: number[] = [];
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadMs();
    const t0 = performance.now();
    const client = async (): Promise<void> => {
      while (seq <= records) {
        const s = seq++;
        const t = performance.now();
        await journal.append(1, s, bytes);
        latencies.push(performance.now() - t);
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const mainMs = mainThreadMs() - main0;
    latencies.sort((a, b) => a - b);
    const n = latencies.length;
    const at = (q: number) => Math.round(latencies[Math.min(n - 1, Math.floor(n * q))]! * 100) / 100;
    console.log(
      JSON.stringify({
        build: values.root ?? "this",
        records: n,
        clients,
        appendsPerSecond: Math.round((n / wallMs) * 1000),
        cpuUsPerRecord: Math.round(((cpu.user + cpu.system) / n) * 10) / 10,
        mainThreadUsPerRecord: Math.round(((mainMs * 1000) / n) * 10) / 10,
        p50Ms: at(0.5),
        p99Ms: at(0.99),
      }),
    );
  } finally {
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
