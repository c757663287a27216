/**
 * The live event feed (docs/api.md, "Live event feed"): turns what the ledger reports (accepted messages,
 * saved blocks; ledger/observer.ts) into JSON events for the WebSocket connections that asked for them.
 *
 * Every connection gets `block` events; the rest by subscription: `minutes`, `chains` (entries),
 * `addresses` (asset transactions), `hashes` (status changes), `health`. A subscription may resume from a
 * height: the saved blocks from there are replayed (their `block` events and the confirmed entries and
 * transactions the subscription matches) before live events continue.
 *
 * Memory: the node never holds more than `maxBufferedBytes` of unsent events for a connection. A live event
 * that would go over it closes the connection with SLOW_CONSUMER; a replay waits for the socket to drain
 * below a quarter of it (at most `drainWaitMs`), and live events meanwhile queue up to `maxQueuedEvents`.
 * Connections are bounded in total and per client address (one client must not take every connection, the
 * panel's own feed included), and subscriptions per connection and in total (each costs ~300 bytes of
 * index). Every refusal and every dropped slow consumer is counted (`counters()`, /metrics) and warned
 * about, at most one line per LIMIT_LOG_WINDOW_MS with the count since the last.
 *
 * A subscription may also continue a query extension from its cursor (`match` events, querySubscription.ts).
 *
 * One connection and the subscription indexes: connection.ts; a client's frame, parsed and checked: request.ts;
 * the events' JSON: events.ts; the bounds: feedOptions.ts; refusals counted and warned about: feedLimits.ts.
 */

import type { BlockAnchor } from "../../anchor/index.js";
import type { QueryIndexApi } from "../../ledger/api.js";
import { AckStatus } from "../../ledger/api.js";
import type { LogMessage } from "../../ledger/messages.js";
import type { LedgerObserver } from "../../ledger/observer.js";
import type { Logger } from "../../log/logger.js";
import { toHex } from "../../protocol/bytes.js";
import { entryHash, unmarshalEntry } from "../../protocol/entry.js";
import { transactionId } from "../../protocol/transaction.js";
import { encodeJson } from "../jsonrpc.js";
import { FeedConnection, type FeedSocket, index, LiveCloseCode, unindex } from "./connection.js";
import {
  anchoredEvent,
  currentStatusEvent,
  entryEvent,
  type FeedEvent,
  type HealthEvent,
  isBlockDerived,
  isFeedEvent,
  type SavedBlockItems,
  savedBlockItems,
  transactionAddressKeys,
  transactionEvent,
} from "./events.js";
import { FeedLimits } from "./feedLimits.js";
import type { FeedLimit, FeedRefusal, LiveFeedOptions, LiveLedger } from "./feedOptions.js";
import { openQuery } from "./querySubscription.js";
import { addressKey, FeedRequestError, parseRequest, type SubscribeRequest } from "./request.js";

export class LiveFeed implements LedgerObserver {
  private readonly connections = new Set<FeedConnection>();
  /** reverse indexes: key → subscribers */
  private readonly byChain = new Map<string, Set<FeedConnection>>();
  private readonly byAddress = new Map<string, Set<FeedConnection>>();
  private readonly byHash = new Map<string, Set<FeedConnection>>();
  /** connections that continue a query */
  private readonly querying = new Set<FeedConnection>();
  /**
   * Entry hashes whose reveal is held for its commit (status NotConfirmed), so the commit's arrival can be
   * reported as the entry's acknowledgement. Bounded like the holding queue it mirrors (oldest forgotten).
   */
  private readonly held = new Map<string, string>();
  private lastHealth = "";
  /** slow consumers dropped since start */
  private droppedCount = 0;
  /** open connections per client address */
  private readonly perSource = new Map<string, number>();
  /** chains + addresses + hashes of every connection */
  private totalSubscriptions = 0;
  /** refusals and drops since start, counted and warned about */
  private readonly limits: FeedLimits;
  /** the last saved height (a replay stops there; the block closing after it arrives as a live event) */
  private savedHeight: number;
  private healthTimer: NodeJS.Timeout | undefined;
  /** the highest directory block an anchor record covers, as last reported */
  private anchoredHeight: number;

