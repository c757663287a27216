/**
 * Piscina task (runs in a worker thread): the root of one aligned subtree of a Merkle tree.
 * Loaded by its compiled path, `new URL("./merkleTask.js", import.meta.url)`.
 */

import { InvariantError } from "../errors.js";
import { sha256 } from "../protocol/hash.js";

/** A subtree: its leaves packed 32 bytes each (moved, not copied), and how many levels to hash. */
export interface SubtreeTask {
  leaves: Uint8Array;
  height: number;
}

/**
 * Hash `height` levels of `leaves` with the rule of protocol/merkle.ts: parent = sha256(left ‖ right),
 * an odd level pairs its last node with itself — also when that node is alone, because in the whole
 * tree it is the last node of a wider level. `leaves.length / 32` must be ≤ 2^height.
 * @returns the 32-byte node at `height` above the leaves
 */
export function subtreeRoot(task: SubtreeTask): Uint8Array {
  const { leaves, height } = task;
  if (leaves.length === 0 || leaves.length % 32 !== 0)
    throw new InvariantError(`leaves: ${leaves.length} bytes is not a positive multiple of 32`);
  let width = leaves.length / 32;
  if (width > 2 ** height) throw new InvariantError(`${width} leaves do not fit under a subtree of height ${height}`);
  // In place: parent i (bytes 32i..) is written after its children (64i..) were read, and never over a later child.
  const pair = new Uint8Array(64);
  for (let level = 0; level < height; level++) {
    const pairs = width >> 1;
    for (let i = 0; i < pairs; i++) leaves.set(sha256(leaves.subarray(64 * i, 64 * i + 64)), 32 * i);
    if (width % 2 === 1) {
      const last = leaves.subarray(32 * (width - 1), 32 * width);
      pair.set(last, 0);
      pair.set(last, 32);
      leaves.set(sha256(pair), 32 * pairs);
    }
    width = (width + 1) >> 1;
  }
  return leaves.slice(0, 32);
}

export default subtreeRoot;
