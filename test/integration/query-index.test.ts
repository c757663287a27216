// The query extensions (docs/api.md "Query extensions") against a real node process on loopback: every
// method compared with a brute-force walk of the same saved blocks through the spec's methods
// (dblock-by-height → entry-block → entry; fblock-by-height; ecblock-by-height's raw block, whose commits'
// txids are computed here); paging while
// writes go on (no gap, no duplicate); bad input refused with -32602 naming the member; the index dropped
// while the node is stopped and rebuilt from the blocks in the background after the next start (served at once,
// query methods refused with -32000 meanwhile, writes during it indexed, a kill -9 midway resumed).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { open } from "lmdb";
import WebSocket from "ws";
import { NodeClient } from "../../src/client/index.js";
import { encodeAddress, rcd1Hash } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import type {
  AddressHistoryResult,
  ChainEntriesResult,
  SearchChainsResult,
  SearchEntriesResult,
} from "../../src/rpc/methods.js";
import { QUERY_DB_NAMES } from "../../src/store/queryIndexKeys.js";
import { composeChain, composeEntry } from "../../tools/wallet/compose.js";
import { buyCredits, ecKeyOf, GENESIS_KEY } from "../support/ledgerWrites.js";
import { httpRequest, killAllNodes, LedgerdProcess, PROJECT_ROOT, RpcCallError } from "../support/nodeProcess.js";
import { allPages, entryView, extIdsMatch, type Walked, walk } from "../support/queryWalk.js";
import { waitFor } from "../support/waitFor.js";

const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const hexText = (s: string): string => toHex(text(s));

async function expectInvalid(node: LedgerdProcess, method: string, params: unknown, member: RegExp): Promise<void> {
  await assert.rejects(node.rpc(method, params), (e: unknown) => {
    assert.ok(e instanceof RpcCallError, String(e));
    assert.equal(e.code, -32602, `${method} ${JSON.stringify(params)}: ${e.message}`);
    assert.match(String(e.data), member);
    return true;
  });
}

/** The test node's pause between two rebuild steps (one height each), ms: a rebuild of its ~50 heights lasts ~20 s. */
const REBUILD_PAUSE_MS = 400;

/** The refusal every query method answers while the index is rebuilt (docs/api.md). */
async function expectRebuilding(node: LedgerdProcess, method: string, params: unknown): Promise<number> {
  let next = -1;
  await assert.rejects(node.rpc(method, params), (e: unknown) => {
    assert.ok(e instanceof RpcCallError, String(e));
    assert.equal(e.code, -32000, `${method}: ${e.message}`);
    assert.equal(e.rpcMessage, "Query index rebuilding");
    const m = /^query index rebuilding: height (\d+) of (\d+); try again later$/.exec(String(e.data));
    assert.ok(m !== null, String(e.data));
    next = Number(m[1]);
    return true;
  });
  return next;
}

/** `ledgerd verify` of a stopped node's directory: exit code and output. */
function verifyDirectory(homeDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const args = ["verify", `-homedir=${homeDir}`, "-network=LOCAL", "-q"];
    execFile(join(PROJECT_ROOT, "bin", "ledgerd"), args, { timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr });
    });
  });
}

/** Wait until the query methods answer again (the background rebuild is done). */
async function untilRebuilt(node: LedgerdProcess): Promise<void> {
  await waitFor(
    "the query index rebuilt",
    async () => {
      try {
        await node.rpc("search-chains", { extids: ["00"] });
        return true;
      } catch (e) {
        if (e instanceof RpcCallError && e.code === -32000) return undefined;
        throw e;
      }
    },
    240_000,
    200,
  );
}

