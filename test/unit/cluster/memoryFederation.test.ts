/**
 * The federation with many nodes and no nats-server (test/support/memoryFederation.ts): real ledgers over
 * LMDB, real Federation drivers and proposers, one in-memory ordered log. Checked: byte-identical blocks on
 * every node with a majority of signatures; a forged transfer appended straight to the log is applied by no
 * node; one server's clock 30 s fast (and another's 5 min slow) moves neither the chain's time nor its pace;
 * a silent federated server is replaced once by a live audit server, with no swap back (no flapping), and an
 * audit server that is cut off is never promoted.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { encodeMessage } from "../../../src/ledger/messages.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { decodeTransaction } from "../../../src/protocol/transaction.js";
import { MemoryFederation, type MemoryNode, serverIdentity } from "../../support/memoryFederation.js";
import { waitUntil } from "../../support/waitFor.js";
import { assetKey, payment, rcdHashOf, sand } from "../ledger/harness.js";

const UNIT = 100_000_000n;

/** A federation of the bootstrap server plus federated X and Y and audit Z, all added at height 1. */
/** How far behind the real time the slow server's clock runs, ms. */
const SLOW_CLOCK_MS = 300_000;

async function threeServers(
  options: { blockTimeSeconds: number; faultTimeoutSeconds?: number; roundTimeoutSeconds?: number },
  skews: { boot?: number; x?: number; y?: number } = {},
) {
  const f = new MemoryFederation(options);
  const x = serverIdentity(1);
  const y = serverIdentity(2);
  const z = serverIdentity(3);
  const boot = await f.start({ name: "boot", role: "federated", skewMs: skews.boot ?? 0 });
  await f.append(f.addServer("federated", x));
  await f.append(f.addServer("federated", y));
  await f.append(f.addServer("audit", z));
  const nx = await f.start({ name: "x", role: "federated", server: x, skewMs: skews.x ?? 0 });
  const ny = await f.start({ name: "y", role: "federated", server: y, skewMs: skews.y ?? 0 });
  const nz = await f.start({ name: "z", role: "audit", server: z });
  const follower = await f.start({ name: "follower", role: "follower" });
  return { f, boot, nx, ny, nz, follower, x, y, z };
}

/** Signature entries (type 01) of each admin block 2..height of `node`. */
function signatureCounts(node: MemoryNode, height: number): number[] {
  const out: number[] = [];
  for (let h = 2; h <= height; h++)
    out.push(
      node.ledger.adminBlockByHeight(h)!.block.entries.filter((e) => !("forwardCompatible" in e) && e.type === 0x01)
        .length,
    );
  return out;
}

