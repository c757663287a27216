// HTTP layer of the real RPC server: routes, Basic auth, CORS, body limits, logs, close
// (spec §5; reference api-behavior §1; api-cases A19–A30).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { refusedMidUpload } from "../../support/httpUpload.js";
import { rawJson, rawRequest, rpc } from "./httpClient.js";
import { startTestServer, type TestServer } from "./support.js";

const PROPERTIES = `{"jsonrpc":"2.0","id":1,"method":"properties"}`;

function basic(user: string, pass: string): string {
  return `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
}

describe("routes", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  it("unknown paths → 404 `404 page not found` (A19, A20)", async () => {
    for (const path of ["/", "/v2/", "/V2", "/v1/properties", "/debug/x"]) {
      const a = await rawRequest(t.base, { method: "GET", path });
      assert.equal(a.status, 404, path);
      assert.equal(a.text, "404 page not found\n", path);
      assert.match(String(a.headers["content-type"]), /^text\/plain/);
    }
  });

  it("/debug takes GET and POST; other verbs → empty 404 (A21)", async () => {
    const body = `{"jsonrpc":"2.0","id":1,"method":"drop-rate"}`;
    for (const method of ["GET", "POST"]) {
      const a = await rawJson(t.base, { method, path: "/debug", body });
      assert.equal(a.status, 200, method);
      assert.deepEqual(a.json.result, { DropRate: 0 });
    }
    for (const method of ["PUT", "DELETE", "PATCH", "OPTIONS"]) {
      const a = await rawRequest(t.base, { method, path: "/debug", body });
      assert.equal(a.status, 404, method);
      assert.equal(a.text, "", method);
    }
  });

  it("/debug does not exist with DebugApi off (the default on MAIN, where the reference never registers it)", async () => {
    t.config.debugApi = "off";
    try {
      const a = await rawRequest(t.base, { path: "/debug", body: `{"jsonrpc":"2.0","id":1,"method":"drop-rate"}` });
      assert.equal(a.status, 404);
      assert.equal(a.text, "404 page not found\n");
    } finally {
      t.config.debugApi = "readonly";
    }
  });

  it("logs each request at debug level with path, verb, status and methods", async () => {
    await rpc(t.base, "properties");
    const line = t.logs
      .map((l) => JSON.parse(l) as { msg: string; level: string; fields?: Record<string, unknown> })
      .at(-1)!;
    assert.equal(line.msg, "rpc request");
    assert.equal(line.level, "debug");
    assert.equal(line.fields?.path, "/v2");
    assert.equal(line.fields?.http, "POST");
    assert.equal(line.fields?.status, 200);
    assert.deepEqual(line.fields?.calls, ["properties"]);
    assert.equal(typeof line.fields?.ms, "number");
  });
});

describe("debug intake knobs (drop rate, delay)", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ dropRatePerMille: 7, delayMs: 3, debugApi: "readwrite" });
  });
  after(() => t.close());
  const debug = (method: string, params?: unknown) => rpc(t.base, method, params, { path: "/debug" });

  it("start from the configuration and change with set-*", async () => {
    assert.deepEqual((await debug("drop-rate")).json.result, { DropRate: 7 });
    assert.deepEqual((await debug("delay")).json.result, { Delay: 3 });
    assert.deepEqual((await debug("set-drop-rate", { DropRate: 5 })).json.result, { DropRate: 5 });
    assert.deepEqual((await debug("drop-rate")).json.result, { DropRate: 5 });
    assert.deepEqual((await debug("set-drop-rate", { droprate: 0 })).json.result, { DropRate: 0 });
    assert.deepEqual((await debug("set-delay", { delay: 250 })).json.result, { Delay: 250 });
    assert.deepEqual((await debug("delay", [1, 2])).json.result, { Delay: 250 });
    assert.deepEqual((await debug("set-delay", { Delay: 0 })).json.result, { Delay: 0 });
  });

  it("refuse bad values and change nothing (I7)", async () => {
    const cases: [string, unknown, string][] = [
      ["set-drop-rate", { DropRate: "5" }, "DropRate: expected an integer, got string"],
      ["set-drop-rate", { DropRate: 1001 }, "DropRate: expected an integer from 0 to 1000, got 1001"],
      ["set-drop-rate", { DropRate: -1 }, "DropRate: expected an integer from 0 to 1000, got -1"],
      ["set-drop-rate", {}, "DropRate: required, expected an integer"],
      ["set-delay", { Delay: 0.5 }, "Delay: expected an integer from 0 to 60000, got 0.5"],
      ["set-delay", [5], "params: expected an object with named members, got array"],
    ];
    for (const [method, params, data] of cases) {
      const a = await debug(method, params);
      assert.equal(a.status, 400);
      assert.equal(a.json.error?.code, -32602);
      assert.equal(a.json.error?.data, data);
    }
    assert.deepEqual((await debug("drop-rate")).json.result, { DropRate: 0 });
    assert.deepEqual((await debug("delay")).json.result, { Delay: 0 });
  });
});

describe("Basic authentication", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ rpcUser: "alice", rpcPass: "s3cret" });
  });
  after(() => t.close());

  const paths = ["/v2", "/debug"];
  const body = (path: string) => (path === "/v2" ? PROPERTIES : `{"jsonrpc":"2.0","id":1,"method":"drop-rate"}`);

  for (const path of paths) {
    it(`${path}: no header → 401 with the challenge, nothing processed (A24)`, async () => {
      const a = await rawRequest(t.base, { path, body: body(path) });
      assert.equal(a.status, 401);
      assert.equal(a.headers["www-authenticate"], 'Basic realm="node RPC"');
      assert.equal(a.text, "401 Unauthorized.\n");
      assert.match(String(a.headers["content-type"]), /^text\/plain/);
    });

    it(`${path}: wrong password, wrong user, lower-case scheme, extra spaces → 401 (A26)`, async () => {
      for (const auth of [
        basic("alice", "wrong"),
        basic("bob", "s3cret"),
        basic("alice", "s3cret").replace("Basic", "basic"),
        basic("alice", "s3cret").replace("Basic ", "Basic  "),
        "Bearer x",
        "",
      ]) {
        const a = await rawRequest(t.base, { path, body: body(path), headers: { Authorization: auth } });
        assert.equal(a.status, 401, auth);
      }
    });

    it(`${path}: right credentials → 200 (A25)`, async () => {
      const a = await rawJson(t.base, { path, body: body(path), headers: { Authorization: basic("alice", "s3cret") } });
      assert.equal(a.status, 200);
      assert.equal(a.json.error, undefined);
    });
  }

  it("of a repeated Authorization the last one counts; a repeated Host is refused (400)", async () => {
    const right = basic("alice", "s3cret");
    const wrong = basic("alice", "wrong");
    const statusOf = async (lines: string[]) => Number((await rawHead(t.base, lines)).split(" ")[1]);
    const host = new URL(t.base).host;
    assert.equal(await statusOf([`Host: ${host}`, `Authorization: ${wrong}`, `Authorization: ${right}`]), 200);
    assert.equal(await statusOf([`Host: ${host}`, `Authorization: ${right}`, `Authorization: ${wrong}`]), 401);
    // which Host counts would be ambiguous: none does (security review 3, L3)
    assert.equal(await statusOf([`Host: evil.example`, `Host: ${host}`, `Authorization: ${right}`]), 400);
    assert.equal(await statusOf([`Host: ${host}`, `Host: evil.example`, `Authorization: ${right}`]), 400);
  });

  it("checks credentials before reading the body (A27)", async () => {
    const a = await rawRequest(t.base, { body: "garbage" });
    assert.equal(a.status, 401);
    const b = await rawRequest(t.base, { body: "x".repeat(200_000) });
    assert.equal(b.status, 401);
  });

  it("set-drop-rate without credentials changes nothing", async () => {
    const a = await rawRequest(t.base, {
      path: "/debug",
      body: `{"jsonrpc":"2.0","id":1,"method":"set-drop-rate","params":{"DropRate":9}}`,
    });
    assert.equal(a.status, 401);
    assert.equal(t.server.intake.dropRatePerMille, 0);
    assert.deepEqual(
      (
        await rawJson(t.base, {
          path: "/debug",
          body: `{"jsonrpc":"2.0","id":1,"method":"drop-rate"}`,
          headers: { Authorization: basic("alice", "s3cret") },
        })
      ).json.result,
      { DropRate: 0 },
    );
  });

  it("follows configuration changes live (reload-configuration)", async () => {
    // the tests above spent this address's failed-login budget (loginGuard.ts): wait out each 429
    const status = async (headers: Record<string, string> = {}): Promise<number> => {
      for (;;) {
        const a = await rawRequest(t.base, { body: PROPERTIES, headers });
        if (a.status !== 429) return a.status;
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    t.config.rpcPass = "n3w";
    try {
      assert.equal(await status({ Authorization: basic("alice", "s3cret") }), 401);
      assert.equal(await status({ Authorization: basic("alice", "n3w") }), 200);
      t.config.rpcUser = "";
      t.config.rpcPass = "";
      assert.equal(await status(), 200);
    } finally {
      t.config.rpcUser = "alice";
      t.config.rpcPass = "s3cret";
    }
  });
});

describe("CORS", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ corsDomains: ["http://a.example", "https://*.b.example"] });
  });
  after(() => t.close());

  it("an allowed origin gets Access-Control-Allow-Origin and Vary (A28)", async () => {
    for (const origin of ["http://a.example", "HTTP://A.EXAMPLE", "https://x.b.example"]) {
      const a = await rawJson(t.base, { body: PROPERTIES, headers: { Origin: origin } });
      assert.equal(a.status, 200);
      assert.equal(a.headers["access-control-allow-origin"], origin);
      assert.equal(a.headers.vary, "Origin");
    }
  });

  it("another origin is refused before anything runs (403, plain text; issue 19: cross-site requests)", async () => {
    const a = await rawRequest(t.base, { body: PROPERTIES, headers: { Origin: "http://evil.example" } });
    assert.equal(a.status, 403);
    assert.equal(a.text, '403 Forbidden: Origin "http://evil.example" is not allowed (list it in [App] CorsDomains)\n');
    assert.equal(a.headers["access-control-allow-origin"], undefined);
  });

  it("answers a pre-flight with 200, an empty body and the grants (A29)", async () => {
    const a = await rawRequest(t.base, {
      method: "OPTIONS",
      headers: {
        Origin: "http://a.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, authorization",
      },
    });
    assert.equal(a.status, 200);
    assert.equal(a.text, "");
    assert.equal(a.headers["access-control-allow-origin"], "http://a.example");
    assert.equal(a.headers["access-control-allow-methods"], "POST");
    assert.equal(a.headers["access-control-allow-headers"], "content-type, authorization");
    assert.equal(a.headers.vary, "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
  });

  it("does not grant other methods, headers or origins in a pre-flight", async () => {
    const preflights: Record<string, string>[] = [
      { Origin: "http://a.example", "Access-Control-Request-Method": "PUT" },
      {
        Origin: "http://a.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "x-custom",
      },
      { Origin: "http://evil.example", "Access-Control-Request-Method": "POST" },
    ];
    for (const headers of preflights) {
      const a = await rawRequest(t.base, { method: "OPTIONS", headers });
      // a listed origin asking for too much gets no grant; an unlisted one is refused outright
      assert.equal(a.status, headers.Origin === "http://evil.example" ? 403 : 200);
      assert.equal(a.headers["access-control-allow-origin"], undefined);
    }
  });

  it("a pre-flight needs no credentials; the actual request does", async () => {
    t.config.rpcUser = "u";
    t.config.rpcPass = "p";
    try {
      const pre = await rawRequest(t.base, {
        method: "OPTIONS",
        headers: { Origin: "http://a.example", "Access-Control-Request-Method": "POST" },
      });
      assert.equal(pre.status, 200);
      const a = await rawRequest(t.base, { body: PROPERTIES, headers: { Origin: "http://a.example" } });
      assert.equal(a.status, 401);
      assert.equal(a.headers["access-control-allow-origin"], "http://a.example");
    } finally {
      t.config.rpcUser = "";
      t.config.rpcPass = "";
    }
  });

  it("without CorsDomains: no CORS headers, OPTIONS is a JSON-RPC call with an empty body (A30)", async () => {
    const saved = t.config.corsDomains;
    t.config.corsDomains = [];
    try {
      // a browser's pre-flight from an origin no longer listed: refused
      const browser = await rawRequest(t.base, {
        method: "OPTIONS",
        headers: { Origin: "http://a.example", "Access-Control-Request-Method": "POST" },
      });
      assert.equal(browser.status, 403);
      const a = await rawJson(t.base, { method: "OPTIONS", headers: { "Access-Control-Request-Method": "POST" } });
      assert.equal(a.status, 400);
      assert.deepEqual(a.json.error, { code: -32600, message: "Invalid Request", data: "empty body" });
      assert.equal(a.headers["access-control-allow-origin"], undefined);
      assert.equal(a.headers.vary, undefined);
    } finally {
      t.config.corsDomains = saved;
    }
  });

  it("a `*` entry allows any origin with `*`", async () => {
    const saved = t.config.corsDomains;
    t.config.corsDomains = ["*"];
    try {
      const a = await rawJson(t.base, { body: PROPERTIES, headers: { Origin: "http://whatever.example" } });
      assert.equal(a.headers["access-control-allow-origin"], "*");
    } finally {
      t.config.corsDomains = saved;
    }
  });
});

describe("body limits", () => {
  let t: TestServer;
  const LIMIT = 64 * 1024;
  before(async () => {
    t = await startTestServer({ maxBodyBytes: LIMIT });
  });
  after(() => t.close());

  it("accepts a body up to the limit", async () => {
    const pad = " ".repeat(LIMIT - PROPERTIES.length);
    const a = await rawJson(t.base, { body: PROPERTIES + pad });
    assert.equal(a.status, 200);
  });

  it("refuses one byte more with 413, and keeps serving", async () => {
    const a = await rawRequest(t.base, { body: PROPERTIES + " ".repeat(LIMIT - PROPERTIES.length + 1) });
    assert.equal(a.status, 413);
    assert.deepEqual(JSON.parse(a.text), {
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid Request", data: `request body exceeds the limit of ${LIMIT} bytes` },
    });
    assert.equal((await rpc(t.base, "properties")).status, 200);
  });

  it("refuses a 16 MB body and a 16 MB chunked body, and keeps serving", async () => {
    const big = Buffer.alloc(16 * 1024 * 1024, 0x20);
    const tooLarge = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request","data":"request body exceeds the limit of ${LIMIT} bytes"}}`;
    const a = await rawRequest(t.base, { body: big });
    assert.equal(a.status, 413);
    assert.equal(a.text, tooLarge);
    const b = await rawRequest(t.base, { body: big, chunkBytes: 256 * 1024 });
    assert.equal(b.status, 413);
    assert.equal(b.text, tooLarge);
    // Not held: the same uploads are refused when they stop at once (declared) or just past the limit
    // (chunked) — a server that read the body before answering would never answer them.
    for (const chunked of [false, true])
      assert.deepEqual(await refusedMidUpload(t.server.port, big.length, chunked, LIMIT), {
        status: 413,
        text: tooLarge,
      });
    assert.equal((await rpc(t.base, "properties")).status, 200);
  });

  it("a chunked body within the limit is read", async () => {
    const a = await rawJson(t.base, { body: PROPERTIES, chunkBytes: 7 });
    assert.equal(a.status, 200);
  });
});

