/**
 * `ledgerd verify`: checks a stopped node's data directory from end to end (docs/export.md §5). Every page is
 * read first (a damaged page is a clear refusal); then every height from 0 is read back as raw blocks and put
 * through the same checker as an import (checker.ts: hashes, Merkle roots, links, signatures, balances never
 * below zero), and every record the node saved for the height is compared with what the blocks imply: the
 * height index and block aliases, entry, transaction and commit locations, paid commits, the query index's
 * records (of the heights its marker says it holds: a node run with -queryindex=false, or whose rebuild has not
 * finished, has a shorter index, rebuilt at its next start with the index on; VerifyResult.queryIndexed). At the
 * end: balances and EC balances recomputed from the blocks equal the saved ones (and no saved balance is
 * unexplained), chain heads, the query index's per-chain counts over the indexed heights and its marker.
 *
 * The first difference is thrown as HistoryError BAD_DIRECTORY with the height it was found at. Writes nothing.
 */
import { bytesEqual, toHex } from "../protocol/bytes.js";
import type { DirectoryReader, ListedDb } from "../store/directoryReader.js";
import { type CheckedHeight, type CheckerOptions, HistoryChecker } from "./checker.js";
import { HistoryError } from "./errors.js";
import type { Progress } from "./progress.js";
import { readHeightSet } from "./storedHeights.js";

export interface VerifyResult {
  heights: number;
  entries: number;
  ms: number;
  /**
   * Heights 0..queryIndexed − 1 hold query-index records, checked; the rest have none yet (a node that ran with
   * -queryindex=false, a rebuild not finished, an index of another layout): a node with the index on indexes them at
   * its next start (store/queryIndexRebuild.ts). Equal to `heights` when the index is complete.
   */
  queryIndexed: number;
}

/**
 * Verify the directory `reader` reads (opened by the caller, who holds its lock). `network`/`networkId`: what
 * it must be. Throws HistoryError (BAD_DIRECTORY, REFUSED) or StoreError (a record that does not decode).
 */
export function verifyDirectory(
  reader: DirectoryReader,
  expect: { network: string } & CheckerOptions,
  progress?: Progress,
): VerifyResult {
  const started = performance.now();
  const id = reader.identity();
  if (id.network !== expect.network || id.networkId !== expect.networkId)
    throw new HistoryError({
      code: "REFUSED",
      info: `${reader.path} holds the ${id.network} network (id 0x${id.networkId.toString(16)}), not ${expect.network} (id 0x${expect.networkId.toString(16)})`,
    });
  const checker = new HistoryChecker(expect);
  // the query index is checked where its marker says it is (heights below `next`); a lagging one is no damage
  const marker = reader.queryIndexMarker();
  const queryIndexed = marker?.current === true ? Math.min(marker.next, id.savedHeight + 1) : 0;
  const lastChanged = { asset: new Map<string, number>(), ec: new Map<string, number>() };
  const chainEntries = new Map<string, { chainId: Uint8Array; count: bigint }>();
  let entries = 0;
  for (let height = 0; height <= id.savedHeight; height++) {
    const fail = (info: string): HistoryError =>
      new HistoryError({ code: "BAD_DIRECTORY", path: reader.path, height, info });
    const set = readHeightSet(reader, height);
    let checked: CheckedHeight;
    try {
      checked = checker.check(set);
    } catch (e) {
      if (e instanceof HistoryError && e.type.code === "BAD_BLOCK") throw fail(`the saved blocks: ${e.type.info}`);
      throw e;
    }
    const problem =
      compareHeight(reader, height, checked) ?? (height < queryIndexed ? reader.queryIndexProblem(height) : undefined);
    if (problem !== undefined) throw fail(problem);
    for (const b of checked.write.assetBalances) lastChanged.asset.set(toHex(b.address), height);
    for (const b of checked.write.ecBalances) lastChanged.ec.set(toHex(b.publicKey), height);
    for (const e of checked.write.entries) {
      if (height >= queryIndexed) break; // the index's chain counts cover the indexed heights only
      const chainId = e.raw.subarray(1, 33);
      const k = toHex(chainId);
      const c = chainEntries.get(k) ?? { chainId: chainId.slice(), count: 0n };
      c.count++;
      chainEntries.set(k, c);
    }
    entries += checked.entries;
    progress?.update(height + 1, entries);
  }
  progress?.end();
  const problem = compareTotals(reader, checker, lastChanged, chainEntries, id.savedHeight);
  if (problem !== undefined)
    throw new HistoryError({ code: "BAD_DIRECTORY", path: reader.path, height: problem.height, info: problem.info });
  return { heights: id.savedHeight + 1, entries, ms: performance.now() - started, queryIndexed };
}

