/**
 * The proof page (#/proof/<entry hash>, or #/proof for a saved file): an entry's `proof` object checked in this
 * browser with no trust in the node (proofCheck.ts runs src/protocol/proofRules.ts, the wallet's rules). With a
 * hash, the page fetches the proof from the node and checks it at once; the JSON stays editable, and a saved
 * proof can be pasted or loaded from a file, so the page checks any proof, from any node, the same way. With
 * an Ethereum RPC URL (optional), the anchor's transaction is checked too, by this page asking that Ethereum
 * node (the rules of `ledgerd-wallet proof --verify FILE --anchor-rpc URL`).
 */
import { checkProof, type ProofVerdict } from "./proofCheck.js";
import { fields, h, hashLink, link, rpc, time } from "./view.js";

/** The Ethereum RPC URL last used on this page (kept while the panel stays open; never sent to the node). */
let lastAnchorRpc = "";

export async function proofPage(hash: string): Promise<Node[]> {
  const text = h("textarea", {
    id: "proof-text",
    rows: "12",
    spellcheck: "false",
    "aria-label": "Proof JSON",
    placeholder: "Paste a saved proof (ledgerd-wallet proof HASH --out FILE), or load its file below",
  });
  const file = h("input", { id: "proof-file", type: "file", accept: ".json,application/json" });
  const run = h("button", { id: "proof-verify", type: "button" }, "Verify in this browser");
  const result = h("div", { id: "proof-result" });
  const anchorRpc = h("input", {
    id: "proof-anchor-rpc",
    type: "url",
    size: "40",
    spellcheck: "false",
    placeholder: "http://127.0.0.1:8545",
    value: lastAnchorRpc,
  });
  const verify = (t: string): Promise<void> => {
    lastAnchorRpc = anchorRpc.value.trim();
    return verifyText(t, lastAnchorRpc, result);
  };
  run.onclick = () => void verify(text.value);
  file.onchange = () => {
    const f = file.files?.[0];
    if (f === undefined) return;
    // cleared, so that choosing the same file again (edited since) is a change too
    file.value = "";
    void f.text().then((t) => {
      text.value = t;
      return verify(t);
    });
  };
  const intro = h(
    "p",
    {},
    "The proof is checked here, by this page's own code: the entry's hash, its Merkle branch to the directory block, the block's header, and the signatures of a majority of the federated servers, whose set is derived from the network's bootstrap key through every authority change since genesis — nothing the node says is taken on trust. ",
    "The same rules as ",
    h("code", {}, "ledgerd-wallet proof --verify FILE"),
    ". Give an Ethereum RPC URL to have this page check the anchor's transaction in that chain too (",
    h("code", {}, "--anchor-rpc URL"),
    "): the page asks that node itself, never this one.",
  );
  const out: Node[] = [h("h1", {}, "Entry proof"), intro];
  if (hash !== "") {
    const proof = await rpc("proof", { hash });
    const saved = JSON.stringify(proof, null, 2);
    text.value = saved;
    const save = h("a", { id: "proof-save", download: `proof-${hash.slice(0, 16)}.json` }, "Save the proof");
    save.href = URL.createObjectURL(new Blob([`${saved}\n`], { type: "application/json" }));
    out.push(h("p", {}, "Fetched from this node for entry ", link(`entry/${hash}`, hash), ". ", save));
    void verify(saved);
  }
  const anchorField = h(
    "p",
    { class: "actions" },
    h("label", { for: "proof-anchor-rpc" }, "Ethereum RPC URL (optional, to check the anchor's transaction): "),
    anchorRpc,
  );
  out.push(
    result,
    h("h2", {}, "Proof JSON"),
    text,
    anchorField,
    h("p", { class: "actions" }, run, " or load a file ", file),
  );
  return out;
}

async function verifyText(text: string, anchorRpc: string, box: HTMLElement): Promise<void> {
  box.replaceChildren(h("p", { id: "proof-checking" }, "Checking…"));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    box.replaceChildren(verdictLine(false, "proof", `is not JSON (${e instanceof Error ? e.message : String(e)})`));
    return;
  }
  box.replaceChildren(...render(await checkProof(json, anchorRpc)));
}

function verdictLine(ok: boolean, field: string, text: string): HTMLElement {
  return h(
    "p",
    { id: "proof-verdict", class: ok ? "ok" : "bad", "data-field": ok ? undefined : field },
    ok ? `✓ ${text}` : `✗ The proof does not verify: ${field} ${text}.`,
  );
}

function render(v: ProofVerdict): Node[] {
  const s = v.summary;
  const checks = h(
    "ol",
    { id: "proof-checks", class: "steps" },
    ...v.passed.map((c) => h("li", { class: "ok", "data-field": c.field }, h("code", {}, c.field), ` ${c.detail} ✓`)),
    v.failure === undefined
      ? null
      : h(
          "li",
          { class: "bad", "data-field": v.failure.field },
          h("code", {}, v.failure.field),
          ` ${v.failure.detail} ✗`,
        ),
  );
  if (s === undefined) return [verdictLine(false, v.failure?.field ?? "proof", v.failure?.detail ?? ""), checks];
  return [
    verdictLine(
      true,
      "",
      `Verified in this browser, trusting no node: entry ${s.entryhash.slice(0, 12)}… is in directory block ${s.directoryblockheight}, signed by ${s.signed} of ${s.federated} federated servers.`,
    ),
    fields([
      ["Entry", hashLink("entry", s.entryhash)],
      ["Chain", hashLink("chain", s.chainid)],
      ["Ext IDs / content", `${s.extids.length} ext ID(s), ${s.contentbytes} content byte(s)`],
      ["Directory block", link(`dblock/${s.directoryblockheight}`, `block ${s.directoryblockheight}`)],
      ["Directory block KeyMR", h("code", {}, s.directoryblockkeymr)],
      ["Time", time(s.directoryblocktimestamp)],
      ["Network ID", `0x${s.networkid.toString(16).padStart(8, "0")}`],
      ["Signatures", `${s.signed} of ${s.federated} federated servers (${s.needed} needed)`],
      ["Authority changes", `${s.changeblocks} change block(s) since genesis, each signed by its majority`],
      [
        "Trust root",
        h(
          "span",
          { id: "proof-trust-root" },
          h("code", {}, s.bootstrapkey),
          v.pinned
            ? " — the network's bootstrap key, as this page knows it"
            : " — NOT pinned by this page (not LOCAL or MAIN): compare it with your network's",
        ),
      ],
      ["Anchor", h("span", { id: "proof-anchor" }, ...anchorText(v))],
    ]),
    checks,
  ];
}

/** The anchor line: checked against an Ethereum node, not checked (and why), or none in the proof. */
function anchorText(v: ProofVerdict): (Node | string)[] {
  const a = v.summary?.anchor;
  if (a === undefined) return ["none in the proof"];
  const window = `window root ${a.windowmr.slice(0, 16)}…`;
  if (v.anchor !== undefined)
    return [
      h("span", { class: "ok" }, "✓ "),
      `${window}, Ethereum transaction ${a.txid} in block ${v.anchor.blockHeight} (${v.anchor.confirmations} confirmations), sent to ${v.anchor.to}: checked by this page at ${v.anchor.url}`,
    ];
  if (v.anchorUnchecked !== undefined)
    return [h("span", { class: "bad" }, "not checked: "), `${v.anchorUnchecked} (${window}, transaction ${a.txid})`];
  return [`${window}, transaction ${a.txid} (not checked: give an Ethereum RPC URL and verify again)`];
}
