// Every /v2 method against the real node (startNode, temp home, 2-second blocks, loopback), on success and
// error paths, including the full flow: buy entry credits with the genesis-funded key, create a chain, add
// entries, watch the acks go Unknown → TransactionACK → DBlockConfirmed, read everything back, verify a
// receipt. Spec §4.1; reference api-cases C–J.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { buildChainCommit, buildEntryCommit } from "../../src/protocol/commit.js";
import { decodeEntryBlock, entryBlockHashes } from "../../src/protocol/eblock.js";
import { chainIdFromExtIds, entryHash, marshalEntry } from "../../src/protocol/entry.js";
import { sha256 } from "../../src/protocol/hash.js";
import { receiptFromJson } from "../../src/protocol/json/receiptJson.js";
import { verifyReceipt } from "../../src/protocol/receipt.js";
import { buildTransaction, transactionFeeEC } from "../../src/protocol/transaction.js";
import { NODE_API_VERSION, NODE_VERSION } from "../../src/version.js";
import { type CallResult, flushCapture, startTestNode, type TestNode, waitFor } from "../unit/rpc/nodeHarness.js";

const R = "ab".repeat(32);
const Z = "0".repeat(64);
const ADMIN = `${"0".repeat(63)}a`;
const EC_CHAIN = `${"0".repeat(63)}c`;
const DIR_CHAIN = `${"0".repeat(63)}d`;
const ASSET_CHAIN = `${"0".repeat(63)}f`;
const ECUNUSED = "EC1zGzM78psHhs5xVdv6jgVGmswvUaN6R3VgmTquGsdyx9W67Cqy";
const HEX64 = /^[0-9a-f]{64}$/;
const HEX = /^([0-9a-f]{2})*$/;
/** An accepted message: in the process list, or already in a saved block when a block closed meanwhile. */
const ACKED = ["TransactionACK", "DBlockConfirmed"];
/** LOCAL's exchange rate (base units per entry credit) and genesis allocation (base units): docs/quickstart.md. */
const LOCAL_RATE = 1000;
const GENESIS_BALANCE = 20_000 * 100_000_000;

const genesisKey = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");
const ecKey = keyPairFromSeed("EC", sha256(new TextEncoder().encode("ledgerd rpc-v2 test EC key")));
const poorKey = keyPairFromSeed("EC", sha256(new TextEncoder().encode("ledgerd rpc-v2 test unfunded EC key")));
const text = (s: string) => new TextEncoder().encode(s);

let t: TestNode;
before(async () => {
  t = await startTestNode({ blockTimeSeconds: 2 });
});
after(async () => {
  flushCapture();
  await t?.stop();
});

function ok(r: CallResult, what = ""): void {
  assert.equal(r.error, undefined, `${what} ${r.text}`);
  assert.equal(r.status, 200, what);
}
/**
 * The call failed with exactly this error: `data` is the reason the node gives (a RegExp only where it holds
 * the node's clock); left out, the error must carry no data (as the reference's -32008/-32009/-32010).
 */
function fails(r: CallResult, code: number, message: string, data?: unknown): void {
  assert.equal(r.status, 400, r.text);
  assert.equal(r.error?.code, code, r.text);
  assert.equal(r.error?.message, message, r.text);
  if (data instanceof RegExp) assert.match(String(r.error?.data), data, r.text);
  else assert.deepEqual(r.error?.data, data, r.text);
}

/** Fixtures of the genesis block (api-cases conventions). */
// biome-ignore lint/suspicious/noExplicitAny: test boundary — a parsed JSON block read field by field
const g = { D0: {} as Record<string, any>, rawD0: "", A0: "", EC0: "", F0: "", TX0: "" };

describe("node information", () => {
  it("heights (C1)", async () => {
    const r = await t.call("heights");
    ok(r);
    assert.deepEqual(Object.keys(r.result).sort(), [
      "directoryblockheight",
      "entryblockheight",
      "entryheight",
      "leaderheight",
    ]);
    assert.equal(r.result.entryblockheight, r.result.directoryblockheight);
    assert.ok(r.result.leaderheight >= r.result.directoryblockheight);
  });

  it("current-minute (C2): nanosecond times as exact integers, seconds for the rest", async () => {
    const r = await t.call("current-minute", [1]);
    ok(r);
    assert.equal(Object.keys(r.result).length, 10);
    const now = BigInt(Date.now()) * 1_000_000n;
    const currenttime = BigInt(/"currenttime":(\d+)/.exec(r.text)![1]!);
    assert.ok(currenttime > now - 5_000_000_000n && currenttime < now + 5_000_000_000n);
    const start = BigInt(/"currentblockstarttime":(\d+)/.exec(r.text)![1]!);
    const minuteStart = BigInt(/"currentminutestarttime":(\d+)/.exec(r.text)![1]!);
    assert.ok(start <= minuteStart && minuteStart <= currenttime);
    assert.ok(r.result.minute >= 0 && r.result.minute <= 10);
    assert.equal(r.result.directoryblockinseconds, 2);
    assert.equal(r.result.faulttimeout, 120);
    assert.equal(r.result.roundtimeout, 30);
    assert.equal(r.result.stalldetected, false);
  });

  it("properties (A1)", async () => {
    const r = await t.call("properties");
    ok(r);
    assert.deepEqual(r.result, { nodeversion: NODE_VERSION, nodeapiversion: NODE_API_VERSION });
  });

  it("entry-credit-rate (C3, B7)", async () => {
    const r = await t.call("entry-credit-rate", { hash: R });
    ok(r);
    assert.deepEqual(r.result, { rate: LOCAL_RATE }, "LOCAL's genesis exchange rate, base units per EC");
  });

  it("tps-rate (extra)", async () => {
    const r = await t.call("tps-rate");
    ok(r);
    assert.equal(typeof r.result.totaltxrate, "number");
    assert.equal(typeof r.result.instanttxrate, "number");
  });

  it("directory-block-head equals the keymr of the highest saved block (C4)", async () => {
    for (let attempt = 0; ; attempt++) {
      const h = (await t.call("heights")).result.directoryblockheight;
      const head = await t.call("directory-block-head");
      ok(head);
      assert.match(head.result.keymr, HEX64);
      const d = await t.call("dblock-by-height", { height: h });
      if (d.result.dblock.keymr === head.result.keymr) break;
      assert.ok(attempt < 5, "directory-block-head never matched dblock-by-height");
    }
  });
});

