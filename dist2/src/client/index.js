/** Client library of the ledgerd JSON-RPC API: `new NodeClient({ url, user?, password?, caFile?, timeoutMs? })`. */
export * from "./errors.js";
export { parseJson, stringifyJson } from "./json.js";
export { liveUrl, subscribe, } from "./liveClient.js";
export { DEFAULT_TIMEOUT_MS, NODE_METHODS, NodeClient } from "./nodeClient.js";
//# sourceMappingURL=index.js.map