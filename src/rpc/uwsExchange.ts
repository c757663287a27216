/**
 * One HTTP request on `/v2` or `/debug`, served straight on uWebSockets.js (issue 16). hyper-express wrapped
 * every request in a Request (a Node Readable, every header copied) and a Response (an EventEmitter), and the
 * body came through a stream piped into a Writable: ~35 % of a loaded node's main thread answering
 * `heights`, where the JSON-RPC work was ~20 % (docs/performance.md §Reads). The API's two routes keep
 * hyper-express's observable behaviour, which this file reproduces for what they use:
 *
 * - headers as hyper-express read them (lower-case names, the last of repeated ones wins), of the names the
 *   server reads (`RequestHeaders`); the method upper-cased;
 * - the body limit (`maxBodyBytes`): a declared length over it is not read, a chunked body is cut where it
 *   passes it, and the rest is discarded as it arrives; the 413 (a JSON-RPC -32600 naming the limit) goes out
 *   at once, without closing the connection, or — for a client that sent `Connection: close` and less than
 *   CLOSE_CUT_FACTOR times the limit — once the request is complete (bodyLimit.ts: why; the same bytes);
 * - bodies held only as they arrive, against one budget for all unfinished bodies (bodyReader.ts, issue 19
 *   item 5): past it, "busy" (the caller answers 503);
 * - an answer given before the body is complete writes its status and headers at once and its body once the
 *   request is complete (uWebSockets cannot answer a request it is still reading);
 * - status lines `<code> <Node's reason phrase>`, header names lower-case, repeated names written together
 *   at the place of the first; HEAD answers carry the length of the body they leave out.
 */

import type * as UWS from "uWebSockets.js";
import { STATUS_CODES } from "node:http";
import type { BodyBudget } from "./bodyReader.js";
import type { HeaderList } from "./cors.js";

/** What reading a body gave (the text decoded as UTF-8, invalid sequences as U+FFFD), or why there is none. */
export type BodyText =
  | { kind: "body"; text: string }
  /** the unfinished bodies' budget is spent: answer 503 */
  | { kind: "busy" }
  /** the client went away, or the body passed the size limit (answered 413 here): answer nothing */
  | { kind: "gone" };

const decoder = new TextDecoder();

/**
 * The request headers the server reads, by lower-case name (absent: undefined). A fixed set held in an object of
 * one shape, instead of every header copied into a dictionary: each header name used as a key had to be hashed
 * and looked up in V8's string table, and every store and load went through a megamorphic cache (~0.3 µs of
 * the ~2.5 µs the node spent per `heights` request over a bare uWebSockets.js server; perf, docs/performance.md
 * §Reads). A header the server does not read is not kept.
 */
export type RequestHeaders = {
  host: string | undefined;
  origin: string | undefined;
  authorization: string | undefined;
  connection: string | undefined;
  "content-length": string | undefined;
  "transfer-encoding": string | undefined;
  "access-control-request-method": string | undefined;
  "access-control-request-headers": string | undefined;
  /**
   * A header that must appear once and came twice (Host, Origin, or Content-Length with another value), for a
   * 400 (RFC 9112 §6.3; security review 3, L3: uWS took the first Content-Length, the last Host and Origin).
   */
  repeated: string | undefined;
};

/** A request's headers of the names in RequestHeaders; the last of repeated ones wins, as in hyper-express. */
function readHeaders(req: UWS.HttpRequest): RequestHeaders {
  const h: RequestHeaders = {
    host: undefined,
    origin: undefined,
    authorization: undefined,
    connection: undefined,
    "content-length": undefined,
    "transfer-encoding": undefined,
    "access-control-request-method": undefined,
    "access-control-request-headers": undefined,
    repeated: undefined,
  };
  req.forEach((key, value) => {
    switch (key) {
      case "host":
        if (h.host !== undefined) h.repeated = "Host";
        h.host = value;
        break;
      case "content-length":
        if (h["content-length"] !== undefined && h["content-length"] !== value) h.repeated = "Content-Length";
        h["content-length"] = value;
        break;
      case "origin":
        if (h.origin !== undefined) h.repeated = "Origin";
        h.origin = value;
        break;
      case "authorization":
        h.authorization = value;
        break;
      case "connection":
        h.connection = value;
        break;
      case "transfer-encoding":
        h["transfer-encoding"] = value;
        break;
      case "access-control-request-method":
        h["access-control-request-method"] = value;
        break;
      case "access-control-request-headers":
        h["access-control-request-headers"] = value;
        break;
    }
  });
  return h;
}

/** The body of a request without one (shared: a BodyText is never changed). */
const EMPTY_BODY: BodyText = Object.freeze({ kind: "body", text: "" });

/**
 * Status lines by code, made once per code: uWebSockets writes `200 OK` itself when no status is written, and
 * every other status line is the same text each time.
 */
