/**
 * The search box's pages: `#/search/<text>` asks the panel what the text is (a height, a hash, an address) and
 * goes there; anything else is an external ID, `#/extid/<text>[/<cursor>]`: the chains whose first entry's
 * first ext ID is the text (`search-chains`) and the entries whose first ext ID is (`search-entries`), from
 * the node's query index; `text*` matches ext IDs that start with the text.
 */
import { h, hashLink, hexText, link, PanelError, rpc, table, time, view } from "./view.js";

/** Chains and entries per page. */
const PER_PAGE = 25;

export async function search(text: string): Promise<Node[]> {
  const r: { found: boolean; kind?: string; id?: string; notfound?: boolean; message?: string } = await view("search", {
    q: text,
  });
  if (!r.found) throw new PanelError(r.message ?? "not found", r.notfound ? 404 : 400);
  location.replace(`#/${r.kind}/${encodeURIComponent(r.id ?? "")}`);
  return [h("p", {}, "Found.")];
}

/** UTF-8 text as hex. */
function toHexText(text: string): string {
  return Array.from(new TextEncoder().encode(text), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Ext IDs (hex) as the page shows them: text when printable, else hex. */
function extIdsText(extids: readonly string[]): string {
  return extids.map((x) => hexText(x) ?? `0x${x}`).join(" · ");
}

export async function extIdSearch(text: string, cursor?: string): Promise<Node[]> {
  const prefix = text.length > 1 && text.endsWith("*");
  const wanted = prefix ? text.slice(0, -1) : text;
  const extids = [toHexText(wanted)];
  const match = prefix ? "prefix" : "exact";
  // the chains on the first page only; the pages after it continue the entries
  const chains = cursor === undefined ? await rpc("search-chains", { extids, match, limit: PER_PAGE }) : undefined;
  const entries = await rpc("search-entries", {
    extids,
    match,
    limit: PER_PAGE,
    content: false,
    ...(cursor === undefined ? {} : { cursor }),
  });
  const what = prefix ? `starting with “${wanted}”` : `“${wanted}”`;
  if (cursor === undefined && chains?.chains.length === 0 && entries.entries.length === 0)
    throw new PanelError(`not found: no chain or entry has the first ext ID ${what}`, 404);
  const route = `extid/${encodeURIComponent(text)}`;
  return [
    h("h1", {}, `Ext ID ${what}`),
    chains === undefined
      ? h("span")
      : h(
          "section",
          { id: "extid-chains" },
          h("h2", {}, "Chains"),
          chains.chains.length === 0
            ? h("p", { class: "muted" }, "No chain's first entry has it.")
            : table(
                ["Chain", "Ext IDs of its first entry", "Created in block", "Entries"],
                chains.chains.map((c) => [
                  hashLink("chain", c.chainid),
                  extIdsText(c.extids),
                  link(`dblock/${c.dbheight}`, String(c.dbheight)),
                  c.entrycount,
                ]),
              ),
          chains.nextcursor !== ""
            ? h("p", { class: "muted" }, `More than ${PER_PAGE} chains: type a longer ext ID.`)
            : null,
        ),
    h(
      "section",
      { id: "extid-entries" },
      h("h2", {}, "Entries"),
      entries.entries.length === 0
        ? h("p", { class: "muted" }, "No entry has it.")
        : table(
            ["Entry", "Chain", "Ext IDs", "Block", "Time"],
            entries.entries.map((e) => [
              hashLink("entry", e.entryhash),
              e.chainid === undefined ? "–" : hashLink("chain", e.chainid),
              extIdsText(e.extids),
              link(`dblock/${e.dbheight}`, String(e.dbheight)),
              time(e.timestamp),
            ]),
          ),
      h(
        "p",
        { class: "pager" },
        cursor !== undefined ? link(route, "← first page") : null,
        " ",
        entries.nextcursor !== "" ? link(`${route}/${entries.nextcursor}`, "more entries →", "more-entries") : null,
      ),
    ),
  ];
}