describe("a federation over an in-memory log (real ledgers, real drivers, no nats-server)", () => {
  const running: MemoryFederation[] = [];
  after(async () => {
    for (const f of running) await f.stop();
  });

  it("identical blocks everywhere, each signed by a majority; a forged transfer in the log is applied by no node", async () => {
    const t = await threeServers({ blockTimeSeconds: 1 });
    running.push(t.f);
    await t.f.savedHeight(3);
    // an honest transfer through a federated server's API path
    const to = assetKey(21);
    const tx = payment({ milliTime: Date.now(), outputs: [{ to, amount: 5n * UNIT }] });
    await t.nx.ledger.submitTransaction(tx);
    // a forged one (all-zero signature) appended straight to the log by whoever can publish to it
    const thief = assetKey(22);
    const honest = payment({ milliTime: Date.now() + 1, outputs: [{ to: thief, amount: 89n * UNIT }] });
    const forgedRaw = honest.raw.slice();
    forgedRaw.fill(0, forgedRaw.length - 64);
    await t.f.append({
      kind: "writes",
      messages: [encodeMessage({ kind: "transaction", timeMs: Date.now(), tx: decodeTransaction(forgedRaw) })],
    });
    await t.f.settle();
    const height = t.boot.ledger.openBlock().height;
    await t.f.savedHeight(height);
    for (const n of t.f.nodes) {
      assert.equal(n.ledger.assetBalance(rcdHashOf(to)).saved, 5n * UNIT, `${n.name}: the honest transfer`);
      assert.equal(n.ledger.assetBalance(rcdHashOf(thief)).ack, 0n, `${n.name}: the forged transfer`);
      assert.equal(n.fed.status().badSignatureWrites, 1, `${n.name}: counted`);
    }
    assert.ok(t.boot.log.lines.some((l) => l.msg.startsWith("a client write in the log has a bad signature")));
    const reference = MemoryFederation.keyMRs(t.boot, height);
    for (const n of t.f.nodes) assert.deepEqual(MemoryFederation.keyMRs(n, height), reference, `${n.name}'s blocks`);
    for (const count of signatureCounts(t.boot, height)) assert.ok(count >= 2, `signatures per block: ${count} of 3`);
    assert.ok(
      t.f.nodes.every(
        (n) => n.ledger.assetBalance(rcdHashOf(sand)).saved === t.boot.ledger.assetBalance(rcdHashOf(sand)).saved,
      ),
    );
  });

  // The slow clock is 5 minutes behind so that a block that waited for it (≥ 300 s) cannot be mistaken for a
  // block slowed by a loaded machine (1-s blocks took 11 s each beside two CPU hogs).
  it("one clock 30 s fast and one 5 min slow: the chain's time stays the real time and blocks keep their pace", async () => {
    const t = await threeServers({ blockTimeSeconds: 1 }, { x: 30_000, y: -SLOW_CLOCK_MS });
    running.push(t.f);
    await t.f.savedHeight(2);
    const from = t.boot.ledger.openBlock().height;
    const started = Date.now();
    let aheadMs = 0;
    const sampler = setInterval(() => {
      aheadMs = Math.max(aheadMs, t.follower.ledger.openBlock().minuteStartMs - Date.now());
    }, 20);
    try {
      await t.f.savedHeight(from + 4, 4 * SLOW_CLOCK_MS);
    } finally {
      clearInterval(sampler);
    }
    const perBlockMs = (Date.now() - started) / 4;
    assert.ok(aheadMs < 1_000, `the chain's minute ran ${aheadMs} ms ahead of the real clock`);
    // 1-s blocks; a block that waited for the slow clock would take SLOW_CLOCK_MS or more
    assert.ok(perBlockMs < SLOW_CLOCK_MS / 3, `${perBlockMs} ms per block`);
    const height = t.boot.ledger.heights().directoryBlockHeight;
    const reference = MemoryFederation.keyMRs(t.boot, height);
    for (const n of t.f.nodes) assert.deepEqual(MemoryFederation.keyMRs(n, height), reference);
  });

  it("a silent server is replaced by a live audit server, never by one cut off; promoted back, it is not voted out again (no flapping)", async () => {
    const opts = { blockTimeSeconds: 1, faultTimeoutSeconds: 2, roundTimeoutSeconds: 2 };
    const t = await threeServers(opts);
    running.push(t.f);
    // a second audit server that never runs: cut off from the start
    const w = serverIdentity(4);
    await t.f.append(t.f.addServer("audit", w));
    await t.f.savedHeight(t.boot.ledger.openBlock().height + 1);
    const federated = (id: Uint8Array): boolean => t.boot.fed.status().federated.includes(toHex(id));
    // y goes silent: z takes its seat
    await t.f.stopNode(t.ny);
    await waitUntil("z promoted", () => federated(t.z.identity), 60_000, 20);
    assert.ok(!federated(t.y.identity), "the silent server left");
    // y comes back (an audit server now); then z goes silent: y is promoted back, with a fresh fault timer
    const ny = await t.f.start({ name: "y", role: "audit", server: t.y }, t.ny.dir);
    await t.f.settle();
    await t.f.stopNode(t.nz);
    await waitUntil("y promoted back", () => federated(t.y.identity), 60_000, 20);
    const promotedAt = t.boot.fed.status().height;
    await t.f.savedHeight(promotedAt + 5, 60_000);
    const changes: string[] = [];
    const height = t.boot.ledger.heights().directoryBlockHeight;
    for (let h = 1; h <= height; h++)
      for (const e of t.boot.ledger.adminBlockByHeight(h)!.block.entries)
        if (!("forwardCompatible" in e) && (e.type === 0x05 || e.type === 0x06))
          changes.push(`${h}:${e.type.toString(16)}:${toHex(e.identityChainId).slice(0, 4)}`);
    const late = changes.filter((c) => Number(c.split(":")[0]) >= promotedAt);
    assert.deepEqual(late, [], `role changes after y was promoted back at ${promotedAt}: ${changes.join(" ")}`);
    assert.ok(
      !changes.some((c) => c.endsWith(toHex(w.identity).slice(0, 4)) && c.includes(":5:")),
      "w was never promoted",
    );
    assert.ok(federated(t.y.identity) && !federated(t.z.identity));
    const reference = MemoryFederation.keyMRs(t.boot, height);
    for (const n of [t.boot, t.nx, ny, t.follower])
      assert.deepEqual(MemoryFederation.keyMRs(n, height), reference, `${n.name}'s blocks`);
  });

  it("dropped proposals, duplicated writes records and a paused log: identical blocks, each write applied once, nothing acknowledged lost", async () => {
    const f = new MemoryFederation({ blockTimeSeconds: 1 });
    running.push(f);
    const x = serverIdentity(1);
    const y = serverIdentity(2);
    const boot = await f.start({ name: "boot", role: "federated" });
    await f.append(f.addServer("federated", x));
    await f.append(f.addServer("federated", y));
    // x loses half of what it proposes (signatures, boundaries) on the way to the log
    const nx = await f.start({ name: "x", role: "federated", server: x, dropRatePerMille: 500 });
    await f.start({ name: "y", role: "federated", server: y });
    const follower = await f.start({ name: "follower", role: "follower" });
    await f.savedHeight(3);
    // writes through two nodes; every writes record appended a second time by hand (a duplicate delivery)
    const targets = [nx, follower];
    const accepted: bigint[] = [];
    const copies: Promise<number>[] = [];
    const seen = new Set<number>();
    const copier = setInterval(() => {
      for (const r of f.log.held())
        if (r.subject === "tx" && !seen.has(r.seq)) {
          seen.add(r.seq);
          copies.push(f.log.append("tx", r.data).then((a) => a.seq));
        }
    }, 20);
    try {
      for (let i = 0; i < 12; i++) {
        if (i === 6) {
          f.log.pause();
          setTimeout(() => f.log.resume(), 1_500);
        }
        const to = assetKey(40 + i);
        const tx = payment({ milliTime: Date.now() + i, outputs: [{ to, amount: BigInt(i + 1) * UNIT }] });
        await targets[i % 2]!.ledger.submitTransaction(tx);
        accepted.push(BigInt(i + 1) * UNIT);
      }
    } finally {
      clearInterval(copier);
    }
    await Promise.all(copies);
    assert.ok(copies.length >= 1, "writes records were duplicated");
    await f.settle();
    const height = boot.ledger.openBlock().height;
    await f.savedHeight(height);
    for (const n of f.nodes)
      for (let i = 0; i < 12; i++)
        assert.equal(
          n.ledger.assetBalance(rcdHashOf(assetKey(40 + i))).saved,
          accepted[i],
          `${n.name}: transfer ${i} once`,
        );
    const reference = MemoryFederation.keyMRs(boot, height);
    for (const n of f.nodes) assert.deepEqual(MemoryFederation.keyMRs(n, height), reference, `${n.name}'s blocks`);
  });
});
