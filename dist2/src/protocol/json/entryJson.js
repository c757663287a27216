// JSON views of entries (spec §2.7; reference api-behavior §4.2, §4.6).
import { toHex } from "../bytes.js";
/** `{chainid, content, extids}` of the `entry` method (lowercase hex; content "" when empty). */
export function entryToJson(entry) {
    return { chainid: toHex(entry.chainId), content: toHex(entry.content), extids: entry.extIds.map(toHex) };
}
/** `{version, chainid, extids, content}` as the `transaction` method returns an entry. */
export function entryToTransactionJson(entry) {
    return {
        version: entry.version,
        chainid: toHex(entry.chainId),
        extids: entry.extIds.map(toHex),
        content: toHex(entry.content),
    };
}
//# sourceMappingURL=entryJson.js.map