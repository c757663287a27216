/**
 * Transaction history (`transactions`, `get-height`): the asset blocks of the node, read once each by height
 * (`fblock-by-height`) and kept in memory, as the reference wallet keeps them in its transaction database. Each
 * call first reads the blocks saved since the last one. Blocks never change once saved, so nothing is read twice.
 */
import type { NodeClient } from "../../src/client/nodeClient.js";
import type { WalletTransaction } from "../../src/client/walletMethods.js";
import type { AssetTransactionJson } from "../../src/protocol/json/transactionJson.js";

export interface HistoryItem {
  height: number;
  tx: AssetTransactionJson;
}

export class History {
  private readonly items: HistoryItem[] = [];
  /** highest height read, -1 before the first */
  private scanned = -1;
  private syncing: Promise<void> | undefined;

  constructor(private readonly deps: { node: NodeClient }) {}

  get height(): number {
    return Math.max(this.scanned, 0);
  }

  /** Read every saved block not yet read (one sync at a time; concurrent callers share it). */
  sync(): Promise<void> {
    this.syncing ??= this.readNew().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async readNew(): Promise<void> {
    const tip = (await this.deps.node.heights()).directoryblockheight;
    for (let h = this.scanned + 1; h <= tip; h++) {
      const block = (await this.deps.node.fblockByHeight({ height: h })).fblock;
      for (const tx of block.transactions) this.items.push({ height: h, tx });
      this.scanned = h;
    }
  }

  all(): readonly HistoryItem[] {
    return this.items;
  }
}

/** A saved transaction in the reference's factom.Transaction shape. */
export function historyTxJson(item: HistoryItem): WalletTransaction {
  const io = (list: AssetTransactionJson["inputs"]) =>
    list.map((x) => ({ address: x.useraddress, amount: Number(x.amount) }));
  const sum = (list: AssetTransactionJson["inputs"]) => list.reduce((s, x) => s + Number(x.amount), 0);
  const ins = sum(item.tx.inputs);
  const outs = sum(item.tx.outputs);
  const ecs = sum(item.tx.outecs);
  return {
    txid: item.tx.txid,
    blockheight: item.height,
    timestamp: new Date(item.tx.millitimestamp).toISOString(),
    signed: item.tx.inputs.length > 0,
    totalinputs: ins,
    totaloutputs: outs,
    totalecoutputs: ecs,
    ...(ins > outs + ecs ? { feespaid: ins - outs - ecs } : {}),
    inputs: io(item.tx.inputs),
    outputs: io(item.tx.outputs),
    ecoutputs: io(item.tx.outecs),
  };
}

/** Does the transaction move anything from or to `address`? */
export function involves(item: HistoryItem, address: string): boolean {
  return [item.tx.inputs, item.tx.outputs, item.tx.outecs].some((list) => list.some((x) => x.useraddress === address));
}
