/**
 * A federation of real processes on loopback, the scenarios test/cluster/federation.test.ts (the devnet of
 * 3 nats, 3 federated, 1 audit, 1 follower: identical signed blocks, writes anywhere, kill -9 of a federated
 * server and of the stream-leader nats-server, promotion, a follower from a trimmed log) does not cover:
 * * network testing on 3 federated servers over 1 nats-server: a 2,000 ms delay on one, drop-rate 1000 on
 *   one (a fault), and a write while NATS is away (ack NotConfirmed, then TransactionACK);
 * * a node that saved another network's blocks (same genesis) finds itself forked, keeps its data directory
 *   aside and rebuilds the network's blocks byte for byte.
 * Runtime ≈ 60 s.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, describe, it } from "node:test";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { decodeAdminBlock } from "../../src/protocol/ablock.js";
import { keyPairFromPrivate } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_SEED_HEX } from "../../src/protocol/genesis.js";
import { networkId } from "../../src/protocol/network.js";
import { buildTransaction, transactionFeeEC, transactionId } from "../../src/protocol/transaction.js";
import { addServerMessage, newIdentity } from "../../tools/cluster/commands.js";
import { GENESIS_PRIVATE_KEY, testSeed } from "../reliability/corpus.js";
import { startNatsCluster, stopAllNats } from "../support/natsServer.js";
import { killAllNodes, LedgerdProcess } from "../support/nodeProcess.js";
import { waitFor as waitForValue } from "../support/waitFor.js";

const BLOCK_SECONDS = 2;

/** The tests' waitFor (test/support/waitFor.ts) with a probe's error read as "not yet" (a node still starting). */
function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  return waitForValue(what, () => probe().catch(() => undefined), timeoutMs, 200);
}

interface ClusterView {
  Federated: string[];
  Audit: string[];
  Synced: boolean;
  Height: number;
}

async function clusterInfo(p: LedgerdProcess): Promise<ClusterView> {
  return ((await p.rpc("network-info", {}, "debug")) as { Cluster: ClusterView }).Cluster;
}

async function savedHeight(p: LedgerdProcess): Promise<number> {
  return ((await p.rpc("heights")) as { directoryblockheight: number }).directoryblockheight;
}

