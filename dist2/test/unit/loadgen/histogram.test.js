import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { bucketIndex, bucketUpperBound, HISTOGRAM_MAX_MICROS, LatencyHistogram, percentileOfSorted, } from "../../../tools/loadgen/histogram.js";
import { Random } from "../../support/random.js";
/** Relative resolution the histogram promises above 256 µs. */
const RESOLUTION = 1 / 128;
describe("loadgen histogram buckets", () => {
    test("values below 256 µs are exact buckets", () => {
        for (let v = 0; v < 256; v++) {
            assert.equal(bucketIndex(v), v);
            assert.equal(bucketUpperBound(v), v);
        }
    });
    test("every value lies in its bucket and the bucket is at most 1/128 wide (relative)", () => {
        const rng = new Random(0x4157);
        const values = [256, 257, 511, 512, 513, 1023, 1024, 65_535, 65_536, HISTOGRAM_MAX_MICROS];
        for (let i = 0; i < 20_000; i++)
            values.push(rng.int(0, 2 ** rng.int(1, 31) - 1));
        for (const v of values) {
            const i = bucketIndex(v);
            const upper = bucketUpperBound(i);
            const lower = i === 0 ? 0 : bucketUpperBound(i - 1) + 1;
            assert.ok(lower <= v && v <= upper, `value ${v}: bucket ${i} is ${lower}..${upper}`);
            assert.ok(upper - lower <= Math.max(0, lower * RESOLUTION), `bucket ${i} ${lower}..${upper} wider than 1/128`);
        }
    });
    test("bucket indexes are contiguous and increasing", () => {
        let prevUpper = -1;
        for (let i = 0; i <= bucketIndex(HISTOGRAM_MAX_MICROS); i++) {
            const upper = bucketUpperBound(i);
            assert.ok(upper > prevUpper, `bucket ${i}`);
            assert.equal(bucketIndex(prevUpper + 1), i, `first value of bucket ${i}`);
            assert.equal(bucketIndex(upper), i, `last value of bucket ${i}`);
            prevUpper = upper;
        }
        assert.equal(prevUpper, HISTOGRAM_MAX_MICROS);
    });
});
describe("loadgen percentiles", () => {
    test("nearest-rank percentile of sorted samples", () => {
        const s = Array.from({ length: 100 }, (_, i) => i + 1);
        assert.equal(percentileOfSorted(s, 50), 50);
        assert.equal(percentileOfSorted(s, 99), 99);
        assert.equal(percentileOfSorted(s, 99.5), 100);
        assert.equal(percentileOfSorted(s, 100), 100);
        assert.equal(percentileOfSorted(s, 0), 1);
        assert.equal(percentileOfSorted([7], 99), 7);
        assert.ok(Number.isNaN(percentileOfSorted([], 50)));
        // 10 samples: p90 is the 9th, p91 already the 10th
        const ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 1000];
        assert.equal(percentileOfSorted(ten, 90), 9);
        assert.equal(percentileOfSorted(ten, 91), 1000);
    });
    test("histogram percentiles match sorted samples within the bucket resolution", () => {
        for (const seed of [1, 2, 3, 4]) {
            const rng = new Random(seed);
            const h = new LatencyHistogram();
            const samples = [];
            const n = rng.int(1, 50_000);
            for (let i = 0; i < n; i++) {
                // long-tailed latencies: mostly 0.1–5 ms, a few up to seconds
                const us = rng.chance(0.01) ? rng.int(0, 3_000_000) : rng.int(50, 5000);
                samples.push(us);
                h.recordMicros(us);
            }
            samples.sort((a, b) => a - b);
            for (const p of [0, 1, 50, 90, 99, 99.9, 99.99, 100]) {
                const exact = percentileOfSorted(samples, p);
                const approx = h.percentileMicros(p);
                assert.ok(approx >= exact, `seed ${seed} n ${n} p${p}: ${approx} < exact ${exact}`);
                assert.ok(approx <= exact * (1 + RESOLUTION) + 1, `seed ${seed} n ${n} p${p}: ${approx} vs exact ${exact}`);
            }
            assert.equal(h.count, n);
            assert.equal(h.max, samples[n - 1]);
            assert.equal(h.min, samples[0]);
            assert.equal(h.percentileMicros(100), samples[n - 1]);
        }
    });
    test("ms recording, rounding, clamping, summary in ms", () => {
        const h = new LatencyHistogram();
        assert.ok(Number.isNaN(h.percentileMicros(50)));
        assert.ok(Number.isNaN(h.summary().p99Ms));
        h.recordMs(1.2344); // 1234 µs
        h.recordMs(-5); // clamped to 0
        h.recordMs(1e9); // clamped to the maximum
        assert.equal(h.min, 0);
        assert.equal(h.max, HISTOGRAM_MAX_MICROS);
        const s = h.summary();
        assert.equal(s.count, 3);
        assert.ok(s.p50Ms >= 1.234 && s.p50Ms <= 1.234 * (1 + RESOLUTION), `p50 ${s.p50Ms}`);
        assert.equal(s.maxMs, HISTOGRAM_MAX_MICROS / 1000);
    });
    test("merge equals recording everything in one histogram", () => {
        const rng = new Random(99);
        const a = new LatencyHistogram();
        const b = new LatencyHistogram();
        const all = new LatencyHistogram();
        for (let i = 0; i < 5000; i++) {
            const v = rng.int(0, 100_000);
            (i % 3 === 0 ? a : b).recordMicros(v);
            all.recordMicros(v);
        }
        a.merge(b);
        for (const p of [10, 50, 99, 100])
            assert.equal(a.percentileMicros(p), all.percentileMicros(p));
        assert.deepEqual(a.summary(), all.summary());
    });
    test("countAboveMicros counts whole buckets above the threshold", () => {
        const h = new LatencyHistogram();
        for (const ms of [1, 5, 50, 99, 101, 150, 2000])
            h.recordMs(ms);
        assert.equal(h.countAboveMicros(100_000), 3);
        assert.equal(h.countAboveMicros(0), 7);
        assert.equal(h.countAboveMicros(HISTOGRAM_MAX_MICROS), 0);
    });
});
//# sourceMappingURL=histogram.test.js.map