/**
 * Certified snapshots (docs/cluster.md §1.13): every `interval` blocks each federated server reads the state of
 * the height it just saved (ledger/snapshotState.ts, with the authority set added), hashes it and appends a
 * signed `snapshotSignature` record; the first server that sees a majority of the federated servers sign the
 * hash it computed itself (snapshotCertification.ts) stores the snapshot with its certificate in the snapshot
 * archive (a JetStream stream beside the log, read by direct gets like the block-set archive). A node with an
 * empty data directory (a new node, or a forked node resyncing) starts from the newest certified snapshot it
 * can verify — counted against the authority set it derives itself from the header chain from genesis
 * (snapshotChain.ts; the servers write its segments beside the snapshots, snapshotHeaders.ts), never the set the
 * snapshot carries — and follows the log (or the block sets) from the record after it.
 *
 * Archive layout, per part (below NATS's 1 MiB payload): version u8 ‖ height u32 ‖ index u16 ‖ count u16 (the
 * block-set part header, so the same archive code reads it) ‖ part 0 only: the certificate — hash 32 ‖ keyMR 32
 * ‖ u16 n ‖ n × (u32 length ‖ snapshotSignature record) ‖ then a slice of the snapshot's bytes.
 */

import {
  checkSnapshotBlocks,
  decodeSnapshotState,
  encodeSnapshotState,
  readSnapshotStateInTurns,
  type SnapshotState,
  type SnapshotTurnsSource,
  snapshotDirectoryKeyMR,
  snapshotHash,
} from "../ledger/snapshotState.js";
import { ByteReader, ByteWriter, bytesEqual, toHex } from "../protocol/bytes.js";
import { ProtocolError } from "../protocol/errors.js";
import { type Authority, AuthoritySet, type AuthoritySnapshot } from "./authorities.js";
import type { ClusterRole, FederationLogger, OrderedLog } from "./federationTypes.js";
import type { BlockSetArchive } from "./jetStreamLog.js";
import { decodeRecord, encodeRecord, recordSubject, signRecord } from "./records.js";
import {
  certificationShortfall,
  certify,
  type SnapshotCertificate,
  type SnapshotSignature,
} from "./snapshotCertification.js";
import { type ChainCheckpoint, HeaderChainBroken, type HeaderChainOptions } from "./snapshotChain.js";
import { HeaderChainReader, storeHeaderSegments } from "./snapshotHeaders.js";

const PART_VERSION = 1;
/** Snapshot bytes per part: below NATS's default 1 MiB payload, like block sets. */
const SNAPSHOT_PART_BYTES = 480 * 1024;
/** Certified snapshots a starting node tries, newest first, before it falls back to replaying from genesis. */
export const SNAPSHOT_TRIES = 4;
/** Snapshots a federated server keeps in memory while their signatures come in (the newest only matter). */
const KEPT_PENDING = 2;

/** The snapshot archive: parts by height, as blockSets' archive keeps them (jetStreamLog.ts `openArchive`). */
export type SnapshotArchive = BlockSetArchive;

/** The snapshot archive's two key spaces: the snapshots, and the header segments (snapshotHeaders.ts). */
export interface SnapshotArchives {
  snapshots: SnapshotArchive;
  headers: BlockSetArchive;
}

/** The authority set as a snapshot's `extra` bytes: canonical JSON (roles and keys sorted by identity). */
export function encodeAuthorityExtra(set: AuthoritySet): Uint8Array {
  const s = set.snapshot();
  const canonical: AuthoritySnapshot = {
    role: [...s.role].sort((a, b) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0)),
    keys: [...s.keys].sort((a, b) => (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0)),
    pending: s.pending,
    pendingKeys: s.pendingKeys,
    appliedUpTo: s.appliedUpTo,
  };
  return new TextEncoder().encode(JSON.stringify({ format: 1, authorities: canonical }));
}