/** The first saved record of `height` that differs from what its blocks imply, or undefined. */
function compareHeight(reader: DirectoryReader, height: number, checked: CheckedHeight): string | undefined {
  const w = checked.write;
  for (const b of w.blocks) {
    const saved = reader.block(b.primary);
    if (saved === undefined) return `block ${toHex(b.primary)} is not saved under its own hash`;
    if (saved.kind !== b.kind || !bytesEqual(saved.raw, b.raw))
      return `the block saved under ${toHex(b.primary)} is not the block of that hash`;
    if (b.secondary !== undefined) {
      const alias = reader.alias(b.secondary);
      if (alias === undefined || !bytesEqual(alias, b.primary))
        return `the alias ${toHex(b.secondary)} does not point at block ${toHex(b.primary)}`;
    }
    if (b.height !== undefined) {
      const indexed = reader.blockHashAt(b.kind, height);
      if (indexed === undefined || !bytesEqual(indexed, b.primary))
        return `the height index names ${indexed === undefined ? "nothing" : toHex(indexed)} for the block ${toHex(b.primary)}`;
    }
  }
  for (const e of w.entries) {
    const loc = reader.entryLocation(e.entryHash);
    if (loc === undefined) return `entry ${toHex(e.entryHash)} has no location record`;
    if (loc.height > height) continue; // revealed again later: that height's check compares it
    if (loc.height !== height || !bytesEqual(loc.entryBlockKeyMR, e.location.entryBlockKeyMR))
      return `entry ${toHex(e.entryHash)}'s location says height ${loc.height} block ${toHex(loc.entryBlockKeyMR)}, the blocks say ${height} ${toHex(e.location.entryBlockKeyMR)}`;
    if (!bytesEqual(loc.commitTxId, e.location.commitTxId))
      return `entry ${toHex(e.entryHash)}'s location names commit ${toHex(loc.commitTxId)}, the blocks ${toHex(e.location.commitTxId)}`;
  }
  for (const t of w.transactions)
    for (const key of t.keys) {
      const loc = reader.transactionLocation(key);
      if (loc === undefined) return `transaction ${toHex(key)} has no location record`;
      if (
        loc.height !== height ||
        loc.index !== t.location.index ||
        !bytesEqual(loc.assetBlockKeyMR, t.location.assetBlockKeyMR)
      )
        return `transaction ${toHex(key)}'s location says height ${loc.height} index ${loc.index}, the blocks say ${height} index ${t.location.index}`;
    }
  for (const c of w.commits)
    for (const key of c.keys) {
      const loc = reader.commitLocation(key);
      if (loc === undefined) return `commit ${toHex(key)} has no location record`;
      if (loc.height > height) continue;
      if (
        loc.height !== height ||
        loc.index !== c.location.index ||
        !bytesEqual(loc.ecBlockHeaderHash, c.location.ecBlockHeaderHash)
      )
        return `commit ${toHex(key)}'s location says height ${loc.height} item ${loc.index}, the blocks say ${height} item ${c.location.index}`;
    }
  for (const p of w.paidCommits) {
    const saved = reader.paidCommit(p.entryHash);
    const want = p.record;
    if (saved === undefined) return `entry hash ${toHex(p.entryHash)} has no paid-commit record`;
    if (saved.height > height) continue; // paid again later
    if (saved.height !== want.height || !bytesEqual(saved.txId, want.txId))
      return `entry hash ${toHex(p.entryHash)}'s paid commit is ${toHex(saved.txId)} of height ${saved.height}, the blocks say ${toHex(want.txId)} of ${want.height}`;
    if (
      saved.kind !== want.kind ||
      saved.credits !== want.credits ||
      saved.milliTime !== want.milliTime ||
      !bytesEqual(saved.chainIdHash, want.chainIdHash) ||
      (want.revealed && !saved.revealed)
    )
      return `entry hash ${toHex(p.entryHash)}'s paid-commit record differs from its commit in the EC block`;
  }
  return undefined;
}

/** The first saved balance, chain head or index total that differs from what all the blocks imply. */
function compareTotals(
  reader: DirectoryReader,
  checker: HistoryChecker,
  lastChanged: { asset: Map<string, number>; ec: Map<string, number> },
  chainEntries: Map<string, { chainId: Uint8Array; count: bigint }>,
  savedHeight: number,
): { height: number | undefined; info: string } | undefined {
  const { asset, ec } = checker.balances();
  const balances: [
    string,
    ListedDb,
    ReadonlyMap<string, bigint>,
    Map<string, number>,
    (k: Uint8Array) => bigint | undefined,
  ][] = [
    ["balance of address", "assetBalances", asset, lastChanged.asset, (k) => reader.assetBalance(k)],
    ["EC balance of key", "ecBalances", ec, lastChanged.ec, (k) => reader.ecBalance(k)],
  ];
  for (const [what, db, computed, changed, saved] of balances) {
    for (const [k, want] of computed) {
      const have = saved(Buffer.from(k, "hex"));
      if (have !== want)
        return {
          height: changed.get(k),
          info: `the saved ${what} ${k} is ${have ?? "missing"}, the blocks (last changing it at this height) make it ${want}`,
        };
    }
    for (const key of reader.keys(db))
      if (!computed.has(toHex(key)))
        return { height: undefined, info: `a saved ${what} ${toHex(key)} that no block explains` };
  }
  const heads = checker.chainHeads();
  for (const [k, want] of heads) {
    const have = reader.chainHead(Buffer.from(k, "hex"));
    if (
      have === undefined ||
      !bytesEqual(have.keyMR, want.keyMR) ||
      !bytesEqual(have.fullHash, want.fullHash) ||
      have.sequence !== want.sequence ||
      have.height !== want.height
    )
      return {
        height: want.height,
        info: `chain ${k}'s saved head is ${have === undefined ? "missing" : `${toHex(have.keyMR)} (height ${have.height})`}, the blocks make it ${toHex(want.keyMR)}`,
      };
  }
  for (const key of reader.keys("chainHeads"))
    if (!heads.has(toHex(key)))
      return { height: undefined, info: `a saved chain head of chain ${toHex(key)} that no block explains` };
  for (const [k, c] of chainEntries) {
    const have = reader.queryChainCount(c.chainId);
    if (have !== c.count)
      return {
        height: undefined,
        info: `the query index counts ${have ?? "no"} entries of chain ${k}, the blocks hold ${c.count}`,
      };
  }
  // a marker behind the saved height is an index not built yet (see VerifyResult.queryIndexed); one ahead of it is
  // an index of blocks this directory does not hold
  const marker = reader.queryIndexMarker();
  if (marker?.current === true && marker.next > savedHeight + 1)
    return {
      height: undefined,
      info: `the query index marker is at ${marker.next}, past the saved height ${savedHeight}`,
    };
  return undefined;
}
