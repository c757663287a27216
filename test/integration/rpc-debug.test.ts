// Every /debug method against the real node (spec §4.2; reference api-cases I), drop rate and delay acting on
// real submissions, journaling on and off, reload-configuration, and Basic auth on both endpoints.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CONFIG_FILE_NAME } from "../../src/config/index.js";
import { keyPairFromPrivate, keyPairFromSeed } from "../../src/protocol/address.js";
import { toHex } from "../../src/protocol/bytes.js";
import { buildChainCommit, buildEntryCommit } from "../../src/protocol/commit.js";
import { chainIdFromExtIds, entryHash, marshalEntry } from "../../src/protocol/entry.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX } from "../../src/protocol/genesis.js";
import { sha256 } from "../../src/protocol/hash.js";
import { buildTransaction, transactionFeeEC } from "../../src/protocol/transaction.js";
import { type CallResult, flushCapture, startTestNode, type TestNode, waitFor } from "../unit/rpc/nodeHarness.js";

const HEX64 = /^[0-9a-f]{64}$/;
const genesisKey = keyPairFromPrivate("Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK");
const ecKey = keyPairFromSeed("EC", sha256(new TextEncoder().encode("ledgerd rpc-debug test EC key")));
const text = (s: string) => new TextEncoder().encode(s);
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

function ok(r: CallResult, what = ""): void {
  assert.equal(r.error, undefined, `${what} ${r.text}`);
  assert.equal(r.status, 200, what);
}

/** Buy `credits` entry credits for ecKey with the genesis key and wait until they are confirmed. */
async function fundEc(t: TestNode, credits: bigint, auth?: string): Promise<void> {
  const call = (m: string, p?: unknown) => t.call(m, p, auth === undefined ? {} : { auth });
  const rate = BigInt((await call("entry-credit-rate")).result.rate);
  const amount = credits * rate;
  const shape = { milliTimestamp: Date.now(), outputs: [], ecOutputs: [{ address: ecKey.publicKey, amount }] };
  const fee =
    BigInt(transactionFeeEC(buildTransaction({ ...shape, inputs: [{ seed: genesisKey.seed, amount }] }))) * rate;
  const tx = buildTransaction({ ...shape, inputs: [{ seed: genesisKey.seed, amount: amount + fee }] });
  const r = await call("asset-submit", { transaction: toHex(tx.raw) });
  ok(r);
  await waitFor("EC purchase confirmed", async () => {
    const a = await call("ack", { hash: r.result.txid, chainid: "f" });
    return a.result.status === "DBlockConfirmed" ? true : undefined;
  });
}

