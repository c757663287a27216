/**
 * The rules that check an entry proof (docs/api.md §5.8 `proof`) with no trust in any node, and the proof's
 * format: written once, run by Node (protocol/proof.ts verifyProof: the wallet's `proof --verify`) and by a
 * browser (the control panel's "verify in this browser", docs/panel.md, which loads this compiled module and
 * its imports from the panel). Only primitives differ by platform: ed25519 is a parameter (SignatureCheck),
 * and hash.ts is node:crypto in Node and @noble/hashes in the page (the panel serves its browser module under
 * hash.ts's URL). So this module and everything it imports must stay free of Node built-ins.
 *
 * Trust root: the network's bootstrap server (identity and key), federated alone before the first change
 * block (the genesis admin block, which names it). From there a verifier folds the authority changes with the
 * federation's own code (authorityFold.ts: 05/06/07/08 each in force from max(entry height, block height), in
 * activation order) and accepts each change block c only after directory block c — whose body names admin
 * block c — is signed, in admin block c+1, by a majority of the federated servers in force at c+1 as derived
 * from the change blocks accepted before c (a block cannot vouch for its own changes: a forged block adding
 * its forger's keys would otherwise sign itself).
 * The target's directory block H is then checked as a node checks it: signed in admin block H+1 by a majority
 * of the set in force at H+1 after folding every change block ≤ H.
 *
 * Strict reading: unknown members, upper-case hex, extra signatures that do not verify, or a stated set that
 * differs from the derived one are all rejected, so that a single changed byte anywhere fails the proof.
 * What the proof cannot show offline: that the change list is complete (a node that hid a later removal
 * could keep a removed server's signatures counting); the anchor's external transaction (checked only
 * against an external node, `--anchor-rpc`).
 */
import { type AdminBlock, type AdminEntry, adminBlockHashes, decodeAdminBlock } from "./ablock.js";
import { type AnchorTransactionFound, checkAnchorTransaction, type EthereumRpc } from "./anchorCheck.js";
import { type Authority, AuthorityFold, changesAuthority } from "./authorityFold.js";
import { KNOWN_BOOTSTRAP_KEYS } from "./bootstrapKeys.js";
import { bytesEqual, concat, fromHex, toHex } from "./bytes.js";
import { ADMIN_CHAIN_ID } from "./chains.js";
import { DIRECTORY_BLOCK_HEADER_SIZE } from "./dblock.js";
import { entryHash as hashOfEntry, unmarshalEntry } from "./entry.js";
import { ProtocolError } from "./errors.js";
import { sha256 } from "./hash.js";
import type { ReceiptEthereumJson } from "./json/receiptJson.js";
import { type MerkleNode, merkleParent, verifyMerkleBranch } from "./merkle.js";
import { type Receipt, verifyReceipt } from "./receipt.js";

export {
  AnchorRpcError,
  type AnchorTransactionFound,
  anchorRpcUrl,
  type EthereumRpc,
  fetchEthereumRpc,
} from "./anchorCheck.js";
export { changesAuthority } from "./authorityFold.js";

/** The `proof` member naming this format; a verifier refuses any other. */
export const PROOF_FORMAT = "ledgerd-entry-proof/1";

/** The `authority.rule` member: the derivation above, by name (a verifier refuses any other). */
export const AUTHORITY_RULE =
  "bootstrap server alone before the first change block; fold admin entries 05/06/07/08 of each change block, each in force from max(entry dbheight, block height), in activation order, ties in recorded order (the federation's fold); block c accepted when dblock c is signed in admin block c+1 by a majority of the set at c+1 from blocks < c; the target dblock H by a majority of the set at H+1 from blocks <= H";

/** One node of a Merkle branch, hex. */
export type ProofNode = { left: string; right: string; top: string };
/** A type-01 admin entry: a server's signature over a directory block header, hex. */
export type ProofSigner = { identity: string; publickey: string; signature: string };
/** A server and the key in force for it, hex. */
export type ProofServer = { identity: string; publickey: string };

/** One admin block holding authority changes, with what ties it to a signed directory block. */
export interface ProofChangeBlockJson {
  /** the marshalled admin block (its lookup hash is the directory block's admin entry) */
  adminblock: string;
  /** the 113-byte header of the directory block at the admin block's height */
  directoryblockheader: string;
  /** branch from sha256(admin chain ID ‖ lookup hash) to the header's BodyMR */
  adminbranch: ProofNode[];
  /** the type-01 entries of the next admin block: signatures over that header */
  signatures: ProofSigner[];
}

