/**
 * The records an operator's tool signs (addServer, authorityChange, rotateKey, setEcRate; records.ts), as the
 * driver (federation.ts) checks them before appending one a client sent, and the scheduled changes they leave
 * behind, as the panel shows them. Pure: the rules that apply these records at their height are
 * heightMachine.ts's; this only refuses, early and with a reason, what the rules would skip anyway.
 */
import { bytesEqual, toHex } from "../protocol/bytes.js";
import type { AuthorityView, PendingChange } from "./authorities.js";
import type { ScheduledRate } from "./ecRate.js";
import type { ScheduledChanges } from "./federationTypes.js";
import { type OperatorRecord, verifyRecord } from "./records.js";

/** How an operator's record is named in refusals ("add server", "rotate key", "promote", …). */
export function operatorRecordName(rec: OperatorRecord): string {
  switch (rec.kind) {
    case "addServer":
      return "add server";
    case "rotateKey":
      return "rotate key";
    case "setEcRate":
      return "set entry-credit rate";
    default:
      return rec.change;
  }
}

/** The keys that may sign operator records on this network, and who is an authority now. */
export interface OperatorKeys {
  networkId: number;
  /** the network's skeleton (bootstrap) key: addServer, authorityChange */
  skeletonKey: Uint8Array;
  /** the entry-credit rate authority's key: setEcRate (absent: the network names none) */
  rateAuthority?: Uint8Array | undefined;
  /** the open height and its authority set: a rotateKey is signed by the identity's key in force */
  height: number;
  authorities: AuthorityView;
}

/** Why `rec` is refused before it is appended (its signature is not the key the chain names for it), or undefined. */
export function operatorRecordRefusal(rec: OperatorRecord, keys: OperatorKeys): string | undefined {
  const what = operatorRecordName(rec);
  if (rec.kind === "setEcRate") {
    if (keys.rateAuthority === undefined) return `${what}: this network names no entry-credit rate authority`;
    if (!verifyRecord(rec, keys.networkId, keys.rateAuthority))
      return `${what}: the signature is not the rate authority's`;
    return undefined;
  }
  if (rec.kind === "rotateKey") {
    const now = [...keys.authorities.federated, ...keys.authorities.audit].find((a) =>
      bytesEqual(a.identity, rec.identity),
    );
    if (now?.publicKey === undefined) return `${what}: the identity is not an authority at ${keys.height}`;
    if (!verifyRecord(rec, keys.networkId, now.publicKey))
      return `${what}: the signature is not the identity's key in force`;
    return undefined;
  }
  if (!verifyRecord(rec, keys.networkId, keys.skeletonKey))
    return `${what}: the signature is not the network's skeleton key's`;
  return undefined;
}

/** Admin entry type of a pending change → its name in the panel. */
const CHANGE_NAMES = { 5: "federated", 6: "audit", 7: "removed", 8: "key" } as const;

/**
 * What the chain has scheduled and not yet in force: role changes and keys recorded in saved admin blocks, with
 * their activation heights; the announced entry-credit rates; this node's signing window.
 */
export function scheduledChangesView(
  openHeight: number,
  pending: readonly PendingChange[],
  rates: readonly ScheduledRate[],
  signingWindow: { fromHeight: number; untilHeight: number },
): ScheduledChanges {
  return {
    openHeight,
    authority: pending.map((c) => ({
      height: c.height,
      change: CHANGE_NAMES[c.type],
      identity: toHex(c.identity),
      ...(c.type === 0x08 ? { publicKey: toHex(c.publicKey) } : {}),
    })),
    rates: rates.map((r) => ({ height: r.activationHeight, rate: r.rate.toString() })),
    signingWindow,
  };
}
