/**
 * Block sets: what a node needs to rebuild one height when the replicated log no longer holds it
 * (docs/cluster.md §1.9). The set of height h is the log's records from the one after the close of h−1
 * through the one that closed h, byte for byte with their stream sequences — exactly what every node
 * applied for h. A node that applies them through the same rules (federation.ts) builds the same blocks,
 * byte for byte, without a second way of making blocks.
 *
 * Each federated server writes the set of every height it closed to the archive (a JetStream stream beside
 * the log, jetStreamLog.ts `openArchive`), signed with its key; the sets are identical on every server, so
 * one copy per height is kept (JetStream's de-duplication, and a look before writing). Before a node
 * applies a set it checks (`checkBlockSet`): the signer is a federated server of h with its registered key;
 * the sequences follow on from what the node applied; and the set carries directory-block signatures of a
 * majority of the federated servers of h, each verifying with its key over this node's own directory block
 * h−1 — the admin-block signature majority, checked against the authority set the node derived itself.
 * Block h itself is vouched for by the signatures of h+1, which the next set (or the log) brings and the
 * ordinary apply checks: a set whose writes were not the network's would leave this node's block h
 * differing from what the majority signs, which it reports as a fork.
 *
 * Encoding, per part (a set is cut into parts below NATS's 1 MiB payload): version u8 ‖ height u32 ‖
 * index u16 ‖ count u16 ‖ (part 0 only: signer 32 ‖ signature 64) ‖ a slice of the body. The body is
 * every record as seq u64 ‖ length u32 ‖ bytes. The signature is ed25519 over DOMAIN ‖ networkId u32 ‖
 * height u32 ‖ sha256(body).
 */
import { signEd25519, verifyEd25519 } from "../crypto/ed25519.js";
import { ByteReader, ByteWriter, bytesEqual, concat, toHex } from "../protocol/bytes.js";
import type { DirectoryBlock } from "../protocol/dblock.js";
import { ProtocolError } from "../protocol/errors.js";
import { sha256 } from "../protocol/hash.js";
import type { Authority } from "./authorities.js";
import { majority, verifyDirectoryBlockSignature } from "./dbSig.js";
import { decodeRecord } from "./records.js";

const VERSION = 1;
const DOMAIN = new TextEncoder().encode("ledgerd-block-set/1");
/** Body bytes per part: below the log's record limit and NATS's default 1 MiB payload. */
export const SET_PART_BYTES = 480 * 1024;

/** One log record as a set holds it. */
export interface SetRecord {
  seq: number;
  data: Uint8Array;
}

export interface BlockSet {
  height: number;
  records: SetRecord[];
  signer: Uint8Array;
  signature: Uint8Array;
}

function encodeBody(records: readonly SetRecord[]): Uint8Array {
  const w = new ByteWriter(records.reduce((n, r) => n + 12 + r.data.length, 16));
  for (const r of records) w.u64(r.seq).u32(r.data.length).bytes(r.data);
  return w.finish();
}

function signedBytes(networkId: number, height: number, body: Uint8Array): Uint8Array {
  return concat(DOMAIN, new ByteWriter(8).u32(networkId).u32(height).finish(), sha256(body));
}

/** The parts of height `height`'s set, signed by `signer` with `seed`. */
export function encodeBlockSet(
  networkId: number,
  height: number,
  records: readonly SetRecord[],
  signer: Uint8Array,
  seed: Uint8Array,
): Uint8Array[] {
  const body = encodeBody(records);
  const signature = signEd25519(seed, signedBytes(networkId, height, body));
  const count = Math.max(1, Math.ceil(body.length / SET_PART_BYTES));
  if (count > 0xffff)
    throw new ProtocolError("TOO_LARGE", "blockSet", `${body.length} bytes need more than 65,535 parts`);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const w = new ByteWriter(SET_PART_BYTES + 128).u8(VERSION).u32(height).u16(i).u16(count);
    if (i === 0) w.bytes(signer).bytes(signature);
    w.bytes(body.subarray(i * SET_PART_BYTES, (i + 1) * SET_PART_BYTES));
    parts.push(w.finish());
  }
  return parts;
}

