import { readFileSync } from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import {
  DEBUG_METHOD_NAMES,
  type DebugMethods,
  type PageParams,
  type ParamsOf,
  type ResultOf,
  V2_METHOD_NAMES,
  type V2Methods,
} from "../rpc/methods.js";
import {
  AuthError,
  ClientConfigError,
  HttpError,
  RpcError,
  UnreachableError,
  type UnreachableReason,
} from "./errors.js";
import { parseJson, stringifyJson } from "./json.js";
import type { AckParams, AssetAckResult, EntryAckResult } from "./types.js";

/** The params of a `/v2` method (rpc/methods.ts); each wrapper's result type follows from its method name. */
type V2Params<M extends keyof V2Methods> = ParamsOf<V2Methods, M>;
/** The params of a `/debug` method. */
type DebugParams<M extends keyof DebugMethods> = ParamsOf<DebugMethods, M>;

export interface NodeClientOptions {
  /** base URL of the node, e.g. http://127.0.0.1:8088 (a trailing /v2 is accepted and ignored) */
  url: string;
  /** HTTP Basic authentication (spec §5); both or neither */
  user?: string;
  password?: string;
  /** PEM certificate(s) to trust for an https URL (the node's generated certificate) */
  caFile?: string;
  /** whole-request deadline, milliseconds (default 30 000) */
  timeoutMs?: number;
}

/** The query extensions that answer pages (`nextcursor`); the client has a wrapper for each. */
export const QUERY_METHODS = ["chain-entries", "search-entries", "search-chains", "address-history"] as const;
export type PagedMethod = (typeof QUERY_METHODS)[number];

/** Which interface a method lives on (spec §4.1 → /v2, §4.2 → /debug). */
export type Endpoint = "v2" | "debug";

/**
 * Default per-request deadline, ms. The slowest legitimate call is a block fetch with rawdata of a
 * full block (~1 MB) on a loaded node, well under a second here; 30 s only catches a hung node.
 */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * How long a new https connection may take to finish its TLS handshake, ms. A local handshake takes a few
 * ms (hundreds on a loaded machine); a node that speaks plain HTTP never answers the ClientHello and closes
 * the connection only after its own 10-s idle window, so without this bound a wrong scheme hung ~10.5 s.
 */
export const TLS_HANDSHAKE_TIMEOUT_MS = 5_000;

