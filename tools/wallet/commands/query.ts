/**
 * Commands on the node's query index (docs/api.md "Query extensions"): `entries <chain ID>` (chain-entries, or
 * search-entries with --search) and `history <FA…|EC…>` (address-history). Pages follow the node's opaque
 * cursors: `-limit` sets the page size, `-cursor` starts after a page an earlier run printed, `--all` follows
 * the cursors to the end. Without -limit, -cursor or --all, `entries` lists the whole chain (as it always
 * did) and a search or a history prints one page and the cursor of the next.
 */
import { RpcErrorCode } from "../../../src/client/errors.js";
import { isValidAddress } from "../../../src/protocol/address.js";
import type { AddressHistoryResult, ChainEntriesResult, QueryEntryJson } from "../../../src/rpc/methods.js";
import { formatAssetAmount } from "../amount.js";
import { type Context, json } from "../context.js";
import { UsageError } from "../errors.js";
import { notFound, printEntry } from "./entry.js";
import { expectHash, hexArg } from "./input.js";

/** The node's page bounds (rpc/v2/queries.ts): 1–1000 items, 100 by default. */
const MAX_LIMIT = 1000;
const DEFAULT_LIMIT = 100;

/** What one run asks for: a page size, where to start, and whether to follow the cursors to the end. */
interface Paging {
  limit: number;
  cursor?: string;
  all: boolean;
  order?: "asc" | "desc";
}

function paging(ctx: Context, allByDefault: boolean): Paging {
  const v = ctx.args.values;
  let limit = DEFAULT_LIMIT;
  const text = v.get("limit");
  if (text !== undefined) {
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > MAX_LIMIT)
      throw new UsageError(`-limit: expected a whole number from 1 to ${MAX_LIMIT}, got ${JSON.stringify(text)}`);
    limit = Number(text);
  }
  const order = v.get("order");
  if (order !== undefined && order !== "asc" && order !== "desc")
    throw new UsageError(`-order: expected asc or desc, got ${JSON.stringify(order)}`);
  const cursor = v.get("cursor");
  const paged = text !== undefined || cursor !== undefined;
  return {
    limit,
    all: ctx.args.flags.has("all") || (allByDefault && !paged),
    ...(cursor !== undefined ? { cursor } : {}),
    ...(order !== undefined ? { order } : {}),
  };
}

/** Pages of `fetch` from `p.cursor`: one page, or every page when `p.all`. */
async function pages<T extends { nextcursor: string }>(
  p: Paging,
  fetch: (cursor: string | undefined) => Promise<T>,
  take: (page: T) => void,
): Promise<string> {
  let cursor = p.cursor;
  for (;;) {
    const page = await fetch(cursor);
    take(page);
    if (!p.all || page.nextcursor === "") return page.nextcursor;
    cursor = page.nextcursor;
  }
}

/** The ext IDs of --search TEXT and --search-hex HEX, in command-line order. */
function searchExtIds(ctx: Context): string[] {
  return ctx.args.repeated
    .filter((r) => r.name === "search" || r.name === "search-hex")
    .map((r, i) =>
      r.name === "search"
        ? Buffer.from(r.value, "utf8").toString("hex")
        : Buffer.from(hexArg(r.value, `--search-hex (ext ID ${i})`)).toString("hex"),
    );
}

function printQueryEntry(ctx: Context, e: QueryEntryJson, chainid: string): void {
  printEntry(ctx, e.entryhash, { chainid: e.chainid ?? chainid, extids: e.extids, content: e.content ?? "" });
  ctx.out(`Block: ${e.dbheight} (entry block ${e.entryblockkeymr}, position ${e.position})`);
}

/** The line that tells how to get the next page. */
function nextLine(ctx: Context, next: string): void {
  if (next !== "") ctx.out(`next page: -cursor=${next}`);
}

/**
 * `entries <chain ID>`: the chain's entries from the index (chain-entries), or with --search those whose ext IDs
 * start with the given ones (search-entries; --prefix: the last one a prefix).
 */
