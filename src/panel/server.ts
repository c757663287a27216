/**
 * The control panel (docs/panel.md): a second hyper-express server on ControlPanelPort (default 8090,
 * loopback unless ControlPanelListenHost says otherwise) with the node's Basic auth and TLS. It serves
 *
 *   /                      the single-page app (src/panel/web/, built by `make build`), its CSS, and the
 *   /assets/…              browser libraries it uses, all from the project (no CDN, no network access),
 *                          with the proof verifier's protocol modules (proofAssets.ts);
 *   /rpc/v2, /rpc/debug    the node's JSON-RPC methods, in process, limited to reads (readonly) or reads plus
 *                          the network-testing knobs set-drop-rate, set-delay, reload-configuration (readwrite);
 *                          writes (commits, reveals, transactions) never;
 *   /panel/…               views the API has no method for (panelApi.ts): node status, block pages, search,
 *                          chain pages, address pages;
 *   /live                  the same live event feed as the API port.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import HyperExpress from "hyper-express";
import type { ControlPanelSetting } from "../config/types.js";
import { InvariantError } from "../errors.js";
import { authEnabled, authorized } from "../rpc/auth.js";
import type { RequestInfo, RpcContext } from "../rpc/context.js";
import { debugMethods } from "../rpc/debug/index.js";
import { auditServers, federatedServers } from "../rpc/debug/network.js";
import { type Endpoint, encodeJson, handleBody, type MethodTable } from "../rpc/jsonrpc.js";
import type { LiveFeed } from "../rpc/live/feed.js";
import { basicAuthCheck, type LiveRouteChecks, mountLiveRoute, remoteOf } from "../rpc/live/route.js";
import { LoginGuard, throttledBody } from "../rpc/loginGuard.js";
import { ListenError } from "../rpc/portCheck.js";
import { foreignRequestRefusal } from "../rpc/requestOrigin.js";
import { TLS12_CIPHERS } from "../rpc/tls.js";
import { v2Methods } from "../rpc/v2/index.js";
import { PanelApi, PanelRequestError } from "./panelApi.js";
import { proofAssets } from "./proofAssets.js";

type Request = HyperExpress.Request;
type Response = HyperExpress.Response;

/** /v2 methods that change the ledger: never through the panel. */
const WRITE_METHODS = new Set([
  "commit-chain",
  "commit-entry",
  "reveal-chain",
  "reveal-entry",
  "asset-submit",
  "send-raw-message",
]);
/** /debug methods that change the node: only with ControlPanelSetting = readwrite. */
const KNOB_METHODS = new Set(["set-drop-rate", "set-delay", "reload-configuration"]);
/** /debug methods the panel never offers (the journal can be large; configuration shows secrets redacted anyway). */
const HIDDEN_DEBUG = new Set(["messages"]);

/** Where the built front end and the static files are, from dist/src/panel at run time. */
const HERE = dirname(fileURLToPath(import.meta.url));
const PROJECT_ROOT = join(HERE, "..", "..", "..");

/** The browser modules (src/panel/web/*.ts, compiled by the panel's tsconfig), served as /assets/<name>.js. */
const WEB_MODULES = [
  "app",
  "state",
  "view",
  "overview",
  "explorer",
  "entryPage",
  "addressPage",
  "searchPages",
  "settings",
  "scheduled",
  "receipt",
  "proofPage",
  "proofCheck",
  "chart",
] as const;

