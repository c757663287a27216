/**
 * One record per entry hash (docs/ledger.md §Key layout, `entryRecords`): the latest commit that paid for the
 * hash, and once an entry with that hash is saved, where it is and its bytes. Until store format 2 these were
 * three records under the same 32-byte key (`paidCommits`, `entryLocations`, `entries`): three keys, three
 * LMDB node headers and the commit's txid twice, ~580 bytes of pages per entry where this record takes ~340
 * (docs/performance.md §Disk).
 *
 * Value layout: flags (u8) ‖ [paid commit] ‖ [entry], the parts present as the flags say:
 *
 * - paid commit (FLAG_PAID): credits (u8) ‖ height (u32) ‖ milliTime (u48) ‖ txid (32) ‖ chainIdHash (32, only
 *   with FLAG_CHAIN_ID_HASH: an entry commit's is 32 zero bytes, left out); kind chain with FLAG_CHAIN_COMMIT,
 *   revealed with FLAG_REVEALED;
 * - entry (FLAG_ENTRY): entry block keyMR (32) ‖ directory block height (u32) ‖ paying commit's txid (32, only
 *   with FLAG_OWN_TXID: left out when it is the paid commit's txid, as it is until the hash is paid again) ‖ the
 *   marshalled entry (the rest of the value).
 *
 * A block set writes a record whole when it has both parts (a reveal always carries its paid commit, marked
 * revealed: processList.ts), which is the common case; a part alone (a commit not revealed yet, an entry of a
 * snapshot) is merged with the saved record by the writer (`putEntryRecord`).
 */

import { StoreError } from "./errors.js";
import type { EntryLocation, PaidCommit } from "./records.js";

const FLAG_PAID = 0x01;
const FLAG_ENTRY = 0x02;
const FLAG_CHAIN_COMMIT = 0x04;
const FLAG_REVEALED = 0x08;
const FLAG_CHAIN_ID_HASH = 0x10;
const FLAG_OWN_TXID = 0x20;
const KNOWN_FLAGS = 0x3f;

/** Bytes of a paid-commit part without the chain ID hash: credits, height, milliTime, txid. */
const PAID_BYTES = 1 + 4 + 6 + 32;
/** Bytes of an entry part's location without the own txid: keyMR, height. */
const LOCATION_BYTES = 32 + 4;

/** What one entry hash's record holds; either part may be missing (not both). */
export interface EntryRecordParts {
  paid?: PaidCommit;
  entry?: { location: EntryLocation; raw: Uint8Array };
}

function allZero(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Encode a record (or a part of one, for the writer to merge). */
export function encodeEntryRecord(parts: EntryRecordParts): Uint8Array {
  const { paid, entry } = parts;
  const flags = entryRecordFlags(paid, entry);
  const b = Buffer.allocUnsafe(entryRecordSize(flags, entry === undefined ? 0 : entry.raw.length));
  writeEntryRecord(b, 0, flags, paid, entry);
  return b;
}

/**
 * The flags of the record of `paid` and `entry` (either may be missing, not both): what `entryRecordSize` and
 * `writeEntryRecord` take, so that a record can be written in place (blockSet.ts) as `encodeEntryRecord` writes it.
 */
export function entryRecordFlags(paid: PaidCommit | undefined, entry: EntryRecordParts["entry"]): number {
  let flags = 0;
  if (paid !== undefined) {
    flags |= FLAG_PAID;
    if (paid.kind === "chain") flags |= FLAG_CHAIN_COMMIT;
    if (paid.revealed) flags |= FLAG_REVEALED;
    if (!allZero(paid.chainIdHash)) flags |= FLAG_CHAIN_ID_HASH;
  }
  if (entry !== undefined) {
    flags |= FLAG_ENTRY;
    if (paid === undefined || !sameBytes(paid.txId, entry.location.commitTxId)) flags |= FLAG_OWN_TXID;
  }
  return flags;
}

/** Bytes of a record with `flags` (entryRecordFlags) whose marshalled entry is `rawLength` bytes (0: no entry). */
export function entryRecordSize(flags: number, rawLength: number): number {
  let size = 1;
  if ((flags & FLAG_PAID) !== 0) size += PAID_BYTES;
  if ((flags & FLAG_CHAIN_ID_HASH) !== 0) size += 32;
  if ((flags & FLAG_ENTRY) !== 0) size += LOCATION_BYTES + rawLength;
  if ((flags & FLAG_OWN_TXID) !== 0) size += 32;
  return size;
}

/** Write the record of `paid` and `entry` with `flags` (entryRecordFlags) at `at` in `b` (entryRecordSize bytes). */
export function writeEntryRecord(
  b: Buffer,
  at: number,
  flags: number,
  paid: PaidCommit | undefined,
  entry: EntryRecordParts["entry"],
): void {
  b[at++] = flags;
  if (paid !== undefined) {
    b[at] = paid.credits;
    b.writeUInt32BE(paid.height, at + 1);
    b.writeUIntBE(paid.milliTime, at + 5, 6);
    b.set(paid.txId, at + 11);
    at += PAID_BYTES;
    if ((flags & FLAG_CHAIN_ID_HASH) !== 0) {
      b.set(paid.chainIdHash, at);
      at += 32;
    }
  }
  if (entry !== undefined) {
    b.set(entry.location.entryBlockKeyMR, at);
    b.writeUInt32BE(entry.location.height, at + 32);
    at += LOCATION_BYTES;
    if ((flags & FLAG_OWN_TXID) !== 0) {
      b.set(entry.location.commitTxId, at);
      at += 32;
    }
    b.set(entry.raw, at);
  }
}

/** Where the parts of a record are (offsets into the value); throws StoreError CORRUPT on a malformed one. */
interface Layout {
  flags: number;
  /** offset of the paid part, -1 when absent */
  paidAt: number;
  /** offset of the entry part, -1 when absent */
  entryAt: number;
  /** offset of the own txid, -1 when absent */
  ownTxIdAt: number;
  /** offset of the marshalled entry */
  rawAt: number;
}

function layout(v: Uint8Array): Layout {
  const flags = v[0] ?? 0xff;
  if (v.length === 0 || (flags & ~KNOWN_FLAGS) !== 0 || (flags & (FLAG_PAID | FLAG_ENTRY)) === 0) throw malformed(v);
  let at = 1;
  let paidAt = -1;
  let entryAt = -1;
  let ownTxIdAt = -1;
  if ((flags & FLAG_PAID) !== 0) {
    paidAt = at;
    at += PAID_BYTES + ((flags & FLAG_CHAIN_ID_HASH) !== 0 ? 32 : 0);
  }
  if ((flags & FLAG_ENTRY) !== 0) {
    entryAt = at;
    at += LOCATION_BYTES;
    if ((flags & FLAG_OWN_TXID) !== 0) {
      ownTxIdAt = at;
      at += 32;
    } else if (paidAt < 0) throw malformed(v);
  }
  if (at > v.length || (entryAt < 0 && at !== v.length)) throw malformed(v);
  return { flags, paidAt, entryAt, ownTxIdAt, rawAt: at };
}

function malformed(v: Uint8Array): StoreError {
  return new StoreError({
    code: "CORRUPT",
    path: "entryRecords",
    info: `a malformed entry record (${v.length} bytes, flags 0x${(v[0] ?? 0).toString(16)})`,
  });
}

function view(v: Uint8Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.length);
}

