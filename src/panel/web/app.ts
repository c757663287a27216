/**
 * The control panel's single-page app (docs/panel.md). Routes are URL fragments:
 *   #/                  overview (heights, minute, rates, queues, storage, health, servers, latest blocks)
 *   #/blocks[/H]        directory blocks, newest first, paged
 *   #/dblock/<h|keymr>  a directory block → its admin, EC, asset and entry blocks
 *   #/eblock/<keymr>    an entry block → its entries (paged)
 *   #/entry/<hash>      an entry, with its receipt verified in the browser
 *   #/chain/<id>        a chain: head, entry blocks (paged)
 *   #/address/<FA|EC>   balance and recent transactions
 *   #/transaction/<id>  an asset transaction
 *   #/ablock|ecblock|fblock/<keymr>  the system blocks
 *   #/search/<text>     what the search box found, or "not found"
 *   #/settings          readwrite only: drop rate, delay, reload-configuration
 * Live parts (heights, minute, charts, latest blocks, health) follow the node's /live feed.
 */

import type { TxIoJson } from "@ledgerd/contract";
import { CHART_WINDOW_SECONDS, RateChart } from "./chart.js";
import { checkReceipt } from "./receipt.js";
import { type ScheduledStatus, scheduledPart } from "./scheduled.js";
import {
  bytes,
  debugRpc,
  fields,
  h,
  hashLink,
  hexText,
  link,
  PanelError,
  rawViews,
  rpc,
  table,
  time,
  view,
} from "./view.js";

interface BlockEvent {
  event: "block";
  height: number;
  keymr: string;
  timestamp: number;
  entryblocks: number;
  entries: number;
  transactions: number;
}
interface FeedEvent {
  event: string;
  [k: string]: unknown;
}
interface Status {
  version: string;
  network: string;
  setting: "readonly" | "readwrite";
  apiport: number;
  blocktimeseconds: number;
  heights: { directoryBlockHeight: number; leaderHeight: number; entryBlockHeight: number; entryHeight: number };
  minute: number;
  blockstartms: number;
  nowms: number;
  stalled: boolean;
  booted: boolean;
  holdingqueue: number;
  processlist: { entries: number; transactions: number };
  storage: { freebytes?: number; totalbytes?: number; databasebytes?: number; reservebytes: number };
  federatedservers: { chainid: string; online: boolean }[];
  auditservers: { chainid: string; online: boolean }[];
  scheduled?: ScheduledStatus;
}

const main = document.getElementById("view") as HTMLElement;
const feedState = document.getElementById("feed-state") as HTMLElement;

/** Listeners of the current page; cleared on every navigation. */
let listeners: ((e: FeedEvent) => void)[] = [];
/** Timers of the current page; cleared on every navigation. */
let timers: number[] = [];
let status: Status | undefined;

// ───────────────────────────── live feed ─────────────────────────────

