// The live event feed (/live, docs/api.md "Live event feed") against the real node: block events without
// subscribing; entry, transaction and status events in order (acknowledged, then confirmed); resume from a
// height; Basic auth on the upgrade; the client library's reconnect across a node restart; and consumers
// that never read, dropped with close code 4008 (the node's RSS meanwhile: make bench, budget.live.stalledRss).
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";
import { type LiveEvent, subscribe } from "../../src/client/liveClient.js";
import { chainIdFromExtIds } from "../../src/protocol/entry.js";
import { composeEntry } from "../../tools/wallet/compose.js";
import { buyCredits, createChain, ecKeyOf, type RpcCall } from "../support/ledgerWrites.js";
import { STALLED_ENTRIES, STALLED_ENTRY_CONTENT_BYTES, stalledConsumers } from "../support/liveConsumers.js";
import { killAllNodes, LedgerdProcess, PROJECT_ROOT } from "../support/nodeProcess.js";
import { startTestNode, type TestNode, waitFor } from "../unit/rpc/nodeHarness.js";

/** With LIVE_CAPTURE=<file>, the first event of each kind is written there (the examples of docs/api.md). */
function capture(events: LiveEvent[], only?: string): void {
  const file = process.env.LIVE_CAPTURE;
  if (file === undefined || file === "") return;
  if (only !== undefined) {
    const previous = JSON.parse(readFileSync(file, "utf8")) as Record<string, LiveEvent>;
    previous[only] = events.find((e) => e.event === only)!;
    writeFileSync(file, JSON.stringify(previous, null, 1));
    return;
  }
  const first = new Map<string, LiveEvent>();
  for (const e of events) {
    const key =
      e.event === "entry" || e.event === "transaction" || e.event === "status" ? `${e.event} ${e.status}` : e.event;
    if (!first.has(key)) first.set(key, e);
  }
  writeFileSync(file, JSON.stringify(Object.fromEntries(first), null, 1));
}

