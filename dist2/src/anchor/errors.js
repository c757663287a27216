export class AnchorError extends Error {
    type;
    constructor(type) {
        super(describe(type));
        this.type = type;
    }
}
function describe(t) {
    switch (t.code) {
        case "BAD_RECORD":
            return `anchor record ${t.field}: ${t.reason}`;
        case "BAD_KEY":
            return `${t.file}: ${t.reason}`;
        case "WRONG_CHAIN":
            return `the Ethereum RPC serves chain ID ${t.got}, the configuration says ${t.expected}`;
        case "STATE_FILE":
            return `${t.file}: ${t.reason}`;
        case "NONCE_USED":
            return `nonce ${t.nonce} of the anchoring account was used by another transaction than ${t.txId}`;
    }
}
//# sourceMappingURL=errors.js.map