/**
 * The negative filter in front of the saved paid-commit read (ledger/recentPaidCommits.ts), and the store's bound
 * it starts from (store/blockSet.ts `mergePaidCommitBound`, META_KEYS.paidCommitBound): it never answers "none
 * live" for a hash that has a live saved paid commit, whichever way the commit reached the store (a close of
 * this ledger, or a store opened with it), and it only answers at all where the store keeps its bound. Real
 * ledger over LMDB in a temp directory for the rules; the filter alone for its own edges.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, test } from "node:test";
import { COMMIT_LIFETIME_MS } from "../../../src/ledger/constants.js";
import { GENERATION_HASHES, type PaidCommitKeys, RecentPaidCommits } from "../../../src/ledger/recentPaidCommits.js";
import { toHex } from "../../../src/protocol/bytes.js";
import { paidCommitBoundBytes } from "../../../src/store/blockSet.js";
import { openDatabases, openEnvironment } from "../../../src/store/environment.js";
import { META_KEYS } from "../../../src/store/keys.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  entryCommit,
  entryRaw,
  finishBlock,
  firstEntry,
  ManualClock,
  openNode,
  type TestNode,
  tempDir,
} from "./harness.js";
import { rejectedWithoutChange } from "./support.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

/** A closed block's paid commits as the filter reads them: hashes laid out in one buffer, at an offset. */
function block(paid: { hash: Uint8Array; milliTime: number }[]): PaidCommitKeys {
  const bytes = new Uint8Array(7 + 32 * paid.length);
  for (const [i, p] of paid.entries()) bytes.set(p.hash, 7 + 32 * i);
  return {
    forEachPaid(fn) {
      for (const [i, p] of paid.entries()) fn(bytes, 7 + 32 * i, p.milliTime);
    },
  };
}

function hashes(n: number): Uint8Array[] {
  return Array.from({ length: n }, () => new Uint8Array(randomBytes(32)));
}

