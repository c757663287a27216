/**
 * The query extensions' brute-force reference (test/integration/query-index*.test.ts): every saved entry and
 * address item up to a height, walked through the spec's methods only (dblock-by-height → entry-block → entry;
 * fblock-by-height; ecblock-by-height's raw block, whose commits' txids are computed here), and the helpers
 * that compare the extensions' pages with it.
 */
import { encodeAddress } from "../../src/protocol/address.js";
import { fromHex, toHex } from "../../src/protocol/bytes.js";
import { commitTxId } from "../../src/protocol/commit.js";
import { decodeECBlock } from "../../src/protocol/ecblock.js";

/** A JSON-RPC call answering `result` (LedgerdProcess.rpc, a devnet node's client.call). */
export type Call = <T>(method: string, params?: unknown) => Promise<T>;

/** An entry as the brute-force walk finds it. */
export interface Walked {
  chainid: string;
  entryhash: string;
  extids: string[];
  content: string;
  dbheight: number;
  entryblockkeymr: string;
  timestamp: number;
  position: number;
  /** first entry of its chain */
  first: boolean;
}

export interface AddressItem {
  kind: string;
  txid: string;
  dbheight: number;
  timestamp: number;
  amount: string;
}

/** Every saved entry and address item up to `height`, in ledger order, through the spec's methods. */
export async function walk(
  call: Call,
  height: number,
): Promise<{ entries: Walked[]; addresses: Map<string, AddressItem[]> }> {
  const entries: Walked[] = [];
  const addresses = new Map<string, AddressItem[]>();
  const add = (address: string, item: AddressItem): void => {
    const list = addresses.get(address) ?? [];
    list.push(item);
    addresses.set(address, list);
  };
  for (let h = 0; h <= height; h++) {
    const d = await call<{ dblock: { dbentries: { chainid: string; keymr: string }[] } }>("dblock-by-height", {
      height: h,
    });
    for (const de of d.dblock.dbentries.slice(3)) {
      const eb = await call<{
        header: { chainid: string; dbheight: number; blocksequencenumber: number };
        entrylist: { entryhash: string; timestamp: number }[];
      }>("entry-block", { keymr: de.keymr });
      let position = 0;
      for (const e of eb.entrylist) {
        const got = await call<{ chainid: string; content: string; extids: string[] }>("entry", {
          hash: e.entryhash,
        });
        entries.push({
          chainid: eb.header.chainid,
          entryhash: e.entryhash,
          extids: got.extids,
          content: got.content,
          dbheight: eb.header.dbheight,
          entryblockkeymr: de.keymr,
          timestamp: e.timestamp,
          position,
          first: eb.header.blocksequencenumber === 0 && position === 0,
        });
        position++;
      }
    }
    const f = await call<{
      fblock: {
        exchrate: number;
        transactions: {
          txid: string;
          millitimestamp: number;
          inputs: { amount: number; useraddress: string }[];
          outputs: { amount: number; useraddress: string }[];
          outecs: { amount: number; useraddress: string }[];
        }[];
      };
    }>("fblock-by-height", { height: h });
    for (const tx of f.fblock.transactions) {
      const timestamp = Math.floor(tx.millitimestamp / 1000);
      for (const io of tx.inputs)
        add(io.useraddress, { kind: "input", txid: tx.txid, dbheight: h, timestamp, amount: String(io.amount) });
      for (const io of tx.outputs)
        add(io.useraddress, { kind: "output", txid: tx.txid, dbheight: h, timestamp, amount: String(io.amount) });
      for (const io of tx.outecs)
        add(io.useraddress, {
          kind: "ecpurchase",
          txid: tx.txid,
          dbheight: h,
          timestamp,
          amount: String(BigInt(io.amount) / BigInt(f.fblock.exchrate)),
        });
    }
    const ec = await call<{ rawdata: string }>("ecblock-by-height", { height: h });
    for (const item of decodeECBlock(fromHex(ec.rawdata)).items) {
      if (item.type === "entryCommit" || item.type === "chainCommit")
        add(encodeAddress("EC", item.commit.ecPublicKey), {
          kind: item.type === "chainCommit" ? "chaincommit" : "commit",
          txid: toHex(commitTxId(item.commit)),
          dbheight: h,
          timestamp: Math.floor(item.commit.milliTime / 1000),
          amount: String(item.commit.credits),
        });
    }
  }
  return { entries, addresses };
}

/** Every page of a paged method, following nextcursor until "". */
export async function allPages<R extends { nextcursor: string }>(
  call: Call,
  method: string,
  params: Record<string, unknown>,
  pick: (r: R) => unknown[],
): Promise<unknown[]> {
  const out: unknown[] = [];
  let cursor = "";
  for (let pages = 0; pages < 10_000; pages++) {
    const r = await call<R>(method, { ...params, cursor });
    out.push(...pick(r));
    if (r.nextcursor === "") return out;
    cursor = r.nextcursor;
  }
  throw new Error(`${method}: more than 10,000 pages`);
}

export function entryView(w: Walked, withChain: boolean): Record<string, unknown> {
  return {
    entryhash: w.entryhash,
    ...(withChain ? { chainid: w.chainid } : {}),
    extids: w.extids,
    content: w.content,
    dbheight: w.dbheight,
    entryblockkeymr: w.entryblockkeymr,
    timestamp: w.timestamp,
    position: w.position,
  };
}

/** Do `have` ext IDs (hex) start with `wanted` (the last equal, or a prefix of it)? */
export function extIdsMatch(have: string[], wanted: string[], match: "exact" | "prefix"): boolean {
  if (have.length < wanted.length) return false;
  const last = wanted.length - 1;
  for (let i = 0; i < last; i++) if (have[i] !== wanted[i]) return false;
  return match === "exact" ? have[last] === wanted[last] : have[last]!.startsWith(wanted[last]!);
}
