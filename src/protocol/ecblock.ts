// Entry-credit blocks: wire-format §5.4 (factomd common/entryCreditBlock/ecblockHeader.go, ecblockBody.go, …).
import { ByteReader, ByteWriter, bytesEqual, toHex, U64_MAX } from "./bytes.js";
import { EC_CHAIN_ID } from "./chains.js";
import {
  CHAIN_COMMIT_SIZE,
  type ChainCommit,
  chainCommitView,
  ENTRY_COMMIT_SIZE,
  type EntryCommit,
  entryCommitView,
} from "./commit.js";
import { ProtocolError } from "./errors.js";
import { sha256 } from "./hash.js";

/** One body item of an EC block (its ECID byte in the comment). */
export type ECBlockItem =
  | { type: "serverIndex"; number: number } // ECID 00
  | { type: "minute"; number: number } // ECID 01, 1..10
  | { type: "chainCommit"; commit: ChainCommit } // ECID 02
  | { type: "entryCommit"; commit: EntryCommit } // ECID 03
  | { type: "balanceIncrease"; ecPublicKey: Uint8Array; txId: Uint8Array; index: bigint; numEC: bigint }; // ECID 04

/**
 * An EC block. ObjectCount and BodySize are not stored: they follow from `items` (the decoder checks that the
 * header's values match). `dbHeight` is the directory block height; `headerExpansion` is normally empty.
 */
export interface ECBlock {
  bodyHash: Uint8Array;
  prevHeaderHash: Uint8Array;
  prevFullHash: Uint8Array;
  dbHeight: number;
  headerExpansion: Uint8Array;
  items: ECBlockItem[];
}

/** Item type bytes (ECIDs, factomd common/constants/constants.go). */
export const ECID = {
  serverIndex: 0x00,
  minute: 0x01,
  chainCommit: 0x02,
  entryCommit: 0x03,
  balanceIncrease: 0x04,
} as const;

/** Minute items carry 1..10. */
const MAX_MINUTE = 10;

function checkHash(value: Uint8Array, field: string): void {
  if (value.length !== 32)
    throw new ProtocolError("BAD_LENGTH", `ec block.${field}`, `expected 32 bytes, got ${value.length}`);
}

function checkU8(value: number, field: string, min = 0, max = 0xff): void {
  if (!Number.isInteger(value) || value < min || value > max)
    throw new ProtocolError("BAD_VALUE", `ec block.${field}`, `must be ${min}..${max}, got ${value}`);
}

/** Append item `i` of a block's body (ECID ‖ payload) to `w`; throws ProtocolError on a malformed item. */
export function writeECBlockItem(w: ByteWriter, item: ECBlockItem, i: number): void {
  switch (item.type) {
    case "serverIndex":
      checkU8(item.number, `items[${i}].serverindexnumber`);
      w.u8(ECID.serverIndex).u8(item.number);
      return;
    case "minute":
      checkU8(item.number, `items[${i}].number`, 1, MAX_MINUTE);
      w.u8(ECID.minute).u8(item.number);
      return;
    case "chainCommit":
      if (item.commit.raw.length !== CHAIN_COMMIT_SIZE)
        throw new ProtocolError(
          "BAD_LENGTH",
          `ec block.items[${i}]`,
          `chain commit must be ${CHAIN_COMMIT_SIZE} bytes`,
        );
      w.u8(ECID.chainCommit).bytes(item.commit.raw);
      return;
    case "entryCommit":
      if (item.commit.raw.length !== ENTRY_COMMIT_SIZE)
        throw new ProtocolError(
          "BAD_LENGTH",
          `ec block.items[${i}]`,
          `entry commit must be ${ENTRY_COMMIT_SIZE} bytes`,
        );
      w.u8(ECID.entryCommit).bytes(item.commit.raw);
      return;
    case "balanceIncrease":
      checkHash(item.ecPublicKey, `items[${i}].ecpubkey`);
      checkHash(item.txId, `items[${i}].txid`);
      if (item.index < 0n || item.index > U64_MAX || item.numEC < 0n || item.numEC > U64_MAX)
        throw new ProtocolError("BAD_VALUE", `ec block.items[${i}]`, "index and numec must be u64");
      w.u8(ECID.balanceIncrease).bytes(item.ecPublicKey).bytes(item.txId).varint(item.index).varint(item.numEC);
      return;
  }
}

/** Body bytes: each item as ECID ‖ payload. */
export function encodeECBlockBody(items: readonly ECBlockItem[]): Uint8Array {
  const w = new ByteWriter(64 + 16 * items.length);
  for (let i = 0; i < items.length; i++) writeECBlockItem(w, items[i]!, i);
  return w.finish();
}

