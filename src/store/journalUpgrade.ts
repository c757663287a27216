/**
 * A journal written by an earlier version: an LMDB environment in `<data dir>/journal/` (data.mdb, lock.mdb),
 * databases `journal` (u32 height ‖ u32 seq, big-endian → message) and `meta` (`storeId`). At open its records
 * are carried into the height files (journalFiles.ts) once, then the environment is removed — nothing
 * acknowledged is lost on the upgrade.
 *
 * Crash-safe by order: every height file and the store id are written and flushed before data.mdb is removed,
 * and files left by an upgrade a crash cut short are dropped first (while data.mdb is there, it is the
 * journal). So a restart at any point carries the same records again.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { openBinaryDb, openCheckedEnvironment } from "./environment.js";
import {
  appendRecordsSync,
  fsyncDirectory,
  heightFileName,
  journalHeights,
  packGroup,
  replaceFileSync,
  STORE_ID_FILE,
  sealRecords,
  unlinkIfThere,
} from "./journalFiles.js";
import { parseJournalKey } from "./keys.js";

/** The LMDB journal's databases. */
const LEGACY_JOURNAL_DB = "journal";
const LEGACY_META_DB = "meta";
const LEGACY_STORE_ID_KEY = Buffer.from("storeId", "ascii");

/** True when `dir` holds a journal of the LMDB format. */
export function isLmdbJournal(dir: string): boolean {
  return existsSync(join(dir, "data.mdb"));
}

/**
 * Carry the LMDB journal in `dir` into height files, then remove it. Returns the records carried. Throws
 * StoreError (openCheckedEnvironment) when the environment is not ours or is damaged; then nothing is removed.
 */
export function upgradeLmdbJournal(dir: string, verify: boolean): number {
  const env = openCheckedEnvironment(dir, "journal", [LEGACY_JOURNAL_DB, LEGACY_META_DB], verify);
  const byHeight = new Map<number, { seq: number[]; bytes: Uint8Array[] }>();
  let storeId: Uint8Array | undefined;
  let carried = 0;
  try {
    const db = openBinaryDb(env, LEGACY_JOURNAL_DB);
    // keys sort by height, then sequence: each height's records come out in log order
    for (const { key, value } of db.getRange({})) {
      const k = parseJournalKey(key);
      let h = byHeight.get(k.height);
      if (h === undefined) {
        h = { seq: [], bytes: [] };
        byHeight.set(k.height, h);
      }
      h.seq.push(k.seq);
      h.bytes.push(new Uint8Array(value));
      carried++;
    }
    const id = openBinaryDb(env, LEGACY_META_DB).getBinary(LEGACY_STORE_ID_KEY);
    if (id !== undefined) storeId = new Uint8Array(id);
  } finally {
    void env.close();
  }
  // files of an upgrade cut short: data.mdb is still the journal, they are written again below
  for (const height of journalHeights(dir)) unlinkIfThere(join(dir, heightFileName(height)));
  unlinkIfThere(join(dir, STORE_ID_FILE));
  for (const [height, h] of byHeight) {
    const packed = packGroup(
      h.seq.map(() => height),
      h.seq,
      h.bytes,
    );
    sealRecords(packed, () => {});
    appendRecordsSync(dir, height, packed);
  }
  if (storeId !== undefined) replaceFileSync(dir, STORE_ID_FILE, storeId);
  fsyncDirectory(dir);
  // the records are on disk in their files: the environment can go (data.mdb first: it marks the old format)
  unlinkIfThere(join(dir, "data.mdb"));
  unlinkIfThere(join(dir, "lock.mdb"));
  fsyncDirectory(dir);
  return carried;
}
