/**
 * The control panel's explorer pages (docs/panel.md §Explorer): directory blocks, a directory block, an entry
 * block, a chain's entry blocks, an asset transaction and the system blocks.
 */
import type { TxIoJson } from "@ledgerd/contract";
import { type BlockEvent, page as current, transactionsText } from "./state.js";
import { fields, h, hashLink, link, PanelError, rawViews, rpc, table, time, view } from "./view.js";

export async function blocks(before?: number): Promise<Node[]> {
  const p: { saved: number; blocks: BlockEvent[]; next: number | null } = await view("blocks", {
    ...(before !== undefined ? { before } : {}),
    limit: 25,
  });
  return [
    h("h1", {}, "Directory blocks"),
    table(
      ["Height", "KeyMR", "Time", "Entry blocks", "Entries", "Transactions"],
      p.blocks.map((b) => [
        link(`dblock/${b.height}`, String(b.height)),
        hashLink("dblock", b.keymr),
        time(b.timestamp),
        b.entryblocks,
        b.entries,
        transactionsText(b.transactions),
      ]),
    ),
    h(
      "p",
      { class: "pager" },
      before !== undefined && before < p.saved ? link(`blocks/${Math.min(p.saved, before + 25)}`, "← newer") : null,
      " ",
      p.next !== null ? link(`blocks/${p.next}`, "older →") : null,
    ),
  ];
}

const SYSTEM_CHAINS: Record<string, [string, string]> = {
  ["0".repeat(63) + "a"]: ["admin block", "ablock"],
  ["0".repeat(63) + "c"]: ["entry credit block", "ecblock"],
  ["0".repeat(63) + "f"]: ["asset block", "fblock"],
};

export async function dblock(arg: string): Promise<Node[]> {
  let height: number;
  // a height has fewer than 64 digits: 64 hex characters are a KeyMR even when all are digits
  if (/^\d{1,63}$/.test(arg)) height = Number(arg);
  else height = (await rpc("directory-block", { keymr: arg })).header.sequencenumber;
  const r = await rpc("dblock-by-height", { height });
  const d = r.dblock;
  return [
    h("h1", {}, `Directory block ${height}`),
    fields([
      ["KeyMR", h("code", { id: "dblock-keymr" }, d.keymr)],
      [
        "Time",
        height === 0 && current.status?.network !== "CUSTOM"
          ? `${time(Number(d.header.timestamp) * 60)} (the reference network's genesis time: this network starts from the same genesis block)`
          : time(Number(d.header.timestamp) * 60),
      ],
      ["Previous", height > 0 ? link(`dblock/${height - 1}`, `block ${height - 1}`) : "genesis"],
      ["Next", link(`dblock/${height + 1}`, `block ${height + 1}`)],
      ["Body MR", h("code", {}, String(d.header.bodymr))],
    ]),
    h("h2", {}, `Blocks (${d.dbentries.length})`),
    table(
      ["Kind", "Chain", "KeyMR"],
      d.dbentries.map((e) => {
        const system = SYSTEM_CHAINS[e.chainid];
        return system
          ? [system[0], h("code", {}, e.chainid.replace(/^0+/, "…")), hashLink(system[1], e.keymr)]
          : ["entry block", hashLink("chain", e.chainid), hashLink("eblock", e.keymr)];
      }),
    ),
    rawViews(d, r.rawdata),
  ];
}

/** Entries per page of an entry block. */
const ENTRIES_PER_PAGE = 100;

export async function eblock(keymr: string, page: number): Promise<Node[]> {
  const r = await rpc("entry-block", { keymr });
  const raw = await rpc("raw-data", { hash: keymr });
  const list = r.entrylist;
  const pages = Math.max(1, Math.ceil(list.length / ENTRIES_PER_PAGE));
  const shown = list.slice(page * ENTRIES_PER_PAGE, (page + 1) * ENTRIES_PER_PAGE);
  const zero = "0".repeat(64);
  return [
    h("h1", {}, "Entry block"),
    fields([
      ["KeyMR", h("code", {}, keymr)],
      ["Chain", hashLink("chain", r.header.chainid)],
      ["Directory block", link(`dblock/${r.header.dbheight}`, `block ${r.header.dbheight}`)],
      ["Sequence", r.header.blocksequencenumber],
      ["Previous", r.header.prevkeymr === zero ? "first block of the chain" : hashLink("eblock", r.header.prevkeymr)],
      ["Entries", list.length],
    ]),
    h("h2", {}, "Entries"),
    table(
      // the protocol stamps an entry with the end of its block-minute: with short test blocks several blocks
      // share a minute and the time may lie a little ahead of the clock
      ["#", "Entry hash", "Time (end of its block-minute)"],
      shown.map((e, i) => [page * ENTRIES_PER_PAGE + i + 1, hashLink("entry", e.entryhash), time(e.timestamp)]),
    ),
    pages > 1
      ? h(
          "p",
          { class: "pager" },
          page > 0 ? link(`eblock/${keymr}/${page - 1}`, "← previous") : null,
          ` page ${page + 1} of ${pages} `,
          page + 1 < pages ? link(`eblock/${keymr}/${page + 1}`, "next →") : null,
        )
      : h("span"),
    rawViews(r, raw.data),
  ];
}

