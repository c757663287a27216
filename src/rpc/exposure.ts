/**
 * Start-time warnings about how exposed the API is: a non-loopback listener (API or control panel) without credentials
 * (-insecure-noauth), a /debug endpoint that can change the node's state, and network-testing knobs already
 * in force. Logged at warning level so they reach the default console.
 */
import { isLoopbackHost } from "../config/loopback.js";
import type { NodeConfig } from "../config/types.js";
import type { Logger } from "../log/logger.js";

/** Log one warning per risky setting of `config` (called once the server listens). */
export function warnExposure(config: NodeConfig, log: Logger): void {
  const open = config.rpcUser === "" && config.rpcPass === "";
  if (!isLoopbackHost(config.listenHost) && open) {
    log.warn(
      "INSECURE: the API listens on a non-loopback address WITHOUT authentication (-insecure-noauth); anyone " +
        "who reaches the port can submit, read and (with -debugapi=readwrite) reconfigure this node",
      { host: config.listenHost, port: config.port },
    );
  }
  if (config.controlPanel.setting !== "disabled" && !isLoopbackHost(config.controlPanel.host) && open) {
    log.warn(
      "INSECURE: the control panel listens on a non-loopback address WITHOUT authentication (-insecure-noauth); " +
        "anyone who reaches its port can read this node and follow its live feed",
      { host: config.controlPanel.host, port: config.controlPanel.port },
    );
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