describe("recent paid commits: the filter alone", () => {
  test("without the store's bound it never answers", () => {
    const f = new RecentPaidCommits(undefined);
    assert.equal(f.noneLive(new Uint8Array(32), Number.MAX_SAFE_INTEGER), false);
    assert.equal(f.boundMs, Number.POSITIVE_INFINITY);
  });

  test("a hash outside the generations: none live exactly once the bound is past the lifetime", () => {
    const bound = T0;
    const f = new RecentPaidCommits(bound);
    const h = new Uint8Array(randomBytes(32));
    // a saved commit at the bound is live while now − bound ≤ COMMIT_LIFETIME_MS
    assert.equal(f.noneLive(h, bound + COMMIT_LIFETIME_MS), false);
    assert.equal(f.noneLive(h, bound + COMMIT_LIFETIME_MS + 1), true);
  });

  test("every hash added is kept (no false negative), at any offset; a fresh hash is mostly answered", () => {
    const f = new RecentPaidCommits(0);
    const added = hashes(20_000);
    f.addBlock(block(added.map((hash, i) => ({ hash, milliTime: T0 + i }))));
    const now = T0 + 10 * COMMIT_LIFETIME_MS;
    for (const h of added) assert.equal(f.noneLive(h, now), false, toHex(h));
    const fresh = hashes(20_000);
    const answered = fresh.filter((h) => f.noneLive(h, now)).length;
    // ~10 bits a hash at capacity; far emptier here: false positives (reads of the store) well under 1 %
    assert.ok(answered > 19_800, `answered ${answered} of 20,000`);
    assert.deepEqual(f.generationSizes, [20_000]);
  });

  test("a full generation of the default size: ~1 % false positives, and the next hash starts a second", () => {
    const f = new RecentPaidCommits(0);
    const all = new Uint8Array(randomBytes(32 * GENERATION_HASHES));
    const full: PaidCommitKeys = {
      forEachPaid(fn) {
        for (let i = 0; i < GENERATION_HASHES; i++) fn(all, 32 * i, T0);
      },
    };
    f.addBlock(full);
    assert.deepEqual(f.generationSizes, [GENERATION_HASHES]);
    const now = T0 + COMMIT_LIFETIME_MS + 1;
    for (let i = 0; i < GENERATION_HASHES; i += 997)
      assert.equal(f.noneLive(all.subarray(32 * i, 32 * i + 32), now), false);
    const tries = 100_000;
    const fresh = new Uint8Array(randomBytes(32 * tries));
    let positives = 0;
    for (let i = 0; i < tries; i++) if (!f.noneLive(fresh.subarray(32 * i, 32 * i + 32), now)) positives++;
    // ~10.5 bits a hash, 4 probes in a 512-bit block: ~1–1.5 % expected
    assert.ok(positives > 200 && positives < 2500, `${positives} false positives of ${tries}`);
    f.addBlock(block([{ hash: fresh.subarray(0, 32), milliTime: T0 }]));
    assert.deepEqual(f.generationSizes, [GENERATION_HASHES, 1]);
  });

  test("generations: a full one starts the next; the oldest dropped raises the bound to its latest timestamp", () => {
    const f = new RecentPaidCommits(T0, { generationHashes: 3, maxGenerations: 2 });
    const [a, b, c, d, e, g, h] = hashes(7);
    f.addBlock(
      block([
        { hash: a!, milliTime: T0 + 5_000 },
        { hash: b!, milliTime: T0 + 9_000 },
        { hash: c!, milliTime: T0 + 1_000 },
      ]),
    );
    f.addBlock(block([{ hash: d!, milliTime: T0 + 2_000 }]));
    assert.deepEqual(f.generationSizes, [3, 1]);
    assert.equal(f.boundMs, T0);
    f.addBlock(
      block([
        { hash: e!, milliTime: T0 + 3_000 },
        { hash: g!, milliTime: T0 + 4_000 },
        { hash: h!, milliTime: T0 + 100 },
      ]),
    );
    // d's generation filled at e and g; h started a third, and the first (latest T0 + 9 s) went
    assert.deepEqual(f.generationSizes, [3, 1]);
    assert.equal(f.boundMs, T0 + 9_000);
    // a, b, c are the store's only now: dead once the dropped generation's latest is past the lifetime
    assert.equal(f.noneLive(a!, T0 + 9_000 + COMMIT_LIFETIME_MS), false);
    const later = T0 + 9_000 + COMMIT_LIFETIME_MS + 1;
    for (const x of [d!, e!, g!, h!]) assert.equal(f.noneLive(x, later), false);
  });

  test("a generation's latest timestamp is its greatest, not its last", () => {
    const f = new RecentPaidCommits(T0, { generationHashes: 2, maxGenerations: 1 });
    const [a, b, c] = hashes(3);
    f.addBlock(
      block([
        { hash: a!, milliTime: T0 + 7_000 },
        { hash: b!, milliTime: T0 + 2_000 },
        { hash: c!, milliTime: T0 + 1_000 },
      ]),
    );
    assert.equal(f.boundMs, T0 + 7_000);
  });
});

