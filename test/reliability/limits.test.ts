// Resource limits of the HTTP side (issue "Reliability"; docs/operations.md §Limits), against real nodes:
// body size (1 MiB default, -maxbody / [App] MaxBodyBytes), 16 MB bodies, batch size ([App] MaxBatch),
// slow clients (headers or body trickled, idle connections), many concurrent connections, deep JSON
// nesting, oversized headers, and the node's memory under a flood of invalid requests.
//
// Flood size: CI 10,000 requests; LEDGERD_LONG=1 200,000.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as http from "node:http";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import { type HttpAnswer, killAllNodes, LedgerdProcess, sleep } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
import {
  FLOOD_CONCURRENCY,
  FLOOD_WARMUP_REQUESTS,
  floodBodies,
  floodPoster,
  settledRss,
} from "../support/workloads.js";
import { fuzzSeed, LONG } from "./mode.js";

const MiB = 1024 * 1024;
/** Default largest body (docs/configuration.md: -maxbody, [App] MaxBodyBytes). */
const DEFAULT_MAX_BODY = MiB;
/** Default largest batch ([App] MaxBatch). */
const DEFAULT_MAX_BATCH = 100;
/** Requests in the invalid-input flood. */
const FLOOD_REQUESTS = LONG ? 200_000 : 10_000;
// The node's RSS growth over a flood of 200,000 requests is a budget row of `make bench` (bench/budgets.ts,
// `budget.rpc.floodRss`, < 160 MiB), not an assert here: this suite checks that every request is answered
// and the node still serves, and prints the RSS figures.
/** A slow client must be disconnected within this many ms (uWebSockets' idle timeout is 10 s). */
const SLOW_CLIENT_CUTOFF_MS = 20_000;

const PROPERTIES = '{"jsonrpc":"2.0","id":1,"method":"properties"}';

/** A JSON-RPC error answer, parsed; fails the test when the body is anything else. */
function rpcError(a: HttpAnswer, what: string): { id: unknown; code: number; message: string; data?: unknown } {
  let json: { jsonrpc?: string; id?: unknown; error?: { code: number; message: string; data?: unknown } };
  try {
    json = JSON.parse(a.text) as typeof json;
  } catch {
    assert.fail(
      `${what}: HTTP ${a.status} ${JSON.stringify(a.headers)} with a body that is not a JSON-RPC answer: ${JSON.stringify(a.text.slice(0, 200))}`,
    );
  }
  assert.equal(json.jsonrpc, "2.0", `${what}: ${a.text.slice(0, 200)}`);
  assert.ok(json.error !== undefined, `${what}: expected an error, got ${a.text.slice(0, 200)}`);
  return { id: json.id, ...json.error };
}

/**
 * Send `size` bytes of body (spaces, then a request that would otherwise be valid) in 64 KiB chunks,
 * with Content-Length or chunked. Resolves with the answer, or with the socket error if the server closed
 * the connection first.
 */
function sendLargeBody(port: number, size: number, chunked: boolean): Promise<HttpAnswer | { error: string }> {
  return new Promise((resolve) => {
    const tailBytes = Buffer.from(PROPERTIES);
    const headers: Record<string, string | number> = { "Content-Type": "text/plain;" };
    if (!chunked) headers["Content-Length"] = size;
    const req = http.request(
      { host: "127.0.0.1", port, method: "POST", path: "/v2", headers, agent: false, timeout: 30_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
        );
      },
    );
    req.on("error", (e) => resolve({ error: e.message }));
    req.on("timeout", () => req.destroy(new Error("timeout")));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < size - tailBytes.length) {
        const n = Math.min(chunk.length, size - tailBytes.length - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once("drain", pump);
          return;
        }
      }
      req.end(tailBytes);
    };
    pump();
  });
}

/** Open a raw TCP connection, send `parts` one every `intervalMs`, resolve when the server closes it (or at `giveUpMs`). */
function trickle(
  port: number,
  parts: string[],
  intervalMs: number,
  giveUpMs: number,
): Promise<{ closedAfterMs: number | undefined; received: string; sent: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s = net.connect(port, "127.0.0.1");
    let i = 0;
    let received = "";
    const timer = setInterval(() => {
      if (i < parts.length && !s.destroyed) s.write(parts[i++]!);
    }, intervalMs);
    const done = (closed: boolean): void => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ closedAfterMs: closed ? Date.now() - t0 : undefined, received, sent: i });
    };
    s.on("data", (d: Buffer) => (received += d.toString()));
    s.on("close", () => done(true));
    s.on("error", () => {});
    const giveUp = setTimeout(() => {
      s.destroy();
      done(false);
    }, giveUpMs);
  });
}

