/**
 * The `entry-block` result as JSON text, written without the result's objects: exactly the text of
 * `encodeJson(entryBlockToJson(block, dblockTimestampMinutes))` (protocol/json/entryBlockJson.ts holds the shape and
 * the rules; test/unit/rpc/entryBlockText.test.ts holds the two equal).
 *
 * Why: an entry-block read that misses the ledger's decoded-block cache builds its answer again; building one object
 * per entry, a hex string per hash through a Buffer each, then JSON.stringify of the whole was ~30 % of such a
 * read's main thread (docs/performance.md §Reads). Here the body's hashes are written as hex in one
 * call and the text is put together from slices of it (the items are 32 bytes each, as decoded).
 */
import { toHex } from "../../protocol/bytes.js";
import { type EntryBlock, entryTimestampSeconds, MINUTES_PER_BLOCK, markerMinute } from "../../protocol/eblock.js";

/** The JSON text of the `entry-block` result of `block`, recorded in a directory block stamped `dblockTimestampMinutes`. */
export function entryBlockJsonText(block: EntryBlock, dblockTimestampMinutes: number): string {
  const items = block.items;
  const hex = toHex(Buffer.concat(items));
  // each entry's minute is that of the next marker after it (MINUTES_PER_BLOCK when none follows): a backward scan
  const minutes = new Uint8Array(items.length);
  let minute = MINUTES_PER_BLOCK;
  for (let i = items.length - 1; i >= 0; i--) {
    const m = markerMinute(items[i]!);
    if (m === 0) minutes[i] = minute;
    else minute = m;
  }
  const stamps: string[] = [];
  for (let m = 1; m <= MINUTES_PER_BLOCK; m++) stamps[m] = String(entryTimestampSeconds(dblockTimestampMinutes, m));
  let list = "";
  for (let i = 0; i < items.length; i++) {
    const m = minutes[i]!;
    if (m === 0) continue;
    // 64 hex characters per 32-byte item
    list += `${list === "" ? "" : ","}{"entryhash":"${hex.slice(64 * i, 64 * i + 64)}","timestamp":${stamps[m]}}`;
  }
  return (
    `{"header":{"blocksequencenumber":${block.sequence},"chainid":"${toHex(block.chainId)}",` +
    `"prevkeymr":"${toHex(block.prevKeyMR)}","timestamp":${dblockTimestampMinutes * 60},` +
    `"dbheight":${block.dbHeight}},"entrylist":[${list}]}`
  );
}