/** The `proof` result (docs/api.md §5.8). */
export interface ProofJson {
  proof: typeof PROOF_FORMAT;
  entry: { entryhash: string; raw: string };
  receipt: {
    merklebranch: ProofNode[];
    entryblockkeymr: string;
    directoryblockkeymr: string;
    directoryblockheight: number;
  };
  /** the 113-byte header of directory block H */
  directoryblockheader: string;
  /** admin block H+1's directory-block signatures that verify, from federated servers of H+1 */
  signatures: { adminblockheight: number; signers: ProofSigner[] };
  authority: {
    rule: typeof AUTHORITY_RULE;
    bootstrap: ProofServer;
    /** every admin block of heights 0..H holding entries 05, 06, 07 or 08, ascending */
    changes: ProofChangeBlockJson[];
    /** the federated servers in force at H+1, sorted by identity (what the majority is counted against) */
    federated: ProofServer[];
  };
  /** present once a record in the anchor chain covers H (the `receipt` method's `ethereum`) */
  anchor?: ReceiptEthereumJson;
}

/** What a verified proof says, for display. */
export interface ProofSummary {
  entryhash: string;
  chainid: string;
  extids: string[];
  contentbytes: number;
  directoryblockheight: number;
  directoryblockkeymr: string;
  /** directory block timestamp, seconds since epoch */
  directoryblocktimestamp: number;
  networkid: number;
  federated: number;
  signed: number;
  needed: number;
  changeblocks: number;
  bootstrapkey: string;
  anchor?: { txid: string; windowmr: string; contractaddress: string; blockheight: number };
}

// ── the authority set a proof is checked against (the fold is the federation's: authorityFold.ts) ──

/**
 * The fold of a proof's change blocks, as assembler and verifier walk them: before the first change block the
 * trust root (the bootstrap server alone, with its key); each change block c is checked against the set the
 * blocks before it give at c+1, then folded in; the target H against the set at H+1 (what the federation's
 * height machine counted admin block H+1's signatures against).
 */
export class ProofAuthorityFold {
  private readonly fold: AuthorityFold;
  private folded = 0;

  constructor(private readonly bootstrap: { identity: Uint8Array; publicKey: Uint8Array }) {
    this.fold = new AuthorityFold(bootstrap);
  }

  /** The federated servers whose majority must sign the directory block of change block `height`. */
  changeBlockSigners(height: number): Authority[] {
    if (this.folded === 0) return [{ identity: this.bootstrap.identity, publicKey: this.bootstrap.publicKey }];
    return this.fold.projected(height + 1).federated;
  }

  /** Fold change block `height` in (after its directory block's signatures were checked). */
  apply(height: number, entries: readonly AdminEntry[]): void {
    this.fold.applyAdminBlock(height, entries);
    this.folded++;
  }

  /** The federated servers in force at `height` + 1, whose majority signs directory block `height`. */
  targetSigners(height: number): Authority[] {
    return this.fold.at(height + 1).federated;
  }
}

/** Signatures needed out of `n` federated servers: ⌊n/2⌋+1 (cluster/dbSig.ts majority). */
export function majority(n: number): number {
  return Math.floor(n / 2) + 1;
}

// ── verifying (anyone, offline, in Node or a browser) ──

function fail(field: string, detail: string): never {
  throw new ProtocolError("BAD_VALUE", field, detail);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object with exactly `keys` (and optionally `optional`): any other member fails. */
function object(v: unknown, field: string, keys: readonly string[], optional: readonly string[] = []) {
  if (!isObject(v)) fail(field, "expected an object");
  for (const k of Object.keys(v))
    if (!keys.includes(k) && !optional.includes(k)) fail(`${field}.${k}`, "not a member of a proof");
  for (const k of keys) if (!(k in v)) fail(`${field}.${k}`, "missing");
  return v;
}

function array(v: unknown, field: string): unknown[] {
  if (!Array.isArray(v)) fail(field, "expected an array");
  return v;
}

/** Lower-case hex only (upper case would let a changed byte leave the meaning unchanged). */
function hex(v: unknown, field: string, bytes?: number): Uint8Array {
  if (typeof v !== "string" || !/^(?:[0-9a-f]{2})*$/.test(v)) fail(field, "expected lower-case hex");
  if (bytes !== undefined && v.length !== bytes * 2) fail(field, `expected ${bytes} bytes`);
  return fromHex(v, field);
}

function count(v: unknown, field: string): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) fail(field, "expected a non-negative integer");
  return v;
}

