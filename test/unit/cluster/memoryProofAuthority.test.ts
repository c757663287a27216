/**
 * The offline proof verifier and the federation agree on the authority set (issue 29): a running federation
 * over the in-memory log (real ledgers, real drivers, real signed governance records) adds servers, promotes
 * an audit server, demotes a federated one, rotates a key with a lead of several heights and later removes a
 * server, while an entry is written every few hundred milliseconds. Before each record a node applies, the test
 * notes the federation's own set at the open height (what it counts signatures against). Then every height
 * with an entry gets a proof from the follower (rpc/v2/proof.ts, as a client asks it), verified offline
 * (protocol/proof.ts verifyProof): it must verify, and the set it derived at H+1 must be the federation's at
 * H+1, identities and keys. A verifier folding otherwise (a rotated key at once instead of at its height,
 * changes out of activation order) fails here.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { AuthorityView } from "../../../src/cluster/authorities.js";
import type { Federation } from "../../../src/cluster/federation.js";
import { type ClusterRecord, signRecord } from "../../../src/cluster/records.js";
import type { NodeConfig } from "../../../src/config/types.js";
import { LedgerError } from "../../../src/ledger/errors.js";
import { fromHex, toHex } from "../../../src/protocol/bytes.js";
import { decodeChainCommit, decodeEntryCommit } from "../../../src/protocol/commit.js";
import { type ProofJson, verifyProof } from "../../../src/protocol/proof.js";
import type { RpcContext } from "../../../src/rpc/context.js";
import { proof } from "../../../src/rpc/v2/proof.js";
import { composeChain, composeEntry, composeTransaction } from "../../../tools/wallet/compose.js";
import { ecKeyOf, GENESIS_KEY } from "../../support/ledgerWrites.js";
import {
  BOOT,
  BOOT_KEY,
  BOOT_SEED,
  MemoryFederation,
  type MemoryNode,
  NET,
  serverIdentity,
} from "../../support/memoryFederation.js";
import { waitUntil } from "../../support/waitFor.js";

const NO_SIG = new Uint8Array(64);
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
type Gov = Extract<ClusterRecord, { kind: "authorityChange" | "rotateKey" }>;

/** The federated servers of a view with their keys, as a proof states them (`authority.federated`). */
function federatedOf(v: AuthorityView): { identity: string; publickey: string }[] {
  return v.federated
    .filter((a) => a.publicKey !== undefined)
    .map((a) => ({ identity: toHex(a.identity), publickey: toHex(a.publicKey!) }));
}

/**
 * Entries written to `ledger` all along (real commits and reveals, signed; one every 250 ms, so one or more per
 * height to prove): entry credits bought from the genesis address, a chain made, then its entries until `stop`.
 */
