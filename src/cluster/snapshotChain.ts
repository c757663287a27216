/**
 * The header chain a node checks from genesis before it takes a certified snapshot (docs/cluster.md §1.13
 * "Trust"): the snapshot carries the authority set its certificate is counted against, so on its own a snapshot
 * signed by a made-up set is self-consistent. The node derives the set itself instead, from what it can check
 * back to the genesis it already trusts: for every height h from 0 to the snapshot's height H, the 113-byte
 * directory-block header, the admin block of h and the Merkle branch that ties that admin block to the header's
 * BodyMR (it is the body's first entry). `HeaderChain.add` checks each link:
 *
 * - the header is of this network and of height h, and links to the previous header's keyMR (height 0: its
 *   keyMR is the node's own genesis);
 * - the admin block is of height h and is the first entry of the header's body (the branch, of the depth the
 *   header's entry count gives, leads from sha256(admin chain ID ‖ sha256(admin block)) to BodyMR);
 * - for h ≥ 1, the admin block carries directory-block signatures over header h−1 by a majority of the federated
 *   servers in force at h with their keys (dbSig.ts `checkBlockSignatures`);
 * - then the admin block is folded into the authority set (authorities.ts `applyAdminBlock`, then `at(h+1)`):
 *   the same pure rules, in the same order, as a node applying the blocks from genesis (heightMachine.ts
 *   `endMinute` then `open`; history/checker.ts), so rotations and authority changes come out the same.
 *
 * At every multiple of the snapshot interval the chain keeps a checkpoint: header H's keyMR and a copy of the set
 * as a node that saved H holds it (folded through admin block H, opened at H+1). A snapshot of H is then taken only
 * when its certificate is a majority of *that* set's federated servers of H+1, signing that keyMR, and the set
 * the snapshot carries is that set byte for byte (snapshots.ts `verifySnapshotParts`). Header H itself is vouched
 * for by the certificate: the same servers whose signatures admin block H+1 will carry signed its keyMR.
 *
 * Where the links come from: federated servers write one **header segment** per snapshot height H to the snapshot
 * archive (heights H−interval+1…H; the first also height 0), read from their stores (snapshotHeaders.ts). Nothing
 * in a segment is trusted: a segment that does not link is the end of what the node can check.
 *
 * Segment body: from u32 ‖ count u32 ‖ per height: header 113 ‖ k u8 ‖ k × 32 (the branch's right-hand hashes,
 * bottom up) ‖ admin length u32 ‖ admin block. Archive parts: the block-set part header (version u8 ‖ H u32 ‖
 * index u16 ‖ count u16) ‖ a slice of the body (below NATS's 1 MiB payload).
 */

import { type AdminBlock, decodeAdminBlock } from "../protocol/ablock.js";
import { ByteReader, ByteWriter, bytesEqual, concat, toHex } from "../protocol/bytes.js";
import { ADMIN_CHAIN_ID } from "../protocol/chains.js";
import { DIRECTORY_BLOCK_HEADER_SIZE, decodeDirectoryBlock } from "../protocol/dblock.js";
import { ProtocolError } from "../protocol/errors.js";
import { sha256 } from "../protocol/hash.js";
import { merkleBranch, merkleParent } from "../protocol/merkle.js";
import { type Authority, AuthoritySet } from "./authorities.js";
import { checkBlockSignatures } from "./dbSig.js";

const PART_VERSION = 1;
/** Segment bytes per archive part: below NATS's default 1 MiB payload, like block sets and snapshots. */
const SEGMENT_PART_BYTES = 480 * 1024;
/** Right-hand hashes a branch may hold: a body of at most 2^32 entries (the header's u32 count). */
const MAX_BRANCH = 32;

/** One height of the header chain: what ties its admin block to a signed directory block. */
export interface HeaderLink {
  /** the 113-byte directory-block header */
  header: Uint8Array;
  /** the Merkle branch's right-hand hashes from the admin block's leaf (the body's first) to BodyMR */
  branch: Uint8Array[];
  /** the admin block's bytes, as the directory block names them */
  admin: Uint8Array;
}

/** The heights the segment stored at snapshot height `height` covers: (height − interval, height], and 0 in the first. */
export function segmentRange(height: number, interval: number): { from: number; to: number } {
  return { from: height <= interval ? 0 : height - interval + 1, to: height };
}

/** The link of one stored height: its raw directory block and admin block (a federated server's store). */
export function headerLink(directoryRaw: Uint8Array, adminRaw: Uint8Array): HeaderLink {
  const block = decodeDirectoryBlock(directoryRaw);
  const leaves = block.entries.map((e) => sha256(concat(e.chainId, e.keyMR)));
  return {
    header: directoryRaw.slice(0, DIRECTORY_BLOCK_HEADER_SIZE),
    branch: merkleBranch(leaves, 0).map((n) => n.right),
    admin: adminRaw.slice(),
  };
}

