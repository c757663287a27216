/**
 * Real nats-server processes for tests of the cluster's log: `startNatsCluster(n)` starts n servers with
 * JetStream (file storage, temp store directories, free loopback ports; n > 1 forms one cluster), waits
 * until JetStream answers on every server, and returns handles to kill (SIGKILL), restart and stop them by
 * pid. Every server started here is SIGKILLed by `stopAllNats()` and by a process `exit` hook.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect } from "@nats-io/transport-node";
import { freeLoopbackPort } from "./nodeProcess.js";
const running = new Set();
process.on("exit", () => {
    for (const c of running)
        c.kill("SIGKILL");
});
/** Start `n` JetStream servers on loopback (n = 1: no cluster block). Resolves once JetStream answers. */
export async function startNatsCluster(n, options = {}) {
    const dir = mkdtempSync(join(tmpdir(), "ledgerd-nats-"));
    const ports = [];
    for (let i = 0; i < n; i++)
        ports.push({ client: await freeLoopbackPort(), route: await freeLoopbackPort() });
    const children = [];
    const confs = [];
    for (let i = 0; i < n; i++) {
        const store = join(dir, `n${i}`);
        mkdirSync(store, { recursive: true });
        const lines = [
            `server_name: n${i}`,
            `listen: 127.0.0.1:${ports[i].client}`,
            `jetstream { store_dir: "${store}", max_memory_store: 64MB, max_file_store: 1GB }`,
        ];
        if (n > 1)
            lines.push(`cluster { name: ledgerdtest, listen: 127.0.0.1:${ports[i].route}, routes: [${ports
                .map((p) => `nats-route://127.0.0.1:${p.route}`)
                .join(", ")}] }`);
        lines.push(...(options.extraConfig ?? []));
        const conf = join(dir, `n${i}.conf`);
        writeFileSync(conf, `${lines.join("\n")}\n`);
        confs.push(conf);
    }
    const launch = (i) => {
        const child = spawn("nats-server", ["-c", confs[i]], { stdio: "ignore" });
        running.add(child);
        child.on("exit", () => running.delete(child));
        children[i] = child;
    };
    for (let i = 0; i < n; i++)
        launch(i);
    const urls = ports.map((p) => `nats://127.0.0.1:${p.client}`);
    await waitForJetStream(urls, options);
    const exited = (c) => c === undefined || c.exitCode !== null || c.signalCode !== null
        ? Promise.resolve()
        : new Promise((resolve) => c.once("exit", () => resolve()));
    const servers = urls.map((url, i) => ({
        name: `n${i}`,
        url,
        pid: () => children[i]?.pid,
        kill9: async () => {
            const c = children[i];
            c?.kill("SIGKILL");
            await exited(c);
        },
        restart: async () => {
            launch(i);
            await waitForJetStream([url], options);
        },
    }));
    return {
        servers,
        urls,
        stop: async () => {
            for (const c of children)
                c?.kill("SIGTERM");
            await Promise.all(children.map(exited));
            rmSync(dir, { recursive: true, force: true });
        },
    };
}
/** SIGKILL every nats-server this process started (an `after` hook). */
export function stopAllNats() {
    for (const c of running)
        c.kill("SIGKILL");
}
/** Poll until JetStream answers account info through each url (30 s at most). */
async function waitForJetStream(urls, options = {}) {
    const deadline = Date.now() + 30_000;
    for (const url of urls) {
        for (;;) {
            try {
                const nc = await connect({
                    servers: url,
                    timeout: 1000,
                    ...(options.user === undefined ? {} : { user: options.user, pass: options.pass ?? "" }),
                    ...(options.tls === undefined ? {} : { tls: options.tls }),
                });
                try {
                    const jsm = await jetstreamManager(nc, { timeout: 1000 });
                    await jsm.getAccountInfo();
                    break;
                }
                finally {
                    await nc.close();
                }
            }
            catch (e) {
                if (Date.now() > deadline)
                    throw new Error(`nats-server ${url} did not become ready: ${String(e)}`);
                await new Promise((r) => setTimeout(r, 100));
            }
        }
    }
}
//# sourceMappingURL=natsServer.js.map