/** Every file the panel serves: URL path → [file, content type]. Nothing else is read from disk. */
const ASSETS: Record<string, [string, string]> = {
  "/": [join(PROJECT_ROOT, "src", "panel", "static", "index.html"), "text/html; charset=utf-8"],
  "/assets/panel.css": [join(PROJECT_ROOT, "src", "panel", "static", "panel.css"), "text/css; charset=utf-8"],
  // the browser modules of src/panel/web (WEB_MODULES)
  ...Object.fromEntries(
    WEB_MODULES.map((m): [string, [string, string]] => [
      `/assets/${m}.js`,
      [join(HERE, "web", `${m}.js`), "text/javascript; charset=utf-8"],
    ]),
  ),
  "/assets/favicon.svg": [join(PROJECT_ROOT, "src", "panel", "static", "favicon.svg"), "image/svg+xml"],
  // uPlot (charts), from the project's node_modules
  "/assets/uplot.js": [
    join(PROJECT_ROOT, "node_modules", "uplot", "dist", "uPlot.iife.min.js"),
    "text/javascript; charset=utf-8",
  ],
  "/assets/uplot.css": [
    join(PROJECT_ROOT, "node_modules", "uplot", "dist", "uPlot.min.css"),
    "text/css; charset=utf-8",
  ],
  // the proof verifier the page runs: the protocol's own rules and their imports, @noble/ed25519
  ...proofAssets(join(HERE, ".."), PROJECT_ROOT),
};
/** @noble/hashes files the browser imports (receipt and proof verification), served from node_modules. */
const NOBLE_FILES = ["sha2.js", "_md.js", "_u64.js", "utils.js"];
const NOBLE_DIR = join(PROJECT_ROOT, "node_modules", "@noble", "hashes");

/** Largest JSON-RPC body the panel takes, bytes: its requests are a method and a hash or two. */
const MAX_PANEL_BODY = 64 * 1024;

export interface ControlPanelOptions {
  port: number;
  host: string;
  setting: Exclude<ControlPanelSetting, "disabled">;
  tls?: { keyFile: string; certFile: string };
}

export interface ControlPanelDependencies {
  /** the API server's context: the same ledger, configuration, intake (knobs) and views */
  rpc: RpcContext;
  live: LiveFeed;
  /** the data directory (free space, database size) */
  dataDir: string;
  /** the API's port, shown on the overview */
  apiPort: () => number;
  /** the node's failed-login guard (the API's), so the panel shares its budgets */
  logins?: LoginGuard;
}

export class ControlPanel {
  private readonly app: HyperExpress.Server;
  private readonly v2: Endpoint;
  private readonly debug: Endpoint;
  private readonly api: PanelApi;
  private readonly files = new Map<string, { body: Buffer; type: string }>();
  private boundPort = 0;
  private listening = false;
  /** failed logins on this port: delayed and logged as on the API port */
  private readonly logins: LoginGuard;

  constructor(
    private readonly options: ControlPanelOptions,
    private readonly deps: ControlPanelDependencies,
  ) {
    const allowV2 = filter(v2Methods(), (m) => !WRITE_METHODS.has(m));
    const allowDebug = filter(
      debugMethods(),
      (m) => !HIDDEN_DEBUG.has(m) && (options.setting === "readwrite" || !KNOB_METHODS.has(m)),
    );
    this.v2 = { path: "/rpc/v2", methods: allowV2, elsewhere: () => undefined, suggest: false };
    this.debug = { path: "/rpc/debug", methods: allowDebug, elsewhere: () => undefined, suggest: false };
    this.api = new PanelApi(
      { setting: options.setting },
      {
        ledger: deps.rpc.ledger,
        getConfig: deps.rpc.getConfig,
        dataDir: deps.dataDir,
        apiPort: deps.apiPort,
        servers: () => ({
          federated: federatedServers(undefined, deps.rpc).FederatedServers,
          audit: auditServers(undefined, deps.rpc).AuditServers,
        }),
        scheduled: () => deps.rpc.cluster?.scheduledChanges?.(),
      },
    );
    this.loadFiles();
    this.logins = deps.logins ?? new LoginGuard({ log: deps.rpc.log });

    this.app = new HyperExpress.Server({
      // the API's TLS 1.2 suites (security review 3, L2: the panel also took CBC/SHA-1 suites)
      ...(options.tls
        ? { key_file_name: options.tls.keyFile, cert_file_name: options.tls.certFile, ssl_ciphers: TLS12_CIPHERS }
        : {}),
      auto_close: false,
      max_body_length: MAX_PANEL_BODY,
    });
    this.app.get("/*", (req, res) => this.guarded(req, res, () => this.serveGet(req, res)));
    this.app.post("/rpc/v2", (req, res) => this.guarded(req, res, () => this.serveRpc(req, res, this.v2)));
    this.app.post("/rpc/debug", (req, res) => this.guarded(req, res, () => this.serveRpc(req, res, this.debug)));
    mountLiveRoute(
      this.app,
      deps.live,
      this.liveChecks(
        basicAuthCheck(() => ({ user: deps.rpc.getConfig().rpcUser, pass: deps.rpc.getConfig().rpcPass }), this.logins),
      ),
    );
    this.app.set_not_found_handler((_req, res) => {
      res.status(404).header("Content-Type", "text/plain; charset=utf-8").send("404 page not found\n");
    });
    this.app.set_error_handler((_req, res, error) => {
      deps.rpc.log.error("control panel failure", { error: error.stack ?? error.message });
      if (!res.completed && !res.initiated) res.status(500).send("internal error\n");
    });
  }

