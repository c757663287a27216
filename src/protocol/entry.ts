// Entries: wire-format §1 (factomd common/entryBlock/entry.go).
import { ByteReader, ByteWriter, concat } from "./bytes.js";
import { ProtocolError } from "./errors.js";
import { sha256, sha256d, sha256Hex, sha512, writeSha512 } from "./hash.js";

/** Largest entry payload (ext IDs with their 2-byte prefixes + content), bytes. */
export const MAX_ENTRY_PAYLOAD = 10240;
/** Header bytes not charged for: version(1) + chain ID(32) + ext ID section length(2). */
export const ENTRY_HEADER_SIZE = 35;
/** Offset of the chain ID in a marshalled entry (after the version byte); 32 bytes. */
export const ENTRY_CHAIN_ID_OFFSET = 1;
/** Largest marshalled entry, bytes: header + largest payload (factom.js MAX_ENTRY_SIZE). */
export const MAX_ENTRY_SIZE = ENTRY_HEADER_SIZE + MAX_ENTRY_PAYLOAD;
/** Payload bytes paid by one entry credit. */
export const ENTRY_CREDIT_KIB = 1024;
/** Entry credits charged on top of the entry's own cost when it creates a chain. */
export const CHAIN_CREATION_CREDITS = 10;

/** A decoded entry (wire-format §1.1). */
export interface Entry {
  version: number; // always 0
  chainId: Uint8Array; // 32 bytes
  extIds: Uint8Array[];
  content: Uint8Array;
}

/** Bytes an entry's payload takes: Σ(2 + ext ID length) + content length. */
export function entryPayloadSize(entry: Pick<Entry, "extIds" | "content">): number {
  let n = entry.content.length;
  for (const id of entry.extIds) n += 2 + id.length;
  return n;
}

/** Marshal an entry (§1.1). Throws ProtocolError TOO_LARGE when the payload exceeds 10240 bytes. */
export function marshalEntry(entry: Entry): Uint8Array {
  if (entry.version !== 0) throw new ProtocolError("BAD_VERSION", "entry.version", `expected 0, got ${entry.version}`);
  if (entry.chainId.length !== 32)
    throw new ProtocolError("BAD_LENGTH", "entry.chainid", `expected 32 bytes, got ${entry.chainId.length}`);
  const payload = entryPayloadSize(entry);
  if (payload > MAX_ENTRY_PAYLOAD)
    throw new ProtocolError("TOO_LARGE", "entry", `payload is ${payload} bytes, the limit is ${MAX_ENTRY_PAYLOAD}`);
  // payload ≤ 10240 keeps every ext ID length and the section length inside a u16.
  const w = new ByteWriter(ENTRY_HEADER_SIZE + payload);
  w.u8(0)
    .bytes(entry.chainId)
    .u16(payload - entry.content.length);
  for (const id of entry.extIds) w.u16(id.length).bytes(id);
  w.bytes(entry.content);
  return w.finish();
}

/**
 * Decode a marshalled entry; validates version 0, ext ID section bounds, size limit. No trailing-bytes
 * notion: content runs to the end. The result owns a copy of the bytes (the input may be reused).
 */
export function unmarshalEntry(raw: Uint8Array): Entry {
  checkEntrySize(raw);
  return unmarshalEntryView(raw.slice());
}

/**
 * `unmarshalEntry` without the copy: the fields are views of `raw`, which the caller must not change while the
 * entry lives (the write path's: `raw` is a request's own decoded bytes, and the ledger copies what it keeps).
 */
export function unmarshalEntryView(raw: Uint8Array): Entry {
  checkEntrySize(raw);
  const r = new ByteReader(raw, "entry");
  const version = r.u8("version");
  if (version !== 0) throw new ProtocolError("BAD_VERSION", "entry.version", `expected 0, got ${version}`);
  const chainId = r.bytesN(32, "chainid");
  const sectionLength = r.u16("extids length");
  const section = new ByteReader(r.bytesN(sectionLength, "extids"), "entry");
  const extIds: Uint8Array[] = [];
  while (section.remaining > 0) {
    const i = extIds.length;
    const n = section.u16(`extids[${i}] length`);
    extIds.push(section.bytesN(n, `extids[${i}]`));
  }
  const content = r.bytesN(r.remaining, "content");
  return { version, chainId, extIds, content };
}

