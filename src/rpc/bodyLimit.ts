import HyperExpress from "hyper-express";

/**
 * hyper-express 6.18 enforces `max_body_length` while the body arrives (a declared Content-Length over it is
 * refused without reading; a chunked body is cut at the limit and the rest discarded), but answers with an
 * EMPTY 413, and only once the whole upload has arrived (its `send` waits for the body): a client declaring
 * 1 GB kept its connection, and got no answer, for the whole upload. This teaches its Request to answer at
 * once — as soon as the declared length, or the bytes of a chunked body so far, pass the limit — with a
 * JSON-RPC -32600 error whose `data` names the limit, written through uWS directly. uWS then reads the rest of
 * the upload and drops it as it arrives (nothing is held), and the connection stays usable. (Closing it
 * instead — uWS's `end(body, true)` — resets clients that write their whole body before reading: EPIPE, the
 * answer lost.) Issue 19 item 5.
 *
 * Boundary: this wraps internals of the pinned hyper-express version (`_body_parser_enforce_limit`,
 * `_body_limit_bytes`, `_raw_response`, `route.app._resolve_pending_request`);
 * test/reliability/limits.test.ts and test/integration/security.test.ts fail if an upgrade changes them.
 */
interface LimitedRequest {
  _body_limit_bytes: number;
  _body_parser_enforce_limit(response: EarlyResponse): boolean;
}
interface EarlyResponse {
  initiated: boolean;
  completed: boolean;
  _status_code?: number;
  header(name: string, value: string): EarlyResponse;
  send(body?: string, closeConnection?: boolean): unknown;
  __jsonRpc413?: boolean;
  _raw_response: {
    cork(f: () => void): void;
    writeStatus(status: string): unknown;
    writeHeader(name: string, value: string): unknown;
    end(body: string, closeConnection: boolean): unknown;
  };
  route: { app: { _resolve_pending_request(): void } };
}

let installed = false;

/** Install once per process (the patch is on the shared prototype, so it is idempotent). */
export function installJsonBodyLimitAnswer(): void {
  if (installed) return;
  installed = true;
  const proto = (HyperExpress as unknown as { Request: { prototype: LimitedRequest } }).Request.prototype;
  const enforce = proto._body_parser_enforce_limit;
  proto._body_parser_enforce_limit = function (this: LimitedRequest, response: EarlyResponse): boolean {
    // before hyper-express: once it has stopped the parser it only ever answers after the whole upload
    if (!response.initiated && !response.completed && answerEarly(this)) answerNow(response, this._body_limit_bytes);
    else jsonWhenDeferred(response, this._body_limit_bytes);
    return enforce.call(this, response);
  };
}

/**
 * A client that asked to close the connection after the request (`Connection: close`, e.g. Node's http client
 * without an agent) is closed by uWS right after the answer: one still writing its body then gets EPIPE and
 * may never read the 413. Such a client is answered at once only when at least CLOSE_CUT_FACTOR times the
 * limit is declared (cutting that upload short is worth it); otherwise it gets the answer after its upload,
 * as before. Every other client is answered at once.
 */
const CLOSE_CUT_FACTOR = 4;

/** Should the refusal go out now? hyper-express's own test (declared or received bytes over the limit), then the above. */
function answerEarly(req: LimitedRequest): boolean {
  const r = req as LimitedRequest & {
    _body_received_bytes: number;
    _body_expected_bytes: number;
    headers: Record<string, string | undefined>;
  };
  const incoming = Math.max(r._body_received_bytes, r._body_expected_bytes);
  if (incoming <= r._body_limit_bytes) return false;
  const closing = /(^|,)\s*close\s*(,|$)/i.test(r.headers.connection ?? "");
  return !closing || incoming >= CLOSE_CUT_FACTOR * r._body_limit_bytes;
}

/** The 413 hyper-express sends after the upload (empty) gets the same JSON-RPC body. */
function jsonWhenDeferred(response: EarlyResponse, limit: number): void {
  if (response.__jsonRpc413) return;
  response.__jsonRpc413 = true;
  const send = response.send;
  response.send = function (this: EarlyResponse, body?: string, closeConnection?: boolean) {
    if (this._status_code === 413 && (body === undefined || body === "")) {
      this.header("Content-Type", "application/json");
      return send.call(this, limitAnswer(limit), closeConnection);
    }
    return send.call(this, body, closeConnection);
  };
}

function limitAnswer(limit: number): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: null,
    error: { code: -32600, message: "Invalid Request", data: `request body exceeds the limit of ${limit} bytes` },
  });
}

/** Write the 413 through uWS now and close the connection after it; hyper-express then treats it as answered. */
function answerNow(response: EarlyResponse, limit: number): void {
  const body = limitAnswer(limit);
  response.initiated = true;
  response.completed = true;
  const raw = response._raw_response;
  raw.cork(() => {
    raw.writeStatus("413 Payload Too Large");
    raw.writeHeader("Content-Type", "application/json");
    // not closing: uWS reads the rest of the upload and drops it (holding nothing), then serves the next request
    // on the connection, so a client that writes its whole body before reading still gets this answer
    raw.end(body, false);
  });
  response.route.app._resolve_pending_request();
}
