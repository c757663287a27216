/**
 * The first request head of a connection, checked before uWebSockets.js sees it (httpFront.ts). The uWS
 * build in use (20.30) drops what its parser does not take without calling JavaScript and without a status
 * line; this file decides, for a complete head, whether uWS will parse it, and otherwise which status the
 * client gets (the reference node's Go server answers the same cases with 400/405/505).
 *
 * The rules below are exactly the cases measured on that build with raw sockets (docs/operations.md §5):
 * a method other than its nine, a target that is not a path, HTTP/1.0, a version other than 1.x, a missing
 * `Host`, a header line that is not `name: value` (also obs-fold), a control character in a value, more
 * than 48 header lines. What uWS parses passes unchanged; an HTTP/1.0 head is rewritten to HTTP/1.1 with
 * `Connection: close`, so the one answer it gets ends the connection as HTTP/1.0 expects.
 */

/** The methods the uWS router knows (any other closes the connection at once, no status line). */
export const UWS_METHODS: ReadonlySet<string> = new Set([
  "GET",
  "POST",
  "PUT",
  "DELETE",
  "PATCH",
  "OPTIONS",
  "HEAD",
  "CONNECT",
  "TRACE",
]);

/** Methods the node serves somewhere (the `Allow` header of a 405 and of `OPTIONS *`). */
export const ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";

/**
 * Most header lines, `Host` included. uWS 20.30 serves 48 and leaves a head with 49 unanswered until its
 * 10 s timeout (measured with raw sockets); 431 beyond. A new uWS build would change this.
 */
export const MAX_HEADER_LINES = 48;

/**
 * Most bytes of a request head (request line, headers, the blank line). uWS 20.30 took a 100 KiB header
 * value and closed the connection on 200 KiB (measured); 64 KiB keeps every head we pass within what it takes
 * and is far beyond what a JSON-RPC client sends (a few hundred bytes). 431 beyond.
 */
export const MAX_HEAD_BYTES = 64 * 1024;

/** What to do with a complete request head. */
export type HeadVerdict =
  /** forward the bytes as they are: uWS parses them */
  | { kind: "pass" }
  /** forward `head` (latin1) in place of the received one */
  | { kind: "rewrite"; head: string }
  /** answer this status and close the connection */
  | { kind: "answer"; status: number; reason: string; headers?: readonly [string, string][] };

/** Reason phrases of the statuses this file answers. */
export const REASON_PHRASES: Readonly<Record<number, string>> = {
  200: "OK",
  400: "Bad Request",
  405: "Method Not Allowed",
  408: "Request Timeout",
  431: "Request Header Fields Too Large",
  505: "HTTP Version Not Supported",
};

/** RFC 9110 token characters (methods, header names). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A control character other than HTAB, or DEL (RFC 9110 §5.5; Go refuses the same). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** A target byte uWS or a client could misread: controls, space, DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const BAD_TARGET_CHAR = /[\x00-\x20\x7f]/;

function bad(reason: string): HeadVerdict {
  return { kind: "answer", status: 400, reason };
}

/** Quote a received piece of the head in an answer: printable ASCII only, at most 40 characters. */
function quote(s: string): string {
  const shown = s.length > 40 ? `${s.slice(0, 40)}…` : s;
  return JSON.stringify(shown).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Index of the first LF not preceded by CR in `text` (latin1), or -1. uWS waits for CRLF line ends and
 * leaves a bare-LF head unanswered; it is refused as soon as it is seen.
 */
export function bareLineFeed(text: string): number {
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1))
    if (i === 0 || text[i - 1] !== "\r") return i;
  return -1;
}

/**
 * Check one complete request head: `head` is latin1 text from the request line through the blank line
 * (ending in CRLF CRLF), with no bare LF (see `bareLineFeed`).
 */
