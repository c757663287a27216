// JSON views of a directory block (spec §2.3; reference/api-behavior.md §5.2, §5.3): the full `dblock` of
// `dblock-by-height` and the simplified result of `directory-block`.
import { toHex } from "../bytes.js";
import { DIRECTORY_CHAIN_ID } from "../chains.js";
import { type DirectoryBlock, directoryBlockHashes } from "../dblock.js";

/** One body entry: chain ID and the keyMR (lookup hash for admin, header hash for EC) of its block. */
export interface DirectoryBlockEntryJson {
  chainid: string;
  keymr: string;
}

/** `dblock-by-height` → `dblock`, field order kept. */
export interface DirectoryBlockJson {
  dbhash: string; // full hash
  keymr: string;
  headerhash: string;
  header: {
    version: number;
    networkid: number; // u32, e.g. LOCAL 4203931044
    bodymr: string;
    prevkeymr: string;
    prevfullhash: string;
    timestamp: number; // MINUTES since epoch (raw header value)
    dbheight: number;
    blockcount: number;
    chainid: string; // …0d
  };
  dbentries: DirectoryBlockEntryJson[];
}

/** `directory-block` result. */
export interface DirectoryBlockSimpleJson {
  header: {
    prevblockkeymr: string;
    sequencenumber: number; // = height
    timestamp: number; // SECONDS since epoch (header minutes × 60)
  };
  entryblocklist: DirectoryBlockEntryJson[];
}

function entriesJson(block: DirectoryBlock): DirectoryBlockEntryJson[] {
  return block.entries.map((e) => ({ chainid: toHex(e.chainId), keymr: toHex(e.keyMR) }));
}

/** The full shape (`dblock-by-height`): header timestamp in minutes. */
export function directoryBlockJson(block: DirectoryBlock): DirectoryBlockJson {
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
export function directoryBlockSimpleJson(block: DirectoryBlock): DirectoryBlockSimpleJson {
  return {
    header: { prevblockkeymr: toHex(block.prevKeyMR), sequencenumber: block.dbHeight, timestamp: block.timestamp * 60 },
    entryblocklist: entriesJson(block),
  };
}
