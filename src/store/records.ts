/**
 * Fixed-width binary records stored as values (docs/ledger.md §Key layout). Encoders and decoders live
 * together so the layout is written down once.
 */

import { InvariantError } from "../errors.js";
import { ByteReader, U64_MAX } from "../protocol/bytes.js";

/** Where a saved entry is: its entry block, that block's height, and the commit that paid for it. */
export interface EntryLocation {
  entryBlockKeyMR: Uint8Array;
  height: number;
  commitTxId: Uint8Array;
}

/** Where a saved asset transaction is. */
export interface TransactionLocation {
  assetBlockKeyMR: Uint8Array;
  height: number;
  /** position among the block's transactions (coinbase = 0) */
  index: number;
}

/** Where a saved commit is. */
export interface CommitLocation {
  ecBlockHeaderHash: Uint8Array;
  height: number;
  /** position among the EC block's items (minute markers included) */
  index: number;
}

/**
 * The latest commit that paid for an entry hash: what the repeated-commit rule and reveals look at.
 * Kept across blocks; "live" while the ledger's time is within COMMIT_LIFETIME_MS of `milliTime`.
 */
export interface PaidCommit {
  kind: "entry" | "chain";
  /** entry credits paid */
  credits: number;
  /** true once a reveal used this commit */
  revealed: boolean;
  /** directory block height the commit went into */
  height: number;
  /** the commit's own timestamp, ms since epoch */
  milliTime: number;
  txId: Uint8Array;
  /** sha256d(chain ID) of a chain commit; 32 zero bytes for an entry commit */
  chainIdHash: Uint8Array;
}

/** Head of a chain: its newest saved entry block (or, for the system chains, newest block). */
export interface ChainHead {
  keyMR: Uint8Array;
  fullHash: Uint8Array;
  /** EBSequence of the head block (0 for a chain's first block) */
  sequence: number;
  height: number;
}

/** A pooled buffer of `size` bytes (records are small and written in bulk at a block close). */
function record(size: number): Buffer {
  return Buffer.allocUnsafe(size);
}

export function encodeEntryLocation(v: EntryLocation): Uint8Array {
  const b = record(68);
  b.set(v.entryBlockKeyMR, 0);
  b.writeUInt32BE(v.height, 32);
  b.set(v.commitTxId, 36);
  return b;
}
export function decodeEntryLocation(b: Uint8Array): EntryLocation {
  const r = new ByteReader(b, "entry location");
  return {
    entryBlockKeyMR: r.bytesN(32, "keymr").slice(),
    height: r.u32("height"),
    commitTxId: r.bytesN(32, "txid").slice(),
  };
}

export function encodeTransactionLocation(v: TransactionLocation): Uint8Array {
  const b = record(40);
  b.set(v.assetBlockKeyMR, 0);
  b.writeUInt32BE(v.height, 32);
  b.writeUInt32BE(v.index, 36);
  return b;
}
export function decodeTransactionLocation(b: Uint8Array): TransactionLocation {
  const r = new ByteReader(b, "transaction location");
  return { assetBlockKeyMR: r.bytesN(32, "keymr").slice(), height: r.u32("height"), index: r.u32("index") };
}

/**
 * The value of a `commitPlaces` record: u32 height ‖ u32 item index (8 bytes). The EC block header hash of a
 * CommitLocation is the `heights` record of that height's EC block, looked up by the reader (`commitLocationAt`).
 */
export function encodeCommitPlace(v: CommitLocation): Uint8Array {
  const b = record(COMMIT_PLACE_BYTES);
  writeCommitPlace(b, 0, v);
  return b;
}

/** Bytes of a `commitPlaces` value. */
export const COMMIT_PLACE_BYTES = 8;

/** Write the `commitPlaces` value of `v` at `at` in `b` (COMMIT_PLACE_BYTES), as encodeCommitPlace does. */
export function writeCommitPlace(b: Buffer, at: number, v: CommitLocation): void {
  b.writeUInt32BE(v.height, at);
  b.writeUInt32BE(v.index, at + 4);
}
/** The height and item index of a `commitPlaces` value. */
export function decodeCommitPlace(b: Uint8Array): { height: number; index: number } {
  const r = new ByteReader(b, "commit place");
  return { height: r.u32("height"), index: r.u32("index") };
}
/**
 * A commit's location from its `commitPlaces` value and the EC block at that height (`ecHeaderHashAt`, the
 * `heights` index); undefined when that block is not indexed.
 */
export function commitLocationAt(
  place: Uint8Array,
  ecHeaderHashAt: (height: number) => Uint8Array | undefined,
): CommitLocation | undefined {
  const { height, index } = decodeCommitPlace(place);
  const ecBlockHeaderHash = ecHeaderHashAt(height);
  return ecBlockHeaderHash === undefined ? undefined : { ecBlockHeaderHash, height, index };
}

/** kind (u8: 0 entry, 1 chain) ‖ credits (u8) ‖ revealed (u8) ‖ height (u32) ‖ milliTime (u48) ‖ txid ‖ chainIdHash: 77 bytes. */
export function encodePaidCommit(v: PaidCommit): Uint8Array {
  const b = record(77);
  b[0] = v.kind === "chain" ? 1 : 0;
  b[1] = v.credits;
  b[2] = v.revealed ? 1 : 0;
  b.writeUInt32BE(v.height, 3);
  b.writeUIntBE(v.milliTime, 7, 6);
  b.set(v.txId, 13);
  b.set(v.chainIdHash, 45);
  return b;
}
export function decodePaidCommit(b: Uint8Array): PaidCommit {
  const r = new ByteReader(b, "paid commit");
  return {
    kind: r.u8("kind") === 1 ? "chain" : "entry",
    credits: r.u8("credits"),
    revealed: r.u8("revealed") === 1,
    height: r.u32("height"),
    milliTime: r.u48("millitime"),
    txId: r.bytesN(32, "txid").slice(),
    chainIdHash: r.bytesN(32, "chainidhash").slice(),
  };
}

export function encodeChainHead(v: ChainHead): Uint8Array {
  const b = record(72);
  b.set(v.keyMR, 0);
  b.set(v.fullHash, 32);
  b.writeUInt32BE(v.sequence, 64);
  b.writeUInt32BE(v.height, 68);
  return b;
}
export function decodeChainHead(b: Uint8Array): ChainHead {
  const r = new ByteReader(b, "chain head");
  return {
    keyMR: r.bytesN(32, "keymr").slice(),
    fullHash: r.bytesN(32, "fullhash").slice(),
    sequence: r.u32("sequence"),
    height: r.u32("height"),
  };
}

/** Balances are u64 (base units or entry credits); a ledger rule keeps them ≥ 0. */
export function encodeBalance(v: bigint): Uint8Array {
  if (v < 0n || v > U64_MAX) throw new InvariantError(`balance ${v} outside 0..2^64-1`);
  const b = record(8);
  b.writeBigUInt64BE(v, 0);
  return b;
}
export function decodeBalance(b: Uint8Array): bigint {
  return new ByteReader(b, "balance").u64("balance");
}
