/**
 * The overview's "Scheduled changes" part (docs/panel.md, issue 33): what a cluster's chain has recorded and
 * not yet put in force — role changes (05 federated, 06 audit, 07 removed) and signing keys (08) with their
 * activation heights, the entry-credit rates the rate authority announced — and this node's own signing
 * window when a brain swap is set on it. Nothing on a single node.
 */
import { h, hashLink, table } from "./view.js";

/** The `scheduled` member of /panel/status (cluster/federationTypes.ts ScheduledChanges). */
export interface ScheduledStatus {
  openHeight: number;
  authority: {
    height: number;
    change: "federated" | "audit" | "removed" | "key";
    identity: string;
    publicKey?: string;
  }[];
  rates: { height: number; rate: string }[];
  signingWindow: { fromHeight: number; untilHeight: number };
}

const CHANGE_TEXT: Record<ScheduledStatus["authority"][number]["change"], string> = {
  federated: "becomes federated (05)",
  audit: "becomes audit (06)",
  removed: "removed (07)",
  key: "new signing key (08)",
};

/** The part for the overview, or undefined when there is nothing to show (a single node). */
export function scheduledPart(s: ScheduledStatus | undefined): HTMLElement[] | undefined {
  if (s === undefined) return undefined;
  const rows = [
    ...s.authority.map((c) => ({
      height: c.height,
      cells: [String(c.height), hashLink("chain", c.identity), CHANGE_TEXT[c.change]],
    })),
    ...s.rates.map((r) => ({
      height: r.height,
      cells: [String(r.height), "entry-credit rate", `${r.rate} base units per entry credit`],
    })),
  ].sort((a, b) => a.height - b.height);
  const w = s.signingWindow;
  const window =
    w.fromHeight === 0 && w.untilHeight === 0
      ? undefined
      : `This node signs for its identity ${w.fromHeight > 0 ? `from height ${w.fromHeight}` : ""}` +
        `${w.fromHeight > 0 && w.untilHeight > 0 ? " " : ""}${w.untilHeight > 0 ? `until height ${w.untilHeight - 1}` : ""} (brain swap).`;
  return [
    h("h2", {}, "Scheduled changes"),
    rows.length === 0
      ? h("p", { class: "muted" }, `Nothing scheduled after the open height ${s.openHeight}.`)
      : table(
          ["From height", "Server / setting", "Change"],
          rows.map((r) => r.cells),
        ),
    ...(window === undefined ? [] : [h("p", { class: "muted" }, window)]),
  ];
}
