/**
 * Consumers of the live feed (/live) that never read: one subscribed before a burst of large entries (the live
 * path drops it once its unsent events pass 1 MiB) and STALLED_CONSUMERS that replay those blocks with content
 * (the replay paces itself by the node's unsent bytes and drops a consumer that does not drain within 5 s).
 * The functional half (each is closed with 4008 before it got every event) is test/integration/live-feed;
 * the node's memory meanwhile is `make bench`'s budget.live.stalledRss (bench/budgets.ts).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import net from "node:net";
import WebSocket from "ws";
import { DEFAULT_LIVE_FEED_OPTIONS } from "../../src/rpc/live/feedOptions.js";
import { addEntry, buyCredits, createChain, ecKeyOf, type RpcCall } from "./ledgerWrites.js";
import type { LedgerdProcess } from "./nodeProcess.js";
import { waitUntil } from "./waitFor.js";

const MiB = 1024 * 1024;

/**
 * Run the scenario on `node` and return the consumers once the node has dropped them all (their data unread).
 * @param hooks.beforeReplays awaited once the entries are saved, before the replays start (bench: the RSS baseline)
 * @param hooks.whileDropping called at every look while waiting for the drops (bench: the RSS peak)
 */
export async function stalledConsumers(
  node: LedgerdProcess,
  hooks: { beforeReplays?: () => Promise<void>; whileDropping?: () => void } = {},
): Promise<{ live: NeverReading; stalled: NeverReading[] }> {
  const call: RpcCall = (m, p) => node.rpc(m, p);
  const ec = ecKeyOf("ledgerd live feed slow consumer EC key");
  await buyCredits(call, ec, STALLED_ENTRIES * 10 + 100);
  await waitUntil("credits", async () => {
    const b = (await call("entry-credit-balance", { address: ec.publicAddress })) as { balance: number };
    return b.balance >= STALLED_ENTRIES * 10 + 100;
  });
  const { chainId } = await createChain(call, ec, `slow consumer ${Date.now()}`);
  const from = ((await call("heights")) as { directoryblockheight: number }).directoryblockheight;
  // One consumer that stops reading before the writes: dropped by the live path (a send that would take
  // its unsent events over 1 MiB closes it).
  const live = await neverReading(node.port, { op: "subscribe", chains: [chainId], content: true });
  const content = new Uint8Array(STALLED_ENTRY_CONTENT_BYTES).fill(0x61);
  for (let i = 0; i < STALLED_ENTRIES; i += WRITE_CONCURRENCY)
    await Promise.all(
      Array.from({ length: Math.min(WRITE_CONCURRENCY, STALLED_ENTRIES - i) }, (_, j) =>
        addEntry(call, ec, chainId, content, { extIds: [`n${i + j}`] }),
      ),
    );
  const written = ((await call("heights")) as { leaderheight: number }).leaderheight;
  await waitUntil(
    "the entries saved",
    async () => ((await call("heights")) as { directoryblockheight: number }).directoryblockheight >= written,
  );
  await hooks.beforeReplays?.();
  // Consumers that replay those blocks with content and never read. The replay sends while the node's
  // unsent bytes for them stay under 256 KiB, waits for a drain, and drops them when none comes within 5 s.
  // Without that pacing the node would buffer everything the kernel does not take.
  const stalled = await Promise.all(
    Array.from({ length: STALLED_CONSUMERS }, () =>
      neverReading(node.port, { op: "subscribe", chains: [chainId], content: true, fromheight: from }),
    ),
  );
  // Wait for the node to report every drop (its hello events count them): no consumer reads before.
  await waitUntil(
    `${STALLED_CONSUMERS + 1} slow consumers dropped`,
    async () => {
      hooks.whileDropping?.();
      return (await feedStats(node.port)).dropped >= STALLED_CONSUMERS + 1;
    },
    180_000,
    250,
  );
  return { live, stalled };
}

