/**
 * `ledgerd-wallet watch`: follow the node's live event feed (docs/api.md "Live event feed") through the
 * client library's `subscribe`, which reconnects and resumes by itself. One line per event: a short
 * human-readable line, or the event's JSON with --json. Runs until interrupted, or until --count events.
 */
import { subscribe } from "../../src/client/liveClient.js";
/** Events that report the connection itself, not the ledger (never counted). */
const CONNECTION_EVENTS = new Set(["hello", "subscribed", "resumed"]);
/** Follow the feed; resolves after `count` events (or never). Rejects when the node refuses the credentials. */
export function watch(o) {
    return new Promise((resolve, reject) => {
        let seen = 0;
        const handle = subscribe({
            url: o.url,
            ...(o.user !== undefined ? { user: o.user } : {}),
            ...(o.password !== undefined ? { password: o.password } : {}),
            ...(o.caFile !== undefined ? { caFile: o.caFile } : {}),
        }, o.subscription, {
            onEvent: (e) => {
                if (o.json)
                    o.out(JSON.stringify(e));
                else if (!CONNECTION_EVENTS.has(e.event))
                    o.out(describe(e));
                if (e.event === "error")
                    o.warn(`the node refused the subscription: ${String(e.data)}`);
                if (CONNECTION_EVENTS.has(e.event) || e.event === "error")
                    return;
                seen++;
                if (o.count !== undefined && seen >= o.count) {
                    handle.close();
                    resolve();
                }
            },
            onOpen: (i) => {
                if (i.reconnect)
                    o.warn(`reconnected${i.resumedFrom !== undefined ? `, resuming from block ${i.resumedFrom}` : ""}`);
            },
            onClose: (i) => {
                if (i.retryInMs !== undefined)
                    o.warn(`connection closed (${i.code}${i.reason ? ` ${i.reason}` : ""}); retrying in ${i.retryInMs} ms`);
            },
            onError: (e) => {
                if (/HTTP 401/.test(e.message)) {
                    handle.close();
                    reject(new Error(`${e.message}: check -rpcuser and -rpcpass`));
                }
            },
        });
    });
}
/** One line for an event. */
export function describe(e) {
    switch (e.event) {
        case "block":
            return `block ${e.height} ${e.keymr} entries=${e.entries} transactions=${e.transactions}`;
        case "minute":
            return `minute ${e.minute} of block ${e.height} ended`;
        case "entry":
            return `entry ${e.entryhash} chain ${e.chainid} ${e.status} (block ${e.height})`;
        case "transaction":
            return `transaction ${e.txid} ${e.status} (block ${e.height})`;
        case "status":
            return `status ${e.hash} ${e.status}`;
        case "health":
            return `health ${e.healthy ? "ok" : "NOT OK"}${e.writesrefused ? `: writes refused (${e.writesrefused})` : ""}${e.stalled ? ": stalled" : ""}`;
        default:
            return JSON.stringify(e);
    }
}
//# sourceMappingURL=watch.js.map