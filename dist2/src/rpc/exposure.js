/**
 * Start-time warnings about how exposed the API is: a non-loopback listener without credentials
 * (-insecure-noauth), a /debug endpoint that can change the node's state, and network-testing knobs already
 * in force. Logged at warning level so they reach the default console.
 */
import { isLoopbackHost } from "../config/loopback.js";
/** Log one warning per risky setting of `config` (called once the server listens). */
export function warnExposure(config, log) {
    const open = config.rpcUser === "" && config.rpcPass === "";
    if (!isLoopbackHost(config.listenHost) && open) {
        log.warn("INSECURE: the API listens on a non-loopback address WITHOUT authentication (-insecure-noauth); anyone " +
            "who reaches the port can submit, read and (with -debugapi=readwrite) reconfigure this node", { host: config.listenHost, port: config.port });
    }
    if (config.debugApi === "readwrite") {
        log.warn("the /debug API can change this node's state (DebugApi = readwrite)", {
            offLoopback: config.debugRpcUser === "" ? "refused (no DebugRpcUser)" : "with the debug credential",
        });
    }
    if (config.dropRatePerMille > 0 || config.delayMs > 0) {
        log.warn("network-testing knobs in force: dropped writes are refused with an error, delayed writes wait", {
            dropRatePerMille: config.dropRatePerMille,
            delayMs: config.delayMs,
        });
    }
}
//# sourceMappingURL=exposure.js.map