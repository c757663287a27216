/**
 * Malformed HTTP, slow and idle clients, against real nodes over raw loopback sockets (issue 13 item 7;
 * docs/operations.md §5): the default node (uWebSockets.js alone) and a node started with `-httpfront`
 * (rpc/httpFront.ts), which answers what uWS drops.
 *
 * The default node gives these requests no status line (the uWS build's parser drops them without calling
 * JavaScript); what must hold there is that none is answered as a success, that the server itself closes each
 * connection, and that other clients are served meanwhile. Behind the front each gets its status.
 * Runtime: about 15 s (the 10 s head/idle bounds of both nodes are waited for once, concurrently).
 */
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import { killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";

/** What a raw exchange saw. */
interface RawAnswer {
  /** everything the server sent (latin1) */
  text: string;
  /** status codes of the status lines in `text`, in order */
  statuses: number[];
  /** the server ended or reset the connection (false: still open when the client gave up) */
  closedByServer: boolean;
}

/** Longest wait for a server's close in these tests, ms (the servers' own bound is 10 s). */
const GIVE_UP_MS = 30_000;

/**
 * Send `request` (latin1) on a new connection — all at once, or one byte per `dribbleMs` — and collect the
 * answer until the server closes the connection (or `GIVE_UP_MS` passes). `untilStatuses` ends the exchange
 * early, once that many status lines have arrived (for connections the server keeps open).
 */
function rawExchange(
  port: number,
  request: string,
  opts: { dribbleMs?: number; untilStatuses?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const done = (closedByServer: boolean): void => {
      if (settled) return;
      settled = true;
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve({ text, statuses: statusesOf(text), closedByServer });
    };
    const giveUp = setTimeout(() => done(false), GIVE_UP_MS);
    socket.on("connect", () => {
      if (opts.dribbleMs === undefined) {
        if (request !== "") socket.write(request, "latin1");
        return;
      }
      let i = 0;
      timer = setInterval(() => {
        if (i < request.length && !socket.destroyed) socket.write(request[i++]!, "latin1");
      }, opts.dribbleMs);
    });
    socket.on("data", (d) => {
      text += d.toString("latin1");
      if (opts.untilStatuses !== undefined && statusesOf(text).length >= opts.untilStatuses) done(false);
    });
    socket.on("end", () => done(true));
    socket.on("error", () => done(true));
    socket.on("close", () => done(true));
  });
}

function statusesOf(text: string): number[] {
  return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
}

function heightsBody(): string {
  return JSON.stringify({ jsonrpc: "2.0", id: 1, method: "heights" });
}

/** The malformed requests, each with the status the front answers and a word its reason names. */
function malformed(port: number): { name: string; request: string; status: number; reason: RegExp }[] {
  const host = `Host: 127.0.0.1:${port}\r\n`;
  return [
    { name: "HTTP/1.1 without Host", request: "GET /health HTTP/1.1\r\n\r\n", status: 400, reason: /Host/ },
    { name: "unknown method", request: `BREW /v2 HTTP/1.1\r\n${host}\r\n`, status: 405, reason: /BREW/ },
    { name: "target * with GET", request: `GET * HTTP/1.1\r\n${host}\r\n`, status: 400, reason: /\*/ },
    { name: "absolute-form target", request: `GET http://a/v2 HTTP/1.1\r\n${host}\r\n`, status: 400, reason: /path/ },
    {
      name: "control character",
      request: `GET /health HTTP/1.1\r\n${host}X-A: a\x01b\r\n\r\n`,
      status: 400,
      reason: /X-A/,
    },
    {
      name: "NUL in a value",
      request: `GET /health HTTP/1.1\r\n${host}X-B: a\x00b\r\n\r\n`,
      status: 400,
      reason: /X-B/,
    },
    { name: "HTTP/2.0", request: `GET /health HTTP/2.0\r\n${host}\r\n`, status: 505, reason: /HTTP\/2\.0/ },
    { name: "not HTTP", request: "hello there\r\n\r\n", status: 400, reason: /request line/ },
    {
      name: "header without colon",
      request: `GET /health HTTP/1.1\r\n${host}Broken\r\n\r\n`,
      status: 400,
      reason: /Broken/,
    },
    {
      name: "space before colon",
      request: `GET /health HTTP/1.1\r\n${host}X-C : v\r\n\r\n`,
      status: 400,
      reason: /X-C/,
    },
    {
      name: "obs-fold",
      request: `GET /health HTTP/1.1\r\n${host}X-D: a\r\n b\r\n\r\n`,
      status: 400,
      reason: /folding/,
    },
    { name: "bare LF", request: `GET /health HTTP/1.1\n${host.trim()}\n\n`, status: 400, reason: /LF/ },
    { name: "two Host headers", request: `GET /health HTTP/1.1\r\n${host}${host}\r\n`, status: 400, reason: /Host/ },
    {
      name: "49 header lines",
      request: `GET /health HTTP/1.1\r\n${host}${Array.from({ length: 48 }, (_, i) => `X-H${i}: v\r\n`).join("")}\r\n`,
      status: 431,
      reason: /48/,
    },
  ];
}