describe("debug methods (journaling off)", () => {
  let t: TestNode;
  const debug = (method: string, params?: unknown) => t.call(method, params, { path: "/debug" });
  let chainHex = "";

  before(async () => {
    t = await startTestNode({ blockTimeSeconds: 2, flags: ["-debugapi=readwrite"] });
    await fundEc(t, 500n);
    const extIds = [text("debug"), text(String(Date.now()))];
    const chainId = chainIdFromExtIds(extIds);
    chainHex = toHex(chainId);
    const raw = marshalEntry({ version: 0, chainId, extIds, content: text("chain") });
    ok(
      await t.call("commit-chain", {
        message: toHex(buildChainCommit({ entryRaw: raw, milliTime: Date.now(), ecSeed: ecKey.seed }).raw),
      }),
    );
    ok(await t.call("reveal-chain", { entry: toHex(raw) }));
    await waitFor("chain saved", async () => {
      const h = await t.call("chain-head", { chainid: chainHex });
      return h.result?.chainhead !== "" && h.result?.chaininprocesslist === false ? true : undefined;
    });
  });
  after(async () => {
    flushCapture();
    await t?.stop();
  });

  it("network-info: exactly NetworkNumber, NetworkName, NetworkID (I1)", async () => {
    const r = await debug("network-info");
    ok(r);
    assert.deepEqual(r.result, { NetworkNumber: 2, NetworkName: "LOCAL", NetworkID: 4203931044 });
  });

  it("federated-servers: the bootstrap identity (I2); audit-servers: none (I3)", async () => {
    const f = await debug("federated-servers");
    ok(f);
    assert.deepEqual(f.result, {
      FederatedServers: [{ ChainID: LOCAL_BOOTSTRAP_IDENTITY_HEX, Name: "", Online: true, Replace: null }],
    });
    assert.deepEqual((await debug("audit-servers")).result, { AuditServers: [] });
  });

  it("authorities: one per federated server with the spec's keys", async () => {
    const r = await debug("authorities");
    ok(r);
    assert.deepEqual(Object.keys(r.result), ["Authorities"]);
    assert.equal(r.result.Authorities.length, 1);
    const a = r.result.Authorities[0];
    assert.deepEqual(Object.keys(a), [
      "AuthorityChainID",
      "ManagementChainID",
      "MatryoshkaHash",
      "SigningKey",
      "Status",
      "AnchorKeys",
      "KeyHistory",
    ]);
    assert.equal(a.AuthorityChainID, LOCAL_BOOTSTRAP_IDENTITY_HEX);
    assert.match(a.SigningKey, HEX64);
    assert.equal(a.Status, 1);
  });

  it("predictive-fer equals entry-credit-rate (I9)", async () => {
    const r = await debug("predictive-fer");
    ok(r);
    assert.deepEqual(r.result, { PredictiveFER: (await t.call("entry-credit-rate")).result.rate });
  });

  it("configuration: the spec §4.2.1 groups, secrets redacted (I14)", async () => {
    const r = await debug("configuration");
    ok(r);
    assert.deepEqual(Object.keys(r.result), ["App", "Peer", "Log", "Wallet", "Walletd"]);
    assert.equal(r.result.App.Network, "LOCAL");
    assert.equal(r.result.App.DirectoryBlockInSeconds, 2);
    assert.equal(typeof r.result.App.PortNumber, "number");
    assert.equal(r.result.App.LocalServerPrivKey, "<redacted>");
    for (const group of ["Peer", "Log", "Wallet", "Walletd"]) assert.equal(typeof r.result[group], "object");
  });

  it("holding-queue: null when empty, the waiting reveal otherwise (I10)", async () => {
    assert.deepEqual((await debug("holding-queue")).result, { Messages: null });
    // A first entry of a new chain whose commit has not come: the node holds it.
    const extIds = [text("held"), text(String(Date.now()))];
    const raw = marshalEntry({ version: 0, chainId: chainIdFromExtIds(extIds), extIds, content: new Uint8Array() });
    const sentMs = Date.now();
    ok(await t.call("reveal-entry", { entry: toHex(raw) }));
    const answeredMs = Date.now();
    const r = await debug("holding-queue");
    ok(r);
    assert.equal(r.result.Messages.length, 1);
    const m = r.result.Messages[0];
    assert.equal(m.Type, "reveal");
    assert.equal(m.Hash, toHex(entryHash(raw)));
    // received while the call ran (ms since epoch); held for the reveal lifetime of one hour
    assert.ok(sentMs <= m.ReceivedMs && m.ReceivedMs <= answeredMs, `received at ${m.ReceivedMs}`);
    assert.equal(m.ExpiresMs - m.ReceivedMs, 3_600_000);
    assert.equal(
      (await t.call("ack", { hash: m.Hash, chainid: toHex(chainIdFromExtIds(extIds)) })).result.entrydata.status,
      "NotConfirmed",
    );
  });

  it("process-list: the open block's view", async () => {
    const r = await debug("process-list");
    ok(r);
    assert.deepEqual(Object.keys(r.result), ["ProcessList"]);
    const pl = r.result.ProcessList;
    assert.equal(typeof pl, "object");
    assert.equal(typeof pl.dbheight, "number");
    assert.equal(typeof pl.minute, "number");
    assert.ok(Array.isArray(pl.commits) && Array.isArray(pl.entries) && Array.isArray(pl.transactions));
  });

  it("summary: one line with heights, intake counters, drop rate and delay (I12)", async () => {
    const r = await debug("summary");
    ok(r);
    assert.deepEqual(Object.keys(r.result), ["Summary"]);
    assert.equal(typeof r.result.Summary, "string");
    assert.match(r.result.Summary, /LOCAL/);
    assert.match(r.result.Summary, /droprate=0permille delay=0ms/);
    assert.match(r.result.Summary, /accepted=\d+/);
    assert.equal(r.result.Summary.includes("\n"), false);
  });

  it("messages without journaling: a clear error (I11)", async () => {
    const r = await debug("messages");
    assert.equal(r.status, 400);
    assert.deepEqual(r.error, {
      code: -32000,
      message: "Journaling disabled",
      data: "messages needs the node started with -journaling=true",
    });
  });

  it("drop rate 1000: submissions are refused with an error and never processed; 0 again: processed", async () => {
    ok(await debug("set-drop-rate", { DropRate: 1000 }));
    const raw = marshalEntry({
      version: 0,
      chainId: Buffer.from(chainHex, "hex"),
      extIds: [text("dropped")],
      content: text(String(Date.now())),
    });
    const commit = buildEntryCommit({ entryRaw: raw, milliTime: Date.now(), ecSeed: ecKey.seed });
    const balance = (await t.call("entry-credit-balance", { address: ecKey.publicAddress })).result.balance;
    const c = await t.call("commit-entry", { message: toHex(commit.raw) });
    // Never a success for a message the node then discards: the caller learns it must send again.
    assert.equal(c.status, 400);
    assert.deepEqual(c.error, {
      code: -32000,
      message: "Message dropped",
      data: "the debug drop rate (1000 per 1000) dropped this commit: it was not processed; send it again",
    });
    const txid = toHex(sha256(commit.raw.subarray(0, 40)));
    assert.equal((await t.call("ack", { hash: txid, chainid: "c" })).result.commitdata.status, "Unknown");
    assert.match((await debug("summary")).result.Summary, /dropped=1 .*droprate=1000permille/);

    ok(await debug("set-drop-rate", { DropRate: 0 }));
    assert.deepEqual((await debug("drop-rate")).result, { DropRate: 0 });
    const again = await t.call("commit-entry", { message: toHex(commit.raw) });
    ok(again);
    assert.equal(again.result.txid, txid);
    assert.ok(
      ["TransactionACK", "DBlockConfirmed"].includes(
        (await t.call("ack", { hash: again.result.txid, chainid: "c" })).result.commitdata.status,
      ),
    );
    assert.equal(
      (await t.call("entry-credit-balance", { address: ecKey.publicAddress })).result.balance,
      balance - commit.credits,
    );
  });

  it("delay: a submission waits the set milliseconds before it is processed", async () => {
    // long enough that the two calls between the message's arrival and the ack below fit in it on a loaded machine
    const DELAY_MS = 1500;
    ok(await debug("set-delay", { Delay: DELAY_MS }));
    assert.deepEqual((await debug("delay")).result, { Delay: DELAY_MS });
    const intake = async () => /intake received=(\d+) accepted=(\d+)/.exec((await debug("summary")).result.Summary)!;
    const [, received0, accepted0] = await intake();
    const raw = marshalEntry({
      version: 0,
      chainId: Buffer.from(chainHex, "hex"),
      extIds: [text("delayed")],
      content: text(String(Date.now())),
    });
    const commit = buildEntryCommit({ entryRaw: raw, milliTime: Date.now(), ecSeed: ecKey.seed });
    const started = Date.now();
    const pending = t.call("commit-entry", { message: toHex(commit.raw) });
    // the message has arrived and waits: received, not yet accepted
    await waitFor("the commit to reach the intake", async () =>
      Number((await intake())[1]) === Number(received0) + 1 ? true : undefined,
    );
    const txid = toHex(sha256(commit.raw.subarray(0, 40)));
    assert.equal(
      (await t.call("ack", { hash: txid, chainid: "c" })).result.commitdata.status,
      "Unknown",
      "not processed during the delay",
    );
    assert.equal((await intake())[2], accepted0, "not accepted during the delay");
    ok(await pending);
    assert.ok(Date.now() - started >= DELAY_MS, "answered after the delay");
    assert.ok(
      ["TransactionACK", "DBlockConfirmed"].includes(
        (await t.call("ack", { hash: txid, chainid: "c" })).result.commitdata.status,
      ),
    );
    assert.match((await debug("summary")).result.Summary, /delay=1500ms/);
    assert.deepEqual((await debug("set-delay", { Delay: 0 })).result, { Delay: 0 });
  });

  it("reload-configuration: same shape as configuration", async () => {
    const r = await debug("reload-configuration");
    ok(r);
    assert.deepEqual(r.result, (await debug("configuration")).result);
  });

  it("getters ignore params; unknown debug method → -32601 (I18)", async () => {
    ok(await debug("network-info", [1, 2]));
    ok(await debug("summary", "x"));
    const r = await debug("no-such-debug-method");
    assert.deepEqual(r.error, { code: -32601, message: "Method not found", data: "no-such-debug-method" });
  });
});

