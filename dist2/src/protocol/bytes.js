import { ProtocolError } from "./errors.js";
/** Lowercase hex of `bytes` (protocol output is always lowercase). */
export function toHex(bytes) {
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
const HEX_RE = /^[0-9a-fA-F]*$/;
/**
 * Decode a hex string (either case, as Go's decoder accepts). Throws BAD_HEX naming `field`.
 * @param expectedBytes when given, the decoded length must equal it (BAD_LENGTH otherwise)
 */
export function fromHex(hex, field = "hex", expectedBytes) {
    if (typeof hex !== "string")
        throw new ProtocolError("BAD_HEX", field, "expected a hex string");
    if (hex.length % 2 !== 0)
        throw new ProtocolError("BAD_HEX", field, `odd number of hex characters (${hex.length})`);
    if (!HEX_RE.test(hex))
        throw new ProtocolError("BAD_HEX", field, "contains a character that is not hex");
    if (expectedBytes !== undefined && hex.length !== expectedBytes * 2)
        throw new ProtocolError("BAD_LENGTH", field, `expected ${expectedBytes * 2} hex characters, got ${hex.length}`);
    const b = Buffer.from(hex, "hex");
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}
/** Concatenate byte arrays. */
export function concat(...parts) {
    const out = Buffer.concat(parts);
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
/** Bytewise equality. */
export function bytesEqual(a, b) {
    if (a.length !== b.length)
        return false;
    for (let i = 0; i < a.length; i++)
        if (a[i] !== b[i])
            return false;
    return true;
}
/** Bytewise comparison (lexicographic), as Go's bytes.Compare. */
export function compareBytes(a, b) {
    return Buffer.compare(a, b);
}
/** 32 zero bytes: the zero hash (empty Merkle root, prev links at height 0). */
export const ZERO_HASH = new Uint8Array(32);
/** Largest value a u64 field may carry. */
export const U64_MAX = (1n << 64n) - 1n;
/** Largest 48-bit millisecond timestamp. */
export const U48_MAX = 2 ** 48 - 1;
/** Minimal varint encoding (wire-format §0.2): 7-bit groups, most significant first. */
export function encodeVarint(value) {
    let v = BigInt(value);
    if (v < 0n || v > U64_MAX)
        throw new ProtocolError("BAD_VARINT", "varint", `value ${v} outside 0..2^64-1`);
    const groups = [Number(v & 0x7fn)];
    v >>= 7n;
    while (v > 0n) {
        groups.push(Number(v & 0x7fn) | 0x80);
        v >>= 7n;
    }
    return Uint8Array.from(groups.reverse());
}
/** Number of bytes `encodeVarint(value)` produces. */
export function varintSize(value) {
    let v = BigInt(value);
    let n = 1;
    while (v >= 0x80n) {
        v >>= 7n;
        n++;
    }
    return n;
}
/**
 * Sequential reader over a byte array. Every read checks bounds and throws TRUNCATED
 * naming the field, so decoders never throw untyped exceptions.
 */
export class ByteReader {
    bytes;
    context;
    offset = 0;
    constructor(bytes, 
    /** prefix for error field names, e.g. "transaction" */
    context) {
        this.bytes = bytes;
        this.context = context;
    }
    get remaining() {
        return this.bytes.length - this.offset;
    }
    need(n, field) {
        if (this.offset + n > this.bytes.length)
            throw new ProtocolError("TRUNCATED", `${this.context}.${field}`, `needs ${n} byte(s) at offset ${this.offset}, only ${this.remaining} left`);
    }
    bytesN(n, field) {
        this.need(n, field);
        const out = this.bytes.subarray(this.offset, this.offset + n);
        this.offset += n;
        return out;
    }
    u8(field) {
        this.need(1, field);
        return this.bytes[this.offset++];
    }
    u16(field) {
        this.need(2, field);
        const b = this.bytes;
        const v = (b[this.offset] << 8) | b[this.offset + 1];
        this.offset += 2;
        return v;
    }
    u32(field) {
        this.need(4, field);
        const b = this.bytes;
        const o = this.offset;
        const v = ((b[o] << 24) >>> 0) + ((b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]);
        this.offset += 4;
        return v;
    }
    u64(field) {
        const hi = BigInt(this.u32(field));
        const lo = BigInt(this.u32(field));
        return (hi << 32n) | lo;
    }
    /** 6-byte big-endian millisecond timestamp. */
    u48(field) {
        const hi = this.u16(field);
        const lo = this.u32(field);
        return hi * 2 ** 32 + lo;
    }
    /**
     * Varint (wire-format §0.2). Policy: non-minimal encodings (a leading 0x80 group) and
     * values above 2^64-1 are REJECTED with BAD_VARINT, so that the bytes we hash are always the
     * canonical bytes (factomd accepts them but re-marshals before hashing; see docs/compat.md).
     */
    varint(field) {
        let v = 0n;
        const start = this.offset;
        for (let i = 0; i < 10; i++) {
            this.need(1, field);
            const byte = this.bytes[this.offset++];
            if (i === 0 && byte === 0x80)
                throw new ProtocolError("BAD_VARINT", `${this.context}.${field}`, "non-minimal varint (leading 0x80 group)");
            v = (v << 7n) | BigInt(byte & 0x7f);
            if ((byte & 0x80) === 0) {
                if (v > U64_MAX)
                    throw new ProtocolError("BAD_VARINT", `${this.context}.${field}`, "varint exceeds 2^64-1");
                return v;
            }
        }
        throw new ProtocolError("BAD_VARINT", `${this.context}.${field}`, `varint at offset ${start} longer than 10 bytes`);
    }
    /** Throws TRAILING_BYTES if anything is left. */
    end() {
        if (this.remaining !== 0)
            throw new ProtocolError("TRAILING_BYTES", this.context, `${this.remaining} unexpected byte(s) after the end`);
    }
}
/** Growable big-endian writer. */
export class ByteWriter {
    buf;
    length = 0;
    constructor(initialCapacity = 256) {
        this.buf = new Uint8Array(initialCapacity);
    }
    ensure(n) {
        if (this.length + n <= this.buf.length)
            return;
        let cap = this.buf.length * 2;
        while (cap < this.length + n)
            cap *= 2;
        const next = new Uint8Array(cap);
        next.set(this.buf.subarray(0, this.length));
        this.buf = next;
    }
    bytes(b) {
        this.ensure(b.length);
        this.buf.set(b, this.length);
        this.length += b.length;
        return this;
    }
    u8(v) {
        this.ensure(1);
        this.buf[this.length++] = v & 0xff;
        return this;
    }
    u16(v) {
        this.ensure(2);
        this.buf[this.length++] = (v >>> 8) & 0xff;
        this.buf[this.length++] = v & 0xff;
        return this;
    }
    u32(v) {
        this.ensure(4);
        this.buf[this.length++] = (v >>> 24) & 0xff;
        this.buf[this.length++] = (v >>> 16) & 0xff;
        this.buf[this.length++] = (v >>> 8) & 0xff;
        this.buf[this.length++] = v & 0xff;
        return this;
    }
    u64(v) {
        const b = BigInt(v);
        this.u32(Number((b >> 32n) & 0xffffffffn));
        this.u32(Number(b & 0xffffffffn));
        return this;
    }
    /** 6-byte big-endian millisecond timestamp. */
    u48(ms) {
        if (!Number.isSafeInteger(ms) || ms < 0 || ms > U48_MAX)
            throw new ProtocolError("BAD_VALUE", "timestamp", `milliseconds ${ms} outside 0..2^48-1`);
        this.u16(Math.floor(ms / 2 ** 32));
        this.u32(ms % 2 ** 32);
        return this;
    }
    varint(v) {
        return this.bytes(encodeVarint(v));
    }
    /** The written bytes (a copy-free view). */
    finish() {
        return this.buf.subarray(0, this.length);
    }
}
//# sourceMappingURL=bytes.js.map