/**
 * Followers do not append to the log (docs/cluster.md §1.10): the `writes` records a follower's WriteIntake
 * makes (and an add-server message sent to it) are sent by request/reply on the network's intake subject
 * (`ledgerintake.<net>`, clusterConfig.ts) to the federated and audit servers, one queue group. The server
 * that gets a request checks the record again — the same decode and the same client-signature checks as the
 * ledger's `submit*` (commit: its EC key; transaction: every RCD's signatures), an add-server record against
 * the network's skeleton key, nothing else — and appends it, byte for byte, with the follower's record id;
 * its answer is the record's stream sequence.
 *
 * What stays as it was (writeIntake.ts): the follower answers its client only once it has applied that
 * sequence from the log itself, with its own verdict. A forward that gets no answer (the server was paused
 * or died, or had no stream leader) is sent again with the same record id, to every server at once (the
 * intake's `.all` subject: the queue group may keep picking a member that cannot answer — paused, or behind a
 * paused nats-server whose interest the others still route to); JetStream's dedup makes the copies one
 * record and answers each with its sequence, so a retry never stores a record twice (the id is kept for the stream's 2-minute dedup window; the follower gives
 * up after DEFAULT_APPEND_DEADLINE_MS, far inside it).
 *
 * Who may do what is enforced by NATS (natsPermissions.ts: a follower's user may publish on the intake
 * subject and not to the log); the checks here keep a follower from putting into the log what no client
 * signed.
 */
import { createHash } from "node:crypto";
import { InvariantError, NodeError } from "../errors.js";
import { LedgerError } from "../ledger/errors.js";
import { decodeMessage } from "../ledger/messages.js";
import { clientSignatureChecks, type SignatureCheck } from "./clientSignatures.js";
import type { OrderedLog } from "./federationTypes.js";
import { type Appended, DEFAULT_APPEND_DEADLINE_MS, MAX_RECORD_BYTES, type ServedRequest } from "./jetStreamLog.js";
import { LogRefusedError, LogUnavailableError } from "./natsErrors.js";
import { broadcastIntakeSubject } from "./natsPermissions.js";
import { decodeRecord, recordSubject, verifyRecord } from "./records.js";

/** Queue group of the servers answering forwarded writes: each request reaches one of them. */
export const INTAKE_QUEUE = "ledgerd-servers";
/** Header carrying the follower's record id (its `Nats-Msg-Id` once appended). */
export const RECORD_ID_HEADER = "Ledgerd-Record-Id";
/**
 * How long a follower waits for one forward's answer, ms, before it sends the record again (same id) to the
 * queue group. A live server answers in milliseconds (an R3 publish is 0.4 ms p50 / 3 ms p99 here). A request
 * can also be lost: the queue group may pick a member that is paused, or that was connected to a paused
 * nats-server whose interest the other servers still route to (until their route pings drop it, minutes by
 * default) — measured: a follower write 16 s late with 5 s here. Short is safe: a retry is idempotent (the
 * record id), and a server still appending the first copy answers the next one as a duplicate.
 */
export const FORWARD_TIMEOUT_MS = 2_000;
/**
 * How long a server keeps trying to append a forwarded record, ms: as long as its own appends (a stream-leader
 * election takes 4–9 s). Longer than FORWARD_TIMEOUT_MS on purpose: the follower asks again meanwhile, and
 * whichever copy the stream stores first is the one both answers name.
 */
export const FORWARD_APPEND_DEADLINE_MS = 10_000;
/** Pause before a forward is sent again after "no responders" (no server serves the intake now), ms. */
const FORWARD_RETRY_PAUSE_MS = 250;
/** Longest record id accepted from a follower (its own are ~50 characters). */
const MAX_RECORD_ID_CHARS = 128;
/** Prefix of forwarded records' ids in the log: a follower's id cannot collide with a server's own. */
const FORWARDED_ID_PREFIX = "fwd/";