  get port(): number {
    return this.boundPort;
  }

  /** Where a browser opens the panel (the listen host, or 127.0.0.1 for a wildcard address). */
  get url(): string {
    const host = this.options.host === "0.0.0.0" || this.options.host === "::" ? "127.0.0.1" : this.options.host;
    return `${this.options.tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${this.boundPort}/`;
  }

  async listen(): Promise<void> {
    try {
      await this.app.listen(this.options.port, this.options.host);
    } catch (e) {
      throw new ListenError(
        `control panel: cannot listen on ${this.options.host}:${this.options.port}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    this.boundPort = this.app.port;
    this.listening = true;
    this.deps.rpc.log.info("control panel listening", {
      url: `${this.options.tls ? "https" : "http"}://${this.options.host}:${this.boundPort}/`,
      setting: this.options.setting,
    });
  }

  async close(): Promise<void> {
    if (!this.listening) return;
    this.listening = false;
    if (this.deps.logins === undefined) this.logins.close();
    this.app.close();
    try {
      (this.app.uws_instance as unknown as { close?: () => void }).close?.();
    } catch {
      // in-flight requests aborted
    }
  }

  /** Read every asset once at start: a missing file (front end not built) fails the start, not a page. */
  private loadFiles(): void {
    for (const [path, [file, type]] of Object.entries(ASSETS)) {
      try {
        this.files.set(path, { body: readFileSync(file), type });
      } catch (e) {
        throw new InvariantError(
          `control panel: cannot read ${file} (${e instanceof Error ? e.message : String(e)}); run make build`,
        );
      }
    }
    for (const name of NOBLE_FILES)
      this.files.set(`/assets/noble-hashes/${name}`, {
        body: readFileSync(join(NOBLE_DIR, name)),
        type: "text/javascript; charset=utf-8",
      });
  }

  /** `/live`: the Host/Origin check (browsers apply no CORS to WebSockets), then `auth`. */
  private liveChecks(auth: LiveRouteChecks): LiveRouteChecks {
    return {
      remote: auth.remote,
      refuse: (req) => {
        const foreign = this.foreign(req);
        if (foreign !== undefined)
          return { status: 403, headers: [["Content-Type", "text/plain; charset=utf-8"]], body: foreign };
        return auth.refuse(req);
      },
    };
  }

  /** The Host/Origin check of the API port (requestOrigin.ts), with the panel's listen host as a name of its own. */
  private foreign(req: Request): string | undefined {
    return foreignRequestRefusal(req.headers, { ...this.deps.rpc.getConfig(), listenHost: this.options.host });
  }

