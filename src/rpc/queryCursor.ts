/**
 * Cursors of the query extensions (v2/queries.ts): an index position wrapped as opaque base64url text that
 * names the method and the order it was made for, so a cursor given to another method, or with the other
 * order, is refused (-32602 naming `cursor`) instead of silently starting a page somewhere else.
 *
 * Layout (before base64url): u8 CURSOR_VERSION ‖ u8 method tag ‖ u8 order (0 asc, 1 desc) ‖ position bytes.
 */
import { invalidParams } from "./errors.js";
import { jsonType, type Params } from "./params.js";

/**
 * Bumped if the layout changes: an older cursor is then refused, never misread. 2: the query index of
 * store/queryIndexKeys.ts's layout 2, whose ext ID keys differ; a version-1 cursor of `chain-entries` or
 * `address-history` names the same position in both layouts (record key ‖ u32 item) and is still read.
 */
const CURSOR_VERSION = 2;

/** Methods whose version-1 cursors are still valid (CURSOR_VERSION). */
const VERSION_1_METHODS: ReadonlySet<string> = new Set(["chain-entries", "address-history"]);

/** Methods that hand out cursors, with their tag byte. */
export const CURSOR_METHODS = {
  "chain-entries": 1,
  "search-entries": 2,
  "search-chains": 3,
  "address-history": 4,
} as const;
export type CursorMethod = keyof typeof CURSOR_METHODS;

/**
 * Longest cursor text accepted: the longest position (an ext ID key of 17 + 64 + 4 + 8 bytes, its ext ID all
 * zero bytes escaped, ‖ u32 item: 97 bytes) plus the header, in base64url (136 characters), with room.
 */
const MAX_CURSOR_CHARS = 176;

const BASE64URL_RE = /^[A-Za-z0-9_-]+$/;

export type Order = "asc" | "desc";

/** The cursor text for `position` (undefined: the end, answered as ""). */
export function encodeCursor(method: CursorMethod, order: Order, position: Uint8Array | undefined): string {
  if (position === undefined) return "";
  const b = Buffer.allocUnsafe(3 + position.length);
  b[0] = CURSOR_VERSION;
  b[1] = CURSOR_METHODS[method];
  b[2] = order === "desc" ? 1 : 0;
  b.set(position, 3);
  return b.toString("base64url");
}

/**
 * The position of member `cursor` of `p` for `method` and `order`; undefined when absent or "" (the first page).
 * @throws RpcError -32602 naming `cursor`: not a string, malformed, made by another method or for the other order
 */
export function expectCursor(p: Params, method: CursorMethod, order: Order): Uint8Array | undefined {
  const v = p.get("cursor");
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "string")
    throw invalidParams(`cursor: expected a string (a nextcursor of ${method}), got ${jsonType(v)}`);
  if (v.length > MAX_CURSOR_CHARS || !BASE64URL_RE.test(v))
    throw invalidParams(`cursor: malformed (not a nextcursor this node answered)`);
  const b = Buffer.from(v, "base64url");
  if (b.length < 4 || (b[0] !== CURSOR_VERSION && b[0] !== 1) || b[2]! > 1)
    throw invalidParams(`cursor: malformed (not a nextcursor this node answered)`);
  const made = Object.entries(CURSOR_METHODS).find(([, tag]) => tag === b[1])?.[0];
  if (made === undefined) throw invalidParams(`cursor: malformed (not a nextcursor this node answered)`);
  if (made !== method) throw invalidParams(`cursor: a cursor of ${made}, not of ${method}`);
  if (b[0] === 1 && !VERSION_1_METHODS.has(method))
    throw invalidParams(
      `cursor: made by an earlier layout of this node's query index, whose ${method} positions no longer exist: start again without a cursor`,
    );
  const madeOrder: Order = b[2] === 1 ? "desc" : "asc";
  if (madeOrder !== order) throw invalidParams(`cursor: made for order "${madeOrder}", asked with order "${order}"`);
  return new Uint8Array(b.subarray(3));
}
