/**
 * The steady-state scenarios: writes (commit-entry then reveal-entry per entry), reads (one phase per
 * read method) and mixed (half the workers write, half read). Messages are pre-signed and request
 * bodies pre-serialized before the clock starts.
 */
import { toHex } from "../../src/protocol/bytes.js";
import { CloseMonitor } from "./closeMonitor.js";
import { PhaseRecorder, runWorkers } from "./phase.js";
import type { PresignedEntry } from "./presign.js";
import { rpcBody } from "./presign.js";
import { entryReadTargets, round, type ScenarioResult, writeTargets } from "./result.js";
import type { LoadSession, ResourceUse } from "./session.js";
import { joinUnits, measureVerifyUnit, signatureChecksPerEntry } from "./verifyUnit.js";
import { VerifyUnitDuring } from "./verifyUnitDuring.js";

/** Read methods of the read and mixed scenarios, in the order the phases run. */
export const READ_METHODS = ["entry", "chain-head", "asset-balance", "heights", "dblock-by-height"] as const;
export type ReadMethod = (typeof READ_METHODS)[number];

/** Errors after which a phase stops early: the node is failing, more requests measure nothing. */
const MAX_ERRORS = 10_000;
/**
 * Requests per second no phase will exceed (a bound on every request loop): 5× the read target.
 * A phase stops by itself at duration × this many requests.
 */
const MAX_REQUESTS_PER_SECOND = 100_000;
/** Untimed warm-up before each read phase: at most this long, ms, or this many requests. */
const WARMUP_MS = 500;
const WARMUP_REQUESTS = 2000;
/** Entries written (untimed) to have read targets when reads run before any writes. */
const SEED_ENTRIES = 1000;
/**
 * Seconds without any request after a write phase's check before its at-rest RssAnon is read (issue 16:
 * ≤ 200 MB at rest). The figure right after the check is kept too: the node was still answering its reads.
 */
export const REST_QUIET_SECONDS = 10;

export interface SteadyOptions {
  concurrency: number;
  /** seconds */
  durationSeconds: number;
  /** pre-signed entries available to the phase (it stops early when they run out) */
  entries: number;
}

function phaseResult(
  name: string,
  rec: PhaseRecorder,
  concurrency: number,
  resources: ResourceUse,
  extra: Partial<ScenarioResult> = {},
): ScenarioResult {
  const seconds = rec.elapsedSeconds;
  return {
    name,
    concurrency,
    seconds: round(seconds, 2),
    requests: rec.requests,
    requestsPerSecond: round(rec.requests / seconds),
    latency: rec.latency.summary(),
    byMethod: rec.methodSummaries(),
    errors: rec.errors,
    errorSamples: [...rec.errorSamples],
    resources,
    targets: [],
    notes: [],
    timeline: rec.timelineSeconds(),
    ...extra,
  };
}

/** Writer state: `step` sends the next entry's commit then its reveal and pushes acknowledged entries to `acked`. */
export function entryWriter(
  session: LoadSession,
  entries: readonly PresignedEntry[],
  rec: PhaseRecorder,
  acked: PresignedEntry[],
) {
  let next = 0;
  const writer = {
    /** true once a worker found no entry left */
    exhausted: false,
    step: async (): Promise<boolean> => {
      const i = next++;
      if (i >= entries.length) {
        writer.exhausted = true;
        return false;
      }
      const e = entries[i]!;
      if (!rec.record("commit-entry", await session.load.post(e.commitBody, "/v2", false))) return true;
      if (rec.record("reveal-entry", await session.load.post(e.revealBody, "/v2", false))) acked.push(e);
      return true;
    },
  };
  return writer;
}

/** Send `entries` untimed and wait until they are saved (read targets for the read phases). */
async function seedEntries(session: LoadSession, count: number): Promise<void> {
  const entries = session.presign(count);
  const rec = new PhaseRecorder();
  const acked: PresignedEntry[] = [];
  const fromHeight = await session.openHeight();
  session.freshLoadClient();
  await runWorkers(
    { concurrency: session.options.concurrency, durationMs: 600_000, maxErrors: 100 },
    rec,
    entryWriter(session, entries, rec, acked).step,
  );
  const c = await session.confirm(acked, fromHeight);
  session.deps.log(`seed: ${acked.length} entries written, ${c.lost} not confirmed`);
}

