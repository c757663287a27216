import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { loadVectorFiles } from "../../support/vectors.js";
import { vectorChecksA } from "./vectorChecksA.js";
import { vectorChecksB } from "./vectorChecksB.js";
/**
 * Runs EVERY vector of test/fixtures/vectors through the protocol code. Each vector id must have a
 * check in vectorChecksA (entries, addresses, commits, eblock, ecblock, merkle, receipts) or
 * vectorChecksB (transactions, dblock, ablock, fblock, genesis); a vector without a check fails.
 */
const checks = { ...vectorChecksA, ...vectorChecksB };
let ran = 0;
let total = 0;
for (const [file, vectors] of loadVectorFiles()) {
    describe(`vectors/${file}.json`, () => {
        for (const vector of vectors) {
            total++;
            test(vector.id, () => {
                const check = checks[vector.id];
                assert.ok(check, `no check registered for vector ${vector.id}`);
                check(vector);
                ran++;
            });
        }
    });
}
after(() => {
    console.log(`protocol vectors: ${ran} of ${total} ran and passed`);
});
//# sourceMappingURL=vectors.test.js.map