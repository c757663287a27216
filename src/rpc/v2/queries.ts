/**
 * The query extensions (docs/api.md "Query extensions"): chain-entries, search-entries, search-chains,
 * address-history. They read the node's query index (store/queryIndex.ts) through the QueryIndexApi contract:
 * saved blocks only, paged by opaque cursors (queryCursor.ts).
 */
import type { IndexAnswer, IndexedEntry, QueryIndexApi } from "../../ledger/api.js";
import { toHex } from "../../protocol/bytes.js";
import { MAX_ENTRY_PAYLOAD } from "../../protocol/entry.js";
import type { RpcContext } from "../context.js";
import { invalidParams, serverError } from "../errors.js";
import type { JsonText } from "../jsonrpc.js";
import type {
  AddressHistoryResult,
  ChainEntriesResult,
  QueryEntryJson,
  SearchChainsResult,
  SearchEntriesResult,
} from "../methods.js";
import { addressFromText, expectBool, expectHash, expectInteger, jsonType, Params } from "../params.js";
import { type CursorMethod, encodeCursor, expectCursor, type Order } from "../queryCursor.js";
import { type EntryBytes, entryPageText } from "./entryPageText.js";

/** Items per page: default and most (a page of 1000 entries with content is at most ~10 MB of hex). */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** Most ext IDs a search names (an entry can hold more, but no application searches that deep). */
const MAX_SEARCH_EXTIDS = 16;

/**
 * What the query methods read: the index and the entries' own bytes. The live feed (live/querySubscription.ts)
 * runs the same methods with its own ledger, so a subscription continues a query exactly.
 */
export type QueryContext = { readonly queries?: QueryIndexApi & EntryBytesSource } & {
  ledger: Pick<RpcContext["ledger"], "entry">;
};

/**
 * An entry's marshalled bytes read in place by the index's own reader (store/queryIndexReader.ts `entryBytes`):
 * the answers written as bytes (entryPageText.ts) read them there; without it, through the ledger.
 */
interface EntryBytesSource {
  entryBytes?(entryHash: Uint8Array): Uint8Array | undefined;
}

/** Why the query methods refuse on a node without the index (the -32000's data; the live feed's refusal). */
export const NO_QUERY_INDEX = "this node keeps no query index (it runs with -queryindex=false, [App] QueryIndex)";

function queries(ctx: QueryContext): QueryIndexApi & EntryBytesSource {
  if (ctx.queries === undefined) throw serverError("Query index unavailable", NO_QUERY_INDEX);
  // An index being rebuilt (an upgrade, a lost index) holds only the heights below `nextHeight`: a descending
  // page or a search would silently miss the rest, so every query is refused until it is done (no restart).
  const rebuilding = ctx.queries.rebuilding?.();
  if (rebuilding !== undefined)
    throw serverError(
      "Query index rebuilding",
      `query index rebuilding: height ${rebuilding.nextHeight} of ${rebuilding.savedHeight}; try again later`,
    );
  return ctx.queries;
}

function expectLimit(p: Params): number {
  return expectInteger(p, "limit", { min: 1, max: MAX_LIMIT, defaultValue: DEFAULT_LIMIT });
}

function expectOrder(p: Params): Order {
  const v = p.get("order");
  if (v === undefined) return "asc";
  if (v !== "asc" && v !== "desc")
    throw invalidParams(
      `order: expected "asc" or "desc", got ${typeof v === "string" ? JSON.stringify(v) : jsonType(v)}`,
    );
  return v;
}

function expectMatch(p: Params): "exact" | "prefix" {
  const v = p.get("match");
  if (v === undefined) return "exact";
  if (v !== "exact" && v !== "prefix")
    throw invalidParams(
      `match: expected "exact" or "prefix", got ${typeof v === "string" ? JSON.stringify(v) : jsonType(v)}`,
    );
  return v;
}

/** `extids`: a non-empty array of hex strings (an empty string is an empty ext ID). */
function expectExtIds(p: Params): Uint8Array[] {
  const v = p.get("extids");
  if (v === undefined) throw invalidParams("extids: required, an array of hex strings");
  if (!Array.isArray(v)) throw invalidParams(`extids: expected an array of hex strings, got ${jsonType(v)}`);
  if (v.length === 0 || v.length > MAX_SEARCH_EXTIDS)
    throw invalidParams(`extids: expected 1 to ${MAX_SEARCH_EXTIDS} ext IDs, got ${v.length}`);
  return v.map((x: unknown, i) => {
    const name = `extids[${i}]`;
    if (typeof x !== "string") throw invalidParams(`${name}: expected a hex string, got ${jsonType(x)}`);
    if (x.length > 2 * MAX_ENTRY_PAYLOAD) throw invalidParams(`${name}: longer than an entry's payload`);
    const b = Buffer.from(x, "hex");
    if (b.length * 2 !== x.length) throw invalidParams(`${name}: not hex`);
    return new Uint8Array(b);
  });
}

