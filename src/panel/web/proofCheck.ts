/**
 * An entry proof checked in this browser with no trust in the node: the rules are src/protocol/proofRules.ts
 * itself, compiled once and served by the panel with its imports (/assets/protocol/…), the same code the
 * wallet's `proof --verify` runs. What the page brings is the primitives: SHA-2 from @noble/hashes (the
 * panel's /assets/protocol/hash.js) and ed25519 from @noble/ed25519 in its strict RFC 8032 mode, both served
 * from the project's node_modules. The verdict lists every check that passed and names the first that failed.
 * Given an Ethereum RPC URL, the page then asks that node itself (fetch, JSON-RPC) for the anchor's transaction
 * and applies src/protocol/anchorCheck.ts — the rules of the wallet's `--anchor-rpc` — to its answers.
 */
import type * as Rules from "@ledgerd/proof-rules";
import type { AnchorTransactionFound, ProofCheckPassed, ProofSummary } from "@ledgerd/proof-rules";

const RULES = "/assets/protocol/proofRules.js";
const ED25519 = "/assets/noble-ed25519/index.js";
const NOBLE_SHA2 = "/assets/noble-hashes/sha2.js";

interface Ed25519 {
  hashes: { sha512?: (m: Uint8Array) => Uint8Array };
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, options?: { zip215?: boolean }): boolean;
}

export interface ProofVerdict {
  /** the checks that passed, in order */
  passed: ProofCheckPassed[];
  /** the first check that failed: the proof member and why */
  failure?: { field: string; detail: string };
  summary?: ProofSummary;
  /** true when the network's bootstrap key is one this page knows (LOCAL, MAIN) and the proof names it */
  pinned: boolean;
  /** the anchor's transaction as the Ethereum node showed it (an Ethereum RPC URL was given, and it verifies) */
  anchor?: AnchorTransactionFound & { url: string };
  /** the Ethereum node could not be asked: the proof verified offline, its anchor is not judged */
  anchorUnchecked?: string;
}

let loaded: Promise<{ rules: typeof Rules; verifySignature: Rules.SignatureCheck }> | undefined;

function load(): Promise<{ rules: typeof Rules; verifySignature: Rules.SignatureCheck }> {
  loaded ??= (async () => {
    const [rules, ed, sha2] = await Promise.all([
      import(RULES) as Promise<typeof Rules>,
      import(ED25519) as Promise<Ed25519>,
      import(NOBLE_SHA2) as Promise<{ sha512: (m: Uint8Array) => Uint8Array }>,
    ]);
    // noble's synchronous API needs a synchronous SHA-512
    ed.hashes.sha512 = sha2.sha512;
    // zip215: false = strict RFC 8032 (S < L, canonical encodings), the project's independent cross-check
    // (crypto/ed25519.ts verifyEd25519Noble); a malformed key or signature throws there: false here
    const verifySignature: Rules.SignatureCheck = (publicKey, message, signature) => {
      try {
        return ed.verify(signature, message, publicKey, { zip215: false });
      } catch {
        return false;
      }
    };
    return { rules, verifySignature };
  })();
  return loaded;
}

/** The rules' ProtocolError as (field, detail), or undefined for anything else (a bug: rethrown). */
function protocolFailure(e: unknown): { field: string; detail: string } | undefined {
  const p = e as { name?: unknown; field?: unknown; detail?: unknown };
  if (p?.name !== "ProtocolError" || typeof p.field !== "string" || typeof p.detail !== "string") return undefined;
  return { field: p.field, detail: p.detail };
}

/**
 * Verify a parsed proof object, and with `anchorRpc` (an Ethereum JSON-RPC URL) its anchor's transaction in
 * that chain; never throws for a proof that does not verify (the verdict says why).
 */
export async function checkProof(json: unknown, anchorRpc = ""): Promise<ProofVerdict> {
  const { rules, verifySignature } = await load();
  const passed: ProofCheckPassed[] = [];
  const trustedBootstrapKey = rules.pinnedBootstrapKey(json);
  const pinned = trustedBootstrapKey !== undefined;
  const onCheck = (c: ProofCheckPassed): void => {
    passed.push(c);
  };
  let summary: ProofSummary;
  try {
    summary = rules.verifyProofWith(json, {
      verifySignature,
      ...(pinned ? { trustedBootstrapKey } : {}),
      onCheck,
    });
  } catch (e) {
    // the rules throw ProtocolError (field, detail) for every proof that does not verify; anything else is a bug
    const failure = protocolFailure(e);
    if (failure === undefined) throw e;
    return { passed, failure, pinned };
  }
  if (anchorRpc.trim() === "") return { passed, summary, pinned };
  const url = rules.anchorRpcUrl(anchorRpc);
  if (url === undefined)
    return { passed, summary, pinned, anchorUnchecked: `"${anchorRpc}" is not an http:// or https:// URL` };
  try {
    const found = await rules.verifyProofAnchorWith(json, summary, rules.fetchEthereumRpc(url), onCheck);
    return { passed, summary, pinned, anchor: { ...found, url } };
  } catch (e) {
    if ((e as { name?: unknown })?.name === "AnchorRpcError")
      return { passed, summary, pinned, anchorUnchecked: (e as Error).message };
    const failure = protocolFailure(e);
    if (failure === undefined) throw e;
    return { passed, failure, pinned };
  }
}
