/**
 * How the node opens an LMDB environment, and the checks every environment of ours passes first. The main
 * environment (blocks, indexes, balances: LedgerStore; docs/ledger.md §4), and a journal of the earlier LMDB
 * format, opened once to carry its records into files (journalUpgrade.ts); two threads open the main one: the main thread and the block-set writer thread
 * (blockSetWriterTask.ts). lmdb-js shares one native environment per path within a process, so every
 * opener must ask with the same options: hence one function.
 */
import { mkdirSync } from "node:fs";
import { type Database, open, type RootDatabase } from "lmdb";
import { StoreError } from "./errors.js";
import { checkDataFile } from "./fileCheck.js";
import { DB_NAMES } from "./keys.js";
import { checkTreeSpines } from "./pageCheck.js";

/**
 * Most named databases an environment may hold: the 16 of DB_NAMES (11 + the query index's 5), the 4 of format 1
 * that a migration opens (LEGACY_DB_NAMES), and room to add a few (LMDB sizes a table for this at open).
 */
const MAX_DBS = 24;

export type BinDb = Database<Uint8Array, Uint8Array>;
export type RootEnv = RootDatabase<Uint8Array, Uint8Array>;
export type DbName = keyof typeof DB_NAMES;
export type Databases = Record<DbName, BinDb>;

/**
 * Which of our two environments is opened. They differ in one option, `useWritemap`:
 *
 * * `store` (blocks, indexes, balances; written by the block-set writer, one transaction per block) writes its
 *   pages straight into the memory map. Without it LMDB copies every page a transaction dirties into a
 *   malloc'ed page and keeps those pages on a list for reuse until the environment closes (`me_dpages`,
 *   liblmdb/mdb.c `mdb_page_free`): a 42,000-entry block dirties ~100,000 pages of the hash-keyed indexes, and
 *   the process kept ~120–400 MiB of anonymous memory for the rest of its life (docs/performance.md §Memory).
 *   With the map written directly those pages are the file's own page cache, which the kernel reclaims.
 * * `journal` (the earlier format's journal, read once at the upgrade, journalUpgrade.ts) keeps LMDB's
 *   default, as it was written: its transactions were small (one group of requests) and frequent, so its list
 *   stayed small, and a write map would have added a whole-map `msync` to each commit.
 *
 * What the write map changes for the disk: LMDB extends `data.mdb` to the map size at once (a sparse file; the
 * blocks are allocated as pages are first written), and a write into a hole on a full disk is a SIGBUS rather
 * than an ENOSPC. Neither reaches LMDB here: the free-space reserve (diskSpace.ts) refuses writes before the disk
 * is full, as it must anyway, since the lmdb-js build in use does not survive an ENOSPC either; and a SIGBUS
 * ends the process like `kill -9`, after which the last committed transaction is intact (docs/operations.md §7).
 */
export type EnvironmentRole = "store" | "journal";

/** Open (or create) the environment in directory `path` (the store's unless `role` says). Throws lmdb-js's error as is. */
export function openEnvironment(path: string, role: EnvironmentRole = "store"): RootEnv {
  return openWith(path, writesThroughMap(role));
}

function writesThroughMap(role: EnvironmentRole): boolean {
  return role === "store";
}

function openWith(path: string, writeMap: boolean): RootEnv {
  return open<Uint8Array, Uint8Array>({
    path,
    // the path is always a directory, whatever its name looks like
    noSubdir: false,
    maxDbs: MAX_DBS,
    keyEncoding: "binary",
    encoding: "binary",
    // Event-turn batching makes lmdb-js hold an internal promise per batch that nobody can handle: a
    // failed commit (disk full) would end the process as an unhandled rejection. Writes still share
    // commits (queued while the write thread is busy).
    eventTurnBatching: false,
    overlappingSync: false,
    useWritemap: writeMap,
  });
}

/** A named database with raw-byte keys and values. */
export function openBinaryDb(env: RootEnv, name: string): BinDb {
  return env.openDB<Uint8Array, Uint8Array>(name, { keyEncoding: "binary", encoding: "binary" });
}

