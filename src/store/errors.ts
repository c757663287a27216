/**
 * Typed failures of the store. Start-up problems (wrong network, unknown format) stop the node with a
 * message naming the data directory; they are never answered by silently creating a new genesis.
 */
import { NodeError } from "../errors.js";

export type StoreErrorType =
  | { code: "NETWORK_MISMATCH"; path: string; stored: string; expected: string }
  | { code: "UNKNOWN_FORMAT"; path: string; info: string }
  | { code: "OPEN_FAILED"; path: string; info: string }
  | { code: "CORRUPT"; path: string; info: string }
  | { code: "CLOSED"; path: string }
  | { code: "WRITER_FAILED"; path: string; info: string } // the block-set or journal writer thread refused or died
  | { code: "WRITES_REFUSED"; path: string; info: string } // a storage failure is being recovered from
  | { code: "GENESIS_MISMATCH"; path: string; info: string } // a CUSTOM network's configured genesis changed
  | { code: "BACKUP_FAILED"; path: string; info: string }
  | { code: "DIRECTORY_LOCKED"; path: string; holderPid: number | undefined }
  | { code: "STORAGE_FULL"; path: string; availableBytes: number; reserveBytes: number; neededBytes: number };

export class StoreError extends NodeError {
  constructor(readonly type: StoreErrorType) {
    super(describe(type));
    this.name = "StoreError";
  }
}

function describe(t: StoreErrorType): string {
  switch (t.code) {
    case "NETWORK_MISMATCH":
      return `data directory ${t.path} holds the ${t.stored} network, not ${t.expected}; use another -homedir or -network`;
    case "UNKNOWN_FORMAT":
      return `data directory ${t.path} is not a ledger database this version can read: ${t.info}`;
    case "OPEN_FAILED":
      return `cannot open the database in ${t.path}: ${t.info}`;
    case "CORRUPT":
      return `database in ${t.path} is inconsistent: ${t.info}`;
    case "CLOSED":
      return "the store is closed";
    case "WRITER_FAILED":
    case "WRITES_REFUSED":
    case "GENESIS_MISMATCH":
    case "BACKUP_FAILED":
      return t.info;
    case "DIRECTORY_LOCKED":
      return (
        `data directory ${t.path} is in use by another ledgerd (${t.holderPid === undefined ? "pid not yet written" : `pid ${t.holderPid}`}); ` +
        "stop that node first, or give this one another -homedir"
      );
    case "STORAGE_FULL":
      return (
        `${mib(t.availableBytes)} free for ${t.path}${t.neededBytes > 0 ? `, ${mib(t.neededBytes)} to write` : ""}: ` +
        `below the reserve of ${mib(t.reserveBytes)} kept free (-minfreemb); writes resume when space is freed`
      );
  }
}

function mib(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