/** Height, index and count of one part (to know how many more to fetch). Throws ProtocolError. */
export function blockSetPartHeader(part: Uint8Array): { height: number; index: number; count: number } {
  const r = new ByteReader(part, "blockSet");
  const version = r.u8("version");
  if (version !== VERSION) throw new ProtocolError("BAD_VALUE", "blockSet.version", `unknown version ${version}`);
  return { height: r.u32("height"), index: r.u16("index"), count: r.u16("count") };
}

/** The set from all its parts, in order. Throws ProtocolError when they do not make one set. */
export function decodeBlockSet(parts: readonly Uint8Array[]): BlockSet {
  let height = -1;
  let signer: Uint8Array = new Uint8Array(0);
  let signature: Uint8Array = new Uint8Array(0);
  const slices: Uint8Array[] = [];
  parts.forEach((part, i) => {
    const r = new ByteReader(part, "blockSet");
    const h = blockSetPartHeader(part);
    r.offset = 9;
    if (h.index !== i || h.count !== parts.length || (i > 0 && h.height !== height))
      throw new ProtocolError("BAD_VALUE", "blockSet.part", `part ${h.index}/${h.count} of ${h.height} out of place`);
    height = h.height;
    if (i === 0) {
      signer = r.bytesN(32, "signer");
      signature = r.bytesN(64, "signature");
    }
    slices.push(r.bytesN(r.remaining, "body"));
  });
  if (height < 0) throw new ProtocolError("BAD_VALUE", "blockSet", "no parts");
  const body = new ByteReader(concat(...slices), "blockSet.body");
  const records: SetRecord[] = [];
  while (body.remaining > 0) {
    const seq = Number(body.u64("seq"));
    records.push({ seq, data: body.bytesN(body.u32("length"), "record") });
  }
  return { height, records, signer, signature };
}

/**
 * Why this node must not apply `set` as the next height, or undefined when it may: `nextSeq` is the
 * sequence it applies next, `federated` the federated servers of the set's height (with their keys),
 * `previous` this node's own directory block h−1.
 */
export function checkBlockSet(
  set: BlockSet,
  expect: {
    networkId: number;
    height: number;
    nextSeq: number;
    federated: readonly Authority[];
    previous: DirectoryBlock;
  },
): string | undefined {
  if (set.height !== expect.height) return `the set is of height ${set.height}, not ${expect.height}`;
  const first = set.records[0];
  if (first === undefined) return "the set holds no record";
  if (first.seq !== expect.nextSeq) return `the set starts at sequence ${first.seq}, not ${expect.nextSeq}`;
  for (let i = 1; i < set.records.length; i++)
    if (set.records[i]!.seq !== set.records[i - 1]!.seq + 1) return `sequences jump at ${set.records[i]!.seq}`;
  const signer = expect.federated.find((a) => bytesEqual(a.identity, set.signer));
  if (signer?.publicKey === undefined) return `the signer ${toHex(set.signer)} is not a federated server of the height`;
  if (
    !verifyEd25519(signer.publicKey, signedBytes(expect.networkId, set.height, encodeBody(set.records)), set.signature)
  )
    return "the set's signature does not verify";
  const signed = new Set<string>();
  for (const r of set.records) {
    let rec: ReturnType<typeof decodeRecord>;
    try {
      rec = decodeRecord(r.data);
    } catch {
      continue;
    }
    if (rec.kind !== "dbSig" || rec.height !== set.height) continue;
    const fed = expect.federated.find((a) => bytesEqual(a.identity, rec.identity));
    if (fed?.publicKey === undefined || !bytesEqual(fed.publicKey, rec.publicKey)) continue;
    if (verifyDirectoryBlockSignature(rec.publicKey, expect.previous, rec.signature)) signed.add(toHex(rec.identity));
  }
  const needed = majority(expect.federated.length);
  if (signed.size < needed)
    return `${signed.size} federated servers signed this node's block ${set.height - 1} in the set, ${needed} needed`;
  return undefined;
}
