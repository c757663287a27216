// The live feed's limits on a real ledger (LMDB in a temp directory): connections per address, the total
// subscription budget (refused with an error event, counted, warned once per window), and the count kept
// right across unsubscribe and close. The socket is the feed's transport interface, collecting frames.
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { createLogger } from "../../../src/log/logger.js";
import { LiveFeed } from "../../../src/rpc/live/feed.js";
import { DEFAULT_LIVE_FEED_OPTIONS } from "../../../src/rpc/live/feedOptions.js";
import { cleanup, closeNode, openNode, tempDir } from "../ledger/harness.js";

function socket(): { frames: Record<string, unknown>[]; send(t: string): void; end(): void; bufferedBytes(): number } {
  const frames: Record<string, unknown>[] = [];
  return {
    frames,
    send: (t) => frames.push(JSON.parse(t) as Record<string, unknown>),
    end: () => {},
    bufferedBytes: () => 0,
  };
}

const hex = (i: number) => i.toString(16).padStart(64, "0");

describe("live feed limits", () => {
  const dir = tempDir("ledgerd-live-limits-");
  const n = openNode(dir);
  const lines: string[] = [];
  const log = createLogger(
    { level: "none", consoleLevel: "warning" },
    { stderr: { write: (l: string) => lines.push(l) } },
  );
  const feed = new LiveFeed(
    { ...DEFAULT_LIVE_FEED_OPTIONS, maxConnectionsPerSource: 2, maxTotalSubscriptions: 5 },
    { ledger: n.ledger, log },
  );
  after(async () => {
    feed.close();
    await closeNode(n, true);
    cleanup(dir);
  });

  it("refuses a third connection from one address, not from another", () => {
    const a = feed.open(socket(), "10.0.0.1");
    assert.equal(feed.hasRoom("10.0.0.1"), undefined);
    const b = feed.open(socket(), "10.0.0.1");
    assert.deepEqual(feed.hasRoom("10.0.0.1"), {
      status: 503,
      reason: "too many live feed connections from 10.0.0.1 (at most 2 per address)",
    });
    assert.equal(feed.hasRoom("10.0.0.2"), undefined);
    feed.closed(b);
    assert.equal(feed.hasRoom("10.0.0.1"), undefined, "a closed connection gives its place back");
    feed.closed(a);
    assert.equal(feed.counters().source_connections, 1);
  });

  it("holds at most the total subscription budget, over all connections", () => {
    const s1 = socket();
    const s2 = socket();
    const c1 = feed.open(s1, "10.0.0.3");
    const c2 = feed.open(s2, "10.0.0.4");
    feed.message(c1, JSON.stringify({ op: "subscribe", hashes: [hex(1), hex(2), hex(3)] }));
    assert.equal(feed.subscriptions, 3);
    feed.message(c2, JSON.stringify({ op: "subscribe", chains: [hex(4), hex(5), hex(6)] }));
    const error = s2.frames.find((f) => f.event === "error");
    assert.deepEqual(error, {
      event: "error",
      data: "the node's live feed holds its most subscriptions (5 over all connections); asked for 3 more",
    });
    assert.equal(feed.subscriptions, 3, "the refused request added nothing");
    feed.message(c1, JSON.stringify({ op: "unsubscribe", hashes: [hex(1)] }));
    assert.equal(feed.subscriptions, 2);
    feed.message(c2, JSON.stringify({ op: "subscribe", chains: [hex(4), hex(5), hex(6)] }));
    assert.equal(feed.subscriptions, 5);
    feed.closed(c1);
    assert.equal(feed.subscriptions, 3, "a closed connection's subscriptions are given back");
    feed.closed(c2);
    assert.equal(feed.subscriptions, 0);
    assert.equal(feed.counters().subscriptions, 1);
    const warned = lines.filter((l) => l.includes("live feed: subscription refused"));
    assert.equal(warned.length, 1, lines.join(""));
  });
});
