/**
 * Keep-alive JSON-RPC client of the load generator: pre-serialized bodies in, parsed replies and
 * latency out. Only loopback addresses are accepted (house rule: load traffic never leaves the machine).
 */
import { ConnectionError, RawConnection, type RawReply } from "./connection.js";

/** Hosts the generator may talk to. */
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** What a success and an error reply contain (hex payloads never contain quotes, so no false match). */
const RESULT_MARK = Buffer.from('"result":');
const ERROR_MARK = Buffer.from('"error":{');

/** A JSON-RPC error object as the node sends it. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

/** One request's outcome. `error` is set for a JSON-RPC error, an HTTP failure or a transport failure. */
export interface RpcReply {
  result?: unknown;
  error?: RpcErrorObject;
  /** wall time from sending to the last byte of the reply, ms */
  ms: number;
}

/** Transport failures and non-JSON replies get these codes (outside JSON-RPC's range). */
export const TRANSPORT_ERROR = { code: -1, http: -2, badJson: -3, timeout: -4 } as const;

export interface RpcClientOptions {
  /** base URL, e.g. http://127.0.0.1:8088 */
  url: string;
  /** connections kept open: the number of requests in flight at most */
  maxSockets: number;
  /** a request not answered within this many ms fails with TRANSPORT_ERROR.timeout */
  timeoutMs: number;
}

/** Thrown by `call` when the node answers with an error. */
export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly error: RpcErrorObject,
  ) {
    super(
      `${method}: ${error.code} ${error.message}${error.data === undefined ? "" : ` (${JSON.stringify(error.data)})`}`,
    );
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Check that `url` is http(s) on a loopback host; returns the parsed URL. */
export function loopbackUrl(url: string): URL {
  const u = new URL(url);
  if (u.protocol !== "http:") throw new Error(`--url: only http:// is supported, got ${u.protocol}`);
  if (!LOOPBACK_HOSTS.has(u.hostname))
    throw new Error(`--url: load traffic stays on loopback; ${u.hostname} is not 127.0.0.1/localhost/::1`);
  return u;
}

export class RpcClient {
  /** the base URL given */
  readonly url: string;
  private readonly host: string;
  private readonly port: number;
  private readonly timeoutMs: number;
  private readonly maxSockets: number;
  /** connections open (idle or carrying a request) */
  private open = 0;
  private readonly idle: RawConnection[] = [];
  /** every connection made and not yet destroyed, for close() */
  private readonly all = new Set<RawConnection>();
  /** callers waiting for a connection, first come first served */
  private readonly waiting: ((c: RawConnection) => void)[] = [];
  private readonly heads = new Map<string, string>();

  constructor(options: RpcClientOptions) {
    const u = loopbackUrl(options.url);
    this.url = options.url;
    this.host = u.hostname.replace(/^\[|\]$/g, "");
    this.port = u.port === "" ? 80 : Number(u.port);
    this.timeoutMs = options.timeoutMs;
    this.maxSockets = options.maxSockets;
  }

  /**
   * POST a serialized JSON-RPC body to `path` (/v2 or /debug). Never rejects: failures come back in `error`.
   * With `wantResult` false (timed phases) a 200 reply carrying `"result":` and no `"error":{` counts as a
   * success without JSON.parse, which keeps the generator's CPU per request down; anything else is parsed.
   */
  async post(body: string, path = "/v2", wantResult = true): Promise<RpcReply> {
    const started = performance.now();
    const conn = await this.acquire();
    let raw: RawReply;
    try {
      raw = await conn.request(this.head(path, body), body);
    } catch (e) {
      this.release(conn);
      const timeout = e instanceof ConnectionError && e.timeout;
      return {
        error: { code: timeout ? TRANSPORT_ERROR.timeout : TRANSPORT_ERROR.code, message: errorText(e) },
        ms: performance.now() - started,
      };
    }
    this.release(conn);
    const ms = performance.now() - started;
    const text = raw.body;
    if (!wantResult && raw.status === 200 && text.indexOf(RESULT_MARK) >= 0 && text.indexOf(ERROR_MARK) < 0)
      return { ms };
    let parsed: { result?: unknown; error?: RpcErrorObject };
    try {
      parsed = JSON.parse(text.toString("utf8")) as { result?: unknown; error?: RpcErrorObject };
    } catch {
      return {
        error: {
          code: raw.status === 200 ? TRANSPORT_ERROR.badJson : TRANSPORT_ERROR.http,
          message: `HTTP ${raw.status}: ${text.toString("utf8", 0, 120)}`,
        },
        ms,
      };
    }
    if (parsed.error !== undefined && parsed.error !== null) return { error: parsed.error, ms };
    return { result: parsed.result, ms };
  }

  /** The request line and headers for `body` (its length is the only part that varies). */
  private head(path: string, body: string): string {
    const length = Buffer.byteLength(body);
    const key = `${path} ${length}`;
    let head = this.heads.get(key);
    if (head === undefined) {
      head =
        `POST ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n` +
        `Content-Type: text/plain;\r\nContent-Length: ${length}\r\n\r\n`;
      if (this.heads.size < 1024) this.heads.set(key, head);
    }
    return head;
  }

  private acquire(): Promise<RawConnection> {
    while (this.idle.length > 0) {
      const c = this.idle.pop()!;
      if (!c.dead) return Promise.resolve(c);
      this.all.delete(c);
      this.open--;
    }
    if (this.open < this.maxSockets) {
      this.open++;
      return Promise.resolve(this.connect());
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private connect(): RawConnection {
    const c = new RawConnection(this.host, this.port, this.timeoutMs);
    this.all.add(c);
    return c;
  }

  private release(conn: RawConnection): void {
    let c = conn;
    if (c.dead) {
      c.destroy();
      this.all.delete(c);
      if (this.waiting.length === 0) {
        this.open--;
        return;
      }
      c = this.connect();
    }
    const next = this.waiting.shift();
    if (next !== undefined) next(c);
    else this.idle.push(c);
  }

  /**
   * Call `method` and return its result; throws RpcCallError for an error reply (setup and checks, not
   * timed). A transport failure is retried `retries` times: the server closes keep-alive connections idle
   * for 10 s (uWebSockets), and a request that goes out on one just then fails with "socket hang up".
   * Pass 0 for a call that must not be sent twice.
   */
  async call<T = unknown>(method: string, params?: Record<string, unknown>, path = "/v2", retries = 2): Promise<T> {
    const body = JSON.stringify(
      params === undefined ? { jsonrpc: "2.0", id: 1, method } : { jsonrpc: "2.0", id: 1, method, params },
    );
    for (let attempt = 0; ; attempt++) {
      const reply = await this.post(body, path);
      if (reply.error === undefined) return reply.result as T;
      if (reply.error.code !== TRANSPORT_ERROR.code || attempt >= retries) throw new RpcCallError(method, reply.error);
    }
  }

  /** Close the kept-alive connections. */
  close(): void {
    for (const c of this.all) c.destroy();
    this.all.clear();
    this.idle.length = 0;
    this.open = 0;
  }
}