/** A WebSocket client collecting every event. */
class Collector {
  readonly events: LiveEvent[] = [];
  readonly ws: WebSocket;
  closed: { code: number; reason: string } | undefined;
  readonly opened: Promise<void>;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, { headers });
    this.opened = new Promise((resolve, reject) => {
      this.ws.once("open", () => resolve());
      this.ws.once("error", reject);
    });
    this.ws.on("message", (d) => this.events.push(JSON.parse(d.toString()) as LiveEvent));
    this.ws.on("close", (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  send(o: unknown): void {
    this.ws.send(JSON.stringify(o));
  }

  of(kind: string): LiveEvent[] {
    return this.events.filter((e) => e.event === kind);
  }

  wait(what: string, pred: (e: LiveEvent) => boolean, timeoutMs = 20_000): Promise<LiveEvent> {
    return waitFor(what, async () => this.events.find(pred), timeoutMs);
  }
}

function rpcOf(t: TestNode): RpcCall {
  return async (method, params) => {
    const r = await t.call(method, params);
    if (r.error !== undefined) throw new Error(`${method}: ${r.text}`);
    return r.result;
  };
}

describe("live feed on an in-process node", () => {
  let t: TestNode;
  let url: string;
  let call: RpcCall;
  const ec = ecKeyOf("ledgerd live feed test EC key");

  before(async () => {
    t = await startTestNode({ blockTimeSeconds: 2 });
    url = `ws://127.0.0.1:${t.node.port}/live`;
    call = rpcOf(t);
  });
  after(async () => {
    await t?.stop();
  });

  it("greets with the heights and sends block events without a subscription", async () => {
    const c = new Collector(url);
    await c.opened;
    const block = await c.wait("a block event", (e) => e.event === "block");
    assert.equal(c.events[0]?.event, "hello");
    assert.equal(typeof c.events[0]?.height, "number");
    assert.match(String(block.keymr), /^[0-9a-f]{64}$/);
    const d = (await call("dblock-by-height", { height: block.height })) as { dblock: { keymr: string } };
    assert.equal(block.keymr, d.dblock.keymr, "the event's keymr is the saved block's");
    assert.equal(c.of("entry").length + c.of("minute").length, 0, "nothing else without subscribing");
    c.ws.close();
  });

  it("entries, transactions and hash statuses arrive acknowledged, then confirmed, in order", async () => {
    const chainName = `live feed chain ${Date.now()}`;
    const chainId = Buffer.from(chainIdFromExtIds([new TextEncoder().encode(chainName)])).toString("hex");
    const c = new Collector(url);
    await c.opened;
    c.send({ op: "subscribe", addresses: [ec.publicAddress], minutes: true });
    await c.wait("subscribed", (e) => e.event === "subscribed");
    const txid = await buyCredits(call, ec, 100);
    await c.wait("the purchase confirmed", (e) => e.event === "transaction" && e.status === "DBlockConfirmed");
    const txEvents = c.of("transaction").filter((e) => e.txid === txid);
    assert.deepEqual(
      txEvents.map((e) => e.status),
      ["TransactionACK", "DBlockConfirmed"],
    );
    assert.equal((txEvents[0]!.ecoutputs as { useraddress: string }[])[0]?.useraddress, ec.publicAddress);

    c.send({ op: "subscribe", chains: [chainId], content: true });
    const created = await createChain(call, ec, chainName);
    assert.equal(created.chainId, chainId);
    // An entry whose reveal arrives before its commit: held (NotConfirmed), then acknowledged by the commit.
    const composed = await addEntryWatched(c, call, ec, chainId);
    await c.wait(
      "the entry confirmed",
      (e) => e.event === "entry" && e.entryhash === composed && e.status === "DBlockConfirmed",
    );
    const entryEvents = c.of("entry").filter((e) => e.entryhash === composed);
    assert.deepEqual(
      entryEvents.map((e) => e.status),
      ["TransactionACK", "DBlockConfirmed"],
    );
    assert.equal(entryEvents[0]?.chainid, chainId);
    assert.equal(Buffer.from(String(entryEvents[0]?.content), "hex").toString(), "second entry");
    const statuses = c
      .of("status")
      .filter((e) => e.hash === composed)
      .map((e) => e.status);
    assert.deepEqual(statuses, ["Unknown", "NotConfirmed", "TransactionACK", "DBlockConfirmed"]);
    const ack = entryEvents[0]!;
    const confirmed = entryEvents[1]!;
    assert.ok(Number(confirmed.height) >= Number(ack.height) - 1);
    const block = c.of("block").find((e) => e.height === confirmed.height);
    assert.ok(block !== undefined && Number(block.entries) >= 1, "the block event came with the confirmation");
    assert.ok(
      c.events.indexOf(block) < c.events.indexOf(confirmed),
      "the block event precedes the confirmations it carries",
    );
    const minutes = c.of("minute").map((e) => e.minute);
    assert.ok(minutes.length >= 5, `minute events: ${minutes.join(",")}`);
    for (let i = 1; i < minutes.length; i++)
      assert.equal(minutes[i], (Number(minutes[i - 1]) % 10) + 1, `minutes in order: ${minutes.join(",")}`);

    // Resume: a new connection replays the saved blocks from a height, with the confirmations it matches.
    const from = Number(confirmed.height) - 1;
    const r = new Collector(url);
    await r.opened;
    r.send({ op: "subscribe", chains: [chainId], fromheight: from });
    const resumed = await r.wait("resumed", (e) => e.event === "resumed");
    assert.equal(resumed.fromheight, from);
    const replayedBlocks = r.of("block").map((e) => Number(e.height));
    assert.deepEqual(
      replayedBlocks.slice(0, Number(resumed.toheight) - from + 1),
      Array.from({ length: Number(resumed.toheight) - from + 1 }, (_, i) => from + i),
    );
    const replayed = r.of("entry").find((e) => e.entryhash === composed);
    assert.equal(replayed?.status, "DBlockConfirmed");
    assert.equal(replayed?.height, confirmed.height);
    assert.equal(replayed?.content, undefined, "no content without asking for it");
    capture([...c.events, ...r.events]);
    c.ws.close();
    r.ws.close();
  });

  it("ledgerd-wallet watch prints the events it follows", async () => {
    const wallet = join(PROJECT_ROOT, "bin", "ledgerd-wallet");
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          wallet,
          [`-node=http://127.0.0.1:${t.node.port}`, ...args],
          { timeout: 120_000 },
          (err, stdout, stderr) =>
            resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : null, stdout, stderr }),
        );
      });
    const human = await run(["watch", "--minutes", "-count=3"]);
    assert.equal(human.code, 0, human.stderr);
    const lines = human.stdout.trim().split("\n");
    assert.equal(lines.length, 3, human.stdout);
    for (const l of lines)
      assert.match(l, /^(minute \d+ of block \d+ ended|block \d+ [0-9a-f]{64} entries=\d+ transactions=\d+)$/);
    const json = await run(["watch", "-count=1", "--json"]);
    assert.equal(json.code, 0, json.stderr);
    const events = json.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as LiveEvent);
    assert.deepEqual(
      events.map((e) => e.event),
      ["hello", "subscribed", "block"],
    );
    const bad = await run(["watch", "--chain", "xyz"]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /chain ID/);
  });

  it("answers a bad request with an error event naming the field, and keeps the connection", async () => {
    const c = new Collector(url);
    await c.opened;
    c.send({ op: "subscribe", health: true });
    const health = await c.wait("health", (x) => x.event === "health");
    assert.equal(health.healthy, true);
    capture(c.events, "health");
    c.send({ op: "subscribe", chains: ["abc"] });
    const e = await c.wait("error", (x) => x.event === "error");
    assert.match(String(e.data), /^chains\[0\]: expected a 64-character hex chain ID, got "abc"/);
    c.send({ op: "subscribe", addresses: ["FA2bad"] });
    await c.wait("second error", (x) => x.event === "error" && /addresses\[0\]/.test(String(x.data)));
    c.send({ op: "subscribe", fromheight: 1e9 });
    await c.wait("third error", (x) => x.event === "error" && /fromheight: 1000000000 is beyond/.test(String(x.data)));
    c.ws.send("not json");
    await c.wait("fourth error", (x) => x.event === "error" && x.data === "expected a JSON object");
    assert.equal(c.closed, undefined);
    c.ws.close();
  });
});