/** The authority set of a snapshot's `extra`. Throws ProtocolError when it is not one. */
export function decodeAuthorityExtra(
  extra: Uint8Array,
  bootstrap: { identity: Uint8Array; publicKey: Uint8Array },
): AuthoritySet {
  try {
    const j = JSON.parse(new TextDecoder().decode(extra)) as { format?: unknown; authorities?: AuthoritySnapshot };
    if (j.format !== 1 || j.authorities === undefined)
      throw new ProtocolError("BAD_VERSION", "snapshot.authorities", `format ${String(j.format)}`);
    return AuthoritySet.restore(bootstrap, j.authorities);
  } catch (e) {
    if (e instanceof ProtocolError) throw e;
    throw new ProtocolError("BAD_VALUE", "snapshot.authorities", e instanceof Error ? e.message : String(e));
  }
}

/** The archive parts of a certified snapshot. */
export function encodeSnapshotParts(cert: SnapshotCertificate, bytes: Uint8Array): Uint8Array[] {
  const head = new ByteWriter(4096).bytes(cert.hash).bytes(cert.keyMR).u16(cert.signatures.length);
  for (const s of cert.signatures) {
    const rec = encodeRecord(s);
    head.u32(rec.length).bytes(rec);
  }
  const certBytes = head.finish();
  const count = Math.max(1, Math.ceil(bytes.length / SNAPSHOT_PART_BYTES));
  if (count > 0xffff)
    throw new ProtocolError("TOO_LARGE", "snapshot", `${bytes.length} bytes need more than 65,535 parts`);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const w = new ByteWriter(SNAPSHOT_PART_BYTES + certBytes.length + 16)
      .u8(PART_VERSION)
      .u32(cert.height)
      .u16(i)
      .u16(count);
    if (i === 0) w.bytes(certBytes);
    w.bytes(bytes.subarray(i * SNAPSHOT_PART_BYTES, (i + 1) * SNAPSHOT_PART_BYTES));
    parts.push(w.finish());
  }
  return parts;
}

/** The certificate claimed and the snapshot bytes of archive parts. Throws ProtocolError on malformed parts. */
export function decodeSnapshotParts(parts: readonly Uint8Array[]): {
  height: number;
  hash: Uint8Array;
  keyMR: Uint8Array;
  signatures: SnapshotSignature[];
  bytes: Uint8Array;
} {
  let height = -1;
  let hash = new Uint8Array();
  let keyMR = new Uint8Array();
  const signatures: SnapshotSignature[] = [];
  const slices: Uint8Array[] = [];
  parts.forEach((part, i) => {
    const r = new ByteReader(part, `snapshotPart[${i}]`);
    if (r.u8("version") !== PART_VERSION) throw new ProtocolError("BAD_VALUE", "snapshotPart.version", "unknown");
    const h = r.u32("height");
    if (r.u16("index") !== i || r.u16("count") !== parts.length)
      throw new ProtocolError("BAD_VALUE", "snapshotPart.index", `part ${i} out of place`);
    if (i === 0) {
      height = h;
      hash = r.bytesN(32, "hash").slice();
      keyMR = r.bytesN(32, "keyMR").slice();
      const n = r.u16("signatures");
      for (let k = 0; k < n; k++) {
        const rec = decodeRecord(r.bytesN(r.u32(`signatures[${k}].length`), `signatures[${k}]`));
        if (rec.kind !== "snapshotSignature")
          throw new ProtocolError("BAD_VALUE", `snapshotPart.signatures[${k}]`, `a ${rec.kind} record`);
        signatures.push(rec);
      }
    } else if (h !== height) throw new ProtocolError("BAD_VALUE", "snapshotPart.height", `${h} in a set of ${height}`);
    slices.push(r.bytesN(r.remaining, "bytes"));
  });
  const total = slices.reduce((n, s) => n + s.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const s of slices) {
    bytes.set(s, at);
    at += s.length;
  }
  return { height, hash, keyMR, signatures, bytes };
}

/**
 * Check fetched archive parts end to end and return the snapshot: its bytes hash to the certified hash; the
 * certificate's signatures certify (hash, keyMR) under the authority set **the header chain from genesis** gives
 * at its height (federated servers of height + 1, snapshotChain.ts), not the set the snapshot carries; the
 * certified keyMR is the chain's directory block of that height; the set the snapshot carries is the chain's,
 * byte for byte; its blocks make the directory block the certificate names. Throws SnapshotRefused with the
 * first problem found.
 */
