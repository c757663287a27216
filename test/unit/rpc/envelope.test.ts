// JSON-RPC envelope over the real HTTP server (spec §1, §7; reference api-behavior §2; api-cases A, B).
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { NODE_API_VERSION, NODE_VERSION } from "../../../src/version.js";
import { DEBUG_METHODS, PARAM_NAMES, V2_METHODS } from "../../support/specMethods.js";
import { rawJson, rawRequest, rpc } from "./httpClient.js";
import { startTestServer, type TestServer } from "./support.js";

let t: TestServer;
before(async () => {
  t = await startTestServer({ maxBatch: 5 });
});
after(async () => {
  await t.close();
});

const PROPERTIES = `{"jsonrpc":"2.0","id":1,"method":"properties"}`;
const PROPERTIES_RESULT = { nodeversion: NODE_VERSION, nodeapiversion: NODE_API_VERSION };

describe("requests", () => {
  it("answers a POST with text/plain; (A1) — exact body, JSON content type, HTTP 200", async () => {
    const a = await rawRequest(t.base, { body: PROPERTIES, headers: { "Content-Type": "text/plain;" } });
    assert.equal(a.status, 200);
    assert.equal(
      a.text,
      `{"jsonrpc":"2.0","id":1,"result":{"nodeversion":"${NODE_VERSION}","nodeapiversion":"${NODE_API_VERSION}"}}`,
    );
    assert.match(String(a.headers["content-type"]), /^application\/json/);
  });

  it("reads the body of a GET (A2) and of any other verb on /v2 (A3)", async () => {
    for (const method of ["GET", "PUT", "DELETE", "PATCH"]) {
      const a = await rawJson(t.base, { method, body: PROPERTIES });
      assert.equal(a.status, 200, method);
      assert.deepEqual(a.json.result, PROPERTIES_RESULT, method);
    }
  });

  it("accepts application/json and ignores query strings", async () => {
    const a = await rawJson(t.base, {
      path: "/v2?x=1",
      body: PROPERTIES,
      headers: { "Content-Type": "application/json" },
    });
    assert.deepEqual(a.json.result, PROPERTIES_RESULT);
  });

  it("echoes ids of every JSON type; no id → id null with a full response (A13, A14, A15)", async () => {
    for (const id of ["abc", 7, { x: [1, 2] }, [1], true, 1.5]) {
      const a = await rpc(t.base, "properties", undefined, { id });
      assert.equal(a.status, 200);
      assert.deepEqual(a.json.id, id);
    }
    const a = await rawJson(t.base, { body: `{"jsonrpc":"2.0","method":"properties"}` });
    assert.equal(a.status, 200);
    assert.equal(a.json.id, null);
    assert.deepEqual(a.json.result, PROPERTIES_RESULT);
    const b = await rawJson(t.base, { body: `{"jsonrpc":"2.0","id":1.50,"method":"properties"}` });
    assert.equal(b.text.includes(`"id":1.5,`), true);
  });

  it("writes the answer as id, then result, byte for byte; exact integers past 2^53 digit for digit", async () => {
    const result = `{"nodeversion":"${NODE_VERSION}","nodeapiversion":"${NODE_API_VERSION}"}`;
    for (const id of ['"abc"', "7", '{"x":[1,2]}', "[1]", "true", "1.5", "null", '"\\u00e9\\n"', "-0", "1e400"]) {
      const a = await rawRequest(t.base, { body: `{"jsonrpc":"2.0","id":${id},"method":"properties"}` });
      const written = JSON.stringify(JSON.parse(id));
      assert.equal(a.text, `{"jsonrpc":"2.0","id":${written},"result":${result}}`, id);
    }
    // current-minute's nanosecond times are bigints: written by the exact writer, alone and in a batch
    const single = await rawRequest(t.base, { body: `{"jsonrpc":"2.0","id":3,"method":"current-minute"}` });
    assert.match(single.text, /^\{"jsonrpc":"2\.0","id":3,"result":\{"leaderheight":\d+,.*"currenttime":\d{19},/);
    const batch = await rawRequest(t.base, {
      body: `[{"jsonrpc":"2.0","id":4,"method":"current-minute"},{"jsonrpc":"2.0","id":5,"method":"properties"}]`,
    });
    assert.match(
      batch.text,
      /^\[\{"jsonrpc":"2\.0","id":4,"result":\{.*"currenttime":\d{19},.*\},\{"jsonrpc":"2\.0","id":5,/,
    );
  });

  it("matches envelope member names in any letter case (A16)", async () => {
    const a = await rawJson(t.base, { body: `{"JSONRPC":"2.0","ID":9,"METHOD":"properties","Params":{}}` });
    assert.equal(a.status, 200);
    assert.equal(a.json.id, 9);
  });

  it("ignores params for methods without params (B6)", async () => {
    const a = await rpc(t.base, "properties", [1, 2, 3]);
    assert.deepEqual(a.json.result, PROPERTIES_RESULT);
  });
});

describe("envelope errors", () => {
  // data: the reason; a parse error's is V8's JSON.parse message (a RegExp: Node 22 adds "(line 1 column n)")
  const cases: [string, string, number, number, string | RegExp][] = [
    ["empty body (A4)", "", 400, -32600, "empty body"],
    ["whitespace body", "  \n ", 400, -32600, "empty body"],
    [
      "truncated JSON (A5)",
      `{"jsonrpc":"2.0","id":1,`,
      400,
      -32700,
      /^Expected double-quoted property name in JSON at position 24\b/,
    ],
    [
      "trailing garbage (A17)",
      `${PROPERTIES} x`,
      400,
      -32700,
      /^Unexpected non-whitespace character after JSON at position 47\b/,
    ],
    ["not JSON at all", "garbage", 400, -32700, /^Unexpected token 'g', "garbage" is not valid JSON/],
    ["JSON null", "null", 400, -32600, "expected a request object, got null"],
    ["JSON number", "5", 400, -32600, "expected a request object, got number"],
    ["no jsonrpc (A6)", `{"id":7,"method":"properties"}`, 400, -32600, 'jsonrpc: expected "2.0", got nothing'],
    [
      "jsonrpc 1.0 (A7)",
      `{"jsonrpc":"1.0","id":7,"method":"properties"}`,
      400,
      -32600,
      'jsonrpc: expected "2.0", got "1.0"',
    ],
    [
      "jsonrpc a number (A8)",
      `{"jsonrpc":2.0,"id":7,"method":"properties"}`,
      400,
      -32600,
      'jsonrpc: expected "2.0", got 2',
    ],
    [
      "method a number (A12)",
      `{"jsonrpc":"2.0","id":3,"method":5}`,
      400,
      -32600,
      "method: expected a string, got number",
    ],
  ];
  for (const [name, body, status, code, data] of cases) {
    it(`${name} → ${code}, id null, HTTP ${status}`, async () => {
      const a = await rawJson(t.base, { body });
      assert.equal(a.status, status);
      assert.equal(a.json.jsonrpc, "2.0");
      assert.equal(a.json.id, null);
      assert.equal(a.json.error?.code, code);
      assert.equal(a.json.error?.message, code === -32700 ? "Parse error" : "Invalid Request");
      if (typeof data === "string") assert.equal(a.json.error?.data, data);
      else assert.match(String(a.json.error?.data), data);
      assert.equal(a.json.result, undefined);
    });
  }

  it("an unknown method → -32601 with the name in data and the id echoed (A10)", async () => {
    const a = await rawJson(t.base, { body: `{"jsonrpc":"2.0","id":"abc","method":"no-such-method"}` });
    assert.equal(a.status, 400);
    assert.deepEqual(a.json, {
      jsonrpc: "2.0",
      id: "abc",
      error: { code: -32601, message: "Method not found", data: "no-such-method" },
    });
  });

  it("an unknown method near a known one, or a reference node's name, → -32601 saying which to call", async () => {
    for (const [method, data] of [
      ["height", "height (did you mean heights?)"],
      ["entry-credit-balanse", "entry-credit-balanse (did you mean entry-credit-balance?)"],
      [
        "factoid-balance",
        "factoid-balance (the reference node's name: this node calls it asset-balance; docs/compat.md)",
      ],
      [
        "multiple-fct-balances",
        "multiple-fct-balances (the reference node's name: this node calls it multiple-asset-balances; docs/compat.md)",
      ],
      // a long name is not compared (the distance costs length × names)
      [`height${"s".repeat(80)}`, `height${"s".repeat(80)}`],
    ]) {
      const a = await rawJson(t.base, { body: JSON.stringify({ jsonrpc: "2.0", id: 1, method }) });
      assert.equal(a.status, 400);
      assert.deepEqual(a.json.error, { code: -32601, message: "Method not found", data });
    }
  });

  it("a missing or empty method → -32601 with the id echoed (A11)", async () => {
    for (const body of [`{"jsonrpc":"2.0","id":3}`, `{"jsonrpc":"2.0","id":3,"method":""}`]) {
      const a = await rawJson(t.base, { body });
      assert.equal(a.status, 400);
      assert.equal(a.json.id, 3);
      assert.equal(a.json.error?.code, -32601);
      assert.equal(a.json.error?.data, "method: missing");
    }
  });

  it("method names are case-sensitive", async () => {
    const a = await rpc(t.base, "Properties");
    assert.equal(a.json.error?.code, -32601);
    assert.equal(a.json.error?.data, "Properties (method names are case-sensitive: did you mean properties?)");
  });

  it("a debug method on /v2 and a v2 method on /debug → -32601 saying where it is served (A22, A23)", async () => {
    const a = await rpc(t.base, "network-info");
    assert.equal(a.json.error?.code, -32601);
    assert.equal(a.json.error?.data, "network-info (served on /debug, not /v2)");
    const b = await rpc(t.base, "properties", undefined, { path: "/debug" });
    assert.equal(b.status, 400);
    assert.equal(b.json.error?.code, -32601);
    assert.equal(b.json.error?.data, "properties (served on /v2, not /debug)");
  });
});

describe("batches", () => {
  it("answers an array with an array in the same order, HTTP 200", async () => {
    const body = JSON.stringify([
      { jsonrpc: "2.0", id: 1, method: "properties" },
      { jsonrpc: "2.0", id: 2, method: "nope" },
      5,
      { jsonrpc: "2.0", id: 4, method: "chain-head", params: { chainid: "abc" } },
    ]);
    const a = await rawRequest(t.base, { body });
    assert.equal(a.status, 200);
    const list = JSON.parse(a.text) as { id: unknown; result?: unknown; error?: { code: number; data?: unknown } }[];
    assert.equal(list.length, 4);
    assert.deepEqual(list[0], { jsonrpc: "2.0", id: 1, result: PROPERTIES_RESULT });
    assert.equal(list[1]!.id, 2);
    assert.deepEqual(list[1]!.error, { code: -32601, message: "Method not found", data: "nope" });
    assert.equal(list[2]!.id, null);
    assert.deepEqual(list[2]!.error, {
      code: -32600,
      message: "Invalid Request",
      data: "expected a request object, got number",
    });
    assert.equal(list[3]!.id, 4);
    assert.equal(list[3]!.error?.code, -32602);
    assert.equal(list[3]!.error?.data, "chainid: expected 64 hex characters, got 3");
  });

  it("an empty batch is one -32600", async () => {
    const a = await rawJson(t.base, { body: "[]" });
    assert.equal(a.status, 400);
    assert.equal(a.json.error?.code, -32600);
    assert.equal(a.json.error?.data, "empty batch");
    assert.equal(a.json.id, null);
  });

  it("a batch over config.maxBatch is refused with a clear error", async () => {
    const body = JSON.stringify(Array.from({ length: 6 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "properties" })));
    const a = await rawJson(t.base, { body });
    assert.equal(a.status, 400);
    assert.equal(a.json.error?.code, -32600);
    assert.equal(a.json.error?.data, "batch of 6 requests is larger than the limit of 5");
    const ok = JSON.stringify(Array.from({ length: 5 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "properties" })));
    const b = await rawRequest(t.base, { body: ok });
    assert.equal(b.status, 200);
    assert.equal((JSON.parse(b.text) as unknown[]).length, 5);
  });
});

describe("hostile JSON", () => {
  it("deep nesting is refused without harm", async () => {
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const a = await rawJson(t.base, { body: `{"jsonrpc":"2.0","id":${deep},"method":"properties"}` });
    assert.equal(a.status, 400);
    assert.equal(a.json.error?.code, -32600);
    assert.equal(a.json.error?.data, "JSON nests deeper than 64 levels");
    const b = await rawJson(t.base, { body: "[".repeat(500_000) });
    assert.equal(b.json.error?.code, -32700);
    assert.equal(b.json.error?.data, "Unexpected end of JSON input");
    const c = await rawJson(t.base, {
      body: `{"jsonrpc":"2.0","id":1,"method":"properties","params":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`,
    });
    assert.equal(c.json.error?.code, -32600);
    assert.equal(c.json.error?.data, "JSON nests deeper than 64 levels");
    const d = await rpc(t.base, "properties");
    assert.deepEqual(d.json.result, PROPERTIES_RESULT);
  });

  it("invalid UTF-8 and odd strings do not break the answer", async () => {
    const body = Buffer.concat([
      Buffer.from(`{"jsonrpc":"2.0","id":"`),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(`","method":"x\\u0000<&>"}`),
    ]);
    const a = await rawJson(t.base, { body });
    assert.equal(a.json.error?.code, -32601);
    assert.equal(a.json.id, "\ufffd\ufffd");
    assert.equal(a.json.error?.data, "x\u0000<&>");
  });

  it("a large valid batch of unknown methods is answered", async () => {
    const body = JSON.stringify(
      Array.from({ length: 5 }, (_, i) => ({ jsonrpc: "2.0", id: i, method: "x".repeat(50_000) })),
    );
    const a = await rawRequest(t.base, { body });
    assert.equal(a.status, 200);
    assert.equal((JSON.parse(a.text) as unknown[]).length, 5);
  });
});

describe("params", () => {
  const cases: [string, unknown, string | undefined][] = [
    ["dblock-by-height", [0], "params: expected an object with named members, got array"],
    ["dblock-by-height", "x", "params: expected an object with named members, got string"],
    ["dblock-by-height", { height: "0" }, "height: expected an integer, got string"],
    ["dblock-by-height", { height: 1.5 }, "height: expected an integer from 0 to 4294967295, got 1.5"],
    ["dblock-by-height", { height: -1 }, "height: expected an integer from 0 to 4294967295, got -1"],
    ["dblock-by-height", { height: 4294967296 }, "height: expected an integer from 0 to 4294967295, got 4294967296"],
    ["dblock-by-height", { height: 0, noraw: "true" }, "noraw: expected true or false, got string"],
    ["chain-head", {}, "chainid: required, expected 64 hex characters"],
    ["chain-head", { chainid: null }, "chainid: required, expected 64 hex characters"],
    ["chain-head", { ChainID: "abc" }, "chainid: expected 64 hex characters, got 3"],
    ["chain-head", { chainid: 5 }, "chainid: expected a string of 64 hex characters, got number"],
    ["entry", { hash: `${"z".repeat(64)}` }, 'hash: not hex (character "z" at position 0)'],
    ["entry-block", { KeyMR: "zz" }, 'keymr: not hex (character "z" at position 0)'],
    [
      "receipt",
      { hash: "ab".repeat(32), includerawentry: "yes" },
      "includerawentry: expected true or false, got string",
    ],
    ["asset-balance", {}, "address: required, expected an asset address (FA…) or a 64-hex RCD hash"],
    ["asset-balance", { address: "abcd" }, "address: expected 52 characters, got 4"],
    [
      "asset-balance",
      { address: "EC2DKSYyRcNWf7RS963VFYgMExoHRYLHVeCfQ9PGPmNzwrcmgm2r" },
      "address: expected an FA address, got EC",
    ],
    [
      "asset-balance",
      { address: "Fs2DNirmGDtnAZGXqca3XHkukTNMxoMGFFQxJA3bAjJnKzzsZBMH" },
      "address: expected an FA address, got Fs",
    ],
    [
      "entry-credit-balance",
      { address: "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q" },
      "address: expected an EC address, got FA",
    ],
    ["commit-chain", { message: "zz" }, 'message: not hex (character "z" at position 0)'],
    ["commit-chain", {}, "message: required, expected a hex string"],
    ["commit-entry", { entry: "00" }, "message: required, expected a hex string"],
    ["commit-entry", { message: "00".repeat(135) }, "message: entry commit: expected exactly 136 bytes, got 135"],
    ["reveal-entry", { entry: "" }, "entry: empty"],
    ["reveal-entry", { entry: `01${"00".repeat(34)}` }, "entry.version: expected 0, got 1"],
    ["asset-submit", { transaction: "zz" }, 'transaction: not hex (character "z" at position 0)'],
    ["send-raw-message", { message: "" }, "message: empty"],
    ["send-raw-message", { message: "abc" }, "message: odd number of hex characters (3)"],
    [
      "send-raw-message",
      { message: "ff" },
      "message: type 0xff is not accepted here; send 0x05 (chain commit), 0x06 (entry commit), 0x09 (transaction) or 0x0d (entry reveal)",
    ],
    ["ack", { hash: "ab".repeat(32) }, "ChainID must be 64 hex encoded characters"],
    ["ack", { hash: "ab".repeat(32), chainid: "C" }, "ChainID must be 64 hex encoded characters"],
    ["ack", { hash: "aa", chainid: "c" }, "Hash must be 64 hex encoded characters"],
    ["ack", { hash: "ab".repeat(32), chainid: `${"0".repeat(63)}a` }, "ChainID cannot be admin chain"],
    ["ack", { chainid: "f", fulltransaction: "zz" }, 'fulltransaction: not hex (character "z" at position 0)'],
    ["ack", { chainid: "f", fulltransaction: "abc" }, "fulltransaction: odd number of hex characters (3)"],
    ["asset-ack", {}, "txid: required (or fulltransaction)"],
    ["entry-ack", { txid: "abc" }, "txid: expected 64 hex characters, got 3"],
    ["multiple-asset-balances", [], "ERROR! Invalid params passed in"],
    ["multiple-ec-balances", {}, "ERROR! Invalid params passed in, expected 'addresses'"],
    ["pending-entries", "x", "params: expected an object with named members, got string"],
    ["pending-transactions", { address: "nonsense" }, "address: expected 52 characters, got 8"],
    // required by the spec, defaulted by the reference (genesis): refused here (docs/compat.md)
    ["dblock-by-height", {}, "height: required, expected an integer"],
    ["dblock-by-height", undefined, "height: required, expected an integer"],
    ["ablock-by-height", { noraw: true }, "height: required, expected an integer"],
    ["ecblock-by-height", {}, "height: required, expected an integer"],
    ["fblock-by-height", {}, "height: required, expected an integer"],
    // wrong-typed members name themselves (the reference: -32600 with id null)
    [
      "multiple-asset-balances",
      { addresses: "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q" },
      "addresses: expected an array of address strings, got string",
    ],
    ["multiple-ec-balances", { addresses: [5] }, "addresses[0]: expected an address string, got number"],
    [
      "entry-credit-balance",
      { address: 5 },
      "address: expected an entry credit address (EC…) or a 64-hex public key, got number",
    ],
  ];
  for (const [method, params, data] of cases) {
    it(`${method} ${(JSON.stringify(params) ?? "without params").slice(0, 60)} → -32602`, async () => {
      const a = await rpc(t.base, method, params, { id: 42 });
      assert.equal(a.status, 400);
      assert.equal(a.json.id, 42);
      assert.equal(a.json.error?.code, -32602);
      assert.equal(a.json.error?.message, "Invalid params");
      assert.equal(a.json.error?.data, data);
    });
  }
});

describe("no user input is an internal error", () => {
  const v2 = V2_METHODS;
  // reload-configuration re-reads the node's file whatever the params; test/integration/rpc-debug covers it.
  const debug = DEBUG_METHODS.filter((m) => m !== "reload-configuration");
  const members = PARAM_NAMES;
  const values: unknown[] = [
    null,
    true,
    0,
    -1,
    1.5,
    1e300,
    "",
    "zz",
    "0".repeat(64),
    "0".repeat(65),
    "ab".repeat(5000),
    [],
    ["x"],
    [1, [2]],
    {},
    { a: { b: 1 } },
    "05" + "00".repeat(200),
    "0d" + "00".repeat(40),
    "09" + "02",
    "060000",
    "FA2jK2HcLnRdS94dEcU27rF3meoJfpUcZPSinpb7AwQvPRY6RL1Q",
  ];
  const paramsList: unknown[] = [undefined, null, [], "x", 5, true, {}];
  for (const m of members) for (const v of values) paramsList.push({ [m]: v });

  for (const [path, methods] of [
    ["/v2", v2],
    ["/debug", debug],
  ] as const) {
    it(`${path}: every method with ${paramsList.length} kinds of bad params answers without -32603`, async () => {
      t.config.maxBatch = 100;
      for (const method of methods) {
        const requests = paramsList.map((params, id) => ({ jsonrpc: "2.0", id, method, params }));
        for (let i = 0; i < requests.length; i += 100) {
          const b = JSON.stringify(requests.slice(i, i + 100));
          const a = await rawRequest(t.base, { path, body: b });
          assert.equal(a.status, 200, `${method}: ${a.text.slice(0, 200)}`);
          const list = JSON.parse(a.text) as { id: number; error?: { code: number; data?: unknown } }[];
          for (const r of list) {
            const what = `${method} ${JSON.stringify(paramsList[r.id] ?? null).slice(0, 80)}`;
            assert.notEqual(r.error?.code, -32603, what);
            // refused params say what was wrong
            if (r.error?.code === -32602)
              assert.ok(typeof r.error.data === "string" && r.error.data.length > 0, `${what}: no data`);
          }
        }
      }
      const alive = await rpc(t.base, "properties");
      assert.deepEqual(alive.json.result, PROPERTIES_RESULT);
      t.config.maxBatch = 5;
    });
  }
});
