// The live event feed (/live, docs/api.md "Live event feed") against the real node: block events without
// subscribing; entry, transaction and status events in order (acknowledged, then confirmed); resume from a
// height; Basic auth on the upgrade; the client library's reconnect across a node restart; and consumers
// that never read, dropped with close code 4008 while the node's RSS stays flat.
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import WebSocket from "ws";
import { subscribe } from "../../src/client/liveClient.js";
import { chainIdFromExtIds } from "../../src/protocol/entry.js";
import { DEFAULT_LIVE_FEED_OPTIONS } from "../../src/rpc/live/feed.js";
import { composeEntry } from "../../tools/wallet/compose.js";
import { addEntry, buyCredits, createChain, ecKeyOf } from "../support/ledgerWrites.js";
import { killAllNodes, LedgerdProcess, PROJECT_ROOT, sleep } from "../support/nodeProcess.js";
import { startTestNode, waitFor } from "../unit/rpc/nodeHarness.js";
const MiB = 1024 * 1024;
/** With LIVE_CAPTURE=<file>, the first event of each kind is written there (the examples of docs/api.md). */
function capture(events, only) {
    const file = process.env.LIVE_CAPTURE;
    if (file === undefined || file === "")
        return;
    if (only !== undefined) {
        const previous = JSON.parse(readFileSync(file, "utf8"));
        previous[only] = events.find((e) => e.event === only);
        writeFileSync(file, JSON.stringify(previous, null, 1));
        return;
    }
    const first = new Map();
    for (const e of events) {
        const key = e.event === "entry" || e.event === "transaction" || e.event === "status" ? `${e.event} ${e.status}` : e.event;
        if (!first.has(key))
            first.set(key, e);
    }
    writeFileSync(file, JSON.stringify(Object.fromEntries(first), null, 1));
}
/** A WebSocket client collecting every event. */
class Collector {
    events = [];
    ws;
    closed;
    opened;
    constructor(url, headers = {}) {
        this.ws = new WebSocket(url, { headers });
        this.opened = new Promise((resolve, reject) => {
            this.ws.once("open", () => resolve());
            this.ws.once("error", reject);
        });
        this.ws.on("message", (d) => this.events.push(JSON.parse(d.toString())));
        this.ws.on("close", (code, reason) => {
            this.closed = { code, reason: reason.toString() };
        });
    }
    send(o) {
        this.ws.send(JSON.stringify(o));
    }
    of(kind) {
        return this.events.filter((e) => e.event === kind);
    }
    wait(what, pred, timeoutMs = 20_000) {
        return waitFor(what, async () => this.events.find(pred), timeoutMs);
    }
}
function rpcOf(t) {
    return async (method, params) => {
        const r = await t.call(method, params);
        if (r.error !== undefined)
            throw new Error(`${method}: ${r.text}`);
        return r.result;
    };
}
describe("live feed on an in-process node", () => {
    let t;
    let url;
    let call;
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
        const d = (await call("dblock-by-height", { height: block.height }));
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
        assert.deepEqual(txEvents.map((e) => e.status), ["TransactionACK", "DBlockConfirmed"]);
        assert.equal(txEvents[0].ecoutputs[0]?.useraddress, ec.publicAddress);
        c.send({ op: "subscribe", chains: [chainId], content: true });
        const created = await createChain(call, ec, chainName);
        assert.equal(created.chainId, chainId);
        // An entry whose reveal arrives before its commit: held (NotConfirmed), then acknowledged by the commit.
        const composed = await addEntryWatched(c, call, ec, chainId);
        await c.wait("the entry confirmed", (e) => e.event === "entry" && e.entryhash === composed && e.status === "DBlockConfirmed");
        const entryEvents = c.of("entry").filter((e) => e.entryhash === composed);
        assert.deepEqual(entryEvents.map((e) => e.status), ["TransactionACK", "DBlockConfirmed"]);
        assert.equal(entryEvents[0]?.chainid, chainId);
        assert.equal(Buffer.from(String(entryEvents[0]?.content), "hex").toString(), "second entry");
        const statuses = c
            .of("status")
            .filter((e) => e.hash === composed)
            .map((e) => e.status);
        assert.deepEqual(statuses, ["Unknown", "NotConfirmed", "TransactionACK", "DBlockConfirmed"]);
        const ack = entryEvents[0];
        const confirmed = entryEvents[1];
        assert.ok(Number(confirmed.height) >= Number(ack.height) - 1);
        const block = c.of("block").find((e) => e.height === confirmed.height);
        assert.ok(block !== undefined && Number(block.entries) >= 1, "the block event came with the confirmation");
        assert.ok(c.events.indexOf(block) < c.events.indexOf(confirmed), "the block event precedes the confirmations it carries");
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
        assert.deepEqual(replayedBlocks.slice(0, Number(resumed.toheight) - from + 1), Array.from({ length: Number(resumed.toheight) - from + 1 }, (_, i) => from + i));
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
        const run = (args) => new Promise((resolve) => {
            execFile(wallet, [`-node=http://127.0.0.1:${t.node.port}`, ...args], { timeout: 20_000 }, (err, stdout, stderr) => resolve({ code: err === null ? 0 : typeof err.code === "number" ? err.code : null, stdout, stderr }));
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
            .map((l) => JSON.parse(l));
        assert.deepEqual(events.map((e) => e.event), ["hello", "subscribed", "block"]);
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
async function addEntryWatched(c, call, ec, chainId) {
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
            const refused = await new Promise((resolve, reject) => {
                const ws = new WebSocket(url);
                ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
                ws.on("open", () => reject(new Error("opened without credentials")));
                ws.on("error", () => { });
            });
            assert.equal(refused, 401);
            const c = new Collector(url, { Authorization: `Basic ${Buffer.from("alice:s3cret").toString("base64")}` });
            await c.opened;
            await c.wait("hello", (e) => e.event === "hello");
            c.ws.close();
        }
        finally {
            await t.stop();
        }
    });
});
describe("live feed on a node process", () => {
    after(() => killAllNodes());
    it("the client library reconnects after a restart and resumes without a gap in block heights", async () => {
        const node = await LedgerdProcess.start({ blockTimeSeconds: 1 });
        try {
            const events = [];
            const opens = [];
            const sub = subscribe({ url: node.url, reconnectMs: 100 }, {}, { onEvent: (e) => events.push(e), onOpen: (i) => opens.push(i) });
            await waitFor("two block events", async () => events.filter((e) => e.event === "block").length >= 2 ? true : undefined);
            await node.stop();
            await sleep(300);
            await node.restart();
            await waitFor("a reconnect", async () => (opens.some((o) => o.reconnect) ? true : undefined));
            const before = sub.lastHeight;
            await waitFor("blocks after the reconnect", async () => (sub.lastHeight >= before + 2 ? true : undefined));
            sub.close();
            const again = opens.find((o) => o.reconnect);
            assert.ok(again.resumedFrom !== undefined, "the reconnect resumed from a height");
            const heights = events.filter((e) => e.event === "block").map((e) => Number(e.height));
            for (let i = 1; i < heights.length; i++)
                assert.equal(heights[i], heights[i - 1] + 1, `block heights without a gap or repeat: ${heights.join(",")}`);
        }
        finally {
            await node.stop();
            node.cleanup();
        }
    });
    it("consumers that never read are dropped with 4008 and the node's RSS stays flat", async () => {
        const node = await LedgerdProcess.start({ blockTimeSeconds: 1 });
        try {
            const call = (m, p) => node.rpc(m, p);
            const ec = ecKeyOf("ledgerd live feed slow consumer EC key");
            await buyCredits(call, ec, 4000);
            await waitFor("credits", async () => {
                const b = (await call("entry-credit-balance", { address: ec.publicAddress }));
                return b.balance >= 4000 ? true : undefined;
            });
            const { chainId } = await createChain(call, ec, `slow consumer ${Date.now()}`);
            const from = (await call("heights")).directoryblockheight;
            // One consumer that stops reading before the writes: dropped by the live path.
            const live = await neverReading(node.port, { op: "subscribe", chains: [chainId], content: true });
            // 300 entries of 10,000 bytes: 6 MB of confirmed entry events with content (hex doubles it), more
            // than the kernel's socket buffers take (~5 MB on loopback, measured) plus the feed's 1 MiB limit.
            const content = new Uint8Array(9900).fill(0x61);
            for (let i = 0; i < ENTRIES; i += WRITE_CONCURRENCY)
                await Promise.all(Array.from({ length: Math.min(WRITE_CONCURRENCY, ENTRIES - i) }, (_, j) => addEntry(call, ec, chainId, content, { extIds: [`n${i + j}`] })));
            const written = (await call("heights")).leaderheight;
            await waitFor("the entries saved", async () => (await call("heights")).directoryblockheight >= written
                ? true
                : undefined);
            await sleep(500);
            // Ten consumers that replay those blocks with content and never read: the replay waits for them to
            // drain, then drops them. Without that pacing the node would buffer ~6 MB for each.
            const rss0 = node.rssBytes();
            const stalled = await Promise.all(Array.from({ length: CONSUMERS }, () => neverReading(node.port, { op: "subscribe", chains: [chainId], content: true, fromheight: from })));
            let rss1 = rss0;
            const until = Date.now() + DRAIN_WAIT_MS + 1500;
            while (Date.now() < until) {
                await sleep(250);
                rss1 = Math.max(rss1, node.rssBytes() ?? 0);
            }
            process.stdout.write(`# ${CONSUMERS} stalled replays: node RSS ${Math.round(rss0 / MiB)} → at most ${Math.round(rss1 / MiB)} MiB\n`);
            assert.ok(rss1 - rss0 < 32 * MiB, `node RSS grew from ${Math.round(rss0 / MiB)} to ${Math.round(rss1 / MiB)} MiB with ${CONSUMERS} stalled consumers`);
            // Now read what each got: a bounded prefix of the events, then the close frame 4008.
            for (const s of [live, ...stalled]) {
                const got = await s.readAll();
                assert.equal(got.closeCode, 4008, `close code (read ${got.bytes} bytes)`);
                assert.ok(got.bytes < ENTRIES * 19_800, `read ${got.bytes} bytes: dropped before all events`);
            }
            // The node still answers.
            await call("heights");
        }
        finally {
            await node.stop();
            node.cleanup();
        }
    });
});
const CONSUMERS = 10;
const ENTRIES = 300;
const WRITE_CONCURRENCY = 20;
/** DEFAULT_LIVE_FEED_OPTIONS.drainWaitMs: how long a replay waits for a stalled consumer */
const DRAIN_WAIT_MS = DEFAULT_LIVE_FEED_OPTIONS.drainWaitMs;
/** A raw WebSocket client that sends `request`, then stops reading. */
async function neverReading(port, request) {
    const socket = net.connect(port, "127.0.0.1");
    await new Promise((resolve, reject) => {
        socket.once("connect", resolve);
        socket.once("error", reject);
    });
    socket.write("GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    let head = Buffer.alloc(0);
    await new Promise((resolve) => {
        const onData = (d) => {
            head = Buffer.concat([head, d]);
            if (head.includes("\r\n\r\n")) {
                socket.off("data", onData);
                socket.pause();
                resolve();
            }
        };
        socket.on("data", onData);
    });
    assert.match(head.toString("latin1"), /^HTTP\/1\.1 101/);
    const body = Buffer.from(JSON.stringify(request));
    socket.write(maskedTextFrame(body));
    const chunks = [head.subarray(head.indexOf("\r\n\r\n") + 4)];
    return {
        readAll: () => new Promise((resolve) => {
            const finish = () => resolve(parseFrames(Buffer.concat(chunks)));
            socket.on("data", (d) => chunks.push(d));
            socket.on("close", finish);
            socket.on("error", () => { });
            socket.resume();
        }),
    };
}
function maskedTextFrame(payload) {
    const mask = Buffer.from([1, 2, 3, 4]);
    const len = payload.length;
    const header = len < 126 ? Buffer.from([0x81, 0x80 | len]) : Buffer.from([0x81, 0x80 | 126, len >> 8, len & 255]);
    const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
    return Buffer.concat([header, mask, masked]);
}
/** Walk server frames (unmasked): total payload bytes and the close frame's code, if any. */
function parseFrames(buf) {
    let at = 0;
    let bytes = 0;
    while (at + 2 <= buf.length) {
        const opcode = buf[at] & 0x0f;
        let len = buf[at + 1] & 0x7f;
        let p = at + 2;
        if (len === 126) {
            len = buf.readUInt16BE(p);
            p += 2;
        }
        else if (len === 127) {
            len = Number(buf.readBigUInt64BE(p));
            p += 8;
        }
        if (p + len > buf.length)
            break;
        if (opcode === 0x8)
            return { bytes, closeCode: len >= 2 ? buf.readUInt16BE(p) : undefined };
        bytes += len;
        at = p + len;
    }
    return { bytes, closeCode: undefined };
}
//# sourceMappingURL=live-feed.test.js.map