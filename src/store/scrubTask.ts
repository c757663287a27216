/**
 * Child-process task of the background scrub (scrub.ts): open each environment given read-only and walk every
 * record of every database once — all branch and leaf pages, by a cursor stepping through every record in
 * lmdb-js's native code — from where the last pass stopped. Damaged B-tree pages make LMDB crash the process
 * (SIGSEGV, SIGBUS, or an assertion's SIGABRT); run here, that crash is a child's exit status the node reports
 * (the node is flagged, writes are refused, the next start refuses the directory) instead of dying itself.
 *
 * Usage: node scrubTask.js <start environment index> <last database walked in it, or ""> <directory>...
 * Prints (one line each, written synchronously so the parent sees them even when LMDB crashes this process):
 *   `total <records>`            records of every database of every environment, before the walk
 *   `start <env> <database>`     before a database is walked
 *   `db <env> <database> <n>`    after a database's n records were walked and counted right
 *   `done <records>`             the pass is complete
 * Exit 0 = every database read; 1 = a walk came up short or LMDB reported an error (stderr says which).
 */
import { existsSync, writeSync } from "node:fs";
import { join } from "node:path";
import { open, type RootDatabase } from "lmdb";

/** Most named databases an environment of ours may hold (environment.ts MAX_DBS, with room). */
const MAX_DBS = 64;

const [startEnvArg, doneDb, ...dirs] = process.argv.slice(2);
const startEnv = Number(startEnvArg);
if (dirs.length === 0 || !Number.isInteger(startEnv) || doneDb === undefined) {
  process.stderr.write("usage: scrubTask.js <start environment index> <last database walked or ''> <directory>...\n");
  process.exit(2);
}

function say(line: string): void {
  writeSync(1, `${line}\n`);
}

/** Names of the named databases of `env`, in LMDB's (bytewise) order. */
function names(env: RootDatabase<Uint8Array, Uint8Array>): string[] {
  return [...env.getKeys()].map((k) => Buffer.from(k).toString("latin1").replace(/\0$/, ""));
}

try {
  // a directory without data.mdb holds no environment (the journal's files, journal.ts: checked by their
  // CRCs at open) and is skipped; the indexes of the others stay those of the arguments
  const envs = dirs.map((dir) =>
    !existsSync(join(dir, "data.mdb"))
      ? undefined
      : open<Uint8Array, Uint8Array>({
          path: dir,
          noSubdir: false,
          readOnly: true,
          maxDbs: MAX_DBS,
          keyEncoding: "binary",
          encoding: "binary",
        }),
  );
  let total = 0;
  for (const env of envs) {
    if (env === undefined) continue;
    for (const name of names(env)) {
      const db = env.openDB<Uint8Array, Uint8Array>(name, { keyEncoding: "binary", encoding: "binary" });
      total += (db.getStats() as { entryCount: number }).entryCount;
    }
  }
  say(`total ${total}`);
  let walkedAll = 0;
  for (let e = startEnv; e < envs.length; e++) {
    const env = envs[e];
    if (env === undefined) continue;
    for (const name of names(env)) {
      // a resumed pass: the databases up to the last one walked are done (names in LMDB's order)
      if (
        e === startEnv &&
        doneDb !== "" &&
        Buffer.compare(Buffer.from(name, "latin1"), Buffer.from(doneDb, "latin1")) <= 0
      )
        continue;
      say(`start ${e} ${name}`);
      // a new read snapshot per database: the count and the header it is checked against must be of one
      // snapshot (the node writes meanwhile), and no snapshot is held for the whole pass (it would keep LMDB
      // from reusing the pages freed since)
      env.resetReadTxn();
      const db = env.openDB<Uint8Array, Uint8Array>(name, { keyEncoding: "binary", encoding: "binary" });
      // lmdb-js counts in native code, one cursor step per record; its loop ends at any LMDB error without
      // reporting it, so the count is checked against the record count LMDB keeps in the database's header:
      // a walk ended early by a damaged page (MDB_CORRUPTED) counts fewer
      const walked = db.getKeysCount();
      const { entryCount } = db.getStats() as { entryCount: number };
      if (walked !== entryCount) {
        process.stderr.write(
          `${dirs[e]}: database ${name}: the walk read ${walked} of its ${entryCount} records (stopped by a damaged page)\n`,
        );
        process.exit(1);
      }
      walkedAll += walked;
      say(`db ${e} ${name} ${walked}`);
      // yield: lmdb-js renews the read transaction at a new turn
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  say(`done ${walkedAll}`);
  for (const env of envs) await env?.close();
} catch (e) {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
