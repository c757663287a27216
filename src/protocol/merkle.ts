import { InvariantError } from "../errors.js";
import { bytesEqual, ZERO_HASH } from "./bytes.js";
import { sha256 } from "./hash.js";

/** One node of a full-detail Merkle branch (receipt JSON shape). */
export interface MerkleNode {
  left: Uint8Array;
  right: Uint8Array;
  top: Uint8Array;
}

/** Parent of two nodes: sha256(left ‖ right) with no prefix (wire-format §0.7). */
export function merkleParent(left: Uint8Array, right: Uint8Array): Uint8Array {
  const buf = new Uint8Array(64);
  buf.set(left, 0);
  buf.set(right, 32);
  return sha256(buf);
}

/**
 * Flat Merkle tree store `[leaves…, level1…, …, root]` (factomd BuildMerkleTreeStore):
 * an odd level pairs its last node with itself.
 */
export function merkleTreeStore(leaves: readonly Uint8Array[]): Uint8Array[] {
  if (leaves.length === 0) return [ZERO_HASH];
  const store: Uint8Array[] = [...leaves];
  let levelStart = 0;
  let width = leaves.length;
  while (width > 1) {
    for (let i = 0; i < width; i += 2) {
      const left = store[levelStart + i]!;
      const right = i + 1 < width ? store[levelStart + i + 1]! : left;
      store.push(merkleParent(left, right));
    }
    levelStart += width;
    width = (width + 1) >> 1;
  }
  return store;
}

/** Merkle root: empty → zero hash, one leaf → that leaf, else the tree root. */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return ZERO_HASH;
  if (leaves.length === 1) return leaves[0]!;
  let level: Uint8Array[] = leaves as Uint8Array[];
  while (level.length > 1) {
    const next: Uint8Array[] = new Array((level.length + 1) >> 1);
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i]!;
      next[i >> 1] = merkleParent(left, i + 1 < level.length ? level[i + 1]! : left);
    }
    level = next;
  }
  return level[0]!;
}

/**
 * Full-detail Merkle branch from leaf `index` to the root (factomd BuildMerkleBranch):
 * each node has left, right and top. Empty when there is a single leaf.
 */
export function merkleBranch(leaves: readonly Uint8Array[], index: number): MerkleNode[] {
  if (index < 0 || index >= leaves.length)
    throw new InvariantError(`leaf index ${index} outside 0..${leaves.length - 1}`);
  const store = merkleTreeStore(leaves);
  const branch: MerkleNode[] = [];
  let levelStart = 0;
  let width = leaves.length;
  let i = index;
  while (width > 1) {
    const isLeft = i % 2 === 0;
    const sibling = isLeft ? (i + 1 === width ? i : i + 1) : i - 1;
    const self = store[levelStart + i]!;
    const other = store[levelStart + sibling]!;
    const left = isLeft ? self : other;
    const right = isLeft ? other : self;
    const nextStart = levelStart + width;
    const parentIndex = i >> 1;
    branch.push({ left, right, top: store[nextStart + parentIndex]! });
    levelStart = nextStart;
    width = (width + 1) >> 1;
    i = parentIndex;
  }
  return branch;
}

/** True when `branch` leads from `leaf` to `root`, each top = sha256(left ‖ right). */
export function verifyMerkleBranch(leaf: Uint8Array, branch: readonly MerkleNode[], root: Uint8Array): boolean {
  let current = leaf;
  for (const node of branch) {
    if (!bytesEqual(current, node.left) && !bytesEqual(current, node.right)) return false;
    if (!bytesEqual(merkleParent(node.left, node.right), node.top)) return false;
    current = node.top;
  }
  return bytesEqual(current, root);
}
