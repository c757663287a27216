// JSON views of a directory block (spec §2.3; reference/api-behavior.md §5.2, §5.3): the full `dblock` of
// `dblock-by-height` and the simplified result of `directory-block`.
import { toHex } from "../bytes.js";
import { DIRECTORY_CHAIN_ID } from "../chains.js";
import { directoryBlockHashes } from "../dblock.js";
function entriesJson(block) {
    return block.entries.map((e) => ({ chainid: toHex(e.chainId), keymr: toHex(e.keyMR) }));
}
/** The full shape (`dblock-by-height`): header timestamp in minutes. */
export function directoryBlockJson(block) {
    const { keyMR, fullHash, headerHash } = directoryBlockHashes(block);
    return {
        dbhash: toHex(fullHash),
        keymr: toHex(keyMR),
        headerhash: toHex(headerHash),
        header: {
            version: block.version,
            networkid: block.networkId,
            bodymr: toHex(block.bodyMR),
            prevkeymr: toHex(block.prevKeyMR),
            prevfullhash: toHex(block.prevFullHash),
            timestamp: block.timestamp,
            dbheight: block.dbHeight,
            blockcount: block.entries.length,
            chainid: toHex(DIRECTORY_CHAIN_ID),
        },
        dbentries: entriesJson(block),
    };
}
/** The simplified shape (`directory-block`): timestamp in seconds, no keyMR of the block itself, no rawdata. */
export function directoryBlockSimpleJson(block) {
    return {
        header: { prevblockkeymr: toHex(block.prevKeyMR), sequencenumber: block.dbHeight, timestamp: block.timestamp * 60 },
        entryblocklist: entriesJson(block),
    };
}
//# sourceMappingURL=directoryBlockJson.js.map