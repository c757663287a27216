/**
 * Typed failures of NodeClient. Every call either resolves with the method's result or rejects with
 * exactly one of these, so callers (wallet, tests, tools) can tell a node's "no" (RpcError) from a
 * refused password (AuthError), a node that is not there (UnreachableError) and anything else on the
 * HTTP layer (HttpError) without parsing message text.
 */
import { NodeError } from "../errors.js";

/** Base class: `url` is the endpoint the request went to (e.g. http://127.0.0.1:8088/v2). */
export class ClientError extends NodeError {
  constructor(
    message: string,
    readonly url: string,
  ) {
    super(message);
    this.name = "ClientError";
  }
}

/** Known JSON-RPC error codes (spec §7 and reference api-behavior §3). */
export const RpcErrorCode = {
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ParseError: -32700,
  NotFound: -32008,
  MissingChainHead: -32009,
  ReceiptCreation: -32010,
  RepeatedCommit: -32011,
} as const;

/** The node answered with a JSON-RPC error object (`{code, message, data?}`). */
export class RpcError extends ClientError {
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    /** the error's `data` member as sent (string, object, …); undefined when absent */
    readonly data: unknown,
    url: string,
  ) {
    super(`${method}: ${rpcMessage} (code ${code})${describeData(data)}`, url);
    this.name = "RpcError";
  }
}

function describeData(data: unknown): string {
  if (data === undefined || data === null) return "";
  if (typeof data === "string") return `: ${data}`;
  return `: ${JSON.stringify(data, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`;
}

/** HTTP 401: the node requires Basic authentication and the credentials were missing or wrong. */
export class AuthError extends ClientError {
  constructor(
    url: string,
    /** true when the request carried a user/password (so they were rejected, not missing) */
    readonly sentCredentials: boolean,
  ) {
    super(
      sentCredentials
        ? `authentication failed at ${url}: the node rejected the user name or password (HTTP 401)`
        : `authentication required at ${url}: the node asks for a user name and password (HTTP 401)`,
      url,
    );
    this.name = "AuthError";
  }
}

/** Why a node could not be reached. */
export type UnreachableReason = "refused" | "timeout" | "dns" | "reset" | "tls" | "network";

/** No HTTP answer at all: connection refused, DNS failure, reset, timeout, or a TLS handshake failure. */
export class UnreachableError extends ClientError {
  constructor(
    url: string,
    readonly reason: UnreachableReason,
    detail: string,
    /** the underlying error code, e.g. ECONNREFUSED or DEPTH_ZERO_SELF_SIGNED_CERT */
    readonly causeCode?: string,
  ) {
    super(`cannot reach the node at ${url}: ${detail}`, url);
    this.name = "UnreachableError";
  }
}

/** An HTTP answer that is neither a JSON-RPC response nor a 401 (404, 5xx, a body that is not JSON, …). */
export class HttpError extends ClientError {
  constructor(
    url: string,
    readonly status: number,
    /** the first bytes of the body, for the message */
    readonly bodySnippet: string,
    detail: string,
  ) {
    super(
      `unexpected answer from ${url}: HTTP ${status}, ${detail}${bodySnippet ? ` — ${JSON.stringify(bodySnippet)}` : ""}`,
      url,
    );
    this.name = "HttpError";
  }
}

/** Options that cannot work (bad URL, unreadable CA file); thrown by the NodeClient constructor. */
export class ClientConfigError extends NodeError {
  constructor(message: string) {
    super(message);
    this.name = "ClientConfigError";
  }
}
