/**
 * The fold of the authority set (federated and audit servers with their signing keys) from admin blocks: the
 * one implementation the federation (cluster/authorities.ts AuthoritySet, the height machine, the history
 * checker, snapshots) and the offline proof verifier (proofRules.ts, in Node and in the control panel's page)
 * all run, so that a proof is accepted against exactly the set the federation counted signatures against.
 *
 * The rules: admin entries 05 (federated server), 06 (audit server), 07 (remove) and 08 (signing key) of the
 * admin block of height h are each in force from max(entry DBHeight, h) — a key rotated at H verifies the
 * signatures of H on, the old key those before. Changes reach the set in the order of their activation
 * heights, those of one height in the order the chain recorded them (roles and keys are separate maps, so
 * only the order within each matters). That order makes the set a function of the blocks alone: asking
 * `at(h)` at every height (a running node) and asking it once after folding many blocks (a node restarting
 * from its authority file, a verifier reading only the change blocks) give the same set. Never node
 * configuration: every node derives the same set from the same blocks (FEDERATION.md §4).
 *
 * Pure and free of Node built-ins (the browser verifier loads this module from the panel, proofAssets.ts).
 */
import { InvariantError } from "../errors.js";
import type { AdminEntry } from "./ablock.js";
import { bytesEqual, compareBytes, toHex } from "./bytes.js";

export interface Authority {
  identity: Uint8Array;
  /** ed25519 signing key; undefined until an 08 entry (or the bootstrap rule) gives one */
  publicKey: Uint8Array | undefined;
}

export interface AuthorityView {
  /** federated servers, sorted by identity chain ID */
  federated: Authority[];
  /** audit servers, sorted by identity chain ID */
  audit: Authority[];
}

export type AuthorityRole = "federated" | "audit";

/** A role change recorded and not yet in force. */
export interface RoleChange {
  height: number;
  type: 0x05 | 0x06 | 0x07;
  identity: Uint8Array;
}

/** A signing key recorded and not yet in force. */
export interface KeyChange {
  height: number;
  identity: Uint8Array;
  publicKey: Uint8Array;
}

/** A change recorded in the chain and not yet in force (views, and the rules of heightMachine.ts). */
export type PendingChange = RoleChange | (KeyChange & { type: 0x08 });

/** True for admin entries that change the authority set (05, 06, 07, 08). */
export function changesAuthority(entries: readonly AdminEntry[]): boolean {
  return entries.some((e) => !("forwardCompatible" in e) && e.type >= 0x05 && e.type <= 0x08);
}

/** `changes` in the order they reach the set: by activation height, ties in recorded order (a stable sort). */
function inActivationOrder<T extends { height: number }>(changes: readonly T[]): T[] {
  return [...changes].sort((a, b) => a.height - b.height);
}

export class AuthorityFold {
  protected readonly role = new Map<string, { identity: Uint8Array; role: AuthorityRole }>();
  protected readonly keys = new Map<string, Uint8Array>();
  /** role changes not yet in force, in the order the chain recorded them */
  protected pending: RoleChange[] = [];
  /** signing keys not yet in force, in the order the chain recorded them */
  protected pendingKeys: KeyChange[] = [];
  /** the highest height asked of `at` so far */
  protected appliedUpTo = 0;

  /**
   * @param bootstrap the genesis federated server's key: genesis admin blocks name the identity (05) but
   *   carry no key; the network's bootstrap key is it (LOCAL: LocalServerPublicKey's default, CUSTOM:
   *   CustomBootstrapKey).
   */
  constructor(protected readonly bootstrap: { identity: Uint8Array; publicKey: Uint8Array }) {
    this.keys.set(toHex(bootstrap.identity), bootstrap.publicKey);
  }

