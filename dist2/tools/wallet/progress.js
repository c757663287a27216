import { WalletError } from "./errors.js";
/** Order of the spec §3 states: waiting for a state is done once that state or a later one is seen. */
const RANK = { "": 0, Unknown: 0, NotConfirmed: 1, TransactionACK: 2, DBlockConfirmed: 3 };
/**
 * Pause between two ack polls, ms. A node acknowledges within one request (the ack is journaled
 * before the answer), so the first poll usually succeeds; confirmation takes a block (2–600 s).
 */
export const POLL_INTERVAL_MS = 250;
const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/**
 * Poll `status` until it reaches `target`. Returns the final status; throws WalletError on timeout.
 * Errors thrown by `status` (node unreachable, …) propagate.
 */
export async function waitForStatus(status, options) {
    const started = Date.now();
    const tty = options.stream.isTTY === true;
    let last;
    let frame = 0;
    const shortLabel = options.label.replace(/\b([0-9a-f]{12})[0-9a-f]{52}\b/g, "$1…");
    const reached = (s) => (RANK[s] ?? 0) >= RANK[options.target];
    const seconds = () => ((Date.now() - started) / 1000).toFixed(0);
    const draw = (status) => {
        const s = status || "Unknown"; // the reference leaves an unfilled part's status ""
        // On a terminal the line is redrawn in place, so it must not wrap: hashes are shortened there.
        if (tty)
            options.stream.write(`\r\x1b[K${SPINNER[frame++ % SPINNER.length]} waiting for ${options.target}: ${shortLabel} — ${s} (${seconds()}s)`);
        else if (s !== last && !reached(s))
            options.stream.write(`waiting for ${options.target}: ${options.label} — ${s} (${seconds()}s)\n`);
        last = s;
    };
    try {
        for (;;) {
            const s = await status();
            draw(s);
            if (reached(s)) {
                options.stream.write(`${tty ? "\r\x1b[K" : ""}${options.label}: ${s} (${seconds()}s)\n`);
                return s;
            }
            if (Date.now() - started > options.timeoutMs)
                throw new WalletError(`timed out after ${Math.round(options.timeoutMs / 1000)} s waiting for ${options.target} of ${options.label}; last status: ${s || "Unknown"}`, "the node may still process it; to wait longer, raise -timeout=SECONDS");
            await new Promise((r) => setTimeout(r, options.pollMs ?? POLL_INTERVAL_MS));
        }
    }
    catch (e) {
        if (tty)
            options.stream.write("\n");
        throw e;
    }
}
//# sourceMappingURL=progress.js.map