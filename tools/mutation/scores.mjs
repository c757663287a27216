// Per-folder mutation scores from Stryker's JSON reports (reports/mutation/<folder>/<file>.json, one per source
// file), as docs/testing.md shows them. Usage: node tools/mutation/scores.mjs [--files] [--survivors] [--markdown] folder...
// Score = (killed + timed out) / (every mutant but compile and runtime errors and ignored ones): Stryker's
// "mutation score"; a mutant no test runs counts as surviving.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const survivors = args.includes("--survivors");
const perFile = args.includes("--files");
const markdown = args.includes("--markdown");
const folders = args.filter((a) => !a.startsWith("--"));

/** Mutant statuses that a test detected. */
const DETECTED = new Set(["Killed", "Timeout"]);
/** Statuses left out of the score (the mutant could not run, or was switched off). */
const INVALID = new Set(["CompileError", "RuntimeError", "Ignored"]);

/** Every JSON report under `dir`, depth first. */
function reports(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? reports(join(dir, e.name)) : e.name.endsWith(".json") ? [join(dir, e.name)] : [],
  );
}

/** Counts of one group of mutants (a folder, or one file). */
function tally(name, files) {
  const count = { total: 0, Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, invalid: 0 };
  const left = [];
  for (const [file, { mutants, source }] of files) {
    const lines = source.split("\n");
    for (const m of mutants) {
      count.total++;
      if (INVALID.has(m.status)) count.invalid++;
      else count[m.status] = (count[m.status] ?? 0) + 1;
      if (m.status === "Survived" || m.status === "NoCoverage") {
        const line = m.location.start.line;
        left.push(
          `  ${file}:${line} ${m.status} ${m.mutatorName}: ${JSON.stringify(m.replacement ?? "")} in ${JSON.stringify((lines[line - 1] ?? "").trim().slice(0, 100))}`,
        );
      }
    }
  }
  const valid = count.total - count.invalid;
  const detected = [...DETECTED].reduce((a, st) => a + (count[st] ?? 0), 0);
  return { folder: name, ...count, valid, detected, score: valid === 0 ? 100 : (100 * detected) / valid, left };
}

const rows = [];
for (const folder of folders) {
  const files = reports(join("reports/mutation", folder)).flatMap((r) =>
    Object.entries(JSON.parse(readFileSync(r, "utf8")).files),
  );
  if (files.length === 0) {
    rows.push({ folder, missing: true });
    continue;
  }
  rows.push(tally(folder, files));
  if (perFile) for (const f of files) rows.push(tally(`  ${f[0].replace(/^src\//, "")}`, [f]));
}

if (markdown) {
  console.log("| folder / file | mutants | killed | timed out | survived | no coverage | not run (errors) | score |");
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows)
    if (!r.missing) {
      const name = r.folder.startsWith(" ") ? `\`${r.folder.trim()}\`` : `**${r.folder}/**`;
      console.log(
        `| ${name} | ${r.total} | ${r.Killed} | ${r.Timeout} | ${r.Survived} | ${r.NoCoverage} | ${r.invalid} | ${r.score.toFixed(1)} % |`,
      );
    }
  process.exit(0);
}
const width = Math.max(10, ...rows.map((r) => r.folder.length));
console.log(`${"folder".padEnd(width)} mutants  killed  timeout  survived  no-cov  invalid   score`);
for (const r of rows) {
  if (r.missing) {
    console.log(`${r.folder.padEnd(width)} (no report: run make mutation MUTATION_FOLDERS=${r.folder})`);
    continue;
  }
  console.log(
    `${r.folder.padEnd(width)} ${String(r.total).padStart(7)} ${String(r.Killed).padStart(7)} ${String(r.Timeout).padStart(8)} ${String(r.Survived).padStart(9)} ${String(r.NoCoverage).padStart(7)} ${String(r.invalid).padStart(8)} ${r.score.toFixed(1).padStart(6)} %`,
  );
}
if (survivors)
  for (const r of rows)
    if (!r.missing && !r.folder.startsWith(" ") && r.left.length > 0) {
      console.log(`\n${r.folder}: ${r.left.length} not detected`);
      for (const l of r.left) console.log(l);
    }
