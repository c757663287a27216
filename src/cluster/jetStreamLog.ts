/**
 * The replicated, ordered log of a cluster: one file-stored JetStream stream per network
 * (`LEDGER_<NET>`, subjects `ledger.<net>.>`), R3 by default (FEDERATION.md §2, §4).
 *
 * JetStream orders; the ledger decides. `append` stores a record and returns its stream sequence, which
 * is the record's position in the one total order every node applies. `follow` delivers every record from a
 * sequence on, in order, through an ordered consumer (ephemeral, recreated by the client after a gap or a
 * server loss). Nothing here interprets a record.
 *
 * Failure handling: while the stream has no leader (a nats-server crashed: 4–9 s, FEDERATION.md §2.2) a
 * publish fails at once with "no responders" (the 3.4.0 client reports it as `jetstream is not enabled`)
 * or times out. `append` retries with the same `Nats-Msg-Id` until `appendDeadlineMs`, so a retried publish
 * that was in fact stored is answered as a duplicate of the same sequence, not stored twice.
 *
 * A nats-server that stops answering without closing its connections (SIGSTOP, a hung host) is found by the
 * client's pings: PING_INTERVAL_MS × (MAX_PINGS_OUT + 1) at most, then the client reconnects to another
 * server of the list (measured in test/integration/nats-pause.test.ts).
 *
 * Least privilege (natsPermissions.ts): a node's NATS user may lack the right to create the streams
 * (`createStreams: false` waits for them instead) or to publish to the log (a follower forwards its writes:
 * `request` here, `serve` on the servers; writeForwarding.ts). A permissions violation is not retried: it
 * fails at once as LogRefusedError, naming the subject.
 */
import type { JetStreamClient, JetStreamManager, JsMsg, StreamConfig } from "@nats-io/jetstream";
import {
  DeliverPolicy,
  DiscardPolicy,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
} from "@nats-io/jetstream";
import { connect, headers as natsHeaders } from "@nats-io/transport-node";
import { InvariantError, NodeError } from "../errors.js";
import { blockSetPartHeader } from "./blockSets.js";
import { isPermissionError, isRetryable, LogRefusedError, LogUnavailableError, refused } from "./natsErrors.js";

/** The NATS connection type of the transport (kept local: the core package is not a direct dependency). */
type NatsConnection = Awaited<ReturnType<typeof connect>>;

/**
 * Dedup window of the stream, ms. JetStream's default (2 min, `StreamDefaultDuplicatesWindow`). A retry
 * never outlives it: `append` gives up after DEFAULT_APPEND_DEADLINE_MS, far inside the window.
 */
export const DUPLICATE_WINDOW_MS = 120_000;
/**
 * How long `append` keeps retrying a publish, ms. A stream-leader crash stops writes 4.1–6.9 s (measured,
 * FEDERATION.md §2.2; the Raft election timeout is a random 4–9 s), so 30 s covers several elections.
 */
export const DEFAULT_APPEND_DEADLINE_MS = 30_000;
/** Wait for one PubAck, ms. A R3 publish is 0.4 ms p50 / 3 ms p99 here; a longer wait means no leader. */
const PUBLISH_TIMEOUT_MS = 2_000;
/**
 * One connection attempt (TCP, INFO, TLS, CONNECT), ms. A reconnect may first pick the server it just left
 * for stale: a paused server accepts the TCP connection (the kernel does) and never sends INFO, so this is
 * what such a pick costs (measured: 2 s with 2 000, cluster-permissions test). 1 s is ~10× a loaded
 * machine's TLS + bcrypt login here; a slower one only makes the client try the next server.
 */
const CONNECT_TIMEOUT_MS = 1_000;
/** Pause between publish attempts while there is no stream leader, ms. */
const RETRY_PAUSE_MS = 250;
/**
 * A follow that has delivered nothing for this long while the stream holds more is restarted, ms. Records
 * arrive every minute at least (end-of-minute markers), and a live delivery takes well under 1 ms each.
 */
