/**
 * The wallet service's HTTP side: JSON-RPC 2.0 over POST `/v2`, HTTP Basic authentication (the node's rule:
 * the whole header compared in constant time; each failure waits, counted and logged by the node's LoginGuard),
 * a body limit, and the envelope: parse errors, batches, unknown methods — a node method is answered -32601 with
 * `data` saying it belongs to the node (spec §7). A locked wallet answers only the reference's four methods.
 * Errors are answered with HTTP 200, as the reference wallet daemon does (its httpBad is 200). The log names the
 * method only: params hold passphrases and private keys.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { Logger } from "../../src/log/logger.js";
import { authorized } from "../../src/rpc/auth.js";
import { LoginGuard } from "../../src/rpc/loginGuard.js";
import { DEBUG_METHOD_NAMES, V2_METHOD_NAMES } from "../../src/rpc/methods.js";
import { TLS12_CIPHERS } from "../../src/rpc/tls.js";
import { WalletdCode, WalletdError } from "./errors.js";
import { LOCKED_METHODS, type WalletHandlers } from "./service.js";

/** Largest request body, bytes: an entry is at most 10 KiB (20 KiB as hex); 1 MiB leaves room for key imports. */
export const MAX_BODY_BYTES = 1024 * 1024;
/**
 * The reference wallet daemon's names that hold the asset's name, and this service's neutral ones (as
 * shared/README.md's table does for the node): a call by the old name is told the new one.
 */
const RENAMED: Readonly<Record<string, string>> = { "generate-factoid-address": "generate-asset-address" };

/** Realm of the 401 challenge. */
const AUTH_REALM = "wallet RPC";

export interface WalletdServerOptions {
  /** HTTP Basic credentials of the service's own callers; both empty = no authentication (loopback only) */
  user: string;
  pass: string;
  /** PEM key and certificate: serve HTTPS (TLS 1.2 with the node's forward-secret AEAD suites, or 1.3) */
  tls?: { key: Buffer; cert: Buffer };
}

interface Answer {
  jsonrpc: "2.0";
  id: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

function failure(id: unknown, e: WalletdError): Answer {
  return { jsonrpc: "2.0", id, error: { code: e.code, message: e.rpcMessage, data: e.data } };
}

export class WalletdServer {
  private readonly guard: LoginGuard;
  readonly http: http.Server | https.Server;

  constructor(
    private readonly options: WalletdServerOptions,
    private readonly deps: { handlers: WalletHandlers; locked: () => boolean; log: Logger },
  ) {
    this.guard = new LoginGuard({ log: deps.log });
    const handle = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      this.serve(req, res).catch((e: unknown) => {
        deps.log.error("request failed", { error: e instanceof Error ? e.message : String(e) });
        if (!res.headersSent) res.writeHead(500).end();
      });
    };
    this.http =
      options.tls === undefined
        ? http.createServer(handle)
        : https.createServer(
            { key: options.tls.key, cert: options.tls.cert, minVersion: "TLSv1.2", ciphers: TLS12_CIPHERS },
            handle,
          );
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? "").split("?")[0];
    if (this.options.user !== "" || this.options.pass !== "") {
      if (!authorized(req.headers.authorization, this.options.user, this.options.pass)) {
        await this.guard.failed(
          req.socket.remoteAddress ?? "",
          req.headers.authorization === undefined ? "missing" : "wrong",
          path ?? "",
        );
        res.writeHead(401, { "www-authenticate": `Basic realm="${AUTH_REALM}"`, "content-type": "text/plain" });
        res.end("401 Unauthorized.\n");
        return;
      }
    }
    if (path !== "/v2") {
      res
        .writeHead(404, { "content-type": "text/plain" })
        .end("404 page not found: the wallet service answers POST /v2\n");
      return;
    }
    if (req.method !== "POST") {
      res
        .writeHead(405, { allow: "POST", "content-type": "text/plain" })
        .end("405 Method Not Allowed: POST a JSON-RPC request\n");
      return;
    }
    const body = await readBody(req);
    const answer =
      body === undefined
        ? failure(null, new WalletdError(WalletdCode.InvalidRequest, `the body is larger than ${MAX_BODY_BYTES} bytes`))
        : await this.answer(body);
    const text = JSON.stringify(answer);
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  }

  private async answer(body: string): Promise<Answer> {
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return failure(null, new WalletdError(WalletdCode.ParseError, "the body is not valid JSON"));
    }
    if (Array.isArray(request))
      return failure(
        null,
        new WalletdError(WalletdCode.InvalidRequest, "batch requests are not supported: send one request per call"),
      );
    if (typeof request !== "object" || request === null)
      return failure(null, new WalletdError(WalletdCode.InvalidRequest, "expected a JSON-RPC request object"));
    const r = request as Record<string, unknown>;
    const id = r.id ?? null;
    if (r.jsonrpc !== "2.0")
      return failure(
        id,
        new WalletdError(
          WalletdCode.InvalidRequest,
          `jsonrpc: expected "2.0", got ${JSON.stringify(r.jsonrpc ?? null)}`,
        ),
      );
    if (typeof r.method !== "string" || r.method === "")
      return failure(id, new WalletdError(WalletdCode.MethodNotFound, "method: missing"));
    const method = r.method;
    const handler = Object.hasOwn(this.deps.handlers, method)
      ? this.deps.handlers[method as keyof WalletHandlers]
      : undefined;
    if (handler === undefined) {
      const nodeMethod = Object.hasOwn(V2_METHOD_NAMES, method) || Object.hasOwn(DEBUG_METHOD_NAMES, method);
      return failure(
        id,
        new WalletdError(
          WalletdCode.MethodNotFound,
          nodeMethod
            ? `${method} is a node method: send it to the node (ledgerd, port 8088), not to the wallet service`
            : Object.hasOwn(RENAMED, method)
              ? `${method}: this service uses neutral names: call ${RENAMED[method]}`
              : method,
        ),
      );
    }
    if (this.deps.locked() && !LOCKED_METHODS.has(method))
      return failure(
        id,
        new WalletdError(
          WalletdCode.WalletLocked,
          `${method}: the wallet is encrypted and locked: call unlock-wallet with its passphrase and a timeout in seconds`,
        ),
      );
    this.deps.log.info("call", { method });
    try {
      return { jsonrpc: "2.0", id, result: await handler(r.params) };
    } catch (e) {
      if (e instanceof WalletdError) return failure(id, e);
      this.deps.log.error("method failed", { method, error: e instanceof Error ? e.message : String(e) });
      return failure(
        id,
        new WalletdError(WalletdCode.Internal, `${method} failed: ${e instanceof Error ? e.message : String(e)}`),
      );
    }
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.http.once("error", reject);
      this.http.listen(port, host, () => {
        this.http.off("error", reject);
        const a = this.http.address();
        resolve(typeof a === "object" && a !== null ? a.port : port);
      });
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.http.close(() => resolve());
      this.http.closeAllConnections();
    });
  }
}

/** The request body as text, or undefined when it passes MAX_BODY_BYTES (the rest is not read). */
function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
