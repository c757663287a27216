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
  anchored?: boolean;
  fromheight?: number;
  /** subscribe: continue a query from its cursor (querySubscription.ts); unsubscribe: `query: true` stops it */
  query?: QueryFilter;
  stopQuery?: boolean;
}

/** The query methods a subscription may continue (search-chains has no stream of later items). */
export type SubscribedQueryMethod = "chain-entries" | "search-entries" | "address-history";

/** The query a subscribe request names, as the method's params (without cursor and limit). */
export interface QueryFilter {
  method: SubscribedQueryMethod;
  params: Record<string, unknown>;
  /** a cursor of that method (a `nextcursor` or `resumecursor`); "" or absent: from the first item */
  cursor: string;
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
  for (const name of ["minutes", "health", "content", "anchored"] as const) {
    const f = flag(name);
    if (f !== undefined) req[name] = f;
  }
  if (o.fromheight !== undefined) {
    if (o.op !== "subscribe") throw new FeedRequestError("fromheight: only with subscribe");
    if (typeof o.fromheight !== "number" || !Number.isSafeInteger(o.fromheight) || o.fromheight < 0)
      throw new FeedRequestError(`fromheight: expected a height (integer ≥ 0), got ${JSON.stringify(o.fromheight)}`);
    req.fromheight = o.fromheight;
  }
  parseQuery(o, req);
  const known = new Set([
    "op",
    "chains",
    "addresses",
    "hashes",
    "minutes",
    "health",
    "content",
    "anchored",
    "fromheight",
    ...QUERY_MEMBERS,
    "query",
  ]);
  const unknown = Object.keys(o).find((k) => !known.has(k));
  if (unknown !== undefined) throw new FeedRequestError(`${unknown}: unknown field`);
  return req;
}

/** Members of a query subscription (the query extensions' filters and cursor). */
const QUERY_MEMBERS = ["chainid", "extids", "match", "address", "cursor"] as const;

/**
 * The query a subscribe names: `address` → address-history; `extids` (+ `match`, `chainid`) → search-entries;
 * `chainid` alone → chain-entries. Shapes only: the method itself checks the values when the feed first runs it.
 */
function parseQuery(o: Record<string, unknown>, req: SubscribeRequest): void {
  const given = QUERY_MEMBERS.filter((k) => o[k] !== undefined);
  if (req.op === "unsubscribe") {
    if (given.length > 0)
      throw new FeedRequestError(`${given[0]}: only with subscribe (unsubscribe with "query": true)`);
    if (o.query !== undefined && o.query !== true) throw new FeedRequestError("query: expected true");
    if (o.query === true) req.stopQuery = true;
    return;
  }
  if (o.query !== undefined)
    throw new FeedRequestError("query: only with unsubscribe (subscribe with chainid, extids or address)");
  if (given.length === 0) return;
  const cursor = o.cursor ?? "";
  if (typeof cursor !== "string") throw new FeedRequestError("cursor: expected a string (a cursor of the query)");
  if (o.address !== undefined) {
    const clash = given.find((k) => k !== "address" && k !== "cursor");
    if (clash !== undefined)
      throw new FeedRequestError(`${clash}: not with address (address-history takes no other filter)`);
    req.query = { method: "address-history", params: { address: o.address }, cursor };
  } else if (o.extids !== undefined) {
    const params: Record<string, unknown> = { extids: o.extids };
    if (o.match !== undefined) params.match = o.match;
    if (o.chainid !== undefined) params.chainid = o.chainid;
    req.query = { method: "search-entries", params, cursor };
  } else if (o.chainid !== undefined) {
    if (o.match !== undefined) throw new FeedRequestError("match: only with extids");
    req.query = { method: "chain-entries", params: { chainid: o.chainid }, cursor };
  } else throw new FeedRequestError(`${given[0]}: only with chainid, extids or address`);
}