/** Why a forwarded record is not appended (the text goes back to the follower). */
class RecordCheckError extends NodeError {}

/** The record kinds a follower may forward: its clients' writes, and an operator's add-server message. */
const FORWARDABLE = new Set([
  recordSubject("writes"),
  recordSubject("addServer"),
  recordSubject("authorityChange"),
  recordSubject("rotateKey"),
  recordSubject("setEcRate"),
]);

/** A forwarded record the server would not append: bad bytes, a signature that does not verify, not forwardable. */
export class ForwardRefusedError extends NodeError {
  constructor(readonly info: string) {
    super(`the servers refused the forwarded record: ${info}`);
    this.name = "ForwardRefusedError";
  }
}

/** What the forwarding needs of the connection (JetStreamLog implements it). */
export interface ForwardTransport {
  request(
    subject: string,
    data: Uint8Array,
    options: { timeoutMs: number; headers?: Record<string, string> },
  ): Promise<Uint8Array>;
}

/** What the server side needs of the connection (JetStreamLog implements it). */
export interface IntakeTransport {
  serve(
    subject: string,
    queue: string | undefined,
    handle: (req: ServedRequest) => Promise<Uint8Array>,
  ): { stop(): void };
  append(kind: string, data: Uint8Array, msgId?: string, deadlineMs?: number): Promise<Appended>;
}

/** A server's answer to a forward. */
type ForwardReply = { seq: number; duplicate: boolean } | { refused: string } | { unavailable: string };

const encodeReply = (r: ForwardReply): Uint8Array => new TextEncoder().encode(JSON.stringify(r));

/**
 * A follower's log: reads (follow, sequences, direct gets) go to the stream as before; appends of the kinds a
 * follower makes are forwarded to a server. Any other append is a bug (a follower proposes nothing) and throws.
 */
export class ForwardingLog implements OrderedLog {
  readonly lastOfKind?: (kind: string) => Promise<Uint8Array | undefined>;

  constructor(
    private readonly options: { intakeSubject: string; deadlineMs?: number },
    private readonly deps: {
      log: OrderedLog;
      transport: ForwardTransport;
      now?: () => number;
    },
  ) {
    const inner = deps.log;
    if (inner.lastOfKind !== undefined) this.lastOfKind = (kind) => inner.lastOfKind!(kind);
  }

  follow(
    fromSeq: number,
    onRecord: Parameters<OrderedLog["follow"]>[1],
  ): { stop(): Promise<void>; done: Promise<void> } {
    return this.deps.log.follow(fromSeq, onRecord);
  }

  lastSequence(): Promise<number> {
    return this.deps.log.lastSequence();
  }

  firstSequence(): Promise<number> {
    return this.deps.log.firstSequence();
  }