describe("journaling on", () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode({ blockTimeSeconds: 2, flags: ["-journaling=true"] });
  });
  after(async () => {
    flushCapture();
    await t?.stop();
  });

  it("messages lists the journal as strings", async () => {
    await waitFor("a journal line", async () => {
      const r = await t.call("messages", undefined, { path: "/debug" });
      ok(r);
      assert.deepEqual(Object.keys(r.result), ["Messages"]);
      assert.ok(Array.isArray(r.result.Messages));
      for (const m of r.result.Messages) assert.equal(typeof m, "string");
      return r.result.Messages.length > 0 ? true : undefined;
    });
  });
});

describe("Basic authentication and reload-configuration on a real node", () => {
  let t: TestNode;
  const conf = (pass: string, extra = "") => `[App]\nNodeRpcUser = alice\nNodeRpcPass = ${pass}\n${extra}`;
  before(async () => {
    t = await startTestNode({ blockTimeSeconds: 2, configFile: conf("s3cret"), flags: ["-debugapi=readwrite"] });
  });
  after(async () => {
    flushCapture();
    await t?.stop();
  });

  for (const path of ["/v2", "/debug"]) {
    const method = path === "/v2" ? "heights" : "network-info";
    it(`${path}: no header → 401, wrong password → 401, right password → 200`, async () => {
      const none = await t.call(method, undefined, { path });
      assert.equal(none.status, 401);
      assert.equal(none.text, "401 Unauthorized.\n");
      const wrong = await t.call(method, undefined, { path, auth: basic("alice", "nope") });
      assert.equal(wrong.status, 401);
      const right = await t.call(method, undefined, { path, auth: basic("alice", "s3cret") });
      ok(right);
    });
  }

  it("a refused write changes nothing", async () => {
    const r = await t.call("set-drop-rate", { DropRate: 500 }, { path: "/debug", auth: basic("alice", "wrong") });
    assert.equal(r.status, 401);
    assert.deepEqual(
      (await t.call("drop-rate", undefined, { path: "/debug", auth: basic("alice", "s3cret") })).result,
      { DropRate: 0 },
    );
  });

  it("reload-configuration applies new credentials and drop rate live; the password stays redacted", async () => {
    writeFileSync(join(t.home, CONFIG_FILE_NAME), conf("n3w", "DropRate = 5\n"));
    const r = await t.call("reload-configuration", undefined, { path: "/debug", auth: basic("alice", "s3cret") });
    ok(r);
    assert.equal(r.result.App.NodeRpcUser, "alice");
    assert.equal(r.result.App.NodeRpcPass, "<redacted>");
    assert.equal((await t.call("heights", undefined, { auth: basic("alice", "s3cret") })).status, 401);
    ok(await t.call("heights", undefined, { auth: basic("alice", "n3w") }));
    assert.deepEqual((await t.call("drop-rate", undefined, { path: "/debug", auth: basic("alice", "n3w") })).result, {
      DropRate: 5,
    });
  });

  it("a broken configuration file is an error that changes nothing", async () => {
    writeFileSync(
      join(t.home, CONFIG_FILE_NAME),
      "[App]\nNodeRpcUser = alice\nNodeRpcPass = other\nPortNumber = nope\n",
    );
    const r = await t.call("reload-configuration", undefined, { path: "/debug", auth: basic("alice", "n3w") });
    assert.equal(r.status, 400);
    assert.equal(r.error?.code, -32000);
    assert.equal(r.error?.message, "Configuration error");
    assert.equal(
      r.error?.data,
      `${join(t.home, CONFIG_FILE_NAME)}:4: App.PortNumber: expected an integer from 0 to 65535; nothing changed ` +
        "(values are not echoed here: the node's log at warning level says what is wrong)",
    );
    ok(await t.call("heights", undefined, { auth: basic("alice", "n3w") }));
  });
});
