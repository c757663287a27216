import { compareBytes, toHex } from "../protocol/bytes.js";
export class AuthoritySet {
    bootstrap;
    role = new Map();
    keys = new Map();
    /** changes not yet in force, in the order the chain recorded them */
    pending = [];
    appliedUpTo = 0;
    /**
     * @param bootstrap the genesis federated server's key: genesis admin blocks name the identity (05) but
     *   carry no key; the network's bootstrap key is it (LOCAL: LocalServerPublicKey's default, CUSTOM:
     *   CustomBootstrapKey).
     */
    constructor(bootstrap) {
        this.bootstrap = bootstrap;
        this.keys.set(toHex(bootstrap.identity), bootstrap.publicKey);
    }
    /** Fold in the admin entries of the saved admin block of `height` (call in height order, from 0). */
    applyAdminBlock(height, entries) {
        for (const e of entries) {
            if ("forwardCompatible" in e)
                continue;
            if (e.type === 0x05 || e.type === 0x06 || e.type === 0x07)
                this.pending.push({ height: Math.max(e.dbHeight, height), type: e.type, identity: e.identityChainId });
            else if (e.type === 0x08)
                this.keys.set(toHex(e.identityChainId), e.publicKey);
        }
    }
    /** The set in force at `height` (heights must not go down between calls). */
    at(height) {
        if (height < this.appliedUpTo)
            throw new RangeError(`authorities asked for ${height} after ${this.appliedUpTo}`);
        const rest = [];
        for (const c of this.pending) {
            if (c.height > height) {
                rest.push(c);
                continue;
            }
            const id = toHex(c.identity);
            if (c.type === 0x07)
                this.role.delete(id);
            else
                this.role.set(id, { identity: c.identity, role: c.type === 0x05 ? "federated" : "audit" });
        }
        this.pending = rest;
        this.appliedUpTo = height;
        const federated = [];
        const audit = [];
        for (const [id, r] of this.role)
            (r.role === "federated" ? federated : audit).push({ identity: r.identity, publicKey: this.keys.get(id) });
        federated.sort((a, b) => compareBytes(a.identity, b.identity));
        audit.sort((a, b) => compareBytes(a.identity, b.identity));
        return { federated, audit };
    }
    /** The signing key recorded for an identity. */
    keyOf(identity) {
        return this.keys.get(toHex(identity));
    }
    /** The bootstrap server (for views). */
    bootstrapIdentity() {
        return this.bootstrap.identity;
    }
}
//# sourceMappingURL=authorities.js.map