  /** Host/Origin (DNS rebinding: a page must not read the panel), then Basic auth, before anything else. */
  private async guarded(req: Request, res: Response, serve: () => Promise<void> | void): Promise<void> {
    const config = this.deps.rpc.getConfig();
    const foreign = this.foreign(req);
    if (foreign !== undefined) {
      res.status(403).header("Content-Type", "text/plain; charset=utf-8").send(foreign);
      return;
    }
    const auth = authEnabled(config.rpcUser, config.rpcPass);
    const retryAfter = auth ? this.logins.refusal(remoteOf(req)) : undefined;
    if (retryAfter !== undefined) {
      res
        .status(429)
        .header("Retry-After", String(retryAfter))
        .header("Content-Type", "text/plain; charset=utf-8")
        .send(throttledBody(retryAfter));
      return;
    }
    if (auth && !authorized(req.headers.authorization, config.rpcUser, config.rpcPass)) {
      const why = req.headers.authorization === undefined ? "missing" : "wrong";
      await this.logins.failed(remoteOf(req), why, req.path);
      if (res.completed) return;
      res
        .status(401)
        .header("WWW-Authenticate", 'Basic realm="ledgerd control panel"')
        .header("Content-Type", "text/plain; charset=utf-8")
        .send("401 Unauthorized.\n");
      return;
    }
    if (auth) this.logins.succeeded(remoteOf(req));
    await serve();
  }

  private serveGet(req: Request, res: Response): void {
    const path = req.path;
    const file = this.files.get(path);
    if (file !== undefined) {
      res
        .status(200)
        .header("Content-Type", file.type)
        .header("Cache-Control", "no-cache")
        .header("X-Content-Type-Options", "nosniff")
        // connect-src http: https:: the proof page asks the Ethereum RPC URL its user gives for an anchor's
        // transaction (docs/panel.md); scripts stay the panel's own ('self'), so only its code can connect
        .header(
          "Content-Security-Policy",
          "default-src 'self'; connect-src 'self' ws: wss: http: https:; img-src 'self' data:; style-src 'self'; script-src 'self'",
        )
        .send(file.body);
      return;
    }
    if (path.startsWith("/panel/")) {
      let status = 200;
      let body: unknown;
      try {
        body = this.api.get(path.slice("/panel/".length), req.query_parameters as Record<string, string>);
      } catch (e) {
        if (!(e instanceof PanelRequestError)) throw e;
        status = e.status;
        body = { error: e.message };
      }
      res.status(status).header("Content-Type", "application/json; charset=utf-8").send(encodeJson(body));
      return;
    }
    res.status(404).header("Content-Type", "text/plain; charset=utf-8").send("404 page not found\n");
  }

  private async serveRpc(req: Request, res: Response, endpoint: Endpoint): Promise<void> {
    const config = this.deps.rpc.getConfig();
    // The debug methods only where the API serves them (DebugApi not off), as on the API port.
    if (endpoint === this.debug && config.debugApi === "off") {
      res.status(404).header("Content-Type", "text/plain; charset=utf-8").send("404 page not found\n");
      return;
    }
    const text = new TextDecoder().decode(await req.buffer());
    // The caller as the API sees one: the knobs also need DebugApi = readwrite and a loopback caller
    // (rpc/debug/access.ts); the panel's own credential check (the API's) has passed.
    const request: RequestInfo = {
      receivedMs: performance.now(),
      remote: safeRemote(req),
      credential: authEnabled(config.rpcUser, config.rpcPass) ? "rpc" : "none",
    };
    const answer = await handleBody(text, endpoint, { ...this.deps.rpc, request }, config.maxBatch);
    if (res.completed) return;
    res.status(answer.status).header("Content-Type", "application/json; charset=utf-8").send(answer.body);
  }
}

function safeRemote(req: Request): string {
  try {
    return req.ip;
  } catch {
    return "";
  }
}

function filter(table: MethodTable, keep: (method: string) => boolean): MethodTable {
  return new Map([...table].filter(([m]) => keep(m)));
}
