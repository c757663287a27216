import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { loadVectorFiles } from "../../support/vectors.js";
import { vectorChecksA } from "./vectorChecksA.js";
/**
 * The checks of share A must be able to fail: for every vector and every `expected` value, a corrupted copy of
 * that one value must make the check throw. (vectors.test.ts runs them on the real values.)
 */
const SHARE_A_FILES = ["entries", "addresses", "commits"];
const SHARE_A_BLOCK_PREFIXES = ["merkle-", "receipt-", "eblock-", "ecblock-"];
function corrupt(value) {
    if (typeof value === "boolean")
        return !value;
    if (typeof value === "number")
        return value + 1;
    if (typeof value === "string") {
        if (/^[0-9a-fA-F]+$/.test(value)) {
            const last = value.at(-1).toLowerCase();
            return value.slice(0, -1) + (last === "0" ? "1" : "0");
        }
        return `${value}!`;
    }
    return { corrupted: true };
}
function shareA() {
    const out = [];
    for (const [file, vectors] of loadVectorFiles()) {
        for (const v of vectors) {
            if (SHARE_A_FILES.includes(file) || (file === "blocks" && SHARE_A_BLOCK_PREFIXES.some((p) => v.id.startsWith(p))))
                out.push(v);
        }
    }
    return out;
}
describe("vector checks of share A", () => {
    const vectors = shareA();
    test("there is exactly one check per share-A vector", () => {
        assert.deepEqual(Object.keys(vectorChecksA).sort(), vectors.map((v) => v.id).sort());
    });
    for (const v of vectors) {
        test(`${v.id}: passes as given, fails with any expected value corrupted`, () => {
            vectorChecksA[v.id](v);
            for (const key of Object.keys(v.expected)) {
                const bad = { ...v, expected: { ...v.expected, [key]: corrupt(v.expected[key]) } };
                assert.throws(() => vectorChecksA[v.id](bad), `corrupting expected.${key} must fail the check`);
            }
        });
    }
});
//# sourceMappingURL=vectorChecksA.test.js.map