/**
 * DOM helpers of the control panel: elements are built with `h`, text always goes in as text nodes (never
 * as HTML), so nothing a node returns can inject markup. Plus the panel's two transports: JSON-RPC through
 * the panel's own /rpc endpoints and the panel views under /panel/.
 */

import type { DebugMethods, ParamsOf, ResultOf, V2Methods } from "@ledgerd/contract";

type Child = Node | string | number | null | undefined | false;

/** Build an element: `h("a", { href: "#/x", class: "k" }, "text", child)`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
  }
  return el;
}

/** A link inside the app. */
export function link(route: string, text: string, cls?: string): HTMLAnchorElement {
  return h("a", { href: `#/${route}`, class: cls }, text);
}

/** A hash shown short (first 12 characters…) linking to its page; the full value in the title. */
export function hashLink(route: string, hash: string): HTMLAnchorElement {
  const a = link(`${route}/${hash}`, `${hash.slice(0, 16)}…`, "hash");
  a.title = hash;
  return a;
}

/** A two-column table of label → value. */
export function fields(rows: [string, Child][]): HTMLTableElement {
  return h("table", { class: "fields" }, ...rows.map(([k, v]) => h("tr", {}, h("th", {}, k), h("td", {}, v))));
}

/** A table with a header row. */
export function table(head: string[], rows: Child[][], cls = "list"): HTMLTableElement {
  return h(
    "table",
    { class: cls },
    h("thead", {}, h("tr", {}, ...head.map((x) => h("th", {}, x)))),
    h("tbody", {}, ...rows.map((r) => h("tr", {}, ...r.map((c) => h("td", {}, c))))),
  );
}

/** Collapsible JSON and raw hex of a thing. */
export function rawViews(json: unknown, hex?: string, what = ""): HTMLElement {
  return h(
    "div",
    { class: "raw" },
    h("details", {}, h("summary", {}, `${what} JSON`.trim()), h("pre", {}, JSON.stringify(json, null, 2))),
    hex === undefined
      ? null
      : h("details", {}, h("summary", {}, `Raw hex (${hex.length / 2} bytes)`), h("pre", { class: "hex" }, hex)),
  );
}

/** An error from the node or the panel, with what was asked. */
export class PanelError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

let rpcId = 0;

/**
 * Call a `/v2` method of the node through the panel's `/rpc/v2`, typed by the method contract
 * (src/rpc/methods.ts, the same types the server's handlers are held to): a method or member the node
 * does not have fails the panel's build.
 */
export function rpc<M extends keyof V2Methods>(
  method: M,
  params: ParamsOf<V2Methods, M>,
): Promise<ResultOf<V2Methods, M>> {
  return call("v2", method, params) as Promise<ResultOf<V2Methods, M>>;
}

/** Call a `/debug` method through the panel's `/rpc/debug`, typed like `rpc`. */
export function debugRpc<M extends keyof DebugMethods>(
  method: M,
  params: ParamsOf<DebugMethods, M>,
): Promise<ResultOf<DebugMethods, M>> {
  return call("debug", method, params) as Promise<ResultOf<DebugMethods, M>>;
}

async function call(endpoint: "v2" | "debug", method: string, params: unknown): Promise<unknown> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, ...(params === undefined ? {} : { params }) });
  const res = await fetch(`/rpc/${endpoint}`, {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json" },
  });
  const json = (await res.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } };
  if (json.error !== undefined)
    throw new PanelError(
      `${json.error.message}${json.error.data !== undefined ? `: ${String(json.error.data)}` : ""}`,
      res.status,
    );
  return json.result;
}

/** GET a panel view (`/panel/<view>?…`). */
export async function view<T = Record<string, unknown>>(
  name: string,
  query: Record<string, string | number> = {},
): Promise<T> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  const res = await fetch(`/panel/${name}${qs ? `?${qs}` : ""}`);
  const json = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new PanelError(json.error ?? `HTTP ${res.status}`, res.status);
  return json;
}

/** Bytes as a short human figure (KiB, MiB, GiB). */
export function bytes(n: number | undefined): string {
  if (n === undefined) return "–";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}

/** Seconds since the epoch as a local date and time. */
export function time(seconds: number): string {
  return new Date(seconds * 1000).toLocaleString();
}

/** Hex as text when it is printable UTF-8, else undefined. */
export function hexText(hex: string): string | undefined {
  const b = new Uint8Array((hex.match(/../g) ?? []).map((x) => Number.parseInt(x, 16)));
  try {
    const t = new TextDecoder("utf-8", { fatal: true }).decode(b);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is tested for
    return /[\u0000-\u0008\u000e-\u001f]/.test(t) ? undefined : t;
  } catch {
    return undefined;
  }
}
