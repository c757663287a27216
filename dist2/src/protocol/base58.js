import { ProtocolError } from "./errors.js";
/** Bitcoin base58 alphabet, used by human-readable addresses (wire-format §3.1). */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const INDEX = new Map([...ALPHABET].map((c, i) => [c, i]));
/** Base58 encoding of `bytes` (leading zero bytes become '1'). */
export function base58Encode(bytes) {
    let n = 0n;
    for (const b of bytes)
        n = (n << 8n) | BigInt(b);
    let out = "";
    while (n > 0n) {
        out = ALPHABET[Number(n % 58n)] + out;
        n /= 58n;
    }
    for (const b of bytes) {
        if (b !== 0)
            break;
        out = "1" + out;
    }
    return out;
}
/** Base58 decoding; throws BAD_VALUE naming `field` on a character outside the alphabet. */
export function base58Decode(text, field) {
    let n = 0n;
    for (const c of text) {
        const v = INDEX.get(c);
        if (v === undefined)
            throw new ProtocolError("BAD_VALUE", field, `'${c}' is not a base58 character`);
        n = n * 58n + BigInt(v);
    }
    const body = [];
    while (n > 0n) {
        body.push(Number(n & 0xffn));
        n >>= 8n;
    }
    let zeros = 0;
    for (const c of text) {
        if (c !== "1")
            break;
        zeros++;
    }
    return Uint8Array.from([...new Array(zeros).fill(0), ...body.reverse()]);
}
//# sourceMappingURL=base58.js.map