// Query-then-subscribe on /live (docs/api.md, "Live event feed"): a client pages a query extension to its end,
// subscribes with the query's filter and `resumecursor` while entries keep being written (writes racing the
// switch), drops its connection midway and subscribes again with the last `match` cursor it got. What it
// collected — the query's pages, then the `match` events of both connections — must be every item of the same
// query read afresh at the end, once each, in order; and for the chain, exactly the entries written.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";
import { type LiveEvent, subscribe } from "../../src/client/liveClient.js";
import { encodeAddress } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import type { AddressHistoryResult, ChainEntriesResult } from "../../src/rpc/methods.js";
import { addEntry, buyCredits, createChain, ecKeyOf, type RpcCall } from "../support/ledgerWrites.js";
import { LedgerdProcess } from "../support/nodeProcess.js";
import { waitFor, waitUntil } from "../support/waitFor.js";

type Event = { event: string; [k: string]: unknown };

/** A /live connection collecting every event. */
class Feed {
  readonly events: Event[] = [];
  readonly ws: WebSocket;
  readonly opened: Promise<void>;

  constructor(port: number) {
    this.ws = new WebSocket(`ws://127.0.0.1:${port}/live`);
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("error", reject);
    });
    this.ws.on("message", (d) => this.events.push(JSON.parse(d.toString()) as Event));
  }

  send(o: unknown): void {
    this.ws.send(JSON.stringify(o));
  }

  matches(): Event[] {
    return this.events.filter((e) => e.event === "match");
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.ws.once("close", () => resolve());
      this.ws.close();
    });
  }
}

/** What identifies an item of each query. */
const keyOf = (item: unknown): string => {
  const o = item as { entryhash?: string; txid?: string; kind?: string };
  return o.entryhash ?? `${o.kind}:${o.txid}`;
};

interface Scenario {
  name: string;
  /** the subscribe members of the query (without cursor) */
  filter: Record<string, unknown>;
  method: string;
  /** the query's params (without cursor and limit) */
  params: Record<string, unknown>;
  items: (page: unknown) => unknown[];
}