export function verifySnapshotParts(
  parts: readonly Uint8Array[],
  expect: { networkId: number; height: number; bootstrap: { identity: Uint8Array; publicKey: Uint8Array } },
  chain: ChainCheckpoint | HeaderChainBroken,
): { state: SnapshotState; certificate: SnapshotCertificate; authorities: AuthoritySet } {
  const got = decodeSnapshotParts(parts);
  if (got.height !== expect.height)
    throw new SnapshotRefused(expect.height, `the archive's parts are of height ${got.height}`);
  if (!bytesEqual(snapshotHash(got.bytes), got.hash))
    throw new SnapshotRefused(
      expect.height,
      `its bytes hash to ${toHex(snapshotHash(got.bytes))}, not the certified ${toHex(got.hash)}`,
    );
  const state = decodeSnapshotState(got.bytes);
  if (state.networkId !== expect.networkId || state.height !== expect.height)
    throw new SnapshotRefused(expect.height, `it is of network ${state.networkId} height ${state.height}`);
  if (chain instanceof HeaderChainBroken)
    throw new SnapshotRefused(
      expect.height,
      `the header chain from genesis does not reach it: at height ${chain.height}, ${chain.reason}`,
    );
  const federated = chain.authorities.projected(expect.height + 1).federated;
  const ctx = { networkId: expect.networkId, height: expect.height, federated };
  const certificate = certify(got.signatures, ctx);
  if (certificate === undefined)
    throw new SnapshotRefused(
      expect.height,
      `${certificationShortfall(got.signatures, ctx)} (the servers the header chain from genesis names)`,
    );
  if (!bytesEqual(certificate.hash, got.hash) || !bytesEqual(certificate.keyMR, got.keyMR))
    throw new SnapshotRefused(expect.height, "the certificate's majority signed another hash than the one stored");
  if (!bytesEqual(certificate.keyMR, chain.keyMR))
    throw new SnapshotRefused(
      expect.height,
      `the certificate names directory block ${toHex(certificate.keyMR)}, the header chain's block ${expect.height} is ${toHex(chain.keyMR)}`,
    );
  if (!bytesEqual(state.extra, encodeAuthorityExtra(chain.authorities)))
    throw new SnapshotRefused(
      expect.height,
      "it carries another authority set than the header chain from genesis gives",
    );
  const wrong = checkSnapshotBlocks(state, certificate.keyMR);
  if (wrong !== undefined) throw new SnapshotRefused(expect.height, wrong);
  return { state, certificate, authorities: decodeAuthorityExtra(state.extra, expect.bootstrap) };
}

/** A snapshot that does not check out (named by its height, with the reason). */
export class SnapshotRefused extends ProtocolError {
  constructor(
    readonly height: number,
    readonly reason: string,
  ) {
    super("BAD_VALUE", `snapshot ${height}`, `refused: ${reason}`);
  }
}

/**
 * A federated server's part: make, sign and (once certified) store the snapshots of every `interval`-th
 * height. Called by federation.ts after each saved block and for each snapshotSignature record applied.
 */