let retryMs = 500;
function connectFeed(): void {
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/live`);
  ws.onopen = () => {
    retryMs = 500;
    feedState.textContent = "live";
    feedState.className = "feed on";
    ws.send(JSON.stringify({ op: "subscribe", minutes: true, health: true }));
  };
  ws.onmessage = (m) => {
    let e: FeedEvent;
    try {
      e = JSON.parse(String(m.data)) as FeedEvent;
    } catch {
      return;
    }
    for (const l of listeners) l(e);
  };
  ws.onclose = () => {
    feedState.textContent = "reconnecting…";
    feedState.className = "feed off";
    setTimeout(connectFeed, retryMs);
    retryMs = Math.min(retryMs * 2, 10_000);
  };
}

// ───────────────────────────── router ─────────────────────────────

async function route(): Promise<void> {
  listeners = [];
  for (const t of timers) clearInterval(t);
  timers = [];
  const path = decodeURIComponent(location.hash.replace(/^#\/?/, ""));
  const [page = "", arg = "", extra] = path.split("/");
  for (const a of document.querySelectorAll("nav a"))
    a.classList.toggle("active", a.getAttribute("data-page") === (page || "overview"));
  main.replaceChildren(h("p", { class: "loading" }, "Loading…"));
  try {
    const content = await render(page, arg, extra);
    main.replaceChildren(...content);
  } catch (e) {
    main.replaceChildren(errorBox(e));
  }
}

async function render(page: string, arg: string, extra?: string): Promise<Node[]> {
  switch (page) {
    case "":
    case "overview":
      return overview();
    case "blocks":
      return blocks(arg === "" ? undefined : Number(arg));
    case "dblock":
      return dblock(arg);
    case "eblock":
      return eblock(arg, Number(extra ?? 0));
    case "entry":
      return entry(arg);
    case "chain":
      return chain(arg, extra);
    case "address":
      return address(arg);
    case "transaction":
      return transaction(arg);
    case "ablock":
      return systemBlock("Admin block", "admin-block", "ablock", arg);
    case "ecblock":
      return systemBlock("Entry credit block", "entrycredit-block", "ecblock", arg);
    case "fblock":
      return systemBlock("Asset block", "asset-block", "fblock", arg);
    case "search":
      return search(arg);
    case "settings":
      return settings();
    default:
      throw new PanelError(`no page "${page}"`, 404);
  }
}

function errorBox(e: unknown): HTMLElement {
  const notFound = e instanceof PanelError && e.status === 404;
  // a 400 is what was typed or asked (a search the panel cannot read), not a failure of the node
  const notUnderstood = e instanceof PanelError && e.status === 400;
  return h(
    "div",
    { class: notFound ? "notfound" : notUnderstood ? "notunderstood" : "error", role: "alert" },
    h("h2", {}, notFound ? "Not found" : notUnderstood ? "Not understood" : "Something went wrong"),
    h("p", {}, e instanceof Error ? e.message : String(e)),
  );
}

/** `n` with the word for one or for many. */
function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** A block's transaction count: every asset block holds its coinbase, so it is named apart from the rest. */
function transactionsText(n: number): string {
  return n <= 1 ? "coinbase only" : `${n - 1} + coinbase`;
}

// ───────────────────────────── overview ─────────────────────────────

async function overview(): Promise<Node[]> {
  status = await view<Status>("status");
  const s = status;
  const heightEl = h("span", { id: "dbheight", class: "big" }, s.heights.directoryBlockHeight);
  const leaderEl = h("span", { class: "big" }, s.heights.leaderHeight);
  const ebEl = h("span", { class: "big" }, s.heights.entryBlockHeight);
  const entryHEl = h("span", { class: "big" }, s.heights.entryHeight);
  const bar = h("div", { class: "bar-fill" });
  const minuteText = h("span", { id: "minute" }, `minute ${s.minute + 1} of 10`);
  const health = h(
    "span",
    { id: "health", class: s.booted && !s.stalled ? "ok" : "bad" },
    s.booted && !s.stalled ? "healthy" : "not healthy",
  );
  const queue = h("span", {}, s.holdingqueue);
  const plEntries = h("span", {}, s.processlist.entries);
  const plTxs = h("span", {}, s.processlist.transactions);
  const plEntriesWord = h("span", {}, plural(s.processlist.entries, " entry", " entries"));
  const plTxsWord = h(
    "span",
    { id: "pl-txs-word" },
    plural(s.processlist.transactions, " transaction", " transactions"),
  );
  const entriesChart = h("div", { class: "chart", id: "entries-chart" });
  const txChart = h("div", { class: "chart", id: "tx-chart" });
  const latest = h("tbody", { id: "latest" });
  const servers = table(
    ["Server identity chain", "Role", "Online"],
    [
      ...s.federatedservers.map((f) => [hashLink("chain", f.chainid), "federated", f.online ? "online" : "offline"]),
      ...s.auditservers.map((f) => [hashLink("chain", f.chainid), "audit", f.online ? "online" : "offline"]),
    ],
  );

  const blockMs = s.blocktimeseconds * 1000;
  let blockStart = s.blockstartms;
  let minute = s.minute;
  const skew = Date.now() - s.nowms;
  const tick = (): void => {
    const inBlock = Math.min(1, Math.max(0, (Date.now() - skew - blockStart) / blockMs));
    bar.style.width = `${(100 * Math.max(inBlock, minute / 10)).toFixed(1)}%`;
  };
  tick();
  timers.push(window.setInterval(tick, 200));

  /** live blocks that arrive before the history is loaded, added after it */
  const pending: BlockEvent[] = [];
  let loaded = false;
  const charts = {
    entries: new RateChart(entriesChart, "entries/s", "#3b82f6"),
    txs: new RateChart(txChart, "transactions/s", "#10b981"),
  };
  // A point per block time stamp (minute resolution): a minute's blocks add up, over at least a minute.
  const span = Math.max(60, s.blocktimeseconds);
  const addBlock = (b: BlockEvent): void => {
    charts.entries.add(b.timestamp, b.entries / span);
    // the coinbase is in every block; count the rest
    charts.txs.add(b.timestamp, Math.max(0, b.transactions - 1) / span);
    latest.prepend(
      h(
        "tr",
        {},
        h("td", {}, link(`dblock/${b.height}`, String(b.height))),
        h("td", {}, hashLink("dblock", b.keymr)),
        h("td", {}, time(b.timestamp)),
        h("td", {}, b.entries),
        h("td", {}, transactionsText(b.transactions)),
      ),
    );
    while (latest.children.length > 10) latest.lastElementChild?.remove();
  };

  listeners.push((e) => {
    if (e.event === "block") {
      const b = e as unknown as BlockEvent;
      heightEl.textContent = String(b.height);
      ebEl.textContent = String(b.height);
      entryHEl.textContent = String(b.height);
      leaderEl.textContent = String(b.height + 1);
      if (loaded) addBlock(b);
    } else if (e.event === "minute") {
      minute = Number(e.minute) % 10;
      if (minute === 0) blockStart = Date.now() - skew;
      minuteText.textContent = `minute ${minute + 1} of 10`;
      tick();
    } else if (e.event === "health") {
      health.textContent = e.healthy
        ? "healthy"
        : `not healthy${e.writesrefused ? `: writes refused (${String(e.writesrefused)})` : ""}${e.stalled ? ": stalled" : ""}`;
      health.className = e.healthy ? "ok" : "bad";
    }
  });
  // queues and storage: polled (they change with every message)
  timers.push(
    window.setInterval(async () => {
      try {
        const n = await view<Status>("status");
        queue.textContent = String(n.holdingqueue);
        plEntries.textContent = String(n.processlist.entries);
        plTxs.textContent = String(n.processlist.transactions);
        plEntriesWord.textContent = plural(n.processlist.entries, " entry", " entries");
        plTxsWord.textContent = plural(n.processlist.transactions, " transaction", " transactions");
      } catch {
        // the next poll tries again
      }
    }, 2000),
  );

  // History for the charts and the latest blocks, after the first paint: pages of 50 summaries back to an
  // hour ago (at most 4). Live blocks that arrive meanwhile are newer and added after it.
  const live = addBlock;
  listeners.push((e) => {
    if (e.event === "block" && !loaded) pending.push(e as unknown as BlockEvent);
  });
  void (async () => {
    const history: BlockEvent[] = [];
    let before: number | null = s.heights.directoryBlockHeight;
    const oldest = Date.now() / 1000 - CHART_WINDOW_SECONDS;
    for (let page = 0; page < 4 && before !== null; page++) {
      const p: { blocks: BlockEvent[]; next: number | null } = await view("blocks", { before, limit: 50 });
      history.push(...p.blocks);
      before = p.next;
      if (p.blocks.length === 0 || p.blocks[p.blocks.length - 1]!.timestamp < oldest) break;
    }
    for (const b of history.reverse()) live(b);
    for (const b of pending) if (b.height > s.heights.directoryBlockHeight) live(b);
    loaded = true;
  })().catch(() => {
    loaded = true;
  });

  const st = s.storage;
  return [
    h("h1", {}, "Overview"),
    h("p", { class: "sub" }, `ledgerd ${s.version} · ${s.network} · API port ${s.apiport} · panel ${s.setting}`),
    h(
      "div",
      { class: "cards" },
      h("div", { class: "card" }, h("h3", {}, "Directory block height"), heightEl),
      h("div", { class: "card" }, h("h3", {}, "Leader height"), leaderEl),
      h("div", { class: "card" }, h("h3", {}, "Entry block height"), ebEl),
      h("div", { class: "card" }, h("h3", {}, "Entry height"), entryHEl),
    ),
    h(
      "div",
      { class: "card wide" },
      h("h3", {}, "Open block ", h("span", { class: "muted" }, `(block time ${s.blocktimeseconds} s)`)),
      h("div", { class: "bar", role: "progressbar" }, bar),
      minuteText,
    ),
    h(
      "div",
      { class: "cards two" },
      h("div", { class: "card" }, h("h3", {}, "Entries per second (last hour)"), entriesChart),
      h("div", { class: "card" }, h("h3", {}, "Transactions per second (last hour)"), txChart),
    ),
    h(
      "div",
      { class: "cards" },
      h("div", { class: "card" }, h("h3", {}, "Health"), health),
      h("div", { class: "card" }, h("h3", {}, "Holding queue"), queue),
      h("div", { class: "card" }, h("h3", {}, "Process list"), plEntries, plEntriesWord, ", ", plTxs, plTxsWord),
      h(
        "div",
        { class: "card" },
        h("h3", {}, "Storage"),
        `database ${bytes(st.databasebytes)}, free ${bytes(st.freebytes)}`,
        h("br"),
        h("span", { class: "muted" }, `writes refused below ${bytes(st.reservebytes)} free`),
      ),
    ),
    h("h2", {}, "Servers"),
    servers,
    ...(scheduledPart(s.scheduled) ?? []),
    h("h2", {}, "Latest blocks ", link("blocks", "all blocks →", "more")),
    h(
      "table",
      { class: "list" },
      h("thead", {}, h("tr", {}, ...["Height", "KeyMR", "Time", "Entries", "Transactions"].map((x) => h("th", {}, x)))),
      latest,
    ),
  ];
}

// ───────────────────────────── explorer ─────────────────────────────

async function blocks(before?: number): Promise<Node[]> {
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

async function dblock(arg: string): Promise<Node[]> {
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
        height === 0 && status?.network !== "CUSTOM"
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

async function eblock(keymr: string, page: number): Promise<Node[]> {
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

async function entry(hash: string): Promise<Node[]> {
  const e = await rpc("entry", { hash });
  const raw = await rpc("raw-data", { hash });
  const ack = await rpc("ack", {
    hash,
    chainid: e.chainid,
  });
  const show = (hex: string): Node => {
    const t = hexText(hex);
    return t === undefined ? h("code", { class: "hex" }, hex) : h("span", { class: "text" }, t);
  };
  const receiptBox = h("div", { id: "receipt" });
  const entryStatus = "entrydata" in ack ? ack.entrydata.status : undefined;
  const confirmed = entryStatus === "DBlockConfirmed";
  // where the entry is: its entry block, directory block and time (from its receipt, once saved)
  const where = confirmed ? (await rpc("receipt", { hash }).catch(() => undefined))?.receipt : undefined;
  if (confirmed) {
    const verify = h("button", { id: "verify-receipt", type: "button" }, "Verify receipt in this browser");
    verify.onclick = () => void showReceipt(hash, receiptBox);
    receiptBox.append(verify);
  } else
    receiptBox.append(
      h("p", { class: "muted" }, "The receipt is available once the entry is in a saved directory block."),
    );
  return [
    h("h1", {}, "Entry"),
    fields([
      ["Entry hash", h("code", { id: "entry-hash" }, hash)],
      ["Chain", hashLink("chain", e.chainid)],
      ["Status", h("span", { id: "entry-status" }, entryStatus || "Unknown")],
      ...(where === undefined
        ? []
        : ([
            ["Entry block", hashLink("eblock", where.entryblockkeymr)],
            [
              "Directory block",
              link(`dblock/${where.directoryblockheight}`, `block ${where.directoryblockheight}`, "entry-dblock"),
            ],
            [
              "Time",
              where.entry.timestamp === undefined ? "–" : `${time(where.entry.timestamp)} (end of its block-minute)`,
            ],
          ] as [string, Node | string][])),
      ["External IDs", e.extids.length === 0 ? "none" : h("ol", {}, ...e.extids.map((x) => h("li", {}, show(x))))],
      ["Content", show(e.content)],
    ]),
    h("h2", {}, "Receipt"),
    receiptBox,
    rawViews(e, raw.data, "Entry"),
  ];
}

async function showReceipt(hash: string, box: HTMLElement): Promise<void> {
  box.replaceChildren(h("p", {}, "Checking…"));
  const { receipt } = await rpc("receipt", { hash });
  const check = await checkReceipt(receipt);
  // the directory block KeyMR the receipt ends at must be this node's block at that height
  const d = await rpc("dblock-by-height", { height: receipt.directoryblockheight });
  const sameBlock = d.dblock.keymr === receipt.directoryblockkeymr;
  const ok = check.ok && sameBlock;
  box.replaceChildren(
    h(
      "p",
      { id: "receipt-verdict", class: ok ? "ok" : "bad" },
      ok
        ? `✓ Verified in this browser: the entry is in entry block ${receipt.entryblockkeymr.slice(0, 12)}… and directory block ${receipt.directoryblockheight}.`
        : `✗ The receipt does not verify: ${check.reason ?? "its directory block KeyMR is not this node's block at that height"}.`,
    ),
    h(
      "ol",
      { class: "steps" },
      h("li", {}, "Start from the entry hash ", h("code", {}, receipt.entry.entryhash)),
      ...check.steps.map((s) =>
        h(
          "li",
          { class: s.ok ? "ok" : "bad" },
          `It is the ${s.side} child; sha256(left ‖ right) = `,
          h("code", {}, s.computed),
          s.ok ? " = top ✓" : " ≠ top ✗",
          s.reaches ? h("strong", {}, ` — the ${s.reaches} KeyMR`) : null,
          h("div", { class: "pair" }, "left ", h("code", {}, s.left), h("br"), "right ", h("code", {}, s.right)),
        ),
      ),
      h(
        "li",
        { class: sameBlock ? "ok" : "bad" },
        `Directory block ${receipt.directoryblockheight} on this node has KeyMR `,
        h("code", {}, d.dblock.keymr),
        sameBlock ? " — the receipt's ✓" : " — not the receipt's ✗",
      ),
    ),
    rawViews(receipt, undefined, "Receipt"),
  );
}

async function chain(id: string, from?: string): Promise<Node[]> {
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

async function address(a: string): Promise<Node[]> {
  const r: {
    address: string;
    kind: "FA" | "EC";
    balance: { ack: number; saved: number };
    transactions: {
      height: number;
      txid: string;
      inputs: { useraddress: string; amount: number }[];
      outputs: unknown[];
      outecs: unknown[];
    }[];
    scannedfrom: number;
    scannedto: number;
  } = await view("address", { a });
  const amount = (n: number): string =>
    r.kind === "FA" ? `${(n / 1e8).toFixed(8)} (${n} base units)` : `${n} entry credits`;
  return [
    h("h1", {}, r.kind === "FA" ? "Asset address" : "Entry credit address"),
    fields([
      ["Address", h("code", {}, r.address)],
      ["Balance", amount(r.balance.ack)],
      ["Balance in saved blocks", amount(r.balance.saved)],
    ]),
    h("h2", {}, `Transactions in blocks ${r.scannedfrom}–${r.scannedto}`),
    r.transactions.length === 0
      ? h("p", { class: "muted" }, "none")
      : table(
          ["Block", "Transaction"],
          r.transactions.map((t) => [link(`dblock/${t.height}`, String(t.height)), hashLink("transaction", t.txid)]),
        ),
  ];
}

/** Base units per asset unit (10^8, as the reference's factoshis per factoid). */
const BASE_UNITS_PER_ASSET = 1e8;

async function transaction(txid: string): Promise<Node[]> {
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

async function systemBlock(
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

async function search(text: string): Promise<Node[]> {
  const r: { found: boolean; kind?: string; id?: string; notfound?: boolean; message?: string } = await view("search", {
    q: text,
  });
  if (!r.found) throw new PanelError(r.message ?? "not found", r.notfound ? 404 : 400);
  location.replace(`#/${r.kind}/${r.id}`);
  return [h("p", {}, "Found.")];
}

