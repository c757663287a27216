/**
 * The saved state's chain existence (savedState.ts `chainExists`, issue 35): the same answer as a chain head read
 * (`chainHead(id) !== undefined`) for chains saved and unknown, a saved chain remembered (no store read next
 * time), an unknown one not, and the remembered set started again at KNOWN_CHAINS_LIMIT. Real ledger and LMDB
 * store in a temp directory.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { KNOWN_CHAINS_LIMIT, SavedState } from "../../../src/ledger/savedState.js";
import { toHex } from "../../../src/protocol/bytes.js";
import {
  buyEC,
  chainCommit,
  cleanup,
  closeNode,
  ecKey,
  endMinutes,
  entryCommit,
  entryRaw,
  firstEntry,
  ManualClock,
  openNode,
  tempDir,
} from "./harness.js";

const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);

test("a saved chain exists and is remembered; an unknown chain does not and is not; the set starts again when full", async () => {
  const dir = tempDir();
  const n = openNode(dir, { clock: new ManualClock(T0) });
  try {
    await buyEC(n, ecKey, 100n);
    const a = firstEntry(["saved chains", "a"], "first");
    await n.ledger.submitCommit(chainCommit(a.raw, n.clock.ms));
    await n.ledger.submitReveal(a.raw);
    await endMinutes(n, 10);
    await n.ledger.flush();

    const known = new Set<string>();
    const saved = new SavedState(n.store, known);
    const unknown = firstEntry(["saved chains", "never"], "x").chainId;
    assert.equal(saved.chainExists(unknown, toHex(unknown)), false);
    assert.equal(saved.chainExists(unknown, toHex(unknown)), saved.chainHead(unknown) !== undefined);
    assert.equal(known.size, 0, "an unknown chain is not remembered");
    assert.equal(saved.chainExists(a.chainId, toHex(a.chainId)), true);
    assert.equal(saved.chainHead(a.chainId) !== undefined, true);
    assert.deepEqual([...known], [toHex(a.chainId)]);
    // a copy (what readers get at a close) shares what was learnt
    assert.equal(saved.copy().chainExists(a.chainId, toHex(a.chainId)), true);
    assert.equal(known.size, 1);

    // full: started again with the chain asked for
    const full = new Set<string>(
      Array.from({ length: KNOWN_CHAINS_LIMIT }, (_, i) => i.toString(16).padStart(64, "0")),
    );
    const bounded = new SavedState(n.store, full);
    assert.equal(bounded.chainExists(a.chainId, toHex(a.chainId)), true);
    assert.deepEqual([...full], [toHex(a.chainId)]);

    // the rules through it: an entry of the saved chain is paid and revealed, one of an unknown chain is refused
    const e = entryRaw(a.chainId, ["next"], "second");
    await n.ledger.submitCommit(entryCommit(e, n.clock.ms));
    await n.ledger.submitReveal(e);
    assert.equal(n.ledger.stats().revealsAccepted, 2);
    await assert.rejects(n.ledger.submitReveal(entryRaw(unknown, ["x"], "y")), /CHAIN_NOT_FOUND|chain/i);
  } finally {
    await closeNode(n);
    cleanup(dir);
  }
});
