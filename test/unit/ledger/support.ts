import assert from "node:assert/strict";
import { LedgerError, type LedgerErrorType } from "../../../src/ledger/errors.js";
import { processListView } from "../../../src/rpc/debug/processList.js";
import { ecKey, rcdHashOf, sand, type TestNode } from "./harness.js";

/** Await `p` and assert it rejects with LedgerError `code`; returns the error's type for more checks. */
export async function rejectsWith<C extends LedgerErrorType["code"]>(
  p: Promise<unknown>,
  code: C,
): Promise<Extract<LedgerErrorType, { code: C }>> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LedgerError, `expected LedgerError ${code}, got ${String(e)}`);
    assert.equal(
      e.type.code,
      code,
      `expected ${code}, got ${JSON.stringify(e.type, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}`,
    );
    return e.type as Extract<LedgerErrorType, { code: C }>;
  }
  assert.fail(`expected LedgerError ${code}, but the call succeeded`);
}

/**
 * A fingerprint of everything a rejected submission must leave unchanged: the process list, the journal,
 * the holding queue and the counters other than `rejected`.
 */
export function snapshot(n: TestNode): string {
  const { rejected: _r, ...stats } = n.ledger.stats();
  return JSON.stringify(
    {
      pl: processListView(n.ledger.processList()),
      held: n.ledger.holdingQueue().length,
      journal: n.store.journalRecords(n.ledger.openBlock().height).map((r) => r.seq),
      stats,
      sand: n.ledger.assetBalance(rcdHashOf(sand)),
      ec: n.ledger.ecBalance(ecKey.publicKey),
    },
    (_k, v) => (typeof v === "bigint" ? v.toString() : v),
  );
}

/** Run `submit`, expect rejection `code`, and check that nothing changed. */
export async function rejectedWithoutChange<C extends LedgerErrorType["code"]>(
  n: TestNode,
  submit: () => Promise<unknown>,
  code: C,
): Promise<Extract<LedgerErrorType, { code: C }>> {
  const before = snapshot(n);
  const type = await rejectsWith(submit(), code);
  assert.equal(snapshot(n), before, `a rejected submission (${code}) changed the ledger state`);
  return type;
}
