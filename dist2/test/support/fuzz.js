import assert from "node:assert/strict";
import { ProtocolError } from "../../src/protocol/errors.js";
/** Runs `fn` and asserts it throws a ProtocolError (with `code`, when given); returns the error. */
export function expectProtocolError(fn, code, what = "") {
    try {
        fn();
    }
    catch (e) {
        assert.ok(e instanceof ProtocolError, `${what}: expected a ProtocolError, got ${String(e)}`);
        if (code !== undefined)
            assert.equal(e.code, code, `${what}: ${e.message}`);
        return e;
    }
    assert.fail(`${what}: expected a ProtocolError${code ? ` ${code}` : ""}, nothing was thrown`);
}
/**
 * Feeds a decoder `cases` inputs: random bytes (lengths up to `maxRandomLength`) and mutations of `seeds`.
 * Every input must either decode — then `onAccept` may check the result (e.g. that it re-encodes to the same
 * bytes) — or throw a ProtocolError; any other exception fails. Returns how many inputs were accepted.
 */
export function fuzzDecoder(rng, decode, options) {
    const cases = options.cases ?? 2000;
    let accepted = 0;
    for (let i = 0; i < cases; i++) {
        const input = options.seeds.length > 0 && i % 4 !== 0
            ? rng.mutate(rng.pick(options.seeds))
            : rng.bytes(rng.int(0, options.maxRandomLength ?? 300));
        let value;
        try {
            value = decode(input);
        }
        catch (e) {
            if (!(e instanceof ProtocolError))
                assert.fail(`seed ${rng.seed} case ${i}: untyped ${String(e)} on input ${Buffer.from(input).toString("hex")}`);
            continue;
        }
        accepted++;
        options.onAccept?.(value, input);
    }
    return accepted;
}
//# sourceMappingURL=fuzz.js.map