/**
 * One ledgerd of a devnet: its home directory (LMDB, configuration file with its identity and keys), its
 * loopback port, the arguments it was started with (kept so `restart` repeats them), and the process.
 * Flags and [Cluster] fields: docs/cluster.md §2, docs/configuration.md.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { NodeClient } from "../../src/client/index.js";
import { ManagedProcess, sleep } from "./process.js";
export const NODE_ROLES = ["federated", "audit", "follower"];
/** Milliseconds between "does it serve yet" polls. */
const SERVE_POLL_MS = 100;
/**
 * The configuration file of a node: loopback only; the debug API read-write, because a devnet is where
 * the network-testing methods (`set-delay`, `set-drop-rate`) are meant to be used; and the server's
 * identity and key when it has one.
 */
export function nodeConfigText(layout, nats) {
    const lines = [
        "; written by ledgerd-devnet (tools/devnet)",
        "[App]",
        "ListenHost = 127.0.0.1",
        "DebugApi = readwrite",
    ];
    if (layout.key !== undefined)
        lines.push(`IdentityChainID = ${layout.key.identity}`, `LocalServerPrivKey = ${layout.key.privkey}`, `LocalServerPublicKey = ${layout.key.pubkey}`);
    if (nats !== undefined)
        lines.push("[Cluster]", `NatsUser = ${nats.user}`, `NatsPassword = ${nats.password}`, `NatsTlsCA = ${nats.caFile}`);
    lines.push("");
    return lines.join("\n");
}
export class LedgerdNode {
    layout;
    process;
    client;
    constructor(layout, ledgerdBin, pid) {
        this.layout = layout;
        const configFile = join(layout.home, "ledgerd.conf");
        this.process = ManagedProcess.adopt({
            name: layout.name,
            command: ledgerdBin,
            args: layout.args,
            logFile: join(layout.home, "ledgerd.log"),
            marker: `-config=${configFile}`,
        }, pid);
        this.client = new NodeClient({ url: this.url, timeoutMs: 10_000 });
    }
    /** Write the node's configuration file (before its first start). */
    writeConfig(nats) {
        writeFileSync(join(this.layout.home, "ledgerd.conf"), nodeConfigText(this.layout, nats), { mode: 0o600 });
    }
    get name() {
        return this.layout.name;
    }
    get role() {
        return this.layout.role;
    }
    /** http://127.0.0.1:<port> */
    get url() {
        return `http://127.0.0.1:${this.layout.port}`;
    }
    get pid() {
        return this.process.pid;
    }
    get isRunning() {
        return this.process.isRunning;
    }
    /** Identity chain ID, or undefined for a follower. */
    get identity() {
        return this.layout.key?.identity;
    }
    /** Start (again) with the recorded arguments; does not wait (see waitServing). */
    start(detached) {
        this.process.restart({ detached });
    }
    /**
     * Wait until the node answers JSON-RPC (`properties`). Throws with its log tail when it exits first or
     * does not answer within `timeoutMs`.
     */
    async waitServing(timeoutMs = 60_000) {
        const deadline = Date.now() + timeoutMs;
        let last = "";
        for (;;) {
            if (this.process.exitedUnexpectedly)
                throw new Error(`${this.name} exited while starting (${this.process.exitDescription}):\n${this.process.logTail()}`);
            try {
                await this.client.call("properties");
                return;
            }
            catch (e) {
                last = e instanceof Error ? e.message : String(e);
            }
            if (Date.now() > deadline)
                throw new Error(`${this.name} did not serve on ${this.url} within ${timeoutMs} ms (${last}):\n${this.process.logTail()}`);
            await sleep(SERVE_POLL_MS);
        }
    }
    close() {
        this.client.close();
    }
}
//# sourceMappingURL=ledgerdNode.js.map