/**
 * Certified snapshots on a devnet (docs/cluster.md §1.13; issue 34 item 1): 1 nats-server, 3 federated servers
 * and a follower — real processes on loopback, 2-second blocks, a snapshot every 5 blocks. With balances and a
 * chain written, in order:
 * * the federated servers store certified snapshots (2 of 3 signatures at least);
 * * a forked node (a follower holding another network's blocks 1..4 of the same genesis) keeps its data aside
 *   and resyncs from the newest certified snapshot, not from genesis;
 * * the log is purged up to the newest one (everything before the record after its height's close): a
 *   follower started from an empty directory serves reads at the network's tip within 10 s of its start,
 *   with byte-identical blocks from the snapshot's height on; reads of heights before it are answered
 *   -32008 (not held), and a write through it lands (its EC balance came with the snapshot);
 * * a snapshot tampered with in the archive (one byte), and one forged — a genuine snapshot's state with a made-up
 *   authority set, certified by the made-up servers' own ed25519 keys — are refused by the next new follower, which
 *   checks the header chain from genesis (snapshotChain.ts), starts from an older genuine snapshot and the
 *   archived block sets after it, and reaches the same blocks.
 * Runtime: ~1–2 minutes.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { RpcError } from "../../src/client/errors.js";
import { AuthoritySet } from "../../src/cluster/authorities.js";
import { signRecord } from "../../src/cluster/records.js";
import { decodeSnapshotParts, encodeAuthorityExtra, encodeSnapshotParts } from "../../src/cluster/snapshots.js";
import { publicKeyFromSeed } from "../../src/crypto/ed25519.js";
import { decodeSnapshotState, encodeSnapshotState, snapshotHash } from "../../src/ledger/snapshotState.js";
import type { AdminEntry } from "../../src/protocol/ablock.js";
import { fromHex } from "../../src/protocol/bytes.js";
import { LOCAL_BOOTSTRAP_IDENTITY_HEX, LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX } from "../../src/protocol/genesis.js";
import { networkId } from "../../src/protocol/network.js";
import { LOCAL_STREAM } from "../../tools/devnet/devnet.js";
import type { LedgerdNode } from "../../tools/devnet/ledgerdNode.js";
import { ClusterWriter } from "../support/clusterWriter.js";
import { LedgerdProcess } from "../support/nodeProcess.js";
import {
  assertIdenticalBlocks,
  heightsOf,
  startTestDevnet,
  type TestDevnet,
  waitSavedHeight,
} from "../support/testDevnet.js";
import { waitFor } from "../support/waitFor.js";

const BLOCK_SECONDS = 2;
/** Blocks between snapshots: one every 10 s. */
const SNAPSHOT_INTERVAL = 5;
const SNAPS_STREAM = `${LOCAL_STREAM}_SNAPS`;
/** The bound: a new follower serves reads at the tip within 10 s of its start. */
const SERVE_AT_TIP_MS = 10_000;

