import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, test } from "node:test";
import { InvariantError } from "../../../src/errors.js";
import { toHex, ZERO_HASH } from "../../../src/protocol/bytes.js";
import {
  merkleBranch,
  merkleParent,
  merkleRoot,
  merkleTreeStore,
  verifyMerkleBranch,
} from "../../../src/protocol/merkle.js";
import { Random } from "../../support/random.js";

/** Independent reference: node:crypto SHA-256, recursive pairing, odd node paired with itself. */
function referenceRoot(leaves: Uint8Array[]): string {
  if (leaves.length === 0) return "00".repeat(32);
  let level: Buffer[] = leaves.map((l) => Buffer.from(l));
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const right = level[i + 1] ?? level[i]!;
      next.push(createHash("sha256").update(level[i]!).update(right).digest());
    }
    level = next;
  }
  return level[0]!.toString("hex");
}

describe("Merkle tree (wire-format §0.7)", () => {
  const rng = new Random(0x3e41);

  test("zero leaves → zero hash; one leaf → the leaf", () => {
    assert.deepEqual(merkleRoot([]), ZERO_HASH);
    const leaf = rng.bytes(32);
    assert.deepEqual(merkleRoot([leaf]), leaf);
    assert.deepEqual(merkleBranch([leaf], 0), []);
    assert.ok(verifyMerkleBranch(leaf, [], leaf));
  });

  test("odd levels pair the last node with itself", () => {
    const [a, b, c] = [rng.bytes(32), rng.bytes(32), rng.bytes(32)];
    assert.deepEqual(merkleRoot([a, b, c]), merkleParent(merkleParent(a, b), merkleParent(c, c)));
  });

  test("roots equal an independent implementation for 1..70 leaves", () => {
    for (let n = 1; n <= 70; n++) {
      const leaves = Array.from({ length: n }, () => rng.bytes(32));
      assert.equal(toHex(merkleRoot(leaves)), referenceRoot(leaves), `n=${n} seed ${rng.seed}`);
      const store = merkleTreeStore(leaves);
      assert.equal(toHex(store.at(-1)!), referenceRoot(leaves), `tree store root n=${n}`);
    }
  });

  test("tree store layout: 9 leaves → indices 0–8, 9–13, 14–16, 17–18, root 19", () => {
    const leaves = Array.from({ length: 9 }, () => rng.bytes(32));
    const store = merkleTreeStore(leaves);
    assert.equal(store.length, 20);
    assert.deepEqual(store[9], merkleParent(leaves[0]!, leaves[1]!));
    assert.deepEqual(store[13], merkleParent(leaves[8]!, leaves[8]!));
    assert.deepEqual(store[16], merkleParent(store[13]!, store[13]!));
    assert.deepEqual(store[19], merkleParent(store[17]!, store[18]!));
  });

  test("a branch from every leaf verifies; its nodes hold left, right, top; any change breaks it", () => {
    for (let n = 2; n <= 33; n++) {
      const leaves = Array.from({ length: n }, () => rng.bytes(32));
      const root = merkleRoot(leaves);
      for (let i = 0; i < n; i++) {
        const branch = merkleBranch(leaves, i);
        assert.equal(branch.length, Math.ceil(Math.log2(n)), `n=${n} i=${i}`);
        assert.ok(verifyMerkleBranch(leaves[i]!, branch, root), `n=${n} i=${i}`);
        assert.deepEqual(i % 2 === 0 ? branch[0]!.left : branch[0]!.right, leaves[i]);
        for (const node of branch) assert.deepEqual(node.top, merkleParent(node.left, node.right));
        assert.deepEqual(branch.at(-1)!.top, root);
        assert.equal(verifyMerkleBranch(rng.bytes(32), branch, root), false, "a hash that is not in the tree");
        const k = rng.int(0, branch.length - 1);
        const broken = branch.map((node) => ({ ...node }));
        broken[k] = { ...broken[k]!, top: rng.bytes(32) };
        assert.equal(verifyMerkleBranch(leaves[i]!, broken, root), false);
      }
    }
  });

  test("a leaf index outside the tree is refused", () => {
    assert.throws(() => merkleBranch([rng.bytes(32)], 1), InvariantError);
    assert.throws(() => merkleBranch([], 0), InvariantError);
  });
});
