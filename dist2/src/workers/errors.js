export class WorkerPoolError extends Error {
    type;
    constructor(type, options) {
        super(type.code === "POOL_CLOSED"
            ? `${type.what}: the worker pool is closed`
            : `${type.what}: worker task failed: ${type.reason}`, options);
        this.type = type;
        this.name = "WorkerPoolError";
    }
}
//# sourceMappingURL=errors.js.map