  /**
   * Forward the record to a server and return where it was stored. Retries (same id) while no server answers,
   * until the deadline: then LogUnavailableError, which WriteIntake answers as "not confirmed".
   */
  async append(kind: string, data: Uint8Array, msgId?: string): Promise<Appended> {
    if (!FORWARDABLE.has(kind)) throw new InvariantError(`a follower does not append ${kind} records`);
    // a record without an id of its own (an add-server message) is named by its bytes: the same bytes sent
    // twice are one record, which the apply rules would refuse the second time anyway
    const id = msgId ?? `h/${createHash("sha256").update(data).digest("hex")}`;
    if (id === "" || id.length > MAX_RECORD_ID_CHARS)
      throw new InvariantError(`record id of ${id.length} characters (1 to ${MAX_RECORD_ID_CHARS})`);
    const now = this.deps.now ?? Date.now;
    const deadline = now() + (this.options.deadlineMs ?? DEFAULT_APPEND_DEADLINE_MS);
    let last = "";
    let attempt = 0;
    for (;;) {
      let reply: ForwardReply | undefined;
      try {
        // the first try goes to one server (the queue group); a retry to every server, so that a pick the
        // queue group keeps making of a paused member (or of one behind a paused nats-server) is not repeated
        const subject =
          attempt++ === 0 ? this.options.intakeSubject : broadcastIntakeSubject(this.options.intakeSubject);
        const bytes = await this.deps.transport.request(subject, data, {
          timeoutMs: FORWARD_TIMEOUT_MS,
          headers: { [RECORD_ID_HEADER]: id },
        });
        reply = JSON.parse(new TextDecoder().decode(bytes)) as ForwardReply;
      } catch (e) {
        if (e instanceof LogRefusedError) throw e;
        last = e instanceof Error ? e.message : String(e);
      }
      if (reply !== undefined) {
        if ("refused" in reply) throw new ForwardRefusedError(reply.refused);
        if ("seq" in reply && Number.isSafeInteger(reply.seq) && reply.seq >= 1)
          return { seq: reply.seq, duplicate: reply.duplicate === true };
        last = "unavailable" in reply ? reply.unavailable : `unexpected answer ${JSON.stringify(reply)}`;
      }
      if (now() > deadline) throw new LogUnavailableError(`no server appended the forwarded record (${last})`);
      await new Promise((resolve) => setTimeout(resolve, FORWARD_RETRY_PAUSE_MS));
    }
  }
}

export interface ForwardedWriteServerOptions {
  intakeSubject: string;
  /** the network id that server records are signed for (records.ts) */
  networkId: number;
  /** the network's skeleton key: an add-server record must be signed by it */
  skeletonKey: Uint8Array;
  /** the network's entry-credit rate authority: a set-ec-rate record must be signed by it (absent: refused) */
  rateAuthority?: Uint8Array;
}

export interface ForwardedWriteServerDependencies {
  transport: IntakeTransport;
  /**
   * the same verifier as the ledger's submit (the worker pool behind workers/rememberingVerifier.ts: what
   * passes here is answered from memory when this server applies the record)
   */
  verifier: { verify(checks: readonly SignatureCheck[]): Promise<boolean[]> };
  logger: {
    info(msg: string, fields?: Record<string, unknown>): void;
    warn(msg: string, fields?: Record<string, unknown>): void;
  };
  /**
   * the signing key this server's chain has in force for an identity at its open height (the federation's
   * authority view); absent: a forwarded rotation is checked only when it is applied
   */
  keyInForce?: (identity: Uint8Array) => Uint8Array | undefined;
}

/**
 * A federated or audit server's side: answers forwarded records on the intake subject (module comment).
 * Counts what it appended and refused (`stats`).
 */
export class ForwardedWriteServer {
  private serving: { stop(): void }[] = [];
  readonly stats = { appended: 0, refused: 0, unavailable: 0 };

  constructor(
    private readonly options: ForwardedWriteServerOptions,
    private readonly deps: ForwardedWriteServerDependencies,
  ) {}

  start(): void {
    if (this.serving.length > 0) return;
    const answer = (req: ServedRequest): Promise<Uint8Array> => this.answer(req);
    this.serving = [
      this.deps.transport.serve(this.options.intakeSubject, INTAKE_QUEUE, answer),
      this.deps.transport.serve(broadcastIntakeSubject(this.options.intakeSubject), undefined, answer),
    ];
  }

  stop(): void {
    for (const s of this.serving) s.stop();
    this.serving = [];
  }

  /** Check one forwarded record, append it, and say where it went (or why not). Never throws. */
  async answer(req: ServedRequest): Promise<Uint8Array> {
    const id = req.header(RECORD_ID_HEADER);
    if (id === "" || id.length > MAX_RECORD_ID_CHARS || !/^[\x21-\x7e]+$/.test(id))
      return this.refuse(
        `the record id (${RECORD_ID_HEADER} header) must be 1 to ${MAX_RECORD_ID_CHARS} printable characters`,
      );
    let kind: string;
    try {
      kind = await this.check(req.data);
    } catch (e) {
      return this.refuse(e instanceof Error ? e.message : String(e));
    }
    try {
      const { seq, duplicate } = await this.deps.transport.append(
        kind,
        req.data,
        `${FORWARDED_ID_PREFIX}${id}`,
        FORWARD_APPEND_DEADLINE_MS,
      );
      this.stats.appended++;
      return encodeReply({ seq, duplicate });
    } catch (e) {
      this.stats.unavailable++;
      return encodeReply({ unavailable: e instanceof Error ? e.message : String(e) });
    }
  }

