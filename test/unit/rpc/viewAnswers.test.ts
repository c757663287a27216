// Remembered views answered as bytes (rpc/jsonrpc.ts JsonText.remembered / answerBytes): the bytes on the
// wire are the text answer's, whatever the id, the verb, the order of requests or how many are in flight.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { JsonText } from "../../../src/rpc/jsonrpc.js";
import { rawRequest } from "./httpClient.js";
import { startTestServer, type TestServer } from "./support.js";

describe("JsonText.remembered", () => {
  const value = { keymr: "ab".repeat(32), list: [{ n: 2n ** 70n, s: "é ✓ \u0000" }] };

  it("holds the same text as JsonText.of", () => {
    assert.equal(JsonText.remembered(value).text, JsonText.of(value).text);
  });

  it("answers any id that fits with the bytes of the text answer, call after call", () => {
    const view = JsonText.remembered(value);
    const text = JsonText.of(value).text;
    // longest first, so a shorter id is written over the remains of a longer one
    for (const id of ['"' + "x".repeat(90) + '"', '"ünïcödé id"', "123456789", "null", "1", '"a"']) {
      const bytes = view.answerBytes(id);
      assert.ok(bytes !== undefined, id);
      assert.equal(Buffer.from(bytes).toString("utf8"), `{"jsonrpc":"2.0","id":${id},"result":${text}}`);
    }
  });

  it("gives no bytes for an id longer than its headroom, nor for a text that is not remembered", () => {
    assert.equal(JsonText.remembered(value).answerBytes(`"${"x".repeat(200)}"`), undefined);
    assert.equal(JsonText.of(value).answerBytes("1"), undefined);
  });
});

describe("remembered views over HTTP", () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => {
    await t.close();
  });

  const request = (id: unknown, method: string, params: unknown) =>
    JSON.stringify({ jsonrpc: "2.0", id, method, params });

  /** The result text of a view as a batch answers it (the text path, never the shared bytes). */
  async function textOf(method: string, params: unknown): Promise<string> {
    const a = await rawRequest(t.base, { body: `[${request(0, method, params)}]` });
    const prefix = '[{"jsonrpc":"2.0","id":0,"result":';
    assert.ok(a.text.startsWith(prefix) && a.text.endsWith("}]"), a.text.slice(0, 200));
    return a.text.slice(prefix.length, -2);
  }

  it("sends exactly the text answer for every id, verb and view, one request after another", async () => {
    const head = await rawRequest(t.base, { body: request(1, "directory-block-head", undefined) });
    const keymr = (JSON.parse(head.text) as { result: { keymr: string } }).result.keymr;
    const views: [string, unknown][] = [
      ["dblock-by-height", { height: 0 }],
      ["dblock-by-height", { height: 0, noraw: true }],
      ["directory-block", { keymr }],
      ["ecblock-by-height", { height: 0 }],
    ];
    const ids: unknown[] = [7, "x".repeat(120), null, "ünï", 1.5, -3, "y".repeat(5)];
    for (const [method, params] of views) {
      const text = await textOf(method, params);
      assert.ok(text.length > 100, `${method}: a real view`);
      for (const id of ids) {
        const a = await rawRequest(t.base, { body: request(id, method, params) });
        assert.equal(a.status, 200);
        assert.equal(a.text, `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${text}}`, `${method} id ${id}`);
        assert.equal(a.headers["content-length"], String(Buffer.byteLength(a.text)));
      }
      const h = await rawRequest(t.base, { method: "HEAD", body: request(12, method, params) });
      assert.equal(h.text, "");
      const full = `{"jsonrpc":"2.0","id":12,"result":${text}}`;
      assert.equal(h.headers["content-length"], String(Buffer.byteLength(full)), `${method} HEAD length`);
    }
  });

  it("keeps each answer's own id with many requests of one view in flight", async () => {
    const text = await textOf("dblock-by-height", { height: 0 });
    const answers = await Promise.all(
      Array.from({ length: 64 }, (_, i) => rawRequest(t.base, { body: request(i, "dblock-by-height", { height: 0 }) })),
    );
    for (const [i, a] of answers.entries()) assert.equal(a.text, `{"jsonrpc":"2.0","id":${i},"result":${text}}`);
  });
});
