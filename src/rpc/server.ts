/**
 * The HTTP side of the API (spec §1, §5; reference api-behavior §1): hyper-express (uWebSockets.js),
 * optional TLS, routes `/v2` and `/debug`, Basic auth, CORS, body limits, request logs. `/v2` and `/debug` are
 * served straight on uWebSockets.js (uwsExchange.ts: hyper-express's request and response objects cost more
 * than the JSON-RPC work of a light read); `/live`, the plain routes and 404s go through hyper-express.
 *
 * Order of checks per request: route (/debug only when DebugApi is not off) → CORS pre-flight → Basic auth
 * (on /debug the debug credential counts too) → body size → JSON-RPC envelope.
 * The configuration is read through `getConfig()` on every request, so `reload-configuration` changes
 * credentials, CORS domains and the batch limit without a restart (the body limit is fixed at start).
 *
 * Status codes: 200 success; 400 any JSON-RPC error (clients rely on it); 401 auth failure (plain text);
 * 404 unknown path (plain text), or `/debug` with a verb other than GET/POST (empty); 413 (a JSON-RPC -32600 naming the limit) for a body
 * over config.maxBodyBytes.
 */
import { rmSync } from "node:fs";
// the global `performance` is an accessor that runs a getter on every use (Node 20): three per request here
import { performance } from "node:perf_hooks";
import HyperExpress from "hyper-express";
import type { NodeConfig } from "../config/types.js";
import { AddressCache } from "./addressCache.js";
import { AnswerCache, CHAIN_HEAD_ANSWER_BYTES, ENTRY_BLOCK_ANSWER_BYTES, KeptHeights } from "./answerCache.js";
import { AUTH_REALM, authEnabled, authorized, UNAUTHORIZED_BODY } from "./auth.js";
import { installJsonBodyLimitAnswer } from "./bodyLimit.js";
import { BodyBudget } from "./bodyReader.js";
import type { RequestInfo, RpcContext, RpcDependencies } from "./context.js";
import { actualRequestHeaders, type HeaderList, isPreflight, preflightHeaders } from "./cors.js";
import { debugMethods } from "./debug/index.js";
import { HttpFront } from "./httpFront.js";
import { MessageIntake } from "./intake.js";
import { type Endpoint, encodeJson, handleBodyToSend, type SendableAnswer } from "./jsonrpc.js";
import type { LiveFeed } from "./live/feed.js";
import { basicAuthCheck, mountLiveRoute, proxiedRemoteOf, remoteOf } from "./live/route.js";
import { LoginGuard, throttledBody } from "./loginGuard.js";
import { answerPlain } from "./plainRoutes.js";
import { assertPortFree, ListenError } from "./portCheck.js";
import { foreignRequestRefusal } from "./requestOrigin.js";
import { TLS12_CIPHERS } from "./tls.js";
import { type RequestHeaders, UwsExchange } from "./uwsExchange.js";
import { v2Methods } from "./v2/index.js";
import { ViewCache } from "./viewCache.js";

type Request = HyperExpress.Request;
type Response = HyperExpress.Response;

/** Content type of every JSON-RPC answer (the reference lets Go sniff `text/plain; charset=utf-8`). */
const JSON_CONTENT_TYPE = "application/json; charset=utf-8";
const TEXT_CONTENT_TYPE = "text/plain; charset=utf-8";
const NOT_FOUND_BODY = "404 page not found\n";
/** Answer to a failure of the server itself (HTTP 500). */
const INTERNAL_ANSWER = { jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } };
/** Answer to a body refused because unfinished bodies hold the whole budget (bodyReader.ts). */
const BUSY_ANSWER = {
  jsonrpc: "2.0",
  id: null,
  error: { code: -32000, message: "Node busy", data: "too many request bodies in transfer; retry later" },
};
/** No extra headers (shared: a HeaderList given to UwsExchange.send is only read). */
const NO_HEADERS: HeaderList = [];

/** Writes a request's debug line (status, and fields made only when the line is written). */
type RequestLog = (status: number, extra?: () => Record<string, unknown>) => undefined;

/** The request log when debug lines are off. */
const noLog: RequestLog = () => undefined;

