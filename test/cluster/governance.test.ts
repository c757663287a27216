/**
 * Governing a running devnet (issue 33): 3 nats-servers, 3 federated servers, 1 audit server and 1 follower —
 * real processes on loopback, 2-second blocks — under entry writes sent through the follower. With
 * `ledgerd-cluster` against the follower (which forwards to a server): fed1's signing key rotated at H (fed1
 * restarted with the new key in its configuration), fed2 demoted to audit at H+4; a forged demotion and one
 * that would break the majority refused with their reason. Checked: 08 and 06 in the admin block with their
 * DBHeights, every node's `federated-servers`/`audit-servers` after, byte-identical blocks, every admin block
 * majority-signed by the servers federated at its height with the key in force at its height (fed1: the old
 * key before H, the new one from H), and every acknowledged write in a saved block. Then, on the same devnet,
 * an entry-credit rate change (`ledgerd-cluster set-ec-rate` through the follower): predictive-fer before the
 * height, entry-credit-rate and the asset blocks' ExchRate from it on every node, a transaction priced at the
 * old rate refused naming both rates, the refused variants (wrong key, rate 0, past height, replay).
 * Runtime: ~80–120 s on a loaded 2-core machine (77 s measured).
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { RpcError } from "../../src/client/errors.js";
import { toHex } from "../../src/protocol/bytes.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX } from "../../src/protocol/genesis.js";
import { networkId } from "../../src/protocol/network.js";
import { main as clusterTool, newIdentity } from "../../tools/cluster/commands.js";
import { LOCAL_RATE_AUTHORITY_SEED_HEX, setEcRateMessage } from "../../tools/cluster/maintenance.js";
import type { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";
import { sleep } from "../../tools/devnet/process.js";
import { ClusterWriter } from "../support/clusterWriter.js";
import {
  adminEntries,
  assertIdenticalBlocks,
  assertSignatureMajority,
  federatedSetsFromChain,
  heightsOf,
  savedHashes,
  serverKeys,
  startTestDevnet,
  type TestDevnet,
  waitSavedHeight,
} from "../support/testDevnet.js";
import { waitUntil } from "../support/waitFor.js";
import { assetKey, LOCAL_RATE, payment } from "../unit/ledger/harness.js";

const BLOCK_SECONDS = 2;
/** Long enough that fed1's restart (a few seconds) is no fault; the chain never needs a vote here. */
const FAULT_TIMEOUT_SECONDS = 60;
/** Blocks between now and the rotation: time for the operator's commands to land first (2 s blocks). */
const LEAD_BLOCKS = 6;