/** The paid-commit part of a record (copies), or undefined. */
export function paidCommitOf(v: Uint8Array): PaidCommit | undefined {
  const l = layout(v);
  if (l.paidAt < 0) return undefined;
  const b = view(v);
  const at = l.paidAt;
  return {
    kind: (l.flags & FLAG_CHAIN_COMMIT) !== 0 ? "chain" : "entry",
    credits: b[at]!,
    revealed: (l.flags & FLAG_REVEALED) !== 0,
    height: b.readUInt32BE(at + 1),
    milliTime: b.readUIntBE(at + 5, 6),
    txId: v.slice(at + 11, at + 43),
    chainIdHash: (l.flags & FLAG_CHAIN_ID_HASH) !== 0 ? v.slice(at + 43, at + 75) : new Uint8Array(32),
  };
}

/** Offsets in a paid-commit part: credits (u8), milliTime (u48, ms), txid (32 bytes). */
export const PAID_PART = { credits: 0, milliTime: 5, txId: 11 } as const;

/**
 * Where the paid-commit part of record `v` starts (PAID_PART's offsets from there) when it holds a paid ENTRY
 * commit, else -1 (none, or a chain commit's): for a reader taking a few fields in place, without paidCommitOf's
 * copies (the query index, once per entry of every block: queryIndex.ts PaidTxIds).
 */
export function paidEntryCommitAt(v: Uint8Array): number {
  const l = layout(v);
  return l.paidAt >= 0 && (l.flags & FLAG_CHAIN_COMMIT) === 0 ? l.paidAt : -1;
}

/** The location part of a record (copies), or undefined when no entry with the hash is saved. */
export function entryLocationOf(v: Uint8Array): EntryLocation | undefined {
  const l = layout(v);
  if (l.entryAt < 0) return undefined;
  const at = l.entryAt;
  return {
    entryBlockKeyMR: v.slice(at, at + 32),
    height: view(v).readUInt32BE(at + 32),
    commitTxId: l.ownTxIdAt >= 0 ? v.slice(l.ownTxIdAt, l.ownTxIdAt + 32) : v.slice(l.paidAt + 11, l.paidAt + 43),
  };
}

/** The marshalled entry of a record as a view into `v` (copy it before the buffer is reused), or undefined. */
export function entryRawView(v: Uint8Array): Uint8Array | undefined {
  const l = layout(v);
  return l.entryAt < 0 ? undefined : v.subarray(l.rawAt);
}

/** Every part a record holds (copies). */
export function decodeEntryRecord(v: Uint8Array): EntryRecordParts {
  const paid = paidCommitOf(v);
  const location = entryLocationOf(v);
  const raw = entryRawView(v);
  return {
    ...(paid === undefined ? {} : { paid }),
    ...(location === undefined || raw === undefined ? {} : { entry: { location, raw: raw.slice() } }),
  };
}

/** True when `part` (an encoded record) has both parts, so it replaces the saved record whole. */
export function isWholeRecord(part: Uint8Array): boolean {
  return part.length > 0 && (part[0]! & (FLAG_PAID | FLAG_ENTRY)) === (FLAG_PAID | FLAG_ENTRY);
}

/**
 * The record to save for `part` (an encoded record, maybe of one part) over the saved one `saved`: the parts
 * `part` has replace the saved ones, the others are kept.
 */
export function mergeEntryRecord(saved: Uint8Array | undefined, part: Uint8Array): Uint8Array {
  if (saved === undefined || isWholeRecord(part)) return part;
  const old = decodeEntryRecord(saved);
  const next = decodeEntryRecord(part);
  return encodeEntryRecord({
    ...((next.paid ?? old.paid) === undefined ? {} : { paid: next.paid ?? old.paid }),
    ...((next.entry ?? old.entry) === undefined ? {} : { entry: next.entry ?? old.entry }),
  });
}
