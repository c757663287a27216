export class ConfigError extends Error {
    file;
    line;
    field;
    constructor(message, detail = {}) {
        super(message);
        this.name = "ConfigError";
        this.file = detail.file;
        this.line = detail.line;
        this.field = detail.field;
    }
}
//# sourceMappingURL=errors.js.map