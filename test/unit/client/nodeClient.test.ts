// NodeClient against real local HTTP(S) servers that answer the way a node does (success, JSON-RPC
// error with HTTP 400, 401 plain text, 404, garbage, silence) — and against a port nobody listens on.
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { generate } from "selfsigned";
import {
  AuthError,
  ClientConfigError,
  HttpError,
  NODE_METHODS,
  NodeClient,
  QUERY_METHODS,
  RpcError,
  UnreachableError,
} from "../../../src/client/index.js";

interface Seen {
  path: string;
  method: string;
  httpMethod: string;
  params: unknown;
  hasParams: boolean;
  authorization: string | undefined;
  contentType: string | undefined;
  id: unknown;
}

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

interface TestServer {
  url: string;
  port: number;
  seen: Seen[];
  connections: () => number;
  close: () => Promise<void>;
}

function record(req: http.IncomingMessage, body: string, seen: Seen[]): void {
  let parsed: { method?: string; params?: unknown; id?: unknown } = {};
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    // not JSON: recorded with empty fields
  }
  seen.push({
    path: req.url ?? "",
    method: parsed.method ?? "",
    httpMethod: req.method ?? "",
    params: parsed.params,
    hasParams: "params" in parsed,
    authorization: req.headers.authorization,
    contentType: req.headers["content-type"],
    id: parsed.id,
  });
}

async function listen(server: http.Server | https.Server, scheme: string, seen: Seen[]): Promise<TestServer> {
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    seen,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function withBody(handler: Handler, seen: Seen[]): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      record(req, body, seen);
      handler(req, body, res);
    });
  };
}

async function startServer(handler: Handler): Promise<TestServer> {
  const seen: Seen[] = [];
  return listen(http.createServer(withBody(handler, seen)), "http", seen);
}

/** Answers every call with `result` computed from the request, like a node would. */
function rpcOk(result: (method: string, params: unknown) => unknown): Handler {
  return (_req, body, res) => {
    const r = JSON.parse(body) as { id: unknown; method: string; params?: unknown };
    res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: r.id, result: result(r.method, r.params) }));
  };
}

/**
 * A port nobody listens on: 1 (tcpmux, privileged, unused on build machines). A port picked with
 * listen(0) and released can be taken again at once by a parallel test's node, so it is not used here.
 */
const CLOSED_PORT = 1;

const servers: TestServer[] = [];
const clients: NodeClient[] = [];
after(async () => {
  for (const c of clients) c.close();
  for (const s of servers) await s.close();
});
function client(options: ConstructorParameters<typeof NodeClient>[0]): NodeClient {
  const c = new NodeClient(options);
  clients.push(c);
  return c;
}

