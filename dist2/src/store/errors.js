export class StoreError extends Error {
    type;
    constructor(type) {
        super(describe(type));
        this.type = type;
        this.name = "StoreError";
    }
}
function describe(t) {
    switch (t.code) {
        case "NETWORK_MISMATCH":
            return `data directory ${t.path} holds the ${t.stored} network, not ${t.expected}; use another -homedir or -network`;
        case "UNKNOWN_FORMAT":
            return `data directory ${t.path} is not a ledger database this version can read: ${t.info}`;
        case "OPEN_FAILED":
            return `cannot open the database in ${t.path}: ${t.info}`;
        case "CORRUPT":
            return `database in ${t.path} is inconsistent: ${t.info}`;
        case "DIRECTORY_LOCKED":
            return (`data directory ${t.path} is in use by another ledgerd (${t.holderPid === undefined ? "pid not yet written" : `pid ${t.holderPid}`}); ` +
                "stop that node first, or give this one another -homedir");
        case "STORAGE_FULL":
            return (`${mib(t.availableBytes)} free for ${t.path}${t.neededBytes > 0 ? `, ${mib(t.neededBytes)} to write` : ""}: ` +
                `below the reserve of ${mib(t.reserveBytes)} kept free (-minfreemb); writes resume when space is freed`);
    }
}
function mib(bytes) {
    return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
//# sourceMappingURL=errors.js.map