/**
 * When a snapshot is certified (docs/cluster.md §1.13): a pure rule over `snapshotSignature` records, used
 * alike by the federated servers that apply them from the log (to know when to store the snapshot) and by a
 * node that fetches a snapshot (to check the certificate stored with it).
 *
 * The snapshot of height H is certified when ⌊F/2⌋+1 distinct servers of the F federated at H+1 — the servers
 * whose signatures over directory block H the admin block H+1 carries — signed the same (snapshot hash,
 * directory block keyMR) pair with the key the chain names for them. A signature counts once per signer (a
 * second one, a replay or another hash of the same signer, is ignored: a server cannot vote twice), and a
 * signature of another height, of another network (the network id is in the signed bytes), of a server
 * that is not federated, or with a key that is not its key, counts for nothing.
 */
import { bytesEqual, toHex } from "../protocol/bytes.js";
import type { Authority } from "./authorities.js";
import { majority } from "./dbSig.js";
import { type ClusterRecord, verifyRecord } from "./records.js";

export type SnapshotSignature = Extract<ClusterRecord, { kind: "snapshotSignature" }>;

/** A certified snapshot: its height, hash and directory block, and the signatures that certify it. */
export interface SnapshotCertificate {
  height: number;
  hash: Uint8Array;
  keyMR: Uint8Array;
  /** one per signer, in the order given */
  signatures: SnapshotSignature[];
}

export interface CertificationContext {
  networkId: number;
  /** the snapshot's height H */
  height: number;
  /** the federated servers of H+1 with their keys in force at H+1 */
  federated: readonly Authority[];
}

/**
 * The certificate the signatures make, or undefined when no (hash, keyMR) has a majority of the federated
 * servers. Signatures are taken in order: each signer's first valid signature counts, later ones do not.
 */
export function certify(
  signatures: readonly SnapshotSignature[],
  ctx: CertificationContext,
): SnapshotCertificate | undefined {
  const counted = new Set<string>();
  const groups = new Map<string, SnapshotSignature[]>();
  const needed = majority(ctx.federated.length);
  for (const s of signatures) {
    if (s.kind !== "snapshotSignature" || s.height !== ctx.height) continue;
    const signer = toHex(s.signer);
    if (counted.has(signer)) continue;
    const fed = ctx.federated.find((a) => bytesEqual(a.identity, s.signer));
    if (fed?.publicKey === undefined || !verifyRecord(s, ctx.networkId, fed.publicKey)) continue;
    counted.add(signer);
    const key = `${toHex(s.hash)}/${toHex(s.keyMR)}`;
    const group = groups.get(key) ?? [];
    group.push(s);
    groups.set(key, group);
    if (group.length >= needed) return { height: ctx.height, hash: s.hash, keyMR: s.keyMR, signatures: [...group] };
  }
  return undefined;
}

/** Why `signatures` do not certify a snapshot (for the log and the refusal message). */
export function certificationShortfall(signatures: readonly SnapshotSignature[], ctx: CertificationContext): string {
  let valid = 0;
  const signers = new Set<string>();
  for (const s of signatures) {
    const fed = ctx.federated.find((a) => bytesEqual(a.identity, s.signer));
    if (s.height !== ctx.height || fed?.publicKey === undefined || !verifyRecord(s, ctx.networkId, fed.publicKey))
      continue;
    if (signers.has(toHex(s.signer))) continue;
    signers.add(toHex(s.signer));
    valid++;
  }
  return `${valid} valid signature(s) of the ${ctx.federated.length} federated server(s) of height ${ctx.height + 1}, none with a majority of ${majority(ctx.federated.length)} on one hash`;
}
