// rpc/errors.ts: every typed failure maps to its JSON-RPC error; user mistakes never become -32603.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../../src/config/errors.js";
import { LedgerError, type LedgerErrorType } from "../../../src/ledger/errors.js";
import { ProtocolError } from "../../../src/protocol/errors.js";
import { missingChainHead, notFound, RpcCode, receiptCreationError, toRpcError } from "../../../src/rpc/errors.js";
import { encodeJson, JsonText, nestsDeeperThan } from "../../../src/rpc/jsonrpc.js";

const H = "ab".repeat(32);

describe("toRpcError", () => {
  it("maps every ledger rejection a user can cause to -32602 with a sentence in data", () => {
    const rejections: LedgerErrorType[] = [
      { code: "BAD_SIGNATURE", what: "commit" },
      { code: "TIMESTAMP_OUT_OF_WINDOW", what: "transaction", timestampMs: 1, nowMs: 2, windowMs: 3600000 },
      { code: "EC_BALANCE_LOW", ecPublicKey: H, need: 11, have: 0 },
      { code: "CREDITS_TOO_LOW", entryHash: H, need: 2, paid: 1 },
      { code: "CHAIN_EXISTS", chainId: H },
      { code: "CHAIN_NOT_FOUND", chainId: H },
      { code: "CHAIN_ID_MISMATCH", chainId: H, info: "first entry is not in this chain" },
      { code: "DUPLICATE_ENTRY", entryHash: H },
      { code: "DUPLICATE_TRANSACTION", txId: H },
      { code: "ASSET_BALANCE_LOW", address: "FA…", need: 10n, have: 1n },
      { code: "INSUFFICIENT_FEE", need: 12000n, have: 1n },
      { code: "INVALID", info: "no inputs" },
    ];
    for (const type of rejections) {
      const e = toRpcError(new LedgerError(type));
      assert.equal(e.code, RpcCode.InvalidParams, type.code);
      assert.equal(typeof e.data, "string", type.code);
      assert.ok((e.data as string).length > 5, type.code);
    }
    assert.equal(
      toRpcError(new LedgerError({ code: "BAD_SIGNATURE", what: "commit" })).data,
      "commit: signature does not verify",
    );
    assert.equal(
      toRpcError(new LedgerError({ code: "EC_BALANCE_LOW", ecPublicKey: H, need: 11, have: 0 })).data,
      `entry credit balance of ${H} is 0 EC, the commit needs 11 EC`,
    );
  });

  it("maps a repeated commit to -32011 with {entryhash, info}", () => {
    const e = toRpcError(new LedgerError({ code: "REPEATED_COMMIT", entryHash: H, info: "" }));
    assert.deepEqual(e.toObject(), {
      code: -32011,
      message: "Repeated Commit",
      data: { entryhash: H, info: "A commit with equal or greater payment already exists" },
    });
  });

  it("maps node conditions to -32050 (retryable) with a reason, not -32602 nor -32603", () => {
    const conditions: [LedgerErrorType, string, string][] = [
      [{ code: "NOT_PRODUCING", info: "MAIN standalone" }, "Not accepting submissions", "MAIN standalone"],
      [{ code: "STORAGE_FULL", info: "disk full" }, "Storage full", "disk full; reads are still served"],
      [{ code: "NODE_UNAVAILABLE", info: "the node is stopping" }, "Node unavailable", "the node is stopping"],
    ];
    for (const [type, message, data] of conditions) {
      assert.deepEqual(toRpcError(new LedgerError(type)).toObject(), { code: -32050, message, data }, type.code);
    }
    assert.equal(RpcCode.NodeUnavailable, -32050);
  });

  it("maps a full holding queue and an operator's broken file to -32000 with a reason", () => {
    const held = toRpcError(new LedgerError({ code: "HOLDING_QUEUE_FULL", bound: "bytes", limit: 10, held: 9 }));
    assert.equal(held.code, RpcCode.ServerError);
    assert.equal(typeof held.data, "string");
    const full = toRpcError(
      new LedgerError({ code: "HOLDING_QUEUE_FULL", bound: "source reveals", limit: 1000, held: 1000 }),
    );
    assert.deepEqual(full.toObject(), {
      code: -32000,
      message: "Node busy",
      data:
        "holding queue full: 1000 reveals held from your address, the limit is 1000 (bound: source reveals); " +
        "send the commit first, or retry once held reveals are paid or expire",
    });
    const c = toRpcError(new ConfigError("ledgerd.conf:3: App.PortNumber: not an integer"));
    assert.deepEqual(c.toObject(), {
      code: -32000,
      message: "Configuration error",
      data: "ledgerd.conf:3: App.PortNumber: not an integer",
    });
  });

  it("maps a protocol error to -32602 naming the request member", () => {
    const p = new ProtocolError("BAD_LENGTH", "entry commit", "expected exactly 136 bytes, got 135");
    assert.equal(toRpcError(p, "message").data, "message: entry commit: expected exactly 136 bytes, got 135");
    assert.equal(toRpcError(p).data, "entry commit: expected exactly 136 bytes, got 135");
    assert.equal(toRpcError(new ProtocolError("BAD_HEX", "entry", "odd"), "entry").data, "entry: odd");
    assert.equal(
      toRpcError(new ProtocolError("BAD_VERSION", "entry.version", "expected 0, got 1"), "entry").data,
      "entry.version: expected 0, got 1",
    );
  });

  it("maps anything else to -32603 without leaking its message", () => {
    const e = toRpcError(new Error("ENOENT /secret/path"));
    assert.deepEqual(e.toObject(), { code: -32603, message: "Internal error" });
    assert.equal(toRpcError("string thrown").code, -32603);
  });

  it("has the reference node's not-found errors (no data)", () => {
    assert.deepEqual(notFound("Block").toObject(), { code: -32008, message: "Block not found" });
    assert.deepEqual(notFound("Entry").toObject(), { code: -32008, message: "Entry not found" });
    assert.deepEqual(notFound("Object").toObject(), { code: -32008, message: "Object not found" });
    assert.deepEqual(missingChainHead().toObject(), { code: -32009, message: "Missing Chain Head" });
    assert.deepEqual(receiptCreationError().toObject(), { code: -32010, message: "Receipt creation error" });
  });
});

