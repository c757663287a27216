import { readFileSync } from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import { DEBUG_METHOD_NAMES, V2_METHOD_NAMES, } from "../rpc/methods.js";
import { AuthError, ClientConfigError, HttpError, RpcError, UnreachableError, } from "./errors.js";
import { parseJson, stringifyJson } from "./json.js";
/**
 * Default per-request deadline, ms. The slowest legitimate call is a block fetch with rawdata of a
 * full block (~1 MB) on a loaded node, well under a second here; 30 s only catches a hung node.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Largest response body accepted, bytes: far above any block (spec limits entries to 10 KiB, blocks to ~MBs). */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/** Network error codes that mean "no node answered", mapped to a reason for UnreachableError. */
const UNREACHABLE_CODES = {
    ECONNREFUSED: "refused",
    ENOTFOUND: "dns",
    EAI_AGAIN: "dns",
    ECONNRESET: "reset",
    EPIPE: "reset",
    ETIMEDOUT: "timeout",
    EHOSTUNREACH: "network",
    ENETUNREACH: "network",
    EADDRNOTAVAIL: "network",
};
/**
 * Typed JSON-RPC 2.0 client of a ledgerd (or reference) node: one async method per node method of
 * spec §4.1 (`/v2`) and §4.2 (`/debug`). Reuses connections (keep-alive). Every failure rejects with
 * RpcError, AuthError, UnreachableError or HttpError (errors.ts).
 */
