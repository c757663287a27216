/**
 * Typed failures of NodeClient. Every call either resolves with the method's result or rejects with
 * exactly one of these, so callers (wallet, tests, tools) can tell a node's "no" (RpcError) from a
 * refused password (AuthError), a node that is not there (UnreachableError) and anything else on the
 * HTTP layer (HttpError) without parsing message text.
 */
/** Base class: `url` is the endpoint the request went to (e.g. http://127.0.0.1:8088/v2). */
export class ClientError extends Error {
    url;
    constructor(message, url) {
        super(message);
        this.url = url;
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
};
/** The node answered with a JSON-RPC error object (`{code, message, data?}`). */
export class RpcError extends ClientError {
    method;
    code;
    rpcMessage;
    data;
    constructor(method, code, rpcMessage, 
    /** the error's `data` member as sent (string, object, …); undefined when absent */
    data, url) {
        super(`${method}: ${rpcMessage} (code ${code})${describeData(data)}`, url);
        this.method = method;
        this.code = code;
        this.rpcMessage = rpcMessage;
        this.data = data;
        this.name = "RpcError";
    }
}
function describeData(data) {
    if (data === undefined || data === null)
        return "";
    if (typeof data === "string")
        return `: ${data}`;
    return `: ${JSON.stringify(data, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}`;
}
/** HTTP 401: the node requires Basic authentication and the credentials were missing or wrong. */
export class AuthError extends ClientError {
    sentCredentials;
    constructor(url, 
    /** true when the request carried a user/password (so they were rejected, not missing) */
    sentCredentials) {
        super(sentCredentials
            ? `authentication failed at ${url}: the node rejected the user name or password (HTTP 401)`
            : `authentication required at ${url}: the node asks for a user name and password (HTTP 401)`, url);
        this.sentCredentials = sentCredentials;
        this.name = "AuthError";
    }
}
/** No HTTP answer at all: connection refused, DNS failure, reset, timeout, or a TLS handshake failure. */
export class UnreachableError extends ClientError {
    reason;
    causeCode;
    constructor(url, reason, detail, 
    /** the underlying error code, e.g. ECONNREFUSED or DEPTH_ZERO_SELF_SIGNED_CERT */
    causeCode) {
        super(`cannot reach the node at ${url}: ${detail}`, url);
        this.reason = reason;
        this.causeCode = causeCode;
        this.name = "UnreachableError";
    }
}
/** An HTTP answer that is neither a JSON-RPC response nor a 401 (404, 5xx, a body that is not JSON, …). */
export class HttpError extends ClientError {
    status;
    bodySnippet;
    constructor(url, status, 
    /** the first bytes of the body, for the message */
    bodySnippet, detail) {
        super(`unexpected answer from ${url}: HTTP ${status}, ${detail}${bodySnippet ? ` — ${JSON.stringify(bodySnippet)}` : ""}`, url);
        this.status = status;
        this.bodySnippet = bodySnippet;
        this.name = "HttpError";
    }
}
/** Options that cannot work (bad URL, unreadable CA file); thrown by the NodeClient constructor. */
export class ClientConfigError extends Error {
    constructor(message) {
        super(message);
        this.name = "ClientConfigError";
    }
}
//# sourceMappingURL=errors.js.map