/** Consumers that replay the blocks and never read. */
export const STALLED_CONSUMERS = 10;
/** Content bytes per entry (an entry is at most 10,240 bytes); an event carries it as hex, twice the size. */
export const STALLED_ENTRY_CONTENT_BYTES = 9900;
/**
 * Entries written: their events (with content) must be more than the kernel can hold for a consumer that
 * never reads, or no drop can happen. A never-reading receiver's buffer stays near its initial size
 * (tcp_rmem[1]); the sender's grows up to tcp_wmem[2]. Both are read here with a wide margin (×8 on the
 * receiving side, ×1.5 overall), plus the feed's 1 MiB limit: 4 MiB + 8 × 128 KiB here → 500 entries.
 */
export const STALLED_ENTRIES = entriesToOverflowSockets();
const WRITE_CONCURRENCY = 20;

function entriesToOverflowSockets(): number {
  const field = (file: string, i: number, fallback: number): number => {
    try {
      return Number(readFileSync(file, "utf8").trim().split(/\s+/)[i]) || fallback;
    } catch {
      return fallback;
    }
  };
  const kernel =
    field("/proc/sys/net/ipv4/tcp_wmem", 2, 4 * MiB) + 8 * field("/proc/sys/net/ipv4/tcp_rmem", 1, 128 * 1024);
  const bytes = 1.5 * (kernel + DEFAULT_LIVE_FEED_OPTIONS.maxBufferedBytes);
  return Math.min(2000, Math.max(300, Math.ceil(bytes / (2 * STALLED_ENTRY_CONTENT_BYTES))));
}

/** The feed's counters, from the `hello` of a short connection. */
export async function feedStats(port: number): Promise<{ connections: number; dropped: number }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/live`);
  try {
    return await new Promise((resolve, reject) => {
      ws.once("message", (d) =>
        resolve((JSON.parse(d.toString()) as { feed: { connections: number; dropped: number } }).feed),
      );
      ws.once("error", reject);
    });
  } finally {
    ws.close();
  }
}

/** A raw WebSocket client that sends `request`, then stops reading. */
export interface NeverReading {
  /** read everything the node sent until it closed: payload bytes and the close code */
  readAll(): Promise<{ bytes: number; closeCode: number | undefined }>;
}

/** A raw WebSocket client that sends `request`, then stops reading. */
async function neverReading(port: number, request: Record<string, unknown>): Promise<NeverReading> {
  const socket = net.connect(port, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  socket.write(
    "GET /live HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
  );
  let head = Buffer.alloc(0);
  await new Promise<void>((resolve) => {
    const onData = (d: Buffer): void => {
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
  const chunks: Buffer[] = [head.subarray(head.indexOf("\r\n\r\n") + 4)];
  return {
    readAll: () =>
      new Promise((resolve) => {
        const finish = (): void => resolve(parseFrames(Buffer.concat(chunks)));
        socket.on("data", (d: Buffer) => chunks.push(d));
        socket.on("close", finish);
        socket.on("error", () => {});
        socket.resume();
      }),
  };
}

function maskedTextFrame(payload: Buffer): Buffer {
  const mask = Buffer.from([1, 2, 3, 4]);
  const len = payload.length;
  const header = len < 126 ? Buffer.from([0x81, 0x80 | len]) : Buffer.from([0x81, 0x80 | 126, len >> 8, len & 255]);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([header, mask, masked]);
}

/** Walk server frames (unmasked): total payload bytes and the close frame's code, if any. */
function parseFrames(buf: Buffer): { bytes: number; closeCode: number | undefined } {
  let at = 0;
  let bytes = 0;
  while (at + 2 <= buf.length) {
    const opcode = buf[at]! & 0x0f;
    let len = buf[at + 1]! & 0x7f;
    let p = at + 2;
    if (len === 126) {
      len = buf.readUInt16BE(p);
      p += 2;
    } else if (len === 127) {
      len = Number(buf.readBigUInt64BE(p));
      p += 8;
    }
    if (p + len > buf.length) break;
    if (opcode === 0x8) return { bytes, closeCode: len >= 2 ? buf.readUInt16BE(p) : undefined };
    bytes += len;
    at = p + len;
  }
  return { bytes, closeCode: undefined };
}
