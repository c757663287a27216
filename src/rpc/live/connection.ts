/**
 * One live-feed connection (feed.ts): its transport, what it subscribed to, and the indexes from a chain,
 * address or hash to the connections that asked for it.
 */
import type { FeedEvent } from "./events.js";
import type { QuerySubscription } from "./querySubscription.js";

/** Close codes the feed uses (4000–4999: private use, RFC 6455 §7.4.2). */
export const LiveCloseCode = {
  /** the connection did not read its events fast enough (more than maxBufferedBytes unsent) */
  slowConsumer: 4008,
  /** the node is stopping */
  goingAway: 1001,
} as const;

/** The transport of one connection (route.ts adapts a hyper-express WebSocket). */
export interface FeedSocket {
  send(text: string): void;
  /** close with a code and reason (a close frame after what is buffered) */
  end(code: number, reason: string): void;
  /** bytes sent but not yet taken by the kernel */
  bufferedBytes(): number;
}

/** One subscriber. */
export class FeedConnection {
  readonly chains = new Set<string>();
  /** RCD hashes and EC public keys, hex */
  readonly addresses = new Set<string>();
  readonly hashes = new Set<string>();
  minutes = false;
  health = false;
  content = false;
  /** `anchored` events (a record of the anchor chain covering new heights) */
  anchored = false;
  closed = false;
  /** live events held back while a replay runs; undefined when none runs */
  queue: FeedEvent[] | undefined;
  /** the query this connection continues (querySubscription.ts), if any */
  query: QuerySubscription | undefined;
  /** called when the socket drained (a replay waits on it) */
  onDrain: (() => void) | undefined;

  /**
   * @param source the client's address ("" when unknown), for the per-address connection limit
   */
  constructor(
    readonly socket: FeedSocket,
    readonly source = "",
  ) {}

  subscriptionCount(): number {
    return this.chains.size + this.addresses.size + this.hashes.size;
  }

  /** What this connection is subscribed to now: the answer to a subscribe or unsubscribe request. */
  subscribedEvent(): Record<string, unknown> {
    return {
      event: "subscribed",
      chains: this.chains.size,
      addresses: this.addresses.size,
      hashes: this.hashes.size,
      minutes: this.minutes,
      health: this.health,
      content: this.content,
      ...(this.query === undefined ? {} : { query: this.query.method }),
      ...(this.anchored ? { anchored: true } : {}),
    };
  }
}

export function index(map: Map<string, Set<FeedConnection>>, own: Set<string>, key: string, c: FeedConnection): void {
  own.add(key);
  const set = map.get(key);
  if (set === undefined) map.set(key, new Set([c]));
  else set.add(c);
}

export function unindex(
  map: Map<string, Set<FeedConnection>>,
  key: string,
  c: FeedConnection,
  own?: Set<string>,
): void {
  own?.delete(key);
  const set = map.get(key);
  if (set === undefined) return;
  set.delete(c);
  if (set.size === 0) map.delete(key);
}
