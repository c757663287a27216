/**
 * CORS (reference api-behavior §1.4, the rs/cors 1.7 behaviour the reference node uses): active only when
 * `corsDomains` is configured. Origins match case-insensitively; an entry `*` allows any origin and a `*`
 * inside an entry is a wildcard. Allowed methods GET, POST, HEAD; allowed request headers Origin, Accept,
 * Content-Type and (unlike the reference, so browsers can use Basic auth) Authorization. No credentials
 * mode, no max-age.
 */

/** Methods a cross-origin caller may use. */
const ALLOWED_METHODS = new Set(["GET", "POST", "HEAD"]);
/** Request headers a pre-flight may ask for, lower case. */
const ALLOWED_HEADERS = new Set(["origin", "accept", "content-type", "authorization"]);

const PREFLIGHT_VARY = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers";

export type HeaderList = [name: string, value: string][];

/** Is `origin` allowed by `domains`? Returns the Access-Control-Allow-Origin value, or undefined. */
export function allowedOrigin(origin: string, domains: readonly string[]): string | undefined {
  const o = origin.toLowerCase();
  for (const raw of domains) {
    const d = raw.trim().toLowerCase();
    if (d === "") continue;
    if (d === "*") return "*";
    const star = d.indexOf("*");
    if (star < 0) {
      if (d === o) return origin;
      continue;
    }
    const prefix = d.slice(0, star);
    const suffix = d.slice(star + 1);
    if (o.length >= prefix.length + suffix.length && o.startsWith(prefix) && o.endsWith(suffix)) return origin;
  }
  return undefined;
}

/** True when the request is a CORS pre-flight. */
export function isPreflight(method: string, headers: Readonly<Record<string, string | undefined>>): boolean {
  return method === "OPTIONS" && (headers["access-control-request-method"] ?? "") !== "";
}

/** Headers of a pre-flight answer (200, empty body). */
export function preflightHeaders(
  headers: Readonly<Record<string, string | undefined>>,
  domains: readonly string[],
): HeaderList {
  const out: HeaderList = [["Vary", PREFLIGHT_VARY]];
  const origin = headers.origin ?? "";
  if (origin === "") return out;
  const allow = allowedOrigin(origin, domains);
  if (allow === undefined) return out;
  const method = (headers["access-control-request-method"] ?? "").toUpperCase();
  if (!ALLOWED_METHODS.has(method)) return out;
  const requested = (headers["access-control-request-headers"] ?? "")
    .split(",")
    .map((h) => h.trim())
    .filter((h) => h !== "");
  if (!requested.every((h) => ALLOWED_HEADERS.has(h.toLowerCase()))) return out;
  out.push(["Access-Control-Allow-Origin", allow], ["Access-Control-Allow-Methods", method]);
  if (requested.length > 0) out.push(["Access-Control-Allow-Headers", requested.join(", ")]);
  return out;
}

/** Headers added to an actual (non-pre-flight) request's answer. */
export function actualRequestHeaders(
  method: string,
  headers: Readonly<Record<string, string | undefined>>,
  domains: readonly string[],
): HeaderList {
  const out: HeaderList = [["Vary", "Origin"]];
  const origin = headers.origin ?? "";
  if (origin === "" || !ALLOWED_METHODS.has(method)) return out;
  const allow = allowedOrigin(origin, domains);
  if (allow !== undefined) out.push(["Access-Control-Allow-Origin", allow]);
  return out;
}