describe("recent paid commits: the rules over a real store", () => {
  let unique = 0;
  const newChain = () => firstEntry(["recent paid", String(unique++)], "content");

  async function reopen(n: TestNode): Promise<TestNode> {
    await n.ledger.flush();
    await closeNode(n);
    return openNode(n.dir, { clock: new ManualClock(n.clock.ms) });
  }

  test("the store keeps its bound with each save: a fresh store's is genesis's, then each paid commit's latest", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      assert.equal(n.store.paidCommitBound(), 0);
      await buyEC(n, ecKey, 100n);
      const chain = newChain();
      const c = chainCommit(chain.raw, n.clock.ms - 60_000);
      await n.ledger.submitCommit(c);
      await n.ledger.submitReveal(chain.raw);
      const later = entryRaw(chain.chainId, ["x"], "later");
      const e = entryCommit(later, n.clock.ms - 120_000);
      await n.ledger.submitCommit(e);
      await finishBlock(n);
      await n.ledger.flush();
      assert.equal(n.store.paidCommitBound(), c.milliTime);
      n = await reopen(n);
      assert.equal(n.store.paidCommitBound(), c.milliTime);
      // a block without paid commits leaves it
      await finishBlock(n);
      await n.ledger.flush();
      assert.equal(n.store.paidCommitBound(), c.milliTime);
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a commit paid before a restart is still repeated after it, until its lifetime ends", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      await buyEC(n, ecKey, 100n);
      const chain = newChain();
      const c = chainCommit(chain.raw, n.clock.ms);
      await n.ledger.submitCommit(c);
      await n.ledger.submitReveal(chain.raw);
      // an entry commit paid and never revealed, saved with the block
      const unrevealed = entryRaw(chain.chainId, ["y"], "waiting");
      const e = entryCommit(unrevealed, n.clock.ms);
      await n.ledger.submitCommit(e);
      await finishBlock(n);
      n = await reopen(n);
      await rejectedWithoutChange(n, () => n.ledger.submitCommit(c), "REPEATED_COMMIT");
      await rejectedWithoutChange(n, () => n.ledger.submitCommit(e), "REPEATED_COMMIT");
      // its saved commit still pays for the reveal
      await n.ledger.submitReveal(unrevealed);
      await finishBlock(n);
      await rejectedWithoutChange(n, () => n.ledger.submitCommit(e), "REPEATED_COMMIT");
      // past the lifetime the same entry hash may be paid again
      n.clock.advance(COMMIT_LIFETIME_MS + 1);
      await n.ledger.submitCommit(entryCommit(unrevealed, n.clock.ms));
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a commit paid in a block this ledger closed is repeated after the block's save, until its lifetime ends", async () => {
    const n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      await buyEC(n, ecKey, 100n);
      const chain = newChain();
      const e = entryCommit(entryRaw(chain.chainId, ["z"], "paid"), n.clock.ms);
      await n.ledger.submitCommit(e);
      await finishBlock(n);
      await n.ledger.flush();
      await finishBlock(n);
      await n.ledger.flush();
      await rejectedWithoutChange(n, () => n.ledger.submitCommit(e), "REPEATED_COMMIT");
      n.clock.advance(COMMIT_LIFETIME_MS + 1);
      await n.ledger.submitCommit(entryCommit(entryRaw(chain.chainId, ["z"], "paid"), n.clock.ms));
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });

  test("a save over a store whose bound was left behind removes it: the filter then never answers", async () => {
    let n = openNode(tempDir(), { clock: new ManualClock(T0) });
    try {
      await buyEC(n, ecKey, 100n);
      await finishBlock(n);
      await n.ledger.flush();
      const height = n.ledger.openBlock().height - 1;
      assert.equal(n.store.paidCommitBound(), 0);
      await closeNode(n);
      // as a version that kept no bound leaves it after saving a height: the record names the height before
      const env = openEnvironment(n.store.path, "store");
      try {
        const dbs = openDatabases(env);
        env.transactionSync(() =>
          dbs.meta.putSync(Buffer.from(META_KEYS.paidCommitBound, "ascii"), paidCommitBoundBytes(height - 1, 0)),
        );
      } finally {
        await env.close();
      }
      n = openNode(n.dir, { clock: new ManualClock(n.clock.ms) });
      assert.equal(n.store.paidCommitBound(), undefined);
      const chain = newChain();
      const c = chainCommit(chain.raw, n.clock.ms);
      await n.ledger.submitCommit(c);
      await n.ledger.submitReveal(chain.raw);
      await finishBlock(n);
      await n.ledger.flush();
      assert.equal(n.store.paidCommitBound(), undefined);
      n = await reopen(n);
      assert.equal(n.store.paidCommitBound(), undefined);
      await rejectedWithoutChange(n, () => n.ledger.submitCommit(c), "REPEATED_COMMIT");
    } finally {
      await closeNode(n);
      cleanup(n.dir);
    }
  });
});
