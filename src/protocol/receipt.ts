// CONTRACT STUB — signatures are fixed (other modules code against them); bodies to be written.
// Wire-format §5.6.
import type { DirectoryBlock } from "./dblock.js";
import type { EntryBlock } from "./eblock.js";
import type { MerkleNode } from "./merkle.js";

export interface Receipt {
  entryHash: Uint8Array;
  merkleBranch: MerkleNode[];
  entryBlockKeyMR: Uint8Array;
  directoryBlockKeyMR: Uint8Array;
  directoryBlockHeight: number;
}

/** Receipt of `entryHash` in `eblock` recorded in `dblock`; throws ProtocolError BAD_VALUE if not contained. */
export function buildReceipt(_entryHash: Uint8Array, _eblock: EntryBlock, _dblock: DirectoryBlock): Receipt {
  throw new Error("not implemented");
}
/** True when the branch leads from the entry hash through the entry block keymr to the directory block keymr. */
export function verifyReceipt(_receipt: Receipt): boolean {
  throw new Error("not implemented");
}