function encodeHeader(block: Omit<ECBlock, "items">, objectCount: number, bodySize: number): Uint8Array {
  checkHash(block.bodyHash, "bodyhash");
  checkHash(block.prevHeaderHash, "prevheaderhash");
  checkHash(block.prevFullHash, "prevfullhash");
  if (!Number.isInteger(block.dbHeight) || block.dbHeight < 0 || block.dbHeight > 0xffffffff)
    throw new ProtocolError("BAD_VALUE", "ec block.dbheight", `must be a u32, got ${block.dbHeight}`);
  return new ByteWriter(160 + block.headerExpansion.length)
    .bytes(EC_CHAIN_ID)
    .bytes(block.bodyHash)
    .bytes(block.prevHeaderHash)
    .bytes(block.prevFullHash)
    .u32(block.dbHeight)
    .varint(block.headerExpansion.length)
    .bytes(block.headerExpansion)
    .u64(objectCount)
    .u64(bodySize)
    .finish();
}

/** The header bytes of `block` (its stored bodyHash; ObjectCount and BodySize derived from the items). */
export function encodeECBlockHeader(block: ECBlock): Uint8Array {
  return encodeHeader(block, block.items.length, encodeECBlockBody(block.items).length);
}

/** Build an EC block from its items, computing bodyHash = sha256(body bytes). */
export function buildECBlock(fields: Omit<ECBlock, "bodyHash">): ECBlock {
  return { ...fields, bodyHash: sha256(encodeECBlockBody(fields.items)) };
}

/** Header ‖ body. */
export function encodeECBlock(block: ECBlock): Uint8Array {
  return encodeECBlockWithBody(block, encodeECBlockBody(block.items), block.items.length);
}

/**
 * Header ‖ body, with the body bytes already encoded (`encodeECBlockBody(block.items)`, or built item by item
 * with writeECBlockItem as a block fills) and `objectCount` items in it: a big block's body is not encoded
 * twice, and its items need not be kept as objects (ledger/processList.ts).
 */
export function encodeECBlockWithBody(
  block: Omit<ECBlock, "items">,
  body: Uint8Array,
  objectCount: number,
): Uint8Array {
  const header = encodeHeader(block, objectCount, body.length);
  return new ByteWriter(header.length + body.length).bytes(header).bytes(body).finish();
}

function readItem(r: ByteReader, i: number): ECBlockItem {
  const ecid = r.u8(`items[${i}].ecid`);
  switch (ecid) {
    case ECID.serverIndex:
      return { type: "serverIndex", number: r.u8(`items[${i}].serverindexnumber`) };
    case ECID.minute:
      return { type: "minute", number: readMinute(r, i) };
    // Views of the block's own copy (decodeECBlock), not a copy per commit: an ArrayBuffer per 136-byte
    // commit doubled what a decoded block holds (~900 bytes per commit, ledger/queries.ts keeps up to 16 MiB
    // of raw EC blocks decoded).
    case ECID.chainCommit:
      return { type: "chainCommit", commit: chainCommitView(r.bytesN(CHAIN_COMMIT_SIZE, `items[${i}]`)) };
    case ECID.entryCommit:
      return { type: "entryCommit", commit: entryCommitView(r.bytesN(ENTRY_COMMIT_SIZE, `items[${i}]`)) };
    case ECID.balanceIncrease:
      return {
        type: "balanceIncrease",
        ecPublicKey: r.bytesN(32, `items[${i}].ecpubkey`),
        txId: r.bytesN(32, `items[${i}].txid`),
        index: r.varint(`items[${i}].index`),
        numEC: r.varint(`items[${i}].numec`),
      };
    default:
      throw unknownEcid(ecid, i);
  }
}

/** A minute item's number (1..MAX_MINUTE), item `i`. */
function readMinute(r: ByteReader, i: number): number {
  const number = r.u8(`items[${i}].number`);
  if (number < 1 || number > MAX_MINUTE)
    throw new ProtocolError(
      "BAD_VALUE",
      `ec block.items[${i}].number`,
      `minute must be 1..${MAX_MINUTE}, got ${number}`,
    );
  return number;
}

function unknownEcid(ecid: number, i: number): ProtocolError {
  return new ProtocolError(
    "BAD_VALUE",
    `ec block.items[${i}].ecid`,
    `unknown item type 0x${ecid.toString(16).padStart(2, "0")}`,
  );
}

