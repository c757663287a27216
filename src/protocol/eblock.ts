// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §5.1.

/** An entry block. `items` are 32-byte body items: entry hashes and minute markers (31 zero bytes ‖ minute 1..10). */
export interface EntryBlock {
  chainId: Uint8Array;
  bodyMR: Uint8Array;
  prevKeyMR: Uint8Array;
  prevFullHash: Uint8Array;
  sequence: number; // EBSequence
  dbHeight: number;
  items: Uint8Array[];
}

/** 32-byte minute marker for minute n (1..10). */
export function minuteMarker(_minute: number): Uint8Array {
  throw new Error("not implemented");
}
/** Minute number (1..10) when the item is a minute marker, otherwise 0. */
export function markerMinute(_item: Uint8Array): number {
  throw new Error("not implemented");
}
/** Build an entry block from its items, computing bodyMR. */
export function buildEntryBlock(_fields: Omit<EntryBlock, "bodyMR">): EntryBlock {
  throw new Error("not implemented");
}
export function encodeEntryBlock(_block: EntryBlock): Uint8Array {
  throw new Error("not implemented");
}
/** Decode; rejects truncation and trailing bytes. */
export function decodeEntryBlock(_bytes: Uint8Array): EntryBlock {
  throw new Error("not implemented");
}
/** KeyMR = sha256(sha256(header) ‖ bodyMR) and full hash = sha256(header ‖ body); headerHash = sha256(header). */
export function entryBlockHashes(_block: EntryBlock): { keyMR: Uint8Array; fullHash: Uint8Array; headerHash: Uint8Array } {
  throw new Error("not implemented");
}
