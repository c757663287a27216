/**
 * Cross-site requests and DNS rebinding (issue 19 item 3). A web page the node's user opens can send a
 * "simple" request (POST with `Content-Type: text/plain`, no pre-flight) to a node on localhost, and a page on a
 * domain the attacker re-points to 127.0.0.1 reaches it as "same origin". Two checks stop both, while
 * `text/plain` bodies keep working for the existing non-browser clients:
 *
 * - `Host` must name this node: any IP address literal (rebinding needs a name), `localhost`, the listen
 *   host, `-selfaddr` names, `[Walletd] NodeLocation`, or an `[App] AllowedHosts` entry (`*` = any). As geth's
 *   `--http.vhosts` (default `localhost`), which also lets IP literals through.
 * - `Origin`, which browsers send and other clients do not, must be listed in `[App] CorsDomains`, or be the
 *   request's own `Host` (a same-origin request, which the `Host` check already limited to this node's names).
 */
import { isIP } from "node:net";
import { locationHost } from "../config/index.js";
import type { NodeConfig } from "../config/types.js";
import { allowedOrigin } from "./cors.js";

/** Body of a refused request (HTTP 403, plain text). */
export const FORBIDDEN_PREFIX = "403 Forbidden: ";

/** Longest header value quoted back in a refusal. */
const QUOTE_CHARS = 80;

type Names = Pick<NodeConfig, "listenHost" | "selfAddrs" | "nodeLocation" | "allowedHosts" | "corsDomains">;

function bareName(host: string): string {
  return locationHost(host).trim().toLowerCase().replace(/\.$/, "");
}

/** Does the `Host` header name this node? An absent header (HTTP/1.0, not a browser) passes. */
export function hostAllowed(host: string | undefined, config: Names): boolean {
  if (host === undefined || host === "") return true;
  const name = bareName(host);
  if (isIP(name) !== 0 || name === "localhost") return true;
  for (const allowed of [config.listenHost, ...config.selfAddrs, config.nodeLocation, ...config.allowedHosts]) {
    const a = allowed.trim().toLowerCase().replace(/\.$/, "");
    if (a === "*" || a === name) return true;
    if (a.startsWith("*.") && name.endsWith(a.slice(1))) return true;
  }
  return false;
}

/** May a request with this `Origin` (absent for non-browser clients) reach the node? */
export function originAllowed(origin: string | undefined, host: string | undefined, config: Names): boolean {
  if (origin === undefined || origin === "") return true;
  if (allowedOrigin(origin, config.corsDomains) !== undefined) return true;
  // same origin: scheme://host[:port] where host[:port] is the request's own Host header
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/]+)$/i.exec(origin.trim());
  return m !== null && host !== undefined && m[1]!.toLowerCase() === host.trim().toLowerCase();
}

/** Why a request must be refused (the 403 body), or undefined when it may go on. */
export function foreignRequestRefusal(
  headers: Readonly<Record<string, string | undefined>>,
  config: Names,
): string | undefined {
  const host = headers.host;
  if (!hostAllowed(host, config))
    return (
      `${FORBIDDEN_PREFIX}Host ${quote(host!)} is not a name of this node ` +
      "(add it to [App] AllowedHosts, or to -selfaddr)\n"
    );
  if (!originAllowed(headers.origin, host, config))
    return `${FORBIDDEN_PREFIX}Origin ${quote(headers.origin!)} is not allowed (list it in [App] CorsDomains)\n`;
  return undefined;
}

function quote(value: string): string {
  return JSON.stringify(value.length > QUOTE_CHARS ? `${value.slice(0, QUOTE_CHARS)}…` : value);
}
