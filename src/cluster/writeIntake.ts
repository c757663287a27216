/**
 * Client writes at a cluster node (docs/cluster.md §1.6): messages accepted here (decoded, signatures
 * checked) are batched, one `writes` record per event-loop tick, appended to the replicated log, and each
 * caller is answered with the verdict this node's apply gave its message (federation.ts hands the verdicts
 * of every applied `writes` record to `delivered`). Nothing is answered before it is in the log and applied.
 */
import { randomBytes } from "node:crypto";
import { LedgerError, nodeUnavailable } from "../ledger/errors.js";
import { encodeMessage, type LogMessage } from "../ledger/messages.js";
import { toHex } from "../protocol/bytes.js";
import { commitTxId } from "../protocol/commit.js";
import { entryHash } from "../protocol/entry.js";
import { transactionId } from "../protocol/transaction.js";
import type { OrderedLog, WriteResult } from "./federationTypes.js";
import { MAX_RECORD_BYTES } from "./jetStreamLog.js";
import { encodeRecord, MAX_WRITES_PER_RECORD, recordSubject } from "./records.js";

/** Results of applied writes records kept for their proposer to collect (a proposer collects at once). */
const RESULTS_KEPT = 4096;

interface Waiting {
  bytes: Uint8Array;
  resolve(): void;
  reject(e: unknown): void;
}

export class WriteIntake {
  private batch: Waiting[] = [];
  private batchScheduled = false;
  private readonly bootNonce = randomBytes(6).toString("hex");
  private writeCount = 0;
  private readonly results = new Map<number, WriteResult[]>();
  private readonly waiting = new Map<number, (r: WriteResult[]) => void>();
  /** hashes (hex) of writes accepted here and not yet applied from the log → how many such writes */
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly log: OrderedLog,
    /** a name unique in the cluster, part of record ids */
    private readonly nodeName: string,
    /** why writes are refused now (a forked node), or undefined */
    private readonly refusal: () => string | undefined,
  ) {}

  /**
   * Append a client message (already checked here: decode, signature, pre-checks) and resolve once this
   * node has applied it: rejects with the rule's LedgerError when the log order made it invalid.
   */
  submit(msg: LogMessage): Promise<void> {
    const refused = this.refusal();
    if (refused !== undefined) return Promise.reject(nodeUnavailable(refused));
    const keys = pendingKeys(msg);
    for (const k of keys) this.pending.set(k, (this.pending.get(k) ?? 0) + 1);
    const settle = (): void => {
      for (const k of keys) {
        const n = (this.pending.get(k) ?? 1) - 1;
        if (n <= 0) this.pending.delete(k);
        else this.pending.set(k, n);
      }
    };
    return new Promise<void>((resolve, reject) => {
      this.batch.push({
        bytes: encodeMessage(msg),
        resolve: () => {
          settle();
          resolve();
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      });
      if (!this.batchScheduled) {
        this.batchScheduled = true;
        setImmediate(() => this.flushBatch());
      }
    });
  }

  /** True while a write with this hash was accepted here and is not yet applied from the log (ack: NotConfirmed). */
  isPending(hash: Uint8Array): boolean {
    return this.pending.has(toHex(hash));
  }

  /** The verdicts of the `writes` record at `seq`, as this node applied it (called by apply, in log order). */
  delivered(seq: number, out: WriteResult[]): void {
    const waiter = this.waiting.get(seq);
    if (waiter !== undefined) {
      this.waiting.delete(seq);
      waiter(out);
    } else {
      this.results.set(seq, out);
      if (this.results.size > RESULTS_KEPT) this.results.delete(this.results.keys().next().value!);
    }
  }

  /** Refuse every write not yet appended (the node is stopping). */
  close(): void {
    for (const b of this.batch) b.reject(nodeUnavailable("the node is stopping"));
    this.batch = [];
  }

  private flushBatch(): void {
    this.batchScheduled = false;
    while (this.batch.length > 0) {
      const part: Waiting[] = [];
      let bytes = 1;
      while (
        this.batch.length > 0 &&
        bytes + 4 + this.batch[0]!.bytes.length <= MAX_RECORD_BYTES &&
        part.length < MAX_WRITES_PER_RECORD
      ) {
        const w = this.batch.shift()!;
        bytes += 4 + w.bytes.length;
        part.push(w);
      }
      if (part.length === 0) {
        const w = this.batch.shift()!;
        w.reject(new LedgerError({ code: "INVALID", info: "message larger than a log record" }));
        continue;
      }
      void this.appendWrites(part);
    }
  }

  private async appendWrites(part: Waiting[]): Promise<void> {
    const data = encodeRecord({ kind: "writes", messages: part.map((p) => p.bytes) });
    const id = `w/${this.nodeName}/${this.bootNonce}/${this.writeCount++}`;
    let results: WriteResult[];
    try {
      const { seq } = await this.log.append(recordSubject("writes"), data, id);
      results = await this.resultsOf(seq);
    } catch (e) {
      const err =
        e instanceof LedgerError
          ? e
          : nodeUnavailable(
              `not confirmed: the replicated log did not take the message (${e instanceof Error ? e.message : String(e)})`,
            );
      for (const p of part) p.reject(err);
      return;
    }
    part.forEach((p, i) => {
      const r = results[i];
      if (r === undefined) p.resolve();
      else p.reject(r);
    });
  }

  private resultsOf(seq: number): Promise<WriteResult[]> {
    const ready = this.results.get(seq);
    if (ready !== undefined) {
      this.results.delete(seq);
      return Promise.resolve(ready);
    }
    return new Promise((resolve) => this.waiting.set(seq, resolve));
  }
}

/** The hashes `ack` may be asked about for a client message: commit txid and entry hash, entry hash, txid. */
function pendingKeys(msg: LogMessage): string[] {
  switch (msg.kind) {
    case "commit":
      return [toHex(commitTxId(msg.commit)), toHex(msg.commit.entryHash)];
    case "reveal":
      return [toHex(entryHash(msg.entryRaw))];
    case "transaction":
      return [toHex(transactionId(msg.tx))];
    default:
      return [];
  }
}