  constructor(
    private readonly options: LiveFeedOptions,
    private readonly deps: {
      ledger: LiveLedger;
      log: Logger;
      queries?: QueryIndexApi;
      /** the anchor index (anchor/index.ts): `anchored` events when a record covering new heights is saved */
      anchors?: { index: { anchoredHeight(): number; forHeight(height: number): BlockAnchor | undefined } };
    },
  ) {
    this.limits = new FeedLimits(deps.log);
    this.anchoredHeight = deps.anchors?.index.anchoredHeight() ?? -1;
    // records already saved are history, not news: skip past them without sending
    this.reportAnchors();
    this.savedHeight = deps.ledger.heights().directoryBlockHeight;
    deps.ledger.setObserver(this);
    this.lastHealth = encodeJson(this.healthEvent());
    this.healthTimer = setInterval(() => this.checkHealth(), options.healthPeriodMs);
    this.healthTimer.unref();
  }

  /** Open connections. */
  get size(): number {
    return this.connections.size;
  }

  /** Open connections and slow consumers dropped since start (sent in every `hello`). */
  stats(): { connections: number; dropped: number } {
    return { connections: this.connections.size, dropped: this.droppedCount };
  }

  /** Refusals and drops since start, by limit (for /metrics). */
  counters(): Readonly<Record<FeedLimit, number>> {
    return this.limits.counts;
  }

  /** Subscriptions held by all connections. */
  get subscriptions(): number {
    return this.totalSubscriptions;
  }

  /**
   * Undefined when another connection from `source` ("" when unknown) may open; else the refusal, counted
   * and warned about.
   */
  hasRoom(source = ""): FeedRefusal | undefined {
    if (this.connections.size >= this.options.maxConnections) {
      this.limits.reached("connections", { source, connections: this.connections.size });
      return { status: 503, reason: "too many live feed connections" };
    }
    const mine = this.perSource.get(source) ?? 0;
    if (source !== "" && mine >= this.options.maxConnectionsPerSource) {
      this.limits.reached("source_connections", { source, connections: mine });
      return {
        status: 503,
        reason: `too many live feed connections from ${source} (at most ${this.options.maxConnectionsPerSource} per address)`,
      };
    }
    return undefined;
  }

  /** Register a new connection from `source` and greet it with the node's heights. */
  open(socket: FeedSocket, source = ""): FeedConnection {
    const c = new FeedConnection(socket, source);
    this.connections.add(c);
    if (source !== "") this.perSource.set(source, (this.perSource.get(source) ?? 0) + 1);
    const m = this.deps.ledger.currentMinute();
    this.send(c, {
      event: "hello",
      height: m.directoryBlockHeight,
      leaderheight: m.leaderHeight,
      minute: m.minute,
      feed: this.stats(),
    });
    return c;
  }

  /** Forget a closed connection. */
  closed(c: FeedConnection): void {
    if (c.closed) return;
    c.closed = true;
    this.connections.delete(c);
    if (c.source !== "") {
      const left = (this.perSource.get(c.source) ?? 1) - 1;
      if (left <= 0) this.perSource.delete(c.source);
      else this.perSource.set(c.source, left);
    }
    this.totalSubscriptions -= c.subscriptionCount();
    for (const k of c.chains) unindex(this.byChain, k, c);
    for (const k of c.addresses) unindex(this.byAddress, k, c);
    for (const k of c.hashes) unindex(this.byHash, k, c);
    c.queue = undefined;
    this.querying.delete(c);
    c.query = undefined;
    c.onDrain?.();
  }

  drained(c: FeedConnection): void {
    c.onDrain?.();
  }

  /** Close every connection (the node is stopping). */
  close(): void {
    if (this.healthTimer !== undefined) clearInterval(this.healthTimer);
    this.healthTimer = undefined;
    this.deps.ledger.setObserver(undefined);
    for (const c of [...this.connections]) {
      this.closed(c);
      c.socket.end(LiveCloseCode.goingAway, "node stopping");
    }
  }

  /** A text frame from the client: a subscribe or unsubscribe request. */
  message(c: FeedConnection, text: string): void {
    let req: SubscribeRequest;
    try {
      req = parseRequest(text);
      if (req.op === "subscribe") this.subscribe(c, req);
      else this.unsubscribe(c, req);
    } catch (e) {
      if (!(e instanceof FeedRequestError)) throw e;
      this.send(c, { event: "error", data: e.message });
    }
  }

