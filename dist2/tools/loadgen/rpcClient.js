/**
 * Keep-alive JSON-RPC client of the load generator: pre-serialized bodies in, parsed replies and
 * latency out. Only loopback addresses are accepted (house rule: load traffic never leaves the machine).
 */
import http from "node:http";
/** Hosts the generator may talk to. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
/** What a success and an error reply contain (hex payloads never contain quotes, so no false match). */
const RESULT_MARK = Buffer.from('"result":');
const ERROR_MARK = Buffer.from('"error":{');
/** Transport failures and non-JSON replies get these codes (outside JSON-RPC's range). */
export const TRANSPORT_ERROR = { code: -1, http: -2, badJson: -3, timeout: -4 };
/** Thrown by `call` when the node answers with an error. */
export class RpcCallError extends Error {
    method;
    error;
    constructor(method, error) {
        super(`${method}: ${error.code} ${error.message}${error.data === undefined ? "" : ` (${JSON.stringify(error.data)})`}`);
        this.method = method;
        this.error = error;
    }
}
/** Check that `url` is http(s) on a loopback host; returns the parsed URL. */
export function loopbackUrl(url) {
    const u = new URL(url);
    if (u.protocol !== "http:")
        throw new Error(`--url: only http:// is supported, got ${u.protocol}`);
    if (!LOOPBACK_HOSTS.has(u.hostname))
        throw new Error(`--url: load traffic stays on loopback; ${u.hostname} is not 127.0.0.1/localhost/::1`);
    return u;
}
export class RpcClient {
    agent;
    /** the base URL given */
    url;
    host;
    port;
    timeoutMs;
    constructor(options) {
        const u = loopbackUrl(options.url);
        this.url = options.url;
        this.host = u.hostname.replace(/^\[|\]$/g, "");
        this.port = u.port === "" ? 80 : Number(u.port);
        this.timeoutMs = options.timeoutMs;
        this.agent = new http.Agent({
            keepAlive: true,
            maxSockets: options.maxSockets,
            maxFreeSockets: options.maxSockets,
        });
    }
    /**
     * POST a serialized JSON-RPC body to `path` (/v2 or /debug). Never rejects: failures come back in `error`.
     * With `wantResult` false (timed phases) a 200 reply carrying `"result":` and no `"error":{` counts as a
     * success without JSON.parse, which keeps the generator's CPU per request down; anything else is parsed.
     */
    post(body, path = "/v2", wantResult = true) {
        const started = performance.now();
        return new Promise((resolve) => {
            let settled = false;
            const done = (reply) => {
                if (settled)
                    return;
                settled = true;
                resolve({ ...reply, ms: performance.now() - started });
            };
            const req = http.request({
                agent: this.agent,
                host: this.host,
                port: this.port,
                path,
                method: "POST",
                headers: { "content-type": "text/plain;", "content-length": Buffer.byteLength(body) },
            }, (res) => {
                const chunks = [];
                res.on("data", (c) => chunks.push(c));
                res.on("error", (e) => done({ error: { code: TRANSPORT_ERROR.code, message: `response: ${e.message}` } }));
                res.on("end", () => {
                    const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
                    if (!wantResult && res.statusCode === 200 && raw.indexOf(RESULT_MARK) >= 0 && raw.indexOf(ERROR_MARK) < 0) {
                        done({});
                        return;
                    }
                    const text = raw.toString("utf8");
                    let parsed;
                    try {
                        parsed = JSON.parse(text);
                    }
                    catch {
                        const status = res.statusCode ?? 0;
                        done({
                            error: {
                                code: status === 200 ? TRANSPORT_ERROR.badJson : TRANSPORT_ERROR.http,
                                message: `HTTP ${status}: ${text.slice(0, 120)}`,
                            },
                        });
                        return;
                    }
                    if (parsed.error !== undefined && parsed.error !== null)
                        done({ error: parsed.error });
                    else
                        done({ result: parsed.result });
                });
            });
            req.setTimeout(this.timeoutMs, () => {
                done({ error: { code: TRANSPORT_ERROR.timeout, message: `no reply within ${this.timeoutMs} ms` } });
                req.destroy();
            });
            req.on("error", (e) => done({ error: { code: TRANSPORT_ERROR.code, message: `request: ${e.message}` } }));
            req.end(body);
        });
    }
    /**
     * Call `method` and return its result; throws RpcCallError for an error reply (setup and checks, not
     * timed). A transport failure is retried `retries` times: the server closes keep-alive connections idle
     * for 10 s (uWebSockets), and a request that goes out on one just then fails with "socket hang up".
     * Pass 0 for a call that must not be sent twice.
     */
    async call(method, params, path = "/v2", retries = 2) {
        const body = JSON.stringify(params === undefined ? { jsonrpc: "2.0", id: 1, method } : { jsonrpc: "2.0", id: 1, method, params });
        for (let attempt = 0;; attempt++) {
            const reply = await this.post(body, path);
            if (reply.error === undefined)
                return reply.result;
            if (reply.error.code !== TRANSPORT_ERROR.code || attempt >= retries)
                throw new RpcCallError(method, reply.error);
        }
    }
    /** Close the kept-alive sockets. */
    close() {
        this.agent.destroy();
    }
}
//# sourceMappingURL=rpcClient.js.map