describe("encodeJson", () => {
  it("writes bigints as exact integers and drops undefined members", () => {
    assert.equal(
      encodeJson({ a: 1763784000123456789n, b: undefined, c: [undefined, null, 1.5, 'x"<'], d: Number.NaN, e: true }),
      '{"a":1763784000123456789,"c":[null,null,1.5,"x\\"<"],"d":null,"e":true}',
    );
  });

  it("writes the same text on its JSON.stringify path as on its exact path (a bigint anywhere takes the latter)", () => {
    const values: unknown[] = [
      { a: 1, b: undefined, c: [undefined, null, 1.5, -0, 1e21, 5e-7, Number.POSITIVE_INFINITY], d: Number.NaN },
      { "2": "two", "1": "one", z: { y: [[], {}] }, s: '\u2028\ud800 é \u0000 "\\' },
      [null, true, false, "x", { k: undefined }],
      "plain",
      42,
      null,
    ];
    for (const v of values) {
      // the same value with a bigint inside goes the exact way: its text, bigint aside, must not change
      const withBig = encodeJson({ v, big: 12345678901234567890n });
      assert.equal(withBig, `{"v":${encodeJson(v)},"big":12345678901234567890}`);
      assert.equal(encodeJson(v), JSON.stringify(v));
    }
    assert.equal(encodeJson(undefined), "null");
  });

  it("writes a JsonText as the text it holds, wherever it is", () => {
    const view = JsonText.of({ keymr: "ab", n: 2n ** 70n });
    assert.equal(view.text, '{"keymr":"ab","n":1180591620717411303424}');
    assert.equal(encodeJson(view), view.text);
    assert.equal(encodeJson({ result: view, list: [view] }), `{"result":${view.text},"list":[${view.text}]}`);
    assert.throws(() => JSON.stringify(view), /encodeJson/);
  });

  it("measures nesting of any depth, its recursion bounded by the limit", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(nestsDeeperThan(deep, 64), true);
    let deepObject: unknown = 1;
    for (let i = 0; i < 200_000; i++) deepObject = { a: deepObject };
    assert.equal(nestsDeeperThan(deepObject, 64), true);
    assert.equal(nestsDeeperThan({ a: [{ b: 1 }] }, 3), false);
    assert.equal(nestsDeeperThan({ a: [{ b: [] }] }, 3), true);
    // the level past the limit is found wherever it is: after other members, in a later item, under __proto__
    assert.equal(nestsDeeperThan({ x: 1, y: "s", z: [1, 2, { w: {} }] }, 3), true);
    assert.equal(nestsDeeperThan({ x: 1, y: "s", z: [1, 2, { w: 5 }] }, 3), false);
    assert.equal(nestsDeeperThan(JSON.parse('{"__proto__":{"a":{"b":{}}}}'), 3), true);
    assert.equal(nestsDeeperThan(JSON.parse('{"__proto__":{"a":{"b":1}}}'), 3), false);
    // scalars are no level; an empty object or array is one
    for (const scalar of [null, 1, "text", true]) assert.equal(nestsDeeperThan(scalar, 0), false);
    assert.equal(nestsDeeperThan({}, 0), true);
    assert.equal(nestsDeeperThan([], 1), false);
  });

  it("says what a plain walk of the value says, on random values", () => {
    // the reference: every object and array with its level, from a stack
    const reference = (value: unknown, limit: number): boolean => {
      const stack: [unknown, number][] = [[value, 1]];
      while (stack.length > 0) {
        const [v, depth] = stack.pop()!;
        if (typeof v !== "object" || v === null) continue;
        if (depth > limit) return true;
        for (const c of Array.isArray(v) ? v : Object.values(v)) stack.push([c, depth + 1]);
      }
      return false;
    };
    let seed = 12345;
    const next = (n: number) => {
      // mulberry32: a fixed sequence, so a failure is found again
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) % n;
    };
    const make = (levels: number): unknown => {
      const kind = levels === 0 ? next(3) : next(8); // containers 5 times in 8 above the last level
      if (kind === 0) return next(100);
      if (kind === 1) return "s";
      if (kind === 2) return null;
      const n = next(4);
      if (kind < 5) return Array.from({ length: n }, () => make(levels - 1));
      return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, make(levels - 1)]));
    };
    let deeper = 0;
    for (let i = 0; i < 1_000; i++) {
      const value = [make(next(9))];
      // every limit around the value's depth: the boundary (deepest level = limit, limit + 1) is met for each
      for (let limit = 0; limit <= 10; limit++) {
        const expected = reference(value, limit);
        assert.equal(nestsDeeperThan(value, limit), expected, `${JSON.stringify(value)} at ${limit}`);
        if (expected) deeper++;
      }
    }
    assert.ok(deeper > 2_000 && deeper < 9_000, `both answers are met (${deeper} of 11,000 deeper)`);
  });
});
