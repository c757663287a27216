import { stateChanging } from "./access.js";
import { auditServers, authorities, federatedServers, networkInfo, predictiveFer } from "./network.js";
import { configuration, delay, dropRate, reloadConfiguration, setDelay, setDropRate } from "./settings.js";
import { holdingQueue, messages, processList, summary } from "./state.js";
/** Every `/debug` method; the state-changing ones behind access.ts (DebugApi = readwrite, caller checks). */
export function debugMethods() {
    const table = {
        "holding-queue": holdingQueue,
        "network-info": networkInfo,
        "predictive-fer": predictiveFer,
        "audit-servers": auditServers,
        "federated-servers": federatedServers,
        configuration: configuration,
        authorities: authorities,
        "process-list": processList,
        "reload-configuration": stateChanging("reload-configuration", reloadConfiguration),
        "drop-rate": dropRate,
        "set-drop-rate": stateChanging("set-drop-rate", setDropRate),
        delay: delay,
        "set-delay": stateChanging("set-delay", setDelay),
        summary: summary,
        messages: messages,
    };
    return new Map(Object.entries(table));
}
//# sourceMappingURL=index.js.map