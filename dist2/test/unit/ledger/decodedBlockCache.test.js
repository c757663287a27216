/** The bounded LRU of decoded saved blocks: hits skip the decode, and both bounds evict the least recently used. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DecodedBlockCache } from "../../../src/ledger/decodedBlockCache.js";
function counting() {
    const calls = [];
    const decode = (raw) => {
        calls.push(raw.length);
        return { len: raw.length };
    };
    return { calls, decode };
}
test("a hit returns the same decoded block without decoding again", () => {
    const c = new DecodedBlockCache({ maxBlocks: 4, maxRawBytes: 1000 });
    const d = counting();
    const a = c.get("a", new Uint8Array(10), d.decode);
    assert.equal(c.get("a", new Uint8Array(10), d.decode), a);
    assert.equal(d.calls.length, 1);
});
test("the block count bound evicts the least recently used", () => {
    const c = new DecodedBlockCache({ maxBlocks: 2, maxRawBytes: 1000 });
    const d = counting();
    c.get("a", new Uint8Array(1), d.decode);
    c.get("b", new Uint8Array(1), d.decode);
    c.get("a", new Uint8Array(1), d.decode); // a is now the most recent
    c.get("c", new Uint8Array(1), d.decode); // evicts b
    assert.equal(d.calls.length, 3);
    c.get("a", new Uint8Array(1), d.decode);
    assert.equal(d.calls.length, 3);
    c.get("b", new Uint8Array(1), d.decode);
    assert.equal(d.calls.length, 4);
});
test("the raw byte bound evicts, and a block larger than the bound is never kept", () => {
    const c = new DecodedBlockCache({ maxBlocks: 10, maxRawBytes: 100 });
    const d = counting();
    c.get("a", new Uint8Array(60), d.decode);
    c.get("b", new Uint8Array(60), d.decode); // 120 > 100: evicts a
    c.get("b", new Uint8Array(60), d.decode);
    assert.equal(d.calls.length, 2);
    c.get("a", new Uint8Array(60), d.decode);
    assert.equal(d.calls.length, 3);
    c.get("big", new Uint8Array(101), d.decode);
    c.get("big", new Uint8Array(101), d.decode);
    assert.equal(d.calls.length, 5);
});
//# sourceMappingURL=decodedBlockCache.test.js.map