/** The header's fields, the reader left at the body's first byte; checks the layout, BodySize and ObjectCount. */
function readHeader(r: ByteReader): Omit<ECBlock, "items"> & { objectCount: bigint; bodySize: bigint } {
  const chainId = r.bytesN(32, "chainid");
  if (!bytesEqual(chainId, EC_CHAIN_ID))
    throw new ProtocolError("BAD_VALUE", "ec block.chainid", `expected ${toHex(EC_CHAIN_ID)}, got ${toHex(chainId)}`);
  const bodyHash = r.bytesN(32, "bodyhash");
  const prevHeaderHash = r.bytesN(32, "prevheaderhash");
  const prevFullHash = r.bytesN(32, "prevfullhash");
  const dbHeight = r.u32("dbheight");
  const expansionSize = r.varint("headerexpansionsize");
  if (expansionSize > BigInt(r.remaining))
    throw new ProtocolError(
      "TRUNCATED",
      "ec block.headerexpansionarea",
      `size ${expansionSize} exceeds the ${r.remaining} bytes left`,
    );
  const headerExpansion = r.bytesN(Number(expansionSize), "headerexpansionarea");
  const objectCount = r.u64("objectcount");
  const bodySize = r.u64("bodysize");
  if (bodySize !== BigInt(r.remaining)) {
    if (bodySize > BigInt(r.remaining))
      throw new ProtocolError(
        "TRUNCATED",
        "ec block.body",
        `body size ${bodySize} exceeds the ${r.remaining} bytes left`,
      );
    throw new ProtocolError(
      "TRAILING_BYTES",
      "ec block",
      `${BigInt(r.remaining) - bodySize} byte(s) after the body of ${bodySize}`,
    );
  }
  // Every item takes at least 2 bytes, so a larger count cannot be honest (and must not drive a long loop).
  if (objectCount * 2n > bodySize)
    throw new ProtocolError(
      "BAD_VALUE",
      "ec block.objectcount",
      `${objectCount} items cannot fit in ${bodySize} body bytes`,
    );
  return { bodyHash, prevHeaderHash, prevFullHash, dbHeight, headerExpansion, objectCount, bodySize };
}

/**
 * headerHash and fullHash of a block's bytes without decoding its items, for a block this node encoded and
 * saved itself (ledger/bootstrap.ts loadTip): decoding and re-encoding a tip of 20,000 commits to hash it was
 * 0.1–0.3 s of every start (docs/performance.md §Restart). The header is checked as decodeECBlock checks it,
 * and the stored BodyHash against sha256(body), so a damaged block is still refused; the items are not parsed.
 */
export function ecBlockHashesOfSaved(bytes: Uint8Array): { headerHash: Uint8Array; fullHash: Uint8Array } {
  const r = new ByteReader(bytes, "ec block");
  const { bodyHash } = readHeader(r);
  const headerLength = r.offset;
  const computed = sha256(bytes.subarray(headerLength));
  if (!bytesEqual(computed, bodyHash))
    throw new ProtocolError(
      "BAD_VALUE",
      "ec block.bodyhash",
      `stored ${toHex(bodyHash)} is not sha256(body) ${toHex(computed)}`,
    );
  return { headerHash: sha256(bytes.subarray(0, headerLength)), fullHash: sha256(bytes) };
}

/**
 * Decode; rejects truncation, unknown ECIDs, trailing bytes, an ObjectCount or BodySize that does not match
 * the body, and (unless `verifyBodyHash` is false) a stored BodyHash that is not sha256(body). Commits inside
 * are parsed structurally (no credit-range check: the block records what was accepted). The result owns a
 * copy of the bytes, and its byte fields (commits included) are views of that one copy.
 */
export function decodeECBlock(bytes: Uint8Array, options: { verifyBodyHash?: boolean } = {}): ECBlock {
  const r = new ByteReader(bytes.slice(), "ec block");
  const { bodyHash, prevHeaderHash, prevFullHash, dbHeight, headerExpansion, objectCount } = readHeader(r);
  const body = r.bytesN(r.remaining, "body");
  const br = new ByteReader(body, "ec block");
  const items: ECBlockItem[] = [];
  for (let i = 0; i < Number(objectCount); i++) items.push(readItem(br, i));
  if (br.remaining !== 0)
    throw new ProtocolError(
      "BAD_VALUE",
      "ec block.bodysize",
      `${br.remaining} body byte(s) left after ${objectCount} items`,
    );
  if (options.verifyBodyHash !== false) {
    const computed = sha256(body);
    if (!bytesEqual(computed, bodyHash))
      throw new ProtocolError(
        "BAD_VALUE",
        "ec block.bodyhash",
        `stored ${toHex(bodyHash)} is not sha256(body) ${toHex(computed)}`,
      );
  }
  return { bodyHash, prevHeaderHash, prevFullHash, dbHeight, headerExpansion, items };
}