export class SnapshotMaker {
  /** the snapshots this server computed, by height, until they are certified or dropped */
  private readonly pending = new Map<number, { bytes: Uint8Array; hash: Uint8Array; keyMR: Uint8Array }>();
  /** the signatures applied from the log, by snapshot height, with the federated servers that count them */
  private readonly signatures = new Map<number, { list: SnapshotSignature[]; federated: readonly Authority[] }>();
  /** the header segments being written (one round at a time, in height order) */
  private segments: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: { interval: number; networkId: number; identity: Uint8Array },
    private readonly deps: {
      store: SnapshotTurnsSource;
      archive: SnapshotArchive;
      /** the header segments a starting node checks from genesis (snapshotHeaders.ts) */
      headers: BlockSetArchive;
      append(rec: SnapshotSignature): Promise<void>;
      logger: FederationLogger;
    },
  ) {}

  /**
   * Height `height` was saved (and the set folded through it): snapshot it when it is due, and sign. The state is
   * read in turns (ledger/snapshotState.ts `readSnapshotStateInTurns`: the apply of the next block goes on
   * meanwhile), through a read transaction opened now, on the saved height.
   */
  saved(height: number, authorities: AuthoritySet, seed: Uint8Array | undefined): void {
    if (this.options.interval <= 0 || height === 0 || height % this.options.interval !== 0) return;
    this.storeSegments(height);
    if (seed === undefined) return;
    // (the set as folded now: it changes as the next blocks are applied)
    const extra = encodeAuthorityExtra(authorities);
    void this.make(height, extra, seed).catch((e: unknown) =>
      this.deps.logger.warn("snapshot not made", { height, error: e instanceof Error ? e.message : String(e) }),
    );
  }

  private async make(height: number, extra: Uint8Array, seed: Uint8Array): Promise<void> {
    const t0 = performance.now();
    const state = await readSnapshotStateInTurns(this.deps.store, this.options.networkId, extra);
    if (state.height !== height) return; // (the store moved on: nothing to sign for this height)
    const bytes = encodeSnapshotState(state);
    const hash = snapshotHash(bytes);
    const keyMR = snapshotDirectoryKeyMR(state);
    this.pending.set(height, { bytes, hash, keyMR });
    for (const h of [...this.pending.keys()].sort((a, b) => a - b).slice(0, -KEPT_PENDING)) this.pending.delete(h);
    const rec = signRecord(
      {
        kind: "snapshotSignature",
        height,
        hash,
        keyMR,
        signer: this.options.identity,
        signature: new Uint8Array(64),
      },
      this.options.networkId,
      seed,
    );
    this.deps.logger.debug("snapshot made", {
      height,
      bytes: bytes.length,
      hash: toHex(hash),
      ms: Math.round(performance.now() - t0),
    });
    void this.deps.append(rec).catch((e: unknown) =>
      this.deps.logger.warn("snapshot signature not appended", {
        height,
        error: e instanceof Error ? e.message : String(e),
      }),
    );
    // the others' signatures that came in while this server read its state
    this.tryCertify(height);
  }

  /** Write the header segment of `height` (and older ones the archive lacks), after the previous round's. */
  private storeSegments(height: number): void {
    const { interval } = this.options;
    this.segments = this.segments
      .then(async () => {
        const written = await storeHeaderSegments(this.deps.store, this.deps.headers, height, interval);
        if (written.length > 0) this.deps.logger.debug("header segments stored", { heights: written.join(",") });
      })
      .catch((e: unknown) =>
        this.deps.logger.warn("header segment not stored", {
          height,
          error: e instanceof Error ? e.message : String(e),
        }),
      );
  }

  /** A snapshotSignature applied from the log (with the federated servers that count it): store once certified. */
  signed(rec: SnapshotSignature, federated: readonly Authority[]): void {
    const got = this.signatures.get(rec.height) ?? { list: [], federated };
    got.list.push(rec);
    got.federated = federated;
    this.signatures.set(rec.height, got);
    for (const h of [...this.signatures.keys()].sort((a, b) => a - b).slice(0, -KEPT_PENDING))
      this.signatures.delete(h);
    this.tryCertify(rec.height);
  }

  /** Store this server's snapshot of `height` once the signatures applied so far certify it. */
  private tryCertify(height: number): void {
    const mine = this.pending.get(height);
    const got = this.signatures.get(height);
    if (mine === undefined || got === undefined) return;
    const cert = certify(got.list, { networkId: this.options.networkId, height, federated: got.federated });
    if (cert === undefined) return;
    this.pending.delete(height);
    if (!bytesEqual(cert.hash, mine.hash) || !bytesEqual(cert.keyMR, mine.keyMR)) {
      this.deps.logger.error("the certified snapshot differs from this server's: its state is not the majority's", {
        height,
        certified: toHex(cert.hash),
        mine: toHex(mine.hash),
      });
      return;
    }
    void this.store(cert, mine.bytes);
  }

  /** Store a certified snapshot unless the archive holds it already (the first certifier writes it). */
  private async store(cert: SnapshotCertificate, bytes: Uint8Array): Promise<void> {
    try {
      if (await this.deps.archive.has(cert.height)) return;
      await this.deps.archive.put(cert.height, encodeSnapshotParts(cert, bytes));
      this.deps.logger.info("certified snapshot stored", {
        height: cert.height,
        bytes: bytes.length,
        signers: cert.signatures.length,
      });
    } catch (e) {
      this.deps.logger.warn("certified snapshot not stored", {
        height: cert.height,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
}

/**
 * The SnapshotMaker of a federated server (undefined for other roles, without an archive, or with interval 0):
 * its signatures are appended to the log under the message id `snap/<height>/<signer>`.
 */
export function snapshotMakerFor(
  options: { role: ClusterRole; identity?: Uint8Array; networkId: number; interval: number },
  deps: {
    store: SnapshotTurnsSource;
    archive: SnapshotArchives | undefined;
    log: Pick<OrderedLog, "append">;
    logger: FederationLogger;
  },
): SnapshotMaker | undefined {
  const { identity } = options;
  if (options.role !== "federated" || identity === undefined || deps.archive === undefined || options.interval <= 0)
    return undefined;
  return new SnapshotMaker(
    { interval: options.interval, networkId: options.networkId, identity },
    {
      store: deps.store,
      archive: deps.archive.snapshots,
      headers: deps.archive.headers,
      append: async (rec) => {
        const signer = toHex(rec.signer).slice(0, 16);
        await deps.log.append(recordSubject(rec.kind), encodeRecord(rec), `snap/${rec.height}/${signer}`);
      },
      logger: deps.logger,
    },
  );
}

/** Heights a starting node looks at below the network's, newest first, for SNAPSHOT_TRIES present snapshots. */
export const SNAPSHOT_LOOKS = 64;

/** The heights a starting node looks at, newest first: multiples of `interval` at or below `networkHeight`. */
export function candidateHeights(networkHeight: number, interval: number, looks = SNAPSHOT_LOOKS): number[] {
  if (interval <= 0) return [];
  const out: number[] = [];
  for (let h = Math.floor(networkHeight / interval) * interval; h > 0 && out.length < looks; h -= interval) out.push(h);
  return out;
}

/**
 * The newest certified snapshot the archive holds that checks out — against the header chain from genesis
 * (snapshotChain.ts), read from the archive's header segments once — trying older ones when one is refused (each
 * refusal logged with its reason). Heights the archive holds no snapshot of are passed over; at most
 * SNAPSHOT_TRIES snapshots are tried. Undefined when none checks out (the node then replays from genesis).
 */
export async function fetchCertifiedSnapshot(
  archives: SnapshotArchives,
  heights: readonly number[],
  expect: { networkId: number; bootstrap: { identity: Uint8Array; publicKey: Uint8Array } },
  chain: Omit<HeaderChainOptions, "networkId" | "bootstrap">,
  logger: FederationLogger,
): Promise<ReturnType<typeof verifySnapshotParts> | undefined> {
  const reader = new HeaderChainReader({ ...chain, ...expect }, archives.headers);
  let tried = 0;
  const t0 = performance.now();
  for (const height of heights) {
    if (tried >= SNAPSHOT_TRIES) break;
    const parts = await archives.snapshots.get(height);
    if (parts === undefined) continue;
    tried++;
    const checkpoint = await reader.upTo(height);
    try {
      const got = verifySnapshotParts(parts, { ...expect, height }, checkpoint);
      logger.info("header chain checked from genesis", {
        height,
        heights: reader.checked,
        ms: Math.round(performance.now() - t0),
      });
      return got;
    } catch (e) {
      logger.error("certified snapshot refused; trying an older one", {
        height,
        reason: e instanceof SnapshotRefused ? e.reason : e instanceof Error ? e.message : String(e),
      });
    }
  }
  return undefined;
}
