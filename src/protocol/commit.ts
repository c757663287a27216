// Entry and chain commits: wire-format §2 (factomd common/entryCreditBlock/commitentry.go, commitchain.go).
import { publicKeyFromSeed, signEd25519, verifyEd25519 } from "../crypto/ed25519.js";
import { ByteReader, ByteWriter } from "./bytes.js";
import { entryCreditCost, entryHash, unmarshalEntry, weld } from "./entry.js";
import { ProtocolError } from "./errors.js";
import { sha256, sha256d } from "./hash.js";

/** Bytes of an entry commit (commitentry.go CommitEntrySize). */
export const ENTRY_COMMIT_SIZE = 136;
/** Bytes of a chain commit (commitchain.go CommitChainSize). */
export const CHAIN_COMMIT_SIZE = 200;
/** Bytes covered by the signature: version … credits (entry commit). */
export const ENTRY_COMMIT_SIGNED_SIZE = 40;
/** Bytes covered by the signature: version … credits (chain commit). */
export const CHAIN_COMMIT_SIGNED_SIZE = 104;
/** Valid credits of an entry commit, entry credits (commitentry.go IsValid). */
export const ENTRY_COMMIT_CREDITS = { min: 1, max: 10 } as const;
/** Valid credits of a chain commit, entry credits (commitchain.go IsValid). */
export const CHAIN_COMMIT_CREDITS = { min: 11, max: 20 } as const;

/** A decoded entry commit (136 bytes) or chain commit (200 bytes). `raw` holds exactly those bytes. */
export interface EntryCommit {
  kind: "entry";
  version: number;
  milliTime: number; // ms since epoch (48-bit)
  entryHash: Uint8Array;
  credits: number; // 1..10
  ecPublicKey: Uint8Array;
  signature: Uint8Array;
  raw: Uint8Array;
}
/** See EntryCommit; the chain commit also carries ChainIDHash and Weld. */
export interface ChainCommit {
  kind: "chain";
  version: number;
  milliTime: number; // ms since epoch
  chainIdHash: Uint8Array; // sha256d(chainId)
  weld: Uint8Array;
  entryHash: Uint8Array;
  credits: number; // 11..20
  ecPublicKey: Uint8Array;
  signature: Uint8Array;
  raw: Uint8Array;
}
/** Either kind of commit; `kind` tells them apart. */
export type Commit = EntryCommit | ChainCommit;

function checkLength(bytes: Uint8Array, size: number, field: string): void {
  // factomd reads 136/200 bytes and ignores anything after them; we refuse trailing bytes (docs/compat.md).
  if (bytes.length !== size)
    throw new ProtocolError(
      "BAD_LENGTH",
      field,
      `expected exactly ${size} bytes, got ${bytes.length}${bytes.length > size ? " (trailing bytes are refused)" : ""}`,
    );
}

function checkCredits(credits: number, range: { min: number; max: number }, field: string): void {
  if (!Number.isInteger(credits) || credits < range.min || credits > range.max)
    throw new ProtocolError("BAD_VALUE", `${field}.credits`, `must be ${range.min}..${range.max}, got ${credits}`);
}

/**
 * Structural parse of an entry commit (exact length, version 0) without the credit range: used for the
 * commits inside saved EC blocks, which record what was accepted under the rules of their time.
 */
export function parseEntryCommit(bytes: Uint8Array): EntryCommit {
  checkLength(bytes, ENTRY_COMMIT_SIZE, "entry commit");
  return entryCommitView(bytes.slice());
}

/**
 * parseEntryCommit without the copy: every byte field, `raw` included, is a view of `raw`, which the caller
 * must not change afterwards (the ledger's process list parses its own copies, ledger/byteArena.ts).
 */
export function entryCommitView(raw: Uint8Array): EntryCommit {
  checkLength(raw, ENTRY_COMMIT_SIZE, "entry commit");
  const r = new ByteReader(raw, "entry commit");
  const version = r.u8("version");
  if (version !== 0) throw new ProtocolError("BAD_VERSION", "entry commit.version", `expected 0, got ${version}`);
  return {
    kind: "entry",
    version,
    milliTime: r.u48("millitime"),
    entryHash: r.bytesN(32, "entryhash"),
    credits: r.u8("credits"),
    ecPublicKey: r.bytesN(32, "ecpubkey"),
    signature: r.bytesN(64, "sig"),
    raw,
  };
}