describe("query extensions against a real node", () => {
  let node: LedgerdProcess;
  const ec = ecKeyOf("query-index-test");
  let appChain = "";
  const otherChains: string[] = [];
  /** entries written, in the order written */
  const written: string[] = [];

  const call = (method: string, params?: unknown) => node.rpc(method, params);
  const rpc = <T>(method: string, params?: unknown): Promise<T> => node.rpc<T>(method, params);
  // the queries several tests compare whole, every page walked
  const historyOf = (address: string, limit: number) =>
    allPages<AddressHistoryResult>(rpc, "address-history", { address, limit }, (r) => r.items);
  const invoices = () =>
    allPages<SearchEntriesResult>(
      rpc,
      "search-entries",
      { extids: [hexText("invoice")], limit: 1000 },
      (r) => r.entries,
    );
  const appChains = () =>
    allPages<SearchChainsResult>(
      rpc,
      "search-chains",
      { extids: [hexText("qtest-app")], limit: 1000 },
      (r) => r.chains,
    );
  /** Items of a query saved at or below height `h` (later blocks may have been saved since the walk). */
  const upTo = <T>(h: number, items: readonly T[]): T[] =>
    items.filter((e) => (e as { dbheight: number }).dbheight <= h);

  /** A `/live` subscription with a chain filter: refused with an `error` event whose data matches, nothing subscribed. */
  async function liveRefusal(data: RegExp): Promise<void> {
    const events: { event: string; data?: unknown }[] = [];
    const ws = new WebSocket(`ws://127.0.0.1:${node.port}/live`);
    await new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("error", reject);
    });
    ws.on("message", (d) => events.push(JSON.parse(d.toString()) as { event: string; data?: unknown }));
    ws.send(JSON.stringify({ op: "subscribe", chainid: appChain }));
    const refused = await waitFor("the /live refusal", async () => events.find((e) => e.event === "error"), 60_000, 50);
    assert.match(String(refused.data), data);
    assert.equal(events.filter((e) => e.event === "subscribed").length, 0);
    await new Promise<void>((resolve) => {
      ws.once("close", () => resolve());
      ws.close();
    });
  }

  /** The app chain's pages, ascending, 40 a page, up to height `h`, equal its entries in a walk of the saved blocks. */
  async function chainAsWalked(h: number, entries: readonly Walked[]): Promise<void> {
    const inChain = await allPages<ChainEntriesResult>(
      rpc,
      "chain-entries",
      { chainid: appChain, limit: 40 },
      (r) => r.entries,
    );
    assert.deepEqual(
      upTo(h, inChain),
      entries.filter((e) => e.chainid === appChain).map((e) => entryView(e, false)),
    );
  }

  async function newChain(extIds: string[], content: string): Promise<string> {
    const c = composeChain({
      extIds: extIds.map(text),
      content: text(content),
      ecSeed: ec.seed,
      milliTime: Date.now(),
    });
    await call("commit-chain", c.commit.params);
    await call("reveal-chain", c.reveal.params);
    written.push(c.entryHash);
    chainOf.set(c.entryHash, c.chainId);
    return c.chainId;
  }

  async function newEntry(chainId: string, extIds: string[], content: string): Promise<string> {
    const e = composeEntry({
      chainId: fromHex(chainId),
      extIds: extIds.map(text),
      content: text(content),
      ecSeed: ec.seed,
      milliTime: Date.now(),
    });
    await call("commit-entry", e.commit.params);
    await call("reveal-entry", e.reveal.params);
    written.push(e.entryHash);
    chainOf.set(e.entryHash, chainId);
    return e.entryHash;
  }

  /** chain of each entry written */
  const chainOf = new Map<string, string>();

  /**
   * Wait until the last entry written is in the query index (so in a saved block: the index commits with the
   * blocks; `entry-ack` says DBlockConfirmed already while the block's save is under way); resolves with its height.
   *
   * It is looked for among its chain's two newest entries, not only the newest: the reveal in flight when the
   * kill -9 test stops the node may have been journaled with its answer lost — never in `written`, yet saved
   * after the restart above the last entry acknowledged (writes are one at a time: at most one such entry).
   * Asking for the newest alone waited for ever whenever the kill fell in that window.
   */
  async function savedAll(): Promise<number> {
    const last = written[written.length - 1]!;
    return await waitFor(
      "the last entry indexed",
      async () => {
        const r = await node.rpc<ChainEntriesResult>("chain-entries", {
          chainid: chainOf.get(last),
          order: "desc",
          limit: 2,
          content: false,
        });
        return r.entries.find((e) => e.entryhash === last)?.dbheight;
      },
      120_000,
      100,
    );
  }

  before(async () => {
    // a rebuild waits between its steps of one height each, so the tests below see it under way (node.ts)
    node = await LedgerdProcess.start({
      blockTimeSeconds: 2,
      env: { LEDGERD_QUERY_INDEX_REBUILD_PAUSE_MS: String(REBUILD_PAUSE_MS) },
    });
    await buyCredits(call, ec, 5000);
    await waitFor(
      "entry credits bought",
      async () => {
        const b = await node.rpc<{ balance: number }>("entry-credit-balance", {
          address: encodeAddress("EC", ec.publicKey),
        });
        return b.balance >= 5000 ? true : undefined;
      },
      60_000,
      100,
    );
    appChain = await newChain(["qtest-app", "invoices", "v1"], "the invoices chain");
    for (let i = 0; i < 3; i++) otherChains.push(await newChain(["qtest-app", `other-${i}`], `chain ${i}`));
    // entries across several blocks: ext IDs with shared prefixes, an empty ext ID, a long one (past a key's 32 bytes)
    const long = "L".repeat(40);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 25; i++) {
        const n = round * 25 + i;
        await newEntry(
          appChain,
          ["invoice", `n-${String(n).padStart(3, "0")}`, n % 2 === 0 ? "even" : "odd"],
          `invoice ${n}`,
        );
      }
      await newEntry(otherChains[round]!, ["invoice", "n-000"], "same ext IDs in another chain");
      await newEntry(otherChains[round]!, ["", `${long}${round}`], "empty and long ext IDs");
      await newEntry(otherChains[round]!, [], "no ext IDs");
      await savedAll();
    }
  });

  after(async () => {
    await node?.stop();
    node?.cleanup();
    await killAllNodes();
  });

  it("chain-entries pages equal the chain's entries walked block by block, ascending and descending", async () => {
    const height = await savedAll();
    const { entries } = await walk(rpc, height);
    const expected = entries.filter((e) => e.chainid === appChain).map((e) => entryView(e, false));
    assert.equal(expected.length, 76);
    for (const limit of [1, 7, 100]) {
      const asc = await allPages<ChainEntriesResult>(
        rpc,
        "chain-entries",
        { chainid: appChain, limit },
        (r) => r.entries,
      );
      assert.deepEqual(asc, expected, `asc, limit ${limit}`);
    }
    const desc = await allPages<ChainEntriesResult>(
      rpc,
      "chain-entries",
      { chainid: appChain, limit: 10, order: "desc" },
      (r) => r.entries,
    );
    assert.deepEqual(desc, [...expected].reverse());
    // the client library's wrappers page the same
    const client = new NodeClient({ url: `http://127.0.0.1:${node.port}` });
    try {
      const viaClient: unknown[] = [];
      for await (const page of client.pages("chain-entries", { chainid: appChain, limit: 30 }))
        viaClient.push(...page.entries);
      assert.deepEqual(viaClient, expected);
      const first = await client.chainEntries({ chainid: appChain, limit: 1, order: "desc" });
      assert.deepEqual(first.entries, [expected[expected.length - 1]]);
    } finally {
      client.close();
    }
    const bare = await node.rpc<ChainEntriesResult>("chain-entries", { chainid: appChain, limit: 2, content: false });
    assert.equal("content" in bare.entries[0]!, false);
    const none = await node.rpc<ChainEntriesResult>("chain-entries", { chainid: "ab".repeat(32) });
    assert.deepEqual(none, { entries: [], nextcursor: "", resumecursor: "" });
  });

  it("search-entries and search-chains equal a full scan of the saved entries", async () => {
    const height = await savedAll();
    const { entries } = await walk(rpc, height);
    const cases: { extids: string[]; match: "exact" | "prefix"; chainid?: string }[] = [
      { extids: ["invoice"], match: "exact" },
      { extids: ["invoice", "n-00"], match: "prefix" },
      { extids: ["invoice", "n-000"], match: "exact" },
      { extids: ["invoice", "n-000"], match: "exact", chainid: appChain },
      { extids: ["invoice", "n-0", "ev"], match: "exact" },
      { extids: ["invoice", "n-010", "ev"], match: "prefix" },
      { extids: ["invoice", "n-010", "even"], match: "exact" },
      { extids: [""], match: "exact" },
      { extids: ["", "L".repeat(40)], match: "prefix" },
      { extids: ["", `${"L".repeat(40)}1`], match: "exact" },
      { extids: ["qtest-app"], match: "exact" },
      { extids: ["qtest-app", "oth"], match: "prefix" },
      { extids: ["no such ext id"], match: "prefix" },
    ];
    for (const c of cases) {
      const wanted = c.extids.map(hexText);
      const expected = entries
        .filter((e) => extIdsMatch(e.extids, wanted, c.match) && (c.chainid === undefined || e.chainid === c.chainid))
        .map((e) => entryView(e, true));
      const params = { extids: wanted, match: c.match, ...(c.chainid ? { chainid: c.chainid } : {}), limit: 4 };
      const got = await allPages<SearchEntriesResult>(rpc, "search-entries", params, (r) => r.entries);
      // exact matches come in ledger order; prefix matches ordered by the ext ID, then ledger order
      const key = (x: unknown) => (x as { entryhash: string }).entryhash;
      if (c.match === "exact") assert.deepEqual(got, expected, JSON.stringify(c));
      else
        assert.deepEqual(
          [...got].sort((a, b) => key(a).localeCompare(key(b))),
          [...expected].sort((a, b) => key(a).localeCompare(key(b))),
          JSON.stringify(c),
        );

      const chains = entries
        .filter((e) => e.first && extIdsMatch(e.extids, wanted, c.match))
        .map((e) => ({
          chainid: e.chainid,
          extids: e.extids,
          firstentryhash: e.entryhash,
          dbheight: e.dbheight,
          entrycount: entries.filter((x) => x.chainid === e.chainid).length,
        }));
      const gotChains = await allPages<SearchChainsResult>(
        rpc,
        "search-chains",
        { extids: wanted, match: c.match, limit: 2 },
        (r) => r.chains,
      );
      const ck = (x: unknown) => (x as { chainid: string }).chainid;
      assert.deepEqual(
        [...gotChains].sort((a, b) => ck(a).localeCompare(ck(b))),
        [...chains].sort((a, b) => ck(a).localeCompare(ck(b))),
        `chains ${JSON.stringify(c)}`,
      );
    }
  });

  it("address-history equals a scan of every asset and EC block", async () => {
    const height = await savedAll();
    const { addresses } = await walk(rpc, height);
    const fa = encodeAddress("FA", rcd1Hash(GENESIS_KEY.publicKey));
    const ecAddress = encodeAddress("EC", ec.publicKey);
    for (const address of [fa, ecAddress]) {
      const expected = addresses.get(address) ?? [];
      assert.ok(expected.length > 0, address);
      const got = await allPages<AddressHistoryResult>(rpc, "address-history", { address, limit: 9 }, (r) => r.items);
      assert.deepEqual(got, expected, address);
      const desc = await allPages<AddressHistoryResult>(
        rpc,
        "address-history",
        { address, limit: 5, order: "desc" },
        (r) => r.items,
      );
      assert.deepEqual(desc, [...got].reverse());
    }
  });

  it("refuses bad input with -32602 naming the member", async () => {
    const page = await node.rpc<ChainEntriesResult>("chain-entries", { chainid: appChain, limit: 1 });
    const cursor = page.nextcursor;
    assert.notEqual(cursor, "");
    await expectInvalid(node, "chain-entries", { chainid: appChain, order: "sideways" }, /^order:/);
    await expectInvalid(node, "chain-entries", { chainid: appChain, limit: 0 }, /^limit:/);
    await expectInvalid(node, "chain-entries", { chainid: appChain, limit: 1001 }, /^limit:/);
    await expectInvalid(node, "chain-entries", { chainid: appChain, cursor: "%%%" }, /^cursor: malformed/);
    await expectInvalid(node, "chain-entries", { chainid: appChain, cursor: "AAAA" }, /^cursor: malformed/);
    await expectInvalid(node, "chain-entries", { chainid: appChain, cursor, order: "desc" }, /^cursor: made for order/);
    await expectInvalid(
      node,
      "chain-entries",
      { chainid: otherChains[0], cursor },
      /^cursor: it was made for another query/,
    );
    await expectInvalid(
      node,
      "search-entries",
      { extids: [hexText("invoice")], cursor },
      /^cursor: a cursor of chain-entries/,
    );
    // cursors of the index's layout 1 (version byte 1): chain-entries' name the same position and still page,
    // search-entries' positions are gone and are refused (docs/api.md §5.8)
    const v1 = Buffer.from(cursor, "base64url");
    v1[0] = 1;
    const again = await node.rpc<ChainEntriesResult>("chain-entries", {
      chainid: appChain,
      limit: 1,
      cursor: v1.toString("base64url"),
    });
    const fromCurrent = await node.rpc<ChainEntriesResult>("chain-entries", { chainid: appChain, limit: 1, cursor });
    assert.deepEqual(again.entries, fromCurrent.entries);
    const search = await node.rpc<SearchEntriesResult>("search-entries", { extids: [hexText("invoice")], limit: 1 });
    const oldSearch = Buffer.from(search.nextcursor, "base64url");
    oldSearch[0] = 1;
    await expectInvalid(
      node,
      "search-entries",
      { extids: [hexText("invoice")], cursor: oldSearch.toString("base64url") },
      /^cursor: made by an earlier layout of this node's query index/,
    );
    await expectInvalid(node, "search-entries", { extids: [] }, /^extids:/);
    await expectInvalid(node, "search-entries", { extids: ["zz"] }, /^extids\[0\]:/);
    await expectInvalid(node, "search-entries", { extids: [hexText("a")], match: "fuzzy" }, /^match:/);
    await expectInvalid(node, "search-chains", { extids: "61" }, /^extids:/);
    await expectInvalid(node, "address-history", { address: "FA1234" }, /^address:/);
    await expectInvalid(node, "address-history", {}, /^address:/);
    await expectInvalid(node, "chain-entries", {}, /^chainid:/);
  });

  it("pages a chain while writes go on: every entry once, in order, no gap", async () => {
    const chain = await newChain(["qtest-live", "paging"], "paged while written");
    const writing = (async () => {
      for (let i = 0; i < 60; i++) await newEntry(chain, ["live", String(i)], `live ${i}`);
    })();
    const seen: string[] = [];
    let cursor = "";
    let done = false;
    void writing.then(() => {
      done = true;
    });
    // page with a small limit as blocks are saved; at the end of the range go on later from resumecursor
    await waitFor(
      "every entry paged",
      async () => {
        const r = await node.rpc<ChainEntriesResult>("chain-entries", {
          chainid: chain,
          limit: 3,
          cursor,
          content: false,
        });
        for (const e of r.entries) seen.push(e.entryhash);
        cursor = r.nextcursor !== "" ? r.nextcursor : r.resumecursor;
        return done && seen.length === 61 ? true : undefined;
      },
      180_000,
      100,
    ).catch(async (e) => {
      await writing;
      throw e;
    });
    await writing;
    await savedAll();
    const all = (
      await allPages<ChainEntriesResult>(
        rpc,
        "chain-entries",
        { chainid: chain, limit: 1000, content: false },
        (r) => r.entries,
      )
    ).map((e) => (e as { entryhash: string }).entryhash);
    assert.equal(new Set(seen).size, seen.length, "no entry twice");
    assert.deepEqual(seen, all);
  });

  it("a kill -9 while blocks are saved leaves the index and the blocks consistent", async () => {
    const chain = await newChain(["qtest-crash"], "written through a kill -9");
    const heightOf = async (): Promise<number> =>
      (await node.rpc<{ directoryblockheight: number }>("heights")).directoryblockheight;
    const start = await heightOf();
    let stop = false;
    const writing = (async () => {
      for (let i = 0; !stop; i++) {
        try {
          await newEntry(chain, ["crash", String(i)], `entry ${i}`);
        } catch {
          return; // the node is gone
        }
      }
    })();
    await waitFor(
      "blocks saved while writing",
      async () => ((await heightOf()) >= start + 3 ? true : undefined),
      120_000,
      100,
    );
    await node.kill9();
    stop = true;
    await writing;
    await node.restart();
    // once height h + 2 is open, h is saved (a close waits for the previous save), and so indexed with it
    const h = await heightOf();
    await waitFor("two more blocks", async () => ((await heightOf()) >= h + 2 ? true : undefined), 120_000, 100);
    const { entries, addresses } = await walk(rpc, h);
    const expected = entries.filter((e) => e.chainid === chain).map((e) => entryView(e, false));
    assert.ok(expected.length > 1);
    const got = await allPages<ChainEntriesResult>(
      rpc,
      "chain-entries",
      { chainid: chain, limit: 50 },
      (r) => r.entries,
    );
    assert.deepEqual(upTo(h, got), expected);
    const ecAddress = encodeAddress("EC", ec.publicKey);
    assert.deepEqual(upTo(h, await historyOf(ecAddress, 200)), addresses.get(ecAddress));
  });

  it("rebuilds an index dropped while the node is stopped, equal to the one it kept", async () => {
    await savedAll();
    const before = await invoices();
    const history = await historyOf(encodeAddress("EC", ec.publicKey), 1000);
    const chains = await appChains();
    await node.stop();
    const dir = join(node.homeDir, "local", "db");
    const env = open({ path: dir, maxDbs: 30, keyEncoding: "binary", encoding: "binary" });
    for (const name of Object.values(QUERY_DB_NAMES))
      await env.openDB({ name, keyEncoding: "binary", encoding: "binary" }).drop();
    await env.openDB({ name: "meta", keyEncoding: "binary", encoding: "binary" }).remove(Buffer.from("queryIndex"));
    await env.close();
    await node.restart();
    assert.match(node.tail(20_000), /query index rebuilding in the background from height 0 to \d+/);
    await untilRebuilt(node);
    assert.match(node.tail(20_000), /query index rebuilt: \d+ heights, \d+ entries/);
    assert.deepEqual(await invoices(), before);
    assert.deepEqual(await historyOf(encodeAddress("EC", ec.publicKey), 1000), history);
    assert.deepEqual(await appChains(), chains);
  });
  it("an index of layout 1 is rebuilt in the background: served at once, queries refused, writes indexed, kill -9 resumed", async () => {
    await savedAll();
    const heightOf = async (): Promise<number> =>
      (await node.rpc<{ directoryblockheight: number }>("heights")).directoryblockheight;
    const ecAddress = encodeAddress("EC", ec.publicKey);
    await node.stop();
    // what an upgrade finds: the marker of layout 1 (QUERY_INDEX_VERSION 1) and a record of that layout
    const dir = join(node.homeDir, "local", "db");
    const env = open({ path: dir, maxDbs: 30, keyEncoding: "binary", encoding: "binary" });
    const marker = Buffer.alloc(8);
    marker.writeUInt32BE(1, 0);
    marker.writeUInt32BE(5, 4);
    await env
      .openDB({ name: "meta", keyEncoding: "binary", encoding: "binary" })
      .put(Buffer.from("queryIndex"), marker);
    await env
      .openDB({ name: "qChainEntries", keyEncoding: "binary", encoding: "binary" })
      .put(Buffer.concat([fromHex(appChain), Buffer.from([0, 0, 0, 2, 0, 0, 0, 1])]), Buffer.alloc(72, 0x11));
    await env.close();

    await node.restart();
    // served at once: restart() returned on `heights`; every query method refuses, naming the rebuild
    const saved = await heightOf();
    assert.match(node.tail(20_000), /query index rebuilding in the background from height 0 to \d+/);
    await expectRebuilding(node, "chain-entries", { chainid: appChain, order: "desc" });
    await expectRebuilding(node, "search-entries", { extids: [hexText("invoice")] });
    await expectRebuilding(node, "search-chains", { extids: [hexText("qtest-app")] });
    await expectRebuilding(node, "address-history", { address: ecAddress });
    // the operator's view: the gauges and /debug summary say how far it is
    const metrics = await httpRequest(node.port, { method: "GET", path: "/metrics" });
    assert.equal(metrics.status, 200, metrics.text);
    assert.match(metrics.text, /^ledgerd_query_index_rebuilding 1$/m);
    assert.ok(Number(/^ledgerd_query_index_heights_behind (\d+)$/m.exec(metrics.text)?.[1]) > 0, metrics.text);
    const summary = await node.rpc<{ Summary: string }>("summary", undefined, "debug");
    assert.match(summary.Summary, /queryindex rebuilding height=\d+ of=\d+/);
    // a /live subscription with a query filter is refused the same way (an `error` event, nothing subscribed)
    await liveRefusal(/^query index rebuilding: height \d+ of \d+; try again later$/);
    // the spec's own reads are served meanwhile
    const first = await node.rpc<{ chainid: string }>("entry", { hash: written[0] });
    assert.equal(first.chainid, chainOf.get(written[0]!));

    // a write during the rebuild: its block is saved (the save leaves its height to the rebuild)
    const during = await newEntry(appChain, ["invoice", "during-rebuild"], "written while the index is rebuilt");
    await waitFor(
      "the write's block saved",
      async () => ((await heightOf()) >= saved + 2 ? true : undefined),
      120_000,
      100,
    );
    // kill -9 once the rebuild has committed steps past height 0, and while it is still under way
    const reached = await waitFor(
      "the rebuild past height 0",
      async () => {
        const next = await expectRebuilding(node, "search-chains", { extids: [hexText("qtest-app")] });
        return next > 0 ? next : undefined;
      },
      120_000,
      100,
    );
    await node.kill9();
    await node.restart();
    // the marker survived the kill: the rebuild resumes, not from 0
    const starts = [
      ...node.tail(20_000).matchAll(/query index rebuilding in the background from height (\d+) to (\d+)/g),
    ];
    const resumed = starts.at(-1);
    assert.ok(resumed !== undefined && starts.length >= 2, node.tail(4_000));
    assert.ok(Number(resumed[1]) >= reached, `resumed at ${resumed[1]}, had reached ${reached}`);
    await untilRebuilt(node);
    const after = await httpRequest(node.port, { method: "GET", path: "/metrics" });
    assert.match(after.text, /^ledgerd_query_index_rebuilding 0$/m);
    assert.match(after.text, /^ledgerd_query_index_heights_behind 0$/m);
    assert.doesNotMatch((await node.rpc<{ Summary: string }>("summary", undefined, "debug")).Summary, /queryindex/);
    // the write made during the rebuild is indexed (savedAll polls chain-entries for the last entry written)
    await savedAll();

    // the rebuilt index answers what a brute-force walk of the saved blocks finds, the write included
    const h = await heightOf();
    const { entries, addresses } = await walk(rpc, h);
    assert.ok(entries.some((e) => e.entryhash === during));
    await chainAsWalked(h, entries);
    const desc = await allPages<ChainEntriesResult>(
      rpc,
      "chain-entries",
      { chainid: appChain, order: "desc", limit: 40 },
      (r) => r.entries,
    );
    assert.deepEqual(
      upTo(h, desc),
      entries
        .filter((e) => e.chainid === appChain)
        .map((e) => entryView(e, false))
        .reverse(),
    );
    const found = await invoices();
    assert.deepEqual(
      upTo(h, found)
        .map((e) => (e as { entryhash: string }).entryhash)
        .sort(),
      entries
        .filter((e) => extIdsMatch(e.extids, [hexText("invoice")], "exact"))
        .map((e) => e.entryhash)
        .sort(),
    );
    assert.deepEqual(upTo(h, await historyOf(ecAddress, 200)), addresses.get(ecAddress));
  });

  it("-queryindex=false ([App] QueryIndex): queries and the feed's filters refused, saves skip the index, verify passes, on again the rest is indexed", async () => {
    await untilRebuilt(node);
    await savedAll();
    const heightOf = async (): Promise<number> =>
      (await node.rpc<{ directoryblockheight: number }>("heights")).directoryblockheight;
    const ecAddress = encodeAddress("EC", ec.publicKey);
    const conf = join(node.homeDir, "ledgerd.conf");
    const original = readFileSync(conf, "utf8");
    await node.stop();
    writeFileSync(conf, `${original.trimEnd()}\nQueryIndex = false\n`);
    await node.restart();

    // every query method refuses, naming the setting; the spec's reads are served
    const calls: [string, unknown][] = [
      ["chain-entries", { chainid: appChain }],
      ["search-entries", { extids: [hexText("invoice")] }],
      ["search-chains", { extids: [hexText("qtest-app")] }],
      ["address-history", { address: ecAddress }],
    ];
    for (const [method, params] of calls)
      await assert.rejects(node.rpc(method, params), (e: unknown) => {
        assert.ok(e instanceof RpcCallError, String(e));
        assert.equal(e.code, -32000, `${method}: ${e.message}`);
        assert.equal(e.rpcMessage, "Query index unavailable");
        assert.match(String(e.data), /-queryindex=false, \[App\] QueryIndex/);
        return true;
      });
    const first = await node.rpc<{ chainid: string }>("entry", { hash: written[0] });
    assert.equal(first.chainid, chainOf.get(written[0]!));
    // no index gauges: there is no index to report on
    const metrics = await httpRequest(node.port, { method: "GET", path: "/metrics" });
    assert.equal(metrics.status, 200, metrics.text);
    assert.doesNotMatch(metrics.text, /^ledgerd_query_index_/m);
    // a /live subscription with a query filter is refused the same way
    await liveRefusal(/^chainid\/extids\/address: this node keeps no query index/);

    // writes go on and their blocks are saved, without index records
    const saved = await heightOf();
    const off = await newEntry(appChain, ["invoice", "index-off"], "written while the index is off");
    await waitFor(
      "the write's block saved",
      async () => ((await heightOf()) >= saved + 2 ? true : undefined),
      120_000,
      100,
    );
    const stoppedAt = await heightOf();
    await node.stop();

    // the directory verifies clean: the index checked as far as it goes, the heights it lacks named
    const v = await verifyDirectory(node.homeDir);
    assert.equal(v.code, 0, `${v.stdout}\n${v.stderr}`);
    assert.match(v.stdout, /is clean: heights 0\.\.\d+/);
    const lacks = /the query index holds heights 0\.\.(\d+) \(checked\); (\d+) heights are not indexed yet/.exec(
      v.stdout,
    );
    assert.ok(lacks !== null, v.stdout);
    assert.ok(Number(lacks[1]) <= saved && Number(lacks[2]) >= stoppedAt - saved, v.stdout);

    // on again: the rebuild starts where the index stopped, not at 0, and the write made meanwhile is indexed
    writeFileSync(conf, original);
    const startsBefore = [...node.tail(200_000).matchAll(/query index rebuilding in the background from height (\d+)/g)]
      .length;
    await node.restart();
    const starts = [...node.tail(200_000).matchAll(/query index rebuilding in the background from height (\d+)/g)];
    assert.equal(starts.length, startsBefore + 1, node.tail(4_000));
    assert.equal(Number(starts.at(-1)![1]), Number(lacks[1]) + 1);
    await untilRebuilt(node);
    await savedAll();
    const h = await heightOf();
    const { entries } = await walk(rpc, h);
    assert.ok(entries.some((e) => e.entryhash === off));
    await chainAsWalked(h, entries);
  });
});