/**
 * Call `commit(chain, body, at)` for each commit of an EC block, in body order, without an object or a view per
 * item: `body` is the block's body (a view of `bytes`), `at` the offset of the commit's first byte (its version)
 * in it, `chain` true for a chain commit (CHAIN_COMMIT_SIZE bytes), false for an entry commit (ENTRY_COMMIT_SIZE).
 * Refuses what decodeECBlock refuses (the same ProtocolErrors), the body hash not checked, and does so before the
 * first call: a block that does not decode gets no calls at all (the query index of a height is all or nothing).
 * A busy block is one commit per entry: decodeECBlock made ~7 objects for each (store/queryIndex.ts).
 */
export function forEachECBlockCommit(
  bytes: Uint8Array,
  commit: (chain: boolean, body: Uint8Array, at: number) => void,
): void {
  forEachCheckedCommit(checkECBlock(bytes), commit);
}

/** An EC block checkECBlock accepted: its body and item count. */
export interface CheckedECBlock {
  readonly body: Uint8Array;
  readonly count: number;
}

/** forEachECBlockCommit over a block checked already (a caller that checks first and walks later). */
export function forEachCheckedCommit(
  checked: CheckedECBlock,
  commit: (chain: boolean, body: Uint8Array, at: number) => void,
): void {
  walkItems(checked.body, checked.count, commit);
}

/**
 * Throw the ProtocolError decodeECBlock would throw for `bytes`, the body hash not checked (nothing made per item);
 * returns the body and its item count.
 */
export function checkECBlock(bytes: Uint8Array): CheckedECBlock {
  const r = new ByteReader(bytes, "ec block");
  const { objectCount } = readHeader(r);
  const body = bytes.subarray(r.offset);
  const count = Number(objectCount);
  walkItems(body, count, undefined);
  return { body, count };
}

function walkItems(
  body: Uint8Array,
  count: number,
  commit: ((chain: boolean, body: Uint8Array, at: number) => void) | undefined,
): void {
  const br = new ByteReader(body, "ec block");
  for (let i = 0; i < count; i++) {
    const ecid = br.u8(`items[${i}].ecid`);
    switch (ecid) {
      case ECID.serverIndex:
        br.u8(`items[${i}].serverindexnumber`);
        break;
      case ECID.minute:
        readMinute(br, i);
        break;
      case ECID.chainCommit:
      case ECID.entryCommit: {
        const chain = ecid === ECID.chainCommit;
        const at = br.skip(chain ? CHAIN_COMMIT_SIZE : ENTRY_COMMIT_SIZE, `items[${i}]`);
        if (body[at] !== 0)
          throw new ProtocolError(
            "BAD_VERSION",
            `${chain ? "chain" : "entry"} commit.version`,
            `expected 0, got ${body[at]}`,
          );
        commit?.(chain, body, at);
        break;
      }
      case ECID.balanceIncrease:
        br.skip(32, `items[${i}].ecpubkey`);
        br.skip(32, `items[${i}].txid`);
        br.varint(`items[${i}].index`);
        br.varint(`items[${i}].numec`);
        break;
      default:
        throw unknownEcid(ecid, i);
    }
  }
  if (br.remaining !== 0)
    throw new ProtocolError("BAD_VALUE", "ec block.bodysize", `${br.remaining} body byte(s) left after ${count} items`);
}

/** headerHash = sha256(header) (the "keymr"); fullHash = sha256(header ‖ body). */
export function ecBlockHashes(block: ECBlock): { headerHash: Uint8Array; fullHash: Uint8Array } {
  const body = encodeECBlockBody(block.items);
  const header = encodeHeader(block, block.items.length, body.length);
  const whole = new ByteWriter(header.length + body.length).bytes(header).bytes(body).finish();
  return { headerHash: sha256(header), fullHash: sha256(whole) };
}

/** Every commit of the block in body order (the items the ledger indexes by txid and full hash). */
export function ecBlockCommits(block: ECBlock): (EntryCommit | ChainCommit)[] {
  const out: (EntryCommit | ChainCommit)[] = [];
  for (const item of block.items) if (item.type === "chainCommit" || item.type === "entryCommit") out.push(item.commit);
  return out;
}