  private subscribe(c: FeedConnection, req: SubscribeRequest): void {
    const addressKeys = req.addresses.map((a, i) => addressKey(a, `addresses[${i}]`));
    const added = req.chains.length + addressKeys.length + req.hashes.length;
    if (c.subscriptionCount() + added > this.options.maxSubscriptions)
      throw new FeedRequestError(
        `at most ${this.options.maxSubscriptions} chains, addresses and hashes per connection (has ${c.subscriptionCount()}, asked for ${added} more)`,
      );
    if (this.totalSubscriptions + added > this.options.maxTotalSubscriptions) {
      this.limits.reached("subscriptions", { source: c.source, subscriptions: this.totalSubscriptions });
      throw new FeedRequestError(
        `the node's live feed holds its most subscriptions (${this.options.maxTotalSubscriptions} over all connections); asked for ${added} more`,
      );
    }
    const before = c.subscriptionCount();
    const height = this.savedHeight;
    if (req.fromheight !== undefined && req.fromheight > height + 1)
      throw new FeedRequestError(`fromheight: ${req.fromheight} is beyond the next block (${height + 1})`);
    if (req.fromheight !== undefined && c.queue !== undefined)
      throw new FeedRequestError("fromheight: a replay is already running on this connection");
    if (req.query !== undefined && c.query !== undefined)
      throw new FeedRequestError(
        `${Object.keys(req.query.params)[0]}: this connection already continues a query (one per connection)`,
      );
    const content = req.content ?? c.content;
    const query =
      req.query === undefined
        ? undefined
        : openQuery(
            req.query.method === "address-history"
              ? req.query
              : { ...req.query, params: { ...req.query.params, content } },
            this.deps.queries,
            this.deps.ledger,
          );
    for (const k of req.chains.map((h) => h.toLowerCase())) index(this.byChain, c.chains, k, c);
    for (const k of addressKeys) index(this.byAddress, c.addresses, k, c);
    const hashes = req.hashes.map((h) => h.toLowerCase());
    for (const k of hashes) index(this.byHash, c.hashes, k, c);
    this.totalSubscriptions += c.subscriptionCount() - before;
    if (req.minutes !== undefined) c.minutes = req.minutes;
    if (req.health !== undefined) c.health = req.health;
    if (req.content !== undefined) c.content = req.content;
    if (req.anchored !== undefined) c.anchored = req.anchored;
    if (query !== undefined) {
      c.query = query;
      this.querying.add(c);
    }
    this.send(c, c.subscribedEvent());
    // the current status of each new hash, then the health, so a subscriber starts from the truth
    for (const h of hashes) this.send(c, currentStatusEvent(this.deps.ledger, h));
    if (req.health === true) this.send(c, this.healthEvent());
    if (req.fromheight !== undefined) void this.replay(c, req.fromheight);
    if (query !== undefined) void this.pump(c);
  }

  private unsubscribe(c: FeedConnection, req: SubscribeRequest): void {
    const before = c.subscriptionCount();
    for (const k of req.chains.map((h) => h.toLowerCase())) unindex(this.byChain, k, c, c.chains);
    for (const [i, a] of req.addresses.entries())
      unindex(this.byAddress, addressKey(a, `addresses[${i}]`), c, c.addresses);
    for (const k of req.hashes.map((h) => h.toLowerCase())) unindex(this.byHash, k, c, c.hashes);
    this.totalSubscriptions -= before - c.subscriptionCount();
    if (req.minutes === true) c.minutes = false;
    if (req.health === true) c.health = false;
    if (req.content === true) c.content = false;
    if (req.anchored === true) c.anchored = false;
    if (req.stopQuery === true) {
      this.querying.delete(c);
      c.query = undefined;
    }
    this.send(c, c.subscribedEvent());
  }