describe("certified snapshots on a devnet (1 nats, 3 federated, 1 follower)", () => {
  let net: TestDevnet;
  let admin: NatsConnection;
  const writer = new ClusterWriter("snapshots");
  let chainId: string;
  const node = (name: string): LedgerdNode => net.devnet.node(name);
  const logOf = (n: LedgerdNode): string => readFileSync(join(n.layout.home, "ledgerd.log"), "utf8");

  /** Heights of the snapshots the federated servers logged as stored, ascending. */
  function storedHeights(): number[] {
    const hs = new Set<number>();
    for (const n of net.devnet.nodesWithRole("federated"))
      for (const m of logOf(n).matchAll(/certified snapshot stored[^\n]*?"height":(\d+)/g)) hs.add(Number(m[1]));
    return [...hs].sort((a, b) => a - b);
  }

  /** The archive's parts of snapshot `height` (the newest message of each part's subject). */
  async function parts(height: number): Promise<{ subject: string; data: Uint8Array }[]> {
    const jsm = await jetstreamManager(admin);
    const out: { subject: string; data: Uint8Array }[] = [];
    for (let i = 0; ; i++) {
      const subject = `ledgersnaps.local.${height}.${i}`;
      const m = await jsm.direct.getMessage(SNAPS_STREAM, { last_by_subj: subject });
      if (m === null) break;
      out.push({ subject, data: m.data });
      if (i + 1 >= new DataView(m.data.buffer, m.data.byteOffset).getUint16(7)) break;
    }
    return out;
  }

  before(async () => {
    net = await startTestDevnet({
      federated: 3,
      audit: 0,
      followers: 1,
      nats: 1,
      blockTimeSeconds: BLOCK_SECONDS,
      snapshotInterval: SNAPSHOT_INTERVAL,
    });
    const cred = net.devnet.natsClient;
    assert.ok(cred !== undefined, "the devnet has an admin NATS user");
    admin = await connect({ servers: net.devnet.nats.urls, user: cred.user, pass: cred.password });
  });
  after(async () => {
    await admin?.close();
    await net?.cleanup();
  });

  test("federated servers store certified snapshots of the state they saved", async () => {
    assert.equal(await writer.buyCredits(node("fed1"), 2000), true, writer.records.at(-1)?.error);
    const created = await writer.createChain(node("fed0"), "snap");
    assert.ok(created !== undefined, writer.records.at(-1)?.error);
    chainId = created;
    for (const name of ["fed0", "fed2", "follower0"])
      assert.equal(await writer.addEntry(node(name), chainId), true, writer.records.at(-1)?.error);
    const written = (await heightsOf(node("fed0")))!.directoryblockheight;
    const h = await waitFor(
      "a certified snapshot after the writes",
      () => storedHeights().find((x) => x > written + 1),
      90_000,
      250,
      () => `stored: ${storedHeights().join(",")}`,
    );
    const got = decodeSnapshotParts((await parts(h)).map((p) => p.data));
    assert.equal(got.height, h);
    assert.ok(got.signatures.length >= 2, `a majority of 3 signed: ${got.signatures.length}`);
    const state = decodeSnapshotState(got.bytes);
    assert.equal(state.height, h);
    assert.ok(state.tables.ecBalances.length > 0 && state.tables.chainHeads.length >= 4, "balances and chains held");
  });

  test("a forked node resyncs from the newest certified snapshot, not from genesis", async () => {
    // blocks of another network of the same genesis: a single LOCAL node's blocks 1..4, signed by the bootstrap
    // key over its own blocks. Put under a devnet follower, they meet the devnet's signatures over other blocks at
    // height 5: the node has forked (docs/cluster.md §1.11), keeps its data aside and starts again, empty
    const other = await LedgerdProcess.start({ blockTimeSeconds: BLOCK_SECONDS });
    try {
      await waitFor(
        "the single node at height 4",
        async () =>
          ((await other.rpc("heights")) as { directoryblockheight: number }).directoryblockheight >= 4 || undefined,
        60_000,
        200,
      );
    } finally {
      await other.stop();
    }
    const forked = await net.devnet.addNode("follower");
    await net.devnet.kill9(forked.name);
    const db = join(forked.layout.home, "local", "db");
    rmSync(db, { recursive: true, force: true });
    cpSync(join(other.homeDir, "local", "db"), db, { recursive: true });
    other.cleanup();
    const mark = logOf(forked).length;
    await net.devnet.restart(forked.name);
    const resynced = await waitFor(
      "the forked node resynced from a snapshot",
      () => {
        const log = logOf(forked).slice(mark);
        const i = log.search(/resyncing: the data directory is kept aside/);
        if (i < 0) return undefined;
        return /started from a certified snapshot[^\n]*?"height":(\d+)/.exec(log.slice(i)) ?? undefined;
      },
      90_000,
      250,
      () => logOf(forked).slice(mark).slice(-2000),
    );
    const from = Number(resynced[1]);
    assert.ok(from > 0 && from % SNAPSHOT_INTERVAL === 0, `resynced from snapshot ${from}`);
    const tip = (await heightsOf(node("fed0")))!.directoryblockheight;
    await waitSavedHeight([forked], tip, 60_000);
    await assertIdenticalBlocks([node("fed0"), forked], from, tip);
    // not from genesis: the heights before the snapshot are not held (they are in the kept directory)
    await assert.rejects(
      forked.client.call("dblock-by-height", { height: from - 1 }),
      (e: unknown) => e instanceof RpcError && e.code === -32008,
    );
    assert.ok(existsSync(join(forked.layout.home, "local", "db.forked-at-4")), "the fork's data is kept");
  });

  let startedAt = 0;
  test("a follower from an empty directory, the log purged up to a certified snapshot, serves the tip within 10 s", async () => {
    const h = storedHeights().at(-1)!;
    const state = decodeSnapshotState(decodeSnapshotParts((await parts(h)).map((p) => p.data)).bytes);
    const jsm = await jetstreamManager(admin);
    const purged = await jsm.streams.purge(LOCAL_STREAM, { seq: state.logSequence + 1 });
    assert.ok(purged.success && purged.purged > 0, JSON.stringify(purged));
    const t0 = Date.now();
    const fresh = await net.devnet.addNode("follower");
    // the network's tip once the new node serves: it must reach it (a node replaying from genesis would not soon)
    const tip = (await heightsOf(node("fed0")))!.directoryblockheight;
    await waitSavedHeight([fresh], tip, 60_000);
    const atTip = Date.now();
    const started =
      /"time":"([^"]+)","level":"info","msg":"started from a certified snapshot[^\n]*?"height":(\d+)/.exec(
        logOf(fresh),
      );
    assert.ok(started, `no "started from a certified snapshot" line:\n${logOf(fresh).slice(-2000)}`);
    startedAt = Number(started[2]);
    assert.ok(startedAt >= h, `started from ${startedAt}, the newest certified was ${h}`);
    // what the snapshot bounds: from the snapshot taken to serving the tip. The time before it — a process start
    // and a NATS login (bcrypt), seconds when the machine is loaded — is the same for any start and is reported
    const fromSnapshot = atTip - Date.parse(started[1]!);
    console.log(
      `# new follower from snapshot ${startedAt}: tip ${tip} served ${fromSnapshot} ms after the snapshot was taken, ${atTip - t0} ms after the process was started`,
    );
    assert.ok(
      fromSnapshot < SERVE_AT_TIP_MS,
      `served height ${tip} ${fromSnapshot} ms after starting from snapshot ${startedAt} (bound ${SERVE_AT_TIP_MS} ms)`,
    );

    const to = (await heightsOf(fresh))!.directoryblockheight;
    await assertIdenticalBlocks([node("fed0"), fresh], startedAt, to);
    // before the snapshot: not held, a clear error, and the node goes on serving
    await assert.rejects(
      fresh.client.call("dblock-by-height", { height: startedAt - 1 }),
      (e: unknown) => e instanceof RpcError && e.code === -32008,
    );
    // an entry and a transaction written before the snapshot: not held here. `entry` answers -32008; `transaction`
    // answers as for any hash the node does not know ("" "" -1, the reference's answer), not with the transaction
    // (the coinbase transaction of the asset block before the snapshot's)
    const before = await node("fed0").client.call<{ fblock: { transactions: { txid: string }[] } }>(
      "fblock-by-height",
      { height: startedAt - 1 },
    );
    const oldTx = before.fblock.transactions[0]!.txid;
    const oldEntry = writer.records.find((r) => r.kind === "reveal")!.hash;
    await assert.rejects(
      fresh.client.call("entry", { hash: oldEntry }),
      (e: unknown) => e instanceof RpcError && e.code === -32008,
    );
    const tx = await fresh.client.call<{ assettransaction?: unknown; includedindirectoryblockheight?: number }>(
      "transaction",
      { hash: oldTx },
    );
    assert.equal(tx.assettransaction, undefined, JSON.stringify(tx));
    assert.ok(
      (await node("fed0").client.call<{ assettransaction?: unknown }>("transaction", { hash: oldTx })).assettransaction,
      "a node that replayed from genesis holds it",
    );
    await node("fed0").client.call("entry", { hash: oldEntry }); // (held by a node that replayed from genesis)
    assert.equal(
      await writer.addEntry(fresh, chainId),
      true,
      `write via the new follower: ${writer.records.at(-1)?.error}`,
    );
    await waitSavedHeight([fresh, node("fed0")], to + 2, 60_000);
    await assertIdenticalBlocks([node("fed0"), fresh], startedAt, to + 2);
  });

  test("a tampered snapshot and a forged one are refused; the next follower starts from an older genuine one", async () => {
    // a snapshot stored just now, and the one before it
    const before = storedHeights().at(-1)!;
    const h = await waitFor("a new certified snapshot", () => storedHeights().find((x) => x > before), 60_000, 100);
    const ps = await parts(h);
    const last = ps.at(-1)!;
    const tampered = last.data.slice();
    tampered[tampered.length - 1] = tampered[tampered.length - 1]! ^ 0x01;
    // forged: snapshot h−5's genuine blocks and balances with a made-up authority set, certified by the made-up
    // servers' own (real) keys — self-consistent: a node trusting the set a snapshot carries would take it
    const hf = h - SNAPSHOT_INTERVAL;
    const forged = forgeSnapshot((await parts(hf)).map((p) => p.data));
    const js = jetstream(admin);
    await js.publish(last.subject, tampered);
    for (const [i, part] of forged.entries()) await js.publish(`ledgersnaps.local.${hf}.${i}`, part);
    // the archive takes no newer snapshot from now on (an operator's seal), so these stay the newest however
    // long the new node takes to start (a NATS login takes seconds on a loaded machine)
    // (`sealed` is nats-server's stream setting since 2.6.2; the client's types leave it out)
    await (await jetstreamManager(admin)).streams.update(SNAPS_STREAM, { sealed: true } as Record<string, unknown>);
    const fresh = await net.devnet.addNode("follower");
    const refused = (height: number, why: string): RegExp =>
      new RegExp(`certified snapshot refused; trying an older one[^\\n]*"height":${height}\\b[^\\n]*${why}`);
    const started = await waitFor(
      "the tampered and the forged snapshots refused and an older one used",
      () =>
        refused(h, "hash").test(logOf(fresh)) && refused(hf, "the header chain from genesis names").test(logOf(fresh))
          ? (/started from a certified snapshot[^\n]*?"height":(\d+)/.exec(logOf(fresh)) ?? undefined)
          : undefined,
      60_000,
      200,
      () => logOf(fresh).slice(-3000),
    );
    const from = Number(started[1]);
    assert.ok(from < hf && from % SNAPSHOT_INTERVAL === 0, `started from ${from}, older than the forged ${hf}`);
    const checked = /header chain checked from genesis[^\n]*?"heights":(\d+),"ms":(\d+)/.exec(logOf(fresh));
    assert.ok(checked, "the header chain was checked");
    console.log(`# header chain from genesis: ${checked[1]} heights checked in ${checked[2]} ms`);
    const tip = (await heightsOf(node("fed0")))!.directoryblockheight;
    await waitSavedHeight([fresh], tip, 90_000);
    await assertIdenticalBlocks([node("fed0"), fresh], from, tip);
  });
});

