/**
 * Latency histogram for the load generator: HDR-like log-linear buckets over integer microseconds.
 *
 * Values below 256 µs are counted exactly; above that each power of two is split into 128 linear
 * sub-buckets, so a reported percentile is at most 1/128 (0.8 %) above the true sample. Memory is
 * fixed (3,200 counters) however many requests a run makes, and recording is a few integer ops —
 * cheap enough to sit on the request path of a 20,000 req/s run.
 */
/** Values (µs) below this are their own bucket. */
const EXACT_LIMIT = 256;
/** Linear sub-buckets per power of two above EXACT_LIMIT: 1/128 relative resolution. */
const SUB_BUCKETS = 128;
/** Largest recordable value, µs (~35 minutes); larger values are clamped to it. */
export const HISTOGRAM_MAX_MICROS = 2 ** 31 - 1;
/** Number of buckets needed to cover 0..HISTOGRAM_MAX_MICROS. */
const BUCKET_COUNT = bucketIndex(HISTOGRAM_MAX_MICROS) + 1;
/** Bucket of a non-negative integer value in µs. */
export function bucketIndex(micros) {
    if (micros < EXACT_LIMIT)
        return micros;
    const msb = 31 - Math.clz32(micros); // ≥ 8
    const shift = msb - 7; // keeps the top 8 bits: 128..255
    return EXACT_LIMIT + (shift - 1) * SUB_BUCKETS + ((micros >>> shift) - SUB_BUCKETS);
}
/** Largest value (µs) that falls in bucket `index` (HDR's "highest equivalent value"). */
export function bucketUpperBound(index) {
    if (index < EXACT_LIMIT)
        return index;
    const shift = Math.floor((index - EXACT_LIMIT) / SUB_BUCKETS) + 1;
    const top = ((index - EXACT_LIMIT) % SUB_BUCKETS) + SUB_BUCKETS;
    return (top + 1) * 2 ** shift - 1;
}
/**
 * Nearest-rank percentile of ascending `sorted` samples: the smallest sample with at least p % of
 * the samples ≤ it. `p` in 0..100; NaN for no samples.
 */
export function percentileOfSorted(sorted, p) {
    if (sorted.length === 0)
        return Number.NaN;
    const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
    return sorted[Math.min(rank, sorted.length) - 1];
}
/** HDR-like histogram of latencies (record in ms or µs; percentiles in µs or ms). */
export class LatencyHistogram {
    counts = new Float64Array(BUCKET_COUNT);
    count = 0;
    /** µs */
    min = Number.POSITIVE_INFINITY;
    /** µs */
    max = 0;
    /** µs */
    sum = 0;
    /** Record one latency in microseconds (rounded to an integer, clamped to 0..HISTOGRAM_MAX_MICROS). */
    recordMicros(micros) {
        const v = Math.min(HISTOGRAM_MAX_MICROS, Math.max(0, Math.round(micros)));
        this.counts[bucketIndex(v)]++;
        this.count++;
        this.sum += v;
        if (v < this.min)
            this.min = v;
        if (v > this.max)
            this.max = v;
    }
    /** Record one latency in milliseconds (as `performance.now()` differences give them). */
    recordMs(ms) {
        this.recordMicros(ms * 1000);
    }
    /** Add every sample of `other` to this histogram. */
    merge(other) {
        for (let i = 0; i < BUCKET_COUNT; i++)
            this.counts[i] += other.counts[i];
        this.count += other.count;
        this.sum += other.sum;
        if (other.min < this.min)
            this.min = other.min;
        if (other.max > this.max)
            this.max = other.max;
    }
    /**
     * Nearest-rank percentile in µs: the upper bound of the bucket holding the rank-th sample, never
     * above the largest recorded value. p = 100 gives the exact maximum; NaN when empty.
     */
    percentileMicros(p) {
        if (this.count === 0)
            return Number.NaN;
        if (p >= 100)
            return this.max;
        const rank = Math.max(1, Math.ceil((p / 100) * this.count));
        let seen = 0;
        for (let i = 0; i < BUCKET_COUNT; i++) {
            seen += this.counts[i];
            if (seen >= rank)
                return Math.min(bucketUpperBound(i), this.max);
        }
        return this.max;
    }
    /** Number of samples strictly above `micros` (bucket resolution: counts whole buckets above it). */
    countAboveMicros(micros) {
        let n = 0;
        for (let i = bucketIndex(Math.min(HISTOGRAM_MAX_MICROS, Math.max(0, Math.floor(micros)))) + 1; i < BUCKET_COUNT; i++)
            n += this.counts[i];
        return n;
    }
    /** p50/p90/p99/max/mean in milliseconds (rounded to µs). */
    summary() {
        const ms = (us) => (Number.isNaN(us) ? Number.NaN : Math.round(us) / 1000);
        return {
            count: this.count,
            p50Ms: ms(this.percentileMicros(50)),
            p90Ms: ms(this.percentileMicros(90)),
            p99Ms: ms(this.percentileMicros(99)),
            maxMs: ms(this.count === 0 ? Number.NaN : this.max),
            meanMs: ms(this.count === 0 ? Number.NaN : this.sum / this.count),
        };
    }
}
//# sourceMappingURL=histogram.js.map