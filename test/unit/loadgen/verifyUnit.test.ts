/**
 * The unit of the write figure (tools/loadgen/verifyUnit.ts): one single-thread libsodium verify, CPU µs,
 * measured on a fixed valid signature, before and after a phase and beside it (verifyUnitDuring.ts); and the
 * figure's arithmetic. No timing is asserted beyond "positive".
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { joinUnits, measureVerifyUnit, signatureChecksPerEntry } from "../../../tools/loadgen/verifyUnit.js";
import { VerifyUnitDuring } from "../../../tools/loadgen/verifyUnitDuring.js";

test("the verify unit is measured with sodium-native: positive CPU µs per verify, the median of its rounds", () => {
  const unit = measureVerifyUnit(3);
  assert.ok(unit !== undefined, "sodium-native loads on this platform (a dependency of the node)");
  assert.equal(unit.rounds.length, 3);
  assert.ok(unit.rounds.every((us) => us > 0 && Number.isFinite(us)));
  assert.equal(unit.us, [...unit.rounds].sort((a, b) => a - b)[1]);
});

test("signature checks per entry = node CPU µs per entry ÷ µs per verify, 2 decimals; joined units take the median of all rounds", () => {
  assert.equal(signatureChecksPerEntry(191, { us: 48, rounds: [48] }), 3.98);
  const joined = joinUnits({ us: 50, rounds: [40, 50, 60] }, { us: 90, rounds: [80, 90, 100] });
  assert.deepEqual(joined, { us: 70, rounds: [40, 50, 60, 80, 90, 100] });
  assert.equal(joinUnits(undefined, { us: 5, rounds: [5] })?.us, 5);
  assert.equal(joinUnits(undefined, undefined), undefined);
});

test("the unit beside the writes: a worker thread's rounds of its own CPU time per verify; the total over them", async () => {
  const during = VerifyUnitDuring.start();
  assert.ok(during !== undefined, "sodium-native and /proc/thread-self/schedstat are there (Linux)");
  // the worker runs its first round while its module loads, before it can hear the stop (no wait needed);
  // stop waits for its answer
  const unit = await during.stop();
  assert.ok(unit !== undefined && unit.rounds.length >= 1, "at least the first round ran");
  assert.ok(unit.rounds.every((us) => us >= 0 && Number.isFinite(us)));
  // the total over the rounds: their mean, each round being ROUND_VERIFIES verifies
  const mean = unit.rounds.reduce((a, b) => a + b, 0) / unit.rounds.length;
  assert.ok(Math.abs(unit.us - mean) < 1e-6 * Math.max(1, mean));
  assert.ok(unit.us > 0, "a round of verifies takes CPU time");
});