/** Largest response body accepted, bytes: far above any block (spec limits entries to 10 KiB, blocks to ~MBs). */
const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/** Network error codes that mean "no node answered", mapped to a reason for UnreachableError. */
const UNREACHABLE_CODES: Record<string, UnreachableReason> = {
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
  readonly baseUrl: string;
  readonly timeoutMs: number;
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;
  private readonly authHeader: string | undefined;
  private nextId = 1;

  constructor(options: NodeClientOptions) {
    let parsed: URL;
    try {
      parsed = new URL(options.url);
    } catch {
      throw new ClientConfigError(
        `node URL ${JSON.stringify(options.url)} is not a valid URL (example: http://127.0.0.1:8088)`,
      );
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
      let ca: Buffer | undefined;
      if (options.caFile !== undefined && options.caFile !== "") {
        try {
          ca = readFileSync(options.caFile);
        } catch (e) {
          throw new ClientConfigError(
            `CA file ${options.caFile}: cannot read it (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
          );
        }
      }
      this.transport = https;
      this.agent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}) });
    } else {
      if (options.caFile !== undefined && options.caFile !== "")
        throw new ClientConfigError(
          `a CA file was given but the node URL ${options.url} is http; use https:// for TLS`,
        );
      this.transport = http;
      this.agent = new http.Agent({ keepAlive: true });
    }
  }

  /** Close idle keep-alive connections (call when done so the process can exit promptly). */
  close(): void {
    this.agent.destroy();
  }

  /**
   * Call any method. `params` omitted → no `params` member is sent. Resolves with `result`.
   * @throws RpcError | AuthError | UnreachableError | HttpError
   */
  call<M extends keyof V2Methods>(method: M, params?: ParamsOf<V2Methods, M>): Promise<ResultOf<V2Methods, M>>;
  call<M extends keyof DebugMethods>(
    method: M,
    params: ParamsOf<DebugMethods, M>,
    endpoint: "debug",
  ): Promise<ResultOf<DebugMethods, M>>;
  call<T>(method: string, params?: unknown, endpoint?: Endpoint): Promise<T>;
  async call<T>(method: string, params?: unknown, endpoint: Endpoint = "v2"): Promise<T> {
    const id = this.nextId++;
    const body = stringifyJson(
      params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params },
    );
    const url = `${this.baseUrl}/${endpoint}`;
    const { status, text } = await this.post(url, body);
    if (status === 401) throw new AuthError(url, this.authHeader !== undefined);
    let response: unknown;
    try {
      response = parseJson(text);
    } catch {
      throw new HttpError(url, status, text.slice(0, 200), "the body is not JSON");
    }
    if (typeof response !== "object" || response === null || Array.isArray(response))
      throw new HttpError(url, status, text.slice(0, 200), "the body is not a JSON-RPC response object");
    const r = response as { result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } };
    if (r.error !== undefined && r.error !== null) {
      const e = r.error;
      const code = typeof e.code === "number" ? e.code : Number(e.code);
      throw new RpcError(method, code, typeof e.message === "string" ? e.message : String(e.message), e.data, url);
    }
    if (status !== 200)
      throw new HttpError(url, status, text.slice(0, 200), "no JSON-RPC error object in a non-200 answer");
    if (!("result" in r))
      throw new HttpError(url, status, text.slice(0, 200), "the response has neither result nor error");
    return r.result as T;
  }

  private post(url: string, body: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = {
        "content-type": "text/plain;",
        "content-length": Buffer.byteLength(body),
        accept: "application/json",
      };
      if (this.authHeader !== undefined) headers.authorization = this.authHeader;
      let settled = false;
      const fail = (err: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(err);
      };
      const req = this.transport.request(url, { method: "POST", headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy();
            fail(new HttpError(url, res.statusCode ?? 0, "", `response larger than ${MAX_RESPONSE_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          if (settled) return;
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
      if (this.transport === https)
        req.on("socket", (socket) => {
          // a kept-alive socket is already past its handshake; a new one gets a bound on it
          if (!socket.connecting) return;
          const handshake = setTimeout(() => {
            fail(
              new UnreachableError(
                url,
                "timeout",
                `no TLS handshake within ${TLS_HANDSHAKE_TIMEOUT_MS} ms (does the node speak plain HTTP?)`,
                "ETIMEDOUT",
              ),
            );
            req.destroy();
          }, TLS_HANDSHAKE_TIMEOUT_MS);
          socket.once("secureConnect", () => clearTimeout(handshake));
          socket.once("close", () => clearTimeout(handshake));
        });
      req.end(body);
    });
  }

  // ───────────────────────────── §4.1 main methods (/v2) ─────────────────────────────

  /** `ablock-by-height`: admin block at a directory block height. */
  ablockByHeight(params: V2Params<"ablock-by-height">) {
    return this.call("ablock-by-height", params);
  }
  /** `admin-block`: admin block by its lookup hash (keymr). */
  adminBlock(params: V2Params<"admin-block">) {
    return this.call("admin-block", params);
  }
  /** `ack`: status of a transaction (chainid "f"), commit ("c") or an entry (its chain ID). */
  ack(params: AckParams & { chainid: "f" }): Promise<AssetAckResult>;
  ack(params: AckParams): Promise<EntryAckResult | AssetAckResult>;
  ack(params: V2Params<"ack">): Promise<EntryAckResult | AssetAckResult> {
    return this.call("ack", params);
  }
  /** `chain-head`: keymr of the chain's newest entry block. Unknown chain → RpcError -32009. */
  chainHead(params: V2Params<"chain-head">) {
    return this.call("chain-head", params);
  }
  /** `commit-chain`: submit a signed 200-byte chain commit (hex). */
  commitChain(params: V2Params<"commit-chain">) {
    return this.call("commit-chain", params);
  }
  /** `commit-entry`: submit a signed 136-byte entry commit (hex). */
  commitEntry(params: V2Params<"commit-entry">) {
    return this.call("commit-entry", params);
  }
  /** `current-minute`: timing of the open block (times in ns since the epoch). */
  currentMinute() {
    return this.call("current-minute");
  }
  /** `dblock-by-height`: full directory block (header timestamp in minutes). */
  dblockByHeight(params: V2Params<"dblock-by-height">) {
    return this.call("dblock-by-height", params);
  }
  /** `directory-block`: simplified directory block by keymr (timestamp in seconds). */
  directoryBlock(params: V2Params<"directory-block">) {
    return this.call("directory-block", params);
  }
  /** `directory-block-head`: keymr of the newest saved directory block. */
  directoryBlockHead() {
    return this.call("directory-block-head");
  }
  /** `ecblock-by-height`: entry credit block at a height. */
  ecblockByHeight(params: V2Params<"ecblock-by-height">) {
    return this.call("ecblock-by-height", params);
  }
  /** `entrycredit-block`: entry credit block by header hash. */
  entrycreditBlock(
    params: ParamsOf<V2Methods, "entrycredit-block">,
  ): Promise<ResultOf<V2Methods, "entrycredit-block">> {
    return this.call("entrycredit-block", params);
  }
  /** `entry`: an entry by hash (also pending ones). Unknown → RpcError -32008. */
  entry(params: V2Params<"entry">) {
    return this.call("entry", params);
  }
  /** `entry-ack` (deprecated; use ack). */
  entryAck(params: V2Params<"entry-ack">) {
    return this.call("entry-ack", params);
  }
  /** `entry-block`: entry block by keymr. */
  entryBlock(params: V2Params<"entry-block">) {
    return this.call("entry-block", params);
  }
  /** `entry-credit-balance`: EC balance of an EC… address (entry credits). */
  entryCreditBalance(
    params: ParamsOf<V2Methods, "entry-credit-balance">,
  ): Promise<ResultOf<V2Methods, "entry-credit-balance">> {
    return this.call("entry-credit-balance", params);
  }
  /** `entry-credit-rate`: base units of the asset per entry credit. */
  entryCreditRate() {
    return this.call("entry-credit-rate");
  }
  /** `asset-ack` (deprecated; use ack with chainid "f"). */
  assetAck(params: V2Params<"asset-ack">) {
    return this.call("asset-ack", params);
  }
  /** `asset-balance`: balance of an FA… address, base units. */
  assetBalance(params: V2Params<"asset-balance">) {
    return this.call("asset-balance", params);
  }
  /** `asset-block`: asset block by keymr. */
  assetBlock(params: V2Params<"asset-block">) {
    return this.call("asset-block", params);
  }
  /** `fblock-by-height`: asset block at a height. */
  fblockByHeight(params: V2Params<"fblock-by-height">) {
    return this.call("fblock-by-height", params);
  }
  /** `asset-submit`: submit a signed transaction (hex). */
  assetSubmit(params: V2Params<"asset-submit">) {
    return this.call("asset-submit", params);
  }
  /** `heights`: directory, leader, entry block and entry heights. */
  heights() {
    return this.call("heights");
  }
  /** `multiple-ec-balances`: EC balances (ack and saved) of several EC… addresses. */
  multipleEcBalances(
    params: ParamsOf<V2Methods, "multiple-ec-balances">,
  ): Promise<ResultOf<V2Methods, "multiple-ec-balances">> {
    return this.call("multiple-ec-balances", params);
  }
  /** `multiple-asset-balances`: balances in base units of several FA… addresses. */
  multipleAssetBalances(
    params: ParamsOf<V2Methods, "multiple-asset-balances">,
  ): Promise<ResultOf<V2Methods, "multiple-asset-balances">> {
    return this.call("multiple-asset-balances", params);
  }
  /** `pending-entries`: entries submitted and not yet in a block. */
  pendingEntries(params: V2Params<"pending-entries"> = {}) {
    return this.call("pending-entries", params);
  }
  /** `pending-transactions`: transactions not yet in a block, optionally touching one address. */
  pendingTransactions(
    params: ParamsOf<V2Methods, "pending-transactions"> = {},
  ): Promise<ResultOf<V2Methods, "pending-transactions">> {
    return this.call("pending-transactions", params);
  }
  /** `properties`: node and API versions. */
  properties() {
    return this.call("properties");
  }
  /** `raw-data`: binary (hex) of an entry, transaction, commit or block by hash. */
  rawData(params: V2Params<"raw-data">) {
    return this.call("raw-data", params);
  }
  /** `receipt`: Merkle proof of an entry up to its directory block. Not yet in a block → RpcError -32010. */
  receipt(params: V2Params<"receipt">) {
    return this.call("receipt", params);
  }
  /** `reveal-chain`: reveal the first entry of a chain (hex of the marshalled entry). */
  revealChain(params: V2Params<"reveal-chain">) {
    return this.call("reveal-chain", params);
  }
  /** `reveal-entry`: reveal an entry (hex of the marshalled entry). */
  revealEntry(params: V2Params<"reveal-entry">) {
    return this.call("reveal-entry", params);
  }
  /** `send-raw-message`: inject a binary network message (debugging). */
  sendRawMessage(params: V2Params<"send-raw-message">) {
    return this.call("send-raw-message", params);
  }
  /** `transaction`: a transaction, commit or entry by hash with where it was included. */
  transaction(params: V2Params<"transaction">) {
    return this.call("transaction", params);
  }

  // ───────────────────────────── query extensions (docs/api.md "Query extensions") ─────────────────────────────

  /** `chain-entries`: a page of a chain's saved entries, in ledger order (`order: "desc"` reversed). */
  chainEntries(params: V2Params<"chain-entries">) {
    return this.call("chain-entries", params);
  }
  /** `search-entries`: saved entries whose ext IDs start with `extids` (hex). */
  searchEntries(params: V2Params<"search-entries">) {
    return this.call("search-entries", params);
  }
  /** `search-chains`: chains whose first entry's ext IDs start with `extids` (hex). */
  searchChains(params: V2Params<"search-chains">) {
    return this.call("search-chains", params);
  }
  /** `address-history`: asset inputs and outputs of an FA address, purchases and commits of an EC address. */
  addressHistory(params: V2Params<"address-history">) {
    return this.call("address-history", params);
  }
  /**
   * `proof`: a self-contained proof of a saved entry (entry, receipt branch, directory block header, the
   * majority's signatures and the authority changes from genesis), to check with no node
   * (`ledgerd-wallet proof --verify`). Not yet signed by the next block → RpcError -32000.
   */
  proof(params: V2Params<"proof">) {
    return this.call("proof", params);
  }
  /**
   * Every page of a paged query method, from `params.cursor` (or the start) until `nextcursor` is "": each page
   * as the node answered it (its `resumecursor` is where to go on later, once more is saved).
   */
  async *pages<M extends PagedMethod>(method: M, params: V2Params<M>): AsyncGenerator<ResultOf<V2Methods, M>> {
    const base = params as PageParams;
    let cursor = base.cursor ?? "";
    for (;;) {
      const page = (await this.call(method, { ...base, cursor } as V2Params<M>)) as ResultOf<V2Methods, M>;
      yield page;
      const next = (page as { nextcursor: string }).nextcursor;
      if (next === "") return;
      cursor = next;
    }
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
  setDropRate(params: DebugParams<"set-drop-rate">) {
    return this.call("set-drop-rate", params, "debug");
  }
  /** `delay`: message delay, ms (network testing). */
  delay() {
    return this.call("delay", undefined, "debug");
  }
  /** `set-delay` */
  setDelay(params: DebugParams<"set-delay">) {
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
export const NODE_METHODS: Readonly<Record<Endpoint, readonly string[]>> = {
  v2: specMethods(V2_METHOD_NAMES),
  debug: specMethods(DEBUG_METHOD_NAMES),
};

function specMethods(names: Readonly<Record<string, "spec" | "extension">>): string[] {
  return Object.entries(names)
    .filter(([, origin]) => origin === "spec")
    .map(([name]) => name);
}

function toUnreachable(url: string, err: Error): UnreachableError {
  const code = (err as NodeJS.ErrnoException).code ?? "";
  const reason = UNREACHABLE_CODES[code];
  if (reason !== undefined) {
    const detail =
      reason === "refused"
        ? "connection refused (is the node running, and on this port?)"
        : reason === "dns"
          ? `host name not found (${code})`
          : `${err.message}`;
    return new UnreachableError(url, reason, detail, code);
  }
  if (code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL") || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))
    return new UnreachableError(
      url,
      "tls",
      `TLS handshake failed (${code}: ${err.message}); pass the node's certificate as the CA file, and check the host name is in it`,
      code,
    );
  return new UnreachableError(url, "network", err.message, code || undefined);
}