describe("genesis blocks", () => {
  it("dblock-by-height 0 (D1, B4, B5)", async () => {
    const r = await t.call("dblock-by-height", { height: 0 });
    ok(r);
    const d = r.result.dblock;
    assert.equal(d.header.dbheight, 0);
    assert.equal(d.header.prevkeymr, Z);
    assert.equal(d.header.chainid, DIR_CHAIN);
    assert.equal(d.header.networkid, 4203931044);
    assert.deepEqual(
      d.dbentries.slice(0, 3).map((e: { chainid: string }) => e.chainid),
      [ADMIN, EC_CHAIN, ASSET_CHAIN],
    );
    for (const k of ["keymr", "dbhash", "headerhash"]) assert.match(d[k], HEX64);
    assert.match(r.result.rawdata, HEX);
    assert.ok(r.result.rawdata.length > 0);
    g.D0 = d;
    g.rawD0 = r.result.rawdata;
    g.A0 = d.dbentries[0].keymr;
    g.EC0 = d.dbentries[1].keymr;
    g.F0 = d.dbentries[2].keymr;
    // the reference answers a missing height with genesis; the spec lists it as required (docs/compat.md)
    fails(await t.call("dblock-by-height"), -32602, "Invalid params", "height: required, expected an integer");
    assert.deepEqual((await t.call("dblock-by-height", { HEIGHT: 0 })).result.dblock, d);
  });

  it("dblock-by-height with noraw leaves rawdata out (D2); beyond the head → -32008 (D3)", async () => {
    const r = await t.call("dblock-by-height", { height: 0, noraw: true });
    ok(r);
    assert.equal("rawdata" in r.result, false);
    fails(await t.call("dblock-by-height", { height: 4_000_000_000 }), -32008, "Block not found");
  });

  it("directory-block by keymr (D4) — timestamp in seconds; bad or unknown keys (D5–D8)", async () => {
    const r = await t.call("directory-block", { keymr: g.D0.keymr });
    ok(r);
    assert.deepEqual(r.result, {
      header: { prevblockkeymr: Z, sequencenumber: 0, timestamp: g.D0.header.timestamp * 60 },
      entryblocklist: g.D0.dbentries,
    });
    fails(
      await t.call("directory-block", { keymr: "xyz" }),
      -32602,
      "Invalid params",
      'keymr: not hex (character "x" at position 0)',
    );
    fails(await t.call("directory-block"), -32602, "Invalid params", "keymr: required, expected 64 hex characters");
    fails(await t.call("directory-block", { keymr: R }), -32008, "Block not found");
    fails(await t.call("directory-block", { keymr: g.A0 }), -32008, "Block not found");
  });

  it("ablock-by-height and admin-block by lookup hash and back-reference hash (D9–D11)", async () => {
    const r = await t.call("ablock-by-height", { height: 0 });
    ok(r);
    const a = r.result.ablock;
    assert.equal(a.header.dbheight, 0);
    assert.equal(a.header.chainid, ADMIN);
    assert.equal(a.header.adminchainid, ADMIN);
    assert.equal(a.lookuphash, g.A0);
    assert.match(a.backreferencehash, HEX64);
    assert.ok(Array.isArray(a.abentries));
    for (const e of a.abentries) assert.equal(typeof e.adminidtype, "number");
    const byKey = await t.call("admin-block", { KeyMR: g.A0 });
    ok(byKey);
    assert.deepEqual(byKey.result, r.result);
    assert.deepEqual((await t.call("admin-block", { keymr: a.backreferencehash })).result.ablock, a);
    fails(await t.call("admin-block", { keymr: R }), -32008, "Block not found");
    fails(await t.call("ablock-by-height", { height: 4_000_000_000 }), -32008, "Block not found");
    assert.equal("rawdata" in (await t.call("ablock-by-height", { height: 0, noraw: true })).result, false);
  });

  it('ecblock-by-height and entrycredit-block (D12–D14): rawdata stays "" with noraw', async () => {
    const r = await t.call("ecblock-by-height", { height: 0 });
    ok(r);
    const e = r.result.ecblock;
    assert.equal(e.header.chainid, EC_CHAIN);
    assert.equal(e.header.ecchainid, EC_CHAIN);
    assert.equal(e.headerhash, g.EC0);
    assert.match(e.fullhash, HEX64);
    assert.ok(Array.isArray(e.body.entries));
    assert.ok(r.result.rawdata.length > 0);
    assert.equal((await t.call("ecblock-by-height", { height: 0, noraw: true })).result.rawdata, "");
    assert.deepEqual((await t.call("entrycredit-block", { KeyMR: g.EC0 })).result, r.result);
    assert.deepEqual((await t.call("entrycredit-block", { keymr: e.fullhash })).result.ecblock, e);
    fails(await t.call("entrycredit-block", { keymr: R }), -32008, "Block not found");
    fails(await t.call("ecblock-by-height", { height: 4_000_000_000 }), -32008, "Block not found");
  });

  it("fblock-by-height and asset-block (D15–D17)", async () => {
    const r = await t.call("fblock-by-height", { height: 0 });
    ok(r);
    const f = r.result.fblock;
    assert.equal(f.chainid, ASSET_CHAIN);
    assert.equal(f.keymr, g.F0);
    assert.equal(f.dbheight, 0);
    assert.equal(f.exchrate, LOCAL_RATE);
    assert.match(f.ledgerkeymr, HEX64);
    // the coinbase, then the allocation of GENESIS_BALANCE to each of the 25 LOCAL test addresses
    assert.equal(f.transactions.length, 2);
    assert.equal(f.transactions[0].inputs.length, 0, "the coinbase first");
    assert.equal(f.transactions[1].outputs.length, 25);
    for (const o of f.transactions[1].outputs) assert.equal(o.amount, GENESIS_BALANCE);
    assert.ok(
      f.transactions[1].outputs.some((o: { useraddress: string }) => o.useraddress === genesisKey.publicAddress),
    );
    g.TX0 = f.transactions[0].txid;
    assert.deepEqual((await t.call("asset-block", { KeyMR: g.F0 })).result, r.result);
    assert.deepEqual((await t.call("asset-block", { keymr: f.ledgerkeymr })).result.fblock, f);
    fails(await t.call("asset-block", { keymr: R }), -32008, "Block not found");
    fails(await t.call("fblock-by-height", { height: 4_000_000_000 }), -32008, "Block not found");
    assert.equal("rawdata" in (await t.call("fblock-by-height", { height: 0, noraw: true })).result, false);
  });

  it("entry-block: unknown or non-entry-block keys → -32008 (D18, D19), bad key → -32602 (D20)", async () => {
    fails(await t.call("entry-block", { KeyMR: R }), -32008, "Block not found");
    fails(await t.call("entry-block", { keymr: g.F0 }), -32008, "Block not found");
    fails(
      await t.call("entry-block", { keymr: "zz" }),
      -32602,
      "Invalid params",
      'keymr: not hex (character "z" at position 0)',
    );
  });

  it("raw-data of blocks equals their rawdata (D21–D24)", async () => {
    assert.deepEqual((await t.call("raw-data", { hash: g.D0.keymr })).result, { data: g.rawD0 });
    assert.equal(
      (await t.call("raw-data", { hash: g.A0 })).result.data,
      (await t.call("ablock-by-height", { height: 0 })).result.rawdata,
    );
    assert.equal(
      (await t.call("raw-data", { hash: g.EC0 })).result.data,
      (await t.call("ecblock-by-height", { height: 0 })).result.rawdata,
    );
    assert.equal(
      (await t.call("raw-data", { hash: g.F0 })).result.data,
      (await t.call("fblock-by-height", { height: 0 })).result.rawdata,
    );
    fails(await t.call("raw-data", { hash: R }), -32008, "Object not found");
    fails(
      await t.call("raw-data", { hash: "zz" }),
      -32602,
      "Invalid params",
      'hash: not hex (character "z" at position 0)',
    );
    fails(
      await t.call("raw-data", [R]),
      -32602,
      "Invalid params",
      "params: expected an object with named members, got array",
    );
  });

  it("transaction of the genesis coinbase (E12) and of an unknown hash (E11, E13, E14)", async () => {
    const r = await t.call("transaction", { hash: g.TX0 });
    ok(r);
    assert.equal(r.result.assettransaction.txid, g.TX0);
    assert.equal(r.result.includedintransactionblock, g.F0);
    assert.equal(r.result.includedindirectoryblock, g.D0.keymr);
    assert.equal(r.result.includedindirectoryblockheight, 0);
    assert.equal("entry" in r.result, false);
    const u = await t.call("transaction", { hash: R });
    ok(u);
    assert.deepEqual(u.result, {
      includedintransactionblock: "",
      includedindirectoryblock: "",
      includedindirectoryblockheight: -1,
    });
    fails(
      await t.call("transaction", { hash: "zz" }),
      -32602,
      "Invalid params",
      'hash: not hex (character "z" at position 0)',
    );
    ok(await t.call("transaction", { hash: g.F0 }), "a block hash is not a transaction");
  });

  it("chain-head: unknown → -32009 (E1, E2), bad → -32602 (E3)", async () => {
    fails(await t.call("chain-head", { chainid: R }), -32009, "Missing Chain Head");
    fails(await t.call("chain-head", { ChainID: R }), -32009, "Missing Chain Head");
    fails(
      await t.call("chain-head", { chainid: "abc" }),
      -32602,
      "Invalid params",
      "chainid: expected 64 hex characters, got 3",
    );
  });

  it("entry and receipt of unknown hashes (E6–E10)", async () => {
    fails(await t.call("entry", { hash: R }), -32008, "Entry not found");
    fails(
      await t.call("entry", { hash: "zz" }),
      -32602,
      "Invalid params",
      'hash: not hex (character "z" at position 0)',
    );
    fails(await t.call("receipt", { hash: R }), -32010, "Receipt creation error");
    fails(
      await t.call("receipt", { hash: "zz" }),
      -32602,
      "Invalid params",
      'hash: not hex (character "z" at position 0)',
    );
    fails(
      await t.call("receipt", { hash: R, includerawentry: "yes" }),
      -32602,
      "Invalid params",
      "includerawentry: expected true or false, got string",
    );
  });

  it("pending-entries on a quiet node (E20–E22) and pending-transactions (E23, E24)", async () => {
    assert.deepEqual((await t.call("pending-entries")).result, []);
    assert.deepEqual((await t.call("pending-entries", { chainid: R })).result, []);
    fails(
      await t.call("pending-entries", "x"),
      -32602,
      "Invalid params",
      "params: expected an object with named members, got string",
    );
    const p = await t.call("pending-transactions");
    ok(p);
    assert.ok(Array.isArray(p.result));
    for (const item of p.result) {
      assert.match(item.transactionid, HEX64);
      assert.ok(Array.isArray(item.inputs) && Array.isArray(item.outputs) && Array.isArray(item.ecoutputs));
    }
    fails(
      await t.call("pending-transactions", { address: "nonsense" }),
      -32602,
      "Invalid params",
      "address: expected 52 characters, got 8",
    );
    assert.deepEqual((await t.call("pending-transactions", { address: ECUNUSED })).result, []);
  });
});

