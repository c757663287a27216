/**
 * The authority set (federated and audit servers with their signing keys) as the chain records it: the
 * genesis admin block's bootstrap server, then admin entries 05 (add federated server), 06 (add audit
 * server), 07 (remove) and 08 (signing key), each in force from its activation height (the entry's
 * DBHeight; never before the height after the block that records it): a key rotated at H verifies the
 * signatures of H on, the old key those before. Never node configuration, so
 * every node derives the same set from the same blocks (FEDERATION.md §4).
 *
 * Pure: `applyAdminBlock` folds one saved admin block in; `at(height)` answers the set in force at a height;
 * `snapshot`/`AuthoritySet.restore` turn the whole state into plain JSON and back (authorityFile.ts keeps it
 * next to the saved blocks, so a start folds in only the admin blocks saved since).
 */
import { InvariantError, NodeError } from "../errors.js";
import type { AdminEntry } from "../protocol/ablock.js";
import { bytesEqual, compareBytes, fromHex, toHex } from "../protocol/bytes.js";

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

interface Change {
  height: number;
  type: 0x05 | 0x06 | 0x07;
  identity: Uint8Array;
}

interface KeyChange {
  height: number;
  identity: Uint8Array;
  publicKey: Uint8Array;
}

/** The whole state of an AuthoritySet as plain JSON (hex strings). */
export interface AuthoritySnapshot {
  role: { identity: string; role: "federated" | "audit" }[];
  keys: { identity: string; publicKey: string }[];
  pending: { height: number; type: 0x05 | 0x06 | 0x07; identity: string }[];
  pendingKeys: { height: number; identity: string; publicKey: string }[];
  appliedUpTo: number;
}

/** A saved authority set (the authority file, a snapshot) that is not well-formed: the node does not start from it. */
export class AuthoritySnapshotError extends NodeError {}

/** A change recorded in the chain and not yet in force (views, and the rules of heightMachine.ts). */
export type PendingChange =
  | { height: number; type: 0x05 | 0x06 | 0x07; identity: Uint8Array }
  | { height: number; type: 0x08; identity: Uint8Array; publicKey: Uint8Array };

export class AuthoritySet {
  private readonly role = new Map<string, { identity: Uint8Array; role: "federated" | "audit" }>();
  private readonly keys = new Map<string, Uint8Array>();
  /** changes not yet in force, in the order the chain recorded them */
  private pending: Change[] = [];
  /** signing keys not yet in force, in the order the chain recorded them */
  private pendingKeys: KeyChange[] = [];
  private appliedUpTo = 0;

  /**
   * @param bootstrap the genesis federated server's key: genesis admin blocks name the identity (05) but
   *   carry no key; the network's bootstrap key is it (LOCAL: LocalServerPublicKey's default, CUSTOM:
   *   CustomBootstrapKey).
   */
  constructor(private readonly bootstrap: { identity: Uint8Array; publicKey: Uint8Array }) {
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

  /** The set in force at `height` (heights must not go down between calls). */
  at(height: number): AuthorityView {
    if (height < this.appliedUpTo)
      throw new InvariantError(`authorities asked for ${height} after ${this.appliedUpTo}`);
    const rest: Change[] = [];
    for (const c of this.pending) {
      if (c.height > height) {
        rest.push(c);
        continue;
      }
      const id = toHex(c.identity);
      if (c.type === 0x07) this.role.delete(id);
      else this.role.set(id, { identity: c.identity, role: c.type === 0x05 ? "federated" : "audit" });
    }
    this.pending = rest;
    const restKeys: KeyChange[] = [];
    for (const k of this.pendingKeys)
      if (k.height > height) restKeys.push(k);
      else this.keys.set(toHex(k.identity), k.publicKey);
    this.pendingKeys = restKeys;
    this.appliedUpTo = height;
    return authorityView(this.role, this.keys);
  }

  /**
   * The set at `height` as the chain has scheduled it so far: the set in force, with every pending change
   * of activation ≤ `height` applied in the recorded order. Changes nothing (the rules ask it of a record's
   * activation height).
   */
  projected(height: number): AuthorityView {
    const role = new Map(this.role);
    const keys = new Map(this.keys);
    for (const c of this.pending) {
      if (c.height > height) continue;
      const id = toHex(c.identity);
      if (c.type === 0x07) role.delete(id);
      else role.set(id, { identity: c.identity, role: c.type === 0x05 ? "federated" : "audit" });
    }
    for (const k of this.pendingKeys) if (k.height <= height) keys.set(toHex(k.identity), k.publicKey);
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

  /** The whole state, as plain JSON (restore with `AuthoritySet.restore`). */
  snapshot(): AuthoritySnapshot {
    return {
      role: [...this.role.values()].map((r) => ({ identity: toHex(r.identity), role: r.role })),
      keys: [...this.keys].map(([identity, key]) => ({ identity, publicKey: toHex(key) })),
      pending: this.pending.map((c) => ({ height: c.height, type: c.type, identity: toHex(c.identity) })),
      pendingKeys: this.pendingKeys.map((k) => ({
        height: k.height,
        identity: toHex(k.identity),
        publicKey: toHex(k.publicKey),
      })),
      appliedUpTo: this.appliedUpTo,
    };
  }

  /** The set a `snapshot` describes; throws AuthoritySnapshotError when the snapshot is not well-formed. */
  static restore(bootstrap: { identity: Uint8Array; publicKey: Uint8Array }, s: AuthoritySnapshot): AuthoritySet {
    const set = new AuthoritySet(bootstrap);
    const id = (hex: unknown): Uint8Array => {
      if (typeof hex !== "string" || !/^[0-9a-f]{64}$/.test(hex))
        throw new AuthoritySnapshotError(`not a 32-byte hex: ${hex}`);
      return fromHex(hex);
    };
    const height = (n: unknown): number => {
      if (!Number.isSafeInteger(n) || (n as number) < 0) throw new AuthoritySnapshotError(`not a height: ${n}`);
      return n as number;
    };
    for (const r of s.role) {
      if (r.role !== "federated" && r.role !== "audit") throw new AuthoritySnapshotError(`not a role: ${r.role}`);
      set.role.set(toHex(id(r.identity)), { identity: id(r.identity), role: r.role });
    }
    for (const k of s.keys) set.keys.set(toHex(id(k.identity)), id(k.publicKey));
    for (const c of s.pending) {
      if (c.type !== 0x05 && c.type !== 0x06 && c.type !== 0x07)
        throw new AuthoritySnapshotError(`not a change: ${c.type}`);
      set.pending.push({ height: height(c.height), type: c.type, identity: id(c.identity) });
    }
    if (!Array.isArray(s.pendingKeys)) throw new AuthoritySnapshotError("no pendingKeys");
    for (const k of s.pendingKeys)
      set.pendingKeys.push({ height: height(k.height), identity: id(k.identity), publicKey: id(k.publicKey) });
    set.appliedUpTo = height(s.appliedUpTo);
    return set;
  }

  /** The bootstrap server (for views). */
  bootstrapIdentity(): Uint8Array {
    return this.bootstrap.identity;
  }
}

/** The view of a role map with its keys, each list sorted by identity chain ID. */
export function authorityView(
  role: ReadonlyMap<string, { identity: Uint8Array; role: "federated" | "audit" }>,
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
