/** Software version reported by `properties` as `nodeversion` and by `ledgerd -v`. */
export const NODE_VERSION = "0.1.0";
/** API version reported by `properties` as `nodeapiversion` (the reference node's /v2 API). */
export const NODE_API_VERSION = "2.0";
//# sourceMappingURL=version.js.map