  /** Fold in the admin entries of the saved admin block of `height` (call in height order, from 0). */
  applyAdminBlock(height: number, entries: readonly AdminEntry[]): void {
    for (const e of entries) {
      if ("forwardCompatible" in e) continue;
      if (e.type === 0x05 || e.type === 0x06 || e.type === 0x07)
        this.pending.push({ height: Math.max(e.dbHeight, height), type: e.type, identity: e.identityChainId });
      else if (e.type === 0x08)
        this.pendingKeys.push({
          height: Math.max(e.dbHeight, height),
          identity: e.identityChainId,
          publicKey: e.publicKey,
        });
    }
  }

  /** The set in force at `height`, the changes of activation ≤ `height` made final (heights must not go down). */
  at(height: number): AuthorityView {
    if (height < this.appliedUpTo)
      throw new InvariantError(`authorities asked for ${height} after ${this.appliedUpTo}`);
    applyRoles(this.role, this.pending, height);
    applyKeys(this.keys, this.pendingKeys, height);
    this.pending = this.pending.filter((c) => c.height > height);
    this.pendingKeys = this.pendingKeys.filter((k) => k.height > height);
    this.appliedUpTo = height;
    return authorityView(this.role, this.keys);
  }

  /**
   * The set at `height` as the chain has scheduled it so far: the set in force, with every pending change
   * of activation ≤ `height` applied (as `at` would). Changes nothing: the rules ask it of a record's
   * activation height, the verifier of a change block's next height before folding the block in.
   */
  projected(height: number): AuthorityView {
    const role = new Map(this.role);
    const keys = new Map(this.keys);
    applyRoles(role, this.pending, height);
    applyKeys(keys, this.pendingKeys, height);
    return authorityView(role, keys);
  }

  /** Changes recorded and not yet in force (roles, then keys; each in recorded order). */
  pendingChanges(): PendingChange[] {
    return [
      ...this.pending.map((c) => ({ height: c.height, type: c.type, identity: c.identity })),
      ...this.pendingKeys.map((k) => ({
        height: k.height,
        type: 0x08 as const,
        identity: k.identity,
        publicKey: k.publicKey,
      })),
    ];
  }

  /** The signing key last recorded for an identity (a scheduled rotation's key once recorded). */
  keyOf(identity: Uint8Array): Uint8Array | undefined {
    for (let i = this.pendingKeys.length - 1; i >= 0; i--)
      if (bytesEqual(this.pendingKeys[i]!.identity, identity)) return this.pendingKeys[i]!.publicKey;
    return this.keys.get(toHex(identity));
  }

  /** The bootstrap server (for views). */
  bootstrapIdentity(): Uint8Array {
    return this.bootstrap.identity;
  }
}

function applyRoles(
  role: Map<string, { identity: Uint8Array; role: AuthorityRole }>,
  pending: readonly RoleChange[],
  height: number,
): void {
  for (const c of inActivationOrder(pending)) {
    if (c.height > height) break;
    const id = toHex(c.identity);
    if (c.type === 0x07) role.delete(id);
    else role.set(id, { identity: c.identity, role: c.type === 0x05 ? "federated" : "audit" });
  }
}

function applyKeys(keys: Map<string, Uint8Array>, pending: readonly KeyChange[], height: number): void {
  for (const k of inActivationOrder(pending)) {
    if (k.height > height) break;
    keys.set(toHex(k.identity), k.publicKey);
  }
}

/** The view of a role map with its keys, each list sorted by identity chain ID. */
export function authorityView(
  role: ReadonlyMap<string, { identity: Uint8Array; role: AuthorityRole }>,
  keys: ReadonlyMap<string, Uint8Array>,
): AuthorityView {
  const federated: Authority[] = [];
  const audit: Authority[] = [];
  for (const [id, r] of role)
    (r.role === "federated" ? federated : audit).push({ identity: r.identity, publicKey: keys.get(id) });
  federated.sort((a, b) => compareBytes(a.identity, b.identity));
  audit.sort((a, b) => compareBytes(a.identity, b.identity));
  return { federated, audit };
}
