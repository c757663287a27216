// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §2.

export const ENTRY_COMMIT_SIZE = 136;
export const CHAIN_COMMIT_SIZE = 200;

/** A decoded entry commit (136 bytes) or chain commit (200 bytes). `raw` holds exactly those bytes. */
export interface EntryCommit {
  kind: "entry";
  version: number;
  milliTime: number; // ms since epoch (48-bit)
  entryHash: Uint8Array;
  credits: number; // 1..10
  ecPublicKey: Uint8Array;
  signature: Uint8Array;
  raw: Uint8Array;
}
export interface ChainCommit {
  kind: "chain";
  version: number;
  milliTime: number; // ms since epoch
  chainIdHash: Uint8Array; // sha256d(chainId)
  weld: Uint8Array;
  entryHash: Uint8Array;
  credits: number; // 11..20
  ecPublicKey: Uint8Array;
  signature: Uint8Array;
  raw: Uint8Array;
}
export type Commit = EntryCommit | ChainCommit;

/** Decode exactly 136 bytes (BAD_LENGTH otherwise; trailing bytes rejected). Checks version 0 and the credit range 1..10. Does NOT verify the signature. */
export function decodeEntryCommit(_bytes: Uint8Array): EntryCommit {
  throw new Error("not implemented");
}
/** Decode exactly 200 bytes; version 0, credits 11..20. Does NOT verify the signature. */
export function decodeChainCommit(_bytes: Uint8Array): ChainCommit {
  throw new Error("not implemented");
}
/** The signed prefix: bytes 0..39 (entry) or 0..103 (chain). */
export function commitSignedPart(_commit: Commit): Uint8Array {
  throw new Error("not implemented");
}
/** txid = sha256(signed prefix) — returned by commit-* and used by ack with chainid "c". */
export function commitTxId(_commit: Commit): Uint8Array {
  throw new Error("not implemented");
}
/** Full hash = sha256(all 136/200 bytes) — EC block Merkle/index key. */
export function commitFullHash(_commit: Commit): Uint8Array {
  throw new Error("not implemented");
}
/** Verify the commit's ed25519 signature (canonical rule) over the signed prefix. */
export function verifyCommitSignature(_commit: Commit): boolean {
  throw new Error("not implemented");
}
/** Build and sign an entry commit for a marshalled entry (tools, tests, load generator). */
export function buildEntryCommit(_args: { entryRaw: Uint8Array; milliTime: number; credits?: number; ecSeed: Uint8Array }): EntryCommit {
  throw new Error("not implemented");
}
/** Build and sign a chain commit for a marshalled first entry (credits default to its cost + 10). */
export function buildChainCommit(_args: { entryRaw: Uint8Array; milliTime: number; credits?: number; ecSeed: Uint8Array }): ChainCommit {
  throw new Error("not implemented");
}