describe("close", () => {
  it("stops listening and closes kept-alive connections", async () => {
    const t = await startTestServer();
    const port = t.server.port;
    assert.ok(port > 0);
    assert.equal((await rpc(t.base, "properties")).status, 200);
    await t.close();
    await assert.rejects(
      new Promise((resolve, reject) => {
        const s = connect(port, "127.0.0.1", () => {
          s.destroy();
          resolve(undefined);
        });
        s.on("error", reject);
      }),
    );
  });
});

describe("TLS", () => {
  it("serves the same API over HTTPS with the node's certificate; plain HTTP gets no answer", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledgerd-rpc-tls-"));
    const tls = { enabled: true, keyFile: join(dir, "node.key"), certFile: join(dir, "node.crt") };
    const t = await startTestServer({ rpcUser: "u", rpcPass: "p", tls });
    try {
      assert.match(t.base, /^https:/);
      const ca = readFileSync(tls.certFile, "utf8");
      const a = await rawJson(t.base, { body: PROPERTIES, ca, headers: { Authorization: basic("u", "p") } });
      assert.equal(a.status, 200);
      assert.equal(a.json.id, 1);
      assert.equal((await rawRequest(t.base, { body: PROPERTIES, ca })).status, 401);
      await assert.rejects(rawRequest(t.base.replace("https:", "http:"), { body: PROPERTIES }));
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * POST `properties` to /v2 with exactly these header lines (and Content-Length, Connection: close) over a raw
 * socket — Node's client merges or refuses repeated headers — and return the answer's status line.
 */
function rawHead(base: string, lines: string[]): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const s = connect(Number(url.port), url.hostname, () => {
      const head = [
        "POST /v2 HTTP/1.1",
        ...lines,
        `Content-Length: ${Buffer.byteLength(PROPERTIES)}`,
        "Connection: close",
      ].join("\r\n");
      s.write(`${head}\r\n\r\n${PROPERTIES}`);
    });
    const chunks: Buffer[] = [];
    s.on("data", (c: Buffer) => chunks.push(c));
    s.on("end", () => resolve(Buffer.concat(chunks).toString("latin1").split("\r\n")[0] ?? ""));
    s.on("error", reject);
  });
}