/** Structural parse of a chain commit (exact length, version 0), no credit range: see parseEntryCommit. */
export function parseChainCommit(bytes: Uint8Array): ChainCommit {
  checkLength(bytes, CHAIN_COMMIT_SIZE, "chain commit");
  return chainCommitView(bytes.slice());
}

/** parseChainCommit without the copy: see entryCommitView. */
export function chainCommitView(raw: Uint8Array): ChainCommit {
  checkLength(raw, CHAIN_COMMIT_SIZE, "chain commit");
  const r = new ByteReader(raw, "chain commit");
  const version = r.u8("version");
  if (version !== 0) throw new ProtocolError("BAD_VERSION", "chain commit.version", `expected 0, got ${version}`);
  return {
    kind: "chain",
    version,
    milliTime: r.u48("millitime"),
    chainIdHash: r.bytesN(32, "chainidhash"),
    weld: r.bytesN(32, "weld"),
    entryHash: r.bytesN(32, "entryhash"),
    credits: r.u8("credits"),
    ecPublicKey: r.bytesN(32, "ecpubkey"),
    signature: r.bytesN(64, "sig"),
    raw,
  };
}

/** Decode exactly 136 bytes (BAD_LENGTH otherwise; trailing bytes rejected). Checks version 0 and the credit range 1..10. Does NOT verify the signature. */
export function decodeEntryCommit(bytes: Uint8Array): EntryCommit {
  const commit = parseEntryCommit(bytes);
  checkCredits(commit.credits, ENTRY_COMMIT_CREDITS, "entry commit");
  return commit;
}
/**
 * `decodeEntryCommit` without the copy: the fields are views of `bytes`, which the caller must not change while
 * the commit lives (the write path's: `bytes` are a request's own decoded bytes, and the ledger copies what it
 * keeps, ledger/byteArena.ts). One buffer less per write (issue 35, docs/performance.md
 * §"Signature checks per entry", change 13).
 */
export function decodeEntryCommitView(bytes: Uint8Array): EntryCommit {
  const commit = entryCommitView(bytes);
  checkCredits(commit.credits, ENTRY_COMMIT_CREDITS, "entry commit");
  return commit;
}
/** `decodeChainCommit` without the copy (see decodeEntryCommitView). */
export function decodeChainCommitView(bytes: Uint8Array): ChainCommit {
  const commit = chainCommitView(bytes);
  checkCredits(commit.credits, CHAIN_COMMIT_CREDITS, "chain commit");
  return commit;
}
/** Decode exactly 200 bytes; version 0, credits 11..20. Does NOT verify the signature. */
export function decodeChainCommit(bytes: Uint8Array): ChainCommit {
  const commit = parseChainCommit(bytes);
  checkCredits(commit.credits, CHAIN_COMMIT_CREDITS, "chain commit");
  return commit;
}
/**
 * Marshal a commit from its fields (not from `raw`): 136 or 200 bytes. Checks field sizes and the u8/u48
 * ranges, not the credit range or the signature.
 */
export function encodeCommit(commit: Commit): Uint8Array {
  const field = commit.kind === "entry" ? "entry commit" : "chain commit";
  const sized = (value: Uint8Array, n: number, name: string): Uint8Array => {
    if (value.length !== n)
      throw new ProtocolError("BAD_LENGTH", `${field}.${name}`, `expected ${n} bytes, got ${value.length}`);
    return value;
  };
  if (!Number.isInteger(commit.version) || commit.version < 0 || commit.version > 0xff)
    throw new ProtocolError("BAD_VERSION", `${field}.version`, `must be a byte, got ${commit.version}`);
  if (!Number.isInteger(commit.credits) || commit.credits < 0 || commit.credits > 0xff)
    throw new ProtocolError("BAD_VALUE", `${field}.credits`, `must be a byte, got ${commit.credits}`);
  const w = new ByteWriter(commit.kind === "entry" ? ENTRY_COMMIT_SIZE : CHAIN_COMMIT_SIZE);
  w.u8(commit.version).u48(commit.milliTime);
  if (commit.kind === "chain")
    w.bytes(sized(commit.chainIdHash, 32, "chainidhash")).bytes(sized(commit.weld, 32, "weld"));
  w.bytes(sized(commit.entryHash, 32, "entryhash"))
    .u8(commit.credits)
    .bytes(sized(commit.ecPublicKey, 32, "ecpubkey"))
    .bytes(sized(commit.signature, 64, "sig"));
  return w.finish();
}

