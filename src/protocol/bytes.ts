import { ProtocolError } from "./errors.js";

/**
 * Node's Buffer where there is one; undefined in a browser, which loads this module too (the control panel's
 * proof verifier, docs/panel.md): there the four functions below take their plain-JS path. Node keeps Buffer's
 * native hex and copies (the RPC hot path), so its behaviour and speed are unchanged.
 */
const NodeBuffer: typeof Buffer | undefined = (globalThis as { Buffer?: typeof Buffer }).Buffer;

/** Two lower-case hex characters per byte value, for the plain-JS path. */
const HEX_PAIRS: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

/** Lowercase hex of `bytes` (protocol output is always lowercase). */
export function toHex(bytes: Uint8Array): string {
  if (NodeBuffer !== undefined)
    return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
  let out = "";
  for (const b of bytes) out += HEX_PAIRS[b];
  return out;
}

/**
 * The bytes of lowercase hex this process wrote itself (a digest's `sha256Hex`): no check, unlike `fromHex`
 * (for text from outside). A view of Node's Buffer pool, as `fromHex`'s.
 */
export function hexBytes(hex: string): Uint8Array {
  if (NodeBuffer === undefined) {
    const out = new Uint8Array(hex.length >>> 1);
    for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  const b = NodeBuffer.from(hex, "hex");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

const HEX_RE = /^[0-9a-fA-F]*$/;

/**
 * Decode a hex string (either case, as Go's decoder accepts). Throws BAD_HEX naming `field`.
 * @param expectedBytes when given, the decoded length must equal it (BAD_LENGTH otherwise)
 */
export function fromHex(hex: string, field = "hex", expectedBytes?: number): Uint8Array {
  if (typeof hex !== "string") throw new ProtocolError("BAD_HEX", field, "expected a hex string");
  if (hex.length % 2 !== 0) throw new ProtocolError("BAD_HEX", field, `odd number of hex characters (${hex.length})`);
  if (!HEX_RE.test(hex)) throw new ProtocolError("BAD_HEX", field, "contains a character that is not hex");
  if (expectedBytes !== undefined && hex.length !== expectedBytes * 2)
    throw new ProtocolError("BAD_LENGTH", field, `expected ${expectedBytes * 2} hex characters, got ${hex.length}`);
  if (NodeBuffer === undefined) {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  const b = NodeBuffer.from(hex, "hex");
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** Concatenate byte arrays. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  if (NodeBuffer === undefined) {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
  const out = NodeBuffer.concat(parts);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** Bytewise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Bytewise comparison (lexicographic), as Go's bytes.Compare. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  if (NodeBuffer !== undefined) return NodeBuffer.compare(a, b);
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** 32 zero bytes: the zero hash (empty Merkle root, prev links at height 0). */
export const ZERO_HASH: Uint8Array = new Uint8Array(32);

/** Largest value a u64 field may carry. */
export const U64_MAX = (1n << 64n) - 1n;
/** Largest 48-bit millisecond timestamp. */
export const U48_MAX = 2 ** 48 - 1;

/** Minimal varint encoding (wire-format §0.2): 7-bit groups, most significant first. */
export function encodeVarint(value: bigint | number): Uint8Array {
  let v = BigInt(value);
  if (v < 0n || v > U64_MAX) throw new ProtocolError("BAD_VARINT", "varint", `value ${v} outside 0..2^64-1`);
  const groups: number[] = [Number(v & 0x7fn)];
  v >>= 7n;
  while (v > 0n) {
    groups.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  return Uint8Array.from(groups.reverse());
}

/** Number of bytes `encodeVarint(value)` produces. */
export function varintSize(value: bigint | number): number {
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
  offset = 0;
  constructor(
    readonly bytes: Uint8Array,
    /** prefix for error field names, e.g. "transaction" */
    readonly context: string,
  ) {}

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  private need(n: number, field: string): void {
    if (this.offset + n > this.bytes.length)
      throw new ProtocolError(
        "TRUNCATED",
        `${this.context}.${field}`,
        `needs ${n} byte(s) at offset ${this.offset}, only ${this.remaining} left`,
      );
  }

  /** Step over `n` bytes (checked as bytesN checks them) and return where they start: no view made. */
  skip(n: number, field: string): number {
    this.need(n, field);
    const at = this.offset;
    this.offset += n;
    return at;
  }

  bytesN(n: number, field: string): Uint8Array {
    this.need(n, field);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  u8(field: string): number {
    this.need(1, field);
    return this.bytes[this.offset++]!;
  }

  u16(field: string): number {
    this.need(2, field);
    const b = this.bytes;
    const v = (b[this.offset]! << 8) | b[this.offset + 1]!;
    this.offset += 2;
    return v;
  }

  u32(field: string): number {
    this.need(4, field);
    const b = this.bytes;
    const o = this.offset;
    const v = ((b[o]! << 24) >>> 0) + ((b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!);
    this.offset += 4;
    return v;
  }

  u64(field: string): bigint {
    const hi = BigInt(this.u32(field));
    const lo = BigInt(this.u32(field));
    return (hi << 32n) | lo;
  }

  /** 6-byte big-endian millisecond timestamp. */
  u48(field: string): number {
    const hi = this.u16(field);
    const lo = this.u32(field);
    return hi * 2 ** 32 + lo;
  }

  /**
   * Varint (wire-format §0.2). Policy: non-minimal encodings (a leading 0x80 group) and
   * values above 2^64-1 are REJECTED with BAD_VARINT, so that the bytes we hash are always the
   * canonical bytes (factomd accepts them but re-marshals before hashing; see docs/compat.md).
   */
  varint(field: string): bigint {
    let v = 0n;
    const start = this.offset;
    for (let i = 0; i < 10; i++) {
      this.need(1, field);
      const byte = this.bytes[this.offset++]!;
      if (i === 0 && byte === 0x80)
        throw new ProtocolError("BAD_VARINT", `${this.context}.${field}`, "non-minimal varint (leading 0x80 group)");
      v = (v << 7n) | BigInt(byte & 0x7f);
      if ((byte & 0x80) === 0) {
        if (v > U64_MAX) throw new ProtocolError("BAD_VARINT", `${this.context}.${field}`, "varint exceeds 2^64-1");
        return v;
      }
    }
    throw new ProtocolError("BAD_VARINT", `${this.context}.${field}`, `varint at offset ${start} longer than 10 bytes`);
  }

  /** Throws TRAILING_BYTES if anything is left. */
  end(): void {
    if (this.remaining !== 0)
      throw new ProtocolError("TRAILING_BYTES", this.context, `${this.remaining} unexpected byte(s) after the end`);
  }
}

/** Growable big-endian writer. */
export class ByteWriter {
  private buf: Uint8Array;
  length = 0;
  constructor(initialCapacity = 256) {
    this.buf = new Uint8Array(initialCapacity);
  }

  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }

  u8(v: number): this {
    this.ensure(1);
    this.buf[this.length++] = v & 0xff;
    return this;
  }

  u16(v: number): this {
    this.ensure(2);
    this.buf[this.length++] = (v >>> 8) & 0xff;
    this.buf[this.length++] = v & 0xff;
    return this;
  }

  u32(v: number): this {
    this.ensure(4);
    this.buf[this.length++] = (v >>> 24) & 0xff;
    this.buf[this.length++] = (v >>> 16) & 0xff;
    this.buf[this.length++] = (v >>> 8) & 0xff;
    this.buf[this.length++] = v & 0xff;
    return this;
  }

  u64(v: bigint | number): this {
    const b = BigInt(v);
    this.u32(Number((b >> 32n) & 0xffffffffn));
    this.u32(Number(b & 0xffffffffn));
    return this;
  }

  /** 6-byte big-endian millisecond timestamp. */
  u48(ms: number): this {
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > U48_MAX)
      throw new ProtocolError("BAD_VALUE", "timestamp", `milliseconds ${ms} outside 0..2^48-1`);
    this.u16(Math.floor(ms / 2 ** 32));
    this.u32(ms % 2 ** 32);
    return this;
  }

  varint(v: bigint | number): this {
    return this.bytes(encodeVarint(v));
  }

  /** The written bytes (a copy-free view). */
  finish(): Uint8Array {
    // a writer sized exactly hands over its array itself: a subarray of an array of ≤ 64 bytes (kept on V8's
    // heap) would move its bytes to a malloc'ed store first (issue 35, docs/performance.md
    // §"Signature checks per entry", change 13)
    return this.length === this.buf.length ? this.buf : this.buf.subarray(0, this.length);
  }
}