export async function queryEntries(ctx: Context): Promise<void> {
  const chainid = expectHash(ctx.pos(0), "chain ID");
  const extids = searchExtIds(ctx);
  const prefix = ctx.args.flags.has("prefix");
  if (prefix && extids.length === 0) throw new UsageError("--prefix applies to --search: give --search TEXT");
  if (extids.length > 0 && ctx.args.values.has("order"))
    throw new UsageError("-order applies to a chain's listing, not to --search (results come oldest first)");
  const p = paging(ctx, extids.length === 0);
  const whole = extids.length === 0 && !ctx.args.flags.has("all") && p.all;
  const client = ctx.client();
  const all: QueryEntryJson[] = [];
  if (extids.length === 0 && p.cursor === undefined) {
    // an unknown chain is an error (the index answers an empty page), and entries not yet saved are named
    const head = await client
      .chainHead({ chainid })
      .catch((err: unknown) => notFound(err, RpcErrorCode.MissingChainHead, `chain ${chainid} not found on the node`));
    if (head.chainhead === "")
      ctx.warn("the chain is not yet included in a directory block; its entries appear once it is");
    else if (head.chaininprocesslist) ctx.warn("note: newer entries of this chain are not yet in a directory block");
  }
  const next = await pages<ChainEntriesResult>(
    p,
    (cursor) => {
      const c = cursor === undefined ? {} : { cursor };
      return extids.length > 0
        ? client.searchEntries({ chainid, extids, match: prefix ? "prefix" : "exact", limit: p.limit, ...c })
        : client.chainEntries({ chainid, limit: p.limit, ...c, ...(p.order ? { order: p.order } : {}) });
    },
    (page) => all.push(...page.entries),
  );
  if (ctx.args.flags.has("json")) {
    // the whole chain (no paging option, no search) keeps the array `entries --json` always printed
    const withChain = all.map((e) => ({ ...e, chainid: e.chainid ?? chainid }));
    ctx.out(json(whole ? withChain : { entries: withChain, nextcursor: next }));
    return;
  }
  if (all.length === 0 && extids.length > 0)
    ctx.warn(`no saved entry of chain ${chainid} has these ext IDs${prefix ? " (the last one as a prefix)" : ""}`);
  all.forEach((e, i) => {
    if (i > 0) ctx.out("");
    ctx.out(p.all && next === "" && p.cursor === undefined ? `Entry [${i + 1}/${all.length}]` : `Entry [${i + 1}]`);
    printQueryEntry(ctx, e, chainid);
  });
  nextLine(ctx, next);
}

const KIND_TEXT: Record<AddressHistoryResult["items"][number]["kind"], string> = {
  input: "sent",
  output: "received",
  ecpurchase: "EC bought",
  commit: "entry commit",
  chaincommit: "chain commit",
};

/** `history <FA…|EC…>`: what the saved blocks did to an address (address-history). */
export async function history(ctx: Context): Promise<void> {
  const address = ctx.pos(0);
  if (!isValidAddress(address, "FA") && !isValidAddress(address, "EC"))
    throw new UsageError(`address: expected a public FA… or EC… address, got ${JSON.stringify(address)}`);
  const p = paging(ctx, false);
  const client = ctx.client();
  const items: AddressHistoryResult["items"] = [];
  const next = await pages<AddressHistoryResult>(
    p,
    (cursor) =>
      client.addressHistory({
        address,
        limit: p.limit,
        ...(cursor === undefined ? {} : { cursor }),
        ...(p.order ? { order: p.order } : {}),
      }),
    (page) => items.push(...page.items),
  );
  if (ctx.args.flags.has("json")) {
    ctx.out(json({ items, nextcursor: next }));
    return;
  }
  if (items.length === 0 && p.cursor === undefined) ctx.warn(`no saved block names ${address}`);
  for (const it of items) {
    const amount =
      it.kind === "input" || it.kind === "output" ? `${formatAssetAmount(BigInt(it.amount))} units` : `${it.amount} EC`;
    const when = new Date(it.timestamp * 1000).toISOString().replace(".000Z", "Z");
    ctx.out(
      `${String(it.dbheight).padStart(8)}  ${when}  ${KIND_TEXT[it.kind].padEnd(12)}  ${amount.padStart(22)}  ${it.txid}`,
    );
  }
  nextLine(ctx, next);
}
