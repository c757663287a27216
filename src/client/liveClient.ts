/**
 * Client of the node's live event feed (`/live`, docs/api.md "Live event feed"): `subscribe(...)` opens a
 * WebSocket, sends the subscription, hands every event to `onEvent`, and reconnects after a drop with
 * growing pauses. On reconnect it resumes from the block after the last `block` event it saw, so confirmed
 * entries and transactions of the gap are replayed (acknowledgements of the gap are not: they are
 * transient, and a hash subscription receives its current status again instead). A `query` subscription
 * (query-then-subscribe) reconnects from the cursor of the last `match` event it received, so every later match
 * arrives once, in order, across drops.
 */
import { readFileSync } from "node:fs";
import WebSocket from "ws";
import { ClientConfigError, HttpError } from "./errors.js";

/** A feed event as sent by the node: `event` names it (block, minute, entry, transaction, status, health, …). */
export interface LiveEvent {
  event: string;
  [field: string]: unknown;
}

export interface LiveSubscription {
  /** chain IDs (hex): their entries acknowledged and confirmed */
  chains?: string[];
  /** FA or EC addresses: asset transactions touching them */
  addresses?: string[];
  /** entry hashes or transaction IDs (hex): their status changes */
  hashes?: string[];
  /** minute ends of the open block */
  minutes?: boolean;
  /** node health changes */
  health?: boolean;
  /** entry events carry ext IDs and content */
  content?: boolean;
  /** replay saved blocks from this height first (the first connection only; reconnects resume by themselves) */
  fromHeight?: number;
  /** continue a query extension from its cursor: `match` events, then `caughtup` (docs/api.md §7) */
  query?: LiveQuery;
}

/**
 * The filter of a query extension and a cursor it answered: `chainid` alone continues `chain-entries`,
 * `extids` (+ `match`, `chainid`) `search-entries`, `address` `address-history`.
 */
export interface LiveQuery {
  chainid?: string;
  /** hex ext IDs */
  extids?: string[];
  match?: "exact" | "prefix";
  /** FA… or EC… */
  address?: string;
  /** a `nextcursor`/`resumecursor` of that method; absent or "": from the first item */
  cursor?: string;
}

export interface LiveClientOptions {
  /** base URL of the node's API (http(s)://host:port), or of its control panel */
  url: string;
  user?: string;
  password?: string;
  /** PEM certificate(s) to trust for https */
  caFile?: string;
  /** first pause before reconnecting, ms (doubles per failed attempt up to maxReconnectMs) */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** reconnect after a drop (default true) */
  reconnect?: boolean;
}

export interface LiveHandlers {
  onEvent(event: LiveEvent): void;
  /** the connection opened (again): `resumedFrom` is the height replayed from, when resuming */
  onOpen?(info: { reconnect: boolean; resumedFrom?: number }): void;
  /** the connection closed; `retryInMs` is undefined when no reconnect follows */
  onClose?(info: { code: number; reason: string; retryInMs?: number }): void;
  /** a failure that ends the subscription (bad credentials, bad URL) or precedes a retry */
  onError?(error: Error): void;
}

/** A running subscription. */
export interface LiveHandle {
  /** stop: close the connection and do not reconnect */
  close(): void;
  /** height of the last `block` event received, -1 before any */
  readonly lastHeight: number;
  /** a query subscription's cursor: past the last `match` received (where a reconnect continues) */
  readonly cursor: string;
}

const DEFAULT_RECONNECT_MS = 500;
const DEFAULT_MAX_RECONNECT_MS = 10_000;