/** The archive parts of the segment of heights `from`… stored under snapshot height `height`. */
export function encodeHeaderSegment(height: number, from: number, links: readonly HeaderLink[]): Uint8Array[] {
  const size = links.reduce((n, l) => n + DIRECTORY_BLOCK_HEADER_SIZE + 5 + 32 * l.branch.length + l.admin.length, 8);
  const w = new ByteWriter(size).u32(from).u32(links.length);
  for (const l of links) {
    w.bytes(l.header).u8(l.branch.length);
    for (const b of l.branch) w.bytes(b);
    w.u32(l.admin.length).bytes(l.admin);
  }
  const body = w.finish();
  const count = Math.max(1, Math.ceil(body.length / SEGMENT_PART_BYTES));
  if (count > 0xffff)
    throw new ProtocolError("TOO_LARGE", "headerSegment", `${body.length} bytes need more than 65,535 parts`);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < count; i++)
    parts.push(
      new ByteWriter(SEGMENT_PART_BYTES + 16)
        .u8(PART_VERSION)
        .u32(height)
        .u16(i)
        .u16(count)
        .bytes(body.subarray(i * SEGMENT_PART_BYTES, (i + 1) * SEGMENT_PART_BYTES))
        .finish(),
    );
  return parts;
}

/** The links of a segment's archive parts. Throws ProtocolError when they do not make one segment of `height`. */
export function decodeHeaderSegment(
  parts: readonly Uint8Array[],
  height: number,
): { from: number; links: HeaderLink[] } {
  const slices: Uint8Array[] = [];
  parts.forEach((part, i) => {
    const r = new ByteReader(part, `headerSegment[${i}]`);
    if (r.u8("version") !== PART_VERSION) throw new ProtocolError("BAD_VALUE", "headerSegment.version", "unknown");
    const h = r.u32("height");
    if (h !== height || r.u16("index") !== i || r.u16("count") !== parts.length)
      throw new ProtocolError("BAD_VALUE", "headerSegment.part", `part ${i} of ${h} out of place`);
    slices.push(r.bytesN(r.remaining, "body"));
  });
  const r = new ByteReader(concat(...slices), "headerSegment");
  const from = r.u32("from");
  const n = r.u32("count");
  const links: HeaderLink[] = [];
  for (let i = 0; i < n; i++) {
    const header = r.bytesN(DIRECTORY_BLOCK_HEADER_SIZE, `links[${i}].header`).slice();
    const k = r.u8(`links[${i}].branch`);
    if (k > MAX_BRANCH) throw new ProtocolError("BAD_VALUE", `headerSegment.links[${i}].branch`, `${k} hashes`);
    const branch: Uint8Array[] = [];
    for (let j = 0; j < k; j++) branch.push(r.bytesN(32, `links[${i}].branch[${j}]`).slice());
    const admin = r.bytesN(r.u32(`links[${i}].adminLength`), `links[${i}].admin`).slice();
    links.push({ header, branch, admin });
  }
  r.end();
  return { from, links };
}

/** The header fields the chain checks (dblock.ts encodeDirectoryBlockHeader's layout). */
function readHeader(header: Uint8Array): {
  networkId: number;
  bodyMR: Uint8Array;
  prevKeyMR: Uint8Array;
  height: number;
  entries: number;
  keyMR: Uint8Array;
} {
  const r = new ByteReader(header, "header");
  r.u8("version");
  const networkId = r.u32("networkId");
  const bodyMR = r.bytesN(32, "bodyMR");
  const prevKeyMR = r.bytesN(32, "prevKeyMR");
  r.bytesN(32, "prevFullHash");
  r.u32("timestamp");
  const height = r.u32("dbHeight");
  const entries = r.u32("blockCount");
  r.end();
  return { networkId, bodyMR, prevKeyMR, height, entries, keyMR: sha256(concat(sha256(header), bodyMR)) };
}

/** Levels of a Merkle tree of `n` leaves (merkle.ts: an odd level pairs its last node with itself). */
export function merkleDepth(n: number): number {
  let depth = 0;
  for (let width = n; width > 1; width = (width + 1) >> 1) depth++;
  return depth;
}

/** The header chain broke at `height`: what the node can check ends below it. */
export class HeaderChainBroken extends ProtocolError {
  constructor(
    readonly height: number,
    readonly reason: string,
  ) {
    super("BAD_VALUE", `headerChain ${height}`, reason);
  }
}

/** What the chain says at a snapshot height H: header H's keyMR and the authority set a node that saved H holds. */
export interface ChainCheckpoint {
  keyMR: Uint8Array;
  authorities: AuthoritySet;
}

