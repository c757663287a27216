/**
 * Client signatures at apply (docs/cluster.md §1.6, "Trust"): every node checks the ed25519 signatures of
 * every client write a `writes` record carries — the commit's EC key, each transaction input's RCD — before
 * the rules apply it, whoever appended the record. A write whose signature does not verify is skipped by
 * every node alike (the check is a pure function of the bytes) and counted.
 *
 * The node that took the write over HTTP checked the same triples before appending them (ledger.ts
 * `submitCommit`, `submitTransaction`); its verifier (workers/rememberingVerifier.ts) keeps those passed
 * triples so that node does not pay for the same check twice.
 */
import { LedgerError } from "../ledger/errors.js";
import { decodeMessage, type LogMessage } from "../ledger/messages.js";
import { commitSignedPart } from "../protocol/commit.js";
import { ProtocolError } from "../protocol/errors.js";
import { transactionSignatureChecks } from "../protocol/transaction.js";

/** One ed25519 check: does `signature` by `publicKey` sign `message`? (workers/verifier.ts's shape) */
export interface SignatureCheck {
  publicKey: Uint8Array;
  message: Uint8Array;
  signature: Uint8Array;
}

/**
 * The signature checks a client write needs, or the LedgerError that refuses it without any check (a
 * transaction whose RCDs or signature blocks are malformed). A reveal carries no signature: its commit pays.
 */
export function clientSignatureChecks(msg: LogMessage): SignatureCheck[] | LedgerError {
  switch (msg.kind) {
    case "commit":
      return [
        { publicKey: msg.commit.ecPublicKey, message: commitSignedPart(msg.commit), signature: msg.commit.signature },
      ];
    case "transaction":
      try {
        return transactionSignatureChecks(msg.tx);
      } catch (e) {
        if (e instanceof ProtocolError) return new LedgerError({ code: "INVALID", info: e.message });
        throw e;
      }
    default:
      return [];
  }
}

/** The refusal of a write whose check `index` (of `checks` for `msg`) failed, worded as `submit*` words it. */
export function badSignature(msg: LogMessage, index: number): LedgerError {
  return new LedgerError({
    code: "BAD_SIGNATURE",
    what: msg.kind === "commit" ? "commit" : `transaction input ${index}`,
  });
}

/** A client write of a `writes` record after its checks: the message to apply, or its refusal. */
export type CheckedWrite = LogMessage | LedgerError;

/** What the apply needs of a verifier (workers/rememberingVerifier.ts). */
export interface ApplyVerifier {
  verifyAtApply(checks: readonly SignatureCheck[]): Promise<boolean[]>;
}

/**
 * Decode each client write of a `writes` record and check its signatures (every node, whoever appended the
 * record): the message to apply, or the refusal every node gives it. Deterministic: the bytes decide.
 */
export async function checkClientWrites(
  messages: readonly Uint8Array[],
  verifier: ApplyVerifier,
): Promise<CheckedWrite[]> {
  const out: CheckedWrite[] = [];
  const checks: SignatureCheck[] = [];
  /** per message of `out`: where its checks start in `checks`, and how many */
  const spans: { from: number; count: number }[] = [];
  for (const bytes of messages) {
    let msg: LogMessage;
    try {
      msg = decodeMessage(bytes);
    } catch (e) {
      out.push(
        new LedgerError({ code: "INVALID", info: `not a message: ${e instanceof Error ? e.message : String(e)}` }),
      );
      spans.push({ from: checks.length, count: 0 });
      continue;
    }
    const own = clientSignatureChecks(msg);
    if (own instanceof LedgerError) {
      out.push(own);
      spans.push({ from: checks.length, count: 0 });
      continue;
    }
    out.push(msg);
    spans.push({ from: checks.length, count: own.length });
    checks.push(...own);
  }
  if (checks.length === 0) return out;
  const results = await verifier.verifyAtApply(checks);
  spans.forEach((span, i) => {
    for (let k = 0; k < span.count; k++)
      if (results[span.from + k] !== true) {
        out[i] = badSignature(out[i] as LogMessage, k);
        return;
      }
  });
  return out;
}
