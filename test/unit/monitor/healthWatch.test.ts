// The health watch logs each check's change once: a warning when it starts failing, an info line when it
// passes again, nothing for the looks in between (src/monitor/health.ts HealthWatch).
import assert from "node:assert/strict";
import { test } from "node:test";
import { HealthChecks, HealthWatch } from "../../../src/monitor/health.js";

test("one warning when a check starts failing, one line when it passes again, none for the looks in between", () => {
  let ok = true;
  const checks = new HealthChecks([
    { name: "storage", check: () => (ok ? { ok, detail: "writable" } : { ok, detail: "writes refused" }) },
    { name: "booted", check: () => ({ ok: true, detail: "yes" }) },
  ]);
  const lines: string[] = [];
  const watch = new HealthWatch(
    { intervalMs: 60_000 },
    {
      health: checks,
      log: { info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`) },
      now: () => 0,
    },
  );
  watch.look();
  assert.deepEqual(lines, [], "passing checks log nothing");
  ok = false;
  for (let i = 0; i < 3; i++) watch.look();
  assert.deepEqual(lines, ["warn health check storage failing: writes refused"]);
  ok = true;
  for (let i = 0; i < 3; i++) watch.look();
  assert.deepEqual(lines, [
    "warn health check storage failing: writes refused",
    "info health check storage passes again: writable",
  ]);
  ok = false;
  watch.look();
  assert.equal(lines.length, 3, "a second failure is a new change");
});
