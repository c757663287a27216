/**
 * Plain HTTP routes beside JSON-RPC — `/health` and `/metrics` — answered the same way on the API port
 * (hyper-express, server.ts) and on the optional metrics port (metricsServer.ts). A route answers GET and
 * HEAD (HEAD: the headers only), 405 with `Allow` to anything else, and, when it asks for it, the API's
 * Basic auth first (401 as on /v2, after the same failed-login delay, loginGuard.ts).
 */
import type { NodeConfig } from "../config/types.js";
import { AUTH_REALM, authEnabled, authorized, UNAUTHORIZED_BODY } from "./auth.js";
import type { HeaderList } from "./cors.js";
import { type LoginGuard, throttledBody } from "./loginGuard.js";

export interface PlainAnswer {
  status: number;
  contentType: string;
  body: string;
  headers?: HeaderList;
}

export interface PlainRoute {
  path: string;
  /** behind the API's Basic auth when it is configured (/metrics); /health never is */
  auth: boolean;
  answer(): PlainAnswer | Promise<PlainAnswer>;
}

const TEXT = "text/plain; charset=utf-8";
const ALLOWED = "GET, HEAD";

/**
 * The answer of `route` to a request with this HTTP method and Authorization header.
 * @param logins the node's failed-login guard and the caller's address: a spent budget is answered 429
 *   before the credentials are looked at; a refused login is counted, logged and waited out
 */
export async function answerPlain(
  route: PlainRoute,
  method: string,
  authorization: string | undefined,
  config: NodeConfig,
  logins: { guard: LoginGuard; remote: string },
): Promise<PlainAnswer> {
  if (method !== "GET" && method !== "HEAD")
    return { status: 405, contentType: TEXT, body: "405 method not allowed\n", headers: [["Allow", ALLOWED]] };
  const auth = route.auth && authEnabled(config.rpcUser, config.rpcPass);
  const retryAfter = auth ? logins.guard.refusal(logins.remote) : undefined;
  if (retryAfter !== undefined)
    return {
      status: 429,
      contentType: TEXT,
      body: throttledBody(retryAfter),
      headers: [["Retry-After", String(retryAfter)]],
    };
  if (auth && !authorized(authorization, config.rpcUser, config.rpcPass)) {
    await logins.guard.failed(logins.remote, authorization === undefined ? "missing" : "wrong", route.path);
    return {
      status: 401,
      contentType: TEXT,
      body: UNAUTHORIZED_BODY,
      headers: [["WWW-Authenticate", `Basic realm="${AUTH_REALM}"`]],
    };
  }
  if (auth) logins.guard.succeeded(logins.remote);
  return route.answer();
}
