export class ProtocolError extends Error {
    code;
    field;
    detail;
    /**
     * @param code   machine-readable reason
     * @param field  the field at fault, e.g. "entry.extids[2]" or "commit.signature"
     * @param detail human sentence, e.g. "expected 136 bytes, got 135"
     */
    constructor(code, field, detail) {
        super(`${field}: ${detail}`);
        this.code = code;
        this.field = field;
        this.detail = detail;
        this.name = "ProtocolError";
    }
}
//# sourceMappingURL=errors.js.map