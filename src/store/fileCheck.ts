/**
 * A look at `data.mdb` before LMDB maps it: LMDB trusts its file, and a file that is not an LMDB
 * environment (garbage, zeroed meta pages, a truncated copy, a text file) crashes the process inside the
 * native open (SIGSEGV/SIGBUS) instead of returning an error. This reads the two meta pages and refuses
 * such a file with a StoreError the node can report.
 *
 * Meta page layout of the lmdb-js build in use (64-bit, little-endian; seen in files it writes):
 * page header 24 bytes, then magic u32 0xBEEFC0DE, version u32, address u64, map size u64, two database
 * records of 48 bytes (free pages, main; the first's u32 `md_pad` holds the page size; each ends with its root
 * page number u64), last page number u64, txn id u64.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { StoreError } from "./errors.js";

/** LMDB's magic number (MDB_MAGIC). */
const MAGIC = 0xbeefc0de;
/** Offset of the magic within a meta page; 16 is the classic 64-bit header, 24 this lmdb-js build's. */
const MAGIC_OFFSETS = [24, 16] as const;
/** Data file versions LMDB writes (1 classic, 2 lmdb-js's LMDB 1.0 layout). */
const VERSIONS = new Set([1, 2]);
/** From the magic: the first database record (page size in its first u32), last page, txn id. */
const PAGE_SIZE_AT = 24;
/** Root page numbers of the two database records (`md_root`, the last u64 of each 48-byte record). */
const ROOT_AT = [24 + 40, 24 + 48 + 40] as const;
/** `md_root` of an empty database (LMDB's P_INVALID). */
const NO_ROOT = 0xffff_ffff_ffff_ffffn;
/** `md_depth` of the main database record (from the magic: the second record's u16 at 6). */
const MAIN_DEPTH_AT = 24 + 48 + 6;
const LAST_PAGE_AT = 24 + 96;
const TXN_ID_AT = LAST_PAGE_AT + 8;
/** Page sizes LMDB supports. */
const MIN_PAGE = 512;
const MAX_PAGE = 65536;

interface Meta {
  pageSize: number;
  txnId: bigint;
  /** root pages of the free-page and main databases (empty ones left out) */
  roots: bigint[];
  /** root page of the main (names) database, NO_ROOT when empty */
  mainRoot: bigint;
  /** levels of the main database's tree (`md_depth`, the u16 at 6 of its record) */
  mainDepth: number;
}

function readMeta(page: Buffer): Meta | undefined {
  for (const at of MAGIC_OFFSETS) {
    if (page.length < at + TXN_ID_AT + 8) continue;
    if (page.readUInt32LE(at) !== MAGIC || !VERSIONS.has(page.readUInt32LE(at + 4))) continue;
    return {
      pageSize: page.readUInt32LE(at + PAGE_SIZE_AT),
      txnId: page.readBigUInt64LE(at + TXN_ID_AT),
      roots: ROOT_AT.map((r) => page.readBigUInt64LE(at + r)).filter((root) => root !== NO_ROOT),
      mainRoot: page.readBigUInt64LE(at + ROOT_AT[1]),
      mainDepth: page.readUInt16LE(at + MAIN_DEPTH_AT),
    };
  }
  return undefined;
}

/**
 * Refuse a `data.mdb` in `dir` that is not a whole LMDB environment (StoreError CORRUPT). A missing file
 * is fine (a new environment).
 */
export function checkDataFile(dir: string): void {
  const file = join(dir, "data.mdb");
  if (!existsSync(file)) return;
  const corrupt = (info: string): StoreError => new StoreError({ code: "CORRUPT", path: dir, info });
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    throw new StoreError({ code: "OPEN_FAILED", path: dir, info: e instanceof Error ? e.message : String(e) });
  }
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(size, 2 * MAX_PAGE));
    readSync(fd, head, 0, head.length, 0);
    const first = readMeta(head);
    if (first === undefined) throw corrupt("data.mdb is not an LMDB database file (no valid meta page at its start)");
    const { pageSize } = first;
    if (pageSize < MIN_PAGE || pageSize > MAX_PAGE || (pageSize & (pageSize - 1)) !== 0)
      throw corrupt(`data.mdb is not a valid LMDB file (page size ${pageSize})`);
    if (size < 2 * pageSize) throw corrupt(`data.mdb is truncated: ${size} bytes, less than its two meta pages`);
    const second = readMeta(head.subarray(pageSize, 2 * pageSize));
    if (second === undefined) throw corrupt("data.mdb is not a valid LMDB file (its second meta page is damaged)");
    // The older meta page describes a transaction that is surely complete on disk: the file must hold its
    // root pages. Not every page up to its last page number: LMDB counts pages a transaction took from the
    // end of the file and freed again before its commit (never written), so a healthy file may end before
    // that page — seen on a 1,000,000-entry store: last page 310,188 in a file of 310,133 pages, every
    // record readable (docs/history/performance-history.md). A copy cut elsewhere is found by the spine check
    // (pageCheck.ts: a page number past the file's end) or by the background scrub (scrub.ts), where reading
    // past the end crashes the child, not the node.
    const older = second.txnId > first.txnId ? first : second;
    for (const root of older.roots) {
      const needed = (root + 1n) * BigInt(pageSize);
      if (BigInt(size) < needed)
        throw corrupt(`data.mdb is truncated: ${size} bytes, a root page ends at byte ${needed} (file size too small)`);
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The newer of the two meta pages of `dir`'s `data.mdb` (the one LMDB opens), or undefined when there is no
 * file. checkDataFile must have passed first.
 */
export function newerMeta(dir: string): { pageSize: number; mainRoot: bigint; mainDepth: number } | undefined {
  const file = join(dir, "data.mdb");
  if (!existsSync(file)) return undefined;
  const fd = openSync(file, "r");
  try {
    const head = Buffer.alloc(2 * MAX_PAGE);
    const got = readSync(fd, head, 0, head.length, 0);
    const first = readMeta(head.subarray(0, got));
    if (first === undefined) return undefined;
    const second = readMeta(head.subarray(first.pageSize, Math.min(got, 2 * first.pageSize)));
    const newer = second !== undefined && second.txnId > first.txnId ? second : first;
    return { pageSize: newer.pageSize, mainRoot: newer.mainRoot, mainDepth: newer.mainDepth };
  } finally {
    closeSync(fd);
  }
}
