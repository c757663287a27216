/**
 * Edges of protocol/merkle.ts that the mutation run of 054f450 left open (docs/testing.md): the tree store
 * of no leaves, the range check of merkleBranch (an index past the leaves would walk into the store's upper
 * levels and hand out a branch of the wrong nodes), and that a branch node whose top is not sha256(left ‖
 * right) is refused even when the top is the claimed root.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ZERO_HASH } from "../../../src/protocol/bytes.js";
import { sha256 } from "../../../src/protocol/hash.js";
import {
  merkleBranch,
  merkleParent,
  merkleRoot,
  merkleTreeStore,
  verifyMerkleBranch,
} from "../../../src/protocol/merkle.js";

const leaf = (i: number): Uint8Array => sha256(Uint8Array.of(i));

describe("merkle edges", () => {
  test("the tree store of no leaves is the zero hash alone, like its root", () => {
    const store = merkleTreeStore([]);
    assert.equal(store.length, 1);
    assert.deepEqual(store[0], ZERO_HASH);
    assert.deepEqual(merkleRoot([]), ZERO_HASH);
  });

  test("merkleBranch refuses an index outside the leaves, naming the range", () => {
    const leaves = [leaf(0), leaf(1), leaf(2)];
    assert.throws(() => merkleBranch(leaves, 3), { name: "InvariantError", message: "leaf index 3 outside 0..2" });
    assert.throws(() => merkleBranch(leaves, -1), { name: "InvariantError", message: "leaf index -1 outside 0..2" });
    assert.throws(() => merkleBranch([leaf(0)], 1), { name: "InvariantError", message: "leaf index 1 outside 0..0" });
    assert.throws(() => merkleBranch([], 0), { name: "InvariantError", message: "leaf index 0 outside 0..-1" });
    assert.equal(merkleBranch(leaves, 2).length, 2);
  });

  test("a node whose top is not sha256(left ‖ right) fails, even when the top is the root", () => {
    const [a, b] = [leaf(0), leaf(1)];
    const forged = leaf(9);
    assert.equal(verifyMerkleBranch(a, [{ left: a, right: b, top: forged }], forged), false);
    // the honest node for the same pair passes
    const top = merkleParent(a, b);
    assert.equal(verifyMerkleBranch(a, [{ left: a, right: b, top }], top), true);
    // and in a longer branch, a forged middle top with the next node built on it fails too
    const leaves = [a, b, leaf(2), leaf(3)];
    const branch = merkleBranch(leaves, 0);
    const root = merkleRoot(leaves);
    assert.equal(verifyMerkleBranch(a, branch, root), true);
    const next = branch[1]!;
    const tampered = [
      { ...branch[0]!, top: forged },
      { left: forged, right: next.right, top: merkleParent(forged, next.right) },
    ];
    assert.equal(verifyMerkleBranch(a, tampered, tampered[1]!.top), false);
  });
});
