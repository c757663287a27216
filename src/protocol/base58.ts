import { ProtocolError } from "./errors.js";

/** Bitcoin base58 alphabet, used by human-readable addresses (wire-format §3.1). */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Base58 encoding of `bytes` (leading zero bytes become '1'). */
export function base58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let out = "";
  while (n > 0n) {
    out = ALPHABET[Number(n % 58n)]! + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = "1" + out;
  }
  return out;
}

/** Value of each ASCII character in ALPHABET, -1 for the others. */
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/**
 * Base58 decoding; throws BAD_VALUE naming `field` on a character outside the alphabet. Leading '1's become
 * zero bytes, the rest the big-endian bytes of the number. The number is built in 24-bit limbs (each step
 * ×58 stays below 2^31): ~1 µs for an address, where a BigInt accumulator took ~20 µs — a quarter of a
 * loaded node's main thread answering `asset-balance` (docs/performance.md §Reads).
 */
export function base58Decode(text: string, field: string): Uint8Array {
  const limbs: number[] = []; // little-endian, base 2^24
  let zeros = 0;
  let leading = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? DIGIT[code]! : -1;
    if (v < 0) {
      const c = String.fromCodePoint(text.codePointAt(i)!);
      throw new ProtocolError("BAD_VALUE", field, `'${c}' is not a base58 character`);
    }
    if (leading) {
      if (v === 0) {
        zeros++;
        continue;
      }
      leading = false;
    }
    let carry = v;
    for (let j = 0; j < limbs.length; j++) {
      const x = limbs[j]! * 58 + carry;
      limbs[j] = x & 0xffffff;
      carry = x >>> 24;
    }
    if (carry > 0) limbs.push(carry);
  }
  const body: number[] = [];
  for (let j = limbs.length - 1; j >= 0; j--) {
    const l = limbs[j]!;
    body.push(l >>> 16, (l >>> 8) & 0xff, l & 0xff);
  }
  let skip = 0;
  while (skip < body.length && body[skip] === 0) skip++;
  const out = new Uint8Array(zeros + body.length - skip);
  for (let k = skip; k < body.length; k++) out[zeros + k - skip] = body[k]!;
  return out;
}
