/**
 * The optional metrics listener (`-metricsport`, [App] MetricsPort): `/metrics` and `/health` on a port of
 * their own, so a scraper can reach them where the API port is firewalled, or the other way round. Plain
 * node:http (a scrape every few seconds needs no uWS); the same routes, auth, failed-login guard and
 * Host/Origin check (requestOrigin.ts: a page must not read /metrics through DNS rebinding) as on the API port.
 * Under `-tls` it is node:https with the API's certificate and TLS 1.2 suites (security review 3, M5: the port
 * stayed plain HTTP and took the API password in clear text).
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTlsServer } from "node:https";
import type { NodeConfig } from "../config/types.js";
import type { Logger } from "../log/logger.js";
import { LoginGuard } from "./loginGuard.js";
import { answerPlain, type PlainAnswer, type PlainRoute } from "./plainRoutes.js";
import { assertPortFree, ListenError } from "./portCheck.js";
import { foreignRequestRefusal } from "./requestOrigin.js";
import { TLS12_CIPHERS } from "./tls.js";

/** A request that sends no complete header block within this time is dropped, ms (a scrape sends ~200 bytes). */
const HEADERS_TIMEOUT_MS = 10_000;

export class MetricsServer {
  private readonly server: Server;
  private boundPort = 0;
  /** the guard this server made for itself (none given), closed with it */
  private ownLogins: LoginGuard | undefined;

  constructor(
    private readonly options: { port: number; host: string; tls?: { keyFile: string; certFile: string } },
    deps: {
      routes: readonly PlainRoute[];
      getConfig(): NodeConfig;
      log: Logger;
      /** the node's failed-login guard (the API's), so this port shares its budgets */
      logins?: LoginGuard;
    },
  ) {
    const routes = new Map(deps.routes.map((r) => [r.path, r]));
    const logins = deps.logins ?? new LoginGuard({ log: deps.log });
    if (deps.logins === undefined) this.ownLogins = logins;
    const timeouts = { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: HEADERS_TIMEOUT_MS };
    const tls = options.tls;
    const handle = (req: IncomingMessage, res: ServerResponse): void => {
      const path = (req.url ?? "/").split("?")[0]!;
      const route = routes.get(path);
      const config = deps.getConfig();
      const foreign = foreignRequestRefusal({ host: req.headers.host, origin: req.headers.origin }, config);
      const answer = foreign
        ? Promise.resolve<PlainAnswer>({ status: 403, contentType: "text/plain; charset=utf-8", body: foreign })
        : route
          ? answerPlain(route, req.method ?? "", req.headers.authorization, config, {
              guard: logins,
              remote: req.socket.remoteAddress ?? "",
            })
          : Promise.resolve<PlainAnswer>({
              status: 404,
              contentType: "text/plain; charset=utf-8",
              body: "404 page not found\n",
            });
      answer.then(
        (a) => {
          res.writeHead(a.status, [["Content-Type", a.contentType], ...(a.headers ?? [])].flat());
          res.end(req.method === "HEAD" ? undefined : a.body);
        },
        (e: unknown) => {
          deps.log.error("metrics request failed", { error: e instanceof Error ? e.message : String(e) });
          res.writeHead(500).end();
        },
      );
    };
    this.server =
      tls === undefined
        ? createServer(timeouts, handle)
        : createTlsServer(
            {
              ...timeouts,
              key: readFileSync(tls.keyFile),
              cert: readFileSync(tls.certFile),
              minVersion: "TLSv1.2",
              ciphers: TLS12_CIPHERS,
            },
            handle,
          );
  }

  /** The bound port (the real one when the options asked for 0). */
  get port(): number {
    return this.boundPort;
  }

  async listen(): Promise<void> {
    const { port, host } = this.options;
    try {
      if (port !== 0) await assertPortFree(port, host);
      await new Promise<void>((resolve, reject) => {
        this.server.once("error", reject);
        this.server.listen({ port, host }, () => {
          this.server.off("error", reject);
          resolve();
        });
      });
    } catch (e) {
      throw new ListenError(
        `cannot listen on ${host}:${port} (metrics): ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const address = this.server.address();
    this.boundPort = typeof address === "object" && address !== null ? address.port : port;
  }

  async close(): Promise<void> {
    if (!this.server.listening) return;
    this.ownLogins?.close();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
