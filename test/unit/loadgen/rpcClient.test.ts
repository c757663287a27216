import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
import { parseReply } from "../../../tools/loadgen/connection.js";
import { loopbackUrl, RpcCallError, RpcClient, TRANSPORT_ERROR } from "../../../tools/loadgen/rpcClient.js";

describe("loadgen client", () => {
  test("only loopback URLs are accepted", () => {
    assert.equal(loopbackUrl("http://127.0.0.1:8088").port, "8088");
    assert.equal(loopbackUrl("http://localhost:1").hostname, "localhost");
    assert.equal(loopbackUrl("http://[::1]:8088").hostname, "[::1]");
    assert.throws(() => loopbackUrl("http://10.0.0.1:8088"), /loopback/);
    assert.throws(() => loopbackUrl("http://example.com"), /loopback/);
    assert.throws(() => loopbackUrl("https://127.0.0.1:8088"), /only http/);
  });
});

describe("loadgen client replies (real HTTP server on loopback)", () => {
  test("success, JSON-RPC errors with either status, bad JSON and timeouts are told apart", async () => {
    const replies: Record<string, [number, string]> = {
      ok: [200, '{"jsonrpc":"2.0","id":1,"result":{"x":"ab"}}'],
      err: [400, '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":"hash"}}'],
      err200: [200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32011,"message":"Repeated Commit"}}'],
      garbage: [200, "not json"],
      notfound: [404, "404 page not found\n"],
    };
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString();
      });
      req.on("end", () => {
        const method = (JSON.parse(body) as { method: string }).method;
        if (method === "slow") return; // never answers
        if (method === "sized") {
          // a Content-Length reply (as uWebSockets sends), split over two writes
          const text = '{"jsonrpc":"2.0","id":1,"result":"sized"}';
          res.writeHead(200, { "content-length": Buffer.byteLength(text) });
          res.write(text.slice(0, 10));
          setTimeout(() => res.end(text.slice(10)), 5);
          return;
        }
        const [status, text] = replies[method]!;
        res.writeHead(status, { "content-type": "application/json" }).end(text);
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as { port: number }).port;
    // Replies get a generous bound (a busy machine may take seconds to answer on loopback); only the request
    // that is never answered goes through a client with a short one, so the timeout path stays quick to test.
    const client = new RpcClient({ url: `http://127.0.0.1:${port}`, maxSockets: 4, timeoutMs: 60_000 });
    const impatient = new RpcClient({ url: `http://127.0.0.1:${port}`, maxSockets: 1, timeoutMs: 300 });
    const body = (method: string) => JSON.stringify({ jsonrpc: "2.0", id: 1, method });
    try {
      for (const wantResult of [true, false]) {
        const ok = await client.post(body("ok"), "/v2", wantResult);
        assert.equal(ok.error, undefined);
        assert.ok(ok.ms >= 0);
        if (wantResult) assert.deepEqual(ok.result, { x: "ab" });
        const sized = await client.post(body("sized"), "/v2", wantResult);
        assert.equal(sized.error, undefined);
        if (wantResult) assert.equal(sized.result, "sized");
        assert.deepEqual((await client.post(body("err"), "/v2", wantResult)).error, {
          code: -32602,
          message: "Invalid params",
          data: "hash",
        });
        assert.equal((await client.post(body("err200"), "/v2", wantResult)).error?.code, -32011);
        assert.equal((await client.post(body("garbage"), "/v2", wantResult)).error?.code, TRANSPORT_ERROR.badJson);
        assert.equal((await client.post(body("notfound"), "/v2", wantResult)).error?.code, TRANSPORT_ERROR.http);
        assert.equal((await impatient.post(body("slow"), "/v2", wantResult)).error?.code, TRANSPORT_ERROR.timeout);
      }
      // more callers than connections: they wait their turn, every one answered
      const many = await Promise.all(Array.from({ length: 20 }, () => client.post(body("ok"))));
      assert.deepEqual(
        many.map((r) => r.result),
        many.map(() => ({ x: "ab" })),
      );
      await assert.rejects(client.call("err"), (e: unknown) => e instanceof RpcCallError && e.error.code === -32602);
      assert.deepEqual(await client.call("ok"), { x: "ab" });
    } finally {
      client.close();
      impatient.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe("loadgen HTTP reply parser", () => {
  test("waits for every byte, reads Content-Length and chunked bodies, refuses what is not HTTP", () => {
    const whole = Buffer.from("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1");
    const r = parseReply(whole);
    assert.ok(typeof r === "object");
    assert.equal(r.status, 200);
    assert.equal(r.body.toString(), "hello");
    assert.equal(r.used, whole.length - "HTTP/1.1".length);
    assert.equal(parseReply(Buffer.from("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel")), "incomplete");
    assert.equal(parseReply(Buffer.from("HTTP/1.1 200 OK\r\nContent-Len")), "incomplete");
    const chunked = parseReply(
      Buffer.from(
        "HTTP/1.1 404 Not Found\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n",
      ),
    );
    assert.ok(typeof chunked === "object");
    assert.equal(chunked.status, 404);
    assert.equal(chunked.body.toString(), "abcde");
    assert.equal(chunked.close, true);
    assert.equal(parseReply(Buffer.from("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nab")), "incomplete");
    assert.equal(parseReply(Buffer.from("SSH-2.0-OpenSSH\r\n\r\n")), "bad");
  });
});