describe("query-then-subscribe on /live, with writes racing the switch", () => {
  let node: LedgerdProcess;
  const call: RpcCall = (m, p) => node.rpc(m, p);
  const ec = ecKeyOf("live-query-test");
  let chainId = "";
  let otherChain = "";
  const writtenToChain: string[] = [];
  let writing = true;
  let writer: Promise<void> = Promise.resolve();

  before(async () => {
    node = await LedgerdProcess.start({ blockTimeSeconds: 2 });
    await buyCredits(call, ec, 2000);
    await waitUntil(
      "entry credits bought",
      async () =>
        ((await call("entry-credit-balance", { address: encodeAddress("EC", ec.publicKey) })) as { balance: number })
          .balance >= 2000,
      60_000,
    );
    const c = await createChain(call, ec, `live-query ${Date.now()}`);
    chainId = c.chainId;
    writtenToChain.push(c.entryHash);
    otherChain = (await createChain(call, ec, `live-query other ${Date.now()}`)).chainId;
    // some history before any query, then a writer that goes on through the queries, subscriptions and reconnects
    for (let i = 0; i < 10; i++)
      writtenToChain.push((await addEntry(call, ec, chainId, `early ${i}`, { extIds: ["lq", `doc-${i}`] })).entryHash);
    await waitUntil(
      "the early entries saved",
      async () =>
        ((await call("chain-entries", { chainid: chainId, content: false })) as ChainEntriesResult).entries.length ===
        writtenToChain.length,
      120_000,
    );
    writer = (async () => {
      for (let n = 10; writing && n < 400; n++) {
        writtenToChain.push((await addEntry(call, ec, chainId, `doc ${n}`, { extIds: ["lq", `doc-${n}`] })).entryHash);
        if (n % 3 === 0) await addEntry(call, ec, otherChain, `other ${n}`, { extIds: ["lq", `other-${n}`] });
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
  });

  after(async () => {
    writing = false;
    await writer.catch(() => undefined);
    await node?.stop();
    node?.cleanup();
  });

  async function scenario(s: Scenario): Promise<{ collected: string[]; last: string }> {
    // 1. the query, paged to its end while the writer goes on
    const collected: string[] = [];
    let cursor = "";
    for (;;) {
      const page = (await call(s.method, { ...s.params, cursor, limit: 7 })) as {
        nextcursor: string;
        resumecursor: string;
      };
      collected.push(...s.items(page).map(keyOf));
      if (page.nextcursor === "") {
        cursor = page.resumecursor;
        break;
      }
      cursor = page.nextcursor;
    }
    assert.ok(collected.length > 0, `${s.name}: the query found history`);
    queried.set(s.name, collected.length);
    // 2. subscribe from that cursor; take some matches; drop the connection; 3. subscribe again from the last cursor
    let last = cursor;
    for (const round of [0, 1]) {
      const feed = new Feed(node.port);
      await feed.opened;
      feed.send({ op: "subscribe", ...s.filter, cursor: last });
      const want = round === 0 ? 8 : 12;
      await waitFor(
        `${s.name}: ${want} matches in round ${round}`,
        () => (feed.matches().length >= want ? true : undefined),
        120_000,
      );
      const subscribed = feed.events.find((e) => e.event === "subscribed");
      assert.equal(subscribed?.query, s.method);
      assert.equal(feed.events.filter((e) => e.event === "error").length, 0, JSON.stringify(feed.events));
      await feed.close();
      for (const m of feed.matches()) {
        assert.equal(m.method, s.method);
        collected.push(keyOf(m.item));
        last = m.cursor as string;
      }
    }
    return { collected, last };
  }

  const scenarios: Scenario[] = [];
  /** items the query itself answered, per scenario */
  const queried = new Map<string, number>();
  const results = new Map<string, { collected: string[]; last: string }>();

  it("each query continues on /live from its cursor, across a reconnect, while writes go on", async () => {
    scenarios.push(
      {
        name: "chain-entries",
        filter: { chainid: chainId },
        method: "chain-entries",
        params: { chainid: chainId, content: false },
        items: (p) => (p as ChainEntriesResult).entries,
      },
      {
        name: "search-entries",
        filter: { extids: [toHex(new TextEncoder().encode("lq"))], match: "exact" },
        method: "search-entries",
        params: { extids: [toHex(new TextEncoder().encode("lq"))], match: "exact", content: false },
        items: (p) => (p as ChainEntriesResult).entries,
      },
      {
        name: "address-history",
        filter: { address: encodeAddress("EC", ec.publicKey) },
        method: "address-history",
        params: { address: encodeAddress("EC", ec.publicKey) },
        items: (p) => (p as AddressHistoryResult).items,
      },
    );
    const runs = await Promise.all(scenarios.map((s) => scenario(s)));
    for (const [i, s] of scenarios.entries()) results.set(s.name, runs[i]!);
  });

  it("after the writes stop: collected = the query read afresh, once each, in order; the chain = what was written", async (t) => {
    writing = false;
    await writer;
    const lastWritten = writtenToChain[writtenToChain.length - 1]!;
    await waitFor(
      "the last entry saved and indexed",
      async () => {
        const r = (await call("chain-entries", {
          chainid: chainId,
          order: "desc",
          limit: 1,
          content: false,
        })) as ChainEntriesResult;
        return r.entries[0]?.entryhash === lastWritten ? true : undefined;
      },
      120_000,
    );
    for (const s of scenarios) {
      const { collected, last } = results.get(s.name)!;
      // a third connection from the last cursor brings the rest (up to `caughtup`)
      const feed = new Feed(node.port);
      await feed.opened;
      feed.send({ op: "subscribe", ...s.filter, cursor: last });
      await waitFor(
        `${s.name}: caught up`,
        () => (feed.events.some((e) => e.event === "caughtup") ? true : undefined),
        120_000,
      );
      await feed.close();
      collected.push(...feed.matches().map((m) => keyOf(m.item)));
      const fresh: string[] = [];
      let cursor = "";
      do {
        const page = (await call(s.method, { ...s.params, cursor, limit: 1000 })) as { nextcursor: string };
        fresh.push(...s.items(page).map(keyOf));
        cursor = page.nextcursor;
      } while (cursor !== "");
      assert.equal(new Set(collected).size, collected.length, `${s.name}: an item came twice`);
      assert.deepEqual(collected, fresh, `${s.name}: gap or reordering`);
      t.diagnostic(
        `${s.name}: ${fresh.length} items = ${queried.get(s.name)} by the query + ${collected.length - queried.get(s.name)!} by match events over 3 connections`,
      );
    }
    assert.deepEqual(
      results.get("chain-entries")?.collected,
      writtenToChain,
      "the chain's entries are exactly those written",
    );
  });

  it("a bad query subscription is refused with an error naming the member, and subscribes nothing", async () => {
    const chainCursor = ((await call("chain-entries", { chainid: chainId, limit: 1 })) as ChainEntriesResult)
      .nextcursor;
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ chainid: "zz" }, /chainid/],
      [{ chainid: chainId, cursor: "!!" }, /cursor: malformed/],
      [
        { extids: [toHex(new TextEncoder().encode("lq"))], cursor: chainCursor },
        /cursor: a cursor of chain-entries, not of search-entries/,
      ],
      [{ extids: ["6c71"], match: "fuzzy" }, /match/],
      [{ address: "FA-nope" }, /address/],
      [{ address: encodeAddress("EC", ec.publicKey), chainid: chainId }, /chainid: not with address/],
      [{ cursor: chainCursor }, /cursor: only with chainid, extids or address/],
      [{ chainid: chainId, match: "exact" }, /match: only with extids/],
    ];
    for (const [members, data] of cases) {
      const feed = new Feed(node.port);
      await feed.opened;
      feed.send({ op: "subscribe", ...members });
      const err = await waitFor(`error for ${JSON.stringify(members)}`, () =>
        feed.events.find((e) => e.event === "error"),
      );
      assert.match(String(err.data), data);
      assert.equal(feed.events.filter((e) => e.event === "subscribed").length, 0);
      await feed.close();
    }
  });

  it("the client library's query subscription: every item of the chain, then caughtup, its cursor kept", async () => {
    const events: LiveEvent[] = [];
    const handle = subscribe({ url: node.url }, { query: { chainid: chainId } }, { onEvent: (e) => events.push(e) });
    try {
      const caught = await waitFor("caughtup", () => events.find((e) => e.event === "caughtup"), 120_000);
      const fresh = (
        (await call("chain-entries", { chainid: chainId, limit: 1000, content: false })) as ChainEntriesResult
      ).entries.map((e) => e.entryhash);
      assert.deepEqual(
        events.filter((e) => e.event === "match").map((e) => keyOf(e.item)),
        fresh,
      );
      assert.equal(handle.cursor, caught.cursor);
    } finally {
      handle.close();
    }
  });
});
