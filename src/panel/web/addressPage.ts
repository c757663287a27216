/**
 * The control panel's address page: the balance (the panel's `address` view) and the address's history from
 * the node's query index (`address-history`, newest first), paged by its cursor: `#/address/<FA|EC>/<cursor>`.
 */
import type { ResultOf, V2Methods } from "@ledgerd/contract";
import { fields, h, hashLink, link, rpc, table, time, view } from "./view.js";

/** History items per page. */
const HISTORY_PER_PAGE = 25;
/** Base units per asset unit (10^8). */
const BASE_UNITS = 100_000_000n;

type HistoryItem = ResultOf<V2Methods, "address-history">["items"][number];

const KINDS: Record<HistoryItem["kind"], string> = {
  input: "sent",
  output: "received",
  ecpurchase: "EC bought",
  commit: "entry commit",
  chaincommit: "chain commit",
};

/** Base units (decimal string) as asset units, exactly. */
function assetUnits(baseUnits: string): string {
  const n = BigInt(baseUnits);
  return `${n / BASE_UNITS}.${(n % BASE_UNITS).toString().padStart(8, "0")}`;
}

function amountText(it: HistoryItem): string {
  return it.kind === "input" || it.kind === "output" ? assetUnits(it.amount) : `${it.amount} EC`;
}

export async function address(a: string, cursor?: string): Promise<Node[]> {
  const r: { address: string; kind: "FA" | "EC"; balance: { ack: number; saved: number } } = await view("address", {
    a,
  });
  const history = await rpc("address-history", {
    address: r.address,
    order: "desc",
    limit: HISTORY_PER_PAGE,
    ...(cursor === undefined ? {} : { cursor }),
  });
  const balance = (n: number): string =>
    r.kind === "FA" ? `${(n / 1e8).toFixed(8)} (${n} base units)` : `${n} entry credits`;
  return [
    h("h1", {}, r.kind === "FA" ? "Asset address" : "Entry credit address"),
    fields([
      ["Address", h("code", {}, r.address)],
      ["Balance", balance(r.balance.ack)],
      ["Balance in saved blocks", balance(r.balance.saved)],
    ]),
    h("h2", {}, "History, newest first"),
    history.items.length === 0
      ? h("p", { class: "muted", id: "history-empty" }, "No saved block names this address.")
      : table(
          ["Block", "Time", "Kind", "Amount", "Transaction"],
          history.items.map((it) => [
            link(`dblock/${it.dbheight}`, String(it.dbheight)),
            time(it.timestamp),
            KINDS[it.kind],
            amountText(it),
            // a commit's txid is resolved by the search (to its entry); an asset transaction has its own page
            it.kind === "commit" || it.kind === "chaincommit"
              ? hashLink("search", it.txid)
              : hashLink("transaction", it.txid),
          ]),
          "list history",
        ),
    h(
      "p",
      { class: "pager" },
      cursor !== undefined ? link(`address/${r.address}`, "← newest") : null,
      " ",
      history.nextcursor !== "" ? link(`address/${r.address}/${history.nextcursor}`, "older →", "older") : null,
    ),
  ];
}
