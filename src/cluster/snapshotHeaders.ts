/**
 * The header segments in the snapshot archive (docs/cluster.md §1.13 "Trust"; the rules: snapshotChain.ts):
 * federated servers write them from their stores, a starting node reads them from genesis up and checks every
 * link before it takes a snapshot.
 *
 * Written at every snapshot height H, whether or not the snapshot of H is ever certified (a later snapshot needs
 * the chain through H all the same), before the snapshot itself is signed; a server also writes the older
 * segments the archive lacks (a network that turned snapshots on late, a segment a crash lost), newest first,
 * as far back as its store holds blocks. One copy per height: a look before writing, and every server writes
 * the same bytes (the blocks are byte-identical on every node).
 */
import { readHeaderBlocks, type SnapshotSource } from "../ledger/snapshotState.js";
import type { BlockSetArchive } from "./jetStreamLog.js";
import {
  type ChainCheckpoint,
  decodeHeaderSegment,
  encodeHeaderSegment,
  HeaderChain,
  HeaderChainBroken,
  type HeaderChainOptions,
  type HeaderLink,
  headerLink,
  segmentRange,
} from "./snapshotChain.js";

/**
 * Store the header segment of snapshot height `height` and the older ones the archive lacks (stopping at the first
 * one it holds, or where the store holds no blocks). Returns the heights written, newest first.
 */
export async function storeHeaderSegments(
  store: Pick<SnapshotSource, "blockHashAt" | "block">,
  headers: BlockSetArchive,
  height: number,
  interval: number,
): Promise<number[]> {
  const written: number[] = [];
  for (let s = height; s > 0; s -= interval) {
    if (await headers.has(s)) break;
    const { from, to } = segmentRange(s, interval);
    const links: HeaderLink[] = [];
    for (let h = from; h <= to; h++) {
      const blocks = readHeaderBlocks(store, h);
      if (blocks === undefined) return written;
      links.push(headerLink(blocks.directory, blocks.admin));
    }
    await headers.put(s, encodeHeaderSegment(s, from, links));
    written.push(s);
  }
  return written;
}

/**
 * A starting node's header chain, read from the archive segment by segment as far as it is asked (the newest
 * snapshot tried first walks it once; older ones use the checkpoints it kept on the way).
 */
export class HeaderChainReader {
  private readonly chain: HeaderChain;

  constructor(
    private readonly options: HeaderChainOptions,
    private readonly headers: BlockSetArchive,
  ) {
    this.chain = new HeaderChain(options);
  }

  /** Heights checked so far (0…checked−1). */
  get checked(): number {
    return this.chain.next;
  }

  /** The chain's checkpoint at snapshot height `height`, or why the chain from genesis does not reach it. */
  async upTo(height: number): Promise<ChainCheckpoint | HeaderChainBroken> {
    const interval = this.options.interval;
    while (this.chain.next <= height && this.chain.broken === undefined) {
      const next = this.chain.next;
      const s = Math.max(1, Math.ceil(next / interval)) * interval;
      const parts = await this.headers.get(s);
      if (parts === undefined) {
        this.chain.stop(`no header segment ${s} in the snapshot archive`);
        break;
      }
      let segment: ReturnType<typeof decodeHeaderSegment>;
      try {
        segment = decodeHeaderSegment(parts, s);
      } catch (e) {
        this.chain.stop(`header segment ${s} does not decode: ${e instanceof Error ? e.message : String(e)}`);
        break;
      }
      const range = segmentRange(s, interval);
      if (segment.from !== next || segment.links.length !== range.to - range.from + 1) {
        this.chain.stop(
          `header segment ${s} holds heights ${segment.from}…${segment.from + segment.links.length - 1}, not ${range.from}…${range.to}`,
        );
        break;
      }
      try {
        for (const link of segment.links) this.chain.add(link);
      } catch (e) {
        if (!(e instanceof HeaderChainBroken)) throw e;
      }
    }
    return this.chain.checkpoint(height) ?? this.chain.broken ?? this.chain.stop(`no checkpoint at ${height}`);
  }
}
