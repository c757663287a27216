// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §5.4.
import type { ChainCommit, EntryCommit } from "./commit.js";

export type ECBlockItem =
  | { type: "serverIndex"; number: number } // ECID 00
  | { type: "minute"; number: number } // ECID 01, 1..10
  | { type: "chainCommit"; commit: ChainCommit } // ECID 02
  | { type: "entryCommit"; commit: EntryCommit } // ECID 03
  | { type: "balanceIncrease"; ecPublicKey: Uint8Array; txId: Uint8Array; index: bigint; numEC: bigint }; // ECID 04

export interface ECBlock {
  bodyHash: Uint8Array;
  prevHeaderHash: Uint8Array;
  prevFullHash: Uint8Array;
  dbHeight: number;
  headerExpansion: Uint8Array;
  items: ECBlockItem[];
}

/** Build an EC block from its items, computing bodyHash = sha256(body bytes). */
export function buildECBlock(_fields: Omit<ECBlock, "bodyHash">): ECBlock {
  throw new Error("not implemented");
}
export function encodeECBlock(_block: ECBlock): Uint8Array {
  throw new Error("not implemented");
}
/** Decode; rejects truncation, unknown ECIDs and trailing bytes. */
export function decodeECBlock(_bytes: Uint8Array): ECBlock {
  throw new Error("not implemented");
}
/** headerHash = sha256(header) (the "keymr"); fullHash = sha256(header ‖ body). */
export function ecBlockHashes(_block: ECBlock): { headerHash: Uint8Array; fullHash: Uint8Array } {
  throw new Error("not implemented");
}