const FOLLOW_WATCHDOG_MS = 3_000;
/** Largest record, bytes: below NATS's default `max_payload` (1 MiB) with room for headers. */
export const MAX_RECORD_BYTES = 512 * 1024;
/**
 * Client PING every this many ms; at the tick that finds MAX_PINGS_OUT of them unanswered the connection is
 * stale and the client reconnects to another server: a paused nats-server is left 2–3 s after it stopped
 * answering, plus the reconnect (up to the connect timeout when the list's next pick is the paused server).
 * The library's defaults (2 min × 2) left a node on a paused server for the whole pause (cluster-faults.md
 * §2). A blocked event loop does not make a live server look stale: the tick that runs after a block finds at
 * most the one ping sent before it unanswered, and the pongs are read in the same loop iteration.
 */
export const PING_INTERVAL_MS = 1_000;
export const MAX_PINGS_OUT = 2;
/** How often a node waiting for the log's stream to be created says so, ms. */
const STREAM_WAIT_LOG_EVERY_MS = 5_000;

export interface JetStreamLogOptions {
  /** NATS client URLs (all servers of the cluster) */
  servers: readonly string[];
  /** stream name, e.g. LEDGER_LOCAL */
  stream: string;
  /** subject prefix without the trailing `.>`, e.g. ledger.local */
  subjectPrefix: string;
  /** replicas when this node creates the stream */
  replicas: number;
  /** connection name shown by the NATS monitoring (`connz`) */
  name?: string;
  /** give up an append after this many ms (default DEFAULT_APPEND_DEADLINE_MS) */
  appendDeadlineMs?: number;
  /** NATS user and password (the server's `authorization` users) */
  user?: string;
  pass?: string;
  /** TLS to the NATS servers: CA that signed them, and this node's certificate and key (mutual TLS) */
  tls?: { caFile?: string; certFile?: string; keyFile?: string };
  /** give up connecting after this many ms (default: keep trying while no server answers) */
  connectDeadlineMs?: number;
  /**
   * create the streams when they do not exist (default true). False: wait for them (a node whose NATS user
   * may not create streams: audit servers and followers, natsPermissions.ts)
   */
  createStreams?: boolean;
  /** prefix of this connection's reply subjects (default `_INBOX`); a role's user may subscribe to its own only */
  inboxPrefix?: string;
}

export interface JetStreamLogDependencies {
  log: {
    info(msg: string, fields?: Record<string, unknown>): void;
    warn(msg: string, fields?: Record<string, unknown>): void;
  };
}

/** Where block sets are kept (blockSets.ts); parts as `encodeBlockSet` made them. */
export interface BlockSetArchive {
  /** all parts of height `height`'s set, or undefined when it is not (completely) there */
  get(height: number): Promise<Uint8Array[] | undefined>;
  /** true when the set of `height` is there */
  has(height: number): Promise<boolean>;
  put(height: number, parts: readonly Uint8Array[]): Promise<void>;
}

/** One stored record as delivered by `follow`. */
export interface LogRecord {
  /** stream sequence, from 1 */
  seq: number;
  /** full subject, e.g. ledger.local.tx */
  subject: string;
  data: Uint8Array;
  /** when the stream stored it, ms since epoch (the storing server's clock) */
  storedMs: number;
}

/** The answer of an append: where the record sits in the order. */
export interface Appended {
  seq: number;
  /** true when the id was already stored (this call stored nothing; `seq` is the original's) */
  duplicate: boolean;
}

/** A running `follow`; `stop()` ends the delivery (resolves once the consumer is gone). */
export interface Following {
  stop(): Promise<void>;
  /** resolves (or rejects with the handler's error) when the delivery ends */
  readonly done: Promise<void>;
}

export { LogRefusedError, LogUnavailableError };

/** A request `serve` answers: its payload and its headers. */
export interface ServedRequest {
  data: Uint8Array;
  header(name: string): string;
}

export class JetStreamLog {
  private closed = false;
  /** called when the client has reconnected (to another server, or the same one back) */
  private readonly reconnected = new Set<() => void>();