  /**
   * Send `c`'s query matches from its cursor to the end of what the index holds, then `caughtup` (once); at
   * most `queryBatch` per turn, and waiting while the socket holds more than a quarter of the limit. One pump
   * per connection at a time: a call while one runs asks it for another pass.
   */
  private async pump(c: FeedConnection): Promise<void> {
    const q = c.query;
    if (q === undefined) return;
    if (q.running) {
      q.again = true;
      return;
    }
    q.running = true;
    try {
      do {
        q.again = false;
        let sent = 0;
        for (;;) {
          if (c.closed || c.query !== q) return;
          const one = q.next();
          if (one.item !== undefined)
            this.write(c, encodeJson({ event: "match", method: q.method, item: one.item, cursor: one.resumecursor }));
          if (one.resumecursor !== "") q.cursor = one.resumecursor;
          if (one.item === undefined || one.nextcursor === "") break;
          if (++sent % this.options.queryBatch === 0 || c.socket.bufferedBytes() > this.options.maxBufferedBytes / 4)
            if (!(await this.yieldToSocket(c))) return;
        }
        if (!q.synced && !c.closed && c.query === q) {
          q.synced = true;
          this.send(c, { event: "caughtup", method: q.method, cursor: q.cursor });
        }
      } while (q.again);
    } catch (e) {
      if (!(e instanceof FeedRequestError)) throw e;
      this.send(c, { event: "error", data: e.message });
    } finally {
      q.running = false;
    }
  }

