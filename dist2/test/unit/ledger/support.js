import assert from "node:assert/strict";
import { LedgerError } from "../../../src/ledger/errors.js";
import { ecKey, rcdHashOf, sand } from "./harness.js";
/** Await `p` and assert it rejects with LedgerError `code`; returns the error's type for more checks. */
export async function rejectsWith(p, code) {
    try {
        await p;
    }
    catch (e) {
        assert.ok(e instanceof LedgerError, `expected LedgerError ${code}, got ${String(e)}`);
        assert.equal(e.type.code, code, `expected ${code}, got ${JSON.stringify(e.type, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}`);
        return e.type;
    }
    assert.fail(`expected LedgerError ${code}, but the call succeeded`);
}
/**
 * A fingerprint of everything a rejected submission must leave unchanged: the process list, the journal,
 * the holding queue and the counters other than `rejected`.
 */
export function snapshot(n) {
    const { rejected: _r, ...stats } = n.ledger.stats();
    return JSON.stringify({
        pl: n.ledger.processList(),
        held: n.ledger.holdingQueue().length,
        journal: n.store.journalRecords(n.ledger.openBlock().height).map((r) => r.seq),
        stats,
        sand: n.ledger.assetBalance(rcdHashOf(sand)),
        ec: n.ledger.ecBalance(ecKey.publicKey),
    }, (_k, v) => (typeof v === "bigint" ? v.toString() : v));
}
/** Run `submit`, expect rejection `code`, and check that nothing changed. */
export async function rejectedWithoutChange(n, submit, code) {
    const before = snapshot(n);
    const type = await rejectsWith(submit(), code);
    assert.equal(snapshot(n), before, `a rejected submission (${code}) changed the ledger state`);
    return type;
}
//# sourceMappingURL=support.js.map