const STATUS_LINES = new Map<number, string>();

function statusLine(status: number): string {
  let line = STATUS_LINES.get(status);
  if (line === undefined) {
    line = `${status} ${STATUS_CODES[status]}`;
    STATUS_LINES.set(status, line);
  }
  return line;
}

/**
 * A client that sent `Connection: close` is answered 413 at once only when it declared or sent at least this
 * many times the limit; below that it gets the answer after its upload (bodyLimit.ts CLOSE_CUT_FACTOR).
 */
const CLOSE_CUT_FACTOR = 4;

/** The 413 answer of a body over `limit` bytes (the same text as bodyLimit.ts). */
function tooLargeBody(limit: number): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: "Invalid Request", data: `request body exceeds the limit of ${limit} bytes` },
  });
}

export class UwsExchange {
  /** upper-case HTTP method */
  readonly method: string;
  /** the request headers the server reads (RequestHeaders), lower-case names */
  readonly headers: RequestHeaders;
  /** true once answered or aborted: nothing more may be written */
  completed = false;
  private aborted = false;
  /** status and headers written */
  private initiated = false;
  /** the whole request has arrived */
  private received = true;
  /** further body bytes are discarded */
  private discarding = false;
  private tooLarge = false;
  /** the declared length is over the limit: the request is answered 413 here once it has arrived */
  readonly refusedAtStart: boolean;
  private chunks: Buffer[] = [];
  private held = 0;
  /** body bytes received so far, held or not */
  private receivedBytes = 0;
  /** Content-Length, 0 for a chunked body */
  private readonly declared: number;
  /** the client asked to close the connection after this request */
  private readonly closing: boolean;
  private remoteText: string | undefined;
  private bodyWaiter: ((b: BodyText) => void) | undefined;
  private bodyOutcome: BodyText | undefined;
  /** inside uWebSockets' call with the body's one piece, where the socket is corked already */
  private inBodyCallback = false;
  /** an answer waiting for the request to be complete */
  private pendingBody: string | Uint8Array | undefined;

  /** Read what is needed from `req` (valid only during this call) and start reading the body. */
  constructor(
    private readonly res: UWS.HttpResponse,
    req: UWS.HttpRequest,
    private readonly budget: BodyBudget,
    private readonly maxBodyBytes: number,
    /** connections come through the -httpfront (httpFront.ts): the caller's address is the PROXY header's */
    private readonly viaFront = false,
  ) {
    // uWebSockets gives the method lower-cased; the usual ones are named without toUpperCase's work
    const m = req.getMethod();
    this.method = m === "post" ? "POST" : m === "get" ? "GET" : m === "del" ? "DELETE" : m.toUpperCase();
    const headers = readHeaders(req);
    this.headers = headers;
    res.onAborted(() => this.abort());
    const chunked = headers["transfer-encoding"] === "chunked";
    const declared = Number(headers["content-length"]);
    this.declared = chunked ? 0 : declared;
    const connection = headers.connection;
    this.closing = connection !== undefined && /(^|,)\s*close\s*(,|$)/i.test(connection);
    if (declared > 0 || chunked) {
      this.received = false;
      res.onData((chunk, isLast) => this.onChunk(chunk, isLast));
    } else {
      this.bodyOutcome = EMPTY_BODY;
    }
    this.refusedAtStart = declared > maxBodyBytes && !chunked;
    if (this.refusedAtStart) this.refuseTooLarge(declared);
  }

  /** The caller's address; "" once the request is over. */
  remote(): string {
    if (this.remoteText !== undefined) return this.remoteText;
    if (this.completed) return "";
    try {
      this.remoteText = Buffer.from(
        this.viaFront ? this.res.getProxiedRemoteAddressAsText() : this.res.getRemoteAddressAsText(),
      ).toString("utf8");
    } catch {
      this.remoteText = "";
    }
    return this.remoteText;
  }

  /** Call `then` with the body once it is complete (at once when it already is). */
  body(then: (b: BodyText) => void): void {
    if (this.bodyOutcome !== undefined) then(this.bodyOutcome);
    else this.bodyWaiter = then;
  }

  /**
   * Answer; the body goes out once the request is complete. No-op once completed. Bytes are sent before this
   * returns (uWebSockets copies what the socket does not take at once) or copied: the caller may reuse them.
   */
  send(status: number, body: string | Uint8Array, contentType: string | undefined, headers: HeaderList): void {
    if (this.completed || this.initiated) return;
    // uWebSockets corks the socket while it hands a request's body over: an answer given then needs no cork of
    // its own (a call from C++ into JavaScript per request saved; the bytes written are the same)
    if (this.inBodyCallback) this.write(status, body, contentType, headers);
    else this.res.cork(() => this.write(status, body, contentType, headers));
  }