describe("balances", () => {
  it("asset-balance of the genesis-funded address; raw-hex form; errors (F1–F6)", async () => {
    const r = await t.call("asset-balance", { address: genesisKey.publicAddress });
    ok(r);
    assert.deepEqual(r.result, { balance: GENESIS_BALANCE }, "LOCAL's genesis allocation, untouched so far");
    const raw = await t.call("asset-balance", { address: R });
    assert.deepEqual(raw.result, { balance: 0 });
    fails(
      await t.call("asset-balance"),
      -32602,
      "Invalid params",
      "address: required, expected an asset address (FA…) or a 64-hex RCD hash",
    );
    fails(
      await t.call("asset-balance", { address: ECUNUSED }),
      -32602,
      "Invalid params",
      "address: expected an FA address, got EC",
    );
    fails(
      await t.call("asset-balance", { address: genesisKey.privateAddress }),
      -32602,
      "Invalid params",
      "address: expected an FA address, got Fs",
    );
    fails(
      await t.call("asset-balance", { address: "abcd" }),
      -32602,
      "Invalid params",
      "address: expected 52 characters, got 4",
    );
  });

  it("entry-credit-balance (F7, F8)", async () => {
    assert.deepEqual((await t.call("entry-credit-balance", { address: ECUNUSED })).result, { balance: 0 });
    fails(
      await t.call("entry-credit-balance", { address: genesisKey.publicAddress }),
      -32602,
      "Invalid params",
      "address: expected an EC address, got FA",
    );
  });

  it("multiple-ec-balances and multiple-asset-balances: spec §4.1.4 conditions", async () => {
    const h = (await t.call("heights")).result;
    const unused = await t.call("multiple-ec-balances", { addresses: [ECUNUSED] });
    ok(unused);
    assert.deepEqual(unused.result.balances, [{ ack: 0, saved: 0, err: "Address has not had a transaction" }]);
    assert.ok(unused.result.lastsavedheight >= h.directoryblockheight);
    assert.ok(unused.result.currentheight > unused.result.lastsavedheight);

    const funded = await t.call("multiple-asset-balances", { addresses: [genesisKey.publicAddress] });
    ok(funded);
    const balance = (await t.call("asset-balance", { address: genesisKey.publicAddress })).result.balance;
    assert.deepEqual(funded.result.balances, [{ ack: balance, saved: balance, err: "" }]);

    const malformed = await t.call("multiple-asset-balances", { addresses: [genesisKey.publicAddress, "xyz"] });
    assert.deepEqual(malformed.result, {
      currentheight: 0,
      lastsavedheight: 0,
      balances: [{ ack: 0, saved: 0, err: "Error decoding address" }],
    });
    const wrongKind = await t.call("multiple-ec-balances", { addresses: [genesisKey.publicAddress] });
    assert.equal(wrongKind.result.balances[0].err, "Error decoding address");
    assert.deepEqual(
      (await t.call("multiple-ec-balances", { addresses: [""] })).result.balances[0].err,
      "Error decoding address",
    );
    assert.deepEqual((await t.call("multiple-asset-balances", { addresses: [] })).result, {
      currentheight: 0,
      lastsavedheight: 0,
      balances: [],
    });
    fails(
      await t.call("multiple-asset-balances", { address: [] }),
      -32602,
      "Invalid params",
      "ERROR! Invalid params passed in, expected 'addresses'",
    );
    fails(await t.call("multiple-ec-balances", []), -32602, "Invalid params", "ERROR! Invalid params passed in");
    // a wrong-typed member is -32602 naming it (the reference: -32600 with id null; docs/compat.md)
    fails(
      await t.call("multiple-ec-balances", { addresses: ECUNUSED }),
      -32602,
      "Invalid params",
      "addresses: expected an array of address strings, got string",
    );
  });
});