  private refuse(why: string): Uint8Array {
    this.stats.refused++;
    this.deps.logger.warn("forwarded record refused", { reason: why });
    return encodeReply({ refused: why });
  }

  /**
   * The record's subject kind when a follower may forward it and every signature in it verifies; throws
   * naming what is wrong otherwise.
   */
  private async check(data: Uint8Array): Promise<string> {
    if (data.length > MAX_RECORD_BYTES)
      throw new RecordCheckError(`record of ${data.length} bytes exceeds ${MAX_RECORD_BYTES} bytes`);
    const rec = decodeRecord(data);
    if (rec.kind === "addServer") {
      if (!verifyRecord(rec, this.options.networkId, this.options.skeletonKey))
        throw new RecordCheckError("add server: the signature is not the network's skeleton key's");
      return recordSubject("addServer");
    }
    if (rec.kind === "authorityChange") {
      if (!verifyRecord(rec, this.options.networkId, this.options.skeletonKey))
        throw new RecordCheckError(`${rec.change}: the signature is not the network's skeleton key's`);
      return recordSubject("authorityChange");
    }
    // a rotation is signed by the identity's key in force: checked here against this server's open height (the
    // rules check it again at apply, heightMachine.ts, where the log's order decides)
    if (rec.kind === "rotateKey") {
      const lookup = this.deps.keyInForce;
      if (lookup !== undefined) {
        const key = lookup(rec.identity);
        if (key === undefined) throw new RecordCheckError("rotate key: the identity is not an authority with a key");
        if (!verifyRecord(rec, this.options.networkId, key))
          throw new RecordCheckError("rotate key: the signature is not the identity's key in force");
      }
      return recordSubject("rotateKey");
    }
    if (rec.kind === "setEcRate") {
      const authority = this.options.rateAuthority;
      if (authority === undefined)
        throw new RecordCheckError("set entry-credit rate: this network names no entry-credit rate authority");
      if (!verifyRecord(rec, this.options.networkId, authority))
        throw new RecordCheckError("set entry-credit rate: the signature is not the rate authority's");
      return recordSubject("setEcRate");
    }
    if (rec.kind !== "writes") throw new RecordCheckError(`a follower may not forward a ${rec.kind} record`);
    const checks: SignatureCheck[] = [];
    const owner: number[] = [];
    rec.messages.forEach((bytes, i) => {
      let msg: ReturnType<typeof decodeMessage>;
      try {
        msg = decodeMessage(bytes);
      } catch (e) {
        throw new RecordCheckError(`message ${i}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (msg.kind !== "commit" && msg.kind !== "transaction" && msg.kind !== "reveal")
        throw new RecordCheckError(`message ${i}: a ${msg.kind} is not a client write`);
      // the checks every node makes at apply (clientSignatures.ts); a reveal has none: its commit pays
      const own = clientSignatureChecks(msg);
      if (own instanceof LedgerError)
        throw new RecordCheckError(`message ${i}: ${"info" in own.type ? own.type.info : own.type.code}`);
      for (const c of own) {
        checks.push(c);
        owner.push(i);
      }
    });
    const results = await this.deps.verifier.verify(checks);
    const bad = results.findIndex((ok) => ok !== true);
    if (bad >= 0) throw new RecordCheckError(`message ${owner[bad]}: signature does not verify`);
    return recordSubject("writes");
  }
}
