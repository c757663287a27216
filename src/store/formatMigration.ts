/**
 * The migration of a store of format 1 to format 2 at open (docs/ledger.md §4 "Format versions"), before the
 * identity checks read the format. Format 2 keeps one record per entry hash (`entryRecords`, entryRecord.ts)
 * where format 1 had three (`entries`, `entryLocations`, `paidCommits`), and a commit's location as height and
 * item index (`commitPlaces`) where format 1 repeated the EC block's header hash (`commitLocations`).
 *
 * Crash-safe and resumable: the records move in chunks, each ONE transaction that writes the new records and
 * deletes the old ones, so at any moment every record is in exactly one of the two layouts and a migration
 * stopped anywhere (kill -9, power) goes on from where it was at the next open. The format record turns to 2
 * in the last transaction, which also drops the emptied databases. Until then the directory says format 1,
 * and a node of the previous version refuses it (it does not know the database `entryRecords`) instead of
 * misreading it.
 */

import { encodeEntryRecord } from "./entryRecord.js";
import type { BinDb, Databases, RootEnv } from "./environment.js";
import { openBinaryDb } from "./environment.js";
import { StoreError } from "./errors.js";
import { LEGACY_DB_NAMES, META_KEYS, u32Bytes } from "./keys.js";
import { decodeEntryLocation, decodePaidCommit } from "./records.js";
import { metaGet, STORE_FORMAT_VERSION } from "./storeIdentity.js";

/** The format this module migrates from. */
const FROM_FORMAT = 1;

/**
 * Records moved per transaction: ~1 MB of new records and a few thousand pages touched, so a transaction is
 * short and its dirty pages few, and a stopped migration repeats at most this much.
 */
const CHUNK = 5000;

/** A progress line at most every this many ms. */
const PROGRESS_EVERY_MS = 5000;

interface MigratedStore {
  readonly path: string;
  readonly env: RootEnv;
  readonly dbs: Databases;
}

type LegacyDbs = Record<keyof typeof LEGACY_DB_NAMES, BinDb>;

/**
 * Migrate `s` to STORE_FORMAT_VERSION when it is of format 1; nothing otherwise (a fresh store, the current
 * format, or an unknown one, which checkIdentity refuses). `log` gets a line when it starts, one every few
 * seconds, and one when done.
 */
export function migrateFormat(
  s: MigratedStore,
  log: (line: string) => void,
  /** tests: records per transaction, and a call after each (a throw there stops the migration between two) */
  options: { chunk?: number; afterChunk?: () => void } = {},
): void {
  const size = options.chunk ?? CHUNK;
  const afterChunk = options.afterChunk ?? (() => {});
  const format = metaGet(s, META_KEYS.format);
  if (format?.length !== 4 || format.readUInt32BE(0) !== FROM_FORMAT) return;
  const started = performance.now();
  const legacy = {} as LegacyDbs;
  for (const [name, dbName] of Object.entries(LEGACY_DB_NAMES) as [keyof LegacyDbs, string][])
    legacy[name] = openBinaryDb(s.env, dbName);
  const entries = count(legacy.entries);
  const paid = count(legacy.paidCommits);
  const commits = count(legacy.commitLocations);
  log(
    `store ${s.path}: format ${FROM_FORMAT} → ${STORE_FORMAT_VERSION}, moving ${entries} entries, ${paid} paid commits ` +
      `and ${commits} commit locations into one record per entry hash (resumable: a stop goes on at the next start)`,
  );
  let lastLine = performance.now();
  const progress = (what: string): void => {
    if (performance.now() - lastLine < PROGRESS_EVERY_MS) return;
    lastLine = performance.now();
    log(`store ${s.path}: format migration, ${what}, ${((performance.now() - started) / 1000).toFixed(0)} s`);
  };
  // entries with their location and paid commit: one whole record each
  while (
    chunk(s, legacy.entries, size, (key, raw) => {
      const location = legacy.entryLocations.getBinary(key);
      if (location === undefined) throw corrupt(s, `entry ${hex(key)} has no location record`);
      const paidCommit = legacy.paidCommits.getBinary(key);
      const entry = { location: decodeEntryLocation(location), raw };
      s.dbs.entryRecords.putSync(
        key,
        encodeEntryRecord(paidCommit === undefined ? { entry } : { paid: decodePaidCommit(paidCommit), entry }),
      );
      legacy.entryLocations.removeSync(key);
      legacy.paidCommits.removeSync(key);
    }) > 0
  ) {
    afterChunk();
    progress(`${entries - count(legacy.entries)} of ${entries} entries`);
  }
  // paid commits of entry hashes with no saved entry (not revealed, or not yet)
  while (
    chunk(s, legacy.paidCommits, size, (key, value) => {
      s.dbs.entryRecords.putSync(key, encodeEntryRecord({ paid: decodePaidCommit(value) }));
    }) > 0
  ) {
    afterChunk();
    progress(`${paid - count(legacy.paidCommits)} of ${paid} paid commits`);
  }
  const [stray] = [...legacy.entryLocations.getKeys({ limit: 1 })];
  if (stray !== undefined) throw corrupt(s, `an entry location without its entry (${hex(stray as Uint8Array)})`);
  // commit locations: the height and index only (the EC block's header hash is the heights index's)
  while (
    chunk(s, legacy.commitLocations, size, (key, value) => {
      if (value.length !== 40) throw corrupt(s, `the commit location ${hex(key)} has ${value.length} bytes, not 40`);
      s.dbs.commitPlaces.putSync(key, value.subarray(32, 40));
    }) > 0
  ) {
    afterChunk();
    progress(`${commits - count(legacy.commitLocations)} of ${commits} commit locations`);
  }
  s.env.transactionSync(() => {
    for (const db of Object.values(legacy)) db.dropSync();
    s.dbs.meta.putSync(Buffer.from(META_KEYS.format, "ascii"), u32Bytes(STORE_FORMAT_VERSION));
  });
  log(
    `store ${s.path}: format ${STORE_FORMAT_VERSION}, migrated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * Move up to `size` records of `from` in one transaction: `move` writes each one's new record(s) (and deletes
 * what else it replaces); the record itself is deleted here. Returns how many moved (0: `from` is empty).
 */
function chunk(
  s: MigratedStore,
  from: BinDb,
  size: number,
  move: (key: Uint8Array, value: Uint8Array) => void,
): number {
  let n = 0;
  s.env.transactionSync(() => {
    // copied first: the records are written and deleted below, which a live cursor would not survive
    const batch = [...from.getRange({ limit: size })].map(
      ({ key, value }) => [Uint8Array.from(key), Uint8Array.from(value)] as const,
    );
    for (const [key, value] of batch) {
      move(key, value);
      from.removeSync(key);
    }
    n = batch.length;
  });
  return n;
}

function count(db: BinDb): number {
  return (db.getStats() as { entryCount: number }).entryCount;
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString("hex");
}

function corrupt(s: MigratedStore, info: string): StoreError {
  return new StoreError({
    code: "CORRUPT",
    path: s.path,
    info: `format ${FROM_FORMAT} → ${STORE_FORMAT_VERSION} migration: ${info}`,
  });
}