  private write(status: number, body: string | Uint8Array, contentType: string | undefined, headers: HeaderList): void {
    this.initiate(status, contentType, headers);
    if (this.received) this.finish(body);
    else {
      this.pendingBody = typeof body === "string" ? body : Buffer.from(body);
      this.stopReading();
    }
  }

  private initiate(status: number, contentType: string | undefined, headers: HeaderList): void {
    this.initiated = true;
    const res = this.res;
    if (status !== 200) res.writeStatus(statusLine(status));
    if (contentType !== undefined && headers.length === 0) {
      res.writeHeader("content-type", contentType);
      return;
    }
    // hyper-express kept headers in an object by lower-case name: repeated names written together
    const byName = new Map<string, string[]>();
    if (contentType !== undefined) byName.set("content-type", [contentType]);
    for (const [name, value] of headers) {
      const key = name.toLowerCase();
      const values = byName.get(key);
      if (values === undefined) byName.set(key, [value]);
      else values.push(value);
    }
    for (const [name, values] of byName) for (const v of values) res.writeHeader(name, v);
  }

  private finish(body: string | Uint8Array): void {
    this.completed = true;
    if (this.method === "HEAD")
      this.res.endWithoutBody(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
    else this.res.end(body);
  }

  private onChunk(chunk: ArrayBuffer, isLast: boolean): void {
    if (this.aborted) return;
    this.receivedBytes += chunk.byteLength;
    if (isLast && this.held === 0 && !this.discarding && chunk.byteLength <= this.maxBodyBytes) {
      // the whole body in one piece (nearly every request): decoded where it lies, nothing held
      this.received = true;
      this.inBodyCallback = true;
      try {
        this.settle({ kind: "body", text: decoder.decode(new Uint8Array(chunk)) });
      } finally {
        this.inBodyCallback = false;
      }
      return;
    }
    if (!this.discarding) {
      const n = chunk.byteLength;
      if (this.held + n > this.maxBodyBytes) this.refuseTooLarge(this.receivedBytes);
      else if (n > 0) {
        if (this.budget.take(n)) {
          this.held += n;
          // uWebSockets reuses the chunk's memory after this call
          this.chunks.push(Buffer.from(new Uint8Array(chunk)));
        } else {
          this.settle({ kind: "busy" });
          this.stopReading();
        }
      }
    }
    if (!isLast) return;
    this.received = true;
    if (this.tooLarge && !this.initiated) {
      if (this.answersAtOnce(Math.max(this.receivedBytes, this.declared))) {
        this.answerTooLarge();
        return;
      }
      this.res.cork(() => this.initiate(413, "application/json", []));
      this.pendingBody = tooLargeBody(this.maxBodyBytes);
    }
    if (this.completed) return;
    if (this.pendingBody !== undefined) {
      const body = this.pendingBody;
      this.pendingBody = undefined;
      this.res.cork(() => this.finish(body));
      return;
    }
    if (this.discarding) return;
    const whole = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.held);
    this.release();
    this.settle({ kind: "body", text: decoder.decode(whole) });
  }

  /** The body passes the limit with `incoming` bytes declared or received: refuse it, at once if allowed. */
  private refuseTooLarge(incoming: number): void {
    this.tooLarge = true;
    this.stopReading();
    this.settle({ kind: "gone" });
    if (!this.initiated && this.answersAtOnce(incoming)) this.answerTooLarge();
  }

  private answersAtOnce(incoming: number): boolean {
    return !this.closing || incoming >= CLOSE_CUT_FACTOR * this.maxBodyBytes;
  }

  /**
   * The 413 now, written as bodyLimit.ts writes it for hyper-express's routes, the connection kept open:
   * uWebSockets reads the rest of the upload and drops it, then serves the next request.
   */
  private answerTooLarge(): void {
    this.initiated = true;
    this.completed = true;
    this.pendingBody = undefined;
    const res = this.res;
    res.cork(() => {
      res.writeStatus("413 Payload Too Large");
      res.writeHeader("Content-Type", "application/json");
      res.end(tooLargeBody(this.maxBodyBytes), false);
    });
  }

  /** Keep receiving (uWebSockets must read the request to its end) but hold nothing more. */
  private stopReading(): void {
    this.discarding = true;
    this.release();
  }

  private release(): void {
    if (this.held > 0) this.budget.release(this.held);
    this.held = 0;
    this.chunks = [];
  }

  private settle(outcome: BodyText): void {
    if (this.bodyOutcome !== undefined) return;
    this.bodyOutcome = outcome;
    const waiter = this.bodyWaiter;
    this.bodyWaiter = undefined;
    waiter?.(outcome);
  }

  private abort(): void {
    this.aborted = true;
    this.completed = true;
    this.stopReading();
    this.settle({ kind: "gone" });
  }
}
