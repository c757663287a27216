/** Client library of the ledgerd JSON-RPC API: `new NodeClient({ url, user?, password?, caFile?, timeoutMs? })`. */
export * from "./errors.js";
export { parseJson, stringifyJson } from "./json.js";
export {
  type LiveClientOptions,
  type LiveEvent,
  type LiveHandle,
  type LiveHandlers,
  type LiveQuery,
  type LiveSubscription,
  liveUrl,
  subscribe,
} from "./liveClient.js";
export {
  DEFAULT_TIMEOUT_MS,
  type Endpoint,
  NODE_METHODS,
  NodeClient,
  type NodeClientOptions,
  type PagedMethod,
  QUERY_METHODS,
} from "./nodeClient.js";
export type * from "./types.js";
export { WalletClient, type WalletClientOptions } from "./walletClient.js";
export * from "./walletMethods.js";
