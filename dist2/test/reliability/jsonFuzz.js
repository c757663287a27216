import { DEBUG_METHODS, PARAM_NAMES, V2_METHODS } from "../support/specMethods.js";
/** A literal written into the body as is (numbers JSON.stringify cannot produce, duplicate keys, …). */
export class Raw {
    text;
    constructor(text) {
        this.text = text;
    }
}
export { DEBUG_METHODS, V2_METHODS };
/** Methods whose success changes node settings: fuzzed only with params that must be refused. */
export const SETTING_METHODS = new Set(["set-drop-rate", "set-delay"]);
/** Write methods: a success is a real submission, recorded and accounted for by the caller. */
export const WRITE_METHODS = new Set([
    "commit-chain",
    "commit-entry",
    "reveal-chain",
    "reveal-entry",
    "asset-submit",
    "send-raw-message",
]);
const ODD_NUMBERS = [
    "1e400",
    "-1e400",
    "-0",
    "1.0",
    "5e0",
    "18446744073709551616",
    "9007199254740993",
    "0.1e-400",
    "-9223372036854775809",
    "4294967296",
    "4294967295",
    "1E2",
];
const ODD_STRINGS = [
    "",
    " ",
    "\u0000",
    "😀",
    "\u202e",
    "null",
    "0x10",
    "-1",
    "f",
    "c",
    "a",
    "FA",
    "EC",
    "../../etc/passwd",
    "%00",
    "<script>",
    "\\u0000",
];
/** Strings only escapes can write: lone surrogates, escaped NULs (JSON text, quotes included). */
const ODD_ESCAPED = ['"\\ud800"', '"\\udfff\\ud800"', '"\\u0000\\u0000"', '"a\\/b"', '"\\uD83D\\uDE00"'];
function jsonString(s) {
    return JSON.stringify(s);
}
/** Serialise; `[string, Value][]` pairs become an object that may repeat keys. */
export function writeJson(v) {
    if (v instanceof Raw)
        return v.text;
    if (v === null || typeof v === "boolean" || typeof v === "number")
        return JSON.stringify(v);
    if (typeof v === "string")
        return jsonString(v);
    if (Array.isArray(v)) {
        if (v.pairs === true)
            return `{${v.map(([k, x]) => `${JSON.stringify(k)}:${writeJson(x)}`).join(",")}}`;
        return `[${v.map((x) => writeJson(x)).join(",")}]`;
    }
    return `{${Object.entries(v)
        .map(([k, x]) => `${jsonString(k)}:${writeJson(x)}`)
        .join(",")}}`;
}
/** An object literal with possibly repeated keys. */
function pairs(list) {
    const out = list;
    out.pairs = true;
    return out;
}
function hexString(rng, bytes) {
    return Buffer.from(rng.bytes(bytes)).toString("hex");
}
/** A random value of any JSON type, up to `depth` levels. */
function anyValue(rng, m, depth) {
    switch (rng.int(0, 13)) {
        case 0:
            return null;
        case 1:
            return rng.chance(0.5);
        case 2:
            return rng.pick([0, -1, 1, 2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 53), 1.5, 1e21, 123456789]);
        case 3:
            return new Raw(rng.pick(ODD_NUMBERS));
        case 4:
            return rng.chance(0.7) ? rng.pick(ODD_STRINGS) : new Raw(rng.pick(ODD_ESCAPED));
        case 5:
            return hexString(rng, rng.pick([0, 1, 31, 32, 33, 64, 136, 200]));
        case 6:
            return hexString(rng, 32).slice(0, rng.int(0, 64)) + rng.pick(["", "g", "Z", " ", "0"]);
        case 7:
            return rng.pick(m.addresses);
        case 8:
            return rng.pick(m.hashes);
        case 9:
            return "x".repeat(rng.pick([1000, 100_000]));
        case 10:
            return depth <= 0 ? [] : Array.from({ length: rng.int(0, 4) }, () => anyValue(rng, m, depth - 1));
        case 11:
            return depth <= 0 ? {} : randomParams(rng, m, depth - 1);
        case 12:
            return mutatedHex(rng, m);
        default:
            return String.fromCodePoint(...Array.from({ length: rng.int(1, 20) }, () => rng.pick([rng.int(0x20, 0x7e), rng.int(0xa0, 0xd7ff), rng.int(0xe000, 0x10ffff)])));
    }
}
/** Hex of a valid signed message with 1–3 byte mutations (or the exact bytes, rarely). */
function mutatedHex(rng, m) {
    const pick = rng.pick(m.hexMessages);
    const bytes = Uint8Array.from(Buffer.from(pick.hex, "hex"));
    const mutated = rng.mutate(bytes);
    return Buffer.from(mutated).toString("hex");
}
/** A params object: real member names (any letter case) with random values, sometimes extra members. */
function randomParams(rng, m, depth) {
    const n = rng.int(0, 3);
    const list = [];
    for (let i = 0; i < n; i++) {
        let name = rng.chance(0.85)
            ? rng.pick(PARAM_NAMES)
            : rng.pick(["", "x", "__proto__", "constructor", "toString", "hasOwnProperty", "ÄDDRESS"]);
        if (rng.chance(0.1))
            name = name.toUpperCase();
        list.push([name, anyValue(rng, m, depth)]);
    }
    return rng.chance(0.1) && list.length > 0
        ? pairs([...list, [list[0][0], anyValue(rng, m, depth)]])
        : Object.fromEntries(list);
}
/** Params fitting the method (right names, mostly wrong or mutated values). */
function paramsFor(rng, m, method) {
    if (SETTING_METHODS.has(method)) {
        // only values that must be refused: wrong types, fractions, out of range; never a valid integer
        const name = method === "set-drop-rate" ? "DropRate" : "Delay";
        return {
            [name]: rng.pick([
                "5",
                "",
                null,
                [],
                {},
                true,
                1.5,
                -1,
                1e9,
                new Raw("1e400"),
                new Raw("-0.5"),
                "x".repeat(100),
            ]),
        };
    }
    const msg = m.hexMessages.filter((x) => x.method === method);
    if (msg.length > 0 && rng.chance(0.6)) {
        const pick = rng.pick(msg);
        const bytes = Uint8Array.from(Buffer.from(pick.hex, "hex"));
        let mutated = rng.mutate(bytes);
        // the unmutated message would be a valid submission; keep the fuzz to changed bytes
        if (Buffer.from(mutated).equals(Buffer.from(bytes)))
            mutated = Uint8Array.of(...bytes, 0);
        return { [pick.param]: Buffer.from(mutated).toString(rng.chance(0.9) ? "hex" : "base64") };
    }
    return rng.chance(0.8) ? randomParams(rng, m, 3) : anyValue(rng, m, 3);
}
/** One request object (as a Value), sometimes with a broken envelope. */
function requestObject(rng, m, method) {
    const id = rng.chance(0.8) ? rng.int(0, 1_000_000) : anyValue(rng, m, 2);
    const params = paramsFor(rng, m, method);
    switch (rng.int(0, 11)) {
        case 0:
            return { id, method, params }; // no jsonrpc
        case 1:
            return { jsonrpc: rng.pick(["1.0", 2, "2", null, "2.0 "]), id, method, params };
        case 2:
            return { jsonrpc: "2.0", id, method: anyValue(rng, m, 1), params };
        case 3:
            return { JSONRPC: "2.0", Id: id, METHOD: method, Params: params };
        case 4:
            return pairs([
                ["jsonrpc", "2.0"],
                ["id", id],
                ["method", "heights"],
                ["method", method],
                ["params", params],
            ]);
        case 5:
            return { jsonrpc: "2.0", method, params }; // no id
        default:
            return { jsonrpc: "2.0", id, method, params };
    }
}
function randomMethod(rng, endpoint) {
    const own = endpoint === "v2" ? V2_METHODS : DEBUG_METHODS;
    const other = endpoint === "v2" ? DEBUG_METHODS : V2_METHODS;
    const r = rng.float();
    if (r < 0.75)
        return rng.pick(own);
    if (r < 0.82)
        return rng.pick(other);
    if (r < 0.88)
        return rng.pick(own).toUpperCase();
    if (r < 0.92)
        return ` ${rng.pick(own)}`;
    return rng.pick([
        "",
        "x",
        "factoid-balance",
        "__proto__",
        "constructor",
        "compose-chain",
        "é",
        "\u0000",
        "a".repeat(10_000),
    ]);
}
/** A random case. */
export function fuzzCase(rng, m) {
    const endpoint = rng.chance(0.8) ? "v2" : "debug";
    const httpMethod = rng.chance(0.92) ? "POST" : rng.pick(["GET", "PUT", "DELETE", "PATCH"]);
    const r = rng.float();
    if (r < 0.7) {
        const method = randomMethod(rng, endpoint);
        return {
            endpoint,
            httpMethod,
            body: writeJson(requestObject(rng, m, method)),
            kind: "single",
            batchSize: 1,
            methods: [method],
        };
    }
    if (r < 0.8) {
        const n = rng.pick([0, 1, 2, 5, 20, 99, 100, 101, 150]);
        const methods = Array.from({ length: n }, () => randomMethod(rng, endpoint));
        const items = methods.map((method) => (rng.chance(0.9) ? requestObject(rng, m, method) : anyValue(rng, m, 1)));
        return { endpoint, httpMethod, body: writeJson(items), kind: "batch", batchSize: n, methods };
    }
    // broken or odd bodies
    const valid = writeJson(requestObject(rng, m, randomMethod(rng, endpoint)));
    const broken = rng.pick([
        () => valid.slice(0, rng.int(0, valid.length - 1)),
        () => valid + rng.pick(["x", "}", "{}", ",", "\u0000"]),
        () => `\ufeff${valid}`,
        () => Buffer.from(rng.bytes(rng.int(1, 200))).toString("latin1"),
        () => rng.pick(["", " ", "null", "true", "1", '"str"', "[]", "{}", "[[]]", "[null]", '{"jsonrpc":"2.0"}']),
        () => "[".repeat(rng.int(60, 5000)) + "]".repeat(rng.int(0, 5000)),
        () => '{"a":'.repeat(rng.int(60, 3000)) + "1" + "}".repeat(rng.int(0, 3000)),
        () => valid.replace(/"/g, "'"),
    ])();
    return { endpoint, httpMethod, body: broken, kind: "broken", batchSize: 0, methods: [] };
}
//# sourceMappingURL=jsonFuzz.js.map