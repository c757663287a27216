// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §5.5.
import type { Transaction } from "./transaction.js";

/**
 * An asset block. `periods[k]` holds the transactions placed before period marker k+1 (k = 0..9);
 * exactly ten periods. The coinbase is periods[0][0].
 */
export interface AssetBlock {
  bodyMR: Uint8Array;
  prevKeyMR: Uint8Array;
  prevLedgerKeyMR: Uint8Array;
  exchangeRate: bigint; // base units per EC
  dbHeight: number;
  headerExpansion: Uint8Array;
  periods: Transaction[][];
}

/** Build an asset block, computing bodyMR. */
export function buildAssetBlock(_fields: Omit<AssetBlock, "bodyMR">): AssetBlock {
  throw new Error("not implemented");
}
export function encodeAssetBlock(_block: AssetBlock): Uint8Array {
  throw new Error("not implemented");
}
/** Decode; rejects truncation, marker count ≠ 10, trailing bytes. */
export function decodeAssetBlock(_bytes: Uint8Array): AssetBlock {
  throw new Error("not implemented");
}
/** keyMR = sha256(sha256(header) ‖ bodyMR); ledgerKeyMR = sha256(ledgerMR ‖ sha256(header)). */
export function assetBlockHashes(_block: AssetBlock): { keyMR: Uint8Array; ledgerKeyMR: Uint8Array } {
  throw new Error("not implemented");
}
/** All transactions in body order. */
export function assetBlockTransactions(_block: AssetBlock): Transaction[] {
  throw new Error("not implemented");
}
/** The 10-byte coinbase `02 ‖ ts ‖ 00 00 00` for a block started at `milliTimestamp`. */
export function emptyCoinbase(_milliTimestamp: number): Transaction {
  throw new Error("not implemented");
}
