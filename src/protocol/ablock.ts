// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §5.3.

/** Admin entries; `type` is the wire type byte. Unknown/forward-compatible types keep their bytes. */
export type AdminEntry =
  | { type: 0x00; minute: number }
  | { type: 0x01; identityAdminChainId: Uint8Array; publicKey: Uint8Array; signature: Uint8Array }
  | { type: 0x02 | 0x03; identityChainId: Uint8Array; hash: Uint8Array }
  | { type: 0x04; amount: number }
  | { type: 0x05 | 0x06 | 0x07; identityChainId: Uint8Array; dbHeight: number }
  | { type: 0x08; identityChainId: Uint8Array; keyPriority: number; publicKey: Uint8Array; dbHeight: number }
  | { type: 0x09; identityChainId: Uint8Array; keyPriority: number; keyType: number; ecdsaPublicKey: Uint8Array }
  | { type: 0x0a; raw: Uint8Array } // server fault, kept as its bytes after the type byte
  | { type: 0x0b; outputs: { amount: bigint; address: Uint8Array }[] }
  | { type: 0x0c; descriptorHeight: bigint; descriptorIndex: bigint }
  | { type: 0x0d; identityChainId: Uint8Array; assetAddress: Uint8Array }
  | { type: 0x0e; identityChainId: Uint8Array; efficiency: number }
  | { type: number; data: Uint8Array; forwardCompatible: true };

export interface AdminBlock {
  prevBackRefHash: Uint8Array;
  dbHeight: number;
  headerExpansion: Uint8Array;
  entries: AdminEntry[];
}

export function encodeAdminBlock(_block: AdminBlock): Uint8Array {
  throw new Error("not implemented");
}
/** Decode; rejects truncation and trailing bytes. */
export function decodeAdminBlock(_bytes: Uint8Array): AdminBlock {
  throw new Error("not implemented");
}
/** lookupHash = sha256(whole block) (primary, the dblock entry); backReferenceHash = sha512half(whole block). */
export function adminBlockHashes(_block: AdminBlock): { lookupHash: Uint8Array; backReferenceHash: Uint8Array } {
  throw new Error("not implemented");
}
