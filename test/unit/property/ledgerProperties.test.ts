/**
 * Ledger rules as invariants over random write sequences (fast-check, issue 20): random payments (many of
 * them overspending), EC purchases, entry commits, resubmissions of earlier messages and ends of minutes,
 * applied to a real ledger over real LMDB with real signatures, against a small model of the balances:
 *
 * * every submission is accepted exactly when the model says it is valid (enough balance; a message
 *   already accepted is refused: a message submitted twice lands once), and every acknowledged balance
 *   equals the model's after each step, never negative;
 * * value is conserved: Σ asset balances + Σ fees + Σ base units spent on EC = the genesis balance, and
 *   Σ EC balances + Σ credits spent on commits = Σ credits bought;
 * * the same ordered log gives byte-identical blocks: a second ledger fed the same sequence, and a third
 *   stopped in the middle and restarted from its journal, save the same bytes at every height.
 *
 * Deterministic: a fixed seed (override with LEDGERD_FC_SEED to explore; fast-check prints the seed and the
 * shrunk counterexample of a failure). 10 + 5 sequences of up to 14 steps.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { LedgerError } from "../../../src/ledger/errors.js";
import type { KeyPair } from "../../../src/protocol/address.js";
import { toHex } from "../../../src/protocol/bytes.js";
import type { EntryCommit } from "../../../src/protocol/commit.js";
import { chainIdFromExtIds } from "../../../src/protocol/entry.js";
import type { Transaction } from "../../../src/protocol/transaction.js";
import { BlockKind } from "../../../src/store/keys.js";
import {
  assetKey,
  cleanup,
  closeNode,
  ecKeyN,
  entryCommit,
  entryRaw,
  finishBlock,
  LOCAL_RATE,
  ManualClock,
  openNode,
  payment,
  rcdHashOf,
  SAND_GENESIS_BALANCE,
  sand,
  type TestNode,
  tempDir,
  UNIT,
} from "../ledger/harness.js";

const SEED = Number(process.env.LEDGERD_FC_SEED ?? 20_261_125);
const START_MS = Date.UTC(2024, 0, 1, 12, 0, 0);
/** Asset keys: the genesis-funded sand address and three empty ones. */
const ASSET_KEYS: KeyPair[] = [sand, assetKey(1), assetKey(2), assetKey(3)];
const EC_KEYS: KeyPair[] = [ecKeyN(1), ecKeyN(2)];
/** Entries the commits pay for (one chain, never revealed). */
const CHAIN_ID = chainIdFromExtIds([new TextEncoder().encode("ledger properties")]);
const ENTRIES = [0, 1, 2].map((i) => entryRaw(CHAIN_ID, [`e${i}`], `entry ${i}`));

type Step =
  | { kind: "pay"; from: number; to: number; amount: bigint }
  | { kind: "buy"; from: number; to: number; ec: bigint }
  | { kind: "commit"; key: number; entry: number; credits: number }
  | { kind: "again"; index: number } // resubmit the index-th message built so far (mod their count)
  | { kind: "minute" };

/** Mostly the funded sand address, so that payments from the others have something to spend. */
const payer = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.nat(3) });
const amount = fc.oneof(fc.bigInt(0n, 100n * UNIT), fc.bigInt(0n, 25_000n * UNIT));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("pay"), from: payer, to: fc.nat(3), amount }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant("buy"), from: payer, to: fc.nat(1), ec: fc.bigInt(0n, 2_000n) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("commit"),
      key: fc.nat(1),
      entry: fc.nat(ENTRIES.length - 1),
      credits: fc.integer({ min: 1, max: 10 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("again"), index: fc.nat(50) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("minute") }) },
) as fc.Arbitrary<Step>;

type Message = { kind: "tx"; tx: Transaction } | { kind: "commit"; commit: EntryCommit };

/** The balances and spent value the rules must produce. */
class Model {
  readonly asset = new Map<string, bigint>([[toHex(rcdHashOf(sand)), SAND_GENESIS_BALANCE]]);
  readonly ec = new Map<string, bigint>();
  readonly txIds = new Set<string>();
  /** entry hash → credits of its accepted (live, unrevealed) commit */
  readonly paid = new Map<string, number>();
  fees = 0n;
  ecBought = 0n; // base units
  creditsBought = 0n;
  creditsSpent = 0n;