/** Subscribe to the node's live feed; see LiveSubscription for what arrives. */
export function subscribe(
  options: LiveClientOptions,
  subscription: LiveSubscription,
  handlers: LiveHandlers,
): LiveHandle {
  const url = liveUrl(options.url);
  const headers: Record<string, string> = {};
  if ((options.user ?? "") !== "" || (options.password ?? "") !== "")
    headers.Authorization = `Basic ${Buffer.from(`${options.user ?? ""}:${options.password ?? ""}`, "utf8").toString("base64")}`;
  const ca = options.caFile ? readFileSync(options.caFile) : undefined;
  const firstPause = options.reconnectMs ?? DEFAULT_RECONNECT_MS;
  const maxPause = options.maxReconnectMs ?? DEFAULT_MAX_RECONNECT_MS;

  let lastHeight = -1;
  let cursor = subscription.query?.cursor ?? "";
  let stopped = false;
  let socket: WebSocket | undefined;
  let timer: NodeJS.Timeout | undefined;
  let pause = firstPause;
  let connections = 0;

  const connect = (): void => {
    const reconnect = connections++ > 0;
    const from = lastHeight >= 0 ? lastHeight + 1 : reconnect ? undefined : subscription.fromHeight;
    const ws = new WebSocket(url, { headers, ...(ca ? { ca } : {}) });
    socket = ws;
    let fatal = false;
    ws.on("open", () => {
      pause = firstPause;
      const req: Record<string, unknown> = { op: "subscribe" };
      if (subscription.chains?.length) req.chains = subscription.chains;
      if (subscription.addresses?.length) req.addresses = subscription.addresses;
      if (subscription.hashes?.length) req.hashes = subscription.hashes;
      for (const f of ["minutes", "health", "content"] as const)
        if (subscription[f] !== undefined) req[f] = subscription[f];
      if (from !== undefined) req.fromheight = from;
      const q = subscription.query;
      if (q !== undefined) {
        for (const f of ["chainid", "extids", "match", "address"] as const) if (q[f] !== undefined) req[f] = q[f];
        req.cursor = cursor;
      }
      ws.send(JSON.stringify(req));
      handlers.onOpen?.({ reconnect, ...(from !== undefined ? { resumedFrom: from } : {}) });
    });
    ws.on("message", (data) => {
      if (stopped) return;
      let event: LiveEvent;
      try {
        event = JSON.parse(data.toString()) as LiveEvent;
      } catch {
        return;
      }
      if (event.event === "block" && typeof event.height === "number") lastHeight = Math.max(lastHeight, event.height);
      if (
        (event.event === "match" || event.event === "caughtup") &&
        typeof event.cursor === "string" &&
        event.cursor !== ""
      )
        cursor = event.cursor;
      handlers.onEvent(event);
    });
    ws.on("unexpected-response", (_req, res) => {
      fatal = res.statusCode === 401 || res.statusCode === 404;
      handlers.onError?.(
        new HttpError(
          url,
          res.statusCode ?? 0,
          "",
          `the live feed refused the connection ${res.statusMessage ?? ""}`.trim(),
        ),
      );
      ws.terminate();
    });
    ws.on("error", (e) => handlers.onError?.(e));
    ws.on("close", (code, reason) => {
      if (socket === ws) socket = undefined;
      const retry = !stopped && !fatal && options.reconnect !== false;
      handlers.onClose?.({ code, reason: reason.toString(), ...(retry ? { retryInMs: pause } : {}) });
      if (!retry) return;
      timer = setTimeout(connect, pause);
      pause = Math.min(pause * 2, maxPause);
    });
  };
  connect();

  return {
    close: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      socket?.close(1000, "client closing");
    },
    get lastHeight() {
      return lastHeight;
    },
    get cursor() {
      return cursor;
    },
  };
}

/** http(s)://host:port[/v2] → ws(s)://host:port/live */
export function liveUrl(base: string): string {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    throw new ClientConfigError(`node URL ${JSON.stringify(base)} is not a valid URL (example: http://127.0.0.1:8088)`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:" && u.protocol !== "ws:" && u.protocol !== "wss:")
    throw new ClientConfigError(`node URL ${base}: scheme must be http or https, got ${u.protocol}`);
  const scheme = u.protocol === "https:" || u.protocol === "wss:" ? "wss:" : "ws:";
  return `${scheme}//${u.host}/live`;
}
