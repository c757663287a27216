/**
 * Query-then-subscribe on the live feed (docs/api.md, "Live event feed"): a subscription with the filters of a
 * query extension — `chainid` (chain-entries), `extids` + `match` (+ `chainid`) (search-entries), `address`
 * (address-history) — and a `cursor` that query answered continues from exactly there.
 *
 * The feed does not keep its own notion of "a match": it runs the query methods themselves (v2/queries.ts),
 * one item per call from the subscription's cursor, whenever a block is saved (and once a second, in case the
 * index shows a block a moment after the save is announced). Each `match` event carries the cursor just past
 * its item, so a client that reconnects with the last cursor it received gets every later match once, in the
 * index's order (height, then place), with no gap — the guarantee the query's cursors already give.
 */
import type { QueryIndexApi } from "../../ledger/api.js";
import { RpcCode, RpcError } from "../errors.js";
import type { AddressHistoryResult, ChainEntriesResult } from "../methods.js";
import { addressHistory, chainEntries, NO_QUERY_INDEX, type QueryContext, searchEntries } from "../v2/queries.js";
import { FeedRequestError, type QueryFilter, type SubscribedQueryMethod } from "./request.js";

/** One page of at most one item, as the feed sends it. */
interface OneItem {
  item: unknown;
  nextcursor: string;
  resumecursor: string;
}

/** The running query of one connection. */
export class QuerySubscription {
  /** past the last item sent ("" while nothing was read and no cursor was given) */
  cursor: string;
  /** a pump is under way (feed.ts); `again` asks it for one more pass when it ends */
  running = false;
  again = false;
  /** the `caughtup` event was sent */
  synced = false;

  constructor(
    readonly filter: QueryFilter,
    private readonly ctx: QueryContext,
  ) {
    this.cursor = filter.cursor;
  }

  get method(): SubscribedQueryMethod {
    return this.filter.method;
  }

  /**
   * The item after `cursor` (ascending), with the cursors past it.
   * @throws FeedRequestError with the method's -32602 `data` (a bad filter or cursor): the request's fault
   */
  next(): OneItem {
    const params = { ...this.filter.params, cursor: this.cursor, limit: 1 };
    try {
      switch (this.filter.method) {
        case "chain-entries":
          return oneOf(chainEntries(params, this.ctx), (r) => r.entries);
        case "search-entries":
          return oneOf(searchEntries(params, this.ctx), (r) => r.entries);
        case "address-history":
          return oneOf(addressHistory(params, this.ctx), (r) => r.items);
      }
    } catch (e) {
      // `data` alone for a refusal of the node's (the index rebuilding), as the -32602 ones carry theirs
      if (e instanceof RpcError)
        throw new FeedRequestError(e.code === RpcCode.ServerError && typeof e.data === "string" ? e.data : e.message);
      throw e;
    }
  }
}

function oneOf<R extends ChainEntriesResult | AddressHistoryResult>(
  r: R,
  items: (r: R) => readonly unknown[],
): OneItem {
  return { item: items(r)[0], nextcursor: r.nextcursor, resumecursor: r.resumecursor };
}

/** A subscription of `filter` over `queries`; undefined `queries`: this node keeps no query index. */
export function openQuery(
  filter: QueryFilter,
  queries: QueryIndexApi | undefined,
  ledger: QueryContext["ledger"],
): QuerySubscription {
  if (queries === undefined) throw new FeedRequestError(`chainid/extids/address: ${NO_QUERY_INDEX}`);
  const sub = new QuerySubscription(filter, { queries, ledger });
  // a bad filter or cursor is refused now, before `subscribed`, not at the next block
  sub.next();
  return sub;
}
