/**
 * A decoded object owns its bytes: overwriting the input buffer after decoding changes nothing in it. A
 * decoder that handed out views (subarray) instead of copies would let a caller that reuses its receive
 * buffer, or a block cache holding raw bytes, silently rewrite hashes and keys held elsewhere.
 * Checked for every decoder of test/reliability/decoderTable.ts: decode a copy of each valid input, zero
 * the copy, then re-encode the decoded object (the table's own check) against the untouched original.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { buildCorpus } from "../../reliability/corpus.js";
import { decoderTable } from "../../reliability/decoderTable.js";
describe("decoded objects do not alias their input", () => {
    for (const d of decoderTable(buildCorpus()))
        if (d.onAccept !== undefined && d.ownSeeds.length > 0)
            test(d.name, () => {
                for (const seed of d.ownSeeds) {
                    const buffer = seed.slice();
                    const value = d.decode(buffer);
                    buffer.fill(0x5a);
                    assert.doesNotThrow(() => d.onAccept(value, seed), `${d.name}: the decoded object changed`);
                }
            });
});
//# sourceMappingURL=decodedCopies.test.js.map