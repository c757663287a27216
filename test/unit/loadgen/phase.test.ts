import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { PhaseRecorder, runWorkers } from "../../../tools/loadgen/phase.js";

describe("loadgen phase recorder and workers", () => {
  test("records successes, errors with their first messages, and per-method latency", () => {
    const rec = new PhaseRecorder();
    assert.equal(rec.record("entry", { ms: 1, result: {} }), true);
    for (let i = 0; i < 8; i++)
      assert.equal(
        rec.record("commit-entry", { ms: 2, error: { code: -32011, message: "Repeated Commit", data: { i } } }),
        false,
      );
    assert.equal(rec.requests, 9);
    assert.equal(rec.errors, 8);
    assert.equal(rec.errorSamples.length, 5);
    assert.match(rec.errorSamples[0]!, /^commit-entry: -32011 Repeated Commit \{"i":0\}$/);
    assert.deepEqual(Object.keys(rec.methodSummaries()).sort(), ["commit-entry", "entry"]);
    const t = rec.timelineSeconds();
    assert.equal(
      t.reduce((n, s) => n + s.requests, 0),
      9,
    );
    assert.equal(
      t.reduce((n, s) => n + s.errors, 0),
      8,
    );
  });

  test("workers stop when steps run out, and each step runs once per claim", async () => {
    const rec = new PhaseRecorder();
    let next = 0;
    const done: number[] = [];
    // the duration is out of reach: the workers can only stop because the steps ran out
    await runWorkers({ concurrency: 7, durationMs: 3_600_000, maxErrors: 10 }, rec, async () => {
      const i = next++;
      if (i >= 100) return false;
      await new Promise((r) => setImmediate(r));
      done.push(i);
      return true;
    });
    assert.equal(done.length, 100);
    assert.deepEqual(
      [...new Set(done)].sort((a, b) => a - b),
      Array.from({ length: 100 }, (_, i) => i),
    );
  });

  test("workers stop at the error budget", async () => {
    const rec = new PhaseRecorder();
    let calls = 0;
    await runWorkers({ concurrency: 4, durationMs: 10_000, maxErrors: 20 }, rec, async () => {
      calls++;
      await new Promise((r) => setImmediate(r));
      rec.record("x", { ms: 0, error: { code: -1, message: "down" } });
      return true;
    });
    assert.ok(rec.errors >= 20 && rec.errors < 20 + 4, `errors ${rec.errors}`);
    assert.equal(calls, rec.errors);
  });
});