describe("malformed HTTP, slow and idle clients", { concurrency: false }, () => {
  let plain: LedgerdProcess;
  let front: LedgerdProcess;
  before(async () => {
    [plain, front] = await Promise.all([
      LedgerdProcess.start(),
      LedgerdProcess.start({ extraArgs: ["-httpfront", "-debugapi=readwrite"] }),
    ]);
  });
  after(async () => {
    await killAllNodes();
    plain?.cleanup();
    front?.cleanup();
  });

  it("behind -httpfront each malformed first request gets its status and reason, then the close", async () => {
    const cases = malformed(front.port);
    const answers = await Promise.all(cases.map((c) => rawExchange(front.port, c.request)));
    cases.forEach((c, i) => {
      const a = answers[i]!;
      assert.deepEqual(a.statuses, [c.status], `${c.name}: ${JSON.stringify(a.text)}`);
      assert.match(a.text, /\r\nConnection: close\r\n/, c.name);
      assert.match(a.text.slice(a.text.indexOf("\r\n\r\n")), c.reason, `${c.name}: ${JSON.stringify(a.text)}`);
      assert.equal(a.closedByServer, true, `${c.name}: the front closes after its answer`);
    });
    const brew = answers[cases.findIndex((c) => c.name === "unknown method")]!;
    assert.match(brew.text, /\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/);
    assert.deepEqual((await front.rpc<{ leaderheight: number }>("heights")).leaderheight >= 0, true);
  });

  it("behind -httpfront `OPTIONS *` is 200 with Allow, HTTP/1.0 is served once and closed", async () => {
    const host = `Host: 127.0.0.1:${front.port}\r\n`;
    const star = await rawExchange(front.port, `OPTIONS * HTTP/1.1\r\n${host}\r\n`);
    assert.deepEqual(star.statuses, [200]);
    assert.match(star.text, /\r\nAllow: GET, HEAD, POST, OPTIONS\r\n/);

    const body = heightsBody();
    for (const request of [
      `POST /v2 HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      `POST /v2 HTTP/1.0\r\n${host}Connection: keep-alive\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    ]) {
      const a = await rawExchange(front.port, request);
      assert.deepEqual(a.statuses, [200], a.text);
      assert.match(a.text, /"leaderheight":\d+/);
      assert.equal(a.closedByServer, true, "HTTP/1.0: one answer, then the close");
    }
    const health = await rawExchange(front.port, "GET /health HTTP/1.0\r\n\r\n");
    assert.equal(health.statuses.length, 1);
    assert.ok([200, 503].includes(health.statuses[0]!), health.text);
  });

  it("behind -httpfront a kept-alive connection serves several requests (pipelined, chunked) and WebSockets upgrade", async () => {
    const host = `Host: 127.0.0.1:${front.port}\r\n`;
    const body = heightsBody();
    const post = `POST /v2 HTTP/1.1\r\n${host}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const chunked =
      `POST /v2 HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\n` +
      `${(10).toString(16)}\r\n${body.slice(0, 10)}\r\n${(body.length - 10).toString(16)}\r\n${body.slice(10)}\r\n0\r\n\r\n`;
    const a = await rawExchange(front.port, post + post + chunked, { untilStatuses: 3 });
    assert.deepEqual(a.statuses, [200, 200, 200], a.text);
    assert.equal(a.text.match(/"leaderheight"/g)?.length, 3);

    const upgrade = await rawExchange(
      front.port,
      `GET /live HTTP/1.1\r\n${host}Upgrade: websocket\r\nConnection: Upgrade\r\n` +
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      { untilStatuses: 1 },
    );
    assert.deepEqual(upgrade.statuses, [101], upgrade.text);
  });

  it("behind -httpfront the node sees the client's address (a loopback caller may change state on /debug)", async () => {
    // uWS hears the front on a Unix socket; without the PROXY header's address the caller would be unknown
    // and set-drop-rate refused as "not loopback"
    await front.rpc("set-drop-rate", { DropRate: 0 }, "debug");
  });

  // the two waits for the servers' 10 s bounds run side by side
  describe("the 10 s bounds", { concurrency: true }, () => {
    it("the default node answers none of them as a success, closes each itself, and serves others meanwhile", async () => {
      // two Host headers are the one case uWS serves (Go refuses it); the front refuses it
      const cases = malformed(plain.port).filter((c) => c.name !== "two Host headers");
      const pending = Promise.all(cases.map((c) => rawExchange(plain.port, c.request)));
      // served while the malformed connections are held (up to uWS's 10 s timeout)
      assert.ok((await plain.rpc<{ leaderheight: number }>("heights")).leaderheight >= 0);
      const answers = await pending;
      cases.forEach((c, i) => {
        const a = answers[i]!;
        assert.ok(!a.statuses.some((s) => s < 300), `${c.name}: ${JSON.stringify(a.text)}`);
        assert.equal(a.closedByServer, true, `${c.name}: the server closes the connection`);
      });
    });

    it("both nodes close idle connections and trickled heads (behind the front: 408), and serve others meanwhile", async () => {
      const trickle = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${"a".repeat(100)}\r\n\r\n`;
      const exchanges = [plain, front].flatMap((n) => [
        rawExchange(n.port, ""),
        rawExchange(n.port, trickle, { dribbleMs: 200 }),
      ]);
      for (const n of [plain, front]) assert.ok((await n.rpc<{ leaderheight: number }>("heights")).leaderheight >= 0);
      const [plainIdle, plainSlow, frontIdle, frontSlow] = await Promise.all(exchanges);
      for (const a of [plainIdle!, plainSlow!, frontIdle!, frontSlow!]) assert.equal(a.closedByServer, true);
      assert.equal(plainIdle!.text, "");
      assert.equal(frontIdle!.text, "", "nothing is sent to a connection that sent nothing");
      assert.deepEqual(plainSlow!.statuses, []);
      assert.deepEqual(frontSlow!.statuses, [408], frontSlow!.text);
    });
  });
});