/** Every named database of DB_NAMES (the main environment). */
export function openDatabases(env: RootEnv): Databases {
  const dbs = {} as Databases;
  for (const [name, dbName] of Object.entries(DB_NAMES) as [DbName, string][]) dbs[name] = openBinaryDb(env, dbName);
  return dbs;
}

/**
 * Check the files of the environment in `path` and open it, holding only databases named in `allowed`.
 * Throws StoreError: CORRUPT (damaged files; with `verify` each B-tree's first and last spine is checked
 * first, pageCheck.ts),
 * UNKNOWN_FORMAT (another program's environment), OPEN_FAILED.
 */
export function openCheckedEnvironment(
  path: string,
  role: EnvironmentRole,
  allowed: readonly string[],
  verify: boolean,
): RootEnv {
  checkDataFile(path);
  if (verify) checkTreeSpines(path);
  // Checked with LMDB's default options first: a write map extends data.mdb to the map size as it opens, which
  // would write into another program's environment before checkRootNames refuses it.
  const checked = openOrFail(path, false);
  try {
    checkRootNames(checked, path, allowed);
  } catch (e) {
    void checked.close();
    throw e;
  }
  if (!writesThroughMap(role)) return checked;
  // lmdb-js closes the native environment at once when nothing is being written, as here
  void checked.close();
  return openOrFail(path, true);
}

function openOrFail(path: string, writeMap: boolean): RootEnv {
  try {
    mkdirSync(path, { recursive: true });
    return openWith(path, writeMap);
  } catch (e) {
    throw new StoreError({ code: "OPEN_FAILED", path, info: e instanceof Error ? e.message : String(e) });
  }
}

/**
 * Run an lmdb-js write and return its promise with every rejection handled: a failed commit rejects its
 * writes with an error whose `commitError` is a second rejected promise, which would otherwise end the
 * process as an unhandled rejection. A synchronous throw becomes a rejection too.
 */
export function guarded<T>(write: () => PromiseLike<T>): Promise<T> {
  let p: Promise<T>;
  try {
    p = Promise.resolve(write());
  } catch (e) {
    return Promise.reject(e);
  }
  return p.catch((e: unknown) => {
    const inner = (e as { commitError?: unknown } | undefined)?.commitError;
    if (inner instanceof Promise) inner.catch(() => {});
    throw e;
  });
}

/**
 * Resolves once every asynchronous write of `env` started so far has committed (and is flushed: with
 * overlappingSync off a commit is flushed before its writes resolve) or failed. Never rejects: a write's
 * failure is reported to its own caller, through the promise `guarded` returned.
 *
 * Why not `env.flushed`: lmdb-js keeps the last failed commit's rejection there until the next write starts
 * a new commit, so a flush or a close reported an old failure again, however long ago and to whomever came
 * next: after a failed journal cleanup (logged once, harmless: the next start removes the records) every
 * flush rejected and the store's close threw before it closed either environment.
 */
export async function writesSettled(env: RootEnv): Promise<void> {
  await guarded(() => env.flushed).catch(() => {});
}

/**
 * The unnamed root database of our environments holds only the names of our databases. Anything else is
 * another program's LMDB environment: refuse it before opening (creating) our databases writes to it.
 */
function checkRootNames(env: RootEnv, path: string, allowed: readonly string[]): void {
  const ours = new Set<string>(allowed);
  const foreign: string[] = [];
  for (const key of env.getKeys({ limit: 1000 })) {
    // LMDB stores database names NUL-terminated
    const name = Buffer.from(key as Uint8Array)
      .toString("latin1")
      .replace(/\0$/, "");
    if (!ours.has(name)) foreign.push(JSON.stringify(name.slice(0, 40)));
    if (foreign.length >= 3) break;
  }
  if (foreign.length > 0)
    throw new StoreError({
      code: "UNKNOWN_FORMAT",
      path,
      info: `it is an LMDB environment of another program (it holds ${foreign.join(", ")}), not a ledger database`,
    });
}
