// Resource limits of the HTTP side (issue "Reliability"; docs/operations.md §Limits), against real nodes:
// body size (1 MiB default, -maxbody / [App] MaxBodyBytes), 16 MB bodies, batch size ([App] MaxBatch),
// slow clients (headers or body trickled, idle connections), many concurrent connections, deep JSON
// nesting, oversized headers, and a flood of invalid requests. No timing or memory asserts here (a loaded CI
// machine is not a measurement): the node's RSS over the flood is `make bench`'s budget.rpc.floodRss.
//
// Flood size: CI 10,000 requests; LEDGERD_LONG=1 200,000.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as http from "node:http";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import { refusedMidUpload } from "../support/httpUpload.js";
import { type HttpAnswer, killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";
import { Random } from "../support/random.js";
import { waitUntil } from "../support/waitFor.js";
import { FLOOD_CONCURRENCY, FLOOD_WARMUP_REQUESTS, floodBodies, floodPoster } from "../support/workloads.js";
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
// and the node still serves.
/**
 * A slow client is disconnected by uWebSockets' idle timeout (10 s); the test gives up on a connection
 * still open after this many ms (a bound for a hang, not a measurement).
 */
const SLOW_CLIENT_GIVE_UP_MS = 30_000;

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

/** The node's whole 413 answer body for the default 1 MiB limit. */
const TOO_LARGE_1MIB =
  '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"request body exceeds the limit of 1048576 bytes"}}';

/** Open a raw TCP connection, send `parts` one every `intervalMs`, resolve when the server closes it (or at `giveUpMs`). */
function trickle(
  port: number,
  parts: string[],
  intervalMs: number,
  giveUpMs: number,
  localPorts?: Set<number>,
): Promise<{ closedAfterMs: number | undefined; received: string; sent: number }> {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const s = net.connect(port, "127.0.0.1", () => localPorts?.add(s.localPort ?? 0));
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

  /** The node still answers a normal call (the 30 s bound is for a hang, not a measurement). */
  async function stillServes(p: LedgerdProcess, what: string): Promise<void> {
    assert.ok(p.isRunning, `${what}: the node died (${p.exitDescription})\n${p.tail()}`);
    const a = await p.post(PROPERTIES, { timeoutMs: 30_000 });
    assert.equal(a.status, 200, `${what}: ${a.text}`);
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
        assert.deepEqual(e, {
          id: null,
          code: -32600,
          message: "Invalid Request",
          data: "request body exceeds the limit of 1048576 bytes",
        });
      }
      await stillServes(node, "after 413");
    });

    it("refuses 16 MB bodies (declared and chunked) before they are uploaded, and keeps serving", async () => {
      // Not buffered: the 413 comes while the upload has not happened (declared: no body byte sent) or has
      // just passed the limit (chunked: 1 MiB + 64 KiB sent, the rest never) — a node that read the body
      // first would never answer these.
      for (const chunked of [false, true]) {
        const a = await refusedMidUpload(node.port, 16 * MiB, chunked, DEFAULT_MAX_BODY);
        assert.equal(a.status, 413, `16 MB chunked=${chunked}: ${a.text}`);
        assert.equal(a.text, TOO_LARGE_1MIB, `16 MB chunked=${chunked}`);
      }
      // and whole 16 MB uploads are refused (413, or the upload cut short), never served
      for (const chunked of [false, true]) {
        const a = await sendLargeBody(node.port, 16 * MiB, chunked);
        if (!("error" in a)) assert.equal(a.status, 413, `16 MB chunked=${chunked}: ${a.text.slice(0, 200)}`);
      }
      await stillServes(node, "after 16 MB bodies");
    });

    it("applies -maxbody: 4096 bytes on the small node", async () => {
      const ok = await small.post(" ".repeat(4096 - PROPERTIES.length) + PROPERTIES);
      assert.equal(ok.status, 200, ok.text);
      const a = await small.post(" ".repeat(4097 - PROPERTIES.length) + PROPERTIES);
      assert.equal(a.status, 413);
      assert.deepEqual(rpcError(a, "413 of -maxbody=4096"), {
        id: null,
        code: -32600,
        message: "Invalid Request",
        data: "request body exceeds the limit of 4096 bytes",
      });
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
      assert.deepEqual(rpcError(a, "batch over the limit"), {
        id: null,
        code: -32600,
        message: "Invalid Request",
        data: "batch of 101 requests is larger than the limit of 100",
      });
    });

    it("applies [App] MaxBatch = 5 on the small node", async () => {
      assert.equal((await small.post(batch(5))).status, 200);
      const a = await small.post(batch(6));
      assert.equal(rpcError(a, "batch of 6").data, "batch of 6 requests is larger than the limit of 5");
    });
  });

  describe("JSON shape", () => {
    it("refuses deep nesting (body, id, params) with a JSON-RPC error and keeps serving", async () => {
      const DEEP = { code: -32600, message: "Invalid Request", data: "JSON nests deeper than 64 levels" };
      const cases: [string, string, typeof DEEP][] = [
        ["100,000 nested arrays", "[".repeat(100_000) + "]".repeat(100_000), DEEP],
        ["100,000 nested objects", '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000), DEEP],
        ["id nested 65 deep", `{"jsonrpc":"2.0","method":"properties","id":${"[".repeat(65)}${"]".repeat(65)}}`, DEEP],
        [
          "params nested 1,000 deep",
          `{"jsonrpc":"2.0","id":1,"method":"heights","params":${"[".repeat(1000)}${"]".repeat(1000)}}`,
          DEEP,
        ],
        [
          "unterminated 500,000 [",
          "[".repeat(500_000),
          { code: -32700, message: "Parse error", data: "Unexpected end of JSON input" },
        ],
      ];
      for (const [name, body, error] of cases) {
        const a = await node.post(body);
        assert.equal(a.status, 400, name);
        assert.deepEqual(rpcError(a, name), { id: null, ...error }, name);
      }
      // the documented depth is accepted: an id nested 63 deep is echoed
      const a = await node.post(`{"jsonrpc":"2.0","method":"properties","id":${"[".repeat(63)}${"]".repeat(63)}}`);
      assert.equal(a.status, 200, a.text.slice(0, 200));
      await stillServes(node, "after deep nesting");
    });

    it("closes the connection of oversized and too many headers without an answer, and serves", async () => {
      const big = await trickle(
        node.port,
        [
          `POST /v2 HTTP/1.1\r\nHost: 127.0.0.1:${node.port}\r\nX-Big: ${"a".repeat(4 * MiB)}\r\nContent-Length: 2\r\n\r\n{}`,
        ],
        1,
        10_000,
      );
      assert.ok(big.closedAfterMs !== undefined, "a 4 MiB header must not hold the connection open");
      assert.equal(big.received, "", "a 4 MiB header: closed without an answer");
      const many = Array.from({ length: 500 }, (_, i) => `X-H${i}: v\r\n`).join("");
      const r = await trickle(
        node.port,
        [
          `POST /v2 HTTP/1.1\r\nHost: 127.0.0.1:${node.port}\r\n${many}Content-Length: ${PROPERTIES.length}\r\n\r\n${PROPERTIES}`,
        ],
        1,
        15_000,
      );
      // uWebSockets closes the connection without an answer (headers past its buffer, or past its count)
      assert.ok(r.closedAfterMs !== undefined, "500 headers must not hold the connection open");
      assert.equal(r.received, "", "500 headers: closed without an answer");
      await stillServes(node, "after oversized headers");
    });
  });

  describe("connections", () => {
    it("cuts slow clients off (headers trickled, body trickled, idle) and serves others meanwhile", async () => {
      const head = `POST /v2 HTTP/1.1\r\nHost: 127.0.0.1:${node.port}\r\nContent-Type: text/plain\r\n`;
      const headers = head + `Content-Length: ${PROPERTIES.length}\r\n\r\n`;
      // headers: ~90 parts and body: ~46 parts at one per 500 ms would outlast the give-up: only a cut ends them
      const ports = new Set<number>();
      const slow = [
        ...Array.from({ length: 20 }, () => trickle(node.port, [...headers], 500, SLOW_CLIENT_GIVE_UP_MS, ports)),
        ...Array.from({ length: 20 }, () =>
          trickle(node.port, [headers, ...PROPERTIES], 500, SLOW_CLIENT_GIVE_UP_MS, ports),
        ),
        ...Array.from({ length: 20 }, () => trickle(node.port, [], 500, SLOW_CLIENT_GIVE_UP_MS, ports)),
      ];
      // the 60 are connected (the node holds their sockets) while it serves another client
      await waitUntil(
        "the node to hold the 60 slow connections",
        () => ports.size === 60 && node.acceptedConnectionsFrom(ports) === 60,
      );
      await stillServes(node, "with 60 slow clients connected");
      const results = await Promise.all(slow);
      const kinds = ["headers trickled", "body trickled", "idle"];
      results.forEach((r, i) => {
        const kind = kinds[Math.floor(i / 20)];
        assert.ok(
          r.closedAfterMs !== undefined,
          `${kind}: connection still open after ${SLOW_CLIENT_GIVE_UP_MS} ms (${r.sent} parts sent)`,
        );
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
        assert.ok(fdsOpen >= fdsBefore + count * 0.9, `fds ${fdsBefore} → ${fdsOpen} with ${count} connections`);
      } finally {
        agent.destroy();
      }
      // closed by the client: the node lets go of every socket
      await waitUntil(
        `the node to close the ${count} sockets`,
        () => node.openFds() <= fdsBefore + 10,
        30_000,
        100,
        () => `open fds ${fdsBefore} before, ${node.openFds()} now`,
      );
    });
  });

  describe("memory", () => {
    it(`answers every request of a flood of ${FLOOD_REQUESTS} invalid ones and keeps serving (RSS: make bench)`, async () => {
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
      let next = 0;
      let ok = 0;
      try {
        await Promise.all(
          Array.from({ length: FLOOD_CONCURRENCY }, async () => {
            while (next < FLOOD_REQUESTS) {
              const i = next++;
              const status = await post(i % 997 === 0 ? PROPERTIES : rng.pick(bodies));
              if (status === 400 || status === 200) ok++;
            }
          }),
        );
      } finally {
        destroy();
      }
      assert.equal(ok, FLOOD_REQUESTS, "every flood request got a JSON-RPC answer (200 or 400)");
      await stillServes(node, "after the flood");
    });
  });
});