describe("NodeClient requests", () => {
  test("posts a JSON-RPC 2.0 request to /v2 and resolves with result", async () => {
    const s = await startServer(
      rpcOk((method) =>
        method === "heights" ? { directoryblockheight: 7, leaderheight: 8, entryblockheight: 7, entryheight: 7 } : null,
      ),
    );
    servers.push(s);
    const c = client({ url: s.url });
    const h = await c.heights();
    assert.equal(h.directoryblockheight, 7);
    assert.equal(h.leaderheight, 8);
    assert.equal(s.seen[0]!.path, "/v2");
    assert.equal(s.seen[0]!.httpMethod, "POST");
    assert.equal(s.seen[0]!.method, "heights");
    assert.equal(s.seen[0]!.hasParams, false, "methods without params send no params member");
    assert.equal(s.seen[0]!.authorization, undefined);
    assert.match(s.seen[0]!.contentType ?? "", /^text\/plain/);
  });

  test("sends params with the exact member names and unique ids", async () => {
    const s = await startServer(rpcOk(() => ({ balance: 5 })));
    servers.push(s);
    const c = client({ url: `${s.url}/v2/` });
    await c.assetBalance({ address: "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q" });
    await c.ack({ hash: "ab".repeat(32), chainid: "f" });
    assert.deepEqual(s.seen[0]!.params, { address: "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q" });
    assert.deepEqual(s.seen[1]!.params, { hash: "ab".repeat(32), chainid: "f" });
    assert.equal(s.seen[0]!.path, "/v2", "a URL ending in /v2/ is normalised to the base");
    assert.notEqual(s.seen[0]!.id, s.seen[1]!.id);
  });

  test("every spec §4.1 / §4.2 method (and query extension) goes to its endpoint under its own name", async () => {
    const s = await startServer(rpcOk(() => ({})));
    servers.push(s);
    const c = client({ url: s.url });
    const proto = NodeClient.prototype as unknown as Record<string, unknown>;
    // pages() is a generator over the query wrappers: it sends nothing until iterated
    const skip = new Set(["constructor", "call", "close", "post", "pages"]);
    const names = Object.getOwnPropertyNames(NodeClient.prototype).filter(
      (n) => !skip.has(n) && typeof proto[n] === "function",
    );
    for (const name of names) await (c as unknown as Record<string, (p?: unknown) => Promise<unknown>>)[name]!({});
    const sent = s.seen.map((x) => `${x.path} ${x.method}`).sort();
    const expected = [
      ...NODE_METHODS.v2.map((m) => `/v2 ${m}`),
      ...NODE_METHODS.debug.map((m) => `/debug ${m}`),
      ...QUERY_METHODS.map((m) => `/v2 ${m}`),
      // the offline-verifiable proof extension (not paged)
      "/v2 proof",
    ].sort();
    assert.deepEqual(sent, expected);
    assert.equal(NODE_METHODS.v2.length, 34, "spec §4.1 lists 34 methods");
    assert.equal(NODE_METHODS.debug.length, 15, "spec §4.2 lists 15 methods");
  });

  test("reuses one keep-alive connection for consecutive calls", async () => {
    const s = await startServer(rpcOk(() => ({ rate: 1000 })));
    servers.push(s);
    const c = client({ url: s.url });
    for (let i = 0; i < 5; i++) await c.entryCreditRate();
    assert.equal(s.connections(), 1);
  });

  test("Basic authentication header carries user:password", async () => {
    const s = await startServer(rpcOk(() => ({ nodeversion: "x", nodeapiversion: "2.0" })));
    servers.push(s);
    const c = client({ url: s.url, user: "u", password: "p:w" });
    await c.properties();
    assert.equal(s.seen[0]!.authorization, `Basic ${Buffer.from("u:p:w").toString("base64")}`);
  });

  test("integers beyond 2^53 arrive exactly as bigint; small ones as number", async () => {
    const s = await startServer((_req, body, res) => {
      const id = (JSON.parse(body) as { id: number }).id;
      res.writeHead(200);
      res.end(
        `{"jsonrpc":"2.0","id":${id},"result":{"currenttime":1700000000123456789,"minute":3,"leaderheight":12345678901234}}`,
      );
    });
    servers.push(s);
    const r = await client({ url: s.url }).currentMinute();
    assert.equal(r.currenttime, 1700000000123456789n);
    assert.equal(r.minute, 3);
    assert.equal(r.leaderheight, 12345678901234);
  });
});

