/**
 * Whose data a store is, checked at open before anything is written (docs/ledger.md §4): the format version,
 * the network and its id, the saved height, the journal that belongs to this database, and the move of a
 * legacy journal into its own environment.
 */
import { randomBytes } from "node:crypto";
import type { NetworkName } from "../protocol/network.js";
import { metaKey } from "./blockSet.js";
import type { Databases, RootEnv } from "./environment.js";
import { StoreError } from "./errors.js";
import type { Journal } from "./journal.js";
import { journalKey, META_KEYS, parseJournalKey } from "./keys.js";

/**
 * Layout version written into `meta`. Bump it when a key or value layout changes; a node refuses to
 * open a directory written with another version instead of misreading it, except the previous one, which it
 * migrates at open (formatMigration.ts). 2: one record per entry hash, commit locations without the EC hash.
 */
export const STORE_FORMAT_VERSION = 2;

/** Bytes of a store id (META_KEYS.storeId). */
export const STORE_ID_BYTES = 16;

/** What the checks read of an opened store. */
export interface OpenedStore {
  readonly path: string;
  readonly env: RootEnv;
  readonly dbs: Databases;
  readonly journal: Journal;
}

/** A `meta` record (a copy). */
export function metaGet(s: { dbs: Databases }, name: string): Buffer | undefined {
  return s.dbs.meta.getBinary(metaKey(name));
}

/** True when nothing has been saved yet (no genesis). */
export function isFresh(s: { dbs: Databases }): boolean {
  return metaGet(s, META_KEYS.format) === undefined;
}

/**
 * The journal must be this database's: a journal left from another (a data.mdb restored or copied over an
 * existing directory) would replay that database's messages onto this one's blocks. Directories written
 * before the id existed get one now.
 */
export function checkJournalBelongs(s: OpenedStore): void {
  if (isFresh(s)) return; // initialize() names both
  let id = metaGet(s, META_KEYS.storeId);
  if (id === undefined) {
    id = Buffer.from(randomBytes(STORE_ID_BYTES));
    const newId = id;
    s.env.transactionSync(() => s.dbs.meta.putSync(metaKey(META_KEYS.storeId), newId));
  }
  const journalId = s.journal.storeId();
  if (journalId === undefined) {
    s.journal.setStoreId(id);
    return;
  }
  if (!Buffer.from(journalId).equals(id))
    throw new StoreError({
      code: "UNKNOWN_FORMAT",
      path: s.path,
      info:
        `the journal in ${s.journal.path} belongs to another database (store id ${Buffer.from(journalId).toString("hex")}, ` +
        `this one ${id.toString("hex")}): restore data.mdb and journal/ from the same copy, or remove journal/ to drop its messages`,
    });
}

/**
 * Directories written before the journal had its own environment keep it in the main one's `journal`
 * database: move those records over (copy, then delete, so a crash in between only repeats the move).
 */
export function moveLegacyJournal(s: OpenedStore): void {
  const legacy = s.dbs.journal;
  const byHeight = new Map<number, { seq: number; bytes: Uint8Array }[]>();
  for (const { key, value } of legacy.getRange()) {
    const k = parseJournalKey(key);
    const list = byHeight.get(k.height) ?? [];
    list.push({ seq: k.seq, bytes: new Uint8Array(value) });
    byHeight.set(k.height, list);
  }
  if (byHeight.size === 0) return;
  for (const [height, records] of byHeight) s.journal.appendAllSync(height, records);
  s.env.transactionSync(() => {
    for (const [height, records] of byHeight) for (const r of records) legacy.removeSync(journalKey(height, r.seq));
  });
}

export function checkIdentity(s: OpenedStore, options: { network: NetworkName; networkId: number }): void {
  const format = metaGet(s, META_KEYS.format);
  if (format === undefined) {
    // No meta: must be a brand-new environment, not somebody else's LMDB data, and no journal left over
    // from a database that is gone (replaying it onto a new genesis would invent history).
    if (s.journal.count() > 0)
      throw new StoreError({
        code: "UNKNOWN_FORMAT",
        path: s.path,
        info: `it holds a journal (${s.journal.path}) but no database: restore the data directory whole, or remove the journal`,
      });
    for (const [name, db] of Object.entries(s.dbs)) {
      if (db.getKeysCount({ limit: 1 }) > 0)
        throw new StoreError({
          code: "UNKNOWN_FORMAT",
          path: s.path,
          info: `database '${name}' has data but no format record`,
        });
    }
    return;
  }
  if (format.length !== 4 || format.readUInt32BE(0) !== STORE_FORMAT_VERSION)
    throw new StoreError({
      code: "UNKNOWN_FORMAT",
      path: s.path,
      info: `format ${format.length === 4 ? format.readUInt32BE(0) : "?"}, this version reads format ${STORE_FORMAT_VERSION}`,
    });
  const network = metaGet(s, META_KEYS.network)?.toString("utf8") ?? "?";
  const id = metaGet(s, META_KEYS.networkId);
  const storedId = id?.length === 4 ? id.readUInt32BE(0) : -1;
  if (network !== options.network || storedId !== options.networkId)
    throw new StoreError({
      code: "NETWORK_MISMATCH",
      path: s.path,
      stored: `${network} (id 0x${storedId.toString(16)})`,
      expected: `${options.network} (id 0x${options.networkId.toString(16)})`,
    });
  if (metaGet(s, META_KEYS.savedHeight)?.length !== 4)
    throw new StoreError({ code: "CORRUPT", path: s.path, info: "no saved height" });
}
