/**
 * The `/live` WebSocket route (docs/api.md, "Live event feed") on a hyper-express server: the API's server
 * and the control panel's mount the same feed. The upgrade request passes the server's own checks (Basic
 * auth) first; a refused upgrade is answered over plain HTTP (401, or 503 when the feed is full). A failed
 * login waits and is logged like one on /v2 (loginGuard.ts, issue 19 item 4).
 */
import type HyperExpress from "hyper-express";
import { AUTH_REALM, authEnabled, authorized, UNAUTHORIZED_BODY } from "../auth.js";
import { type LoginGuard, throttledBody } from "../loginGuard.js";
import type { FeedConnection } from "./connection.js";
import type { LiveFeed } from "./feed.js";

/** The path of the feed on both servers. */
export const LIVE_PATH = "/live";

/**
 * Most bytes of one client frame. A subscribe request of a few hundred chains or hashes fits (~70 bytes
 * per hex ID); larger lists go in several frames. uWS closes a connection sending more (code 1009).
 */
const MAX_CLIENT_FRAME_BYTES = 64 * 1024;

/**
 * Seconds without any frame before uWS closes the connection. uWS pings idle connections itself
 * (sendPingsAutomatically), so a live client that answers pings is never closed by this.
 */
const IDLE_TIMEOUT_SECONDS = 120;

export interface LiveRouteRefusal {
  status: number;
  headers: [string, string][];
  body: string;
  /** settles when the refusal may be sent (a failed login's delay) */
  wait?: Promise<void>;
}

export interface LiveRouteChecks {
  /** undefined to accept, or the refusal */
  refuse(req: HyperExpress.Request): LiveRouteRefusal | undefined;
  /** the caller's address, for the feed's per-address connection limit ("" when unknown) */
  remote(req: HyperExpress.Request): string;
}

/** Mount the feed at LIVE_PATH on `app`. */
export function mountLiveRoute(app: HyperExpress.Server, feed: LiveFeed, checks: LiveRouteChecks): void {
  app.ws(
    LIVE_PATH,
    {
      idle_timeout: IDLE_TIMEOUT_SECONDS,
      message_type: "String",
      max_payload_length: MAX_CLIENT_FRAME_BYTES,
      // The feed never lets a connection go over its own limit; uWS's (larger) is only a backstop.
      max_backpressure: 64 * 1024 * 1024,
    },
    (ws) => {
      let conn: FeedConnection | undefined;
      const source = (ws.context as { source?: string } | undefined)?.source ?? "";
      conn = feed.open(
        {
          send: (text) => {
            ws.send(text);
          },
          end: (code, reason) => {
            if (!ws.closed) ws.close(code, reason);
          },
          bufferedBytes: () => (ws.closed ? 0 : ws.buffered),
        },
        source,
      );
      ws.on("message", (text: string) => {
        if (conn !== undefined) feed.message(conn, text);
      });
      ws.on("drain", () => {
        if (conn !== undefined) feed.drained(conn);
      });
      ws.on("close", () => {
        if (conn !== undefined) feed.closed(conn);
        conn = undefined;
      });
    },
  );
  app.upgrade(LIVE_PATH, async (req, res) => {
    const refusal = checks.refuse(req);
    const source = checks.remote(req);
    const full = refusal === undefined ? feed.hasRoom(source) : undefined;
    if (full !== undefined) {
      res.status(full.status).header("Content-Type", "text/plain; charset=utf-8").send(`${full.reason}\n`);
      return;
    }
    if (refusal !== undefined) {
      if (refusal.wait !== undefined) await refusal.wait;
      if (res.completed) return; // the client went away while it waited
      res.status(refusal.status);
      for (const [name, value] of refusal.headers) res.header(name, value);
      res.send(refusal.body);
      return;
    }
    res.upgrade({ source });
  });
}

/**
 * The API's Basic auth (auth.ts) as a route check: credentials read from the configuration per request; a
 * failure is counted and logged by `logins`, and its 401 waits the failed-login delay.
 */
export function basicAuthCheck(
  credentials: () => { user: string; pass: string },
  logins: LoginGuard,
  remote: (req: HyperExpress.Request) => string = remoteOf,
): LiveRouteChecks {
  return {
    remote,
    refuse: (req) => {
      const { user, pass } = credentials();
      const header = req.headers.authorization;
      if (!authEnabled(user, pass)) return undefined;
      const address = remote(req);
      const retryAfter = logins.refusal(address);
      if (retryAfter !== undefined)
        return {
          status: 429,
          headers: [
            ["Content-Type", "text/plain; charset=utf-8"],
            ["Retry-After", String(retryAfter)],
          ],
          body: throttledBody(retryAfter),
        };
      if (authorized(header, user, pass)) {
        logins.succeeded(address);
        return undefined;
      }
      return {
        wait: logins.failed(address, header === undefined ? "missing" : "wrong", LIVE_PATH),
        status: 401,
        headers: [
          ["Content-Type", "text/plain; charset=utf-8"],
          ["WWW-Authenticate", `Basic realm="${AUTH_REALM}"`],
        ],
        body: UNAUTHORIZED_BODY,
      };
    },
  };
}

/** The caller's address, "" when uWS no longer knows it. */
export function remoteOf(req: HyperExpress.Request): string {
  try {
    return req.ip;
  } catch {
    return "";
  }
}

/** The caller's address behind the -httpfront (rpc/httpFront.ts: from the PROXY header), "" when unknown. */
export function proxiedRemoteOf(req: HyperExpress.Request): string {
  try {
    return req.proxy_ip;
  } catch {
    return "";
  }
}
