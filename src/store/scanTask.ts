/**
 * Child-process task of `LedgerStore.open({ verify: true })`: open the environment read-only and walk
 * every database of each directory given once (all branch and leaf pages, by a cursor stepping through every record). Damaged B-tree pages make LMDB crash the process
 * (SIGSEGV, SIGBUS, or an assertion's SIGABRT); run here, that crash is a child's exit status the node can
 * report as CORRUPT instead of dying itself. Usage: node scanTask.js <directory>... Exit 0 = all readable.
 */
import { writeSync } from "node:fs";
import { open } from "lmdb";

/** The same prefix as SCAN_START of environment.ts (not imported: this task loads nothing but lmdb). */
const SCAN_START = "scanning ";

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  process.stderr.write("usage: scanTask.js <directory>...\n");
  process.exit(2);
}
try {
  let keys = 0;
  for (const dir of dirs) {
    // written synchronously, so the parent sees it even when LMDB crashes this process
    writeSync(1, `${SCAN_START}${dir}\n`);
    const env = open<Uint8Array, Uint8Array>({
      path: dir,
      noSubdir: false,
      readOnly: true,
      maxDbs: 64,
      keyEncoding: "binary",
      encoding: "binary",
    });
    const names: string[] = [];
    for (const key of env.getKeys()) {
      keys++;
      names.push(Buffer.from(key).toString("latin1").replace(/\0$/, ""));
    }
    for (const name of names) {
      const db = env.openDB<Uint8Array, Uint8Array>(name, { keyEncoding: "binary", encoding: "binary" });
      // lmdb-js counts in native code, one cursor step per record (the same pages a walk of the keys reads,
      // without a JS key object each: the 5,028,112 records of a 1,000,000-entry store in 1.1–1.6 s instead of 13–17 s,
      // docs/performance.md §Restart). Its loop ends at any LMDB error without reporting it, so the count
      // is checked against the record count LMDB keeps in the database's header: a walk ended early by a
      // damaged page (MDB_CORRUPTED) counts fewer.
      const walked = db.getKeysCount();
      const { entryCount } = db.getStats() as { entryCount: number };
      if (walked !== entryCount) {
        process.stderr.write(
          `database ${name}: the walk read ${walked} of its ${entryCount} records (stopped by a damaged page)\n`,
        );
        process.exit(1);
      }
      keys += walked;
    }
    await env.close();
  }
  writeSync(1, `${keys}\n`);
} catch (e) {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