/** Add an entry reveal-first while `c` watches its hash; resolves with the entry hash. */
async function addEntryWatched(
  c: Collector,
  call: RpcCall,
  ec: ReturnType<typeof ecKeyOf>,
  chainId: string,
): Promise<string> {
  const e = composeEntry({
    chainId: Buffer.from(chainId, "hex"),
    extIds: [],
    content: new TextEncoder().encode("second entry"),
    ecSeed: ec.seed,
    milliTime: Date.now(),
  });
  c.send({ op: "subscribe", hashes: [e.entryHash] });
  await c.wait("the hash's current status", (x) => x.event === "status" && x.hash === e.entryHash);
  await call("reveal-entry", e.reveal.params);
  await c.wait("held", (x) => x.event === "status" && x.hash === e.entryHash && x.status === "NotConfirmed");
  await call("commit-entry", e.commit.params);
  return e.entryHash;
}

describe("live feed auth", () => {
  it("the upgrade needs the API's Basic credentials when they are configured", async () => {
    const t = await startTestNode({ blockTimeSeconds: 2, config: { rpcUser: "alice", rpcPass: "s3cret" } });
    try {
      const url = `ws://127.0.0.1:${t.node.port}/live`;
      const refused = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(url);
        ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
        ws.on("open", () => reject(new Error("opened without credentials")));
        ws.on("error", () => {});
      });
      assert.equal(refused, 401);
      const c = new Collector(url, { Authorization: `Basic ${Buffer.from("alice:s3cret").toString("base64")}` });
      await c.opened;
      await c.wait("hello", (e) => e.event === "hello");
      c.ws.close();
    } finally {
      await t.stop();
    }
  });
});

describe("live feed on a node process", () => {
  after(() => killAllNodes());

  it("the client library reconnects after a restart and resumes without a gap in block heights", async () => {
    const node = await LedgerdProcess.start({ blockTimeSeconds: 1 });
    try {
      const events: LiveEvent[] = [];
      const opens: { reconnect: boolean; resumedFrom?: number }[] = [];
      const closes: { retryInMs?: number }[] = [];
      const sub = subscribe(
        { url: node.url, reconnectMs: 100 },
        {},
        { onEvent: (e) => events.push(e), onOpen: (i) => opens.push(i), onClose: (i) => closes.push(i) },
      );
      await waitFor("two block events", async () =>
        events.filter((e) => e.event === "block").length >= 2 ? true : undefined,
      );
      await node.stop();
      // the client saw the node go and will retry (restarting before would race its close)
      await waitFor("the client to see the close", async () =>
        closes.some((c) => c.retryInMs !== undefined) ? true : undefined,
      );
      await node.restart();
      await waitFor("a reconnect", async () => (opens.some((o) => o.reconnect) ? true : undefined));
      const before = sub.lastHeight;
      await waitFor("blocks after the reconnect", async () => (sub.lastHeight >= before + 2 ? true : undefined));
      sub.close();
      const again = opens.find((o) => o.reconnect)!;
      assert.ok(again.resumedFrom !== undefined, "the reconnect resumed from a height");
      const heights = events.filter((e) => e.event === "block").map((e) => Number(e.height));
      for (let i = 1; i < heights.length; i++)
        assert.equal(heights[i], heights[i - 1]! + 1, `block heights without a gap or repeat: ${heights.join(",")}`);
    } finally {
      await node.stop();
      node.cleanup();
    }
  });

  it("consumers that never read are dropped (4008) before they get every event (their RSS: make bench)", async (t) => {
    const node = await LedgerdProcess.start({ blockTimeSeconds: 1 });
    try {
      const { live, stalled } = await stalledConsumers(node);
      // The node counted every drop (stalledConsumers waited for it). Each consumer got a prefix of the
      // events, then the node closed the connection: with the close frame 4008 queued behind the unsent
      // events, or — when the consumer did not read for uWS's closing timeout after end(), which on a loaded
      // machine the wait for all eleven drops exceeds — by closing the socket without it.
      const all = await Promise.all([live, ...stalled].map((s) => s.readAll()));
      for (const got of all) {
        assert.ok(got.closeCode === 4008 || got.closeCode === undefined, `close code ${got.closeCode}`);
        assert.ok(
          got.bytes < STALLED_ENTRIES * 2 * STALLED_ENTRY_CONTENT_BYTES,
          `read ${got.bytes} bytes: dropped before all events`,
        );
      }
      t.diagnostic(`close frames 4008: ${all.filter((g) => g.closeCode === 4008).length} of ${all.length}`);
      // The node still answers.
      await node.rpc("heights");
    } finally {
      await node.stop();
      node.cleanup();
    }
  });
});