describe("cluster: network testing and a forked node", () => {
  after(async () => {
    await killAllNodes();
    await stopAllNats();
  });

  it("network testing: with delay 2,000 ms on one federated server blocks still close and agree; drop-rate 1000 on one is a fault", async () => {
    const nats = await startNatsCluster(1);
    const natsFlag = `-nats=${nats.urls.join(",")}`;
    const flags = [
      natsFlag,
      "-role=federated",
      "-clusterreplicas=1",
      "-debugapi=readwrite",
      "-faulttimeout=3",
      "-roundtimeout=3",
    ];
    const ids = [newIdentity(), newIdentity()];
    const procs = [
      await LedgerdProcess.start({
        blockTimeSeconds: BLOCK_SECONDS,
        extraArgs: flags,
        appConfig: [`IdentityChainID = ${LOCAL_BOOTSTRAP_IDENTITY_HEX}`],
      }),
    ];
    for (const id of ids)
      procs.push(
        await LedgerdProcess.start({
          blockTimeSeconds: BLOCK_SECONDS,
          extraArgs: flags,
          appConfig: [
            `IdentityChainID = ${id.identity}`,
            `LocalServerPrivKey = ${id.privkey}`,
            `LocalServerPublicKey = ${id.pubkey}`,
          ],
        }),
      );
    for (const id of ids)
      await procs[0]!.rpc("send-raw-message", {
        message: addServerMessage({
          role: "federated",
          identity: fromHex(id.identity),
          publicKey: fromHex(id.pubkey),
          skeletonSeed: fromHex(LOCAL_BOOTSTRAP_SEED_HEX),
          network: networkId("LOCAL"),
          timeMs: Date.now(),
        }),
      });
    await waitFor("three federated servers", 60_000, async () =>
      (await Promise.all(procs.map(clusterInfo))).every((i) => i.Federated.length === 3) ? true : undefined,
    );

    await procs[2]!.rpc("set-delay", { Delay: 2000 }, "debug");
    const before = await savedHeight(procs[0]!);
    await waitFor("blocks with one server delayed", 60_000, async () =>
      (await savedHeight(procs[2]!)) >= before + 4 ? true : undefined,
    );
    // the delayed node lags, and its leaderheight (read from the stream) shows the network ahead of it
    await waitFor("the delayed node's leaderheight ahead of its saved height", 30_000, async () => {
      const h = (await procs[2]!.rpc("heights")) as { directoryblockheight: number; leaderheight: number };
      return h.leaderheight > h.directoryblockheight + 1 ? true : undefined;
    });
    const delayedAt = await savedHeight(procs[2]!);
    await procs[2]!.rpc("set-delay", { Delay: 0 }, "debug");

    // drop every proposal of fed1: it never signs; the others close blocks with 2 signatures and see it offline
    await procs[1]!.rpc("set-drop-rate", { DropRate: 1000 }, "debug");
    const dropFrom = await savedHeight(procs[0]!);
    await waitFor("fed1 seen offline", 30_000, async () => {
      const r = (await procs[0]!.rpc("federated-servers", {}, "debug")) as {
        FederatedServers: { ChainID: string; Online: boolean }[];
      };
      return r.FederatedServers.some((x) => x.ChainID === ids[0]!.identity && !x.Online) ? true : undefined;
    });
    await waitFor("blocks without fed1", 30_000, async () =>
      (await savedHeight(procs[0]!)) >= dropFrom + 3 ? true : undefined,
    );
    const top = Math.min(...(await Promise.all(procs.map(savedHeight))));
    let withoutFed1 = 0;
    for (let h = 0; h <= top; h++) {
      const a = await Promise.all(
        procs.map((p) => p.rpc("ablock-by-height", { height: h }) as Promise<{ rawdata: string }>),
      );
      const d = await Promise.all(
        procs.map((p) => p.rpc("dblock-by-height", { height: h }) as Promise<{ rawdata: string }>),
      );
      assert.equal(new Set(a.map((x) => x.rawdata)).size, 1, `admin block ${h} differs`);
      assert.equal(new Set(d.map((x) => x.rawdata)).size, 1, `directory block ${h} differs`);
      if (h > dropFrom + 1) {
        const signers = decodeAdminBlock(fromHex(a[0]!.rawdata))
          .entries.filter((e) => e.type === 0x01)
          .map((e) => toHex((e as { identityAdminChainId: Uint8Array }).identityAdminChainId));
        assert.ok(signers.length >= 2, `admin block ${h}: ${signers.length} signatures`);
        if (!signers.includes(ids[0]!.identity)) withoutFed1++;
      }
    }
    assert.ok(delayedAt > before, "the delayed server saved blocks");
    assert.ok(withoutFed1 >= 1, "no block closed without the dropping server's signature");

    // no NATS: a write is accepted here and waits for the log — ack says NotConfirmed — and is answered once
    // NATS is back and the write applied (TransactionACK)
    await procs[1]!.rpc("set-drop-rate", { DropRate: 0 }, "debug");
    const genesis = keyPairFromPrivate(GENESIS_PRIVATE_KEY);
    const rate = BigInt(((await procs[0]!.rpc("entry-credit-rate")) as { rate: number }).rate);
    const ecOut = { address: publicKeyFromSeed(testSeed("not confirmed ec")), amount: 10n * rate };
    const build = (fee: bigint) =>
      buildTransaction({
        milliTimestamp: Date.now(),
        inputs: [{ seed: genesis.seed, amount: ecOut.amount + fee }],
        outputs: [],
        ecOutputs: [ecOut],
      });
    const tx = build(BigInt(transactionFeeEC(build(0n))) * rate);
    await nats.servers[0]!.kill9();
    const answer = procs[2]!.rpc("asset-submit", { transaction: toHex(tx.raw) }, "v2", 60_000);
    const txid = toHex(transactionId(tx));
    await waitFor("ack NotConfirmed while the log is away", 10_000, async () => {
      const a = (await procs[2]!.rpc("ack", { hash: txid, chainid: "f" })) as { status: string };
      return a.status === "NotConfirmed" ? true : undefined;
    });
    await nats.servers[0]!.restart();
    await answer;
    const after = (await procs[2]!.rpc("ack", { hash: txid, chainid: "f" })) as { status: string };
    assert.ok(["TransactionACK", "DBlockConfirmed"].includes(after.status), after.status);
    await nats.stop();
  });
  it("a forked node keeps its data aside and resyncs from the log", async () => {
    // Two networks of the same genesis (LOCAL) on two NATS: a follower that saved blocks of network A is
    // started against network B. Its next height's signatures (B's server over B's block) do not verify over
    // its own block: it has forked. It says so, keeps its data directory aside and rebuilds from B's log.
    const fed = (natsUrl: string) =>
      LedgerdProcess.start({
        blockTimeSeconds: BLOCK_SECONDS,
        extraArgs: [`-nats=${natsUrl}`, "-role=federated", "-clusterreplicas=1"],
        appConfig: [`IdentityChainID = ${LOCAL_BOOTSTRAP_IDENTITY_HEX}`],
      });
    const natsA = await startNatsCluster(1);
    const fedA = await fed(natsA.urls[0]!);
    const follower = await LedgerdProcess.start({
      blockTimeSeconds: BLOCK_SECONDS,
      extraArgs: [`-nats=${natsA.urls[0]!}`, "-role=follower"],
    });
    await waitFor("the follower at height 3", 30_000, async () =>
      (await savedHeight(follower)) >= 3 ? true : undefined,
    );
    await follower.stop();
    const forkedHeight = await savedHeight(fedA).catch(() => 0);
    await fedA.stop();
    await natsA.stop();

    const natsB = await startNatsCluster(1);
    const fedB = await fed(natsB.urls[0]!);
    // B's log gets ahead in sequences (records of other kinds), so that the follower, resuming at its saved
    // sequence, still meets the signatures of its next height
    for (let i = 0; i < 25; i++) {
      const id = newIdentity();
      await fedB.rpc("send-raw-message", {
        message: addServerMessage({
          role: "audit",
          identity: fromHex(id.identity),
          publicKey: fromHex(id.pubkey),
          skeletonSeed: fromHex(LOCAL_BOOTSTRAP_SEED_HEX),
          network: networkId("LOCAL"),
          timeMs: Date.now(),
        }),
      });
    }
    await waitFor("network B past the follower's height", 60_000, async () =>
      (await savedHeight(fedB)) >= forkedHeight + 3 ? true : undefined,
    );
    const moved = await LedgerdProcess.start({
      homeDir: follower.homeDir,
      blockTimeSeconds: BLOCK_SECONDS,
      extraArgs: [`-nats=${natsB.urls[0]!}`, "-role=follower"],
    });
    await waitFor("the forked follower resynced", 60_000, async () => {
      const i = (await moved.rpc("network-info", {}, "debug")) as { Cluster: { Synced: boolean; Forked: boolean } };
      return /resyncing/.test(moved.log) && i.Cluster.Synced && !i.Cluster.Forked ? true : undefined;
    });
    assert.match(moved.log, /this node has forked and stops writing/);
    const kept = /forked at height (\d+); resyncing \(the fork's data is in ([^)]+)\)/.exec(moved.log);
    assert.ok(kept, moved.tail());
    assert.ok(existsSync(kept[2]!), `the fork's data directory ${kept[2]} is kept`);
    const top = Math.min(await savedHeight(moved), await savedHeight(fedB));
    assert.ok(top > Number(kept[1]), `resynced only to ${top}`);
    for (let h = 0; h <= top; h++) {
      const [a, b] = await Promise.all(
        [moved, fedB].map((p) => p.rpc("dblock-by-height", { height: h }) as Promise<{ rawdata: string }>),
      );
      assert.equal(a!.rawdata, b!.rawdata, `directory block ${h} differs after the resync`);
    }
    await moved.stop();
    await fedB.stop();
    follower.cleanup();
    await natsB.stop();
  });
});