  /**
   * Let other work run; while the socket holds more than a quarter of the limit, look again every
   * QUERY_DRAIN_POLL_MS up to drainWaitMs, then drop `c` as slow. False when `c` is gone.
   */
  private async yieldToSocket(c: FeedConnection): Promise<boolean> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const until = Date.now() + this.options.drainWaitMs;
    while (!c.closed && c.socket.bufferedBytes() > this.options.maxBufferedBytes / 4) {
      if (Date.now() > until) {
        this.drop(c, "did not drain while a query subscription caught up");
        return false;
      }
      await new Promise<void>((resolve) => setTimeout(resolve, QUERY_DRAIN_POLL_MS));
    }
    return !c.closed;
  }

  /**
   * Replay saved blocks from `from` to the saved height (which may rise meanwhile), paced by the socket:
   * one height per turn, waiting for the socket to drain below a quarter of the limit between heights.
   */
  private async replay(c: FeedConnection, from: number): Promise<void> {
    c.queue = [];
    let h = from;
    try {
      while (!c.closed && h <= this.savedHeight) {
        const items = savedBlockItems(this.deps.ledger, h);
        if (items === undefined) break;
        this.sendDirect(c, items.summary);
        for (const e of this.confirmedFor(c, items)) this.sendDirect(c, e);
        h++;
        if (c.socket.bufferedBytes() > this.options.maxBufferedBytes / 4 && !(await this.waitDrain(c))) {
          this.drop(c, "did not drain during a replay");
          return;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    } catch (e) {
      this.deps.log.error("live feed replay failed", { error: e instanceof Error ? e.message : String(e) });
    }
    if (c.closed) return;
    const queued = c.queue ?? [];
    c.queue = undefined;
    this.send(c, { event: "resumed", fromheight: from, toheight: h - 1 });
    // Events of blocks the replay already covered were sent by it; everything else goes out in order.
    for (const e of queued) if (!(isBlockDerived(e) && e.height < h)) this.send(c, e);
  }

  private waitDrain(c: FeedConnection): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        c.onDrain = undefined;
        resolve(false);
      }, this.options.drainWaitMs);
      c.onDrain = () => {
        if (!c.closed && c.socket.bufferedBytes() > this.options.maxBufferedBytes / 4) return;
        clearTimeout(timer);
        c.onDrain = undefined;
        resolve(!c.closed);
      };
    });
  }

  /** Confirmed entry and transaction events of a saved block that `c` subscribed to (for a replay). */
  private *confirmedFor(c: FeedConnection, items: SavedBlockItems): Generator<FeedEvent> {
    const height = items.summary.height;
    for (const { entryHash: eh, chainId } of items.entries) {
      if (c.chains.has(chainId)) yield this.confirmedEntry(c, eh, chainId, height);
      if (c.hashes.has(eh)) yield { event: "status", hash: eh, status: AckStatus.DBlockConfirmed, height };
    }
    for (const tx of items.transactions) {
      const txid = toHex(transactionId(tx));
      if ([...transactionAddressKeys(tx)].some((k) => c.addresses.has(k)))
        yield transactionEvent(AckStatus.DBlockConfirmed, tx, height);
      if (c.hashes.has(txid)) yield { event: "status", hash: txid, status: AckStatus.DBlockConfirmed, height };
    }
  }

  private confirmedEntry(c: FeedConnection, eh: string, chainId: string, height: number): FeedEvent {
    const entry = c.content ? this.deps.ledger.entry(Buffer.from(eh, "hex"))?.entry : undefined;
    return entryEvent(AckStatus.DBlockConfirmed, eh, chainId, height, entry);
  }

  // ───────────────────────────── ledger observer ─────────────────────────────

  accepted(msg: LogMessage, height: number): void {
    if (this.connections.size === 0) {
      // nothing held, the usual case: no hex key made (a commit's own, when the writer made it: messages.ts keys)
      if (msg.kind === "commit" && this.held.size > 0)
        this.held.delete(msg.keys?.entryHash ?? toHex(msg.commit.entryHash));
      return;
    }
    switch (msg.kind) {
      case "reveal":
        this.revealAccepted(msg.entryRaw, height);
        return;
      case "commit":
        this.commitAccepted(msg.keys?.entryHash ?? toHex(msg.commit.entryHash), height);
        return;
      case "transaction": {
        const txid = toHex(transactionId(msg.tx));
        const subscribers = new Set<FeedConnection>();
        for (const k of transactionAddressKeys(msg.tx)) for (const c of this.byAddress.get(k) ?? []) subscribers.add(c);
        if (subscribers.size > 0) {
          const event = transactionEvent(AckStatus.TransactionACK, msg.tx, height);
          for (const c of subscribers) this.send(c, event);
        }
        this.status(txid, AckStatus.TransactionACK, height);
        return;
      }
      case "endOfMinute": {
        const event: FeedEvent = { event: "minute", height, minute: msg.minute + 1 };
        for (const c of this.connections) if (c.minutes) this.send(c, event);
        return;
      }
      case "blockStart":
        return;
    }
  }

  private revealAccepted(raw: Uint8Array, height: number): void {
    const hash = entryHash(raw);
    const eh = toHex(hash);
    const chainSubs = this.byChain.get(toHex(raw.subarray(1, 33)));
    if (chainSubs === undefined && !this.byHash.has(eh)) return;
    const status = this.deps.ledger.entryAck(hash).entry.status;
    if (status === AckStatus.NotConfirmed) {
      this.remember(eh, toHex(raw.subarray(1, 33)));
      this.status(eh, status, height);
    } else if (status === AckStatus.TransactionACK) {
      this.entryAcknowledged(eh, raw, height);
    }
  }

  private commitAccepted(eh: string, height: number): void {
    if (!this.held.has(eh)) return;
    this.held.delete(eh);
    const found = this.deps.ledger.entry(Buffer.from(eh, "hex"));
    if (
      found === undefined ||
      this.deps.ledger.entryAck(Buffer.from(eh, "hex")).entry.status !== AckStatus.TransactionACK
    )
      return;
    this.entryAcknowledged(eh, found.raw, height);
  }

  private entryAcknowledged(eh: string, raw: Uint8Array, height: number): void {
    const chainId = toHex(raw.subarray(1, 33));
    const subs = this.byChain.get(chainId);
    if (subs !== undefined) {
      const plain = entryEvent(AckStatus.TransactionACK, eh, chainId, height);
      let full: FeedEvent | undefined;
      for (const c of subs) {
        if (c.content) {
          full ??= entryEvent(AckStatus.TransactionACK, eh, chainId, height, unmarshalEntry(raw));
          this.send(c, full);
        } else this.send(c, plain);
      }
    }
    this.status(eh, AckStatus.TransactionACK, height);
  }

  private remember(eh: string, chainId: string): void {
    this.held.delete(eh);
    this.held.set(eh, chainId);
    if (this.held.size > this.options.maxSubscriptions) this.held.delete(this.held.keys().next().value!);
  }

  private status(hash: string, status: AckStatus, height: number): void {
    const subs = this.byHash.get(hash);
    if (subs === undefined) return;
    const event: FeedEvent = { event: "status", hash, status, height };
    for (const c of subs) this.send(c, event);
  }

  blockSaved(height: number): void {
    this.savedHeight = Math.max(this.savedHeight, height);
    // before the early return: the anchored height follows the chain even while nobody listens
    this.reportAnchors();
    if (this.connections.size === 0) return;
    const items = savedBlockItems(this.deps.ledger, height);
    if (items === undefined) return;
    const summary = encodeJson(items.summary);
    for (const c of this.connections) this.sendText(c, summary, items.summary);
    for (const c of this.querying) void this.pump(c);
    if (this.byChain.size === 0 && this.byHash.size === 0 && this.byAddress.size === 0) return;
    for (const { entryHash: eh, chainId } of items.entries) {
      for (const c of this.byChain.get(chainId) ?? []) this.send(c, this.confirmedEntry(c, eh, chainId, height));
      this.status(eh, AckStatus.DBlockConfirmed, height);
    }
    for (const tx of items.transactions) {
      const subscribers = new Set<FeedConnection>();
      for (const k of transactionAddressKeys(tx)) for (const c of this.byAddress.get(k) ?? []) subscribers.add(c);
      if (subscribers.size > 0) {
        const event = transactionEvent(AckStatus.DBlockConfirmed, tx, height);
        for (const c of subscribers) this.send(c, event);
      }
      this.status(toHex(transactionId(tx)), AckStatus.DBlockConfirmed, height);
    }
  }

  /**
   * `anchored` events (subscription `anchored`) for records saved since the last look: one per window, in
   * height order, with the external transaction. forHeight reads the anchor chain's new entry blocks first.
   */
  private reportAnchors(): void {
    const index = this.deps.anchors?.index;
    if (index === undefined) return;
    for (;;) {
      const a = index.forHeight(this.anchoredHeight + 1);
      if (a === undefined) return;
      this.anchoredHeight = Math.max(this.anchoredHeight + 1, a.record.dbHeightMax);
      const event = anchoredEvent(a);
      const text = encodeJson(event);
      for (const c of this.connections) if (c.anchored && !c.closed) this.write(c, text);
    }
  }

  // ───────────────────────────── health and status ─────────────────────────────

  private healthEvent(): HealthEvent {
    const ledger = this.deps.ledger;
    const refusal = ledger.writeRefusal();
    const booted = ledger.isBooted();
    const stalled = ledger.currentMinute().stallDetected;
    return {
      event: "health",
      healthy: booted && refusal === undefined && !stalled,
      booted,
      ...(refusal === undefined ? {} : { writesrefused: refusal }),
      stalled,
    };
  }

  private checkHealth(): void {
    for (const c of this.querying) void this.pump(c);
    const event = this.healthEvent();
    const text = encodeJson(event);
    if (text === this.lastHealth) return;
    this.lastHealth = text;
    for (const c of this.connections) if (c.health) this.sendText(c, text, event);
  }

  // ───────────────────────────── sending ─────────────────────────────

  private send(c: FeedConnection, event: FeedEvent | Record<string, unknown>): void {
    this.sendText(c, encodeJson(event), event);
  }

  /** Send now, or queue behind a running replay; drop the connection when it is too far behind. */
  private sendText(c: FeedConnection, text: string, event: FeedEvent | Record<string, unknown>): void {
    if (c.closed) return;
    if (c.queue !== undefined && isFeedEvent(event)) {
      if (c.queue.length >= this.options.maxQueuedEvents) this.drop(c, "too many events queued during a replay");
      else c.queue.push(event);
      return;
    }
    this.write(c, text);
  }

  private sendDirect(c: FeedConnection, event: FeedEvent): void {
    if (!c.closed) this.write(c, encodeJson(event));
  }

  private write(c: FeedConnection, text: string): void {
    if (c.socket.bufferedBytes() + text.length > this.options.maxBufferedBytes)
      this.drop(c, `more than ${this.options.maxBufferedBytes} bytes of events unsent`);
    else c.socket.send(text);
  }

  private drop(c: FeedConnection, why: string): void {
    if (c.closed) return;
    this.droppedCount++;
    this.limits.reached("slow_consumer", { source: c.source, why });
    this.closed(c);
    c.socket.end(LiveCloseCode.slowConsumer, "slow consumer");
  }
}

/** How often a query subscription waiting for a full socket looks at it again, ms. */
const QUERY_DRAIN_POLL_MS = 50;
