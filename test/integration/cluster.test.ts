/**
 * A federation of real processes on loopback: 3 nats-servers (one JetStream cluster, the log stream R3),
 * 3 federated ledgerd (the LOCAL bootstrap server, then two servers added by skeleton-signed add-server
 * messages) and 1 follower, 2-s blocks. Writes go to different nodes (the follower included); one
 * federated server is killed with SIGKILL during writes and restarted. Checked:
 * * every node's directory and admin blocks are byte-identical at every height;
 * * once the three are federated, every admin block carries ≥ 2 type-01 signatures over the previous
 *   directory block's header, each verifying with that server's key, in factomd's minute-0 VM order;
 * * every acknowledged write is in a saved block on every node (none lost, none twice);
 * * the restarted server catches up and matches byte for byte;
 * * with the log's beginning purged, a follower from an empty directory catches up from the archived block
 *   sets and then the log, and after a kill -9 and another purge resumes from its last saved block;
 * * a node that saved another network's blocks (same genesis) finds itself forked, keeps its data directory
 *   aside and rebuilds the network's blocks byte for byte.
 * Runtime ≈ 100–120 s (three scenarios).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, describe, it } from "node:test";
import { checkBlockSignatures, minuteZeroVmIndex } from "../../src/cluster/dbSig.js";
import { JetStreamLog } from "../../src/cluster/jetStreamLog.js";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { decodeAdminBlock } from "../../src/protocol/ablock.js";
import { keyPairFromPrivate } from "../../src/protocol/address.js";
import { compareBytes, fromHex, toHex } from "../../src/protocol/bytes.js";
import { buildChainCommit, buildEntryCommit } from "../../src/protocol/commit.js";
import { decodeDirectoryBlock } from "../../src/protocol/dblock.js";
import { chainIdFromExtIds, entryHash, marshalEntry } from "../../src/protocol/entry.js";
import {
  LOCAL_BOOTSTRAP_IDENTITY_HEX,
  LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX,
  LOCAL_BOOTSTRAP_SEED_HEX,
} from "../../src/protocol/genesis.js";
import { networkId } from "../../src/protocol/network.js";
import { buildTransaction, transactionFeeEC, transactionId } from "../../src/protocol/transaction.js";
import { addServerMessage, newIdentity } from "../../tools/cluster/commands.js";
import { GENESIS_PRIVATE_KEY, testSeed } from "../reliability/corpus.js";
import { natsRequest } from "../support/natsRequest.js";
import { startNatsCluster, stopAllNats } from "../support/natsServer.js";
import { httpRequest, killAllNodes, LedgerdProcess, RpcCallError, sleep } from "../support/nodeProcess.js";

const BLOCK_SECONDS = 2;
/** -faulttimeout and -roundtimeout of the servers, seconds */
const FAULT_SECONDS = 4;

interface Member {
  name: string;
  proc: LedgerdProcess;
  identity?: string;
  pubkey?: string;
}

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
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

/** Purge the log stream's records below its last sequence − `keep` (JetStream API, any server answers). */
async function trimLog(natsPort: number, keep: number): Promise<void> {
  const info = JSON.parse((await natsRequest(natsPort, "$JS.API.STREAM.INFO.LEDGER_LOCAL", "")).text) as {
    state: { last_seq: number };
  };
  const below = info.state.last_seq - keep;
  const purged = JSON.parse(
    (await natsRequest(natsPort, "$JS.API.STREAM.PURGE.LEDGER_LOCAL", JSON.stringify({ seq: below }))).text,
  ) as { success?: boolean; purged?: number };
  assert.ok(purged.success === true && (purged.purged ?? 0) > 0, JSON.stringify(purged));
}

async function savedHeight(p: LedgerdProcess): Promise<number> {
  return ((await p.rpc("heights")) as { directoryblockheight: number }).directoryblockheight;
}

