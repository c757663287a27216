/**
 * Worker thread that sends one light read every `intervalMs` on its own event loop and sockets, so a
 * probe's latency is the node's and not the time it would wait behind the write traffic's replies in
 * the generator's main loop. It stops on a "stop" message (or after `maxMs`) and posts its samples.
 */
import { parentPort, workerData } from "node:worker_threads";
import { RpcClient } from "./rpcClient.js";
/** Probes in flight at most; a probe that would exceed it is counted as skipped, not queued. */
const MAX_IN_FLIGHT = 32;
async function main(config) {
    const client = new RpcClient({ url: config.url, maxSockets: MAX_IN_FLIGHT, timeoutMs: 30_000 });
    const samples = [];
    const now = () => performance.timeOrigin + performance.now();
    const started = now();
    let inFlight = 0;
    let skipped = 0;
    let k = 0;
    let stopping = false;
    const pending = new Set();
    parentPort.on("message", (m) => {
        if (m === "stop")
            stopping = true;
    });
    const fire = () => {
        if (inFlight >= MAX_IN_FLIGHT) {
            skipped++;
            return;
        }
        const [method, body] = config.requests[k++ % config.requests.length];
        const sentAt = now();
        inFlight++;
        const p = client.post(body, "/v2", method === "heights").then((reply) => {
            inFlight--;
            const sample = { method, sentAt, ms: reply.ms, ok: reply.error === undefined };
            if (method === "heights" && reply.error === undefined)
                sample.savedHeight = reply.result.directoryblockheight;
            samples.push(sample);
        });
        pending.add(p);
        void p.then(() => pending.delete(p));
    };
    // Fixed schedule: probe n is due at started + n × interval; a late timer fires once, not in a burst.
    let n = 0;
    while (!stopping && now() - started < config.maxMs) {
        fire();
        n++;
        const due = started + n * config.intervalMs;
        const wait = Math.max(0, due - now());
        await new Promise((resolve) => setTimeout(resolve, wait));
        if (now() > due + config.intervalMs)
            n = Math.floor((now() - started) / config.intervalMs);
    }
    await Promise.all(pending);
    client.close();
    parentPort.postMessage({ samples, skipped });
}
if (parentPort !== null)
    void main(workerData);
//# sourceMappingURL=probeWorker.js.map