/** The signed prefix: bytes 0..39 (entry) or 0..103 (chain). */
export function commitSignedPart(commit: Commit): Uint8Array {
  return commit.raw.subarray(0, commit.kind === "entry" ? ENTRY_COMMIT_SIGNED_SIZE : CHAIN_COMMIT_SIGNED_SIZE);
}
/** txid = sha256(signed prefix) — returned by commit-* and used by ack with chainid "c". */
export function commitTxId(commit: Commit): Uint8Array {
  return sha256(commitSignedPart(commit));
}
/** Full hash = sha256(all 136/200 bytes) — EC block Merkle/index key. */
export function commitFullHash(commit: Commit): Uint8Array {
  return sha256(commit.raw);
}
/** Verify the commit's ed25519 signature (canonical rule) over the signed prefix. */
export function verifyCommitSignature(commit: Commit): boolean {
  return verifyEd25519(commit.ecPublicKey, commitSignedPart(commit), commit.signature);
}

function checkSeed(seed: Uint8Array): void {
  if (seed.length !== 32) throw new ProtocolError("BAD_LENGTH", "ecSeed", `expected 32 bytes, got ${seed.length}`);
}

/**
 * Build and sign an entry commit for a marshalled entry (tools, tests, load generator). `milliTime` is ms
 * since epoch; `credits` defaults to the entry's cost (max(1, KSize)) and must be 1..10.
 */
export function buildEntryCommit(args: {
  entryRaw: Uint8Array;
  milliTime: number;
  credits?: number;
  ecSeed: Uint8Array;
}): EntryCommit {
  unmarshalEntry(args.entryRaw);
  checkSeed(args.ecSeed);
  const credits = args.credits ?? entryCreditCost(args.entryRaw.length, false);
  checkCredits(credits, ENTRY_COMMIT_CREDITS, "entry commit");
  const w = new ByteWriter(ENTRY_COMMIT_SIZE);
  w.u8(0).u48(args.milliTime).bytes(entryHash(args.entryRaw)).u8(credits);
  const signature = signEd25519(args.ecSeed, w.finish().slice());
  w.bytes(publicKeyFromSeed(args.ecSeed)).bytes(signature);
  return parseEntryCommit(w.finish());
}

/**
 * Build and sign a chain commit for a marshalled first entry (credits default to its cost + 10 and must be
 * 11..20). The chain ID is the entry's chain-ID field; `milliTime` is ms since epoch.
 */
export function buildChainCommit(args: {
  entryRaw: Uint8Array;
  milliTime: number;
  credits?: number;
  ecSeed: Uint8Array;
}): ChainCommit {
  const entry = unmarshalEntry(args.entryRaw);
  checkSeed(args.ecSeed);
  const credits = args.credits ?? entryCreditCost(args.entryRaw.length, true);
  checkCredits(credits, CHAIN_COMMIT_CREDITS, "chain commit");
  const hash = entryHash(args.entryRaw);
  const w = new ByteWriter(CHAIN_COMMIT_SIZE);
  w.u8(0).u48(args.milliTime).bytes(sha256d(entry.chainId)).bytes(weld(hash, entry.chainId)).bytes(hash).u8(credits);
  const signature = signEd25519(args.ecSeed, w.finish().slice());
  w.bytes(publicKeyFromSeed(args.ecSeed)).bytes(signature);
  return parseChainCommit(w.finish());
}