export async function chain(id: string, from?: string): Promise<Node[]> {
  const c: {
    chainid: string;
    head: string | null;
    inprocesslist: boolean;
    eblocks: { keymr: string; height: number; sequence: number; entries: number }[];
    next: string | null;
  } = await view("chain", { id, ...(from ? { from } : {}) });
  return [
    h("h1", {}, "Chain"),
    fields([
      ["Chain ID", h("code", {}, c.chainid)],
      ["Head", c.head === null ? "not yet in a saved block" : hashLink("eblock", c.head)],
      ["Newer entries in the open block", c.inprocesslist ? "yes" : "no"],
    ]),
    h("h2", {}, "Entry blocks, newest first"),
    table(
      ["Sequence", "KeyMR", "Directory block", "Entries"],
      c.eblocks.map((b) => [
        b.sequence,
        hashLink("eblock", b.keymr),
        link(`dblock/${b.height}`, String(b.height)),
        b.entries,
      ]),
    ),
    h("p", { class: "pager" }, c.next !== null ? link(`chain/${id}/${c.next}`, "older →") : null),
  ];
}

/** Base units per asset unit (10^8, as the reference's factoshis per factoid). */
const BASE_UNITS_PER_ASSET = 1e8;

export async function transaction(txid: string): Promise<Node[]> {
  const t = await rpc("transaction", { hash: txid });
  const raw = await rpc("raw-data", { hash: txid }).catch(() => ({ data: undefined }));
  const tx = t.assettransaction;
  if (tx === undefined)
    throw new PanelError(
      t.ectransaction !== undefined
        ? `${txid} is an entry credit commit, not an asset transaction: its entry block lists it`
        : `not found: no transaction has the hash ${txid}`,
      404,
    );
  const io = (label: string, list: TxIoJson[], unit: "asset" | "EC"): [string, Node | string] => [
    label,
    list.length === 0
      ? "none"
      : h(
          "ul",
          { class: "io", "data-kind": label },
          ...list.map((x) =>
            h(
              "li",
              {},
              link(`address/${x.useraddress}`, x.useraddress),
              unit === "asset"
                ? ` ${(Number(x.amount) / BASE_UNITS_PER_ASSET).toFixed(8)} (${x.amount} base units)`
                : ` ${x.amount} base units`,
            ),
          ),
        ),
  ];
  const coinbase = tx.inputs.length === 0;
  return [
    h("h1", {}, coinbase ? "Transaction (coinbase)" : "Transaction"),
    coinbase
      ? h(
          "p",
          { class: "muted", id: "coinbase-note" },
          "The coinbase: every asset block starts with it. It has no inputs and, on a network without payouts, no outputs either.",
        )
      : h("span"),
    fields([
      ["Transaction ID", h("code", { id: "txid" }, txid)],
      ["Time", new Date(tx.millitimestamp).toLocaleString()],
      [
        "Directory block",
        t.includedindirectoryblockheight >= 0
          ? link(`dblock/${t.includedindirectoryblockheight}`, String(t.includedindirectoryblockheight))
          : "not yet saved",
      ],
      io("Inputs", tx.inputs, "asset"),
      io("Outputs", tx.outputs, "asset"),
      io("EC outputs", tx.outecs, "EC"),
    ]),
    rawViews(t, raw.data),
  ];
}

export async function systemBlock(
  title: string,
  method: "admin-block" | "entrycredit-block" | "asset-block",
  kind: string,
  keymr: string,
): Promise<Node[]> {
  const r = await rpc(method, { keymr });
  const { rawdata, ...rest } = r;
  const block = (Object.values(rest)[0] ?? {}) as { header?: { dbheight?: number }; dbheight?: number };
  const height = block.header?.dbheight ?? block.dbheight;
  // what the block lists, linked: an asset block's transactions, an EC block's commits (to their entries)
  const b = block as { transactions?: { txid: string }[]; body?: { entries?: { entryhash?: string }[] } };
  const items =
    kind === "fblock"
      ? table(
          ["#", "Transaction"],
          (b.transactions ?? []).map((t, i) => [i === 0 ? "coinbase" : i, hashLink("transaction", t.txid)]),
        )
      : kind === "ecblock"
        ? table(
            ["Commit for entry"],
            (b.body?.entries ?? [])
              .filter((e) => e.entryhash !== undefined)
              .map((e) => [hashLink("entry", e.entryhash!)]),
          )
        : h("span");
  return [
    h("h1", {}, title),
    fields([
      ["KeyMR", h("code", {}, keymr)],
      ["Directory block", height !== undefined ? link(`dblock/${height}`, String(height)) : "–"],
      ["Kind", kind],
    ]),
    items,
    h("pre", { class: "json" }, JSON.stringify(rest, null, 2)),
    rawViews(rest, rawdata),
  ];
}