function branch(v: unknown, field: string): MerkleNode[] {
  return array(v, field).map((n, i) => {
    const o = object(n, `${field}[${i}]`, ["left", "right", "top"]);
    return {
      left: hex(o.left, `${field}[${i}].left`, 32),
      right: hex(o.right, `${field}[${i}].right`, 32),
      top: hex(o.top, `${field}[${i}].top`, 32),
    };
  });
}

/**
 * The header fields a proof relies on. Layout (dblock.ts encodeDirectoryBlockHeader): version u8 @0, network
 * u32 @1, BodyMR @5, PrevKeyMR @37, PrevFullHash @69, timestamp u32 (minutes) @101, height u32 @105, count @109.
 */
function readHeader(bytes: Uint8Array, field: string) {
  if (bytes.length !== DIRECTORY_BLOCK_HEADER_SIZE) fail(field, `expected ${DIRECTORY_BLOCK_HEADER_SIZE} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return {
    networkId: view.getUint32(1),
    bodyMR: bytes.slice(5, 37),
    timestampMinutes: view.getUint32(101),
    dbHeight: view.getUint32(105),
    headerHash: sha256(bytes),
  };
}

/**
 * Check that `signers` are distinct federated servers of `federated`, each with its key and a signature over
 * `header` that verifies, and that they are a majority. Every listed signer must verify.
 */
function checkSigners(
  v: unknown,
  field: string,
  header: Uint8Array,
  federated: readonly { identity: Uint8Array; publicKey: Uint8Array | undefined }[],
  verifySignature: SignatureCheck,
): { signed: number; needed: number } {
  const seen = new Set<string>();
  array(v, field).forEach((s, i) => {
    const f = `${field}[${i}]`;
    const o = object(s, f, ["identity", "publickey", "signature"]);
    const identity = hex(o.identity, `${f}.identity`, 32);
    const publicKey = hex(o.publickey, `${f}.publickey`, 32);
    const signature = hex(o.signature, `${f}.signature`, 64);
    const fed = federated.find((x) => bytesEqual(x.identity, identity));
    if (fed === undefined) fail(`${f}.identity`, "not a federated server at this height");
    if (fed.publicKey === undefined || !bytesEqual(fed.publicKey, publicKey))
      fail(`${f}.publickey`, "not the server's key in force");
    if (seen.has(o.identity as string)) fail(`${f}.identity`, "signed twice");
    seen.add(o.identity as string);
    if (!verifySignature(publicKey, header, signature)) fail(`${f}.signature`, "does not verify over the header");
  });
  const needed = majority(federated.length);
  if (seen.size < needed) fail(field, `${seen.size} federated servers signed, ${needed} needed`);
  return { signed: seen.size, needed };
}

/** ed25519 verification as the verifier's platform offers it; never throws (a malformed key or signature is false). */
export type SignatureCheck = (publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array) => boolean;

/** One check that passed, in the order the verifier makes them: what it is and what it established. */
export interface ProofCheckPassed {
  /** the proof member the check is about, e.g. "proof.receipt.merklebranch" */
  field: string;
  /** what held, e.g. "leads from the entry hash through the entry block's KeyMR to the directory block's" */
  detail: string;
}

export interface VerifyProofOptions {
  /** ed25519 (crypto/ed25519.ts verifyEd25519 in Node; @noble/ed25519 strict in the control panel's page) */
  verifySignature: SignatureCheck;
  /**
   * The network's bootstrap key as the verifier knows it (pinnedBootstrapKey: LOCAL's and MAIN's); when
   * given, the proof's must equal it.
   */
  trustedBootstrapKey?: Uint8Array;
  /** told of each check as it passes (the panel lists them); the first failure throws instead */
  onCheck?: (check: ProofCheckPassed) => void;
}

/**
 * The bootstrap key a proof of a known network must name (KNOWN_BOOTSTRAP_KEYS, by the network ID in bytes
 * 1..4 of its directory block header), or undefined for another network or a header that cannot be read.
 */
export function pinnedBootstrapKey(json: unknown): Uint8Array | undefined {
  const header = isObject(json) ? json.directoryblockheader : undefined;
  if (typeof header !== "string" || !/^[0-9a-f]{10}/.test(header)) return undefined;
  const known = KNOWN_BOOTSTRAP_KEYS.get(Number.parseInt(header.slice(2, 10), 16));
  return known === undefined ? undefined : fromHex(known);
}

/**
 * Verify a proof with no node: throws ProtocolError naming the member at fault, or answers what it proves.
 * The rules are this function alone, in Node (protocol/proof.ts verifyProof, the wallet's `proof --verify`)
 * and in a browser (the control panel); only the ed25519 and hash primitives are the platform's.
 */
export function verifyProofWith(json: unknown, options: VerifyProofOptions): ProofSummary {
  const { verifySignature } = options;
  const passed = (field: string, detail: string): void => options.onCheck?.({ field, detail });
  const p = object(
    json,
    "proof",
    ["proof", "entry", "receipt", "directoryblockheader", "signatures", "authority"],
    ["anchor"],
  );
  if (p.proof !== PROOF_FORMAT) fail("proof.proof", `expected "${PROOF_FORMAT}"`);
  passed("proof.proof", `the format ${PROOF_FORMAT}, with no member it does not define`);

  // the entry and its branch up to the directory block's keyMR
  const e = object(p.entry, "proof.entry", ["entryhash", "raw"]);
  const entryHash = hex(e.entryhash, "proof.entry.entryhash", 32);
  const raw = hex(e.raw, "proof.entry.raw");
  if (!bytesEqual(hashOfEntry(raw), entryHash)) fail("proof.entry.raw", "does not hash to the entry hash");
  const entry = unmarshalEntry(raw);
  passed("proof.entry.raw", "sha256(sha512(entry) ‖ entry) is the entry hash, and the entry decodes");
  const r = object(p.receipt, "proof.receipt", [
    "merklebranch",
    "entryblockkeymr",
    "directoryblockkeymr",
    "directoryblockheight",
  ]);
  const receipt: Receipt = {
    entryHash,
    merkleBranch: branch(r.merklebranch, "proof.receipt.merklebranch"),
    entryBlockKeyMR: hex(r.entryblockkeymr, "proof.receipt.entryblockkeymr", 32),
    directoryBlockKeyMR: hex(r.directoryblockkeymr, "proof.receipt.directoryblockkeymr", 32),
    directoryBlockHeight: count(r.directoryblockheight, "proof.receipt.directoryblockheight"),
  };
  if (!verifyReceipt(receipt)) fail("proof.receipt.merklebranch", "does not lead from the entry to the keyMR");
  passed(
    "proof.receipt.merklebranch",
    `${receipt.merkleBranch.length} nodes lead from the entry hash through the entry block's KeyMR to the directory block's`,
  );
  const headerBytes = hex(p.directoryblockheader, "proof.directoryblockheader");
  const header = readHeader(headerBytes, "proof.directoryblockheader");
  const last = receipt.merkleBranch[receipt.merkleBranch.length - 1]!;
  if (!bytesEqual(last.left, header.headerHash) || !bytesEqual(last.right, header.bodyMR))
    fail("proof.directoryblockheader", "is not the header of the receipt's directory block");
  const height = receipt.directoryBlockHeight;
  if (header.dbHeight !== height) fail("proof.receipt.directoryblockheight", "is not the header's height");
  passed(
    "proof.directoryblockheader",
    `hashes to the KeyMR's left half, its BodyMR is the right half, and its height is ${height}`,
  );

  // the authority set, from the trust root through every change block
  const a = object(p.authority, "proof.authority", ["rule", "bootstrap", "changes", "federated"]);
  if (a.rule !== AUTHORITY_RULE) fail("proof.authority.rule", "not the rule this verifier applies");
  const b = object(a.bootstrap, "proof.authority.bootstrap", ["identity", "publickey"]);
  const bootstrap = {
    identity: hex(b.identity, "proof.authority.bootstrap.identity", 32),
    publicKey: hex(b.publickey, "proof.authority.bootstrap.publickey", 32),
  };
  if (options.trustedBootstrapKey !== undefined && !bytesEqual(options.trustedBootstrapKey, bootstrap.publicKey))
    fail("proof.authority.bootstrap.publickey", "is not the network's bootstrap key");
  passed(
    "proof.authority.bootstrap.publickey",
    options.trustedBootstrapKey === undefined
      ? "the trust root as the proof states it (no key pinned for this network: compare it with your network's)"
      : "the network's bootstrap key, as this verifier knows it",
  );
  const fold = new ProofAuthorityFold(bootstrap);
  let previous = -1;
  const changes = array(a.changes, "proof.authority.changes");
  changes.forEach((c, i) => {
    const f = `proof.authority.changes[${i}]`;
    const o = object(c, f, ["adminblock", "directoryblockheader", "adminbranch", "signatures"]);
    let admin: AdminBlock;
    try {
      admin = decodeAdminBlock(hex(o.adminblock, `${f}.adminblock`));
    } catch (err) {
      if (err instanceof ProtocolError) fail(`${f}.adminblock`, `${err.field}: ${err.detail}`);
      throw err;
    }
    if (admin.dbHeight <= previous || admin.dbHeight > height)
      fail(`${f}.adminblock`, `height ${admin.dbHeight} out of order or above ${height}`);
    if (!changesAuthority(admin.entries)) fail(`${f}.adminblock`, "holds no authority change");
    previous = admin.dbHeight;
    const hBytes = hex(o.directoryblockheader, `${f}.directoryblockheader`);
    const h = readHeader(hBytes, `${f}.directoryblockheader`);
    if (h.dbHeight !== admin.dbHeight || h.networkId !== header.networkId)
      fail(`${f}.directoryblockheader`, "not the directory block of the admin block's height on this network");
    const leaf = sha256(concat(ADMIN_CHAIN_ID, adminBlockHashes(admin).lookupHash));
    const adminBranch = branch(o.adminbranch, `${f}.adminbranch`);
    if (!verifyMerkleBranch(leaf, adminBranch, h.bodyMR) || !firstLeafBranch(adminBranch, leaf))
      fail(`${f}.adminbranch`, "does not lead from the admin block to the header's BodyMR");
    const set = fold.changeBlockSigners(admin.dbHeight);
    const signers = checkSigners(o.signatures, `${f}.signatures`, hBytes, set, verifySignature);
    fold.apply(admin.dbHeight, admin.entries);
    passed(
      f,
      `admin block ${admin.dbHeight} changes the authority set; its directory block is signed by ${signers.signed} of ${set.length} federated servers (${signers.needed} needed)`,
    );
  });

  // the majority over the target's header, against the set in force at H+1
  const federated = fold.targetSigners(height);
  const stated = array(a.federated, "proof.authority.federated").map((s, i) => {
    const o = object(s, `proof.authority.federated[${i}]`, ["identity", "publickey"]);
    return { identity: o.identity, publickey: o.publickey };
  });
  const derived = federated
    .filter((f) => f.publicKey !== undefined)
    .map((f) => ({ identity: toHex(f.identity), publickey: toHex(f.publicKey!) }));
  if (JSON.stringify(stated) !== JSON.stringify(derived))
    fail("proof.authority.federated", "is not the set the changes give at the next height");
  passed(
    "proof.authority.federated",
    `${federated.length} federated server(s) at height ${height + 1}, derived from the trust root and ${changes.length} change block(s)`,
  );
  const s = object(p.signatures, "proof.signatures", ["adminblockheight", "signers"]);
  if (count(s.adminblockheight, "proof.signatures.adminblockheight") !== height + 1)
    fail("proof.signatures.adminblockheight", `expected ${height + 1}`);
  const { signed, needed } = checkSigners(
    s.signers,
    "proof.signatures.signers",
    headerBytes,
    federated,
    verifySignature,
  );
  passed(
    "proof.signatures.signers",
    `${signed} of ${federated.length} federated servers signed the header (${needed} needed), every signature verifies`,
  );

  const summary: ProofSummary = {
    entryhash: toHex(entryHash),
    chainid: toHex(entry.chainId),
    extids: entry.extIds.map((x) => toHex(x)),
    contentbytes: entry.content.length,
    directoryblockheight: height,
    directoryblockkeymr: toHex(receipt.directoryBlockKeyMR),
    directoryblocktimestamp: header.timestampMinutes * 60,
    networkid: header.networkId,
    federated: federated.length,
    signed,
    needed,
    changeblocks: changes.length,
    bootstrapkey: toHex(bootstrap.publicKey),
  };
  if (p.anchor !== undefined) {
    summary.anchor = verifyAnchorPart(p.anchor, receipt.directoryBlockKeyMR, height);
    passed(
      "proof.anchor",
      "the window branch leads from the directory block's KeyMR to the anchored root (the external transaction is checked only against an Ethereum node)",
    );
  }
  return summary;
}