describe("cluster: 3 federated servers + 1 follower on a 3-node NATS cluster", () => {
  after(async () => {
    await killAllNodes();
    stopAllNats();
  });

  it("one order, byte-identical signed blocks, writes at any node, kill -9 of a federated server", async () => {
    const nats = await startNatsCluster(3);
    const natsFlag = `-nats=${nats.urls.join(",")}`;
    const common = { blockTimeSeconds: BLOCK_SECONDS };
    const ids = [newIdentity(), newIdentity()];
    const timeouts = [`-faulttimeout=${FAULT_SECONDS}`, `-roundtimeout=${FAULT_SECONDS}`];
    const fed0 = await LedgerdProcess.start({
      ...common,
      extraArgs: [natsFlag, "-role=federated", "-clusterreplicas=3", ...timeouts],
      appConfig: [`IdentityChainID = ${LOCAL_BOOTSTRAP_IDENTITY_HEX}`],
    });
    const members: Member[] = [
      { name: "fed0", proc: fed0, identity: LOCAL_BOOTSTRAP_IDENTITY_HEX, pubkey: LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX },
    ];
    for (const [i, id] of ids.entries()) {
      const proc = await LedgerdProcess.start({
        ...common,
        extraArgs: [natsFlag, "-role=federated", ...timeouts],
        appConfig: [
          `IdentityChainID = ${id.identity}`,
          `LocalServerPrivKey = ${id.privkey}`,
          `LocalServerPublicKey = ${id.pubkey}`,
        ],
      });
      members.push({ name: `fed${i + 1}`, proc, identity: id.identity, pubkey: id.pubkey });
    }
    const follower = await LedgerdProcess.start({ ...common, extraArgs: [natsFlag, "-role=follower"] });
    members.push({ name: "follower", proc: follower });
    const auditId = newIdentity();
    const audit = await LedgerdProcess.start({
      ...common,
      extraArgs: [natsFlag, "-role=audit", ...timeouts],
      appConfig: [
        `IdentityChainID = ${auditId.identity}`,
        `LocalServerPrivKey = ${auditId.privkey}`,
        `LocalServerPublicKey = ${auditId.pubkey}`,
      ],
    });
    members.push({ name: "audit", proc: audit, identity: auditId.identity, pubkey: auditId.pubkey });
    const procs = members.map((m) => m.proc);

    // the two new servers become federated through skeleton-signed add-server messages (sent to different nodes)
    for (const [i, id] of [...ids, auditId].entries()) {
      const message = addServerMessage({
        role: i < 2 ? "federated" : "audit",
        identity: fromHex(id.identity),
        publicKey: fromHex(id.pubkey),
        skeletonSeed: fromHex(LOCAL_BOOTSTRAP_SEED_HEX),
        network: networkId("LOCAL"),
        timeMs: Date.now(),
      });
      await procs[i === 0 ? 3 : 1]!.rpc("send-raw-message", { message });
    }
    // a forged one (not the skeleton key) is refused with a clear error
    const forged = addServerMessage({
      role: "audit",
      identity: fromHex("11".repeat(32)),
      publicKey: fromHex("22".repeat(32)),
      skeletonSeed: testSeed("not the skeleton"),
      network: networkId("LOCAL"),
      timeMs: Date.now(),
    });
    await assert.rejects(procs[0]!.rpc("send-raw-message", { message: forged }), (e: unknown) => {
      assert.ok(e instanceof RpcCallError);
      assert.match(JSON.stringify(e.data), /skeleton/);
      return true;
    });

    const federatedFrom = await waitFor("three federated servers on every node", 60_000, async () => {
      const infos = await Promise.all(procs.map(clusterInfo));
      return infos.every((i) => i.Federated.length === 3 && i.Synced)
        ? Math.max(...infos.map((i) => i.Height))
        : undefined;
    });

    // writes at different nodes: buy entry credits at the follower, a chain at fed1, entries at fed2 and fed0
    const genesis = keyPairFromPrivate(GENESIS_PRIVATE_KEY);
    const ecSeed = testSeed("cluster ec");
    const rate = BigInt(((await follower.rpc("entry-credit-rate")) as { rate: number }).rate);
    const ecPublic = publicKeyFromSeed(ecSeed);
    const buy = 5_000n * rate;
    let tx = buildTransaction({
      milliTimestamp: Date.now(),
      inputs: [{ seed: genesis.seed, amount: buy }],
      outputs: [],
      ecOutputs: [{ address: ecPublic, amount: buy }],
    });
    const fee = BigInt(transactionFeeEC(tx)) * rate;
    tx = buildTransaction({
      milliTimestamp: Date.now(),
      inputs: [{ seed: genesis.seed, amount: buy + fee }],
      outputs: [],
      ecOutputs: [{ address: ecPublic, amount: buy }],
    });
    await follower.rpc("asset-submit", { transaction: toHex(tx.raw) });

    const acknowledged: string[] = [];
    const chainExt = [new TextEncoder().encode("cluster"), new TextEncoder().encode(String(Date.now()))];
    const chainId = chainIdFromExtIds(chainExt);
    const first = marshalEntry({ version: 0, chainId, extIds: chainExt, content: new TextEncoder().encode("first") });
    // the open block's purchase counts at once: the chain goes to another node right away
    await procs[1]!.rpc("commit-chain", {
      message: toHex(buildChainCommit({ entryRaw: first, milliTime: Date.now(), ecSeed }).raw),
    });
    await procs[1]!.rpc("reveal-chain", { entry: toHex(first) });
    acknowledged.push(toHex(entryHash(first)));
    // the chain must exist (saved) before entries go into it on every node
    await waitFor("the chain saved", 30_000, async () => {
      const r = (await procs[2]!.rpc("chain-head", { chainid: toHex(chainId) })) as { chainhead: string };
      return r.chainhead !== "" ? true : undefined;
    });

    let n = 0;
    const writeEntry = async (at: LedgerdProcess): Promise<void> => {
      const raw = marshalEntry({
        version: 0,
        chainId,
        extIds: [new TextEncoder().encode(`e${n++}`)],
        content: new TextEncoder().encode(`entry ${n} at ${at.port}`),
      });
      await at.rpc("commit-entry", {
        message: toHex(buildEntryCommit({ entryRaw: raw, milliTime: Date.now() + n, ecSeed }).raw),
      });
      await at.rpc("reveal-entry", { entry: toHex(raw) });
      acknowledged.push(toHex(entryHash(raw)));
    };
    for (let i = 0; i < 12; i++) await writeEntry(procs[i % procs.length]!);

    // kill -9 a federated server during writes; the others keep closing blocks with 2 of 3 signatures
    const victim = members[2]!;
    const heightAtKill = await savedHeight(procs[0]!);
    await victim.proc.kill9();
    const alive = procs.filter((p) => p !== victim.proc);
    for (let i = 0; i < 12; i++) await writeEntry(alive[i % alive.length]!);
    await waitFor("blocks after the kill", 30_000, async () =>
      (await savedHeight(alive[0]!)) >= heightAtKill + 3 ? true : undefined,
    );
    // silent for the fault timeout: the survivors vote it out and the audit server takes its place
    await waitFor("the audit server promoted on every live node", 60_000, async () => {
      const infos = await Promise.all(alive.map(clusterInfo));
      return infos.every(
        (i) =>
          i.Federated.includes(auditId.identity) &&
          !i.Federated.includes(victim.identity!) &&
          i.Audit.includes(victim.identity!),
      )
        ? true
        : undefined;
    });
    const servers = (await alive[0]!.rpc("federated-servers", {}, "debug")) as {
      FederatedServers: { ChainID: string }[];
    };
    assert.ok(servers.FederatedServers.some((s) => s.ChainID === auditId.identity));
    await victim.proc.restart();
    for (let i = 0; i < 6; i++) await writeEntry(procs[i % procs.length]!);

    // kill -9 of the nats-server leading the stream during writes: writes wait (≤ ~10 s), none is lost
    const probe = await JetStreamLog.open(
      { servers: nats.urls, stream: "LEDGER_LOCAL", subjectPrefix: "ledger.local", replicas: 3 },
      { log: { info: () => {}, warn: () => {} } },
    );
    const leaderName = await probe.streamLeader();
    await probe.close();
    const leader = nats.servers.find((s) => s.name === leaderName);
    assert.ok(leader, `stream leader ${JSON.stringify(leaderName)} is none of the servers`);
    const pending = [0, 1, 2, 3].map((i) => writeEntry(procs[i % procs.length]!));
    await leader.kill9();
    await Promise.all(pending);
    for (let i = 0; i < 4; i++) await writeEntry(procs[i % procs.length]!);
    await leader.restart();

    // the log is trimmed (its beginning purged, as an operator bounding the stream would): a follower from an
    // empty data directory rebuilds the heights the log no longer holds from the archived block sets, checked
    // against the signature majority, then follows the log from where it begins
    const natsPort = Number(new URL(nats.urls[0]!).port);
    await trimLog(natsPort, 6);
    const late = await LedgerdProcess.start({ ...common, extraArgs: [natsFlag, "-role=follower"] });
    procs.push(late);
    await waitFor("the late follower synced", 60_000, async () =>
      (await clusterInfo(late)).Synced ? true : undefined,
    );
    assert.match(late.log, /catching up from block sets[^\n]*height[^0-9]*1\b/);
    assert.match(late.log, /block sets applied; following the log/);
    // a restart resumes from its last saved block: killed, the log trimmed past it again, it starts from there
    const lateSaved = await savedHeight(late);
    await late.kill9();
    for (let i = 0; i < 3; i++) await writeEntry(procs[i]!);
    await waitFor("two more blocks", 30_000, async () =>
      (await savedHeight(procs[0]!)) >= lateSaved + 2 ? true : undefined,
    );
    await trimLog(natsPort, 3);
    await late.restart();
    await waitFor("the late follower synced again", 60_000, async () =>
      (await clusterInfo(late)).Synced ? true : undefined,
    );
    const resumedAt = [...late.log.matchAll(/catching up from block sets[^\n]*?height[^0-9]*(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    assert.equal(resumedAt.length, 2, late.tail());
    assert.equal(resumedAt[1], lateSaved + 1, "the restart went on from its last saved block");
    // its /health says so (the consensus check a cluster node adds, monitor/health.ts)
    const health = await httpRequest(late.port, { method: "GET", path: "/health" });
    const consensus = (JSON.parse(health.text) as { checks: Record<string, { ok: boolean; detail: string }> }).checks
      .consensus;
    assert.equal(consensus?.ok, true, health.text);
    assert.match(consensus.detail, /^in consensus at height \d+$/);

    // every acknowledged entry saved on every node
    const top = await waitFor("every acknowledged entry in a saved block everywhere", 60_000, async () => {
      for (const p of procs)
        for (const h of acknowledged) {
          const e = (await p.rpc("entry", { hash: h }).catch(() => undefined)) as { content?: string } | undefined;
          if (e === undefined) return undefined;
        }
      const heights = await Promise.all(procs.map(savedHeight));
      return Math.min(...heights);
    });

    // byte-identical blocks everywhere; signatures verified from the admin blocks
    let signedBlocks = 0;
    let signedByTwo = 0;
    let promotedAt = -1;
    const keys = new Map(members.filter((m) => m.identity).map((m) => [m.identity!, fromHex(m.pubkey!)]));
    // the federated set of each height, from the 05/06 entries of the admin blocks themselves
    let federatedSet: string[] = [];
    const changes = new Map<number, { add: string[]; remove: string[] }>();
    for (let h = 0; h <= top; h++) {
      for (const c of changes.get(h) ? [changes.get(h)!] : []) {
        federatedSet = federatedSet.filter((x) => !c.remove.includes(x)).concat(c.add);
      }
      const d = await Promise.all(
        procs.map((p) => p.rpc("dblock-by-height", { height: h }) as Promise<{ rawdata: string }>),
      );
      const a = await Promise.all(
        procs.map((p) => p.rpc("ablock-by-height", { height: h }) as Promise<{ rawdata: string }>),
      );
      assert.equal(new Set(d.map((x) => x.rawdata)).size, 1, `directory block ${h} differs between nodes`);
      assert.equal(new Set(a.map((x) => x.rawdata)).size, 1, `admin block ${h} differs between nodes`);
      const admin = decodeAdminBlock(fromHex(a[0]!.rawdata));
      for (const e of admin.entries) {
        if (e.type !== 0x05 && e.type !== 0x06) continue;
        const x = e as { identityChainId: Uint8Array; dbHeight: number };
        const c = changes.get(x.dbHeight) ?? { add: [], remove: [] };
        (e.type === 0x05 ? c.add : c.remove).push(toHex(x.identityChainId));
        changes.set(x.dbHeight, c);
        if (e.type === 0x05 && toHex(x.identityChainId) === auditId.identity) promotedAt = h;
      }
      if (h <= federatedFrom + 1) continue;
      const prev = decodeDirectoryBlock(
        fromHex(((await procs[0]!.rpc("dblock-by-height", { height: h - 1 })) as { rawdata: string }).rawdata),
      );
      const feds = federatedSet
        .map((identity) => ({ identity: fromHex(identity), publicKey: keys.get(identity)! }))
        .sort((x, y) => compareBytes(x.identity, y.identity));
      assert.equal(
        feds.length,
        3,
        `height ${h}: federated ${JSON.stringify(federatedSet)}, changes ${JSON.stringify([...changes])}`,
      );
      const check = checkBlockSignatures(admin.entries, prev, feds);
      assert.ok(check.ok, `admin block ${h}: ${check.valid} valid signatures, need ${check.needed}`);
      // factomd order: by minute-0 VM index
      const vms = admin.entries
        .filter((e) => e.type === 0x01)
        .map((e) => {
          const f = feds.findIndex(
            (x) => toHex(x.identity) === toHex((e as { identityAdminChainId: Uint8Array }).identityAdminChainId),
          );
          return minuteZeroVmIndex(f, 3, h);
        });
      assert.deepEqual(
        vms,
        [...vms].sort((x, y) => x - y),
        `admin block ${h}: signatures out of VM order`,
      );
      signedBlocks++;
      if (check.valid === 2) signedByTwo++;
    }
    assert.ok(signedBlocks >= 3, `only ${signedBlocks} blocks signed after the three were federated`);
    assert.ok(signedByTwo >= 1, "no block was closed by the two survivors while the third was down");
    assert.ok(promotedAt > 0, "no admin block promoted the audit server (05)");
    await nats.stop();
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
