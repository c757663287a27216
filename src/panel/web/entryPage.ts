/**
 * The control panel's entry page: the entry, where it is, and its receipt verified in this browser (receipt.ts);
 * a link to its proof page (proofPage.ts), which checks the whole proof with no trust in the node.
 */
import { checkReceipt } from "./receipt.js";
import { fields, h, hashLink, hexText, link, rawViews, rpc, time } from "./view.js";

export async function entry(hash: string): Promise<Node[]> {
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
    // the proof page: the majority's signatures and the authority set too, checked with no trust in the node
    ...(confirmed
      ? [
          h(
            "p",
            {},
            h(
              "a",
              { id: "verify-proof", class: "button", href: `#/proof/${hash}` },
              "Verify its proof in this browser",
            ),
            " — the whole proof (entry, branch, header, the majority's signatures, the authority set), trusting no node",
          ),
        ]
      : []),
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
