/**
 * Validation of JSON-RPC `params` at the edge (STYLE §5). Every failure is an RpcError -32602 whose
 * `data` names the member and the problem: "chainid: expected 64 hex characters, got 63".
 *
 * Decoding rules kept from the reference node (api-behavior §2.4): params must be an object (or absent /
 * null, which reads as an empty object); member names match case-insensitively (an exact match wins);
 * a member that is absent or `null` takes its default; unknown members are ignored.
 */
import { decodeAddress } from "../protocol/address.js";
import { toHex } from "../protocol/bytes.js";
import { ProtocolError } from "../protocol/errors.js";
import { invalidParams } from "./errors.js";

/** Largest height a block can have: heights are u32 on the wire. */
export const MAX_HEIGHT = 0xffffffff;

/** Short description of a JSON value's type for error messages. */
export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** The members of a request's `params`, read case-insensitively. */
export class Params {
  private readonly members: Record<string, unknown>;
  /** lower-cased name → member name; built on the first name not found as spelled (most calls never need it) */
  private lowerKeys: Map<string, string> | undefined;

  /** @throws RpcError -32602 when `params` is an array, string, number or boolean */
  constructor(params: unknown) {
    if (params === undefined || params === null) {
      this.members = {};
    } else if (typeof params === "object" && !Array.isArray(params)) {
      this.members = params as Record<string, unknown>;
    } else {
      throw invalidParams(`params: expected an object with named members, got ${jsonType(params)}`);
    }
  }

  /** The member's value, `undefined` when absent or null. */
  get(name: string): unknown {
    const key = Object.hasOwn(this.members, name) ? name : this.caseless().get(name.toLowerCase());
    if (key === undefined) return undefined;
    const v = this.members[key];
    return v === null ? undefined : v;
  }

  private caseless(): Map<string, string> {
    if (this.lowerKeys === undefined) {
      this.lowerKeys = new Map();
      // Last key wins among case variants, as Go's decoder fills the field with the last matching member.
      for (const key of Object.keys(this.members)) this.lowerKeys.set(key.toLowerCase(), key);
    }
    return this.lowerKeys;
  }

  /** The member's value exactly as spelled (case-sensitive), `undefined` when absent. */
  getExact(name: string): unknown {
    return Object.hasOwn(this.members, name) ? this.members[name] : undefined;
  }
}

/** Accept `Params` or raw params. */
function asParams(p: Params | unknown): Params {
  return p instanceof Params ? p : new Params(p);
}

const HEX_RE = /^[0-9a-fA-F]*$/;

/**
 * Decode hex text for member `name`; both letter cases are accepted. Node's decoder stops at the first
 * pair that is not hex, so a whole decode proves the text valid without a regular expression over it
 * (the regex was ~1.6 % of a write-loaded main thread); the error path still names the first bad character.
 */