  private constructor(
    private readonly options: JetStreamLogOptions,
    private readonly deps: JetStreamLogDependencies,
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
  ) {
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type !== "reconnect") continue;
        deps.log.info("NATS connection moved", { server: nc.getServer() });
        for (const f of this.reconnected) f();
      }
    })().catch(() => {});
  }

  /**
   * Connect (retrying for ever while no server answers: a node may start before NATS) and make sure the
   * stream exists, creating it with this node's replica count when it does not.
   */
  static async open(options: JetStreamLogOptions, deps: JetStreamLogDependencies): Promise<JetStreamLog> {
    const nc = await connectToNats(options, deps);
    try {
      const jsm = await jetstreamManager(nc, { timeout: PUBLISH_TIMEOUT_MS });
      const log = new JetStreamLog(options, deps, nc, jetstream(nc, { timeout: PUBLISH_TIMEOUT_MS }), jsm);
      await log.ensureStream(log.streamConfig(options.stream, options.subjectPrefix));
      return log;
    } catch (e) {
      await nc.close().catch(() => {});
      // e.g. a user whose subscribe list lacks this role's inbox prefix (`_INBOX_<role>.>`, natsPermissions.ts)
      throw isPermissionError(e) ? refused(options, e) : e;
    }
  }

  private async ensureStream(config: Partial<StreamConfig> & { name: string }): Promise<void> {
    const deadline = Date.now() + (this.options.appendDeadlineMs ?? DEFAULT_APPEND_DEADLINE_MS);
    const create = this.options.createStreams ?? true;
    let last = "";
    let lastLog = 0;
    for (;;) {
      if (this.closed) throw new LogUnavailableError("closed");
      try {
        await this.jsm.streams.info(config.name);
        return;
      } catch (e) {
        const text = e instanceof Error ? e.message : String(e);
        if (isPermissionError(e)) throw refused(this.options, e);
        if (/stream not found/i.test(text) && !create) {
          // made by a federated server (or the operator) when it starts: wait as for NATS itself
          if (Date.now() - lastLog >= STREAM_WAIT_LOG_EVERY_MS) {
            lastLog = Date.now();
            this.deps.log.warn("waiting for the stream: a federated server or the operator creates it", {
              stream: config.name,
            });
          }
          await sleep(RETRY_PAUSE_MS);
          continue;
        }
        if (/stream not found/i.test(text)) {
          try {
            await this.jsm.streams.add(config);
            this.deps.log.info("created the log stream", {
              stream: config.name,
              replicas: this.options.replicas,
            });
            return;
          } catch (e2) {
            if (isPermissionError(e2)) throw refused(this.options, e2);
            // another node created it meanwhile: go round and read it
            if (!/already in use|exists/i.test(e2 instanceof Error ? e2.message : String(e2)) && !isRetryable(e2))
              throw e2;
            last = e2 instanceof Error ? e2.message : String(e2);
          }
        } else if (!isRetryable(e)) throw e;
        else last = text;
      }
      if (Date.now() > deadline)
        throw new LogUnavailableError(`stream ${config.name} not reachable${last === "" ? "" : ` (last: ${last})`}`);
      await sleep(RETRY_PAUSE_MS);
    }
  }

  private streamConfig(name: string, subjectPrefix: string): Partial<StreamConfig> & { name: string } {
    return {
      name,
      subjects: [`${subjectPrefix}.>`],
      storage: StorageType.File,
      num_replicas: this.options.replicas,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      allow_direct: true,
      duplicate_window: DUPLICATE_WINDOW_MS * 1_000_000,
      max_msg_size: MAX_RECORD_BYTES + 4096,
    };
  }

  /**
   * Store one record under `${subjectPrefix}.${kind}`. `msgId` (optional) is the `Nats-Msg-Id`: a second
   * append of the same id inside the dedup window stores nothing and answers the first one's sequence.
   * Retries while there is no stream leader; rejects with LogUnavailableError after the deadline.
   */
  async append(kind: string, data: Uint8Array, msgId?: string, deadlineMs?: number): Promise<Appended> {
    if (data.length > MAX_RECORD_BYTES)
      throw new LogRefusedError(`record of ${data.length} bytes exceeds ${MAX_RECORD_BYTES} bytes`);
    return this.publishTo(`${this.options.subjectPrefix}.${kind}`, data, msgId, deadlineMs);
  }

  /** Publish with retries while there is no stream leader (see `append`); `deadlineMs` overrides the option's. */
  private async publishTo(subject: string, data: Uint8Array, msgId?: string, deadlineMs?: number): Promise<Appended> {
    const deadline = Date.now() + (deadlineMs ?? this.options.appendDeadlineMs ?? DEFAULT_APPEND_DEADLINE_MS);
    let last: unknown;
    for (;;) {
      if (this.closed) throw new LogUnavailableError("closed");
      try {
        const ack = await this.js.publish(subject, data, {
          timeout: PUBLISH_TIMEOUT_MS,
          ...(msgId === undefined ? {} : { msgID: msgId }),
        });
        return { seq: ack.seq, duplicate: ack.duplicate };
      } catch (e) {
        if (isPermissionError(e)) throw refused(this.options, e);
        if (!isRetryable(e)) throw e;
        last = e;
      }
      if (Date.now() > deadline) throw new LogUnavailableError(last instanceof Error ? last.message : String(last));
      await sleep(RETRY_PAUSE_MS);
    }
  }

  /** The stream's last sequence (0 when empty). Needs a stream leader. */
  async lastSequence(): Promise<number> {
    const info = await this.jsm.streams.info(this.options.stream);
    return info.state.last_seq;
  }

  /**
   * The stream's first sequence: the oldest record it still holds (last + 1 when it holds none, e.g. after a
   * purge). Needs a stream leader.
   */
  async firstSequence(): Promise<number> {
    const info = await this.jsm.streams.info(this.options.stream);
    return info.state.messages === 0 ? info.state.last_seq + 1 : info.state.first_seq;
  }

  /**
   * The block-set archive beside the log (blockSets.ts): stream `${stream}_SETS` on `${subjectPrefix}.>`
   * (e.g. LEDGER_LOCAL_SETS on ledgersets.local.>), made like the log's stream when it does not exist. Part i
   * of height h's set is the message on `<prefix>.<h>.<i>`, read with a direct get (any replica answers).
   */
  async openArchive(
    stream: string,
    subjectPrefix: string,
    /** a second key space in the same stream: parts on `<prefix>.<subject>.<height>.<i>`, message ids `<msgId>/…` */
    space?: { subject: string; msgId: string },
  ): Promise<BlockSetArchive> {
    await this.ensureStream(this.streamConfig(stream, subjectPrefix));
    const base = space === undefined ? subjectPrefix : `${subjectPrefix}.${space.subject}`;
    const idPrefix = space === undefined ? "set" : space.msgId;
    const part = async (height: number, index: number): Promise<Uint8Array | undefined> => {
      const m = await this.jsm.direct.getMessage(stream, { last_by_subj: `${base}.${height}.${index}` });
      return m === null ? undefined : m.data;
    };
    return {
      get: async (height) => {
        const first = await part(height, 0);
        if (first === undefined) return undefined;
        const parts = [first];
        const { count } = blockSetPartHeader(first);
        for (let i = 1; i < count; i++) {
          const p = await part(height, i);
          if (p === undefined) return undefined;
          parts.push(p);
        }
        return parts;
      },
      has: async (height) => (await part(height, 0)) !== undefined,
      put: async (height, parts) => {
        // the last part first: a reader that finds part 0 finds the others
        for (let i = parts.length - 1; i >= 0; i--)
          await this.publishTo(`${base}.${height}.${i}`, parts[i]!, `${idPrefix}/${height}/${i}`);
      },
    };
  }

  /**
   * Deliver every record from `fromSeq` (≥ 1) on, in order, one at a time: the next record is delivered
   * only after `onRecord` has settled. A handler that throws ends the delivery (`done` rejects with it).
   */
  follow(fromSeq: number, onRecord: (r: LogRecord) => Promise<void> | void): Following {
    if (!(Number.isSafeInteger(fromSeq) && fromSeq >= 1))
      throw new InvariantError(`fromSeq must be ≥ 1, got ${fromSeq}`);
    let stopped = false;
    let stopMessages: (() => void) | undefined;
    const run = async (): Promise<void> => {
      let next = fromSeq;
      while (!stopped && !this.closed) {
        let watchdog: NodeJS.Timeout | undefined;
        let onReconnect: (() => void) | undefined;
        try {
          const consumer = await this.js.consumers.get(this.options.stream, {
            deliver_policy: DeliverPolicy.StartSequence,
            opt_start_seq: next,
          });
          const messages = await consumer.consume({ max_messages: 512 });
          stopMessages = () => void messages.stop();
          if (stopped) messages.stop();
          // After a reconnect the consumer may live on the server that was left (an ordered consumer is R1),
          // and its pending pull went with the old connection: follow again at once rather than after the
          // watchdog's stall check (measured: 3–7 s more with a paused server, cluster-permissions test).
          onReconnect = () => {
            this.deps.log.warn("log delivery moved with the connection; following again", { from: next });
            messages.stop();
          };
          this.reconnected.add(onReconnect);
          // The client recreates an ordered consumer after a gap, but not always after the nats-server its
          // connection was on died (measured: delivery stalled > 20 s while appends went on). So: when nothing
          // arrives for FOLLOW_WATCHDOG_MS while the stream holds more, this consumer is dropped and made again.
          let delivered = 0;
          let seen = 0;
          let busy = false;
          let checking = false;
          watchdog = setInterval(() => {
            if (checking || busy || delivered !== seen) {
              seen = delivered;
              return;
            }
            checking = true;
            this.lastSequence().then(
              (last) => {
                checking = false;
                if (delivered === seen && !busy && last >= next) {
                  this.deps.log.warn("log delivery stalled; following again", { from: next, last });
                  messages.stop();
                }
              },
              () => {
                checking = false;
              },
            );
          }, FOLLOW_WATCHDOG_MS);
          for await (const m of messages) {
            const seq = (m as JsMsg).seq;
            if (seq < next) continue; // a re-delivery after the client recreated the consumer
            busy = true;
            try {
              await onRecord({ seq, subject: m.subject, data: m.data, storedMs: (m as JsMsg).time.getTime() });
            } catch (e) {
              throw new HandlerError(e);
            } finally {
              busy = false;
            }
            delivered++;
            next = seq + 1;
            if (stopped) break;
          }
        } catch (e) {
          if (stopped || this.closed) return;
          if (e instanceof HandlerError) throw e.cause;
          if (!isRetryable(e) && !/consumer|stream/i.test(e instanceof Error ? e.message : String(e))) throw e;
          this.deps.log.warn("log delivery interrupted; resuming", {
            from: next,
            error: e instanceof Error ? e.message : String(e),
          });
          await sleep(RETRY_PAUSE_MS);
        } finally {
          if (watchdog !== undefined) clearInterval(watchdog);
          if (onReconnect !== undefined) this.reconnected.delete(onReconnect);
        }
      }
    };
    const done = run();
    return {
      done,
      stop: async () => {
        stopped = true;
        stopMessages?.();
        await done.catch(() => {});
      },
    };
  }

  /**
   * The newest record of a kind (`${subjectPrefix}.${kind}`), read with a direct get: any replica answers,
   * even without a quorum (FEDERATION.md §2.1). Undefined when there is none.
   */
  async lastOfKind(kind: string): Promise<Uint8Array | undefined> {
    const m = await this.jsm.direct.getMessage(this.options.stream, {
      last_by_subj: `${this.options.subjectPrefix}.${kind}`,
    });
    return m === null ? undefined : m.data;
  }

  /**
   * Send one request on a core NATS subject and return the reply's payload (no retries: the caller decides).
   * Rejects with the client's error: no responders (nobody serves the subject), timeout, or LogRefusedError
   * when this user may not publish there.
   */
  async request(
    subject: string,
    data: Uint8Array,
    options: { timeoutMs: number; headers?: Record<string, string> },
  ): Promise<Uint8Array> {
    if (this.closed) throw new LogUnavailableError("closed");
    let h: ReturnType<typeof natsHeaders> | undefined;
    for (const [k, v] of Object.entries(options.headers ?? {})) {
      h ??= natsHeaders();
      h.set(k, v);
    }
    try {
      const reply = await this.nc.request(subject, data, {
        timeout: options.timeoutMs,
        ...(h === undefined ? {} : { headers: h }),
      });
      return reply.data;
    } catch (e) {
      if (isPermissionError(e)) throw refused(this.options, e);
      throw e;
    }
  }

  /**
   * Answer requests on `subject` as one member of the queue group `queue` (each request reaches one member;
   * no queue: every subscriber gets every request).
   * `handle`'s answer is the reply; a handler that throws answers nothing (the requester times out and may
   * ask again). The subscription follows the connection through reconnects; `stop()` ends it.
   */
  serve(
    subject: string,
    queue: string | undefined,
    handle: (req: ServedRequest) => Promise<Uint8Array>,
  ): { stop(): void } {
    const sub = this.nc.subscribe(subject, {
      ...(queue === undefined ? {} : { queue }),
      callback: (err, msg) => {
        if (err !== null) {
          this.deps.log.warn("serving requests failed", { subject, error: err.message });
          return;
        }
        handle({ data: msg.data, header: (name) => msg.headers?.get(name) ?? "" }).then(
          (reply) => {
            if (msg.reply !== undefined && msg.reply !== "") msg.respond(reply);
          },
          (e) =>
            this.deps.log.warn("request not answered", { subject, error: e instanceof Error ? e.message : String(e) }),
        );
      },
    });
    return { stop: () => sub.unsubscribe() };
  }

  /** Name of the nats-server leading the stream ("" when there is none now). */
  async streamLeader(): Promise<string> {
    const info = await this.jsm.streams.info(this.options.stream);
    return info.cluster?.leader ?? "";
  }

  /** Servers the connection knows of and whether it is connected now. */
  status(): { connected: boolean; server: string } {
    return { connected: !this.nc.isClosed() && this.nc.info !== undefined, server: this.nc.getServer() };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.nc.drain().catch(() => this.nc.close());
  }
}

