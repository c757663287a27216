/**
 * The federation end to end (issue 15 "Tests"): a devnet of 3 nats-servers, 3 federated servers, 1 audit
 * server and 1 follower — real processes on loopback, 2-second blocks — and, in order:
 * byte-identical blocks on every node with majority signatures verified from the admin blocks; writes to
 * a follower and to different federated servers (and one message to two nodes, landing once; a forged
 * add-server refused); `kill -9`
 * of a federated server during writes, the audit server promoted in its place, the killed server back and
 * matching; `kill -9` of the stream-leader nats-server during writes; a follower started from an empty
 * directory after the log's beginning was purged (block sets, then the log; a kill -9, another purge and a
 * restart resume from its saved block); convergence with a 2,000 ms delay on one federated server. After every fault: every write a
 * node acknowledged is in a saved block, and every node holds the same blocks.
 * Runtime: ~2 minutes (128 s on a loaded 2-core machine, 06:00).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { jetstream } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { inboxPrefix } from "../../src/cluster/natsPermissions.js";
import { encodeRecord, recordSubject } from "../../src/cluster/records.js";
import { encodeMessage } from "../../src/ledger/messages.js";
import { encodeAddress, keyPairFromPrivate, keyPairFromSeed, rcd1Hash } from "../../src/protocol/address.js";
import { fromHex } from "../../src/protocol/bytes.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX } from "../../src/protocol/genesis.js";
import { networkId } from "../../src/protocol/network.js";
import { buildTransaction, decodeTransaction } from "../../src/protocol/transaction.js";
import { addServerMessage } from "../../tools/cluster/commands.js";
import { LOCAL_STREAM } from "../../tools/devnet/devnet.js";
import type { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";
import { sleep } from "../../tools/devnet/process.js";
import { testSeed } from "../reliability/corpus.js";
import { ClusterWriter } from "../support/clusterWriter.js";
import { natsRequest } from "../support/natsRequest.js";
import {
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
import { waitFor } from "../support/waitFor.js";

/** The LOCAL network's genesis-funded asset key (api-cases conventions). */
const GENESIS_PRIVATE_KEY = "Fs3E9gV6DXsYzf7Fqx1fVBQPQXV695eP3k5XbmHEZVRLkMdD9qCK";

/** Seconds per block: short, so that faults and catch-up show within seconds. */
const BLOCK_SECONDS = 2;
/** Seconds of silence before a federated server is faulted, and per election round. */
const FAULT_TIMEOUT_SECONDS = 6;
const ROUND_TIMEOUT_SECONDS = 4;

/**
 * Purge the log stream's records below its last sequence − `keep` (JetStream API, any server answers), as the
 * devnet's admin NATS user (no node user may purge: docs/cluster.md §2.3).
 */
async function trimLog(
  natsPort: number,
  keep: number,
  admin: { user: string; password: string } | undefined,
): Promise<void> {
  const info = JSON.parse(
    (await natsRequest(natsPort, `$JS.API.STREAM.INFO.${LOCAL_STREAM}`, "", 5000, admin)).text,
  ) as {
    state: { last_seq: number };
  };
  const purged = JSON.parse(
    (
      await natsRequest(
        natsPort,
        `$JS.API.STREAM.PURGE.${LOCAL_STREAM}`,
        JSON.stringify({ seq: info.state.last_seq - keep }),
        5000,
        admin,
      )
    ).text,
  ) as { success?: boolean; purged?: number };
  assert.ok(purged.success === true && (purged.purged ?? 0) > 0, JSON.stringify(purged));
}

/**
 * Runs `during` while entries are written round-robin over `targets()` (a failed write is followed by a
 * short pause); the writes stop when `during` ends, however it ends.
 */
async function whileWriting<T>(
  writer: ClusterWriter,
  chainId: string,
  targets: () => LedgerdNode[],
  during: () => Promise<T>,
): Promise<T> {
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const t = targets();
      if (!(await writer.addEntry(t[i % t.length]!, chainId))) await sleep(100);
    }
  })();
  try {
    return await during();
  } finally {
    stopped = true;
    await loop;
  }
}