describe("NodeClient errors", () => {
  test("HTTP 400 with a JSON-RPC error → RpcError with code, message, data and method", async () => {
    const s = await startServer((_req, body, res) => {
      const id = (JSON.parse(body) as { id: number }).id;
      res.writeHead(400);
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id,
          error: { code: -32011, message: "Repeated Commit", data: { entryhash: "aa", info: "x" } },
        }),
      );
    });
    servers.push(s);
    await assert.rejects(client({ url: s.url }).commitEntry({ message: "00" }), (e: unknown) => {
      assert.ok(e instanceof RpcError);
      assert.equal(e.code, -32011);
      assert.equal(e.rpcMessage, "Repeated Commit");
      assert.deepEqual(e.data, { entryhash: "aa", info: "x" });
      assert.equal(e.method, "commit-entry");
      assert.match(e.message, /commit-entry: Repeated Commit \(code -32011\)/);
      return true;
    });
  });

  test("HTTP 401 → AuthError that says whether credentials were sent", async () => {
    const s = await startServer((_req, _body, res) => {
      res.writeHead(401, { "www-authenticate": 'Basic realm="node RPC"', "content-type": "text/plain; charset=utf-8" });
      res.end("401 Unauthorized.\n");
    });
    servers.push(s);
    await assert.rejects(client({ url: s.url }).heights(), (e: unknown) => {
      assert.ok(e instanceof AuthError);
      assert.equal(e.sentCredentials, false);
      assert.match(e.message, /authentication required/);
      assert.ok(e.message.includes(`${s.url}/v2`));
      return true;
    });
    await assert.rejects(client({ url: s.url, user: "u", password: "wrong" }).heights(), (e: unknown) => {
      assert.ok(e instanceof AuthError);
      assert.equal(e.sentCredentials, true);
      assert.match(e.message, /rejected the user name or password/);
      return true;
    });
  });

  test("connection refused → UnreachableError naming the URL", async () => {
    const port = CLOSED_PORT;
    const url = `http://127.0.0.1:${port}`;
    await assert.rejects(client({ url }).heights(), (e: unknown) => {
      assert.ok(e instanceof UnreachableError);
      assert.equal(e.reason, "refused");
      assert.equal(e.causeCode, "ECONNREFUSED");
      assert.ok(e.message.includes(`${url}/v2`), e.message);
      return true;
    });
  });

  test("a node that never answers → UnreachableError after timeoutMs", async () => {
    const s = await startServer(() => {
      // never respond
    });
    servers.push(s);
    const started = Date.now();
    await assert.rejects(client({ url: s.url, timeoutMs: 300 }).heights(), (e: unknown) => {
      assert.ok(e instanceof UnreachableError);
      assert.equal(e.reason, "timeout");
      assert.match(e.message, /within 300 ms/);
      return true;
    });
    // not before the timeout (no upper bound: a client that never gave up would hang this test instead)
    const took = Date.now() - started;
    assert.ok(took >= 290, `took ${took} ms`);
  });

  test("404 page, 500 with text, and a non-JSON 200 → HttpError with status", async () => {
    const answers: [number, string][] = [
      [404, "404 page not found\n"],
      [500, "boom"],
      [200, "<html>proxy</html>"],
    ];
    let n = 0;
    const s = await startServer((_req, _body, res) => {
      const [status, body] = answers[n++]!;
      res.writeHead(status);
      res.end(body);
    });
    servers.push(s);
    const c = client({ url: s.url });
    for (const [status, body] of answers) {
      await assert.rejects(c.heights(), (e: unknown) => {
        assert.ok(e instanceof HttpError, String(e));
        assert.equal(e.status, status);
        assert.equal(e.bodySnippet, body);
        return true;
      });
    }
  });

  test("bad options fail at construction with ClientConfigError", () => {
    assert.throws(() => new NodeClient({ url: "not a url" }), ClientConfigError);
    assert.throws(() => new NodeClient({ url: "ftp://127.0.0.1:8088" }), /scheme must be http or https/);
    assert.throws(
      () => new NodeClient({ url: "https://127.0.0.1:8088", caFile: "/nonexistent/ca.pem" }),
      /cannot read it \(ENOENT\)/,
    );
    assert.throws(() => new NodeClient({ url: "http://127.0.0.1:8088", caFile: "/etc/hostname" }), /use https/);
    assert.throws(() => new NodeClient({ url: "http://127.0.0.1:8088", timeoutMs: 0 }), /positive/);
  });
});

describe("NodeClient TLS", () => {
  const dir = mkdtempSync(join(tmpdir(), "ledgerd-client-tls-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("trusts the node's certificate given as caFile; refuses without it", async () => {
    const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
      keyType: "ec",
      curve: "P-256",
      extensions: [{ name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }],
    });
    const certFile = join(dir, "node.cert");
    writeFileSync(certFile, pems.cert);
    const seen: Seen[] = [];
    const server = https.createServer(
      { key: pems.private, cert: pems.cert },
      withBody(
        rpcOk(() => ({ nodeversion: "t", nodeapiversion: "2.0" })),
        seen,
      ),
    );
    const s = await listen(server, "https", seen);
    servers.push(s);

    const trusted = await client({ url: s.url, caFile: certFile }).properties();
    assert.equal(trusted.nodeversion, "t");

    await assert.rejects(client({ url: s.url }).properties(), (e: unknown) => {
      assert.ok(e instanceof UnreachableError, String(e));
      assert.equal(e.reason, "tls");
      assert.match(e.message, /TLS handshake failed/);
      return true;
    });
  });
});
