// Network IDs: wire-format §6.1 (factomd common/constants/constants.go, state/state.go GetNetworkID).
import { ProtocolError } from "./errors.js";
import { sha256 } from "./hash.js";
/** Networks a node can run on (factomd -network). */
export const NETWORK_NAMES = ["MAIN", "TEST", "LOCAL", "CUSTOM"];
/** Fixed network IDs (directory block header field), u32. */
export const NETWORK_IDS = {
    MAIN: 0xfa92e5a2,
    TEST: 0xfa92e5a3,
    LOCAL: 0xfa92e5a4,
};
/** MAIN 0xFA92E5A2, TEST 0xFA92E5A3, LOCAL 0xFA92E5A4, CUSTOM first 4 bytes of sha256(customName) as u32 BE. */
export function networkId(network, customName) {
    switch (network) {
        case "MAIN":
        case "TEST":
        case "LOCAL":
            return NETWORK_IDS[network];
        case "CUSTOM": {
            if (typeof customName !== "string" || customName.length === 0)
                throw new ProtocolError("BAD_VALUE", "customnet", "a CUSTOM network needs a non-empty name");
            const h = sha256(new TextEncoder().encode(customName));
            return ((h[0] << 24) >>> 0) + ((h[1] << 16) | (h[2] << 8) | h[3]);
        }
        default:
            throw new ProtocolError("BAD_VALUE", "network", `unknown network ${String(network)}; expected one of ${NETWORK_NAMES.join(", ")}`);
    }
}
/** Name of a fixed network ID, or undefined for CUSTOM (hashed) IDs. */
export function networkNameOfId(id) {
    for (const name of ["MAIN", "TEST", "LOCAL"])
        if (NETWORK_IDS[name] === id)
            return name;
    return undefined;
}
//# sourceMappingURL=network.js.map