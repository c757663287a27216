/**
 * Entry proofs that need no trust in any node (docs/api.md §5.8 `proof`): one JSON object holding an entry, its
 * receipt branch, its directory block's header, the majority's signatures over that header, and the authority
 * changes from genesis that say whose signatures count. `assembleProof` writes it from saved blocks (the
 * node); `verifyProof` checks it with nothing but hashes and ed25519 (the wallet's `proof --verify`, offline).
 * The format and the verification rules are proofRules.ts, which the control panel's page runs too; this
 * module adds what is Node's: assembling, and node:crypto's ed25519 for the rules.
 */
import { verifyEd25519 } from "../crypto/ed25519.js";
import type { AdminBlock } from "./ablock.js";
import type { AnchorTransactionFound, EthereumRpc } from "./anchorCheck.js";
import { bytesEqual, concat, toHex } from "./bytes.js";
import { type DirectoryBlock, encodeDirectoryBlockHeader } from "./dblock.js";
import { ProtocolError } from "./errors.js";
import { sha256 } from "./hash.js";
import type { ReceiptEthereumJson } from "./json/receiptJson.js";
import { type MerkleNode, merkleBranch } from "./merkle.js";
import {
  AUTHORITY_RULE,
  PROOF_FORMAT,
  ProofAuthorityFold,
  type ProofChangeBlockJson,
  type ProofCheckPassed,
  type ProofJson,
  type ProofNode,
  type ProofSigner,
  type ProofSummary,
  verifyProofAndAnchorWith,
  verifyProofWith,
} from "./proofRules.js";
import type { Receipt } from "./receipt.js";

export {
  AUTHORITY_RULE,
  changesAuthority,
  PROOF_FORMAT,
  type ProofChangeBlockJson,
  type ProofCheckPassed,
  type ProofJson,
  type ProofSummary,
  pinnedBootstrapKey,
} from "./proofRules.js";

// ── assembling (the node) ──

/** Saved blocks a proof is made of (the rpc layer reads them from the ledger). */
export interface ProofInputs {
  entryRaw: Uint8Array;
  receipt: Receipt;
  directoryBlock: DirectoryBlock;
  /** admin block H+1 */
  nextAdminBlock: AdminBlock;
  bootstrap: { identity: Uint8Array; publicKey: Uint8Array };
  /** the change blocks of heights ≤ H, ascending, each with its directory block and the next admin block */
  changeBlocks: { adminRaw: Uint8Array; admin: AdminBlock; directoryBlock: DirectoryBlock; nextAdmin: AdminBlock }[];
  anchor?: ReceiptEthereumJson;
}

function nodesJson(branch: readonly MerkleNode[]): ProofNode[] {
  return branch.map((n) => ({ left: toHex(n.left), right: toHex(n.right), top: toHex(n.top) }));
}

/** Leaves whose Merkle root is a directory block's BodyMR: sha256(chain ID ‖ keyMR) per body entry. */
function bodyLeaves(block: DirectoryBlock): Uint8Array[] {
  return block.entries.map((e) => sha256(concat(e.chainId, e.keyMR)));
}

/**
 * The type-01 entries of `admin` that verify over `header` and come from a server of `federated` with its
 * key (distinct identities, in the block's order): what a verifier will count.
 */
function countedSigners(
  admin: AdminBlock,
  header: Uint8Array,
  federated: readonly { identity: Uint8Array; publicKey: Uint8Array | undefined }[],
): ProofSigner[] {
  const seen = new Set<string>();
  const out: ProofSigner[] = [];
  for (const e of admin.entries) {
    if ("forwardCompatible" in e || e.type !== 0x01) continue;
    const id = toHex(e.identityAdminChainId);
    const fed = federated.find((f) => bytesEqual(f.identity, e.identityAdminChainId));
    if (seen.has(id) || fed?.publicKey === undefined || !bytesEqual(fed.publicKey, e.publicKey)) continue;
    if (!verifyEd25519(e.publicKey, header, e.signature)) continue;
    seen.add(id);
    out.push({ identity: id, publickey: toHex(e.publicKey), signature: toHex(e.signature) });
  }
  return out;
}

/** The proof object for saved blocks (throws ProtocolError when the receipt is not of that directory block). */
export function assembleProof(inp: ProofInputs): ProofJson {
  const fold = new ProofAuthorityFold(inp.bootstrap);
  const changes: ProofChangeBlockJson[] = inp.changeBlocks.map((c) => {
    const header = encodeDirectoryBlockHeader(c.directoryBlock);
    const signers = countedSigners(c.nextAdmin, header, fold.changeBlockSigners(c.directoryBlock.dbHeight));
    fold.apply(c.admin.dbHeight, c.admin.entries);
    return {
      adminblock: toHex(c.adminRaw),
      directoryblockheader: toHex(header),
      adminbranch: nodesJson(merkleBranch(bodyLeaves(c.directoryBlock), 0)),
      signatures: signers,
    };
  });
  const height = inp.directoryBlock.dbHeight;
  if (height !== inp.receipt.directoryBlockHeight)
    throw new ProtocolError("BAD_VALUE", "proof.directoryblock", "not the receipt's directory block");
  const header = encodeDirectoryBlockHeader(inp.directoryBlock);
  const federated = fold.targetSigners(height);
  const out: ProofJson = {
    proof: PROOF_FORMAT,
    entry: { entryhash: toHex(inp.receipt.entryHash), raw: toHex(inp.entryRaw) },
    receipt: {
      merklebranch: nodesJson(inp.receipt.merkleBranch),
      entryblockkeymr: toHex(inp.receipt.entryBlockKeyMR),
      directoryblockkeymr: toHex(inp.receipt.directoryBlockKeyMR),
      directoryblockheight: height,
    },
    directoryblockheader: toHex(header),
    signatures: { adminblockheight: height + 1, signers: countedSigners(inp.nextAdminBlock, header, federated) },
    authority: {
      rule: AUTHORITY_RULE,
      bootstrap: { identity: toHex(inp.bootstrap.identity), publickey: toHex(inp.bootstrap.publicKey) },
      changes,
      federated: federated
        .filter((f) => f.publicKey !== undefined)
        .map((f) => ({ identity: toHex(f.identity), publickey: toHex(f.publicKey!) })),
    },
  };
  if (inp.anchor !== undefined) out.anchor = inp.anchor;
  return out;
}

/**
 * Verify a proof with no node (proofRules.ts verifyProofWith, ed25519 by crypto/ed25519.ts): throws
 * ProtocolError naming the member at fault, or answers what it proves. `trustedBootstrapKey`: the network's
 * bootstrap key as the verifier knows it (pinnedBootstrapKey); when given, the proof's must equal it.
 */
export function verifyProof(
  json: unknown,
  options: { trustedBootstrapKey?: Uint8Array; onCheck?: (check: ProofCheckPassed) => void } = {},
): ProofSummary {
  return verifyProofWith(json, { ...options, verifySignature: verifyEd25519 });
}

/**
 * `verifyProof`, then the anchor's Ethereum transaction against `ethereum` (proofRules.ts verifyProofAndAnchorWith,
 * the rules the control panel's page runs): the wallet's `proof --verify FILE --anchor-rpc URL`.
 */
export function verifyProofAndAnchor(
  json: unknown,
  options: { trustedBootstrapKey?: Uint8Array; onCheck?: (check: ProofCheckPassed) => void; ethereum: EthereumRpc },
): Promise<{ summary: ProofSummary; transaction: AnchorTransactionFound }> {
  return verifyProofAndAnchorWith(json, { ...options, verifySignature: verifyEd25519 });
}
