/**
 * Brain swap over the in-memory log (test/support/memoryFederation.ts: real ledgers, drivers, proposers and
 * signatures): one identity moves from machine A to machine B at a height, then back to A at a later one,
 * while blocks keep coming. Checked: each machine proposes only inside its signing window (A before h1 and
 * from h2, B from h1 until h2), every block carries the identity's signature, no fault vote is ever appended,
 * the blocks are identical on every node; and a second signature of the same identity at the same height
 * (appended by hand under another id) is ignored by the rules.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { signsAt } from "../../../src/cluster/proposer.js";
import { decodeRecord } from "../../../src/cluster/records.js";
import { bytesEqual } from "../../../src/protocol/bytes.js";
import { MemoryFederation, type MemoryNode, serverIdentity } from "../../support/memoryFederation.js";
import { waitUntil } from "../../support/waitFor.js";

/** The heights of the dbSig records a machine appended. */
function signer(): { heights: number[]; kinds: Set<string>; seen: (kind: string, data: Uint8Array) => void } {
  const out = {
    heights: [] as number[],
    kinds: new Set<string>(),
    seen: (_kind: string, data: Uint8Array) => {
      const rec = decodeRecord(data);
      out.kinds.add(rec.kind);
      if (rec.kind === "dbSig") out.heights.push(rec.height);
    },
  };
  return out;
}

/** How many directory-block signatures (01) of `identity` admin block `height` of `node` carries. */
function signaturesOf(node: MemoryNode, height: number, identity: Uint8Array): number {
  return node.ledger
    .adminBlockByHeight(height)!
    .block.entries.filter(
      (e) => !("forwardCompatible" in e) && e.type === 0x01 && bytesEqual(e.identityAdminChainId, identity),
    ).length;
}

describe("brain swap: an identity moves between machines at a height (in-memory log)", () => {
  const running: MemoryFederation[] = [];
  after(async () => {
    for (const f of running) await f.stop();
  });

  it("signsAt: the window's heights, both ends", () => {
    assert.equal(signsAt(undefined, 7), true);
    assert.equal(signsAt({ fromHeight: 0, untilHeight: 0 }, 1), true);
    assert.equal(signsAt({ fromHeight: 10, untilHeight: 0 }, 9), false);
    assert.equal(signsAt({ fromHeight: 10, untilHeight: 0 }, 10), true);
    assert.equal(signsAt({ fromHeight: 0, untilHeight: 10 }, 9), true);
    assert.equal(signsAt({ fromHeight: 0, untilHeight: 10 }, 10), false);
    assert.equal(signsAt({ fromHeight: 5, untilHeight: 10 }, 4), false);
  });

  it("A → B at h1, B → A at h2: one signer per height, every block signed, no fault vote, identical blocks", async () => {
    const f = new MemoryFederation({ blockTimeSeconds: 1, faultTimeoutSeconds: 4, roundTimeoutSeconds: 2 });
    running.push(f);
    const [x, y] = [serverIdentity(1), serverIdentity(2)];
    const [spyA, spyB, spyBoot, spyY] = [signer(), signer(), signer(), signer()];
    const boot = await f.start({ name: "boot", role: "federated", appended: spyBoot.seen });
    await f.append(f.addServer("federated", x));
    await f.append(f.addServer("federated", y));
    const a = await f.start({ name: "A", role: "federated", server: x, appended: spyA.seen });
    await f.start({ name: "y", role: "federated", server: y, appended: spyY.seen });
    await f.savedHeight(3);

    // B: the same identity and key, started before h1 with its activation height (-identityactivationheight)
    const h1 = boot.ledger.openBlock().height + 5;
    const h2 = h1 + 6;
    a.fed.setSigningWindow({ fromHeight: 0, untilHeight: h1 });
    const b = await f.start({
      name: "B",
      role: "federated",
      server: x,
      signingWindow: { fromHeight: h1, untilHeight: 0 },
      appended: spyB.seen,
    });
    assert.deepEqual(b.fed.scheduledChanges().signingWindow, { fromHeight: h1, untilHeight: 0 }, "the panel's view");
    await waitUntil(`height ${h1 + 2}`, () => boot.ledger.openBlock().height >= h1 + 2, 60_000);
    // and back: B stops at h2, A starts again at h2 (both reloaded while running)
    b.fed.setSigningWindow({ fromHeight: h1, untilHeight: h2 });
    a.fed.setSigningWindow({ fromHeight: h2, untilHeight: 0 });
    const end = h2 + 3;
    await f.savedHeight(end);

    assert.ok(spyA.heights.length > 0 && spyB.heights.length > 0, "both machines signed");
    for (const h of spyA.heights) assert.ok(h < h1 || h >= h2, `A signed height ${h} inside B's window`);
    for (const h of spyB.heights) assert.ok(h >= h1 && h < h2, `B signed height ${h} outside its window`);
    assert.ok(spyB.heights.includes(h1), "B signed h1");
    assert.ok(spyA.heights.includes(h2), "A signed h2");
    for (const spy of [spyA, spyB, spyBoot, spyY]) assert.equal(spy.kinds.has("faultVote"), false, "no fault vote");
    const keyMRs = MemoryFederation.keyMRs(boot, end);
    for (const n of f.nodes) {
      assert.deepEqual(MemoryFederation.keyMRs(n, end), keyMRs, `${n.name}: identical blocks`);
      // every block from the one before h1 to the end carries x's signature (no gap at either swap)
      for (let h = h1 - 1; h <= end; h++) assert.equal(signaturesOf(n, h, x.identity), 1, `${n.name}: block ${h}`);
      assert.deepEqual(
        n.fed.authorityView().federated.map((s) => s.identity.length),
        [32, 32, 32],
        `${n.name}: three federated servers`,
      );
      assert.equal(Object.keys(n.fed.status().faultVotes).length, 0);
    }
  });

  it("a second signature of the same identity at the same height is ignored by the rules", async () => {
    const f = new MemoryFederation({ blockTimeSeconds: 1 });
    running.push(f);
    const x = serverIdentity(1);
    const boot = await f.start({ name: "boot", role: "federated" });
    await f.append(f.addServer("federated", x));
    await f.start({ name: "x", role: "federated", server: x });
    await f.savedHeight(3);
    // the same identity's dbSig twice more, under no record id (the log keeps both)
    const height = boot.ledger.openBlock().height;
    await f.append(MemoryFederation.dbSig(boot, x));
    await f.append(MemoryFederation.dbSig(boot, x));
    await f.savedHeight(height + 1);
    for (const n of f.nodes) {
      assert.equal(signaturesOf(n, height, x.identity), 1, `${n.name}: one signature of x in block ${height}`);
      assert.deepEqual(MemoryFederation.keyMRs(n, height + 1), MemoryFederation.keyMRs(boot, height + 1));
    }
  });
});
