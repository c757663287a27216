/**
 * A client's text frame on the live feed (feed.ts): a subscribe or unsubscribe request, parsed and checked
 * field by field; a bad one is refused with a FeedRequestError naming the field (sent back as an `error` event).
 */
import { NodeError } from "../../errors.js";
import { decodeAddress } from "../../protocol/address.js";
import { toHex } from "../../protocol/bytes.js";

export /** A client's request, as parsed from its text frame. */
interface SubscribeRequest {
  op: "subscribe" | "unsubscribe";
  chains: string[];
  addresses: string[];
  hashes: string[];
  minutes?: boolean;
  health?: boolean;
  content?: boolean;
  fromheight?: number;
}

/** A request the feed refuses; its message goes back as an `error` event. */
export class FeedRequestError extends NodeError {}

const HEX64 = /^[0-9a-fA-F]{64}$/;

export /** An FA or EC address → its key hex (RCD hash or EC public key). */
function addressKey(text: string, field: string): string {
  try {
    const { kind, key } = decodeAddress(text, undefined, field);
    if (kind !== "FA" && kind !== "EC")
      throw new FeedRequestError(`${field}: expected an FA or EC address, got ${kind}`);
    return toHex(key);
  } catch (e) {
    if (e instanceof FeedRequestError) throw e;
    throw new FeedRequestError(e instanceof Error ? e.message : String(e));
  }
}

export /** Parse and check a client frame; throws FeedRequestError naming the bad field. */
function parseRequest(text: string): SubscribeRequest {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new FeedRequestError("expected a JSON object");
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new FeedRequestError("expected a JSON object");
  const o = v as Record<string, unknown>;
  if (o.op !== "subscribe" && o.op !== "unsubscribe")
    throw new FeedRequestError(`op: expected "subscribe" or "unsubscribe", got ${JSON.stringify(o.op)}`);
  const list = (name: string, check?: RegExp, what?: string): string[] => {
    const l = o[name];
    if (l === undefined) return [];
    if (!Array.isArray(l) || l.some((x) => typeof x !== "string"))
      throw new FeedRequestError(`${name}: expected an array of strings`);
    if (check !== undefined) {
      const bad = (l as string[]).findIndex((x) => !check.test(x));
      if (bad >= 0) throw new FeedRequestError(`${name}[${bad}]: expected ${what}, got ${JSON.stringify(l[bad])}`);
    }
    return l as string[];
  };
  const flag = (name: string): boolean | undefined => {
    const f = o[name];
    if (f === undefined) return undefined;
    if (typeof f !== "boolean") throw new FeedRequestError(`${name}: expected true or false`);
    return f;
  };
  const req: SubscribeRequest = {
    op: o.op,
    chains: list("chains", HEX64, "a 64-character hex chain ID"),
    addresses: list("addresses"),
    hashes: list("hashes", HEX64, "a 64-character hex entry hash or transaction ID"),
  };
  for (const name of ["minutes", "health", "content"] as const) {
    const f = flag(name);
    if (f !== undefined) req[name] = f;
  }
  if (o.fromheight !== undefined) {
    if (o.op !== "subscribe") throw new FeedRequestError("fromheight: only with subscribe");
    if (typeof o.fromheight !== "number" || !Number.isSafeInteger(o.fromheight) || o.fromheight < 0)
      throw new FeedRequestError(`fromheight: expected a height (integer ≥ 0), got ${JSON.stringify(o.fromheight)}`);
    req.fromheight = o.fromheight;
  }
  const known = new Set(["op", "chains", "addresses", "hashes", "minutes", "health", "content", "fromheight"]);
  const unknown = Object.keys(o).find((k) => !known.has(k));
  if (unknown !== undefined) throw new FeedRequestError(`${unknown}: unknown field`);
  return req;
}
