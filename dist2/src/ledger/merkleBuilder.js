/**
 * A Merkle root built while leaves arrive, so a block close only finishes O(log n) nodes instead of
 * hashing a whole body (entry blocks with thousands of entries). Same tree as protocol merkleRoot
 * (factomd BuildMerkleTreeStore, wire-format §0.7): pairs left to right, an odd node at the end of a
 * level pairs with itself, one leaf is its own root, no leaves give the zero hash.
 */
import { ZERO_HASH } from "../protocol/bytes.js";
import { merkleParent } from "../protocol/merkle.js";
export class IncrementalMerkle {
    /** pending[i]: the left node at level i still waiting for its right sibling */
    pending = [];
    count = 0;
    /** Number of leaves added. */
    get size() {
        return this.count;
    }
    /** Append a leaf (32 bytes); hashes every pair it completes. */
    add(leaf) {
        this.count++;
        let node = leaf;
        for (let level = 0;; level++) {
            const left = this.pending[level];
            if (left === undefined) {
                this.pending[level] = node;
                return;
            }
            this.pending[level] = undefined;
            node = merkleParent(left, node);
        }
    }
    /** The root of the leaves so far (does not change the state). */
    root() {
        if (this.count === 0)
            return ZERO_HASH;
        let carry; // rightmost node of the current level produced by finishing the level below
        for (let level = 0, width = this.count;; level++, width = Math.ceil(width / 2)) {
            const left = this.pending[level];
            if (width === 1)
                return (left ?? carry);
            if (left !== undefined && carry !== undefined)
                carry = merkleParent(left, carry);
            else if (left !== undefined || carry !== undefined) {
                const odd = (left ?? carry);
                carry = merkleParent(odd, odd);
            }
        }
    }
}
//# sourceMappingURL=merkleBuilder.js.map