/** The reference node's sentence for a repeated commit (spec §7): the `info` of REPEATED_COMMIT. */
export const REPEATED_COMMIT_INFO = "A commit with equal or greater payment already exists";
export class LedgerError extends Error {
    type;
    constructor(type) {
        super(type.code);
        this.type = type;
        this.name = "LedgerError";
    }
}
//# sourceMappingURL=errors.js.map