  /** Would the ledger accept `m`? If so, apply it. */
  apply(m: Message): boolean {
    if (m.kind === "tx") {
      const tx = m.tx;
      const id = toHex(tx.signedPart);
      const from = toHex(tx.inputs[0]!.address);
      const input = tx.inputs[0]!.amount;
      if (this.txIds.has(id) || (this.asset.get(from) ?? 0n) < input) return false;
      this.txIds.add(id);
      this.asset.set(from, (this.asset.get(from) ?? 0n) - input);
      let out = 0n;
      for (const o of tx.outputs) {
        this.asset.set(toHex(o.address), (this.asset.get(toHex(o.address)) ?? 0n) + o.amount);
        out += o.amount;
      }
      for (const o of tx.ecOutputs) {
        const credits = o.amount / LOCAL_RATE;
        this.ec.set(toHex(o.address), (this.ec.get(toHex(o.address)) ?? 0n) + credits);
        this.ecBought += o.amount;
        this.creditsBought += credits;
        out += o.amount;
      }
      this.fees += input - out;
      return true;
    }
    const c = m.commit;
    const key = toHex(c.ecPublicKey);
    const hash = toHex(c.entryHash);
    const existing = this.paid.get(hash);
    if (existing !== undefined && existing >= c.credits) return false;
    if ((this.ec.get(key) ?? 0n) < BigInt(c.credits)) return false;
    this.paid.set(hash, c.credits);
    this.ec.set(key, (this.ec.get(key) ?? 0n) - BigInt(c.credits));
    this.creditsSpent += BigInt(c.credits);
    return true;
  }
}

/** Submit `m`; true when accepted, false when refused with a LedgerError (anything else is a failure). */
async function submit(n: TestNode, m: Message): Promise<boolean> {
  try {
    if (m.kind === "tx") await n.ledger.submitTransaction(m.tx);
    else await n.ledger.submitCommit(m.commit);
    return true;
  } catch (e) {
    if (e instanceof LedgerError) return false;
    throw e;
  }
}

/** The message of `s` (built at the clock's time), or undefined for an end of minute. */
function messageOf(s: Step, clockMs: number, built: Message[]): Message | undefined {
  switch (s.kind) {
    case "pay":
      return {
        kind: "tx",
        tx: payment({
          from: ASSET_KEYS[s.from],
          milliTime: clockMs,
          outputs: [{ to: ASSET_KEYS[s.to]!, amount: s.amount }],
        }),
      };
    case "buy":
      return {
        kind: "tx",
        tx: payment({
          from: ASSET_KEYS[s.from],
          milliTime: clockMs,
          ec: [{ to: EC_KEYS[s.to]!, amount: s.ec * LOCAL_RATE }],
        }),
      };
    case "commit":
      return { kind: "commit", commit: entryCommit(ENTRIES[s.entry]!, clockMs, EC_KEYS[s.key], s.credits) };
    case "again":
      return built.length === 0 ? undefined : built[s.index % built.length];
    case "minute":
      return undefined;
  }
}

/** Submissions accepted and refused over the whole file (a property that never meets both proves little). */
const seen = { accepted: 0, refused: 0 };

/**
 * Run `steps` on `n`; each step advances the clock 100 ms. `built` collects the messages built so far (the
 * ones "again" resubmits). With `model`, check every step against it.
 */
async function run(n: TestNode, steps: readonly Step[], model?: Model, built: Message[] = []): Promise<void> {
  for (const s of steps) {
    n.clock.advance(100);
    if (s.kind === "minute") {
      await n.ledger.endMinute(n.clock.ms);
      continue;
    }
    const m = messageOf(s, n.clock.ms, built);
    if (m === undefined) continue;
    if (s.kind !== "again") built.push(m);
    const accepted = await submit(n, m);
    seen[accepted ? "accepted" : "refused"]++;
    if (model === undefined) continue;
    assert.equal(
      accepted,
      model.apply(m),
      `step ${JSON.stringify(s, (_k, v) => (typeof v === "bigint" ? `${v}` : v))}`,
    );
    checkBalances(n, model);
  }
}