/** Refused positions and pages, as the API answers them. */
function unwrap<T>(answer: IndexAnswer<T>): { items: T[]; next: Uint8Array | undefined; last: Uint8Array | undefined } {
  if ("refused" in answer) throw invalidParams(`cursor: ${answer.refused}`);
  return answer;
}

/**
 * `nextcursor` ("" at the end) and `resumecursor`: past the last position read, also at the end, so a client
 * that reached the end asks again later from there and gets exactly what was saved since ("" only when nothing
 * was read and no cursor given).
 */
function cursors(
  method: CursorMethod,
  order: Order,
  page: { next: Uint8Array | undefined; last: Uint8Array | undefined },
  after: Uint8Array | undefined,
): { nextcursor: string; resumecursor: string } {
  return {
    nextcursor: encodeCursor(method, order, page.next),
    resumecursor: encodeCursor(method, order, page.last ?? after),
  };
}

/** The JSON of an indexed entry; the entry's own bytes from the ledger (ext IDs; content unless left out). */
function entryJson(e: IndexedEntry, ctx: QueryContext, content: boolean, withChain: boolean): QueryEntryJson {
  const found = ctx.ledger.entry(e.entryHash);
  const out: QueryEntryJson = {
    entryhash: toHex(e.entryHash),
    ...(withChain ? { chainid: toHex(e.chainId) } : {}),
    extids: found === undefined ? [] : found.entry.extIds.map(toHex),
    ...(content ? { content: found === undefined ? "" : toHex(found.entry.content) } : {}),
    dbheight: e.directoryBlockHeight,
    entryblockkeymr: toHex(e.entryBlockKeyMR),
    timestamp: e.timestamp,
    position: e.position,
  };
  return out;
}

/** A page of entries as both answers make it: the index's items, what to write of each, the cursors. */
interface EntriesPage {
  items: IndexedEntry[];
  content: boolean;
  withChain: boolean;
  cursors: { nextcursor: string; resumecursor: string };
  /** where the answer writer reads each entry's bytes in place (undefined: the objects' path) */
  entryBytes: EntryBytes | undefined;
}

function chainEntriesPage(params: unknown, ctx: QueryContext): EntriesPage {
  const p = new Params(params);
  const chainId = expectHash(p, "chainid");
  const order = expectOrder(p);
  const method: CursorMethod = "chain-entries";
  const after = expectCursor(p, method, order);
  const limit = expectLimit(p);
  const content = expectBool(p, "content", true);
  const index = queries(ctx);
  const page = unwrap(index.chainEntries({ chainId, ...(after ? { after } : {}), desc: order === "desc", limit }));
  return {
    items: page.items,
    content,
    withChain: false,
    cursors: cursors(method, order, page, after),
    entryBytes: bytesOf(index),
  };
}

function searchEntriesPage(params: unknown, ctx: QueryContext): EntriesPage {
  const p = new Params(params);
  const extIds = expectExtIds(p);
  const match = expectMatch(p);
  const chainId = p.get("chainid") === undefined ? undefined : expectHash(p, "chainid");
  const method: CursorMethod = "search-entries";
  const after = expectCursor(p, method, "asc");
  const limit = expectLimit(p);
  const content = expectBool(p, "content", true);
  const index = queries(ctx);
  const page = unwrap(
    index.searchEntries({
      extIds,
      match,
      ...(chainId ? { chainId } : {}),
      ...(after ? { after } : {}),
      limit,
    }),
  );
  return {
    items: page.items,
    content,
    withChain: true,
    cursors: cursors(method, "asc", page, after),
    entryBytes: bytesOf(index),
  };
}

/** The index reader's in-place entry read, bound (undefined when the index given has none). */
function bytesOf(index: EntryBytesSource): EntryBytes | undefined {
  return index.entryBytes === undefined ? undefined : (hash) => index.entryBytes!(hash);
}

/** A page as the result's objects (the live feed's subscriptions read them). */
function pageObjects(page: EntriesPage, ctx: QueryContext): ChainEntriesResult {
  return { entries: page.items.map((e) => entryJson(e, ctx, page.content, page.withChain)), ...page.cursors };
}

