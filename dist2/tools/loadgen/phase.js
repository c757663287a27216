/**
 * A timed phase of a load run: closed-loop workers (each sends its next request when the previous one
 * is answered) and what they measured — counts, errors, latency per method, and a per-second timeline
 * that shows dips such as block closes.
 */
import { LatencyHistogram } from "./histogram.js";
/** First error messages kept per phase. */
const ERROR_SAMPLES = 5;
/** Counts and latencies of one phase. */
export class PhaseRecorder {
    requests = 0;
    errors = 0;
    errorSamples = [];
    latency = new LatencyHistogram();
    byMethod = new Map();
    timeline = [];
    /** performance.now() at start, ms */
    startedAt = performance.now();
    /** performance.now() when the last worker stopped, ms */
    endedAt = Number.NaN;
    /** Restart the clock (call right before the first request). */
    start() {
        this.startedAt = performance.now();
    }
    /** Stop the clock. */
    end() {
        this.endedAt = performance.now();
    }
    /** Wall time of the phase, seconds. */
    get elapsedSeconds() {
        return ((Number.isNaN(this.endedAt) ? performance.now() : this.endedAt) - this.startedAt) / 1000;
    }
    /** Record one reply of `method`; true when it succeeded. */
    record(method, reply) {
        this.requests++;
        this.latency.recordMs(reply.ms);
        let h = this.byMethod.get(method);
        if (h === undefined) {
            h = new LatencyHistogram();
            this.byMethod.set(method, h);
        }
        h.recordMs(reply.ms);
        const sec = Math.max(0, Math.floor((performance.now() - this.startedAt) / 1000));
        while (this.timeline.length <= sec)
            this.timeline.push({ second: this.timeline.length, requests: 0, errors: 0, maxMs: 0 });
        const slot = this.timeline[sec];
        slot.requests++;
        if (reply.ms > slot.maxMs)
            slot.maxMs = Math.round(reply.ms * 1000) / 1000;
        if (reply.error === undefined)
            return true;
        this.errors++;
        slot.errors++;
        if (this.errorSamples.length < ERROR_SAMPLES) {
            const data = reply.error.data === undefined ? "" : ` ${JSON.stringify(reply.error.data).slice(0, 200)}`;
            this.errorSamples.push(`${method}: ${reply.error.code} ${reply.error.message}${data}`);
        }
        return false;
    }
    /** Per-second counts (a copy). */
    timelineSeconds() {
        return this.timeline.map((s) => ({ ...s }));
    }
    /** Latency summary per method. */
    methodSummaries() {
        const out = {};
        for (const [m, h] of this.byMethod)
            out[m] = h.summary();
        return out;
    }
}
/**
 * Run `concurrency` closed-loop workers until the duration ends, a step returns false (nothing left
 * to send) or the error budget is spent. A step is one unit of work (e.g. commit then reveal) and
 * records its own replies. Resolves when every worker has finished its last step.
 */
export async function runWorkers(options, recorder, step) {
    recorder.start();
    const deadline = recorder.startedAt + options.durationMs;
    const worker = async (w) => {
        while (performance.now() < deadline && recorder.errors < options.maxErrors) {
            if (!(await step(w)))
                return;
        }
    };
    await Promise.all(Array.from({ length: options.concurrency }, (_, w) => worker(w)));
    recorder.end();
}
//# sourceMappingURL=phase.js.map