/**
 * A forgery of a genuine snapshot's archive parts: the same state with a made-up authority set of three servers
 * (fresh ed25519 keys) as the federated servers of the height after it, whose signatures certify it.
 */
function forgeSnapshot(genuine: Uint8Array[]): Uint8Array[] {
  const got = decodeSnapshotParts(genuine);
  const state = decodeSnapshotState(got.bytes);
  const madeUp = [0, 1, 2].map(() => {
    const seed = new Uint8Array(randomBytes(32));
    return { identity: new Uint8Array(randomBytes(32)), seed, publicKey: publicKeyFromSeed(seed) };
  });
  const bootstrap = {
    identity: fromHex(LOCAL_BOOTSTRAP_IDENTITY_HEX),
    publicKey: fromHex(LOCAL_BOOTSTRAP_PUBLIC_KEY_HEX),
  };
  const set = new AuthoritySet(bootstrap);
  set.applyAdminBlock(
    0,
    madeUp.flatMap((m): AdminEntry[] => [
      { type: 0x05, identityChainId: m.identity, dbHeight: 0 },
      { type: 0x08, identityChainId: m.identity, keyPriority: 0, publicKey: m.publicKey, dbHeight: 0 },
    ]),
  );
  set.applyAdminBlock(0, [{ type: 0x07, identityChainId: bootstrap.identity, dbHeight: 0 }]);
  set.at(state.height + 1);
  const bytes = encodeSnapshotState({ ...state, extra: encodeAuthorityExtra(set) });
  const hash = snapshotHash(bytes);
  const signatures = madeUp.map((m) =>
    signRecord(
      {
        kind: "snapshotSignature" as const,
        height: state.height,
        hash,
        keyMR: got.keyMR,
        signer: m.identity,
        signature: new Uint8Array(64),
      },
      networkId("LOCAL"),
      m.seed,
    ),
  );
  return encodeSnapshotParts({ height: state.height, hash, keyMR: got.keyMR, signatures }, bytes);
}
