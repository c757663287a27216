/**
 * A receipt checked in the browser, step by step (the algorithm of src/protocol/receipt.ts verifyReceipt,
 * written again for the page): start from the entry hash; at each Merkle branch node the current hash must
 * be its left or right child, and sha256(left ‖ right) must equal its top, which becomes the current hash.
 * The walk must pass the entry block's KeyMR and end at the directory block's KeyMR. SHA-256 is
 * @noble/hashes, served by the panel from the project's node_modules.
 */
import type { ReceiptJson } from "@ledgerd/contract";

export interface ReceiptStep {
  index: number;
  current: string;
  side: "left" | "right" | "neither";
  left: string;
  right: string;
  computed: string;
  top: string;
  ok: boolean;
  /** what this step's top is: the entry block's or the directory block's KeyMR */
  reaches?: "entry block" | "directory block";
}

export interface ReceiptCheck {
  steps: ReceiptStep[];
  passedEntryBlock: boolean;
  endsAtDirectoryBlock: boolean;
  ok: boolean;
  reason?: string;
}

const NOBLE_SHA2 = "/assets/noble-hashes/sha2.js";

function fromHex(hex: string): Uint8Array {
  return new Uint8Array((hex.match(/../g) ?? []).map((x) => Number.parseInt(x, 16)));
}
function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Recompute the receipt's Merkle branch. */
export async function checkReceipt(r: ReceiptJson): Promise<ReceiptCheck> {
  const { sha256 } = (await import(NOBLE_SHA2)) as { sha256: (data: Uint8Array) => Uint8Array };
  const steps: ReceiptStep[] = [];
  let current = r.entry.entryhash.toLowerCase();
  let passedEntryBlock = false;
  const branch = r.merklebranch;
  if (branch.length < 2)
    return {
      steps,
      passedEntryBlock,
      endsAtDirectoryBlock: false,
      ok: false,
      reason: "the branch has fewer than 2 nodes",
    };
  for (const [i, node] of branch.entries()) {
    const left = node.left.toLowerCase();
    const right = node.right.toLowerCase();
    const top = node.top.toLowerCase();
    const joined = new Uint8Array(64);
    joined.set(fromHex(left), 0);
    joined.set(fromHex(right), 32);
    const computed = toHex(sha256(joined));
    const side = current === left ? "left" : current === right ? "right" : "neither";
    const ok = side !== "neither" && computed === top;
    const step: ReceiptStep = { index: i + 1, current, side, left, right, computed, top, ok };
    if (top === r.entryblockkeymr.toLowerCase() && i < branch.length - 1) {
      step.reaches = "entry block";
      passedEntryBlock = true;
    }
    if (i === branch.length - 1 && top === r.directoryblockkeymr.toLowerCase()) step.reaches = "directory block";
    steps.push(step);
    if (!ok)
      return {
        steps,
        passedEntryBlock,
        endsAtDirectoryBlock: false,
        ok: false,
        reason:
          side === "neither"
            ? `step ${i + 1}: the hash so far is neither the left nor the right child`
            : `step ${i + 1}: sha256(left ‖ right) is not the node's top`,
      };
    current = top;
  }
  const endsAtDirectoryBlock = current === r.directoryblockkeymr.toLowerCase();
  const ok = passedEntryBlock && endsAtDirectoryBlock;
  return {
    steps,
    passedEntryBlock,
    endsAtDirectoryBlock,
    ok,
    ...(ok
      ? {}
      : {
          reason: passedEntryBlock
            ? "the branch does not end at the directory block's KeyMR"
            : "the branch never reaches the entry block's KeyMR",
        }),
  };
}
