/**
 * The real node (src/node.ts startNode) on a loopback port with a temp home directory, for the RPC
 * integration tests, plus a JSON-RPC caller that can record exchanges (for docs/api.md: set
 * RPC_CAPTURE=<file> and the first few successes and errors of each method are written there as JSON).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CONFIG_FILE_NAME, loadConfig } from "../../../src/config/index.js";
import { createLogger } from "../../../src/log/logger.js";
import { startNode } from "../../../src/node.js";
import { rawRequest } from "./httpClient.js";
/** Exchanges recorded for the docs, keyed `path method ok|error`: the first few of each. */
const captured = new Map();
const CAPTURE_PER_KEY = 40;
/** Write the captured exchanges to RPC_CAPTURE (if set), merged with what the file already holds. */
export function flushCapture() {
    const file = process.env.RPC_CAPTURE;
    if (file === undefined || file === "")
        return;
    const previous = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
    writeFileSync(file, JSON.stringify({ ...previous, ...Object.fromEntries(captured) }, null, 1));
}
/**
 * Start a LOCAL node. `blockTimeSeconds` small keeps the flow quick (a minute is a tenth of it).
 * @param flags extra command-line flags (e.g. "-journaling=true")
 */
export async function startTestNode(options = {}) {
    const home = mkdtempSync(join(tmpdir(), "ledgerd-rpcnode-"));
    if (options.configFile !== undefined)
        writeFileSync(join(home, CONFIG_FILE_NAME), options.configFile);
    const argv = [
        "-network=LOCAL",
        `-homedir=${home}`,
        `-blktime=${options.blockTimeSeconds ?? 2}`,
        "-port=0",
        ...(options.flags ?? []),
    ];
    const consoleLevel = process.env.RPC_TEST_LOG === "1" ? "debug" : "error";
    const config = {
        ...loadConfig(argv, { HOME: home }),
        listenHost: "127.0.0.1",
        logLevel: "none",
        consoleLogLevel: consoleLevel,
        ...(options.config ?? {}),
    };
    const log = createLogger({ level: "none", consoleLevel });
    const node = await startNode(config, { argv, log });
    const base = `http://127.0.0.1:${node.port}`;
    return {
        node,
        base,
        home,
        async call(method, params, opts = {}) {
            const path = opts.path ?? "/v2";
            const body = { jsonrpc: "2.0", id: 1, method };
            if (params !== undefined)
                body.params = params;
            const request = JSON.stringify(body);
            const headers = { "Content-Type": "text/plain;" };
            if (opts.auth !== undefined)
                headers.Authorization = opts.auth;
            const a = await rawRequest(base, { path, body: request, headers });
            let json = {};
            try {
                json = JSON.parse(a.text);
            }
            catch {
                json = {};
            }
            const key = `${path} ${method} ${json.error === undefined ? "ok" : "error"}`;
            const list = captured.get(key) ?? [];
            const fresh = !list.some((x) => x.response === a.text);
            if (a.status !== 401 && fresh && list.length < CAPTURE_PER_KEY)
                captured.set(key, [...list, { path, request, status: a.status, response: a.text }]);
            return { status: a.status, text: a.text, result: json.result, error: json.error, id: json.id };
        },
        async stop() {
            await node.stop();
            rmSync(home, { recursive: true, force: true });
        },
    };
}
/** Poll `probe` every `everyMs` until it returns a value other than undefined, or fail after `timeoutMs`. */
export async function waitFor(what, probe, timeoutMs = 30_000, everyMs = 50) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const v = await probe();
        if (v !== undefined)
            return v;
        if (Date.now() > deadline)
            throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, everyMs));
    }
}
//# sourceMappingURL=nodeHarness.js.map