/**
 * The entry-credit rate's schedule (docs/cluster.md §1.5.2, issue 33 item 4): the rate authority signs a
 * setEcRate record (records.ts kind 11: rate u64 ‖ activation height u32) and every node that applies it
 * schedules the rate for that height. From the record's height on, the open block's writes pay the new rate
 * and its asset block carries it in the header (ExchRate), so once that block is saved the chain itself says
 * which rate was in force; until then the announced change lives in the log and in this schedule.
 *
 * The reference has no admin entry type for a rate (its rates came from entries of the exchange-rate chain):
 * nothing of a change shows in the admin block (docs/compat.md).
 *
 * The schedule is kept in a file beside the saved blocks (written at each accepted record, after the previous
 * block's save): a start keeps the changes recorded up to the saved block's log sequence and not yet in a
 * saved block; the records after that sequence are applied again from the log. Unlike the authority file it
 * is state, not a cache: an announced change is in no saved block until its height (docs/cluster.md).
 *
 * Pure rules (`setEcRateRefusal`) and a small holder; no clock.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import type { FederationLogger } from "./federationTypes.js";
import { type ClusterRecord, verifyRecord } from "./records.js";

/** File name inside the node's data directory. */
export const EC_RATE_FILE_NAME = "cluster-ec-rates.json";
const FORMAT = 1;

/** One announced rate, not yet in a saved block. */
export interface ScheduledRate {
  /** the first height that pays `rate` */
  activationHeight: number;
  /** base units per entry credit */
  rate: bigint;
  /** the log sequence of the record that announced it */
  seq: number;
}

export type SetEcRateRecord = Extract<ClusterRecord, { kind: "setEcRate" }>;

/**
 * Why `rec` cannot be scheduled while `openHeight` is open (undefined when it can): the signature must be the
 * rate authority's, the rate above 0, the height after the open one and at most `maxLead` blocks ahead, and
 * after every change already scheduled (the changes take effect in the order they were announced); the same
 * change twice is a replay.
 */
export function setEcRateRefusal(
  rec: SetEcRateRecord,
  at: {
    openHeight: number;
    networkId: number;
    /** the network's rate authority public key; undefined: the network names none */
    authority: Uint8Array | undefined;
    pending: readonly ScheduledRate[];
    maxLead: number;
  },
): string | undefined {
  if (at.authority === undefined) return "this network names no entry-credit rate authority";
  if (!verifyRecord(rec, at.networkId, at.authority)) return "the signature is not the rate authority's";
  if (rec.rate <= 0n) return "a rate of 0 base units per entry credit would give entry credits away";
  const H = rec.activationHeight;
  if (H <= at.openHeight) return `activation height ${H} is not after the open height ${at.openHeight}`;
  if (H > at.openHeight + at.maxLead)
    return `activation height ${H} is more than ${at.maxLead} blocks after the open height ${at.openHeight}`;
  if (at.pending.some((p) => p.activationHeight === H && p.rate === rec.rate))
    return `replay: the rate ${rec.rate} is already scheduled for height ${H}`;
  const last = at.pending.at(-1);
  if (last !== undefined && H <= last.activationHeight)
    return `activation height ${H} is not after the rate change already scheduled for ${last.activationHeight}`;
  return undefined;
}

/** The announced rates of a node, kept beside its saved blocks. */
export class EcRateSchedule {
  /** in activation order (strictly increasing: setEcRateRefusal) */
  private pending: ScheduledRate[] = [];

  constructor(
    private readonly options: { file?: string },
    private readonly deps: { logger: FederationLogger },
  ) {}

  /**
   * Read the file: keep the changes recorded up to `savedSeq` (the saved block's log sequence) and not yet in
   * force at a saved block (activation > `savedHeight`). A missing file is an empty schedule; a damaged one is
   * logged as an error (the announced changes in it are lost to this node).
   */
  load(savedSeq: number, savedHeight: number): void {
    this.pending = [];
    const file = this.options.file;
    if (file === undefined) return;
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT")
        this.deps.logger.error("entry-credit rate schedule not read", { file, error: String(e) });
      return;
    }
    const parsed = parseSchedule(text);
    if (typeof parsed === "string") {
      this.deps.logger.error("entry-credit rate schedule damaged: its announced changes are lost to this node", {
        file,
        error: parsed,
      });
      return;
    }
    this.pending = parsed.filter((s) => s.seq <= savedSeq && s.activationHeight > savedHeight);
  }

  /** The changes announced and not yet in a saved block, in activation order. */
  scheduled(): readonly ScheduledRate[] {
    return this.pending;
  }

  /** Schedule an accepted change (after `setEcRateRefusal`), and keep the schedule in its file. */
  add(rec: SetEcRateRecord, seq: number): void {
    this.pending.push({ activationHeight: rec.activationHeight, rate: rec.rate, seq });
    this.save();
  }

  /**
   * A height opened (its previous block closed): forget the changes that block carries, and answer the rate
   * the open block pays when a change starts at it (undefined: the previous block's rate goes on).
   */
  openAt(height: number): bigint | undefined {
    // (the file keeps them until the next add, which comes after this block's save; load() skips them)
    this.pending = this.pending.filter((p) => p.activationHeight >= height);
    const first = this.pending[0];
    return first?.activationHeight === height ? first.rate : undefined;
  }

  private save(): void {
    const file = this.options.file;
    if (file === undefined) return;
    const body = JSON.stringify({
      format: FORMAT,
      pending: this.pending.map((p) => ({ activationHeight: p.activationHeight, rate: p.rate.toString(), seq: p.seq })),
    });
    try {
      writeFileSync(`${file}.tmp`, body, { mode: 0o600 });
      renameSync(`${file}.tmp`, file);
    } catch (e) {
      // state, not a cache: a restart before the change's height would not know it
      this.deps.logger.error("entry-credit rate schedule not written", {
        file,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
}

/** The changes of a schedule file, or why it cannot be read. */
function parseSchedule(text: string): ScheduledRate[] | string {
  let j: { format?: unknown; pending?: unknown };
  try {
    j = JSON.parse(text) as typeof j;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  if (j.format !== FORMAT || !Array.isArray(j.pending)) return `format ${String(j.format)}, expected ${FORMAT}`;
  const out: ScheduledRate[] = [];
  for (const p of j.pending as { activationHeight: unknown; rate: unknown; seq: unknown }[]) {
    if (
      !Number.isSafeInteger(p?.activationHeight) ||
      !Number.isSafeInteger(p?.seq) ||
      typeof p?.rate !== "string" ||
      !/^[1-9][0-9]{0,19}$/.test(p.rate)
    )
      return "a malformed change";
    out.push({ activationHeight: p.activationHeight as number, rate: BigInt(p.rate), seq: p.seq as number });
  }
  return out;
}