export function checkRequestHead(head: string): HeadVerdict {
  const lines = head.slice(0, -4).split("\r\n");
  const requestLine = lines[0] ?? "";
  const parts = requestLine.split(" ");
  if (parts.length !== 3 || parts.some((p) => p === "")) return bad(`malformed request line ${quote(requestLine)}`);
  const [method, target, version] = parts as [string, string, string];
  const v = /^HTTP\/(\d)\.(\d)$/.exec(version);
  if (v === null) return bad(`malformed HTTP version ${quote(version)}`);
  if (v[1] !== "1") return { kind: "answer", status: 505, reason: `HTTP/${v[1]}.${v[2]} is not served; use HTTP/1.1` };
  if (!TOKEN.test(method)) return bad(`malformed method ${quote(method)}`);
  if (!UWS_METHODS.has(method))
    return { kind: "answer", status: 405, reason: `method ${quote(method)}`, headers: [["Allow", ALLOWED_METHODS]] };
  if (BAD_TARGET_CHAR.test(target)) return bad("control character in the request target");

  let hostLines = 0;
  let originLines = 0;
  const lengths = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith(" ") || line.startsWith("\t")) return bad("header continuation line (obsolete line folding)");
    const colon = line.indexOf(":");
    const name = colon > 0 ? line.slice(0, colon) : "";
    if (!TOKEN.test(name)) return bad(`malformed header line ${quote(line)}`);
    if (CONTROL.test(line.slice(colon + 1))) return bad(`control character in header ${quote(name)}`);
    const lower = name.toLowerCase();
    if (lower === "host") hostLines++;
    else if (lower === "origin") originLines++;
    else if (lower === "content-length") lengths.add(line.slice(colon + 1).trim());
  }
  if (lines.length - 1 > MAX_HEADER_LINES)
    return { kind: "answer", status: 431, reason: `more than ${MAX_HEADER_LINES} header lines` };
  if (hostLines > 1) return bad("more than one Host header");
  if (originLines > 1) return bad("more than one Origin header");
  // RFC 9112 §6.3: differing lengths make the message's end ambiguous (request smuggling); a list is one too
  if (lengths.size > 1 || [...lengths].some((l) => l.includes(","))) return bad("more than one Content-Length value");

  if (target === "*") {
    // Go's server answers `OPTIONS *` itself (200, no body); `*` means nothing to any other method
    if (method === "OPTIONS") return { kind: "answer", status: 200, reason: "", headers: [["Allow", ALLOWED_METHODS]] };
    return bad(`request target * with method ${method}`);
  }
  if (!target.startsWith("/")) return bad(`request target ${quote(target)}: expected a path starting with /`);

  if (v[2] === "1") return hostLines === 1 ? { kind: "pass" } : bad("missing required Host header");
  // HTTP/1.0 (and 1.2 … 1.9, served as 1.1): one request, then the connection closes
  const kept = lines.slice(1).filter((l) => {
    const name = l.slice(0, l.indexOf(":")).toLowerCase();
    return name !== "connection" && name !== "keep-alive";
  });
  // an absent Host (allowed in HTTP/1.0) stays empty: the Host check (requestOrigin.ts) passes both alike
  if (hostLines === 0) kept.unshift("Host: ");
  return { kind: "rewrite", head: `${method} ${target} HTTP/1.1\r\n${kept.join("\r\n")}\r\nConnection: close\r\n\r\n` };
}

/** The bytes of an answer to a refused head: status line, a plain-text reason, `Connection: close`. */
export function answerBytes(verdict: Extract<HeadVerdict, { kind: "answer" }>): string {
  const phrase = REASON_PHRASES[verdict.status] ?? "Error";
  const body = verdict.status === 200 ? "" : `${verdict.status} ${phrase}: ${verdict.reason}\n`;
  const extra = (verdict.headers ?? []).map(([n, val]) => `${n}: ${val}\r\n`).join("");
  return (
    `HTTP/1.1 ${verdict.status} ${phrase}\r\n${extra}` +
    (body === "" ? "" : "Content-Type: text/plain; charset=utf-8\r\n") +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}
