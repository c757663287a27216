/**
 * The entry-credit rate changed on a running federation over the in-memory log (test/support/memoryFederation.ts:
 * real ledgers, real drivers and proposers, real signatures): the rate authority announces a rate for a height;
 * every node's open block pays it from that height and its asset block carries it; a transaction priced at the
 * previous rate is refused naming both rates; the refused variants (wrong key, rate 0, past height, replay,
 * out of order) change nothing; a node restarted between the announcement and the height still applies it
 * (the schedule kept beside its blocks, ecRate.ts).
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { type ClusterRecord, signRecord } from "../../../src/cluster/records.js";
import { LedgerError } from "../../../src/ledger/errors.js";
import { transactionFeeEC } from "../../../src/protocol/transaction.js";
import {
  BOOT_SEED,
  MemoryFederation,
  type MemoryNode,
  NET,
  RATE_SEED,
  serverIdentity,
} from "../../support/memoryFederation.js";
import { waitUntil } from "../../support/waitFor.js";
import { assetKey, ecKeyN, LOCAL_RATE, payment, rcdHashOf, UNIT } from "../ledger/harness.js";

const NO_SIG = new Uint8Array(64);
type SetEcRate = Extract<ClusterRecord, { kind: "setEcRate" }>;

const setRate = (rate: bigint, activationHeight: number, seed: Uint8Array = RATE_SEED): SetEcRate =>
  signRecord({ kind: "setEcRate", rate, activationHeight, signature: NO_SIG }, NET, seed);

/** An assert.rejects check: a LedgerError INVALID whose info (what JSON-RPC puts in `data`) matches `re`. */
const refusedWith =
  (re: RegExp) =>
  (e: unknown): boolean => {
    assert.ok(e instanceof LedgerError, String(e));
    assert.equal(e.type.code, "INVALID");
    assert.match("info" in e.type ? String(e.type.info) : "", re);
    return true;
  };

/** The ExchRate of each asset block from..to of `node`. */
function assetRates(node: MemoryNode, from: number, to: number): bigint[] {
  const out: bigint[] = [];
  for (let h = from; h <= to; h++) out.push(node.ledger.assetBlockByHeight(h)!.block.exchangeRate);
  return out;
}

