/**
 * One keep-alive HTTP/1.1 connection of the load generator, written on a bare TCP socket: the request
 * bytes go out in one write, the reply is split on its headers and its body taken by Content-Length (or
 * chunked transfer coding). node:http's client costs ~25 µs of the generator's CPU per request (its
 * parser, IncomingMessage streams, Agent bookkeeping), which at 16,000 req/s is most of a core the node
 * under test would otherwise have (docs/performance.md §"Limits of the generator"). One request at a
 * time per connection (no pipelining): the traffic is the same as before.
 */
import net from "node:net";

/** A reply as the wire carried it. */
export interface RawReply {
  status: number;
  body: Buffer;
}

/** A failure of the connection itself; `timeout` when no byte came for the timeout. */
export class ConnectionError extends Error {
  constructor(
    message: string,
    readonly timeout = false,
  ) {
    super(message);
  }
}

const HEADER_END = Buffer.from("\r\n\r\n");
/** Largest header block accepted, bytes (our node sends ~100). */
const MAX_HEADER_BYTES = 16 * 1024;

interface Pending {
  resolve: (reply: RawReply) => void;
  reject: (error: ConnectionError) => void;
}

export class RawConnection {
  private readonly socket: net.Socket;
  private pending: Pending | undefined;
  private buffered: Buffer | undefined;
  private closed = false;
  /** the server asked to close after the current reply */
  private closeAfter = false;

  /** @param timeoutMs a request with no byte of reply for this long fails (and the connection closes) */
  constructor(host: string, port: number, timeoutMs: number) {
    this.socket = net.connect({ host, port });
    this.socket.setNoDelay(true);
    this.socket.setTimeout(timeoutMs);
    this.socket.on("data", (chunk: Buffer) => this.onData(chunk));
    this.socket.on("timeout", () => {
      if (this.pending !== undefined) this.fail(new ConnectionError(`no reply within ${timeoutMs} ms`, true));
    });
    this.socket.on("error", (e) => this.fail(new ConnectionError(`request: ${e.message}`)));
    this.socket.on("close", () => this.fail(new ConnectionError("request: socket hang up")));
  }

  /** True once the connection can no longer carry requests. */
  get dead(): boolean {
    return this.closed || this.closeAfter;
  }

  /** Send one request (`head` ends with the blank line) and resolve with its reply. One at a time. */
  request(head: string, body: string): Promise<RawReply> {
    if (this.pending !== undefined) return Promise.reject(new ConnectionError("connection busy"));
    if (this.closed) return Promise.reject(new ConnectionError("request: socket hang up"));
    return new Promise<RawReply>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket.write(head + body);
    });
  }

  destroy(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private fail(error: ConnectionError): void {
    this.closed = true;
    this.socket.destroy();
    const p = this.pending;
    this.pending = undefined;
    p?.reject(error);
  }

  private onData(chunk: Buffer): void {
    const buf = this.buffered === undefined ? chunk : Buffer.concat([this.buffered, chunk]);
    this.buffered = buf;
    const parsed = parseReply(buf);
    if (parsed === "incomplete") return;
    if (parsed === "bad") {
      this.fail(new ConnectionError("request: unreadable HTTP reply"));
      return;
    }
    this.buffered = parsed.used < buf.length ? buf.subarray(parsed.used) : undefined;
    if (parsed.close) this.closeAfter = true;
    const p = this.pending;
    this.pending = undefined;
    if (p === undefined) {
      this.fail(new ConnectionError("request: a reply nobody asked for"));
      return;
    }
    p.resolve({ status: parsed.status, body: parsed.body });
    if (this.closeAfter) this.destroy();
  }
}

/**
 * One HTTP/1.1 reply at the start of `buf`: its status, body and the bytes it took; "incomplete" until
 * every byte is there, "bad" for anything that is not a reply this client can read.
 */
export function parseReply(
  buf: Buffer,
): { status: number; body: Buffer; used: number; close: boolean } | "incomplete" | "bad" {
  const end = buf.indexOf(HEADER_END);
  if (end < 0) return buf.length > MAX_HEADER_BYTES ? "bad" : "incomplete";
  const head = buf.toString("latin1", 0, end);
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  if (m === null) return "bad";
  const status = Number(m[1]);
  const lower = head.toLowerCase();
  const close = /\r\nconnection:\s*close/.test(lower);
  const start = end + 4;
  const length = /\r\ncontent-length:\s*(\d+)/.exec(lower);
  if (length !== null) {
    const used = start + Number(length[1]);
    if (buf.length < used) return "incomplete";
    return { status, body: buf.subarray(start, used), used, close };
  }
  if (/\r\ntransfer-encoding:\s*chunked/.test(lower)) return parseChunked(buf, start, status, close);
  return "bad";
}

function parseChunked(
  buf: Buffer,
  start: number,
  status: number,
  close: boolean,
): { status: number; body: Buffer; used: number; close: boolean } | "incomplete" | "bad" {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buf.indexOf("\r\n", at, "latin1");
    if (lineEnd < 0) return "incomplete";
    const size = Number.parseInt(buf.toString("latin1", at, lineEnd), 16);
    if (!Number.isFinite(size) || size < 0) return "bad";
    const dataStart = lineEnd + 2;
    if (size === 0) {
      // no trailers from the servers we talk to: the last chunk is followed by one blank line
      if (buf.length < dataStart + 2) return "incomplete";
      return { status, body: Buffer.concat(parts), used: dataStart + 2, close };
    }
    if (buf.length < dataStart + size + 2) return "incomplete";
    parts.push(buf.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
