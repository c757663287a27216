/**
 * The start-up checks of a data directory alone, the store-size-dependent part of a restart
 * (docs/performance.md §Restart): the spine check that replaced the read-through (store/pageCheck.ts, in
 * process), and — given an older checkout's `--old-scan` (its dist/src/store/scanTask.js) — that read-through
 * (a child process walking every record of both environments), alternated `--runs` times.
 *
 *   node dist/bench/startupChecks.js DIR/local/db [--old-scan /work/main/dist/src/store/scanTask.js] [--runs 3]
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { checkDataFile } from "../src/store/fileCheck.js";
import { JOURNAL_DIR } from "../src/store/journal.js";
import { checkTreeSpines } from "../src/store/pageCheck.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { "old-scan": { type: "string" }, runs: { type: "string", default: "3" } },
});
const dir = positionals[0];
if (dir === undefined) {
  process.stderr.write("usage: startupChecks.js <db directory> [--old-scan scanTask.js] [--runs N]\n");
  process.exit(2);
}
const paths = [dir, join(dir, JOURNAL_DIR)];
for (let run = 1; run <= Number(values.runs); run++) {
  const t = performance.now();
  let pages = 0;
  for (const p of paths) {
    checkDataFile(p);
    pages += checkTreeSpines(p).pages;
  }
  const spineMs = performance.now() - t;
  let old = "";
  if (values["old-scan"] !== undefined) {
    const s = performance.now();
    const r = spawnSync(process.execPath, [values["old-scan"], ...paths], { encoding: "utf8" });
    const records = r.stdout.trim().split("\n").pop();
    old = `; read-through child ${(performance.now() - s).toFixed(0)} ms (exit ${r.status}, ${records} records)`;
  }
  process.stdout.write(`run ${run}: spine check ${spineMs.toFixed(1)} ms (${pages} pages)${old}\n`);
}