/** Writes: commit-entry then reveal-entry per pre-signed entry, `concurrency` in flight. */
export async function writesScenario(session: LoadSession, options: SteadyOptions): Promise<ScenarioResult> {
  const entries = session.presign(options.entries);
  const rec = new PhaseRecorder();
  const acked: PresignedEntry[] = [];
  session.deps.log(`writes: ${options.durationSeconds} s at concurrency ${options.concurrency}`);
  session.freshLoadClient();
  const writer = entryWriter(session, entries, rec, acked);
  // the figure's unit, measured in this run on both sides of the phase (verifyUnit.ts)
  const unitBefore = measureVerifyUnit();
  // and beside the writes, in the conditions the node's CPU is measured in (verifyUnitDuring.ts)
  const unitDuring = VerifyUnitDuring.start();
  const closes = new CloseMonitor(session.control);
  closes.start();
  try {
    const fromHeight = await session.openHeight();
    const mark = session.mark();
    await runWorkers(
      { concurrency: options.concurrency, durationMs: options.durationSeconds * 1000, maxErrors: MAX_ERRORS },
      rec,
      writer.step,
    );
    const resources = session.usageSince(mark);
    const inRun = await unitDuring?.stop();
    const unit = joinUnits(unitBefore, measureVerifyUnit());
    const result = phaseResult("writes", rec, options.concurrency, resources, {
      entries: acked.length,
      entriesPerSecond: round(acked.length / rec.elapsedSeconds),
    });
    const usPerEntry =
      resources.nodeCpuSeconds !== undefined && acked.length > 0
        ? (resources.nodeCpuSeconds / acked.length) * 1e6
        : undefined;
    if (unit !== undefined && usPerEntry !== undefined) {
      result.verifyUs = round(unit.us, 2);
      result.signatureChecksPerEntry = signatureChecksPerEntry(usPerEntry, unit);
    }
    if (inRun !== undefined && usPerEntry !== undefined) {
      result.verifyUsInRun = round(inRun.us, 2);
      result.signatureChecksPerEntryInRun = signatureChecksPerEntry(usPerEntry, inRun);
    }
    if (writer.exhausted && rec.elapsedSeconds < options.durationSeconds - 0.5)
      result.notes.push(
        `ran out of the ${entries.length} pre-signed entries after ${round(rec.elapsedSeconds)} s (raise --entries)`,
      );
    session.deps.log(`writes: ${acked.length} entries acknowledged; checking that each reached a saved block`);
    const stoppedAt = performance.now();
    result.confirmation = await session.confirm(acked, fromHeight);
    result.details = { ...result.details, nodeBlockCloses: await closes.stop() };
    const restAnon = session.deps.monitor?.memory()?.anonBytes;
    if (restAnon !== undefined) {
      result.rest = {
        rssAnonMiB: round(restAnon / 2 ** 20),
        secondsAfter: round((performance.now() - stoppedAt) / 1000),
      };
      // at rest = no request at all: the check above reads until the moment it ends
      await new Promise((resolve) => setTimeout(resolve, REST_QUIET_SECONDS * 1000));
      const quietAnon = session.deps.monitor?.memory()?.anonBytes;
      if (quietAnon !== undefined)
        result.restQuiet = { rssAnonMiB: round(quietAnon / 2 ** 20), secondsQuiet: REST_QUIET_SECONDS };
    }
    result.targets = writeTargets(result);
    return result;
  } finally {
    await closes.stop(); // never leave the poller running when the scenario throws
  }
}

/** Pre-serialized request bodies per read method. */
async function readBodies(session: LoadSession): Promise<Record<ReadMethod, string[]>> {
  if (session.confirmed.length === 0) await seedEntries(session, SEED_ENTRIES);
  const h = await session.heights();
  const top = h.directoryblockheight;
  const heights = Array.from({ length: Math.min(top + 1, 1000) }, (_, i) => top - i);
  return {
    entry: session.confirmed.slice(0, 10_000).map((e, i) => rpcBody("entry", { hash: e.entryHash }, i)),
    "chain-head": session.chains.map((c, i) => rpcBody("chain-head", { chainid: toHex(c.chainId) }, i)),
    "asset-balance": [rpcBody("asset-balance", { address: session.genesis.publicAddress })],
    heights: [rpcBody("heights", undefined)],
    "dblock-by-height": heights.map((height, i) => rpcBody("dblock-by-height", { height }, i)),
  };
}

