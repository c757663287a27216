/**
 * A big block closes whole: 2,000 entries in 50 chains, every chain's entry block in the directory block.
 * How long the close of BIG_BLOCK (10,000 entries) holds the main thread is a budget row of `make bench`
 * (bench/budgets.ts, `budget.ledger.close10k`, < 250 ms of CPU), not an assert here: no timing asserts in
 * `make test`. A fifth of that block checks the same (two submission batches, every chain in the directory
 * block) in a fifth of the time: 10,000 entries took 81–114 s of the unit tier on the loaded machine.
 */

import assert from "node:assert/strict";
import { test } from "node:test";
import { processListView } from "../../../src/rpc/debug/processList.js";
import { BIG_BLOCK, submitBigBlock } from "../../support/workloads.js";
import { cleanup, closeNode, finishBlock, openNode, tempDir } from "./harness.js";

const CHAINS = BIG_BLOCK.chains;
/** Entries of the block: more than one submission batch (1,000 in flight), a fifth of BIG_BLOCK's. */
const ENTRIES = 2_000;

test(`a block of ${ENTRIES} entries in ${CHAINS} chains closes with all of them`, async () => {
  const dir = tempDir();
  const n = openNode(dir);
  try {
    await submitBigBlock(n, { chains: CHAINS, entries: ENTRIES });
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
