import assert from "node:assert/strict";
import http from "node:http";
import { describe, test } from "node:test";
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
        const replies = {
            ok: [200, '{"jsonrpc":"2.0","id":1,"result":{"x":"ab"}}'],
            err: [400, '{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"Invalid params","data":"hash"}}'],
            err200: [200, '{"jsonrpc":"2.0","id":1,"error":{"code":-32011,"message":"Repeated Commit"}}'],
            garbage: [200, "not json"],
            notfound: [404, "404 page not found\n"],
        };
        const server = http.createServer((req, res) => {
            let body = "";
            req.on("data", (c) => {
                body += c.toString();
            });
            req.on("end", () => {
                const method = JSON.parse(body).method;
                if (method === "slow")
                    return; // never answers
                const [status, text] = replies[method];
                res.writeHead(status, { "content-type": "application/json" }).end(text);
            });
        });
        await new Promise((r) => server.listen(0, "127.0.0.1", r));
        const port = server.address().port;
        const client = new RpcClient({ url: `http://127.0.0.1:${port}`, maxSockets: 4, timeoutMs: 300 });
        const body = (method) => JSON.stringify({ jsonrpc: "2.0", id: 1, method });
        try {
            for (const wantResult of [true, false]) {
                const ok = await client.post(body("ok"), "/v2", wantResult);
                assert.equal(ok.error, undefined);
                assert.ok(ok.ms >= 0);
                if (wantResult)
                    assert.deepEqual(ok.result, { x: "ab" });
                assert.deepEqual((await client.post(body("err"), "/v2", wantResult)).error, {
                    code: -32602,
                    message: "Invalid params",
                    data: "hash",
                });
                assert.equal((await client.post(body("err200"), "/v2", wantResult)).error?.code, -32011);
                assert.equal((await client.post(body("garbage"), "/v2", wantResult)).error?.code, TRANSPORT_ERROR.badJson);
                assert.equal((await client.post(body("notfound"), "/v2", wantResult)).error?.code, TRANSPORT_ERROR.http);
                assert.equal((await client.post(body("slow"), "/v2", wantResult)).error?.code, TRANSPORT_ERROR.timeout);
            }
            await assert.rejects(client.call("err"), (e) => e instanceof RpcCallError && e.error.code === -32602);
            assert.deepEqual(await client.call("ok"), { x: "ab" });
        }
        finally {
            client.close();
            server.closeAllConnections();
            await new Promise((r) => server.close(r));
        }
    });
});
//# sourceMappingURL=rpcClient.test.js.map