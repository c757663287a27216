import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
const here = dirname(fileURLToPath(import.meta.url));
/** test/fixtures/vectors, resolved from dist/test/support at run time. */
export const VECTOR_DIR = join(here, "..", "..", "..", "test", "fixtures", "vectors");
/** Every vector of every file, keyed by file name (without .json). */
export function loadVectorFiles() {
    const files = new Map();
    for (const name of readdirSync(VECTOR_DIR)
        .filter((f) => f.endsWith(".json"))
        .sort()) {
        const json = JSON.parse(readFileSync(join(VECTOR_DIR, name), "utf8"));
        files.set(name.replace(/\.json$/, ""), json.vectors);
    }
    return files;
}
/** Asserts the check verifies exactly the vector's `expected` keys, so a vector that gains a field fails until checked. */
export function covers(v, keys) {
    assert.deepEqual(Object.keys(v.expected).sort(), [...keys].sort(), `${v.id}: expected keys this check verifies`);
}
/** A string field (asserted). */
export function str(obj, key) {
    const value = obj[key];
    assert.equal(typeof value, "string", `${key} must be a string`);
    return value;
}
/** A hex field decoded to bytes. */
export function hexOf(obj, key) {
    return fromHex(str(obj, key), key);
}
/** Bytes equal to an expected hex string (either case). */
export function eqHex(actual, expected, what) {
    assert.equal(toHex(actual), String(expected).toLowerCase(), what);
}
//# sourceMappingURL=vectors.js.map