/** Pause between connection attempts while no NATS server answers, ms. */
const CONNECT_RETRY_MS = 500;
/** How often a node still waiting for NATS says so, ms. */
const CONNECT_LOG_EVERY_MS = 5_000;

/**
 * Connect to one of the servers. While none answers (a node started before NATS) it keeps trying and says
 * so every few seconds; a refusal that waiting cannot fix — wrong credentials, TLS required or not trusted —
 * throws at once, naming it. Once connected, the client reconnects by itself for ever.
 */
async function connectToNats(options: JetStreamLogOptions, deps: JetStreamLogDependencies): Promise<NatsConnection> {
  const deadline = Date.now() + (options.connectDeadlineMs ?? Number.POSITIVE_INFINITY);
  let lastLog = 0;
  for (;;) {
    try {
      return await connect({
        servers: [...options.servers],
        name: options.name ?? "ledgerd",
        maxReconnectAttempts: -1,
        reconnectTimeWait: 250,
        timeout: CONNECT_TIMEOUT_MS,
        pingInterval: PING_INTERVAL_MS,
        maxPingOut: MAX_PINGS_OUT,
        ...(options.inboxPrefix === undefined ? {} : { inboxPrefix: options.inboxPrefix }),
        ...(options.user === undefined || options.user === "" ? {} : { user: options.user, pass: options.pass ?? "" }),
        ...(options.tls === undefined ? {} : { tls: options.tls }),
      });
    } catch (e) {
      const text = e instanceof Error ? e.message : String(e);
      if (/authori[sz]ation|authentication|tls|certificate|secure|ssl/i.test(text))
        throw new LogRefusedError(`NATS ${options.servers.join(",")}: ${text}`);
      if (Date.now() > deadline)
        throw new LogUnavailableError(`no NATS server answers at ${options.servers.join(",")}: ${text}`);
      if (Date.now() - lastLog >= CONNECT_LOG_EVERY_MS) {
        lastLog = Date.now();
        deps.log.warn("waiting for NATS", { servers: options.servers.join(","), error: text });
      }
      await sleep(CONNECT_RETRY_MS);
    }
  }
}

/** An error thrown by a `follow` handler: it ends the delivery instead of being retried. */
class HandlerError extends NodeError {
  constructor(override readonly cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