/** The soft limit of open files of this process (ulimit -n), or 1024 when it cannot be read. */
function fileLimit(): number {
  const r = spawnSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" });
  const n = Number(r.stdout.trim());
  return Number.isFinite(n) && n > 0 ? n : 1024;
}

describe("HTTP limits of a running node", { concurrency: false }, () => {
  let node: LedgerdProcess;
  let small: LedgerdProcess;

  before(async () => {
    [node, small] = await Promise.all([
      LedgerdProcess.start({ blockTimeSeconds: 6 }),
      LedgerdProcess.start({ blockTimeSeconds: 6, extraArgs: ["-maxbody=4096"], appConfig: ["MaxBatch = 5"] }),
    ]);
  });
  after(async () => {
    await killAllNodes();
    node?.cleanup();
    small?.cleanup();
  });

  /** The node still answers a normal call (quickly). */
  async function stillServes(p: LedgerdProcess, what: string): Promise<void> {
    assert.ok(p.isRunning, `${what}: the node died (${p.exitDescription})\n${p.tail()}`);
    const t0 = performance.now();
    const a = await p.post(PROPERTIES, { timeoutMs: 5000 });
    assert.equal(a.status, 200, `${what}: ${a.text}`);
    assert.ok(performance.now() - t0 < 2000, `${what}: a normal call took ${Math.round(performance.now() - t0)} ms`);
  }

  describe("body size", () => {
    it("accepts a body of exactly the limit (1 MiB by default)", async () => {
      const body = " ".repeat(DEFAULT_MAX_BODY - PROPERTIES.length) + PROPERTIES;
      assert.equal(Buffer.byteLength(body), DEFAULT_MAX_BODY);
      const a = await node.post(body);
      assert.equal(a.status, 200, a.text);
    });

    it("answers one byte over the limit with HTTP 413 and a JSON-RPC -32600 error naming the limit", async () => {
      for (const chunked of [false, true]) {
        const a = await sendLargeBody(node.port, DEFAULT_MAX_BODY + 1, chunked);
        assert.ok(!("error" in a), `chunked=${chunked}: connection failed: ${"error" in a ? a.error : ""}`);
        assert.equal(a.status, 413, `chunked=${chunked}`);
        const e = rpcError(a, `413 answer (chunked=${chunked})`);
        assert.equal(e.code, -32600);
        assert.equal(e.id, null);
        assert.match(String(e.data), /1048576/, "data names the limit");
      }
      await stillServes(node, "after 413");
    });

    it("refuses 16 MB bodies (declared and chunked) without buffering them, and keeps serving", async () => {
      const before = node.rssBytes();
      for (const chunked of [false, true]) {
        const t0 = performance.now();
        const a = await sendLargeBody(node.port, 16 * MiB, chunked);
        const ms = performance.now() - t0;
        // Either an answer (413) or the server cutting the upload short is a clean refusal; a 200 is not.
        if (!("error" in a)) assert.equal(a.status, 413, `16 MB chunked=${chunked}: ${a.text.slice(0, 200)}`);
        assert.ok(ms < 15_000, `16 MB chunked=${chunked}: refused after ${Math.round(ms)} ms`);
      }
      const afterRss = node.rssBytes();
      if (before !== undefined && afterRss !== undefined)
        assert.ok(
          afterRss - before < 16 * MiB,
          `RSS grew by ${Math.round((afterRss - before) / MiB)} MiB over two 16 MB uploads: the body was buffered`,
        );
      await stillServes(node, "after 16 MB bodies");
    });

    it("applies -maxbody: 4096 bytes on the small node", async () => {
      const ok = await small.post(" ".repeat(4096 - PROPERTIES.length) + PROPERTIES);
      assert.equal(ok.status, 200, ok.text);
      const a = await small.post(" ".repeat(4097 - PROPERTIES.length) + PROPERTIES);
      assert.equal(a.status, 413);
      assert.equal(rpcError(a, "413 of -maxbody=4096").code, -32600);
    });
  });

  describe("batches", () => {
    const batch = (n: number): string =>
      JSON.stringify(Array.from({ length: n }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "properties" })));

    it("answers a batch of MaxBatch (100) requests and refuses MaxBatch + 1 with -32600", async () => {
      const ok = await node.post(batch(DEFAULT_MAX_BATCH));
      assert.equal(ok.status, 200);
      const answers = JSON.parse(ok.text) as { id: number }[];
      assert.deepEqual(
        answers.map((x) => x.id),
        Array.from({ length: DEFAULT_MAX_BATCH }, (_, i) => i),
      );
      const a = await node.post(batch(DEFAULT_MAX_BATCH + 1));
      assert.equal(a.status, 400);
      const e = rpcError(a, "batch over the limit");
      assert.equal(e.code, -32600);
      assert.match(String(e.data), /101.*100/);
    });

    it("applies [App] MaxBatch = 5 on the small node", async () => {
      assert.equal((await small.post(batch(5))).status, 200);
      const a = await small.post(batch(6));
      assert.equal(rpcError(a, "batch of 6").code, -32600);
    });
  });

  describe("JSON shape", () => {
    it("refuses deep nesting (body, id, params) with a JSON-RPC error and keeps serving", async () => {
      const cases: [string, string][] = [
        ["100,000 nested arrays", "[".repeat(100_000) + "]".repeat(100_000)],
        ["100,000 nested objects", '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000)],
        ["id nested 65 deep", `{"jsonrpc":"2.0","method":"properties","id":${"[".repeat(65)}${"]".repeat(65)}}`],
        [
          "params nested 1,000 deep",
          `{"jsonrpc":"2.0","id":1,"method":"heights","params":${"[".repeat(1000)}${"]".repeat(1000)}}`,
        ],
        ["unterminated 500,000 [", "[".repeat(500_000)],
      ];
      for (const [name, body] of cases) {
        const a = await node.post(body);
        assert.equal(a.status, 400, name);
        const e = rpcError(a, name);
        assert.ok(e.code === -32600 || e.code === -32700, `${name}: code ${e.code}`);
        assert.equal(e.id, null, name);
      }
      // the documented depth is accepted: an id nested 63 deep is echoed
      const a = await node.post(`{"jsonrpc":"2.0","method":"properties","id":${"[".repeat(63)}${"]".repeat(63)}}`);
      assert.equal(a.status, 200, a.text.slice(0, 200));
      await stillServes(node, "after deep nesting");
    });

    it("survives oversized and too many headers (the connection is refused or answered, the node serves)", async () => {
      const big = await trickle(
        node.port,
        [`POST /v2 HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(4 * MiB)}\r\nContent-Length: 2\r\n\r\n{}`],
        1,
        10_000,
      );
      assert.ok(big.closedAfterMs !== undefined, "a 4 MiB header must not hold the connection open");
      assert.ok(!big.received.startsWith("HTTP/1.1 200"), "a 4 MiB header must not be served");
      const many = Array.from({ length: 500 }, (_, i) => `X-H${i}: v\r\n`).join("");
      const r = await trickle(
        node.port,
        [`POST /v2 HTTP/1.1\r\nHost: x\r\n${many}Content-Length: ${PROPERTIES.length}\r\n\r\n${PROPERTIES}`],
        1,
        15_000,
      );
      assert.ok(
        r.closedAfterMs !== undefined || r.received.startsWith("HTTP/1.1"),
        "500 headers: no answer and no close",
      );
      await stillServes(node, "after oversized headers");
    });
  });

  describe("connections", () => {
    it(`cuts slow clients off within ${SLOW_CLIENT_CUTOFF_MS / 1000} s (headers trickled, body trickled, idle) and serves others meanwhile`, async () => {
      const head = "POST /v2 HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n";
      const headers = head + `Content-Length: ${PROPERTIES.length}\r\n\r\n`;
      const slow = [
        ...Array.from({ length: 20 }, () => trickle(node.port, [...headers], 500, SLOW_CLIENT_CUTOFF_MS + 5000)),
        ...Array.from({ length: 20 }, () =>
          trickle(node.port, [headers, ...PROPERTIES], 500, SLOW_CLIENT_CUTOFF_MS + 5000),
        ),
        ...Array.from({ length: 20 }, () => trickle(node.port, [], 500, SLOW_CLIENT_CUTOFF_MS + 5000)),
      ];
      await sleep(1000);
      await stillServes(node, "with 60 slow clients connected");
      const results = await Promise.all(slow);
      const kinds = ["headers trickled", "body trickled", "idle"];
      results.forEach((r, i) => {
        const kind = kinds[Math.floor(i / 20)];
        assert.ok(
          r.closedAfterMs !== undefined,
          `${kind}: connection still open after ${SLOW_CLIENT_CUTOFF_MS + 5000} ms (${r.sent} parts sent)`,
        );
        assert.ok(r.closedAfterMs <= SLOW_CLIENT_CUTOFF_MS, `${kind}: closed only after ${r.closedAfterMs} ms`);
        assert.ok(!r.received.includes('"result"'), `${kind}: a trickled request must not have been completed`);
      });
      await stillServes(node, "after the slow clients");
    });

    it("serves many concurrent connections and releases them", async () => {
      const count = Math.min(2000, Math.floor(fileLimit() / 3));
      const fdsBefore = node.openFds();
      const agent = new http.Agent({ keepAlive: true, maxSockets: count, maxFreeSockets: count });
      try {
        const one = (): Promise<number> =>
          new Promise((resolve, reject) => {
            const req = http.request(
              {
                host: "127.0.0.1",
                port: node.port,
                method: "POST",
                path: "/v2",
                agent,
                headers: { "Content-Length": PROPERTIES.length },
              },
              (res) => {
                res.resume();
                res.on("end", () => resolve(res.statusCode ?? 0));
              },
            );
            req.on("error", reject);
            req.end(PROPERTIES);
          });
        const statuses = await Promise.all(Array.from({ length: count }, one));
        assert.equal(statuses.filter((s) => s === 200).length, count, `${count} concurrent requests`);
        const fdsOpen = node.openFds();
        // the keep-alive sockets are still open: the node holds them all and still serves a new one
        await stillServes(node, `with ${count} open connections`);
        if (fdsBefore !== undefined && fdsOpen !== undefined)
          assert.ok(fdsOpen >= fdsBefore + count * 0.9, `fds ${fdsBefore} → ${fdsOpen} with ${count} connections`);
      } finally {
        agent.destroy();
      }
      // closed by the client: the node lets go of every socket
      const deadline = Date.now() + 5000;
      let fds = node.openFds();
      while (fdsBefore !== undefined && fds !== undefined && fds > fdsBefore + 10 && Date.now() < deadline) {
        await sleep(100);
        fds = node.openFds();
      }
      if (fdsBefore !== undefined && fds !== undefined)
        assert.ok(fds <= fdsBefore + 10, `open fds ${fdsBefore} before, ${fds} after closing ${count} connections`);
    });
  });

  describe("memory", () => {
    it(`stays bounded under a flood of ${FLOOD_REQUESTS} invalid requests`, async () => {
      const rng = new Random(fuzzSeed());
      const bodies = floodBodies();
      const { post, destroy } = floodPoster(node.port);
      // Warm up (JIT, heap to its working size for these bodies: 500 sequential requests left it growing
      // by up to 80 MiB in the first quarter of the flood on a slow run), then measure.
      await Promise.all(
        Array.from({ length: FLOOD_CONCURRENCY }, async () => {
          for (let i = 0; i < FLOOD_WARMUP_REQUESTS / FLOOD_CONCURRENCY; i++) await post(rng.pick(bodies));
        }),
      );
      await sleep(500);
      const rss0 = node.rssBytes();
      let next = 0;
      let ok = 0;
      const samples: number[] = [];
      const t0 = performance.now();
      try {
        await Promise.all(
          Array.from({ length: FLOOD_CONCURRENCY }, async () => {
            while (next < FLOOD_REQUESTS) {
              const i = next++;
              if (i % Math.floor(FLOOD_REQUESTS / 4) === 0) samples.push(node.rssBytes() ?? 0);
              const status = await post(i % 997 === 0 ? PROPERTIES : rng.pick(bodies));
              if (status === 400 || status === 200) ok++;
            }
          }),
        );
      } finally {
        destroy();
      }
      const seconds = (performance.now() - t0) / 1000;
      const rss1 = await settledRss(node);
      assert.equal(ok, FLOOD_REQUESTS, "every flood request got a JSON-RPC answer (200 or 400)");
      await stillServes(node, "after the flood");
      process.stdout.write(
        `# flood: ${FLOOD_REQUESTS} requests in ${seconds.toFixed(1)} s (${Math.round(FLOOD_REQUESTS / seconds)}/s); node RSS ` +
          `${[rss0, ...samples.slice(1), rss1].map((b) => `${Math.round((b ?? 0) / MiB)}`).join(" → ")} MiB\n`,
      );
    });
  });
});