describe("acknowledgements of unknown items", () => {
  it("ack c / f / entry chain and their errors (H1–H7)", async () => {
    assert.deepEqual((await t.call("ack", { hash: R, chainid: "c" })).result, {
      committxid: R,
      entryhash: "",
      commitdata: { status: "Unknown" },
      entrydata: { status: "" },
    });
    assert.deepEqual((await t.call("ack", { hash: R, chainid: "f" })).result, { txid: R, status: "Unknown" });
    assert.deepEqual((await t.call("ack", { hash: R, chainid: R })).result, {
      committxid: "",
      entryhash: R,
      commitdata: { status: "Unknown" },
      entrydata: { status: "Unknown" },
    });
    fails(await t.call("ack", { hash: R }), -32602, "Invalid params", "ChainID must be 64 hex encoded characters");
    fails(
      await t.call("ack", { hash: R, chainid: "C" }),
      -32602,
      "Invalid params",
      "ChainID must be 64 hex encoded characters",
    );
    fails(
      await t.call("ack", { hash: "aa", chainid: "c" }),
      -32602,
      "Invalid params",
      "Hash must be 64 hex encoded characters",
    );
    fails(await t.call("ack", { hash: R, chainid: ADMIN }), -32602, "Invalid params", "ChainID cannot be admin chain");
  });

  it("ack f of the genesis coinbase is DBlockConfirmed with a block date in ms (H8)", async () => {
    const r = await t.call("ack", { hash: g.TX0, chainid: "f" });
    ok(r);
    assert.equal(r.result.txid, g.TX0);
    assert.equal(r.result.status, "DBlockConfirmed");
    assert.ok(r.result.blockdate > 1_000_000_000_000, "blockdate is in ms");
    assert.match(r.result.blockdatestring, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it("asset-ack and entry-ack (H10–H15)", async () => {
    assert.deepEqual((await t.call("asset-ack", { txid: R })).result, { txid: R, status: "Unknown" });
    fails(await t.call("asset-ack", {}), -32602, "Invalid params", "txid: required (or fulltransaction)");
    fails(
      await t.call("asset-ack", { fulltransaction: "zz" }),
      -32602,
      "Invalid params",
      'fulltransaction: not hex (character "z" at position 0)',
    );
    fails(await t.call("entry-ack", {}), -32602, "Invalid params", "txid: required (or fulltransaction)");
    assert.deepEqual((await t.call("entry-ack", { txid: R })).result, {
      committxid: "",
      entryhash: "",
      commitdata: { status: "Unknown" },
      entrydata: { status: "Unknown" },
    });
  });
});

describe("submission errors change nothing", () => {
  it("commit-chain / commit-entry / reveal / asset-submit / send-raw-message reject bad input (G1, G2, G5, G8, G10, G13–G19)", async () => {
    fails(
      await t.call("asset-submit", { transaction: "zz" }),
      -32602,
      "Invalid params",
      'transaction: not hex (character "z" at position 0)',
    );
    fails(await t.call("asset-submit"), -32602, "Invalid params", "transaction: required, expected a hex string");
    fails(
      await t.call("commit-chain", { message: "zz" }),
      -32602,
      "Invalid params",
      'message: not hex (character "z" at position 0)',
    );
    // commit-entry's member is `message`
    fails(
      await t.call("commit-entry", { entry: "00" }),
      -32602,
      "Invalid params",
      "message: required, expected a hex string",
    );
    fails(
      await t.call("reveal-entry", { entry: `01${Z}0000` }),
      -32602,
      "Invalid params",
      "entry.version: expected 0, got 1",
    );
    fails(
      await t.call("reveal-entry", { entry: "00" }),
      -32602,
      "Invalid params",
      "entry.chainid: needs 32 byte(s) at offset 1, only 0 left",
    );
    // Entry size (MAX_ENTRY_SIZE = 10275 bytes): the data must name the size, not a later rule (a chain that
    // does not exist is what an oversized entry of chain Z would otherwise get).
    fails(
      await t.call("reveal-entry", { entry: `00${Z}0000${"00".repeat(10241)}` }),
      -32602,
      "Invalid params",
      "entry: 10276 bytes, more than the largest accepted (10275)",
    );
    fails(
      await t.call("reveal-entry", { entry: `00${Z}0000${"00".repeat(10240)}` }),
      -32602,
      "Invalid params",
      `chain ${Z} does not exist`,
    );
    for (const [message, data] of [
      ["zz", 'message: not hex (character "z" at position 0)'],
      ["", "message: empty"],
      [
        "ff",
        "message: type 0xff is not accepted here; send 0x05 (chain commit), 0x06 (entry commit), 0x09 (transaction) or 0x0d (entry reveal)",
      ],
    ])
      fails(await t.call("send-raw-message", { message }), -32602, "Invalid params", data);
  });

  it("a structurally valid but unfunded, unsigned or stale submission is refused with the reason (not silently dropped)", async () => {
    // G3/G20: a transaction with no inputs — the reference accepts it and drops it later. Its timestamp is
    // the node's time: one of 0 (as in api-cases) is refused for being outside the window before its inputs
    // are looked at.
    const now = Buffer.alloc(6);
    now.writeUIntBE(Date.now(), 0, 6);
    const noInputs = `02${now.toString("hex")}000000`;
    const needsInput = "transaction.inputs: a transaction other than the coinbase needs at least one input";
    fails(await t.call("asset-submit", { transaction: noInputs }), -32602, "Invalid params", needsInput);
    fails(await t.call("send-raw-message", { message: `09${noInputs}` }), -32602, "Invalid params", needsInput);
    fails(
      await t.call("asset-submit", { transaction: "02000000000000000000" }),
      -32602,
      "Invalid params",
      /^transaction: timestamp 0 ms is outside the accepted window of ±3600000 ms around the node's time \d+ ms$/,
    );
    // G6: a 2016 chain commit — outside the ±1 h window.
    const old =
      "00015507b2f70bd0165d9fa19a28cfaafb6bc82f538955a98c7b7e60d79fbf92655c1bff1c76466cb3bc3f3cc68d8b2c111f4f24c88d9c031b4124395c940e5e2c5ea496e8aaa2f5c956749fc3eba4acc60fd485fb100e601070a44fcce54ff358d606698547340b3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da2946c901273e616bdbb166c535b26d0d446bc69b22c887c534297c7d01b2ac120237086112b5ef34fc6474e5e941d60aa054b465d4d770d7f850169170ef39150b";
    fails(
      await t.call("commit-chain", { message: old }),
      -32602,
      "Invalid params",
      /^commit: timestamp 1464713017099 ms is outside the accepted window of ±3600000 ms around the node's time \d+ ms$/,
    );
    // A fresh commit by a key with no entry credits.
    const raw = marshalEntry({
      version: 0,
      chainId: chainIdFromExtIds([text("poor")]),
      extIds: [text("poor")],
      content: new Uint8Array(),
    });
    const poor = buildChainCommit({ entryRaw: raw, milliTime: Date.now(), ecSeed: poorKey.seed });
    fails(
      await t.call("commit-chain", { message: toHex(poor.raw) }),
      -32602,
      "Invalid params",
      `entry credit balance of ${poorKey.publicAddress} is 0 EC, the commit needs 11 EC`,
    );
    // A reveal for a chain that does not exist and whose ext IDs do not make its chain ID.
    fails(await t.call("reveal-entry", { entry: `00${Z}0000` }), -32602, "Invalid params", `chain ${Z} does not exist`);
    // reveal-chain declares a chain: ext IDs that do not make the entry's chain ID are refused at once, with
    // no commit yet, and nothing is held; the same bytes as reveal-entry merely wait for their commit.
    const mislabelled = toHex(
      marshalEntry({
        version: 0,
        chainId: chainIdFromExtIds([text("other")]),
        extIds: [text("mine")],
        content: text("x"),
      }),
    );
    const heldBefore = (await t.call("pending-entries", {})).result.length;
    fails(
      await t.call("reveal-chain", { entry: mislabelled }),
      -32602,
      "Invalid params",
      `chain ${toHex(chainIdFromExtIds([text("other")]))}: a chain's first entry must carry the chain ID of its external IDs, ${toHex(chainIdFromExtIds([text("mine")]))}`,
    );
    // A transaction with a bad signature.
    const rate = BigInt((await t.call("entry-credit-rate")).result.rate);
    const tx = buildTransaction({
      milliTimestamp: Date.now(),
      inputs: [{ seed: genesisKey.seed, amount: 100n * rate }],
      outputs: [],
      ecOutputs: [{ address: ecKey.publicKey, amount: 50n * rate }],
    });
    const tampered = Uint8Array.from(tx.raw);
    tampered[tampered.length - 1]! ^= 1;
    fails(
      await t.call("asset-submit", { transaction: toHex(tampered) }),
      -32602,
      "Invalid params",
      "transaction input 0: signature does not verify",
    );
    // Nothing of it was taken in.
    assert.equal((await t.call("pending-entries", {})).result.length, heldBefore);
    const poorTxid = toHex(sha256(poor.raw.subarray(0, 104)));
    assert.equal((await t.call("ack", { hash: poorTxid, chainid: "c" })).result.commitdata.status, "Unknown");
    assert.equal(
      (await t.call("ack", { hash: toHex(tx.signedPart.length > 0 ? sha256(tx.signedPart) : tx.raw), chainid: "f" }))
        .result.status,
      "Unknown",
    );
  });
});

describe("the full flow", () => {
  const raws = { secondCommit: "" };
  const flow = {
    txid: "",
    ecBought: 0,
    chainId: new Uint8Array() as Uint8Array,
    chainHex: "",
    first: { raw: new Uint8Array() as Uint8Array, hash: "", commitTxid: "" },
    second: { raw: new Uint8Array() as Uint8Array, hash: "", commitTxid: "" },
    third: { raw: new Uint8Array() as Uint8Array, hash: "", commitTxid: "" },
  };

  it("buys entry credits with the genesis key: ack f Unknown → TransactionACK → DBlockConfirmed (J1)", async () => {
    const rate = BigInt((await t.call("entry-credit-rate")).result.rate);
    const ecAmount = 2000n * rate;
    const draft = buildTransaction({
      milliTimestamp: Date.now(),
      inputs: [{ seed: genesisKey.seed, amount: ecAmount }],
      outputs: [],
      ecOutputs: [{ address: ecKey.publicKey, amount: ecAmount }],
    });
    const fee = BigInt(transactionFeeEC(draft)) * rate;
    const tx = buildTransaction({
      milliTimestamp: Date.now(),
      inputs: [{ seed: genesisKey.seed, amount: ecAmount + fee }],
      outputs: [],
      ecOutputs: [{ address: ecKey.publicKey, amount: ecAmount }],
    });
    const before = (await t.call("asset-balance", { address: genesisKey.publicAddress })).result.balance;
    const ecBefore = (await t.call("entry-credit-balance", { address: ecKey.publicAddress })).result.balance;
    assert.equal(ecBefore, 0);

    const txid = toHex(sha256(tx.signedPart));
    assert.equal((await t.call("ack", { hash: txid, chainid: "f" })).result.status, "Unknown");
    const submitted = await t.call("asset-submit", { transaction: toHex(tx.raw) });
    ok(submitted);
    assert.deepEqual(submitted.result, { message: "Successfully submitted the transaction", txid });
    flow.txid = txid;
    flow.ecBought = Number(ecAmount / rate);

    // TransactionACK while its block is open (checked exactly in "the process list" below); here a 2-second
    // block may close between the two calls.
    const acked = await t.call("ack", { hash: txid, chainid: "f" });
    assert.ok(ACKED.includes(acked.result.status), acked.text);
    assert.ok(acked.result.transactiondate > 1_000_000_000_000, "transactiondate in ms");
    assert.equal(
      (await t.call("entry-credit-balance", { address: ecKey.publicAddress })).result.balance,
      flow.ecBought,
    );
    assert.equal(
      (await t.call("asset-balance", { address: genesisKey.publicAddress })).result.balance,
      before - Number(ecAmount + fee),
    );

    const confirmed = await waitFor("the EC purchase to be DBlockConfirmed", async () => {
      const r = await t.call("ack", { hash: txid, chainid: "f" });
      return r.result.status === "DBlockConfirmed" ? r : undefined;
    });
    assert.ok(confirmed.result.blockdate > 1_000_000_000_000, "blockdate in ms");
    assert.deepEqual((await t.call("asset-ack", { txid })).result.status, "DBlockConfirmed");
    const fullAck = await t.call("ack", { chainid: "f", fulltransaction: toHex(tx.raw) });
    assert.equal(fullAck.result.txid, txid);
    assert.equal(fullAck.result.status, "DBlockConfirmed");

    const balances = await t.call("multiple-ec-balances", { addresses: [ecKey.publicAddress, ECUNUSED] });
    ok(balances);
    assert.deepEqual(balances.result.balances, [
      { ack: flow.ecBought, saved: flow.ecBought, err: "" },
      { ack: 0, saved: 0, err: "Address has not had a transaction" },
    ]);
    const inBlock = await t.call("transaction", { hash: txid });
    assert.equal(inBlock.result.assettransaction.txid, txid);
    assert.ok(inBlock.result.includedindirectoryblockheight > 0);
    assert.equal(
      (await t.call("raw-data", { hash: txid })).result.data,
      toHex(tx.raw),
      "raw-data of a transaction is its bytes",
    );
  });

  it("creates a chain: commit-chain, reveal-chain; the entry is served at once (J2–J6)", async () => {
    const extIds = [text("ledgerd"), text(`rpc-v2 ${Date.now()}`)];
    flow.chainId = chainIdFromExtIds(extIds);
    flow.chainHex = toHex(flow.chainId);
    flow.first.raw = marshalEntry({ version: 0, chainId: flow.chainId, extIds, content: text("first entry") });
    flow.first.hash = toHex(entryHash(flow.first.raw));
    const commit = buildChainCommit({ entryRaw: flow.first.raw, milliTime: Date.now(), ecSeed: ecKey.seed });
    flow.first.commitTxid = toHex(sha256(commit.raw.subarray(0, 104)));

    assert.equal(
      (await t.call("ack", { hash: flow.first.commitTxid, chainid: "c" })).result.commitdata.status,
      "Unknown",
    );
    const c = await t.call("commit-chain", { message: toHex(commit.raw) });
    ok(c);
    assert.deepEqual(c.result, {
      message: "Chain Commit Success",
      txid: flow.first.commitTxid,
      entryhash: flow.first.hash,
      chainidhash: toHex(commit.chainIdHash),
    });
    const ackC = await t.call("ack", { hash: flow.first.commitTxid, chainid: "c" });
    // TransactionACK until the block closes (a close can fall between the two calls: then DBlockConfirmed).
    assert.ok(ACKED.includes(ackC.result.commitdata.status), ackC.text);
    assert.equal(ackC.result.entryhash, flow.first.hash);
    assert.ok(ackC.result.commitdata.transactiondate < 10_000_000_000, "ack c transactiondate in seconds");

    const r = await t.call("reveal-chain", { entry: toHex(flow.first.raw) });
    ok(r);
    assert.deepEqual(r.result, { message: "Entry Reveal Success", entryhash: flow.first.hash, chainid: flow.chainHex });

    const ackE = await t.call("ack", { hash: flow.first.hash, chainid: flow.chainHex });
    assert.ok(ACKED.includes(ackE.result.entrydata.status), ackE.text);
    assert.equal(ackE.result.committxid, flow.first.commitTxid);
    const e = await t.call("entry", { hash: flow.first.hash });
    ok(e, "an acknowledged entry is served before its block is saved");
    assert.deepEqual(e.result, {
      chainid: flow.chainHex,
      content: toHex(text("first entry")),
      extids: extIds.map(toHex),
    });
    assert.equal((await t.call("raw-data", { hash: flow.first.hash })).result.data, toHex(flow.first.raw));
  });

  it("adds entries with commit-entry/reveal-entry and through send-raw-message (J2, §7.2)", async () => {
    // Wait until the chain exists in a saved block or the process list accepts entries for it.
    flow.second.raw = marshalEntry({
      version: 0,
      chainId: flow.chainId,
      extIds: [text("second")],
      content: text("hello"),
    });
    flow.second.hash = toHex(entryHash(flow.second.raw));
    const commit = buildEntryCommit({ entryRaw: flow.second.raw, milliTime: Date.now(), ecSeed: ecKey.seed });
    flow.second.commitTxid = toHex(sha256(commit.raw.subarray(0, 40)));
    raws.secondCommit = toHex(commit.raw);
    const c = await t.call("commit-entry", { message: toHex(commit.raw).toUpperCase() });
    ok(c);
    assert.deepEqual(c.result, {
      message: "Entry Commit Success",
      txid: flow.second.commitTxid,
      entryhash: flow.second.hash,
    });
    const r = await t.call("reveal-entry", { entry: toHex(flow.second.raw) });
    ok(r);
    assert.deepEqual(r.result, {
      message: "Entry Reveal Success",
      entryhash: flow.second.hash,
      chainid: flow.chainHex,
    });

    flow.third.raw = marshalEntry({ version: 0, chainId: flow.chainId, extIds: [], content: new Uint8Array() });
    flow.third.hash = toHex(entryHash(flow.third.raw));
    const c3 = buildEntryCommit({ entryRaw: flow.third.raw, milliTime: Date.now(), ecSeed: ecKey.seed });
    flow.third.commitTxid = toHex(sha256(c3.raw.subarray(0, 40)));
    const sent = await t.call("send-raw-message", { message: `06${toHex(c3.raw)}` });
    ok(sent);
    assert.deepEqual(sent.result, { message: "Successfully sent the message" });
    const ts = Buffer.alloc(6);
    ts.writeUIntBE(Date.now(), 0, 6);
    ok(await t.call("send-raw-message", { message: `0d${ts.toString("hex")}${toHex(flow.third.raw)}` }));
    const e3 = await t.call("entry", { hash: flow.third.hash });
    ok(e3);
    assert.deepEqual(e3.result.extids, [], "extids is [] when the entry has none");
    assert.equal(e3.result.content, "");
  });

  it("send-raw-message routes a chain commit (05) and a transaction (09) as commit-chain and asset-submit", async () => {
    const extIds = [text("raw"), text(String(Date.now()))];
    const chainId = chainIdFromExtIds(extIds);
    const raw = marshalEntry({ version: 0, chainId, extIds, content: text("via send-raw-message") });
    const commit = buildChainCommit({ entryRaw: raw, milliTime: Date.now(), ecSeed: ecKey.seed });
    ok(await t.call("send-raw-message", { message: `05${toHex(commit.raw)}` }));
    const txid = toHex(sha256(commit.raw.subarray(0, 104)));
    assert.ok(ACKED.includes((await t.call("ack", { hash: txid, chainid: "c" })).result.commitdata.status));
    const ts = Buffer.alloc(6);
    ts.writeUIntBE(Date.now(), 0, 6);
    ok(await t.call("send-raw-message", { message: `0d${ts.toString("hex")}${toHex(raw)}` }));
    const hash = toHex(entryHash(raw));
    assert.ok(ACKED.includes((await t.call("ack", { hash, chainid: toHex(chainId) })).result.entrydata.status));
    // The same commit again, now through commit-chain: already paid → Repeated Commit (same route).
    fails(await t.call("commit-chain", { message: toHex(commit.raw) }), -32011, "Repeated Commit", {
      entryhash: hash,
      info: "A commit with equal or greater payment already exists",
    });

    const rate = BigInt((await t.call("entry-credit-rate")).result.rate);
    const shape = {
      milliTimestamp: Date.now(),
      outputs: [],
      ecOutputs: [{ address: ecKey.publicKey, amount: 10n * rate }],
    };
    const fee =
      BigInt(
        transactionFeeEC(buildTransaction({ ...shape, inputs: [{ seed: genesisKey.seed, amount: 10n * rate }] })),
      ) * rate;
    const tx = buildTransaction({ ...shape, inputs: [{ seed: genesisKey.seed, amount: 10n * rate + fee }] });
    const before = (await t.call("entry-credit-balance", { address: ecKey.publicAddress })).result.balance;
    ok(await t.call("send-raw-message", { message: `09${toHex(tx.raw)}` }));
    // acknowledged; a 2-second block may close between the two calls, as in the full flow
    const acked = await t.call("ack", { hash: toHex(sha256(tx.signedPart)), chainid: "f" });
    assert.ok(ACKED.includes(acked.result.status), acked.text);
    assert.equal((await t.call("entry-credit-balance", { address: ecKey.publicAddress })).result.balance, before + 10);
    // A trailing 96-byte message signature is allowed; anything else after the payload is not.
    fails(
      await t.call("send-raw-message", { message: `09${toHex(tx.raw)}00` }),
      -32602,
      "Invalid params",
      "message: 1 byte(s) after the transaction; only a 96-byte message signature may follow",
    );
  });

  it("a second identical paid commit is a Repeated Commit; a reveal then goes through (J11)", async () => {
    const raw = marshalEntry({
      version: 0,
      chainId: flow.chainId,
      extIds: [text("repeat")],
      content: text(String(Date.now())),
    });
    const commit = buildEntryCommit({ entryRaw: raw, milliTime: Date.now(), ecSeed: ecKey.seed });
    ok(await t.call("commit-entry", { message: toHex(commit.raw) }));
    const again = await t.call("commit-entry", { message: toHex(commit.raw) });
    fails(again, -32011, "Repeated Commit", {
      entryhash: toHex(entryHash(raw)),
      info: "A commit with equal or greater payment already exists",
    });
    ok(await t.call("reveal-entry", { entry: toHex(raw) }));
    fails(
      await t.call("reveal-entry", { entry: toHex(raw) }),
      -32602,
      "Invalid params",
      `entry ${toHex(entryHash(raw))} was already revealed`,
    );
  });

  it("all three entries reach DBlockConfirmed; ack units as the reference (J8, J14)", async () => {
    for (const e of [flow.first, flow.second, flow.third]) {
      const r = await waitFor(`entry ${e.hash} to be DBlockConfirmed`, async () => {
        const a = await t.call("ack", { hash: e.hash, chainid: flow.chainHex });
        return a.result.entrydata.status === "DBlockConfirmed" ? a : undefined;
      });
      assert.equal(r.result.entryhash, e.hash);
      assert.equal(r.result.committxid, e.commitTxid);
      assert.equal(r.result.commitdata.status, "DBlockConfirmed");
      assert.ok(r.result.commitdata.transactiondate > 1_000_000_000_000, "confirmed: commit transactiondate in ms");
      assert.ok(r.result.entrydata.blockdate < 10_000_000_000, "entry blockdate in seconds");
      assert.match(r.result.entrydata.blockdatestring, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    }
    const c = await t.call("ack", { hash: flow.first.commitTxid, chainid: "c" });
    assert.equal(c.result.commitdata.status, "DBlockConfirmed");
    assert.ok(c.result.commitdata.blockdate < 10_000_000_000, "ack c blockdate in seconds");
    const full = await t.call("entry-ack", { txid: flow.second.commitTxid });
    assert.equal(full.result.entryhash, flow.second.hash);
    assert.equal(full.result.entrydata.status, "DBlockConfirmed");
    assert.ok(full.result.entrydata.blockdate > 1_000_000_000_000, "entry-ack dates in ms");
    const byEntry = await t.call("entry-ack", { fulltransaction: toHex(flow.second.raw) });
    assert.equal(byEntry.result.commitdata.status, "DBlockConfirmed");
    const byCommitBytes = await t.call("ack", { chainid: "c", fulltransaction: raws.secondCommit });
    assert.equal(byCommitBytes.result.committxid, flow.second.commitTxid);
    assert.equal(byCommitBytes.result.commitdata.status, "DBlockConfirmed");
    const byEntryBytes = await t.call("ack", { chainid: flow.chainHex, fulltransaction: toHex(flow.second.raw) });
    assert.equal(byEntryBytes.result.entryhash, flow.second.hash);
    assert.equal(byEntryBytes.result.entrydata.status, "DBlockConfirmed");
    assert.deepEqual(
      (await t.call("pending-entries")).result.filter((p: { chainid: string }) => p.chainid === flow.chainHex),
      [],
    );
  });

  it("reads the chain back: chain-head, entry-block, directory-block, entries (J7)", async () => {
    const head = await waitFor("chain-head out of the process list", async () => {
      const r = await t.call("chain-head", { chainid: flow.chainHex });
      return r.result.chaininprocesslist === false ? r : undefined;
    });
    assert.match(head.result.chainhead, HEX64);
    // Walk back to the chain's first block.
    const seen: string[] = [];
    let keymr = head.result.chainhead as string;
    let first: CallResult["result"];
    for (;;) {
      const b = await t.call("entry-block", { keymr });
      ok(b);
      assert.equal(b.result.header.chainid, flow.chainHex);
      seen.unshift(...b.result.entrylist.map((e: { entryhash: string }) => e.entryhash));
      for (const e of b.result.entrylist)
        assert.ok(e.timestamp >= b.result.header.timestamp && e.timestamp <= b.result.header.timestamp + 600);
      first = b.result;
      if (b.result.header.prevkeymr === Z) break;
      keymr = b.result.header.prevkeymr;
    }
    assert.equal(first.header.blocksequencenumber, 0);
    assert.equal(seen[0], flow.first.hash);
    for (const e of [flow.second.hash, flow.third.hash]) assert.ok(seen.includes(e));
    const d = await t.call("directory-block", {
      keymr: (await t.call("dblock-by-height", { height: first.header.dbheight })).result.dblock.keymr,
    });
    assert.ok(d.result.entryblocklist.some((e: { chainid: string }) => e.chainid === flow.chainHex));
    assert.equal(d.result.header.sequencenumber, first.header.dbheight);
    assert.equal(d.result.header.timestamp, first.header.timestamp);
  });

  it("raw-data of an entry block decodes to the block of that keyMR", async () => {
    const keymr = (await t.call("chain-head", { chainid: flow.chainHex })).result.chainhead as string;
    const data = (await t.call("raw-data", { hash: keymr })).result.data as string;
    const block = decodeEntryBlock(fromHex(data));
    assert.equal(toHex(entryBlockHashes(block).keyMR), keymr);
    assert.equal(toHex(block.chainId), flow.chainHex);
  });

  it("receipt: verifies with protocol verifyReceipt; includerawentry adds the entry (J9)", async () => {
    const r = await t.call("receipt", { hash: flow.first.hash });
    ok(r);
    const receipt = r.result.receipt;
    assert.equal(receipt.entry.entryhash, flow.first.hash);
    assert.equal(receipt.merklebranch[0].left, flow.first.hash);
    assert.equal(receipt.anchortransactionhash, "");
    assert.equal(receipt.anchorblockhash, "");
    assert.match(receipt.entryblockkeymr, HEX64);
    assert.match(receipt.directoryblockkeymr, HEX64);
    assert.ok(receipt.directoryblockheight > 0);
    assert.equal(verifyReceipt(receiptFromJson(receipt)), true);
    const tampered = structuredClone(receipt);
    tampered.merklebranch[0].left = R;
    assert.equal(verifyReceipt(receiptFromJson(tampered)), false);
    const withRaw = await t.call("receipt", { hash: flow.second.hash, includerawentry: true });
    assert.equal(withRaw.result.receipt.entry.raw, toHex(flow.second.raw));
    assert.equal(verifyReceipt(receiptFromJson(withRaw.result.receipt)), true);
  });

  it("transaction by entry hash and by commit txid; raw-data of a commit (J10, J13)", async () => {
    const e = await t.call("transaction", { hash: flow.second.hash });
    ok(e);
    assert.deepEqual(e.result.entry, {
      version: 0,
      chainid: flow.chainHex,
      extids: [toHex(text("second"))],
      content: toHex(text("hello")),
    });
    assert.match(e.result.includedintransactionblock, HEX64);
    assert.ok(e.result.includedindirectoryblockheight > 0);
    const block = await t.call("entry-block", { keymr: e.result.includedintransactionblock });
    assert.ok(block.result.entrylist.some((x: { entryhash: string }) => x.entryhash === flow.second.hash));

    const c = await t.call("transaction", { hash: flow.second.commitTxid });
    ok(c);
    assert.equal(c.result.ectransaction.entryhash, flow.second.hash);
    const raw = (await t.call("raw-data", { hash: flow.second.commitTxid })).result.data as string;
    assert.equal(raw.length, 136 * 2);
    assert.equal(toHex(sha256(fromHex(raw).subarray(0, raw.length / 2 - 96))), flow.second.commitTxid);
  });

  it("the EC block of the commits lists them; balances went down by the credits paid", async () => {
    // bought 2,000 + 10 (send-raw-message's transaction); paid: two chain commits of a first entry under
    // 1 KiB (10 + 1 each) and three entry commits (1 each; the repeated one refused, not paid)
    const ec = (await t.call("entry-credit-balance", { address: ecKey.publicAddress })).result.balance;
    assert.equal(ec, flow.ecBought + 10 - 2 * 11 - 3 * 1);
    const h = (await t.call("transaction", { hash: flow.first.commitTxid })).result.includedindirectoryblockheight;
    const b = await t.call("ecblock-by-height", { height: h });
    assert.ok(b.result.ecblock.body.entries.some((x: { entryhash?: string }) => x.entryhash === flow.first.hash));
  });
});

describe("the process list: a node whose first block stays open for the whole test (1-hour blocks)", () => {
  // With 2-second blocks a close can fall between a submission and the next call; here none can (the first
  // minute ends 6 minutes after start), so every answer below is the one of an accepted, unsaved message.
  let open: TestNode;
  before(async () => {
    open = await startTestNode({ blockTimeSeconds: 3600 });
  });
  after(async () => {
    await open?.stop();
  });

  it("a paid transaction, a chain commit and its reveal are TransactionACK, pending and readable before any block (J1–J6)", async () => {
    assert.equal((await open.call("heights")).result.directoryblockheight, 0);
    const rate = BigInt((await open.call("entry-credit-rate")).result.rate);
    const ecAmount = 100n * rate;
    const shape = {
      milliTimestamp: Date.now(),
      outputs: [],
      ecOutputs: [{ address: ecKey.publicKey, amount: ecAmount }],
    };
    const fee =
      BigInt(transactionFeeEC(buildTransaction({ ...shape, inputs: [{ seed: genesisKey.seed, amount: ecAmount }] }))) *
      rate;
    const tx = buildTransaction({ ...shape, inputs: [{ seed: genesisKey.seed, amount: ecAmount + fee }] });
    const txid = toHex(sha256(tx.signedPart));
    ok(await open.call("asset-submit", { transaction: toHex(tx.raw) }));

    const acked = await open.call("ack", { hash: txid, chainid: "f" });
    assert.deepEqual(Object.keys(acked.result), ["txid", "transactiondate", "transactiondatestring", "status"]);
    assert.equal(acked.result.status, "TransactionACK", acked.text);
    assert.equal(acked.result.transactiondate, shape.milliTimestamp, "the transaction's own time, in ms");
    const pending = await open.call("pending-transactions", { address: genesisKey.publicAddress });
    assert.deepEqual(pending.result, [
      {
        transactionid: txid,
        dbheight: 1,
        status: "TransactionACK",
        inputs: [
          {
            amount: Number(ecAmount + fee),
            address: toHex(tx.inputs[0]!.address),
            useraddress: genesisKey.publicAddress,
          },
        ],
        outputs: [],
        ecoutputs: [{ amount: Number(ecAmount), address: toHex(ecKey.publicKey), useraddress: ecKey.publicAddress }],
        fees: Number(fee),
      },
    ]);
    assert.deepEqual(
      (await open.call("pending-transactions", { address: ecKey.publicAddress })).result,
      pending.result,
    );
    // unfiltered, the open block's coinbase (no inputs or outputs on LOCAL) comes first
    const all = (await open.call("pending-transactions")).result;
    assert.deepEqual(all.slice(1), pending.result);
    assert.deepEqual(
      { ...all[0], transactionid: "" },
      {
        transactionid: "",
        dbheight: 1,
        status: "TransactionACK",
        inputs: [],
        outputs: [],
        ecoutputs: [],
        fees: 0,
      },
    );

    const extIds = [text("process list"), text(String(Date.now()))];
    const chainId = chainIdFromExtIds(extIds);
    const chainHex = toHex(chainId);
    const raw = marshalEntry({ version: 0, chainId, extIds, content: text("unsaved") });
    const hash = toHex(entryHash(raw));
    const commit = buildChainCommit({ entryRaw: raw, milliTime: Date.now(), ecSeed: ecKey.seed });
    const commitTxid = toHex(sha256(commit.raw.subarray(0, 104)));
    ok(await open.call("commit-chain", { message: toHex(commit.raw) }));
    const ackC = await open.call("ack", { hash: commitTxid, chainid: "c" });
    assert.deepEqual(ackC.result.entrydata, { status: "Unknown" }, "nothing revealed yet");
    assert.equal(ackC.result.commitdata.status, "TransactionACK", ackC.text);
    assert.equal(ackC.result.entryhash, hash);

    ok(await open.call("reveal-chain", { entry: toHex(raw) }));
    const ackE = await open.call("ack", { hash, chainid: chainHex });
    assert.deepEqual(ackE.result, { ...ackC.result, entrydata: { status: "TransactionACK" } });
    assert.equal(ackE.result.committxid, commitTxid);
    const entries = await open.call("pending-entries", {});
    assert.deepEqual(entries.result, [{ entryhash: hash, chainid: chainHex, status: "TransactionACK" }]);
    assert.deepEqual((await open.call("pending-entries", { chainid: chainHex })).result, entries.result);
    assert.deepEqual((await open.call("chain-head", { chainid: chainHex })).result, {
      chainhead: "",
      chaininprocesslist: true,
    });
    fails(await open.call("receipt", { hash }), -32010, "Receipt creation error");
    assert.deepEqual((await open.call("entry", { hash })).result, {
      chainid: chainHex,
      content: toHex(text("unsaved")),
      extids: extIds.map(toHex),
    });
    assert.equal((await open.call("heights")).result.directoryblockheight, 0, "no block closed during the test");
  });
});