/** A page as answer bytes (entryPageText.ts): the same JSON text as `pageObjects`, without its objects. */
function pageText(page: EntriesPage, ctx: QueryContext): JsonText<ChainEntriesResult> {
  const slow = (e: IndexedEntry): string => JSON.stringify(entryJson(e, ctx, page.content, page.withChain));
  // without an in-place read, every entry takes the objects' path: `slow` written as text
  const entryBytes: EntryBytes = page.entryBytes ?? (() => undefined);
  return entryPageText(page.items, page, page.cursors, entryBytes, slow);
}

/**
 * `chain-entries` {chainid, cursor?, limit?, order?, content?}: a chain's saved entries in ledger order (or
 * reversed), a page at a time; `nextcursor` "" at the end. As objects (the live feed); the server answers with
 * `chainEntriesAnswer`, the same JSON text.
 */
export function chainEntries(params: unknown, ctx: QueryContext): ChainEntriesResult {
  return pageObjects(chainEntriesPage(params, ctx), ctx);
}

/** `chain-entries` as the server answers it: `chainEntries`'s JSON text as answer bytes. */
export function chainEntriesAnswer(params: unknown, ctx: QueryContext): JsonText<ChainEntriesResult> {
  return pageText(chainEntriesPage(params, ctx), ctx);
}

/**
 * `search-entries` {extids, match?, chainid?, cursor?, limit?, content?}: saved entries whose ext IDs start
 * with `extids` ("exact": the last equal; "prefix": the last starts with it). As objects (the live feed); the
 * server answers with `searchEntriesAnswer`, the same JSON text.
 */
export function searchEntries(params: unknown, ctx: QueryContext): SearchEntriesResult {
  return pageObjects(searchEntriesPage(params, ctx), ctx);
}

/** `search-entries` as the server answers it: `searchEntries`'s JSON text as answer bytes. */
export function searchEntriesAnswer(params: unknown, ctx: QueryContext): JsonText<SearchEntriesResult> {
  return pageText(searchEntriesPage(params, ctx), ctx);
}

/** `search-chains` {extids, match?, cursor?, limit?}: chains whose first entry's ext IDs start with `extids`. */
export function searchChains(params: unknown, ctx: QueryContext): SearchChainsResult {
  const p = new Params(params);
  const extIds = expectExtIds(p);
  const match = expectMatch(p);
  const method: CursorMethod = "search-chains";
  const after = expectCursor(p, method, "asc");
  const limit = expectLimit(p);
  const page = unwrap(queries(ctx).searchChains({ extIds, match, ...(after ? { after } : {}), limit }));
  return {
    chains: page.items.map((c) => ({
      chainid: toHex(c.chainId),
      extids: ctx.ledger.entry(c.firstEntryHash)?.entry.extIds.map(toHex) ?? [],
      firstentryhash: toHex(c.firstEntryHash),
      dbheight: c.directoryBlockHeight,
      // a chain of more than 2^53 entries is beyond any store
      entrycount: Number(c.entryCount),
    })),
    ...cursors(method, "asc", page, after),
  };
}

/**
 * `address-history` {address, cursor?, limit?, order?}: what saved blocks did with an FA address (asset inputs,
 * outputs) or an EC address (purchases, commits it paid), in ledger order (or reversed).
 */
export function addressHistory(params: unknown, ctx: QueryContext): AddressHistoryResult {
  const p = new Params(params);
  const text = p.get("address");
  if (typeof text !== "string")
    throw invalidParams(
      text === undefined
        ? "address: required, an FA… or EC… public address"
        : `address: expected an FA… or EC… public address, got ${jsonType(text)}`,
    );
  const kind = text.startsWith("FA") ? "FA" : text.startsWith("EC") ? "EC" : undefined;
  if (kind === undefined) throw invalidParams("address: expected an FA… or EC… public address");
  const address = addressFromText(text, "address", kind, false);
  const order = expectOrder(p);
  const method: CursorMethod = "address-history";
  const after = expectCursor(p, method, order);
  const limit = expectLimit(p);
  const page = unwrap(
    queries(ctx).addressHistory({ kind, address, ...(after ? { after } : {}), desc: order === "desc", limit }),
  );
  return {
    items: page.items.map((it) => ({
      kind: it.kind,
      txid: toHex(it.txId),
      dbheight: it.directoryBlockHeight,
      timestamp: it.timestamp,
      // base units stay below 2^63: as a JSON number only below 2^53, so as a decimal string
      amount: it.amount.toString(),
    })),
    ...cursors(method, order, page, after),
  };
}