/**
 * The anchor's external transaction of a proof that `verifyProofWith` accepted (its `summary`), against the
 * Ethereum node `ethereum` serves (anchorCheck.ts, the rules of the wallet's --anchor-rpc): throws
 * ProtocolError naming the member at fault (a proof without an anchor: `proof.anchor`), AnchorRpcError when
 * the Ethereum node cannot be asked. The control panel's page calls it after showing the offline verdict.
 */
export async function verifyProofAnchorWith(
  json: unknown,
  summary: ProofSummary,
  ethereum: EthereumRpc,
  onCheck?: (check: ProofCheckPassed) => void,
): Promise<AnchorTransactionFound> {
  const anchor = (json as ProofJson).anchor;
  if (anchor === undefined || summary.anchor === undefined)
    fail("proof.anchor", "missing: the directory block was not anchored when the proof was saved");
  const transaction = await checkAnchorTransaction(anchor, ethereum, "proof.anchor", onCheck);
  onCheck?.({
    field: "proof.anchor",
    detail: `Ethereum transaction ${anchor.txid} in block ${transaction.blockHeight} anchors the window holding directory block ${summary.directoryblockheight} (${transaction.confirmations} confirmations at ${ethereum.url})`,
  });
  return transaction;
}

/** `verifyProofWith`, then `verifyProofAnchorWith` (the wallet's `proof --verify FILE --anchor-rpc URL`). */
export async function verifyProofAndAnchorWith(
  json: unknown,
  options: VerifyProofOptions & { ethereum: EthereumRpc },
): Promise<{ summary: ProofSummary; transaction: AnchorTransactionFound }> {
  const summary = verifyProofWith(json, options);
  return { summary, transaction: await verifyProofAnchorWith(json, summary, options.ethereum, options.onCheck) };
}

