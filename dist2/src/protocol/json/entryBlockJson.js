// JSON view of an entry block (spec §2.6; reference api-behavior §4.3, wire-format §5.1).
import { toHex } from "../bytes.js";
import { entriesWithMinutes, entryTimestampSeconds } from "../eblock.js";
/**
 * The `entry-block` result of `block`, which is recorded in the directory block whose header timestamp is
 * `dblockTimestampMinutes` (MINUTES since epoch, as DirectoryBlock.timestamp stores it). Output times are seconds.
 */
export function entryBlockToJson(block, dblockTimestampMinutes) {
    return {
        header: {
            blocksequencenumber: block.sequence,
            chainid: toHex(block.chainId),
            prevkeymr: toHex(block.prevKeyMR),
            timestamp: dblockTimestampMinutes * 60,
            dbheight: block.dbHeight,
        },
        entrylist: entriesWithMinutes(block).map((e) => ({
            entryhash: toHex(e.entryHash),
            timestamp: entryTimestampSeconds(dblockTimestampMinutes, e.minute),
        })),
    };
}
//# sourceMappingURL=entryBlockJson.js.map