export interface HeaderChainOptions {
  networkId: number;
  /** keyMR of the network's genesis directory block (the node's own) */
  genesisKeyMR: Uint8Array;
  /** the network's bootstrap server: the authority set grows from it, as on a genesis replay */
  bootstrap: { identity: Uint8Array; publicKey: Uint8Array };
  /** snapshot interval: a checkpoint is kept at each multiple */
  interval: number;
}

/**
 * The chain of headers and admin blocks from genesis, checked link by link (the rules above) and folded into the
 * authority set. Pure: its only inputs are the links, in height order.
 */
export class HeaderChain {
  private readonly authorities: AuthoritySet;
  private federated: readonly Authority[] = [];
  private previous: { header: Uint8Array; keyMR: Uint8Array } | undefined;
  private readonly checkpoints = new Map<number, ChainCheckpoint>();
  private height = 0;
  /** the first link that did not check out, for good */
  private brokenAt: HeaderChainBroken | undefined;

  constructor(private readonly options: HeaderChainOptions) {
    this.authorities = new AuthoritySet(options.bootstrap);
  }

  /** The height of the next link. */
  get next(): number {
    return this.height;
  }

  /** Why the chain stopped, or undefined while it holds. */
  get broken(): HeaderChainBroken | undefined {
    return this.brokenAt;
  }

  /** The checkpoint at snapshot height `height`, once the chain has reached it. */
  checkpoint(height: number): ChainCheckpoint | undefined {
    return this.checkpoints.get(height);
  }

  /** Mark the chain broken at its next height (a segment missing or malformed: nothing after it can be checked). */
  stop(reason: string): HeaderChainBroken {
    this.brokenAt ??= new HeaderChainBroken(this.height, reason);
    return this.brokenAt;
  }

  /** Check the link of the next height and fold it in. Throws HeaderChainBroken (and stays broken). */
  add(link: HeaderLink): void {
    if (this.brokenAt !== undefined) throw this.brokenAt;
    const h = this.height;
    const fail = (reason: string): HeaderChainBroken => this.stop(reason);
    if (link.header.length !== DIRECTORY_BLOCK_HEADER_SIZE)
      throw fail(`the header is ${link.header.length} bytes, not ${DIRECTORY_BLOCK_HEADER_SIZE}`);
    const header = readHeader(link.header);
    if (header.networkId !== this.options.networkId)
      throw fail(`the header is of network id 0x${header.networkId.toString(16)}`);
    if (header.height !== h) throw fail(`the header says height ${header.height}`);
    if (this.previous === undefined) {
      if (!bytesEqual(header.keyMR, this.options.genesisKeyMR))
        throw fail(
          `its keyMR ${toHex(header.keyMR)} is not this network's genesis ${toHex(this.options.genesisKeyMR)}`,
        );
    } else if (!bytesEqual(header.prevKeyMR, this.previous.keyMR))
      throw fail(
        `its previous keyMR ${toHex(header.prevKeyMR)} is not header ${h - 1}'s ${toHex(this.previous.keyMR)}`,
      );
    let admin: AdminBlock;
    try {
      admin = decodeAdminBlock(link.admin);
    } catch (e) {
      throw fail(`the admin block does not decode: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (admin.dbHeight !== h) throw fail(`the admin block says height ${admin.dbHeight}`);
    const depth = merkleDepth(header.entries);
    if (link.branch.length !== depth)
      throw fail(`the admin block's branch has ${link.branch.length} levels, a body of ${header.entries} has ${depth}`);
    let node = sha256(concat(ADMIN_CHAIN_ID, sha256(link.admin)));
    for (const right of link.branch) node = merkleParent(node, right);
    if (!bytesEqual(node, header.bodyMR)) throw fail("the admin block is not the first entry of the header's body");
    if (this.previous !== undefined) {
      // every federated server counts in the majority, a server with no key in force too (it signs nothing)
      const r = checkBlockSignatures(admin.entries, this.previous.header, this.federated, { untilMajority: true });
      if (!r.ok)
        throw fail(
          `admin block ${h} carries ${r.valid} valid signatures over header ${h - 1} by the ${this.federated.length} federated servers of ${h}, ${r.needed} needed`,
        );
    }
    this.authorities.applyAdminBlock(h, admin.entries);
    this.federated = this.authorities.at(h + 1).federated;
    this.previous = { header: link.header, keyMR: header.keyMR };
    if (h > 0 && h % this.options.interval === 0)
      this.checkpoints.set(h, {
        keyMR: header.keyMR,
        authorities: AuthoritySet.restore(this.options.bootstrap, this.authorities.snapshot()),
      });
    this.height = h + 1;
  }
}
