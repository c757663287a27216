/** The `/debug` method table (spec §4.2): method name → handler. */
import type { MethodHandler, MethodTable } from "../jsonrpc.js";
import { auditServers, authorities, federatedServers, networkInfo, predictiveFer } from "./network.js";
import { configuration, delay, dropRate, reloadConfiguration, setDelay, setDropRate } from "./settings.js";
import { holdingQueue, messages, processList, summary } from "./state.js";

/** Every `/debug` method. */
export function debugMethods(): MethodTable {
  const table: [string, MethodHandler][] = [
    ["holding-queue", holdingQueue],
    ["network-info", networkInfo],
    ["predictive-fer", predictiveFer],
    ["audit-servers", auditServers],
    ["federated-servers", federatedServers],
    ["configuration", configuration],
    ["authorities", authorities],
    ["process-list", processList],
    ["reload-configuration", reloadConfiguration],
    ["drop-rate", dropRate],
    ["set-drop-rate", setDropRate],
    ["delay", delay],
    ["set-delay", setDelay],
    ["summary", summary],
    ["messages", messages],
  ];
  return new Map(table);
}