describe("federation on a devnet (3 nats, 3 federated, 1 audit, 1 follower)", () => {
  let net: TestDevnet;
  const writer = new ClusterWriter("federation");
  let chainId: string;

  const running = (): LedgerdNode[] => net.devnet.nodes.filter((n) => n.isRunning);
  const node = (name: string): LedgerdNode => net.devnet.node(name);

  /** Lowest saved height over the running nodes. */
  async function savedHeight(): Promise<number> {
    const hs = await Promise.all(running().map(heightsOf));
    return Math.min(...hs.map((h) => h?.directoryblockheight ?? -1));
  }

  /** Every acknowledged commit and reveal is in a saved block of `n`, and every running node holds the same blocks. */
  async function assertNothingAcknowledgedLost(): Promise<void> {
    const h = await savedHeight();
    await waitSavedHeight(running(), h + 2); // writes acknowledged before now are in blocks ≤ h+2
    const to = await savedHeight();
    await assertIdenticalBlocks(running(), 1, to);
    const saved = await savedHashes(running()[0]!, to);
    const lostCommits = [...writer.acknowledged("commit")].filter((x) => !saved.commits.has(x));
    const lostReveals = [...writer.acknowledged("reveal")].filter((x) => !saved.entries.has(x));
    assert.deepEqual(lostCommits, [], `acknowledged commits missing from blocks 1..${to} (${writer.summary()})`);
    assert.deepEqual(lostReveals, [], `acknowledged reveals missing from blocks 1..${to} (${writer.summary()})`);
  }

  before(async () => {
    net = await startTestDevnet({
      federated: 3,
      audit: 1,
      followers: 1,
      nats: 3,
      blockTimeSeconds: BLOCK_SECONDS,
      faultTimeoutSeconds: FAULT_TIMEOUT_SECONDS,
      roundTimeoutSeconds: ROUND_TIMEOUT_SECONDS,
    });
  });
  after(() => net?.cleanup());

  test("every node holds byte-identical blocks, each admin block majority-signed over the previous header", async () => {
    const start = await savedHeight();
    await waitSavedHeight(net.devnet.nodes, start + 3);
    const to = await savedHeight();
    const compared = await assertIdenticalBlocks(net.devnet.nodes, 1, to);
    assert.ok(compared >= to * 4, `compared ${compared} objects over ${to} heights`);
    const sets = await federatedSetsFromChain(node("fed0"), to, LOCAL_BOOTSTRAP_IDENTITY_HEX);
    const keys = serverKeys(net.devnet);
    const allFeds = new Set(net.devnet.nodesWithRole("federated").map((n) => n.identity!));
    assert.deepEqual(sets.get(to), allFeds, `the chain's federated set at ${to} is the devnet's 3 servers`);
    const signedOnce = new Set<string>();
    for (let h = 2; h <= to; h++)
      for (const id of await assertSignatureMajority(node("follower0"), h, sets.get(h)!, keys))
        if (sets.get(h)!.size === 3) signedOnce.add(id);
    // every federated server signs (a late signature may miss one block's minute 0: not every block has 3)
    assert.deepEqual([...signedOnce].sort(), [...allFeds].sort(), "every federated server signed blocks");
  });

  test("writes sent to a follower and to different federated servers all land, a message sent twice lands once", async () => {
    assert.equal(await writer.buyCredits(node("fed1"), 5000), true, writer.records.at(-1)?.error);
    const created = await writer.createChain(node("follower0"), "main");
    assert.ok(created !== undefined, `chain via the follower: ${writer.records.at(-1)?.error}`);
    chainId = created;
    for (const name of ["fed0", "fed1", "fed2", "follower0", "audit0", "fed2", "follower0"])
      assert.equal(await writer.addEntry(node(name), chainId), true, `${name}: ${writer.records.at(-1)?.error}`);

    // the same commit and reveal sent to two nodes at once: each may answer success, the ledger holds it once
    const m = writer.entryMessages(chainId, "sent to two nodes");
    await Promise.all([writer.sendEntry(node("fed0"), m), writer.sendEntry(node("fed2"), m)]);
    const hash = m.hash;
    assert.ok(writer.acknowledged("reveal").has(hash), `at least one node acknowledged it: ${writer.summary()}`);

    await assertNothingAcknowledgedLost();
    const to = await savedHeight();
    const saved = await savedHashes(node("fed1"), to);
    assert.ok(saved.entries.has(hash), "the entry sent to two nodes is in a block");
    // once: the EC blocks of all heights hold its commit exactly once
    let commitCount = 0;
    for (let h = 1; h <= to; h++) {
      const d = await node("fed1").client.call<{ dblock: { dbentries: { chainid: string; keymr: string }[] } }>(
        "dblock-by-height",
        { height: h },
      );
      for (const ref of d.dblock.dbentries.filter((r) => r.chainid.endsWith("000c"))) {
        const ec = await node("fed1").client.call<{ ecblock: { body: { entries: { entryhash?: string }[] } } }>(
          "entrycredit-block",
          { keymr: ref.keymr },
        );
        commitCount += ec.ecblock.body.entries.filter((e) => e.entryhash === hash).length;
      }
    }
    assert.equal(commitCount, 1, "the commit sent to two nodes is in the EC blocks once");

    // an add-server message not signed by the skeleton key is refused with a clear error
    const forged = addServerMessage({
      role: "audit",
      identity: fromHex("11".repeat(32)),
      publicKey: fromHex("22".repeat(32)),
      skeletonSeed: testSeed("not the skeleton"),
      network: networkId("LOCAL"),
      timeMs: Date.now(),
    });
    await assert.rejects(node("follower0").client.call("send-raw-message", { message: forged }), (e: unknown) => {
      assert.match(JSON.stringify(e, Object.getOwnPropertyNames(e)), /skeleton/);
      return true;
    });
  });

  test("a transfer with a forged signature published straight to the log is applied by no node", async () => {
    const victim = keyPairFromPrivate(GENESIS_PRIVATE_KEY);
    const thief = keyPairFromSeed("FA", testSeed("thief"));
    const balance = async (n: LedgerdNode, address: string): Promise<number> =>
      (await n.client.call<{ balance: number }>("asset-balance", { address })).balance;
    const victimAddress = encodeAddress("FA", rcd1Hash(victim.publicKey));
    const thiefAddress = encodeAddress("FA", rcd1Hash(thief.publicKey));
    const honest = buildTransaction({
      milliTimestamp: Date.now(),
      inputs: [{ seed: victim.seed, amount: 89n * 100_000_000n + 200_000n }],
      outputs: [{ address: rcd1Hash(thief.publicKey), amount: 89n * 100_000_000n }],
      ecOutputs: [],
    });
    const forgedRaw = honest.raw.slice();
    forgedRaw.fill(0, forgedRaw.length - 64); // the input's signature: all zero
    const record = encodeRecord({
      kind: "writes",
      messages: [encodeMessage({ kind: "transaction", timeMs: Date.now(), tx: decodeTransaction(forgedRaw) })],
    });
    // published with a federated server's NATS credential: one that may append to the log (a follower's may
    // not: test/integration/cluster-permissions.test.ts); what it appends is still checked by every node
    const cred = net.devnet.natsCredentials("federated");
    assert.ok(cred !== undefined, "the devnet has NATS users");
    const nc = await connect({
      servers: net.devnet.nats.urls,
      user: cred.user,
      pass: cred.password,
      inboxPrefix: inboxPrefix("federated"),
    });
    try {
      await jetstream(nc).publish(`ledger.local.${recordSubject("writes")}`, record);
    } finally {
      await nc.close();
    }
    const before = await Promise.all(running().map((n) => balance(n, victimAddress)));
    const h = await savedHeight();
    await waitSavedHeight(running(), h + 2);
    for (const [i, n] of running().entries()) {
      assert.equal(await balance(n, thiefAddress), 0, `${n.name}: the thief got nothing`);
      assert.ok((await balance(n, victimAddress)) >= before[i]!, `${n.name}: the victim lost nothing`);
      const summary = await n.client.call<{ Summary: string }>("summary", {}, "debug");
      assert.match(summary.Summary, /badsignatures=1\b/, `${n.name}: ${summary.Summary}`);
    }
    await assertIdenticalBlocks(running(), 1, await savedHeight());
  });

  test("kill -9 of a federated server during writes: blocks go on, nothing acknowledged is lost, the audit server is promoted", async () => {
    const fed2 = node("fed2");
    const audit0 = node("audit0");
    const atKill = await whileWriting(
      writer,
      chainId,
      () => [node("fed0"), node("fed1"), fed2, node("follower0")],
      async () => {
        // two blocks of writes before the kill
        await waitSavedHeight(running(), (await savedHeight()) + 2);
        const atKill = await savedHeight();
        await net.devnet.kill9("fed2");
        // blocks keep coming without it
        await waitSavedHeight(running(), atKill + 3);
        // after faulttimeout the audit server replaces it, in every node's view
        await waitFor(
          "the audit server to replace fed2 in every view",
          async () => {
            const views = await Promise.all(
              running().map((n) =>
                n.client.call<{ FederatedServers: { ChainID: string }[] | null }>(
                  "federated-servers",
                  undefined,
                  "debug",
                ),
              ),
            );
            const ok = views.every((v) => {
              const ids = (v.FederatedServers ?? []).map((s) => s.ChainID);
              return ids.includes(audit0.identity!) && !ids.includes(fed2.identity!);
            });
            return ok ? true : undefined;
          },
          (FAULT_TIMEOUT_SECONDS + 4 * ROUND_TIMEOUT_SECONDS) * 1000 + 30_000,
          200,
          async () =>
            `federated-servers on fed0: ${JSON.stringify(await node("fed0").client.call("federated-servers", undefined, "debug"))}`,
        );
        return atKill;
      },
    );
    const failed = writer.records.filter((r) => r.node === "fed2" && !r.acknowledged).length;
    assert.ok(failed > 0, "some writes to the killed server were not acknowledged (the test did hit the crash)");
    await assertNothingAcknowledgedLost();

    // the chain says so: 05 for the audit server, 06 for the faulted one
    const to = await savedHeight();
    const sets = await federatedSetsFromChain(node("fed0"), to, LOCAL_BOOTSTRAP_IDENTITY_HEX);
    assert.ok(sets.get(to)!.has(audit0.identity!) && !sets.get(to)!.has(fed2.identity!), "05/06 in the admin blocks");
    const keys = serverKeys(net.devnet);
    for (let h = atKill; h <= to; h++) await assertSignatureMajority(node("fed0"), h, sets.get(h)!, keys);

    // the killed server restarts, catches up and matches byte for byte
    await net.devnet.restart("fed2");
    await waitSavedHeight([fed2], to);
    await assertIdenticalBlocks(running(), 1, to);
  });

  test("kill -9 of the stream-leader nats-server during writes: nothing acknowledged is lost", async () => {
    const leader = await net.devnet.nats.waitStreamLeader(LOCAL_STREAM);
    const ackedAtNewLeader = await whileWriting(
      writer,
      chainId,
      () => [node("fed0"), node("fed1"), node("follower0")],
      async () => {
        // two blocks of writes before the kill
        await waitSavedHeight(running(), (await savedHeight()) + 2);
        const atKill = await savedHeight();
        await net.devnet.kill9(leader);
        await net.devnet.nats.waitStreamLeader(LOCAL_STREAM, { not: leader });
        const acked = writer.acknowledged("reveal").size;
        await waitSavedHeight(running(), atKill + 3, 90_000);
        return acked;
      },
    );
    assert.ok(
      writer.acknowledged("reveal").size > ackedAtNewLeader,
      "writes were acknowledged after the new leader took over",
    );
    await net.devnet.restart(leader);
    await assertNothingAcknowledgedLost();
  });

  test("a follower from an empty directory, the log's beginning trimmed, catches up from block sets; a restart resumes", async () => {
    // the log is trimmed (its beginning purged, as an operator bounding the stream would): the new follower
    // rebuilds the heights the log no longer holds from the archived block sets (checked against the
    // signature majority), then follows the log from where it begins
    const natsPort = Number(new URL(net.devnet.nats.urls[0]!).port);
    await trimLog(natsPort, 6, net.devnet.natsClient);
    const fresh = await net.devnet.addNode("follower");
    const logOf = () => readFileSync(join(fresh.layout.home, "ledgerd.log"), "utf8");
    const h = (await heightsOf(node("fed0")))!.directoryblockheight;
    await waitSavedHeight([fresh], h, 90_000);
    await assertIdenticalBlocks([node("fed0"), fresh], 1, h);
    assert.match(logOf(), /catching up from block sets[^\n]*height[^0-9]*1\b/);
    // the follower can reach fed0's height while still applying archived sets beyond it: wait for the switch
    await waitFor(
      "the follower's switch to the log",
      async () => (/block sets applied; following the log/.test(logOf()) ? true : undefined),
      60_000,
      200,
      () => `no "block sets applied" line:\n${logOf().slice(-1500)}`,
    );
    assert.match(logOf(), /block sets applied; following the log/);
    assert.equal(
      await writer.addEntry(fresh, chainId),
      true,
      `write via the new follower: ${writer.records.at(-1)?.error}`,
    );
    // kill -9, the network moves on, the log is trimmed past it again: the restart resumes from its last
    // saved block, from the sets, then the log
    const saved = (await heightsOf(fresh))!.directoryblockheight;
    await net.devnet.kill9(fresh.name);
    await whileWriting(
      writer,
      chainId,
      () => [node("fed0"), node("follower0")],
      () => waitSavedHeight([node("fed0")], saved + 2),
    );
    await trimLog(natsPort, 3, net.devnet.natsClient);
    await net.devnet.restart(fresh.name);
    await waitSavedHeight([fresh], saved + 2, 90_000);
    const starts = [...logOf().matchAll(/catching up from block sets[^\n]*?height[^0-9]*(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    assert.equal(starts.at(-1), saved + 1, `the restart went on from its saved block ${saved}: ${starts.join(", ")}`);
    await assertNothingAcknowledgedLost();
  });

  test("with a 2,000 ms delay on one federated server the network still closes blocks and converges", async () => {
    const slow = node("fed1");
    await slow.client.call("set-delay", { Delay: 2000 }, "debug");
    try {
      await whileWriting(
        writer,
        chainId,
        () => [node("fed0"), slow, node("follower0")],
        async () => {
          const h = await savedHeight();
          await waitSavedHeight(running(), h + 4, 120_000);
        },
      );
    } finally {
      await slow.client.call("set-delay", { Delay: 0 }, "debug");
    }
    await assertNothingAcknowledgedLost();
  });
});
