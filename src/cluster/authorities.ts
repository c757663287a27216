/**
 * The authority set as the federation keeps it: the fold itself (protocol/authorityFold.ts, the rules: which
 * admin entries change the set and from which height) is the one the offline proof verifier runs too; this
 * class adds what only a node needs: `snapshot`/`AuthoritySet.restore` turn the whole state into plain JSON
 * and back (authorityFile.ts keeps it next to the saved blocks, so a start folds in only the admin blocks
 * saved since; certified snapshots carry it).
 */
import { NodeError } from "../errors.js";
import { AuthorityFold } from "../protocol/authorityFold.js";
import { fromHex, toHex } from "../protocol/bytes.js";

export {
  type Authority,
  type AuthorityView,
  authorityView,
  type PendingChange,
} from "../protocol/authorityFold.js";

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

export class AuthoritySet extends AuthorityFold {
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
}