function checkBalances(n: TestNode, model: Model): void {
  let assets = 0n;
  for (const k of ASSET_KEYS) {
    const have = n.ledger.assetBalance(rcdHashOf(k)).ack;
    assert.ok(have >= 0n, "an asset balance went negative");
    assert.equal(have, model.asset.get(toHex(rcdHashOf(k))) ?? 0n);
    assets += have;
  }
  assert.equal(assets + model.fees + model.ecBought, SAND_GENESIS_BALANCE, "asset value is conserved");
  let credits = 0n;
  for (const k of EC_KEYS) {
    const have = n.ledger.ecBalance(k.publicKey).ack;
    assert.ok(have >= 0n, "an EC balance went negative");
    assert.equal(have, model.ec.get(toHex(k.publicKey)) ?? 0n);
    credits += have;
  }
  assert.equal(credits + model.creditsSpent, model.creditsBought, "entry credits are conserved");
}

/** Hex of every saved directory, admin, EC and asset block, by height. */
function savedBlocks(n: TestNode): string[] {
  const out: string[] = [];
  for (let h = 0; ; h++) {
    const hashes = [BlockKind.directory, BlockKind.admin, BlockKind.ec, BlockKind.asset].map((k) =>
      n.store.blockHashAt(k, h),
    );
    if (hashes.every((x) => x === undefined)) return out;
    for (const hash of hashes) out.push(hash === undefined ? "none" : toHex(n.store.block(hash)!.raw));
  }
}

describe("ledger properties (fast-check)", () => {
  test("balances follow the model, value is conserved, each message lands at most once", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const dir = tempDir();
        const n = openNode(dir, { clock: new ManualClock(START_MS) });
        try {
          const model = new Model();
          await run(n, steps, model);
          await finishBlock(n);
          // once saved, the saved balances are the acknowledged ones
          for (const k of ASSET_KEYS) {
            const b = n.ledger.assetBalance(rcdHashOf(k));
            assert.equal(b.saved, b.ack);
          }
          checkBalances(n, model);
        } finally {
          await closeNode(n);
          cleanup(dir);
        }
      }),
      { seed: SEED, numRuns: 10 },
    );
    assert.ok(seen.accepted > 20 && seen.refused > 20, `accepted ${seen.accepted}, refused ${seen.refused}`);
  });

  test("the same ordered log gives byte-identical blocks, also restarted from the journal mid-block", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 14 }), fc.nat(), async (random, cutAt) => {
        // both EC keys funded first, so that commits land before the restart too
        const steps: Step[] = [
          { kind: "buy", from: 0, to: 0, ec: 300n },
          { kind: "buy", from: 0, to: 1, ec: 300n },
          ...random,
        ];
        const dirs = [tempDir(), tempDir(), tempDir()];
        const nodes = dirs.map((d) => openNode(d, { clock: new ManualClock(START_MS) }));
        try {
          const [a, b] = nodes as [TestNode, TestNode, TestNode];
          await run(a, steps);
          await finishBlock(a);
          await run(b, steps);
          await finishBlock(b);
          // the third: the first part, a restart (its open block rebuilt from the journal), the rest
          const cut = 3 + (cutAt % (random.length - 1));
          let c = nodes[2]!;
          const built: Message[] = [];
          await run(c, steps.slice(0, cut), undefined, built);
          await closeNode(c);
          c = openNode(dirs[2]!, { clock: c.clock });
          nodes[2] = c;
          await run(c, steps.slice(cut), undefined, built);
          await finishBlock(c);
          const blocks = savedBlocks(a);
          assert.ok(blocks.length >= 8, "at least genesis and one closed block");
          assert.deepEqual(savedBlocks(b), blocks);
          assert.deepEqual(savedBlocks(c), blocks);
        } finally {
          for (const n of nodes) await closeNode(n);
          for (const d of dirs) cleanup(d);
        }
      }),
      { seed: SEED, numRuns: 5 },
    );
  });
});
