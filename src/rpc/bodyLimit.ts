import HyperExpress from "hyper-express";

/**
 * hyper-express 6.18 enforces `max_body_length` while the body arrives (a declared Content-Length over it is
 * refused without reading; a chunked body is cut at the limit and the rest discarded), but answers with an
 * EMPTY 413. JSON-RPC clients then see a body they cannot parse. This teaches its Request to answer the same
 * 413 with a JSON-RPC -32600 error whose `data` names the limit.
 *
 * Boundary: this wraps two internals of the pinned hyper-express version (`_body_parser_enforce_limit`,
 * `_body_limit_bytes`); test/reliability/limits.test.ts fails if an upgrade changes them.
 */
interface LimitedRequest {
  _body_limit_bytes: number;
  _body_parser_enforce_limit(response: JsonAwareResponse): boolean;
}
interface JsonAwareResponse {
  _status_code?: number;
  header(name: string, value: string): JsonAwareResponse;
  send(body?: string): unknown;
  __jsonRpc413?: boolean;
}

let installed = false;

/** Install once per process (the patch is on the shared prototype, so it is idempotent). */
export function installJsonBodyLimitAnswer(): void {
  if (installed) return;
  installed = true;
  const proto = (HyperExpress as unknown as { Request: { prototype: LimitedRequest } }).Request.prototype;
  const enforce = proto._body_parser_enforce_limit;
  proto._body_parser_enforce_limit = function (this: LimitedRequest, response: JsonAwareResponse): boolean {
    if (!response.__jsonRpc413) {
      response.__jsonRpc413 = true;
      const limit = this._body_limit_bytes;
      const send = response.send;
      response.send = function (this: JsonAwareResponse, body?: string) {
        if (this._status_code === 413 && (body === undefined || body === "")) {
          this.header("Content-Type", "application/json");
          return send.call(
            this,
            JSON.stringify({
              jsonrpc: "2.0",
              id: null,
              error: {
                code: -32600,
                message: "Invalid Request",
                data: `request body exceeds the limit of ${limit} bytes`,
              },
            }),
          );
        }
        return send.call(this, body);
      };
    }
    return enforce.call(this, response);
  };
}
