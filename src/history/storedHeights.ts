/**
 * One saved height's block set, read back from a data directory as raw protocol bytes (the export's records,
 * and what `ledgerd verify` checks): the four system blocks by the height index, then every entry block the
 * directory block names, with its entries in item order.
 */
import { toHex } from "../protocol/bytes.js";
import { decodeDirectoryBlock } from "../protocol/dblock.js";
import { decodeEntryBlock, entriesWithMinutes } from "../protocol/eblock.js";
import type { DirectoryReader } from "../store/directoryReader.js";
import { BlockKind } from "../store/keys.js";
import { HistoryError } from "./errors.js";
import type { HeightSet } from "./format.js";

const KIND_NAMES: Record<number, string> = {
  [BlockKind.directory]: "directory",
  [BlockKind.admin]: "admin",
  [BlockKind.ec]: "EC",
  [BlockKind.asset]: "asset",
  [BlockKind.entry]: "entry",
};

/** Height `height`'s set; throws HistoryError BAD_DIRECTORY naming what is missing or does not decode. */
export function readHeightSet(reader: DirectoryReader, height: number): HeightSet {
  const fail = (info: string): HistoryError =>
    new HistoryError({ code: "BAD_DIRECTORY", path: reader.path, height, info });
  const system = (kind: BlockKind): Uint8Array => {
    const hash = reader.blockHashAt(kind, height);
    if (hash === undefined) throw fail(`no ${KIND_NAMES[kind]} block in the height index`);
    const b = reader.block(hash);
    if (b === undefined) throw fail(`the ${KIND_NAMES[kind]} block ${toHex(hash)} of the height index is missing`);
    if (b.kind !== kind)
      throw fail(
        `the block ${toHex(hash)} is saved as a ${KIND_NAMES[b.kind] ?? b.kind} block, not ${KIND_NAMES[kind]}`,
      );
    return b.raw;
  };
  const directory = system(BlockKind.directory);
  let dblock: ReturnType<typeof decodeDirectoryBlock>;
  try {
    dblock = decodeDirectoryBlock(directory);
  } catch (e) {
    throw fail(`the directory block does not decode: ${e instanceof Error ? e.message : String(e)}`);
  }
  const set: HeightSet = {
    height,
    directory,
    admin: system(BlockKind.admin),
    ec: system(BlockKind.ec),
    asset: system(BlockKind.asset),
    entryBlocks: [],
  };
  for (let place = 3; place < dblock.entries.length; place++) {
    const keyMR = dblock.entries[place]!.keyMR;
    const b = reader.block(keyMR);
    if (b === undefined) throw fail(`entry block ${toHex(keyMR)} (directory block entry ${place}) is missing`);
    if (b.kind !== BlockKind.entry) throw fail(`the block ${toHex(keyMR)} is not saved as an entry block`);
    let listed: ReturnType<typeof entriesWithMinutes>;
    try {
      listed = entriesWithMinutes(decodeEntryBlock(b.raw, { verifyBodyMR: false }));
    } catch (e) {
      throw fail(`entry block ${toHex(keyMR)} does not decode: ${e instanceof Error ? e.message : String(e)}`);
    }
    const entries: Uint8Array[] = [];
    for (const item of listed) {
      const raw = reader.entryRaw(item.entryHash);
      if (raw === undefined) throw fail(`entry ${toHex(item.entryHash)} of entry block ${toHex(keyMR)} is missing`);
      entries.push(raw);
    }
    set.entryBlocks.push({ raw: b.raw, entries });
  }
  return set;
}
