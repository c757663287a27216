// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §1.

/** Largest entry payload (ext IDs with their 2-byte prefixes + content), bytes. */
export const MAX_ENTRY_PAYLOAD = 10240;
/** Header bytes not charged for: version(1) + chain ID(32) + ext ID section length(2). */
export const ENTRY_HEADER_SIZE = 35;

/** A decoded entry (wire-format §1.1). */
export interface Entry {
  version: number; // always 0
  chainId: Uint8Array; // 32 bytes
  extIds: Uint8Array[];
  content: Uint8Array;
}

/** Marshal an entry (§1.1). Throws ProtocolError TOO_LARGE when the payload exceeds 10240 bytes. */
export function marshalEntry(_entry: Entry): Uint8Array {
  throw new Error("not implemented");
}

/** Decode a marshalled entry; validates version 0, ext ID section bounds, size limit. No trailing-bytes notion: content runs to the end. */
export function unmarshalEntry(_raw: Uint8Array): Entry {
  throw new Error("not implemented");
}

/** Entry hash = sha256(sha512(raw) ‖ raw) of the marshalled bytes. */
export function entryHash(_raw: Uint8Array): Uint8Array {
  throw new Error("not implemented");
}

/** Chain ID = sha256(sha256(ext0) ‖ sha256(ext1) ‖ …). */
export function chainIdFromExtIds(_extIds: readonly Uint8Array[]): Uint8Array {
  throw new Error("not implemented");
}

/** KSize = ceil((rawLength − 35) / 1024): the EC cost of adding the entry to an existing chain (0 for an empty payload). */
export function entryKSize(_rawLength: number): number {
  throw new Error("not implemented");
}

/** EC cost to pay in a commit: max(1, KSize) for an entry, KSize + 10 for a chain's first entry. */
export function entryCreditCost(_rawLength: number, _newChain: boolean): number {
  throw new Error("not implemented");
}

/** Weld = sha256d(entryHash ‖ chainId) (chain commit field). */
export function weld(_entryHash: Uint8Array, _chainId: Uint8Array): Uint8Array {
  throw new Error("not implemented");
}
