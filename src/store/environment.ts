/**
 * How the node opens its LMDB environment and named databases. One place, because two threads open it:
 * the main thread (LedgerStore) and the block-set writer thread (blockSetWriterTask.ts). lmdb-js shares
 * one native environment per path within a process, so both must ask for it with the same options.
 */
import { type Database, open, type RootDatabase } from "lmdb";
import { DB_NAMES } from "./keys.js";

/**
 * Most named databases the environment may hold: the 13 of DB_NAMES plus room to add a few without
 * reopening (LMDB sizes a table for this at open).
 */
const MAX_DBS = 20;

export type BinDb = Database<Uint8Array, Uint8Array>;
export type RootEnv = RootDatabase<Uint8Array, Uint8Array>;
export type DbName = keyof typeof DB_NAMES;
export type Databases = Record<DbName, BinDb>;

/** Open (or create) the environment in directory `path`. Throws lmdb-js's error as is. */
export function openEnvironment(path: string): RootEnv {
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
  });
}

/** Every named database of DB_NAMES, with raw-byte keys and values. */
export function openDatabases(env: RootEnv): Databases {
  const dbs = {} as Databases;
  for (const [name, dbName] of Object.entries(DB_NAMES) as [DbName, string][])
    dbs[name] = env.openDB<Uint8Array, Uint8Array>(dbName, { keyEncoding: "binary", encoding: "binary" });
  return dbs;
}