/** A step that sends the next body of `bodies` as `method`. */
function readStep(
  session: LoadSession,
  method: string,
  bodies: readonly string[],
  rec: PhaseRecorder,
  maxRequests: number,
) {
  let k = 0;
  return async (): Promise<boolean> => {
    if (rec.requests >= maxRequests) return false;
    const body = bodies[k++ % bodies.length]!;
    rec.record(method, await session.load.post(body, "/v2", false));
    return true;
  };
}

/** Reads: one phase per method of READ_METHODS, each `durationSeconds / 5` long. */
export async function readsScenario(
  session: LoadSession,
  options: Omit<SteadyOptions, "entries">,
): Promise<ScenarioResult[]> {
  const bodies = await readBodies(session);
  session.freshLoadClient();
  const phaseSeconds = Math.max(0.5, options.durationSeconds / READ_METHODS.length);
  const out: ScenarioResult[] = [];
  for (const method of READ_METHODS) {
    session.deps.log(`reads: ${method} for ${round(phaseSeconds)} s at concurrency ${options.concurrency}`);
    // Untimed warm-up so the figure is not the JIT's first second on this code path.
    const warm = new PhaseRecorder();
    await runWorkers(
      { concurrency: options.concurrency, durationMs: WARMUP_MS, maxErrors: MAX_ERRORS },
      warm,
      readStep(session, method, bodies[method], warm, WARMUP_REQUESTS),
    );
    const rec = new PhaseRecorder();
    const mark = session.mark();
    const maxRequests = Math.ceil(phaseSeconds * MAX_REQUESTS_PER_SECOND);
    await runWorkers(
      { concurrency: options.concurrency, durationMs: phaseSeconds * 1000, maxErrors: MAX_ERRORS },
      rec,
      readStep(session, method, bodies[method], rec, maxRequests),
    );
    const r = phaseResult(`reads/${method}`, rec, options.concurrency, session.usageSince(mark));
    r.details = { distinctTargets: bodies[method].length };
    if (method === "entry") r.targets = entryReadTargets(r);
    out.push(r);
  }
  return out;
}

/** Mixed: half the workers write (commit + reveal), the other half cycle through the read methods. */
export async function mixedScenario(session: LoadSession, options: SteadyOptions): Promise<ScenarioResult> {
  const bodies = await readBodies(session);
  const entries = session.presign(options.entries);
  session.freshLoadClient();
  const writers = Math.max(1, Math.ceil(options.concurrency / 2));
  const readers = Math.max(1, options.concurrency - writers);
  const rec = new PhaseRecorder();
  const acked: PresignedEntry[] = [];
  const writer = entryWriter(session, entries, rec, acked);
  const maxRequests = Math.ceil(options.durationSeconds * MAX_REQUESTS_PER_SECOND);
  let k = 0;
  let reads = 0;
  const read = async (): Promise<boolean> => {
    if (rec.requests >= maxRequests) return false;
    const method = READ_METHODS[k % READ_METHODS.length]!;
    const list = bodies[method];
    const body = list[Math.floor(k / READ_METHODS.length) % list.length]!;
    k++;
    rec.record(method, await session.load.post(body, "/v2", false));
    reads++;
    return true;
  };
  session.deps.log(`mixed: ${options.durationSeconds} s, ${writers} writers + ${readers} readers`);
  const closes = new CloseMonitor(session.control);
  closes.start();
  try {
    const fromHeight = await session.openHeight();
    const mark = session.mark();
    await runWorkers(
      { concurrency: writers + readers, durationMs: options.durationSeconds * 1000, maxErrors: MAX_ERRORS },
      rec,
      (w) => (w < writers ? writer.step() : read()),
    );
    const resources = session.usageSince(mark);
    const result = phaseResult("mixed", rec, writers + readers, resources, {
      entries: acked.length,
      entriesPerSecond: round(acked.length / rec.elapsedSeconds),
    });
    const readsPerSecond = round(reads / rec.elapsedSeconds);
    result.notes.push(
      `${writers} writers: ${round(acked.length / rec.elapsedSeconds)} entries/s; ${readers} readers: ${readsPerSecond} reads/s`,
    );
    result.confirmation = await session.confirm(acked, fromHeight);
    result.details = { writers, readers, readsPerSecond, nodeBlockCloses: await closes.stop() };
    return result;
  } finally {
    await closes.stop(); // never leave the poller running when the scenario throws
  }
}
