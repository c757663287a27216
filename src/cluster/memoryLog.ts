/**
 * An ordered log in one process's memory: the `OrderedLog` the federation's driver follows (federationTypes.ts),
 * with JetStream's contract as the driver relies on it — one total order from sequence 1, an append answered
 * with its sequence, a repeated message id stored once (answered as a duplicate of the first), delivery in
 * order from any sequence still held, and a purge that drops the oldest records. Several federations in one
 * process share one instance: the rules are then tested with many nodes and no nats-server, with records
 * dropped, duplicated or interleaved as a test chooses, and with the log paused.
 */
import { InvariantError, NodeError } from "../errors.js";
import type { OrderedLog } from "./federationTypes.js";
import type { Appended, LogRecord } from "./jetStreamLog.js";

/** An append or a read while the log is closed. */
export class MemoryLogClosedError extends NodeError {}

interface Stored extends LogRecord {
  msgId: string | undefined;
}

export class MemoryOrderedLog implements OrderedLog {
  /** the records held, oldest first: records[i].seq === first + i */
  private records: Stored[] = [];
  private first = 1;
  private readonly ids = new Map<string, number>();
  /** wakes every delivery waiting for a record */
  private wake: () => void = () => {};
  private arrived: Promise<void> = this.nextArrival();
  /** set while paused: appends and deliveries wait for it */
  private paused: Promise<void> | undefined;
  private resumePaused: () => void = () => {};
  private closed = false;

  constructor(private readonly deps: { now?: () => number } = {}) {}

  async append(kind: string, data: Uint8Array, msgId?: string): Promise<Appended> {
    await this.paused;
    if (this.closed) throw new MemoryLogClosedError("the log is closed");
    if (msgId !== undefined) {
      const known = this.ids.get(msgId);
      if (known !== undefined) return { seq: known, duplicate: true };
    }
    const seq = this.first + this.records.length;
    this.records.push({ seq, subject: kind, data: data.slice(), storedMs: (this.deps.now ?? Date.now)(), msgId });
    if (msgId !== undefined) this.ids.set(msgId, seq);
    const wake = this.wake;
    this.arrived = this.nextArrival();
    wake();
    return { seq, duplicate: false };
  }

  follow(
    fromSeq: number,
    onRecord: (r: LogRecord) => Promise<void> | void,
  ): { stop(): Promise<void>; done: Promise<void> } {
    if (!(Number.isSafeInteger(fromSeq) && fromSeq >= 1))
      throw new InvariantError(`fromSeq must be ≥ 1, got ${fromSeq}`);
    let stopped = false;
    let stopWaiting: () => void = () => {};
    const stoppedSignal = new Promise<void>((resolve) => {
      stopWaiting = resolve;
    });
    const run = async (): Promise<void> => {
      let next = fromSeq;
      while (!stopped && !this.closed) {
        await Promise.race([this.paused, stoppedSignal]);
        if (stopped || this.closed) return;
        // as JetStream: a sequence no longer held is skipped to the oldest one held
        next = Math.max(next, this.first);
        const r = this.records[next - this.first];
        if (r === undefined) {
          await Promise.race([this.arrived, stoppedSignal]);
          continue;
        }
        await onRecord({ seq: r.seq, subject: r.subject, data: r.data, storedMs: r.storedMs });
        next = r.seq + 1;
      }
    };
    const done = run();
    return {
      done,
      stop: async () => {
        stopped = true;
        stopWaiting();
        await done.catch(() => {});
      },
    };
  }

  async lastSequence(): Promise<number> {
    return this.first + this.records.length - 1;
  }

  async firstSequence(): Promise<number> {
    return this.first;
  }

  async lastOfKind(kind: string): Promise<Uint8Array | undefined> {
    for (let i = this.records.length - 1; i >= 0; i--)
      if (this.records[i]!.subject === kind) return this.records[i]!.data;
    return undefined;
  }

  /** Drop every record below `seq` (a purge of the stream's oldest records). */
  purgeBelow(seq: number): void {
    const drop = Math.min(Math.max(0, seq - this.first), this.records.length);
    this.records = this.records.slice(drop);
    this.first += drop;
  }

  /** Stop appends and deliveries until `resume` (a stream without a leader). */
  pause(): void {
    if (this.paused !== undefined) return;
    this.paused = new Promise((resolve) => {
      this.resumePaused = resolve;
    });
  }

  resume(): void {
    const resume = this.resumePaused;
    this.paused = undefined;
    resume();
  }

  /** Every record held, in order (tests compare what nodes were given). */
  held(): readonly LogRecord[] {
    return this.records;
  }

  close(): void {
    this.closed = true;
    this.resume();
    this.wake();
  }

  private nextArrival(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }
}