/** True when the branch starts at the leftmost leaf (the admin block is the body's first entry). */
function firstLeafBranch(nodes: readonly MerkleNode[], leaf: Uint8Array): boolean {
  let current = leaf;
  for (const n of nodes) {
    if (!bytesEqual(n.left, current)) return false;
    current = merkleParent(n.left, n.right);
  }
  return true;
}

/** The anchor's window branch (keyMR → WindowMR) and record fields' shapes; the transaction itself is external. */
function verifyAnchorPart(v: unknown, keyMR: Uint8Array, height: number): NonNullable<ProofSummary["anchor"]> {
  const f = "proof.anchor";
  const o = object(v, f, [
    "dbheightmin",
    "dbheightmax",
    "windowmr",
    "recordheight",
    "contractaddress",
    "txid",
    "blockheight",
    "blockhash",
    "txindex",
    "merklebranch",
    "anchorrecordentryhash",
  ]);
  const min = count(o.dbheightmin, `${f}.dbheightmin`);
  const max = count(o.dbheightmax, `${f}.dbheightmax`);
  if (height < min || height > max) fail(`${f}.dbheightmin`, `the window ${min}..${max} does not hold ${height}`);
  const windowMR = hex(o.windowmr, `${f}.windowmr`, 32);
  if (!verifyMerkleBranch(keyMR, branch(o.merklebranch, `${f}.merklebranch`), windowMR))
    fail(`${f}.merklebranch`, "does not lead from the directory block keyMR to the window root");
  count(o.recordheight, `${f}.recordheight`);
  count(o.txindex, `${f}.txindex`);
  hex(o.anchorrecordentryhash, `${f}.anchorrecordentryhash`, 32);
  const eth = (k: string, chars: number): string => {
    const x = o[k];
    if (typeof x !== "string" || !new RegExp(`^0x[0-9a-f]{${chars}}$`).test(x))
      fail(`${f}.${k}`, `expected 0x and ${chars} lower-case hex characters`);
    return x;
  };
  eth("blockhash", 64);
  return {
    txid: eth("txid", 64),
    windowmr: toHex(windowMR),
    contractaddress: eth("contractaddress", 40),
    blockheight: count(o.blockheight, `${f}.blockheight`),
  };
}
