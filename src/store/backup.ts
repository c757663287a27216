/**
 * Hot backup of a data directory while its node runs (docs/operations.md §3). The directory holds the main
 * LMDB environment and the journal's files (journal.ts, one per height); LMDB copies the environment from a
 * read snapshot, and the journal's files are copied after it. They fit together when the journal copy holds
 * no record beyond the open height of the main copy (saved height + 1): then the restored node finds every
 * block of the main copy and, for the open block, every message acknowledged before the journal copy began
 * (a record being appended while its file is copied may come out torn: the restored node's open cuts it,
 * and it was not acknowledged before the copy began). So the main environment is copied first, the journal
 * second, and both again if a block closed in between. A journal still of the LMDB format (a node not
 * started since the upgrade) is copied as LMDB.
 */
import { copyFileSync, existsSync, lstatSync, mkdirSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import { StoreError } from "./errors.js";
import { JOURNAL_DIR } from "./journal.js";
import { heightFileName, journalHeights, readHeight, STORE_ID_FILE } from "./journalFiles.js";
import { isLmdbJournal } from "./journalUpgrade.js";
import { DB_NAMES, META_KEYS, parseJournalKey } from "./keys.js";

/** The database of a journal of the LMDB format (journalUpgrade.ts). */
const LEGACY_JOURNAL_DB = "journal";

/** Copies tried before giving up (each pair is usually far shorter than a block). */
const DEFAULT_ATTEMPTS = 5;

export interface BackupResult {
  /** saved height of the copy: the restored node starts from this block */
  savedHeight: number;
  /** journal records of the open block in the copy (replayed at the restored node's start) */
  journalRecords: number;
  /** copy pairs taken (1 unless blocks closed during a copy) */
  attempts: number;
}

function openReadOnly(path: string) {
  return open<Uint8Array, Uint8Array>({
    path,
    readOnly: true,
    maxDbs: 20,
    keyEncoding: "binary",
    encoding: "binary",
  });
}

/**
 * Copy the data directory `source` (`<homedir>/<network>/db`) into `dest`, which must be missing or empty.
 * Throws when `source` is not a data directory, or when blocks kept closing during every attempt.
 */
export async function backupDataDirectory(
  source: string,
  dest: string,
  options: { attempts?: number; compact?: boolean } = {},
): Promise<BackupResult> {
  if (!existsSync(join(source, "data.mdb")))
    throw backupFailed(source, `${source} holds no ledger database (no data.mdb)`);
  const created = prepareDestination(dest);
  // Only what this copy wrote is ever removed: the entries inside `dest`, never `dest` itself unless created here.
  const clear = (): void => {
    for (const name of readdirSync(dest)) rmSync(join(dest, name), { recursive: true, force: true });
  };
  const attempts = options.attempts ?? DEFAULT_ATTEMPTS;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    clear();
    mkdirSync(join(dest, JOURNAL_DIR), { mode: 0o700 });
    await copyEnvironment(source, dest, options.compact === true);
    const savedHeight = readSavedHeight(dest);
    const from = join(source, JOURNAL_DIR);
    const to = join(dest, JOURNAL_DIR);
    let heights: number[];
    let openRecords: number;
    if (isLmdbJournal(from)) {
      await copyEnvironment(from, to, options.compact === true);
      heights = lmdbJournalHeights(to);
      openRecords = heights.filter((h) => h === savedHeight + 1).length;
    } else {
      copyJournalFiles(from, to);
      heights = journalHeights(to);
      openRecords = readHeight(to, savedHeight + 1).length;
    }
    // a block saved since the main copy may have had its journal removed before that was copied: copy again
    const unchanged = readSavedHeight(source) === savedHeight;
    if (unchanged && heights.every((h) => h <= savedHeight + 1))
      return { savedHeight, journalRecords: openRecords, attempts: attempt };
  }
  if (created) rmSync(dest, { recursive: true, force: true });
  else clear();
  throw backupFailed(
    source,
    `blocks closed during each of ${attempts} copies; try again, or stop the node and copy it cold`,
  );
}

/**
 * Check the destination: a symbolic link is refused (the copy would land wherever it points, and replacing it
 * would break the operator's layout), as is anything but a directory, or a directory that is not empty. A
 * missing destination is created, readable by its owner only (it holds the whole ledger); an existing empty
 * one is used as it is, its mode and owner kept. Returns whether it was created here.
 */
function prepareDestination(dest: string): boolean {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(dest);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    mkdirSync(dest, { recursive: true, mode: 0o700 });
    return true;
  }
  if (stat.isSymbolicLink())
    throw backupFailed(
      dest,
      `${dest} is a symbolic link: give the directory it points to (${readlinkSync(dest)}) instead`,
    );
  if (!stat.isDirectory()) throw backupFailed(dest, `${dest} exists and is not a directory`);
  if (readdirSync(dest).length > 0) throw backupFailed(dest, `${dest} is not empty`);
  return false;
}

/**
 * `compact`: LMDB's compacting copy (MDB_CP_COMPACT): pages in use only, renumbered, so the copy's data.mdb is
 * the databases' pages without the free ones. A store keeps the pages freed by its saves and by a query index
 * rebuilt in a new layout (10,000,000 entries, layout 1 to 2: 12.8 GB allocated, 7.1 GB in use) and never
 * gives them back to the file system; a compact copy put in its place does (docs/operations.md §3).
 */
async function copyEnvironment(from: string, to: string, compact: boolean): Promise<void> {
  const env = openReadOnly(from);
  try {
    await env.backup(to, compact);
  } finally {
    await env.close();
  }
}

function readSavedHeight(dataDir: string): number {
  const env = openReadOnly(dataDir);
  try {
    const v = env
      .openDB<Uint8Array, Uint8Array>(DB_NAMES.meta, { keyEncoding: "binary", encoding: "binary" })
      .getBinary(Buffer.from(META_KEYS.savedHeight, "ascii"));
    if (v?.length !== 4) throw backupFailed(dataDir, `${dataDir}: the copy has no saved height`);
    return v.readUInt32BE(0);
  } finally {
    void env.close();
  }
}

/** Height of every record of a journal copy of the LMDB format (empty when it has none). */
function lmdbJournalHeights(journalDir: string): number[] {
  if (!existsSync(join(journalDir, "data.mdb"))) return [];
  const env = openReadOnly(journalDir);
  try {
    const db = env.openDB<Uint8Array, Uint8Array>(LEGACY_JOURNAL_DB, { keyEncoding: "binary", encoding: "binary" });
    return [...db.getKeys()].map((k) => parseJournalKey(k).height);
  } finally {
    void env.close();
  }
}

/**
 * Copy the journal's files: its store id and every height's file there when listed (one removed meanwhile
 * was of a block saved since: the retry above sees the main copy behind and copies both again).
 */
function copyJournalFiles(from: string, to: string): void {
  const names = [STORE_ID_FILE, ...journalHeights(from).map(heightFileName)];
  for (const name of names) {
    try {
      copyFileSync(join(from, name), join(to, name));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }
}

/** A backup refused or abandoned; the message says why and what to do. */
function backupFailed(path: string, info: string): StoreError {
  return new StoreError({ code: "BACKUP_FAILED", path, info });
}