describe("governance on a devnet (3 nats, 3 federated, 1 audit, 1 follower)", () => {
  let net: TestDevnet;
  const writer = new ClusterWriter("governance");
  const node = (name: string): LedgerdNode => net.devnet.node(name);

  before(async () => {
    net = await startTestDevnet({
      federated: 3,
      audit: 1,
      followers: 1,
      nats: 3,
      blockTimeSeconds: BLOCK_SECONDS,
      faultTimeoutSeconds: FAULT_TIMEOUT_SECONDS,
    });
  });
  after(() => net?.cleanup());

  test("a key rotation and a demotion through the follower under writes: at their heights, nothing lost, identical blocks", async (t) => {
    const follower = node("follower0");
    const fed1 = node("fed1");
    const fed2 = node("fed2");
    const keysBefore = serverKeys(net.devnet);
    const id1 = fed1.layout.key!.identity;
    const id2 = fed2.layout.key!.identity;
    const next = newIdentity(); // only its key pair is used: fed1's new signing key
    assert.equal(await writer.buyCredits(fed1, 5000), true, writer.records.at(-1)?.error);
    const chainId = await writer.createChain(follower, "main");
    assert.ok(chainId !== undefined, `chain via the follower: ${writer.records.at(-1)?.error}`);

    /** the open height before the operator's commands: their entries are in admin blocks from here */
    let first = 0;
    let writing = true;
    const loop = (async () => {
      while (writing) if (!(await writer.addEntry(follower, chainId))) await sleep(100);
    })();
    try {
      first = (await heightsOf(follower))!.directoryblockheight + 1;
      const H = first + LEAD_BLOCKS;
      const url = follower.url;
      // refused: a demotion signed by another key than the skeleton key; one that leaves 1 of 3 federated
      assert.equal(
        await clusterTool([
          "demote",
          "--url",
          url,
          "--identity",
          id2,
          "--height",
          `${H}`,
          "--skeleton-key",
          fed1.layout.key!.privkey,
        ]),
        1,
      );
      const rotate = ["rotate-key", "--url", url, "--identity", id1, "--key", fed1.layout.key!.privkey];
      assert.equal(await clusterTool([...rotate, "--new-pubkey", next.pubkey, "--height", `${H}`]), 0);
      assert.equal(await clusterTool(["demote", "--url", url, "--identity", id2, "--height", `${H + 4}`]), 0);
      assert.equal(await clusterTool(["demote", "--url", url, "--identity", id1, "--height", `${H + 4}`]), 1);
      // a replayed rotation is skipped (one rotation at a time), and says so
      assert.equal(await clusterTool([...rotate, "--new-pubkey", next.pubkey, "--height", `${H + 1}`]), 1);
      const landed = (await heightsOf(follower))!.directoryblockheight + 1;
      assert.ok(landed < H, `the records landed at ${landed} (open), before H = ${H}`);

      // fed1 takes its new key: restarted with it once its last block with the old key (H−1) is being made
      await waitSavedHeight([follower], H - 2, 120_000);
      const conf = join(fed1.layout.home, "ledgerd.conf");
      writeFileSync(
        conf,
        readFileSync(conf, "utf8")
          .replace(/^LocalServerPrivKey = .*$/m, `LocalServerPrivKey = ${next.privkey}`)
          .replace(/^LocalServerPublicKey = .*$/m, `LocalServerPublicKey = ${next.pubkey}`),
      );
      await net.devnet.restart("fed1");
      await waitSavedHeight(net.devnet.nodes, H + 6, 180_000);
    } finally {
      writing = false;
      await loop;
    }

    const top = Math.min(...(await Promise.all(net.devnet.nodes.map(heightsOf))).map((h) => h!.directoryblockheight));
    await waitSavedHeight(net.devnet.nodes, top + 2);
    const to = top + 2;
    await assertIdenticalBlocks(net.devnet.nodes, 1, to);
    // the admin entries, as the reference encodes them, with their activation heights
    const scheduled: string[] = [];
    for (let h = first; h <= to; h++)
      for (const e of await adminEntries(follower, h))
        if ((e.adminidtype === 6 || e.adminidtype === 8) && (e.identitychainid === id1 || e.identitychainid === id2))
          scheduled.push(`${e.adminidtype}/${e.identitychainid === id1 ? "fed1" : "fed2"}/${e.dbheight}`);
    const rotatedAt = Number(scheduled.find((s) => s.startsWith("8/fed1/"))?.split("/")[2]);
    // (one block may hold both: its 05/06/07 come before its signatures, its 08 after them)
    assert.deepEqual(scheduled.sort(), [`6/fed2/${rotatedAt + 4}`, `8/fed1/${rotatedAt}`]);
    // every block majority-signed by the servers federated at its height, each with the key in force there
    const sets = await federatedSetsFromChain(follower, to, LOCAL_BOOTSTRAP_IDENTITY_HEX);
    const keysAfter = new Map(keysBefore).set(id1, next.pubkey);
    const fed1Signed = { before: 0, after: 0 };
    for (let h = 2; h <= to; h++) {
      const signers = await assertSignatureMajority(follower, h, sets.get(h)!, h < rotatedAt ? keysBefore : keysAfter);
      if (signers.includes(id1)) fed1Signed[h < rotatedAt ? "before" : "after"]++;
      if (h >= rotatedAt + 4) assert.ok(!signers.includes(id2), `fed2, audit from ${rotatedAt + 4}, signed ${h}`);
    }
    assert.ok(
      fed1Signed.before > 0 && fed1Signed.after > 0,
      `fed1 signed with both keys: ${JSON.stringify(fed1Signed)}`,
    );
    for (const n of net.devnet.nodes) {
      const fed = await n.client.call<{ FederatedServers: { ChainID: string }[] }>("federated-servers", {}, "debug");
      const audit = await n.client.call<{ AuditServers: { ChainID: string }[] }>("audit-servers", {}, "debug");
      const ids = (l: { ChainID: string }[]) => l.map((x) => x.ChainID).sort();
      assert.deepEqual(ids(fed.FederatedServers), [LOCAL_BOOTSTRAP_IDENTITY_HEX, id1].sort(), `${n.name}: federated`);
      assert.ok(ids(audit.AuditServers).includes(id2), `${n.name}: fed2 is audit`);
    }
    const saved = await savedHashes(follower, to);
    const lost = [...writer.acknowledged("reveal")].filter((x) => !saved.entries.has(x));
    assert.deepEqual(lost, [], `acknowledged reveals missing (${writer.summary()})`);
    assert.deepEqual(
      [...writer.acknowledged("commit")].filter((x) => !saved.commits.has(x)),
      [],
      "acknowledged commits missing",
    );
    assert.ok(writer.acknowledged("reveal").size >= 20, `writes went on: ${writer.summary()}`);
    // figures for the report (not asserted: they measure the machine): the longest wait between two acknowledged writes
    const acks = writer.records.filter((r) => r.atMs !== undefined).map((r) => r.atMs!);
    let gapMs = 0;
    for (let i = 1; i < acks.length; i++) gapMs = Math.max(gapMs, acks[i]! - acks[i - 1]!);
    t.diagnostic(
      `rotation at ${rotatedAt}, demotion at ${rotatedAt + 4}, compared 1..${to}; fed1 signed ${fed1Signed.before} blocks with the old key, ${fed1Signed.after} with the new; ${writer.summary()}; longest gap between acknowledged writes ${gapMs} ms`,
    );
  });
  test("an entry-credit rate change through the follower: announced, in force at its height on every node, old prices refused", async (t) => {
    const follower = node("follower0");
    const nodes = net.devnet.nodes;
    const rates = async () =>
      Promise.all(
        nodes.map(async (n) => ({
          rate: Number((await n.client.call<{ rate: number }>("entry-credit-rate", {})).rate),
          fer: Number((await n.client.call<{ PredictiveFER: number }>("predictive-fer", {}, "debug")).PredictiveFER),
        })),
      );
    const NEW_RATE = 2 * Number(LOCAL_RATE);
    const shown: string[] = [`before: ${JSON.stringify((await rates())[0])}`];
    // writes through the follower all along the change (the credits bought before it)
    const chainId = await writer.createChain(follower, "rate");
    assert.ok(chainId !== undefined, `chain via the follower: ${writer.records.at(-1)?.error}`);
    const acknowledgedBefore = writer.acknowledged("reveal").size;
    let writing = true;
    const loop = (async () => {
      while (writing) if (!(await writer.addEntry(follower, chainId))) await sleep(100);
    })();
    // (a failed assertion below must not leave the writer running)
    t.after(async () => {
      writing = false;
      await loop;
    });
    const H = (await heightsOf(follower))!.directoryblockheight + 1 + LEAD_BLOCKS;
    const url = follower.url;
    const tool = (extra: string[]) => clusterTool(["set-ec-rate", "--url", url, ...extra]);
    // refused: another key than the rate authority's; a past height
    assert.equal(
      await tool(["--rate", `${NEW_RATE}`, "--height", `${H}`, "--rate-key", node("fed0").layout.key!.privkey]),
      1,
    );
    assert.equal(await tool(["--rate", `${NEW_RATE}`, "--height", "2"]), 1);
    // a rate of 0 (the tool refuses it; sent raw, the node does, naming it)
    const zero = setEcRateMessage({
      rate: 0n,
      activationHeight: H,
      seed: Buffer.from(LOCAL_RATE_AUTHORITY_SEED_HEX, "hex"),
      network: networkId("LOCAL"),
    });
    await assert.rejects(follower.client.call("send-raw-message", { message: zero.message }), (e: unknown) => {
      assert.ok(e instanceof RpcError, String(e));
      assert.match(String(e.data), /a rate of 0/);
      return true;
    });
    assert.equal(await tool(["--rate", `${NEW_RATE}`, "--height", `${H}`]), 0);
    // the same record again: a replay
    assert.equal(await tool(["--rate", `${NEW_RATE}`, "--height", `${H}`]), 1);
    await waitUntil(
      "every node announces the new rate",
      async () => (await rates()).every((r) => r.fer === NEW_RATE && r.rate === Number(LOCAL_RATE)),
      60_000,
      200,
    );
    shown.push(`announced for ${H}: ${JSON.stringify((await rates())[0])}`);
    await waitSavedHeight(nodes, H + 1, 120_000);
    const after = await rates();
    assert.deepEqual(new Set(after.map((r) => `${r.rate}/${r.fer}`)), new Set([`${NEW_RATE}/${NEW_RATE}`]));
    shown.push(`from ${H}: ${JSON.stringify(after[0])}`);
    for (const n of nodes) {
      const ex = async (h: number) =>
        Number(
          (await n.client.call<{ fblock: { exchrate: number } }>("fblock-by-height", { height: h, noraw: true })).fblock
            .exchrate,
        );
      assert.deepEqual(
        [await ex(H - 1), await ex(H), await ex(H + 1)],
        [Number(LOCAL_RATE), NEW_RATE, NEW_RATE],
        `${n.name}: ExchRate`,
      );
    }
    // a transfer priced at the old rate (the exact minimum fee at 1000): refused, naming both rates
    const old = payment({ milliTime: Date.now(), outputs: [{ to: assetKey(41), amount: 100_000n }] });
    await assert.rejects(follower.client.call("asset-submit", { transaction: toHex(old.raw) }), (e: unknown) => {
      assert.ok(e instanceof RpcError, String(e));
      assert.match(
        String(e.data),
        new RegExp(`previous entry-credit rate of ${LOCAL_RATE} .*the rate in force is ${NEW_RATE}`),
      );
      shown.push(`old price refused: ${String(e.data)}`);
      return true;
    });
    writing = false;
    await loop;
    // (the last acknowledged writes may be in the open block: two more blocks hold them)
    const top = Math.min(...(await Promise.all(nodes.map(heightsOf))).map((h) => h!.directoryblockheight)) + 2;
    await waitSavedHeight(nodes, top);
    await assertIdenticalBlocks(nodes, H - 2, top);
    const saved = await savedHashes(follower, top);
    assert.deepEqual(
      [...writer.acknowledged("reveal")].filter((x) => !saved.entries.has(x)),
      [],
      `acknowledged reveals missing (${writer.summary()})`,
    );
    assert.ok(writer.acknowledged("reveal").size - acknowledgedBefore >= 20, `writes went on: ${writer.summary()}`);
    shown.push(
      `${writer.acknowledged("reveal").size - acknowledgedBefore} entries written during the change, none lost`,
    );
    t.diagnostic(shown.join(" | "));
  });
});