function decodeHexText(text: string, name: string): Uint8Array {
  const b = Buffer.from(text, "hex");
  if (b.length * 2 !== text.length) {
    if (!HEX_RE.test(text)) {
      const i = text.search(/[^0-9a-fA-F]/);
      throw invalidParams(`${name}: not hex (character ${JSON.stringify(text[i])} at position ${i})`);
    }
    throw invalidParams(`${name}: odd number of hex characters (${text.length})`);
  }
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

/** A string member; `undefined` when absent and not required. */
export function expectString(
  p: Params | unknown,
  name: string,
  options: { required?: boolean } = {},
): string | undefined {
  const v = asParams(p).get(name);
  if (v === undefined) {
    if (options.required) throw invalidParams(`${name}: required`);
    return undefined;
  }
  if (typeof v !== "string") throw invalidParams(`${name}: expected a string, got ${jsonType(v)}`);
  return v;
}

/** A 32-byte hash given as exactly 64 hex characters (either case). Required. */
export function expectHash(p: Params | unknown, name: string): Uint8Array {
  const v = asParams(p).get(name);
  if (v === undefined) throw invalidParams(`${name}: required, expected 64 hex characters`);
  if (typeof v !== "string") throw invalidParams(`${name}: expected a string of 64 hex characters, got ${jsonType(v)}`);
  return hashFromText(v, name);
}

/** Parse a 64-hex-character hash string for member `name`. */
export function hashFromText(text: string, name: string): Uint8Array {
  if (text.length !== 64) {
    if (HEX_RE.test(text)) throw invalidParams(`${name}: expected 64 hex characters, got ${text.length}`);
    decodeHexText(text, name); // names the offending character
  }
  return decodeHexText(text, name);
}

/**
 * A hex member holding binary data (a commit, an entry, a transaction). Required and non-empty.
 * @param maxBytes largest decoded size accepted
 */
export function expectHex(p: Params | unknown, name: string, options: { maxBytes?: number } = {}): Uint8Array {
  const v = asParams(p).get(name);
  if (v === undefined) throw invalidParams(`${name}: required, expected a hex string`);
  if (typeof v !== "string") throw invalidParams(`${name}: expected a hex string, got ${jsonType(v)}`);
  if (v.length === 0) throw invalidParams(`${name}: empty`);
  if (options.maxBytes !== undefined && v.length > options.maxBytes * 2)
    throw invalidParams(
      `${name}: ${Math.ceil(v.length / 2)} bytes, more than the largest accepted (${options.maxBytes})`,
    );
  return decodeHexText(v, name);
}

/**
 * An integer member within [min, max]. JSON numbers without a fractional part are accepted however they
 * are written (`5`, `5.0`, `5e0`), as the reference. Absent → `defaultValue` (required when undefined).
 */
export function expectInteger(
  p: Params | unknown,
  name: string,
  options: { min: number; max: number; defaultValue?: number },
): number {
  const v = asParams(p).get(name);
  if (v === undefined) {
    if (options.defaultValue === undefined) throw invalidParams(`${name}: required, expected an integer`);
    return options.defaultValue;
  }
  if (typeof v !== "number") throw invalidParams(`${name}: expected an integer, got ${jsonType(v)}`);
  if (!Number.isInteger(v) || v < options.min || v > options.max)
    throw invalidParams(`${name}: expected an integer from ${options.min} to ${options.max}, got ${v}`);
  return v;
}

/** A block height (u32). Absent → 0, the genesis block, as the reference node. */
export function expectHeight(p: Params | unknown, name = "height"): number {
  // Required, as the spec lists it: the reference answers a missing height with genesis (docs/compat.md).
  return expectInteger(p, name, { min: 0, max: MAX_HEIGHT });
}

/** A boolean member; absent → `defaultValue`. */
export function expectBool(p: Params | unknown, name: string, defaultValue = false): boolean {
  const v = asParams(p).get(name);
  if (v === undefined) return defaultValue;
  if (typeof v !== "boolean") throw invalidParams(`${name}: expected true or false, got ${jsonType(v)}`);
  return v;
}

/** The public address kinds a balance query takes. */
export type PublicAddressKind = "FA" | "EC";

const KIND_WORDS: Record<PublicAddressKind, string> = {
  FA: "an asset address (FA…) or a 64-hex RCD hash",
  EC: "an entry credit address (EC…) or a 64-hex public key",
};

/**
 * A public address: the human-readable form of `kind` (52 characters, checksum verified) or, as the
 * reference accepts for single-balance queries, the raw 32 bytes as 64 hex characters. Returns the
 * 32-byte payload (RCD hash for FA, public key for EC) and its hex.
 */
export function expectAddress(
  p: Params | unknown,
  name: string,
  kind: PublicAddressKind,
  cache?: { known(text: string, name: string, kind: PublicAddressKind): { key: Uint8Array; hex: string } },
): { key: Uint8Array; hex: string } {
  const v = asParams(p).get(name);
  if (v === undefined) throw invalidParams(`${name}: required, expected ${KIND_WORDS[kind]}`);
  if (typeof v !== "string") throw invalidParams(`${name}: expected ${KIND_WORDS[kind]}, got ${jsonType(v)}`);
  if (cache !== undefined) return cache.known(v, name, kind);
  const key = addressFromText(v, name, kind, true);
  return { key, hex: toHex(key) };
}

/**
 * Decode an address string of `kind`; `allowRawHex` also accepts 64 hex characters.
 * @throws RpcError -32602 naming `name` and the problem
 */
export function addressFromText(text: string, name: string, kind: PublicAddressKind, allowRawHex: boolean): Uint8Array {
  if (allowRawHex && text.length === 64 && HEX_RE.test(text)) return decodeHexText(text, name);
  try {
    return decodeAddress(text, kind, name).key;
  } catch (e) {
    if (e instanceof ProtocolError) throw invalidParams(e.message);
    throw e;
  }
}
