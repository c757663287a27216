// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §5.2.

export interface DirectoryBlockEntry {
  chainId: Uint8Array;
  keyMR: Uint8Array;
}
export interface DirectoryBlock {
  version: number;
  networkId: number; // u32
  bodyMR: Uint8Array;
  prevKeyMR: Uint8Array;
  prevFullHash: Uint8Array;
  timestamp: number; // MINUTES since epoch (u32)
  dbHeight: number;
  /** admin, EC, asset, then entry blocks sorted ascending by chain ID */
  entries: DirectoryBlockEntry[];
}

/** Build a directory block: sorts entries 3.. by chain ID and computes bodyMR. */
export function buildDirectoryBlock(_fields: Omit<DirectoryBlock, "bodyMR">): DirectoryBlock {
  throw new Error("not implemented");
}
/** The 113-byte header (what directory block signatures sign). */
export function encodeDirectoryBlockHeader(_block: DirectoryBlock): Uint8Array {
  throw new Error("not implemented");
}
export function encodeDirectoryBlock(_block: DirectoryBlock): Uint8Array {
  throw new Error("not implemented");
}
/** Decode; requires ≥ 3 entries with the admin/EC/asset chain IDs first; rejects trailing bytes. */
export function decodeDirectoryBlock(_bytes: Uint8Array): DirectoryBlock {
  throw new Error("not implemented");
}
/** KeyMR = sha256(sha256(header) ‖ bodyMR); fullHash = sha256(whole block); headerHash = sha256(header). */
export function directoryBlockHashes(_block: DirectoryBlock): { keyMR: Uint8Array; fullHash: Uint8Array; headerHash: Uint8Array } {
  throw new Error("not implemented");
}
/** Flat list [chain0, key0, chain1, key1, …] whose Merkle root is bodyMR (receipts). */
export function directoryBlockBranchLeaves(_block: DirectoryBlock): Uint8Array[] {
  throw new Error("not implemented");
}
