/**
 * `make bench-check`'s verdicts (bench/check.ts compareRows): over budget fails, more than 2× worse than the
 * baseline fails, within both passes; rows without figures or without a baseline never fail; ratios are read
 * against the calibration row of the same run, within a clamp that keeps the check able to fail.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { CALIBRATION_ID, calibrationRow } from "../../../bench/calibration.js";
import {
  betterOf,
  compareRows,
  MAX_CALIBRATION_CREDIT,
  MAX_REGRESSION,
  machineDifference,
  machineSlowdown,
} from "../../../bench/check.js";
import type { MachineDescription } from "../../../bench/machine.js";
import type { BenchRow } from "../../../bench/row.js";

function row(id: string, opsPerSec: number, budget?: { value: number; limit: number }): BenchRow {
  return {
    id,
    section: "t",
    name: id,
    opsPerSec,
    meanUs: 1e6 / Math.max(opsPerSec, 1),
    p99Us: 0,
    samples: opsPerSec === 0 ? 0 : 10,
    ...(budget ? { budget: { ...budget, unit: "ms" } } : {}),
  };
}

test("a micro row fails only when more than 2× slower than its baseline", () => {
  const base = [row("a", 1000), row("b", 1000)];
  const [a, b] = compareRows([row("a", 1000 / (MAX_REGRESSION - 0.1)), row("b", 1000 / (MAX_REGRESSION + 0.1))], base);
  assert.equal(a!.failed, false, a!.why);
  assert.equal(b!.failed, true);
  assert.match(b!.why, /2\.10× worse/);
});

test("a budget row fails over its limit, and when its value is more than 2× the baseline's", () => {
  const base = [row("c", 10, { value: 50, limit: 250 }), row("d", 10, { value: 50, limit: 250 })];
  const [over, regressed] = compareRows(
    [row("c", 10, { value: 251, limit: 250 }), row("d", 10, { value: 101, limit: 250 })],
    base,
  );
  assert.equal(over!.overBudget, true);
  assert.equal(over!.failed, true);
  assert.equal(regressed!.overBudget, false);
  assert.equal(regressed!.failed, true);
  const [fine] = compareRows([row("c", 10, { value: 99, limit: 250 })], base);
  assert.equal(fine!.failed, false, fine!.why);
});

test("a measurement that failed (NaN) is over budget; skipped rows and new rows never fail", () => {
  const [nan] = compareRows([row("e", 10, { value: Number.NaN, limit: 160 })], []);
  assert.equal(nan!.failed, true);
  const [skipped, fresh] = compareRows([row("f", 0), row("g", 5)], [row("f", 100)]);
  assert.equal(skipped!.failed, false);
  assert.equal(fresh!.failed, false);
  assert.match(fresh!.why, /no baseline/);
});

test("a row measured twice counts with its better measurement", () => {
  const first = [row("a", 100), row("b", 10, { value: 90, limit: 250 }), row("c", 0)];
  const second = [row("a", 300), row("b", 10, { value: 120, limit: 250 }), row("c", 7)];
  const best = betterOf(first, second);
  assert.equal(best[0]!.opsPerSec, 300);
  assert.equal(best[1]!.budget!.value, 90);
  assert.equal(best[2]!.opsPerSec, 7, "a row that failed to run the first time takes the second measurement");
});

test("ratios are read against the calibration row: a machine 1.8× slower now excuses a row 3× slower, not 4.1×", () => {
  const base = [row(CALIBRATION_ID, 100), row("a", 1000), row("b", 1000), row("c", 10, { value: 50, limit: 250 })];
  const slow = row(CALIBRATION_ID, 100 / 1.8);
  assert.equal(machineSlowdown([slow], base).toFixed(2), "1.80");
  const [cal, a, b, c] = compareRows(
    [slow, row("a", 1000 / 3), row("b", 1000 / 4.1), row("c", 10, { value: 170, limit: 250 })],
    base,
  );
  assert.equal(cal!.failed, false, "the calibration row never fails itself");
  assert.equal(a!.failed, false, a!.why);
  assert.equal(a!.worse, 1.67);
  assert.equal(b!.failed, true, "4.1 / 1.8 = 2.28× is still over the limit");
  assert.match(b!.why, /machine 1\.80× slower/);
  assert.equal(c!.failed, false, "a budget row's value too: 170 / 50 / 1.8 = 1.89×");
});

test("the calibration credit is clamped: no machine state excuses a row more than 4× worse, and a faster machine tightens", () => {
  const base = [row(CALIBRATION_ID, 100), row("a", 1000), row("b", 1000)];
  const crawling = row(CALIBRATION_ID, 100 / 10);
  assert.equal(machineSlowdown([crawling], base), MAX_CALIBRATION_CREDIT);
  const [, a] = compareRows([crawling, row("a", 1000 / (MAX_REGRESSION * MAX_CALIBRATION_CREDIT + 0.2))], base);
  assert.equal(a!.failed, true, a!.why);
  const fast = row(CALIBRATION_ID, 100 * 1.5);
  const [, b] = compareRows([fast, row("b", 1000 / 1.5)], base);
  assert.equal(b!.failed, true, "1.5× slower on a machine running 1.5× faster is 2.25× worse");
});

test("without a calibration row on either side the ratios are the raw ones", () => {
  const base = [row("a", 1000)];
  assert.equal(machineSlowdown([row(CALIBRATION_ID, 10)], base), 1);
  assert.equal(machineSlowdown([], [row(CALIBRATION_ID, 10)]), 1);
  const [a] = compareRows([row("a", 1000 / 2.1)], base);
  assert.equal(a!.failed, true);
});

test("the calibration row measures something: positive CPU figures over its rounds", () => {
  const r = calibrationRow();
  assert.equal(r.id, CALIBRATION_ID);
  assert.ok(r.opsPerSec > 0 && Number.isFinite(r.opsPerSec), JSON.stringify(r));
  assert.equal(r.roundOpsPerSec!.length, r.samples);
});

test("a row with its own maxRegression (the write figure) fails past it, and the calibration does not excuse it", () => {
  const figure = (value: number): BenchRow => ({
    ...row("budget.writes.signatureChecks", 7000),
    budget: { value, limit: 6, unit: "verifies/entry", maxRegression: 1.1 },
  });
  // this run's calibration 1.8× slower than the baseline's: a plain row would be excused by 1.8
  const base = [{ ...calibrationRow(), id: CALIBRATION_ID, opsPerSec: 1800 }, figure(4)];
  const now = { ...calibrationRow(), id: CALIBRATION_ID, opsPerSec: 1000 };
  const [, within] = compareRows([now, figure(4.36)], base);
  assert.equal(within!.failed, false, within!.why);
  assert.equal(within!.worse, 1.09);
  const [, regressed] = compareRows([now, figure(4.48)], base);
  assert.equal(regressed!.failed, true);
  assert.match(regressed!.why, /1\.12× worse than the baseline \(limit 1\.1×\)/);
  const [, over] = compareRows([now, figure(6.2)], [base[0]!, figure(6)]);
  assert.equal(over!.overBudget, true, "over its ceiling fails whatever the baseline");
});

test("a baseline of another machine is named as such: its CPU, cores or Node differ; the load and memory do not count", () => {
  const here: MachineDescription = {
    cpuModel: "AMD EPYC",
    cpus: 2,
    memoryGiB: 23.5,
    node: "v20.20.2",
    platform: "linux",
    arch: "x64",
    loadAverage1m: 0.8,
  };
  assert.equal(machineDifference(here, { ...here, loadAverage1m: 23.8, memoryGiB: 7.8 }), "");
  assert.equal(
    machineDifference(here, { ...here, cpuModel: "Intel(R) Xeon(R) Processor" }),
    "CPU Intel(R) Xeon(R) Processor, here AMD EPYC",
  );
  assert.equal(
    machineDifference(here, { ...here, cpus: 4, node: "v20.19.0" }),
    "4 cores, here 2; Node v20.19.0, here v20.20.2",
  );
  assert.equal(machineDifference(here, undefined), "the baseline names no machine");
});
