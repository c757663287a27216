/**
 * The control panel's single-page app (docs/panel.md). Routes are URL fragments:
 *   #/                  overview (heights, minute, rates, queues, storage, health, servers, latest blocks)
 *   #/blocks[/H]        directory blocks, newest first, paged
 *   #/dblock/<h|keymr>  a directory block → its admin, EC, asset and entry blocks
 *   #/eblock/<keymr>    an entry block → its entries (paged)
 *   #/entry/<hash>      an entry, with its receipt verified in the browser
 *   #/proof[/<hash>]    an entry's proof (fetched, pasted or loaded) verified in the browser, trusting no node
 *   #/chain/<id>        a chain: head, entry blocks (paged)
 *   #/address/<FA|EC>[/cursor]  balance and history (address-history), newest first, paged
 *   #/transaction/<id>  an asset transaction
 *   #/ablock|ecblock|fblock/<keymr>  the system blocks
 *   #/search/<text>     what the search box found, or "not found"
 *   #/extid/<text>[/cursor]  chains and entries whose first ext ID is the text (`text*`: starts with it)
 *   #/settings          readwrite only: drop rate, delay, reload-configuration
 * Live parts (heights, minute, charts, latest blocks, health) follow the node's /live feed.
 * This module holds the feed and the router; the pages are in modules of their own (overview.ts, explorer.ts,
 * entryPage.ts, proofPage.ts, addressPage.ts, searchPages.ts, settings.ts), what they share in state.ts and view.ts.
 */

import { address } from "./addressPage.js";
import { entry } from "./entryPage.js";
import { blocks, chain, dblock, eblock, systemBlock, transaction } from "./explorer.js";
import { overview } from "./overview.js";
import { proofPage } from "./proofPage.js";
import { extIdSearch, search } from "./searchPages.js";
import { settings } from "./settings.js";
import { type FeedEvent, type PageRegistry, page, type Status } from "./state.js";
import { h, PanelError, view } from "./view.js";

const main = document.getElementById("view") as HTMLElement;
const feedState = document.getElementById("feed-state") as HTMLElement;

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
    for (const l of page.current.listeners) l(e);
  };
  ws.onclose = () => {
    feedState.textContent = "reconnecting…";
    feedState.className = "feed off";
    setTimeout(connectFeed, retryMs);
    retryMs = Math.min(retryMs * 2, 10_000);
  };
}

// ───────────────────────────── router ─────────────────────────────

/** Navigations so far: a page whose render finishes after a later navigation began is not shown. */
let navigations = 0;

async function route(): Promise<void> {
  // Two hash changes in a row (a click, then another) render concurrently; without this, the slower first render
  // could replace the second page after it was shown (the browser test's `#/blocks` then `#/entry/…` did).
  // Each navigation's page registers its listeners and timers in a registry of its own: a render that finishes
  // after a later navigation began has its timers stopped and its listeners never called.
  const navigation = ++navigations;
  stop(page.current);
  const registry: PageRegistry = { listeners: [], timers: [] };
  page.current = registry;
  // split first, then decode: a part (an ext ID typed in the search box) may hold a "/"
  const [name = "", arg = "", extra] = location.hash
    .replace(/^#\/?/, "")
    .split("/")
    .map((part) => decodeURIComponent(part));
  for (const a of document.querySelectorAll("nav a"))
    a.classList.toggle("active", a.getAttribute("data-page") === (name || "overview"));
  main.replaceChildren(h("p", { class: "loading" }, "Loading…"));
  try {
    const content = await render(name, arg, extra, registry);
    if (navigation === navigations) main.replaceChildren(...content);
    else stop(registry);
  } catch (e) {
    stop(registry);
    if (navigation === navigations) main.replaceChildren(errorBox(e));
  }
}

/** Stop what a page registered: its timers cleared, its listeners dropped. */
function stop(registry: PageRegistry): void {
  for (const t of registry.timers) clearInterval(t);
  registry.timers.length = 0;
  registry.listeners.length = 0;
}

async function render(name: string, arg: string, extra: string | undefined, registry: PageRegistry): Promise<Node[]> {
  switch (name) {
    case "":
    case "overview":
      return overview(registry);
    case "blocks":
      return blocks(arg === "" ? undefined : Number(arg));
    case "dblock":
      return dblock(arg);
    case "eblock":
      return eblock(arg, Number(extra ?? 0));
    case "entry":
      return entry(arg);
    case "proof":
      return proofPage(arg);
    case "chain":
      return chain(arg, extra);
    case "address":
      return address(arg, extra);
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
    case "extid":
      return extIdSearch(arg, extra);
    case "settings":
      return settings();
    default:
      throw new PanelError(`no page "${name}"`, 404);
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

// ───────────────────────────── start ─────────────────────────────

const form = document.getElementById("search") as HTMLFormElement;
form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const q = (form.elements.namedItem("q") as HTMLInputElement).value.trim();
  if (q !== "") location.hash = `#/search/${encodeURIComponent(q)}`;
});
window.addEventListener("hashchange", () => void route());
void view<Status>("status").then((s) => {
  page.status = s;
  if (s.setting === "readwrite") document.getElementById("nav-settings")?.removeAttribute("hidden");
});
connectFeed();
void route();
