/**
 * A big block closes whole: 10,000 entries in 50 chains, every chain's entry block in the directory block.
 * How long the close holds the main thread is a budget row of `make bench` (bench/budgets.ts,
 * `budget.ledger.close10k`, < 250 ms of CPU), not an assert here: no timing asserts in `make test`.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import type { Commit } from "../../../src/protocol/commit.js";
import { processListView } from "../../../src/rpc/debug/processList.js";
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
  openNode,
  tempDir,
} from "./harness.js";

const CHAINS = 50;
const ENTRIES = 10_000;
/** Submissions in flight at once (their journal writes share LMDB commits). */
const CONCURRENCY = 1000;

async function inBatches<T>(items: T[], fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += CONCURRENCY) await Promise.all(items.slice(i, i + CONCURRENCY).map(fn));
}

test(`a block of ${ENTRIES} entries in ${CHAINS} chains closes with all of them`, async () => {
  const dir = tempDir();
  const n = openNode(dir);
  try {
    await buyEC(n, ecKey, BigInt(CHAINS * 11 + ENTRIES));
    const chains = Array.from({ length: CHAINS }, (_, i) => firstEntry(["perf", String(i)], `chain ${i}`));
    const reveals: Uint8Array[] = [];
    const commits: Commit[] = [];
    for (const c of chains) {
      commits.push(chainCommit(c.raw, n.clock.ms));
      reveals.push(c.raw);
    }
    for (let i = 0; reveals.length < ENTRIES; i++) {
      const raw = entryRaw(chains[i % CHAINS]!.chainId, [`e${i}`], `entry ${i} `.padEnd(100, "."));
      commits.push(entryCommit(raw, n.clock.ms));
      reveals.push(raw);
    }
    await inBatches(commits, (c) => n.ledger.submitCommit(c));
    await inBatches(reveals, (r) => n.ledger.submitReveal(r));
    assert.equal(processListView(n.ledger.processList()).entries.length, ENTRIES);

    await finishBlock(n);
    // CPU time of the (single-threaded, synchronous) close: wall time on a shared machine includes other
    // processes' turns; both are printed.
    const closeMs = n.ledger.stats().lastCloseCpuMs!;
    const d = n.ledger.directoryBlockByHeight(1)!.block;
    assert.equal(d.entries.length, 3 + CHAINS);
    const s = n.ledger.stats();
    console.log(
      `block close: ${ENTRIES} entries in ${CHAINS} chains: ${closeMs.toFixed(1)} ms CPU, ` +
        `${s.lastCloseMs!.toFixed(1)} ms wall (packing the save ${s.lastCloseSaveMs!.toFixed(1)} ms), ` +
        `longest turn ${s.lastCloseLongestTurnMs!.toFixed(1)} ms; writer thread ${s.lastCloseWriteMs!.toFixed(1)} ms`,
    );
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
});