describe("entry-credit rate changes on a running federation (in-memory log)", () => {
  const running: MemoryFederation[] = [];
  after(async () => {
    for (const f of running) await f.stop();
  });

  it("the rate lands at its height on every node, writes pay it, old-rate prices are refused naming both rates", async () => {
    const f = new MemoryFederation({ blockTimeSeconds: 1 });
    running.push(f);
    const [x, y] = [serverIdentity(1), serverIdentity(2)];
    const boot = await f.start({ name: "boot", role: "federated" });
    await f.append(f.addServer("federated", x));
    await f.append(f.addServer("federated", y));
    await f.start({ name: "x", role: "federated", server: x });
    await f.start({ name: "y", role: "federated", server: y });
    let follower = await f.start({ name: "follower", role: "follower" });
    await f.savedHeight(3);
    assert.equal(boot.ledger.entryCreditRate(), LOCAL_RATE);

    const NEW_RATE = 2500n;
    const H = boot.ledger.openBlock().height + 6;
    // refused before the log: not the rate authority's signature (the skeleton key is not it)
    await assert.rejects(
      follower.fed.submitOperatorRecord(setRate(NEW_RATE, H, BOOT_SEED)),
      refusedWith(/set entry-credit rate: the signature is not the rate authority's/),
    );
    const before = await f.log.lastSequence();
    // accepted through the follower (forwarded as an operator's record)
    await follower.fed.submitOperatorRecord(setRate(NEW_RATE, H));
    // refused by the rules once in the log, alike on every node
    await assert.rejects(follower.fed.submitOperatorRecord(setRate(NEW_RATE, H)), refusedWith(/replay: the rate 2500/));
    await assert.rejects(boot.fed.submitOperatorRecord(setRate(0n, H + 1)), refusedWith(/a rate of 0/));
    await assert.rejects(
      boot.fed.submitOperatorRecord(setRate(3000n, 1)),
      refusedWith(/activation height 1 is not after the open height/),
    );
    await assert.rejects(
      boot.fed.submitOperatorRecord(setRate(3000n, H)),
      refusedWith(new RegExp(`activation height ${H} is not after the rate change already scheduled for ${H}`)),
    );
    await assert.rejects(
      boot.fed.submitOperatorRecord(setRate(3000n, H + 20_000)),
      refusedWith(/more than 10000 blocks after/),
    );
    assert.ok((await f.log.lastSequence()) > before);
    await f.settle();
    for (const n of f.nodes) {
      const r = n.fed.ecRates();
      assert.equal(r.inForce, LOCAL_RATE, `${n.name}: in force before ${H}`);
      assert.equal(r.announced, NEW_RATE, `${n.name}: announced`);
      assert.deepEqual(
        r.scheduled.map((s) => [s.activationHeight, s.rate]),
        [[H, NEW_RATE]],
        `${n.name}: one change scheduled (the refused ones changed nothing)`,
      );
      assert.deepEqual(n.fed.scheduledChanges().rates, [{ height: H, rate: "2500" }], `${n.name}: the panel's view`);
    }

    // the follower restarts between the announcement and the height: its schedule comes from its file
    await waitUntil("the record's block saved", () => follower.ledger.heights().directoryBlockHeight >= H - 4, 60_000);
    const dir = follower.dir;
    await f.stopNode(follower);
    follower = await f.start({ name: "follower", role: "follower" }, dir);
    assert.equal(follower.fed.ecRates().announced, NEW_RATE, "the restarted follower knows the change");

    // from H on every node's open block pays the new rate
    await waitUntil(`every node at height ${H}`, () => f.nodes.every((n) => n.ledger.openBlock().height >= H), 60_000);
    await waitUntil(
      "block H open everywhere",
      () => f.nodes.every((n) => n.ledger.entryCreditRate() === NEW_RATE),
      30_000,
    );
    for (const n of f.nodes) assert.equal(n.fed.ecRates().announced, NEW_RATE, `${n.name}: predictive = in force`);

    // a transaction priced at the old rate: refused, naming both rates
    const ec = ecKeyN(31);
    const old = payment({ milliTime: Date.now(), ec: [{ to: ec, amount: 10n * NEW_RATE }] });
    await assert.rejects(boot.ledger.submitTransaction(old), (e: unknown) => {
      assert.ok(e instanceof LedgerError);
      assert.equal(e.type.code, "INSUFFICIENT_FEE");
      assert.ok(e.type.code === "INSUFFICIENT_FEE" && e.type.rates !== undefined);
      assert.deepEqual(e.type.rates, { inForce: NEW_RATE, previous: LOCAL_RATE });
      return true;
    });
    // priced at the new rate: 10 entry credits bought for 10 × the new rate
    const fee = (tx: typeof old): bigint => BigInt(transactionFeeEC(tx)) * NEW_RATE;
    const to = assetKey(32);
    // (the fee depends on the size, which depends on the input amount's varint: built until it settles)
    const build = (paid: bigint) =>
      payment({
        milliTime: Date.now(),
        ec: [{ to: ec, amount: 10n * NEW_RATE }],
        outputs: [{ to, amount: UNIT }],
        fee: paid,
      });
    let paid = 0n;
    for (let i = 0; i < 3; i++) paid = fee(build(paid));
    const priced = build(paid);
    await boot.ledger.submitTransaction(priced);
    await f.settle();
    const last = Math.max(boot.ledger.openBlock().height, H + 1);
    await f.savedHeight(last);
    const keyMRs = MemoryFederation.keyMRs(boot, last);
    for (const n of f.nodes) {
      assert.equal(n.ledger.ecBalance(ec.publicKey).saved, 10n, `${n.name}: 10 credits at the new rate`);
      assert.equal(n.ledger.assetBalance(rcdHashOf(to)).saved, UNIT, `${n.name}: the transfer`);
      assert.deepEqual(
        assetRates(n, H - 2, H + 1),
        [LOCAL_RATE, LOCAL_RATE, NEW_RATE, NEW_RATE],
        `${n.name}: ExchRate of asset blocks ${H - 2}..${H + 1}`,
      );
      assert.deepEqual(MemoryFederation.keyMRs(n, last), keyMRs, `${n.name}: identical blocks`);
    }
    // the same record once more, after its height: a past height
    await assert.rejects(
      boot.fed.submitOperatorRecord(setRate(NEW_RATE, H)),
      refusedWith(/is not after the open height/),
    );
  });
});
