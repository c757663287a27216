import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseJson, stringifyJson } from "../../../src/client/json.js";
describe("lossless JSON", () => {
    test("integers beyond 2^53 become exact bigints, everything else matches JSON.parse", () => {
        const text = '{"a":9007199254740993,"b":-12345678901234567890,"c":9007199254740991,"d":1.5e3,"e":"1234567890123456789","f":[1,true,null,{"g":"x\\"y\\\\"}],"h":1.25}';
        const v = parseJson(text);
        assert.equal(v.a, 9007199254740993n);
        assert.equal(v.b, -12345678901234567890n);
        assert.equal(v.c, 9007199254740991, "MAX_SAFE_INTEGER stays a number");
        assert.equal(v.d, 1500);
        assert.equal(v.e, "1234567890123456789", "digits inside strings stay strings");
        assert.deepEqual(v.f, [1, true, null, { g: 'x"y\\' }]);
        assert.equal(v.h, 1.25);
    });
    test("fast path (no long digit runs) equals JSON.parse", () => {
        const text = '{"jsonrpc":"2.0","id":1,"result":{"balance":2000000000000,"x":[],"y":{}}}';
        assert.deepEqual(parseJson(text), JSON.parse(text));
    });
    test("rejects invalid JSON with a SyntaxError naming the offset", () => {
        for (const bad of [
            '{"a":12345678901234567890',
            '{"a":12345678901234567890}x',
            "[12345678901234567890,]",
            '{"a" 12345678901234567890}',
        ]) {
            assert.throws(() => parseJson(bad), SyntaxError, bad);
        }
    });
    test("__proto__ members are data, not prototypes", () => {
        const v = parseJson('{"__proto__":{"polluted":1},"n":12345678901234567890}');
        assert.equal(Object.getPrototypeOf(v), Object.prototype);
        assert.deepEqual(Object.keys(v), ["__proto__", "n"]);
    });
    test("stringifyJson writes bigints as digits and round-trips", () => {
        const value = { a: 12345678901234567890n, b: "\u0000bigint0\u0000", c: [1n, 2] };
        const text = stringifyJson(value);
        assert.equal(text, '{"a":12345678901234567890,"b":"\\u0000bigint0\\u0000","c":[1,2]}');
        assert.deepEqual(parseJson(text), { a: 12345678901234567890n, b: "\u0000bigint0\u0000", c: [1, 2] });
    });
});
//# sourceMappingURL=json.test.js.map