export class NodeClient {
    /** base URL without a trailing slash, e.g. http://127.0.0.1:8088 */
    baseUrl;
    timeoutMs;
    agent;
    transport;
    authHeader;
    nextId = 1;
    constructor(options) {
        let parsed;
        try {
            parsed = new URL(options.url);
        }
        catch {
            throw new ClientConfigError(`node URL ${JSON.stringify(options.url)} is not a valid URL (example: http://127.0.0.1:8088)`);
        }
        if (parsed.protocol !== "http:" && parsed.protocol !== "https:")
            throw new ClientConfigError(`node URL ${options.url}: scheme must be http or https, got ${parsed.protocol}`);
        if (parsed.search || parsed.hash)
            throw new ClientConfigError(`node URL ${options.url}: must not have a query or fragment`);
        this.baseUrl = `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, "").replace(/\/(v2|debug)$/, "")}`;
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
        if (!Number.isFinite(this.timeoutMs) || this.timeoutMs <= 0)
            throw new ClientConfigError(`timeoutMs must be a positive number of milliseconds, got ${options.timeoutMs}`);
        if ((options.user ?? "") !== "" || (options.password ?? "") !== "") {
            if ((options.user ?? "").includes(":"))
                throw new ClientConfigError("user name must not contain ':' (HTTP Basic authentication)");
            this.authHeader = `Basic ${Buffer.from(`${options.user ?? ""}:${options.password ?? ""}`, "utf8").toString("base64")}`;
        }
        if (parsed.protocol === "https:") {
            let ca;
            if (options.caFile !== undefined && options.caFile !== "") {
                try {
                    ca = readFileSync(options.caFile);
                }
                catch (e) {
                    throw new ClientConfigError(`CA file ${options.caFile}: cannot read it (${e.code ?? String(e)})`);
                }
            }
            this.transport = https;
            this.agent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
        }
        else {
            if (options.caFile !== undefined && options.caFile !== "")
                throw new ClientConfigError(`a CA file was given but the node URL ${options.url} is http; use https:// for TLS`);
            this.transport = http;
            this.agent = new http.Agent({ keepAlive: true });
        }
    }
    /** Close idle keep-alive connections (call when done so the process can exit promptly). */
    close() {
        this.agent.destroy();
    }
    async call(method, params, endpoint = "v2") {
        const id = this.nextId++;
        const body = stringifyJson(params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params });
        const url = `${this.baseUrl}/${endpoint}`;
        const { status, text } = await this.post(url, body);
        if (status === 401)
            throw new AuthError(url, this.authHeader !== undefined);
        let response;
        try {
            response = parseJson(text);
        }
        catch {
            throw new HttpError(url, status, text.slice(0, 200), "the body is not JSON");
        }
        if (typeof response !== "object" || response === null || Array.isArray(response))
            throw new HttpError(url, status, text.slice(0, 200), "the body is not a JSON-RPC response object");
        const r = response;
        if (r.error !== undefined && r.error !== null) {
            const e = r.error;
            const code = typeof e.code === "number" ? e.code : Number(e.code);
            throw new RpcError(method, code, typeof e.message === "string" ? e.message : String(e.message), e.data, url);
        }
        if (status !== 200)
            throw new HttpError(url, status, text.slice(0, 200), "no JSON-RPC error object in a non-200 answer");
        if (!("result" in r))
            throw new HttpError(url, status, text.slice(0, 200), "the response has neither result nor error");
        return r.result;
    }
    post(url, body) {
        return new Promise((resolve, reject) => {
            const headers = {
                "content-type": "text/plain;",
                "content-length": Buffer.byteLength(body),
                accept: "application/json",
            };
            if (this.authHeader !== undefined)
                headers.authorization = this.authHeader;
            let settled = false;
            const fail = (err) => {
                if (settled)
                    return;
                settled = true;
                clearTimeout(timer);
                reject(err);
            };
            const req = this.transport.request(url, { method: "POST", headers, agent: this.agent }, (res) => {
                const chunks = [];
                let size = 0;
                res.on("data", (chunk) => {
                    size += chunk.length;
                    if (size > MAX_RESPONSE_BYTES) {
                        req.destroy();
                        fail(new HttpError(url, res.statusCode ?? 0, "", `response larger than ${MAX_RESPONSE_BYTES} bytes`));
                        return;
                    }
                    chunks.push(chunk);
                });
                res.on("end", () => {
                    if (settled)
                        return;
                    settled = true;
                    clearTimeout(timer);
                    resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") });
                });
                res.on("error", (err) => fail(toUnreachable(url, err)));
            });
            const timer = setTimeout(() => {
                fail(new UnreachableError(url, "timeout", `no complete answer within ${this.timeoutMs} ms`, "ETIMEDOUT"));
                req.destroy();
            }, this.timeoutMs);
            req.on("error", (err) => fail(toUnreachable(url, err)));
            req.end(body);
        });
    }
    // ───────────────────────────── §4.1 main methods (/v2) ─────────────────────────────
    /** `ablock-by-height`: admin block at a directory block height. */
    ablockByHeight(params) {
        return this.call("ablock-by-height", params);
    }
    /** `admin-block`: admin block by its lookup hash (keymr). */
    adminBlock(params) {
        return this.call("admin-block", params);
    }
    ack(params) {
        return this.call("ack", params);
    }
    /** `chain-head`: keymr of the chain's newest entry block. Unknown chain → RpcError -32009. */
    chainHead(params) {
        return this.call("chain-head", params);
    }
    /** `commit-chain`: submit a signed 200-byte chain commit (hex). */
    commitChain(params) {
        return this.call("commit-chain", params);
    }
    /** `commit-entry`: submit a signed 136-byte entry commit (hex). */
    commitEntry(params) {
        return this.call("commit-entry", params);
    }
    /** `current-minute`: timing of the open block (times in ns since the epoch). */
    currentMinute() {
        return this.call("current-minute");
    }
    /** `dblock-by-height`: full directory block (header timestamp in minutes). */
    dblockByHeight(params) {
        return this.call("dblock-by-height", params);
    }
    /** `directory-block`: simplified directory block by keymr (timestamp in seconds). */
    directoryBlock(params) {
        return this.call("directory-block", params);
    }
    /** `directory-block-head`: keymr of the newest saved directory block. */
    directoryBlockHead() {
        return this.call("directory-block-head");
    }
    /** `ecblock-by-height`: entry credit block at a height. */
    ecblockByHeight(params) {
        return this.call("ecblock-by-height", params);
    }
    /** `entrycredit-block`: entry credit block by header hash. */
    entrycreditBlock(params) {
        return this.call("entrycredit-block", params);
    }
    /** `entry`: an entry by hash (also pending ones). Unknown → RpcError -32008. */
    entry(params) {
        return this.call("entry", params);
    }
    /** `entry-ack` (deprecated; use ack). */
    entryAck(params) {
        return this.call("entry-ack", params);
    }
    /** `entry-block`: entry block by keymr. */
    entryBlock(params) {
        return this.call("entry-block", params);
    }
    /** `entry-credit-balance`: EC balance of an EC… address (entry credits). */
    entryCreditBalance(params) {
        return this.call("entry-credit-balance", params);
    }
    /** `entry-credit-rate`: base units of the asset per entry credit. */
    entryCreditRate() {
        return this.call("entry-credit-rate");
    }
    /** `asset-ack` (deprecated; use ack with chainid "f"). */
    assetAck(params) {
        return this.call("asset-ack", params);
    }
    /** `asset-balance`: balance of an FA… address, base units. */
    assetBalance(params) {
        return this.call("asset-balance", params);
    }
    /** `asset-block`: asset block by keymr. */
    assetBlock(params) {
        return this.call("asset-block", params);
    }
    /** `fblock-by-height`: asset block at a height. */
    fblockByHeight(params) {
        return this.call("fblock-by-height", params);
    }
    /** `asset-submit`: submit a signed transaction (hex). */
    assetSubmit(params) {
        return this.call("asset-submit", params);
    }
    /** `heights`: directory, leader, entry block and entry heights. */
    heights() {
        return this.call("heights");
    }
    /** `multiple-ec-balances`: EC balances (ack and saved) of several EC… addresses. */
    multipleEcBalances(params) {
        return this.call("multiple-ec-balances", params);
    }
    /** `multiple-asset-balances`: balances in base units of several FA… addresses. */
    multipleAssetBalances(params) {
        return this.call("multiple-asset-balances", params);
    }
    /** `pending-entries`: entries submitted and not yet in a block. */
    pendingEntries(params = {}) {
        return this.call("pending-entries", params);
    }
    /** `pending-transactions`: transactions not yet in a block, optionally touching one address. */
    pendingTransactions(params = {}) {
        return this.call("pending-transactions", params);
    }
    /** `properties`: node and API versions. */
    properties() {
        return this.call("properties");
    }
    /** `raw-data`: binary (hex) of an entry, transaction, commit or block by hash. */
    rawData(params) {
        return this.call("raw-data", params);
    }
    /** `receipt`: Merkle proof of an entry up to its directory block. Not yet in a block → RpcError -32010. */
    receipt(params) {
        return this.call("receipt", params);
    }
    /** `reveal-chain`: reveal the first entry of a chain (hex of the marshalled entry). */
    revealChain(params) {
        return this.call("reveal-chain", params);
    }
    /** `reveal-entry`: reveal an entry (hex of the marshalled entry). */
    revealEntry(params) {
        return this.call("reveal-entry", params);
    }
    /** `send-raw-message`: inject a binary network message (debugging). */
    sendRawMessage(params) {
        return this.call("send-raw-message", params);
    }
    /** `transaction`: a transaction, commit or entry by hash with where it was included. */
    transaction(params) {
        return this.call("transaction", params);
    }
    // ───────────────────────────── §4.2 debug methods (/debug) ─────────────────────────────
    /** `holding-queue`: messages waiting in the holding queue. */
    holdingQueue() {
        return this.call("holding-queue", undefined, "debug");
    }
    /** `network-info`: network number, name and ID. */
    networkInfo() {
        return this.call("network-info", undefined, "debug");
    }
    /** `predictive-fer`: predicted entry credit rate, base units per EC. */
    predictiveFer() {
        return this.call("predictive-fer", undefined, "debug");
    }
    /** `audit-servers` */
    auditServers() {
        return this.call("audit-servers", undefined, "debug");
    }
    /** `federated-servers` */
    federatedServers() {
        return this.call("federated-servers", undefined, "debug");
    }
    /** `configuration`: the node's effective configuration (spec §4.2.1). */
    configuration() {
        return this.call("configuration", undefined, "debug");
    }
    /** `process-list`: the open block's process list (shape not fixed by the spec). */
    processList() {
        return this.call("process-list", undefined, "debug");
    }
    /** `authorities` */
    authorities() {
        return this.call("authorities", undefined, "debug");
    }
    /** `reload-configuration`: re-read the configuration file; returns it like `configuration`. */
    reloadConfiguration() {
        return this.call("reload-configuration", undefined, "debug");
    }
    /** `drop-rate`: dropped messages per 1000 (network testing). */
    dropRate() {
        return this.call("drop-rate", undefined, "debug");
    }
    /** `set-drop-rate` */
    setDropRate(params) {
        return this.call("set-drop-rate", params, "debug");
    }
    /** `delay`: message delay, ms (network testing). */
    delay() {
        return this.call("delay", undefined, "debug");
    }
    /** `set-delay` */
    setDelay(params) {
        return this.call("set-delay", params, "debug");
    }
    /** `summary`: one-line node summary. */
    summary() {
        return this.call("summary", undefined, "debug");
    }
    /** `messages`: message journal lines (node started with -journaling=true). */
    messages() {
        return this.call("messages", undefined, "debug");
    }
}
/** Every method name the client covers, by endpoint: the contract's spec methods (spec §4.1 and §4.2). */
export const NODE_METHODS = {
    v2: specMethods(V2_METHOD_NAMES),
    debug: specMethods(DEBUG_METHOD_NAMES),
};
function specMethods(names) {
    return Object.entries(names)
        .filter(([, origin]) => origin === "spec")
        .map(([name]) => name);
}
function toUnreachable(url, err) {
    const code = err.code ?? "";
    const reason = UNREACHABLE_CODES[code];
    if (reason !== undefined) {
        const detail = reason === "refused"
            ? "connection refused (is the node running, and on this port?)"
            : reason === "dns"
                ? `host name not found (${code})`
                : `${err.message}`;
        return new UnreachableError(url, reason, detail, code);
    }
    if (code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL") || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
        return new UnreachableError(url, "tls", `TLS handshake failed (${code}: ${err.message}); pass the node's certificate as the CA file, and check the host name is in it`, code);
    return new UnreachableError(url, "network", err.message, code || undefined);
}
//# sourceMappingURL=nodeClient.js.map