// ───────────────────────────── settings (readwrite) ─────────────────────────────

async function settings(): Promise<Node[]> {
  status ??= await view<Status>("status");
  if (status.setting !== "readwrite")
    return [
      h("h1", {}, "Settings"),
      h(
        "p",
        {},
        "This panel is read-only (ControlPanelSetting = readonly). Set it to readwrite to change the knobs here.",
      ),
    ];
  const drop = await debugRpc("drop-rate", undefined);
  const delay = await debugRpc("delay", undefined);
  const out = h("p", { id: "settings-result", role: "status" });
  const knob = (
    id: string,
    label: string,
    value: number,
    unit: string,
    set: (v: number) => Promise<unknown>,
  ): HTMLElement => {
    const input = h("input", { id, type: "number", min: "0", value: String(value) });
    const button = h("button", { type: "button", id: `${id}-set` }, "Set");
    button.onclick = async () => {
      try {
        const r = await set(Number(input.value));
        out.textContent = `${label}: ${JSON.stringify(r)}`;
        out.className = "ok";
      } catch (e) {
        out.textContent = e instanceof Error ? e.message : String(e);
        out.className = "bad";
      }
    };
    return h("div", { class: "knob" }, h("label", { for: id }, `${label} (${unit})`), input, button);
  };
  const reload = h("button", { type: "button", id: "reload-configuration" }, "Reload the configuration file");
  reload.onclick = async () => {
    try {
      await debugRpc("reload-configuration", undefined);
      out.textContent = "configuration reloaded";
      out.className = "ok";
    } catch (e) {
      out.textContent = e instanceof Error ? e.message : String(e);
      out.className = "bad";
    }
  };
  return [
    h("h1", {}, "Settings"),
    h("p", { class: "muted" }, "Network-testing knobs of the API's message intake (ControlPanelSetting = readwrite)."),
    knob("drop-rate", "Drop rate", drop.DropRate, "per 1000 submitted messages", (v) =>
      debugRpc("set-drop-rate", { DropRate: v }),
    ),
    knob("delay", "Delay", delay.Delay, "ms per submitted message", (v) => debugRpc("set-delay", { Delay: v })),
    h("div", { class: "knob" }, reload),
    out,
  ];
}

// ───────────────────────────── start ─────────────────────────────

const form = document.getElementById("search") as HTMLFormElement;
form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const q = (form.elements.namedItem("q") as HTMLInputElement).value.trim();
  if (q !== "") location.hash = `#/search/${encodeURIComponent(q)}`;
});
window.addEventListener("hashchange", () => void route());
void view<Status>("status").then((s) => {
  status = s;
  if (s.setting === "readwrite") document.getElementById("nav-settings")?.removeAttribute("hidden");
});
connectFeed();
void route();
