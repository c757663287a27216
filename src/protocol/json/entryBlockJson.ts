// JSON view of an entry block (spec §2.6; reference api-behavior §4.3, wire-format §5.1).
import { toHex } from "../bytes.js";
import { type EntryBlock, entriesWithMinutes, entryTimestampSeconds } from "../eblock.js";

/** `entry-block` method result. */
export interface EntryBlockJson {
  header: {
    blocksequencenumber: number;
    chainid: string;
    prevkeymr: string;
    /** seconds since epoch: the timestamp of the directory block at `dbheight` */
    timestamp: number;
    dbheight: number;
  };
  /** entries in body order, minute markers left out; `[]` when there are none */
  entrylist: {
    entryhash: string;
    /** seconds since epoch: end of the entry's minute (block timestamp + 60 × following marker number) */
    timestamp: number;
  }[];
}

/**
 * The `entry-block` result of `block`, which is recorded in the directory block whose header timestamp is
 * `dblockTimestampMinutes` (MINUTES since epoch, as DirectoryBlock.timestamp stores it). Output times are seconds.
 */
export function entryBlockToJson(block: EntryBlock, dblockTimestampMinutes: number): EntryBlockJson {
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