export interface RpcServerOptions {
  /** TCP port; 0 picks a free one (read it back from `port` after `listen`) */
  port: number;
  host: string;
  /** serve HTTPS with these PEM files */
  tls?: { keyFile: string; certFile: string };
  /** serve this live event feed at /live (live/route.ts) */
  live?: LiveFeed;
  /**
   * -httpfront (httpFront.ts): a node:net listener on host:port answers what uWS would drop and hands the
   * rest to uWS listening on this Unix socket
   */
  front?: { socketPath: string };
}

export class RpcServer {
  private readonly app: HyperExpress.Server;
  private readonly ctx: RpcContext;
  private readonly v2: Endpoint;
  private readonly debug: Endpoint;
  private boundPort = 0;
  /** failed logins: delay, budgets per address and in total, log (shared with the panel and -metricsport) */
  readonly logins: LoginGuard;
  /** bytes held by unfinished request bodies, all connections (bodyReader.ts) */
  private readonly bodies = new BodyBudget();
  private listening = false;
  /** the -httpfront, when on */
  private readonly front: HttpFront | undefined;
  /** the caller's address of a hyper-express request (behind the front: the PROXY header's) */
  private readonly remoteOf: (req: Request) => string;
  private lastOrigin:
    | (Pick<NodeConfig, "listenHost" | "selfAddrs" | "nodeLocation" | "allowedHosts" | "corsDomains"> & {
        host: string | undefined;
        origin: string | undefined;
        refusal: string | undefined;
      })
    | undefined;

  constructor(
    private readonly options: RpcServerOptions,
    deps: RpcDependencies,
  ) {
    const config = deps.getConfig();
    this.ctx = {
      ...deps,
      intake: new MessageIntake(
        { dropRatePerMille: config.dropRatePerMille, delayMs: config.delayMs },
        { writeOutcomes: deps.ledger.writeOutcomes },
      ),
      views: new ViewCache(),
      addresses: new AddressCache(),
      entryAnswers: new AnswerCache(),
      chainHeadAnswers: new AnswerCache(CHAIN_HEAD_ANSWER_BYTES),
      entryBlockAnswers: new AnswerCache(ENTRY_BLOCK_ANSWER_BYTES),
      heightsAnswer: new KeptHeights(),
    };
    this.logins = new LoginGuard({ log: deps.log });
    const v2 = v2Methods();
    const debug = debugMethods();
    this.v2 = { path: "/v2", methods: v2, elsewhere: (m) => (debug.has(m) ? "/debug" : undefined) };
    this.debug = { path: "/debug", methods: debug, elsewhere: (m) => (v2.has(m) ? "/v2" : undefined) };

    this.front =
      options.front === undefined
        ? undefined
        : new HttpFront(
            { host: options.host, port: options.port, upstreamPath: options.front.socketPath },
            { log: deps.log },
          );
    this.remoteOf = options.front === undefined ? remoteOf : proxiedRemoteOf;
    installJsonBodyLimitAnswer();
    this.app = new HyperExpress.Server({
      ...(options.tls
        ? { key_file_name: options.tls.keyFile, cert_file_name: options.tls.certFile, ssl_ciphers: TLS12_CIPHERS }
        : {}),
      // The node owns process signals and shuts the server down itself.
      auto_close: false,
      // Body limit, enforced by hyper-express while the body arrives: a declared Content-Length over it is
      // answered 413 (a JSON-RPC -32600 naming the limit, see bodyLimit.ts) without reading; a chunked body is counted and cut at the limit; the rest
      // is discarded as it arrives, never buffered. Fixed at start (a changed MaxBodyBytes needs a restart).
      max_body_length: config.maxBodyBytes,
    });
    this.route("/v2", this.v2);
    this.route("/debug", this.debug);
    if (options.live !== undefined) {
      const auth = basicAuthCheck(
        () => ({ user: this.ctx.getConfig().rpcUser, pass: this.ctx.getConfig().rpcPass }),
        this.logins,
        this.remoteOf,
      );
      mountLiveRoute(this.app, options.live, {
        remote: auth.remote,
        // browsers apply no CORS to WebSockets: the Origin check is all that stops a page reading the feed
        refuse: (req) => {
          const foreign = foreignRequestRefusal(req.headers, this.ctx.getConfig());
          if (foreign !== undefined)
            return { status: 403, headers: [["Content-Type", TEXT_CONTENT_TYPE]], body: foreign };
          return auth.refuse(req);
        },
      });
    }
    for (const route of deps.plainRoutes ?? [])
      this.app.any(route.path, async (req, res) => {
        const foreign = foreignRequestRefusal(req.headers, this.ctx.getConfig());
        if (foreign !== undefined) return send(res, 403, foreign, TEXT_CONTENT_TYPE, []);
        const a = await answerPlain(route, req.method, req.headers.authorization, this.ctx.getConfig(), {
          guard: this.logins,
          remote: this.remoteOf(req),
        });
        send(res, a.status, a.body, a.contentType, a.headers ?? []);
      });
    this.app.set_not_found_handler((_req, res) => {
      res.status(404).header("Content-Type", TEXT_CONTENT_TYPE).send(NOT_FOUND_BODY);
    });
    this.app.set_error_handler((_req, res, error) => {
      this.ctx.log.error("rpc http failure", { error: error.stack ?? error.message });
      if (!res.completed && !res.initiated) {
        res.status(500).header("Content-Type", JSON_CONTENT_TYPE).send(encodeJson(INTERNAL_ANSWER));
      }
    });
  }