async function startEntries(
  ledger: MemoryNode["ledger"],
  name: string,
): Promise<{ hashes: string[]; stop(): Promise<void> }> {
  const ec = ecKeyOf(name);
  const rate = ledger.entryCreditRate();
  const buy = composeTransaction({
    inputSeed: GENESIS_KEY.seed,
    outputs: [],
    ecOutputs: [{ address: ec.publicKey, amount: 2_000n * rate }],
    rate,
    milliTimestamp: Date.now(),
  });
  await ledger.submitTransaction(buy.tx);
  await waitUntil("entry credits bought", () => ledger.ecBalance(ec.publicKey).saved >= 2_000n, 120_000, 50);
  const chain = composeChain({
    extIds: [text(`${name} ${Date.now()}`)],
    content: text("first"),
    ecSeed: ec.seed,
    milliTime: Date.now(),
  });
  await ledger.submitCommit(decodeChainCommit(fromHex(chain.commit.params.message)));
  await ledger.submitReveal(fromHex(chain.reveal.params.entry), { kind: "chain" });
  const hashes: string[] = [chain.entryHash];
  let writing = true;
  const written = (async () => {
    for (let i = 0; writing; i++) {
      const e = composeEntry({
        chainId: fromHex(chain.chainId),
        extIds: [text(`n${i}`)],
        content: text(`entry ${i}`),
        ecSeed: ec.seed,
        milliTime: Date.now(),
      });
      await ledger.submitCommit(decodeEntryCommit(fromHex(e.commit.params.message)));
      await ledger.submitReveal(fromHex(e.reveal.params.entry));
      hashes.push(e.entryHash);
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  return {
    hashes,
    stop: async () => {
      writing = false;
      await written;
    },
  };
}

/** One proof per saved height ≤ `top` that holds one of `hashes`, asked of `ledger` as a client asks it. */
function proofPerHeight(ledger: MemoryNode["ledger"], hashes: readonly string[], top: number): Map<number, ProofJson> {
  const ctx = { ledger, getConfig: () => ({ network: "LOCAL" }) as NodeConfig } as unknown as RpcContext;
  const proved = new Map<number, ProofJson>();
  for (const hash of hashes) {
    const receipt = ledger.receipt(fromHex(hash));
    if (receipt === undefined || receipt.directoryBlockHeight > top) continue;
    if (!proved.has(receipt.directoryBlockHeight))
      proved.set(receipt.directoryBlockHeight, proof({ hash }, ctx) as ProofJson);
  }
  return proved;
}

describe("the proof verifier's authority set is the federation's (in-memory log)", () => {
  const running: MemoryFederation[] = [];
  after(async () => {
    for (const f of running) await f.stop();
  });

  it("after servers added, a promotion, a demotion, a key rotated ahead and a removal: every height agrees", async (t) => {
    const f = new MemoryFederation({ blockTimeSeconds: 1 });
    running.push(f);
    // node name → open height → the federation's set at that height (noted at the first record applied there)
    const seen = new Map<string, Map<number, string>>();
    const changedWithin: string[] = [];
    const watch = (name: string) => (fed: Federation) => {
      const height = fed.status().height;
      const byHeight = seen.get(name) ?? new Map<number, string>();
      seen.set(name, byHeight);
      const now = JSON.stringify(federatedOf(fed.authorityView()));
      const before = byHeight.get(height);
      if (before === undefined) byHeight.set(height, now);
      else if (now !== before) changedWithin.push(`${name} at ${height}`);
    };
    const [x, y, z] = [serverIdentity(1), serverIdentity(2), serverIdentity(3)];
    const x2 = serverIdentity(4);
    const boot = await f.start({ name: "boot", role: "federated", applying: watch("boot") });
    await f.append(f.addServer("federated", x));
    await f.append(f.addServer("federated", y));
    await f.append(f.addServer("audit", z));
    await f.start({ name: "x", role: "federated", server: { ...x, nextSeed: x2.seed }, applying: watch("x") });
    await f.start({ name: "y", role: "federated", server: y, applying: watch("y") });
    await f.start({ name: "z", role: "audit", server: z, applying: watch("z") });
    const follower = await f.start({ name: "follower", role: "follower", applying: watch("follower") });
    await f.savedHeight(3);

    // entries all along (real commits and reveals, signed): one or more per height to prove
    const writer = await startEntries(boot.ledger, "proof-authority");
    const hashes = writer.hashes;

    try {
      const change = (c: "promote" | "demote" | "remove", s: { identity: Uint8Array }, h: number) =>
        signRecord(
          { kind: "authorityChange", change: c, identity: s.identity, activationHeight: h, signature: NO_SIG },
          NET,
          BOOT_SEED,
        ) as Gov;
      // a lead of several heights: the rotated key is recorded long before it is in force
      const H = boot.ledger.openBlock().height + 10;
      await boot.fed.submitOperatorRecord(change("promote", z, H));
      await boot.fed.submitOperatorRecord(change("demote", y, H));
      await boot.fed.submitOperatorRecord(
        signRecord(
          { kind: "rotateKey", identity: x.identity, newKey: x2.publicKey, activationHeight: H, signature: NO_SIG },
          NET,
          x.seed,
        ) as Gov,
      );
      const landed = boot.ledger.openBlock().height;
      assert.ok(landed + 2 < H, `the records landed at ${landed}, more than two heights before H = ${H}`);
      await f.savedHeight(H);
      // then the promoted server removed, two heights on
      const H2 = boot.ledger.openBlock().height + 2;
      await boot.fed.submitOperatorRecord(change("remove", z, H2));
      await f.savedHeight(H2 + 2);
      await writer.stop();
      const top = H2 + 1;
      await f.savedHeight(top + 1);

      // one proof per height, from the follower, verified offline against the federation's set at H+1
      const proved = proofPerHeight(follower.ledger, hashes, top);
      const heights = [...proved.keys()].sort((a, b) => a - b);
      t.diagnostic(`changes at ${landed} (in force ${H}) and ${H2}; proofs of heights ${heights.join(" ")}`);
      const window = heights.filter((h) => h > landed && h + 1 < H);
      assert.ok(window.length > 0, `a proof between the rotation's record (${landed}) and its height (${H})`);
      assert.ok(heights.some((h) => h + 1 >= H && h + 1 < H2) && heights.some((h) => h + 1 >= H2));
      for (const h of heights) {
        const p = proved.get(h)!;
        const summary = verifyProof(p, { trustedBootstrapKey: BOOT_KEY });
        assert.equal(summary.directoryblockheight, h);
        for (const n of f.nodes as MemoryNode[]) {
          const fed = seen.get(n.name)?.get(h + 1);
          if (fed === undefined) continue;
          assert.equal(JSON.stringify(p.authority.federated), fed, `height ${h + 1}: the proof's set is ${n.name}'s`);
        }
        assert.ok(seen.get("follower")?.has(h + 1), `the follower's set at ${h + 1} was noted`);
      }
      // the set did change over these heights: the rotation, the promotion, the demotion and the removal
      const at = (h: number) => JSON.parse(seen.get("follower")!.get(h)!) as { identity: string; publickey: string }[];
      const keyOf = (set: { identity: string; publickey: string }[], who: Uint8Array) =>
        set.find((s) => s.identity === toHex(who))?.publickey;
      assert.equal(keyOf(at(H - 1), x.identity), toHex(x.publicKey));
      assert.equal(keyOf(at(H), x.identity), toHex(x2.publicKey));
      assert.deepEqual(
        at(H)
          .map((s) => s.identity)
          .sort(),
        [BOOT, x.identity, z.identity].map((a) => toHex(a)).sort(),
      );
      assert.ok(at(H - 1).some((s) => s.identity === toHex(y.identity)));
      assert.deepEqual(
        at(H2)
          .map((s) => s.identity)
          .sort(),
        [BOOT, x.identity].map((a) => toHex(a)).sort(),
      );
      assert.deepEqual(changedWithin, [], "a node's set never changes within a height");
    } finally {
      await writer.stop().catch(() => {});
    }
  });

  it("a single server rotates its key: a rotation at the next height is refused, one a few heights on is proved past", async (t) => {
    const f = new MemoryFederation({ blockTimeSeconds: 1 });
    running.push(f);
    const b2 = serverIdentity(5);
    const boot = await f.start({
      name: "boot",
      role: "federated",
      server: { identity: BOOT, seed: BOOT_SEED, nextSeed: b2.seed },
    });
    const follower = await f.start({ name: "follower", role: "follower" });
    await f.savedHeight(2);
    const writer = await startEntries(boot.ledger, "single-rotation");
    try {
      const rotation = (activationHeight: number) =>
        signRecord(
          { kind: "rotateKey", identity: BOOT, newKey: b2.publicKey, activationHeight, signature: NO_SIG },
          NET,
          BOOT_SEED,
        ) as Gov;
      // in force at h + 1, the new key alone would sign the block recording it (its signatures come in h + 1)
      await assert.rejects(
        boot.fed.submitOperatorRecord(rotation(boot.ledger.openBlock().height + 1)),
        (e: unknown) => {
          assert.ok(e instanceof LedgerError, String(e));
          const info = "info" in e.type ? String(e.type.info) : "";
          // (not after the open height: the height moved on between reading it and the record's apply)
          assert.match(info, /rotate key: a key rotation takes effect 2 or more heights|not after the open height/);
          return true;
        },
      );
      const H = boot.ledger.openBlock().height + 5; // slack: the height may move on before the record applies (a busy machine)
      await boot.fed.submitOperatorRecord(rotation(H));
      await f.savedHeight(H + 3);
      await writer.stop();
      const top = H + 2;
      await f.savedHeight(top + 1);
      const proved = proofPerHeight(follower.ledger, writer.hashes, top);
      const heights = [...proved.keys()].sort((a, b) => a - b);
      t.diagnostic(`rotation in force at ${H}; proofs of heights ${heights.join(" ")}`);
      assert.ok(
        heights.some((h) => h >= H),
        `a proof of a height at or after the rotation's (${H})`,
      );
      for (const h of heights) {
        const summary = verifyProof(proved.get(h)!, { trustedBootstrapKey: BOOT_KEY });
        assert.equal(summary.directoryblockheight, h);
        const key = proved.get(h)!.authority.federated[0]?.publickey;
        assert.equal(key, toHex(h + 1 >= H ? b2.publicKey : BOOT_KEY), `height ${h + 1}: the key in force`);
      }
    } finally {
      await writer.stop().catch(() => {});
    }
  });
});
