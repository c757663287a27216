import assert from "node:assert/strict";
import { test } from "node:test";
import { IncrementalMerkle } from "../../../src/ledger/merkleBuilder.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { sha256 } from "../../../src/protocol/hash.js";
import { merkleRoot } from "../../../src/protocol/merkle.js";
test("incremental Merkle root equals the protocol's merkleRoot for 0..300 leaves, at every size", () => {
    const m = new IncrementalMerkle();
    const leaves = [];
    assert.equal(toHex(m.root()), toHex(merkleRoot(leaves)));
    for (let i = 0; i < 300; i++) {
        const leaf = sha256(Uint8Array.of(i & 0xff, i >> 8));
        leaves.push(leaf);
        m.add(leaf);
        assert.equal(toHex(m.root()), toHex(merkleRoot(leaves)), `${leaves.length} leaves`);
    }
    assert.equal(m.size, 300);
});
//# sourceMappingURL=merkleBuilder.test.js.map