  /** The bound TCP port (the real one when the options asked for 0). */
  get port(): number {
    return this.boundPort;
  }

  /** The API's message intake (drop/delay knobs and counters). */
  get intake(): MessageIntake {
    return this.ctx.intake;
  }

  /** What the handlers use (the control panel answers the same methods in process). */
  get context(): RpcContext {
    return this.ctx;
  }

  /** Start listening; resolves once the socket is bound. */
  async listen(): Promise<void> {
    try {
      if (this.options.port !== 0) await assertPortFree(this.options.port, this.options.host);
      if (this.front === undefined) await this.app.listen(this.options.port, this.options.host);
      else {
        // a socket file left by a crash (the data directory lock says no other node uses it)
        rmSync(this.options.front!.socketPath, { force: true });
        await this.app.listen(this.options.front!.socketPath);
        try {
          await this.front.listen();
        } catch (e) {
          this.app.close();
          throw e;
        }
      }
    } catch (e) {
      throw new ListenError(
        `cannot listen on ${this.options.host}:${this.options.port}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    this.boundPort = this.front === undefined ? this.app.port : this.front.port;
    this.listening = true;
    this.ctx.log.info("rpc listening", {
      host: this.options.host,
      port: this.boundPort,
      scheme: this.options.tls ? "https" : "http",
      ...(this.front === undefined ? {} : { front: this.options.front!.socketPath }),
    });
  }

  /** Stop listening and close every open connection. */
  async close(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    this.logins.close();
    this.front?.close();
    this.app.close();
    // uWS keeps keep-alive connections open after the listen socket closes; close them all. Requests still
    // in flight are aborted; hyper-express may throw from its abort handler then, which must not escape.
    try {
      (this.app.uws_instance as unknown as { close?: () => void }).close?.();
    } catch (e) {
      this.ctx.log.debug("rpc close: aborting in-flight requests", {
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }

  /** `/v2` and `/debug` straight on uWebSockets.js (uwsExchange.ts: why, and what of hyper-express it keeps). */
  private route(path: string, endpoint: Endpoint): void {
    const maxBody = this.ctx.getConfig().maxBodyBytes;
    const viaFront = this.front !== undefined;
    this.app.uws_instance.any(path, (res, req) => {
      const x = new UwsExchange(res, req, this.bodies, maxBody, viaFront);
      // a declared length over the limit never reaches the handler (hyper-express's order): 413 once read
      if (x.refusedAtStart) return;
      try {
        this.serve(x, endpoint)?.catch((error: unknown) => this.failed(x, error));
      } catch (error) {
        this.failed(x, error);
      }
    });
  }

  /** Send the JSON-RPC answer `a` to a request that arrived at `started` (performance.now(), ms); count it. */
  private answer(
    x: UwsExchange,
    endpoint: Endpoint,
    corsHeaders: HeaderList,
    started: number,
    log: RequestLog,
    a: SendableAnswer,
  ): void {
    x.send(a.status, a.body, JSON_CONTENT_TYPE, corsHeaders);
    this.ctx.requestServed?.(endpoint.path, a.calls, (performance.now() - started) / 1000);
    if (log !== noLog)
      log(a.status, () => ({
        calls: a.calls.map((c) => (c.code === undefined ? c.method : `${c.method ?? "?"}:${c.code}`)),
      }));
  }

  /** Something threw after the request arrived: 500, logged. */
  private failed(x: UwsExchange, error: unknown): void {
    this.ctx.log.error("rpc http failure", {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    x.send(500, encodeJson(INTERNAL_ANSWER), JSON_CONTENT_TYPE, NO_HEADERS);
  }

  /**
   * `foreignRequestRefusal`, remembered for the last Host/Origin pair and the configuration fields it reads
   * (compared by identity: a reload replaces them): a client sends the same two headers on every request,
   * and the check (address parsing, name list) was 2.4 % of a loaded node's main thread answering `heights`.
   */
  private foreignRefusal(headers: RequestHeaders, config: NodeConfig): string | undefined {
    const m = this.lastOrigin;
    if (
      m !== undefined &&
      m.host === headers.host &&
      m.origin === headers.origin &&
      m.listenHost === config.listenHost &&
      m.selfAddrs === config.selfAddrs &&
      m.nodeLocation === config.nodeLocation &&
      m.allowedHosts === config.allowedHosts &&
      m.corsDomains === config.corsDomains
    )
      return m.refusal;
    const refusal = foreignRequestRefusal(headers, config);
    this.lastOrigin = {
      host: headers.host,
      origin: headers.origin,
      listenHost: config.listenHost,
      selfAddrs: config.selfAddrs,
      nodeLocation: config.nodeLocation,
      allowedHosts: config.allowedHosts,
      corsDomains: config.corsDomains,
      refusal,
    };
    return refusal;
  }

  /**
   * One request on `/v2` or `/debug`. Synchronous from the arrival of the body to the answer when the
   * method is (every read): no promise on that path. A returned promise (a refused login waits, a write's
   * handler) settles when the answer is sent; `failed` answers 500 for what throws after the body arrived.
   */
  private serve(x: UwsExchange, endpoint: Endpoint): Promise<void> | undefined {
    const config = this.ctx.getConfig();
    const method = x.method;
    const headers = x.headers;
    // The per-request line is debug level: with debug off, skip its fields too (the remote address alone
    // cost ~1 % of a loaded node's main thread) and make no closure for it. The address must be read before
    // the answer is sent.
    const debug = this.ctx.log.isEnabled("debug");
    const started = performance.now();
    const remote = debug ? x.remote() : "";
    const log: RequestLog = !debug
      ? noLog
      : (status, extra) => {
          this.ctx.log.debug("rpc request", {
            path: endpoint.path,
            http: method,
            status,
            remote,
            ms: performance.now() - started,
            ...extra?.(),
          });
        };

    // The debug API exists only when switched on (DebugApi: off by default on MAIN, as on the reference node).
    const isDebug = endpoint === this.debug;
    if (isDebug && config.debugApi === "off") {
      x.send(404, NOT_FOUND_BODY, TEXT_CONTENT_TYPE, NO_HEADERS);
      return log(404);
    }

    // A Host, Origin or (differing) Content-Length given twice: which one counts is ambiguous, so none does.
    if (headers.repeated !== undefined) {
      x.send(400, `400 Bad Request: more than one ${headers.repeated} header\n`, TEXT_CONTENT_TYPE, [
        ["Connection", "close"],
      ]);
      return log(400, () => ({ refused: `repeated ${headers.repeated}` }));
    }

    // Cross-site requests and DNS rebinding (requestOrigin.ts): before anything else answers.
    const foreign = this.foreignRefusal(headers, config);
    if (foreign !== undefined) {
      x.send(403, foreign, TEXT_CONTENT_TYPE, NO_HEADERS);
      return log(403, () => ({ refused: "host or origin" }));
    }

    const cors = config.corsDomains.length > 0;
    if (cors && isPreflight(method, headers)) {
      x.send(200, "", undefined, preflightHeaders(headers, config.corsDomains));
      return log(200, () => ({ preflight: true }));
    }
    // /debug answers only GET and POST; other verbs get an empty 404 (the reference's "not allowed").
    if (endpoint === this.debug && method !== "GET" && method !== "POST") {
      x.send(404, "", undefined, NO_HEADERS);
      return log(404);
    }
    const corsHeaders: HeaderList = cors ? actualRequestHeaders(method, headers, config.corsDomains) : NO_HEADERS;

    // On /debug the debug credential also lets a caller in (it is what the state-changing methods need off
    // loopback, debug/access.ts); the caller's address is read there only.
    const header = headers.authorization;
    const rpcAuth = authEnabled(config.rpcUser, config.rpcPass);
    // A spent failed-login budget is answered before the credentials are looked at: else a right guess
    // would still get in (loginGuard.ts).
    const address = rpcAuth ? (remote !== "" ? remote : x.remote()) : "";
    const retryAfter = rpcAuth ? this.logins.refusal(address) : undefined;
    if (retryAfter !== undefined) {
      x.send(429, throttledBody(retryAfter), TEXT_CONTENT_TYPE, [...corsHeaders, ["Retry-After", String(retryAfter)]]);
      return log(429, () => ({ auth: "throttled" }));
    }
    const credential: RequestInfo["credential"] =
      isDebug &&
      authEnabled(config.debugRpcUser, config.debugRpcPass) &&
      authorized(header, config.debugRpcUser, config.debugRpcPass)
        ? "debug"
        : rpcAuth && authorized(header, config.rpcUser, config.rpcPass)
          ? "rpc"
          : "none";
    if (rpcAuth && credential === "none") {
      const why = header === undefined ? "missing" : "wrong";
      return this.logins.failed(address, why, endpoint.path).then(() => {
        x.send(401, UNAUTHORIZED_BODY, TEXT_CONTENT_TYPE, [
          ...corsHeaders,
          ["WWW-Authenticate", `Basic realm="${AUTH_REALM}"`],
        ]);
        log(401, () => ({ auth: why }));
      });
    }
    if (rpcAuth) this.logins.succeeded(address);

    // Bodies over the limit: answered 413 by the exchange. Invalid UTF-8 sequences become U+FFFD, as with
    // the reference node.
    const caller = isDebug ? (remote !== "" ? remote : x.remote()) : "";
    x.body((body) => {
      try {
        if (body.kind === "gone") return log(0, () => ({ body: "gone" }));
        if (body.kind === "busy") {
          x.send(503, encodeJson(BUSY_ANSWER), JSON_CONTENT_TYPE, corsHeaders);
          return log(503, () => ({ body: "pending-body budget spent" }));
        }
        // the shared context with this request's facts on top (a spread of every dependency cost ~0.5 µs)
        const ctx = Object.create(this.ctx) as RpcContext;
        ctx.request = new ExchangeRequest(performance.now(), caller, credential, x);
        const a = handleBodyToSend(body.text, endpoint, ctx, config.maxBatch);
        if (a instanceof Promise)
          a.then((done) => this.answer(x, endpoint, corsHeaders, started, log, done)).catch((error: unknown) =>
            this.failed(x, error),
          );
        else this.answer(x, endpoint, corsHeaders, started, log, a);
      } catch (error) {
        this.failed(x, error);
      }
    });
    return undefined;
  }
}

/** RequestInfo of a request on `/v2` or `/debug` (a class: no closure per request for `address`). */
class ExchangeRequest implements RequestInfo {
  constructor(
    readonly receivedMs: number,
    readonly remote: string,
    readonly credential: RequestInfo["credential"],
    private readonly exchange: UwsExchange,
  ) {}

  /** The caller's address ("" once the client has gone); read once, then remembered by the exchange. */
  address(): string {
    return this.remote !== "" ? this.remote : this.exchange.remote();
  }
}

function send(res: Response, status: number, body: string, contentType: string | undefined, headers: HeaderList): void {
  if (res.completed) return; // the client went away
  res.status(status);
  if (contentType !== undefined) res.header("Content-Type", contentType);
  for (const [name, value] of headers) res.header(name, value);
  res.send(body);
}
