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

  it("measures nesting without recursion", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    assert.equal(nestsDeeperThan(deep, 64), true);
    assert.equal(nestsDeeperThan({ a: [{ b: 1 }] }, 3), false);
    assert.equal(nestsDeeperThan({ a: [{ b: [] }] }, 3), true);
  });
});