function checkEntrySize(raw: Uint8Array): void {
  if (raw.length > MAX_ENTRY_SIZE)
    throw new ProtocolError(
      "TOO_LARGE",
      "entry",
      `payload is ${raw.length - ENTRY_HEADER_SIZE} bytes, the limit is ${MAX_ENTRY_PAYLOAD}`,
    );
}

/** Entry hash = sha256(sha512(raw) ‖ raw) of the marshalled bytes. */
export function entryHash(raw: Uint8Array): Uint8Array {
  return sha256(concat(sha512(raw), raw));
}

/**
 * Where `entryHashHex` lays out sha512(raw) ‖ raw: one buffer for the process (the hash is synchronous), sized
 * for the largest entry, instead of a concatenation allocated per entry.
 */
const ENTRY_HASH_INPUT = new Uint8Array(64 + MAX_ENTRY_SIZE);

/**
 * `toHex(entryHash(raw))`, with no buffer allocated per step (the write path's; hash.ts `sha256Hex`,
 * `writeSha512`).
 */
export function entryHashHex(raw: Uint8Array): string {
  if (raw.length > MAX_ENTRY_SIZE) return sha256Hex(concat(sha512(raw), raw));
  const input = ENTRY_HASH_INPUT;
  writeSha512(raw, input, 0);
  input.set(raw, 64);
  return sha256Hex(input.subarray(0, 64 + raw.length));
}

/** Chain ID = sha256(sha256(ext0) ‖ sha256(ext1) ‖ …). */
export function chainIdFromExtIds(extIds: readonly Uint8Array[]): Uint8Array {
  const buf = new Uint8Array(32 * extIds.length);
  for (let i = 0; i < extIds.length; i++) buf.set(sha256(extIds[i]!), 32 * i);
  return sha256(buf);
}

/**
 * KSize = ceil((rawLength − 35) / 1024): the EC cost of adding the entry to an existing chain (0 for an
 * empty payload). `rawLength` is the marshalled entry's length in bytes; below 35 → BAD_LENGTH.
 */
export function entryKSize(rawLength: number): number {
  if (!Number.isSafeInteger(rawLength) || rawLength < ENTRY_HEADER_SIZE)
    throw new ProtocolError(
      "BAD_LENGTH",
      "entry",
      `a marshalled entry has at least ${ENTRY_HEADER_SIZE} bytes, got ${rawLength}`,
    );
  return Math.ceil((rawLength - ENTRY_HEADER_SIZE) / ENTRY_CREDIT_KIB);
}

/**
 * EC cost to pay in a commit, in entry credits: max(1, KSize) for an entry, max(1, KSize) + 10 for a chain's
 * first entry (a commit carries at least 1 credit, chain commits at least 11: wire-format §1.4, as factom-go
 * EntryCost). Over the size limit → TOO_LARGE.
 */
export function entryCreditCost(rawLength: number, newChain: boolean): number {
  const kSize = entryKSize(rawLength);
  if (rawLength > MAX_ENTRY_SIZE)
    throw new ProtocolError(
      "TOO_LARGE",
      "entry",
      `payload is ${rawLength - ENTRY_HEADER_SIZE} bytes, the limit is ${MAX_ENTRY_PAYLOAD}`,
    );
  const cost = Math.max(1, kSize);
  return newChain ? cost + CHAIN_CREATION_CREDITS : cost;
}

/** Weld = sha256d(entryHash ‖ chainId) (chain commit field). */
export function weld(entryHash: Uint8Array, chainId: Uint8Array): Uint8Array {
  return sha256d(concat(entryHash, chainId));
}
