/** ms between polls: 24 per 6-second block, light next to thousands of requests per second. */
const POLL_MS = 250;
function field(summary, name) {
    const m = new RegExp(`\\b${name}=(\\d+(?:\\.\\d+)?)`).exec(summary);
    return m === null ? undefined : Number(m[1]);
}
export class CloseMonitor {
    client;
    maxMs;
    closes = [];
    available = false;
    missed = 0;
    lastCount;
    running = false;
    loop = Promise.resolve();
    result;
    constructor(client, 
    /** polling stops by itself after this many ms even if stop() is never called */
    maxMs = 3_600_000) {
        this.client = client;
        this.maxMs = maxMs;
    }
    /** Start polling (records closes after the first poll). */
    start() {
        this.running = true;
        const until = performance.now() + this.maxMs;
        this.loop = (async () => {
            while (this.running && performance.now() < until) {
                await this.poll();
                await new Promise((r) => setTimeout(r, POLL_MS));
            }
        })();
    }
    async poll() {
        let summary;
        try {
            summary = (await this.client.call("summary", undefined, "/debug")).Summary ?? "";
        }
        catch {
            return;
        }
        const count = field(summary, "blocksClosed");
        const closeMs = field(summary, "lastCloseMs");
        const height = field(summary, "saved");
        if (count === undefined || closeMs === undefined || height === undefined)
            return;
        this.available = true;
        const figures = { height, closeMs };
        const buildMs = field(summary, "lastCloseBuildMs");
        if (buildMs !== undefined)
            figures.buildMs = buildMs;
        const longestTurnMs = field(summary, "lastCloseLongestTurnMs");
        const writeMs = field(summary, "lastCloseWriteMs");
        if (longestTurnMs !== undefined)
            figures.longestTurnMs = longestTurnMs;
        if (writeMs !== undefined)
            figures.writeMs = writeMs;
        if (this.lastCount !== undefined && count > this.lastCount) {
            this.missed += count - this.lastCount - 1;
            this.closes.push(figures);
        }
        else if (this.lastCount === count && this.closes.length > 0) {
            // same close, figures completed since (a save commits a few turns after the close)
            this.closes[this.closes.length - 1] = figures;
        }
        this.lastCount = count;
    }
    /** Stop polling; the closes seen while it ran. Calling it again returns the same figures. */
    async stop() {
        if (this.result !== undefined)
            return this.result;
        this.running = false;
        await this.loop;
        await this.poll();
        const out = { available: this.available, closes: [...this.closes], missed: this.missed };
        if (this.closes.length > 0)
            out.maxCloseMs = Math.max(...this.closes.map((c) => c.closeMs));
        const turns = this.closes.flatMap((c) => (c.longestTurnMs === undefined ? [] : [c.longestTurnMs]));
        if (turns.length > 0)
            out.maxLongestTurnMs = Math.max(...turns);
        const writes = this.closes.flatMap((c) => (c.writeMs === undefined ? [] : [c.writeMs]));
        if (writes.length > 0)
            out.maxWriteMs = Math.max(...writes);
        this.result = out;
        return out;
    }
}
//# sourceMappingURL=closeMonitor.js.map