/**
 * Typed failures of history export, import and verify (docs/export.md). Each names where the problem is — the
 * file offset and height of a damaged record, the first height whose blocks do not check, the record of a data
 * directory that differs from what its blocks imply — so an operator can act on the first line alone.
 */
import { NodeError } from "../errors.js";

export type HistoryErrorType =
  /** the export file's framing, checksums, order or trailer; `height`: the height set being read (-1 before any) */
  | { code: "BAD_FILE"; offset: number; height: number; info: string }
  /** a block set that does not check (hashes, links, Merkle roots, signatures), at its height */
  | { code: "BAD_BLOCK"; height: number; info: string }
  /** a data directory whose records differ from what its blocks imply (`ledgerd verify`) */
  | { code: "BAD_DIRECTORY"; path: string; height: number | undefined; info: string }
  /** the command cannot run as asked (a non-empty home, another network's file, a running node) */
  | { code: "REFUSED"; info: string };

export class HistoryError extends NodeError {
  constructor(readonly type: HistoryErrorType) {
    super(describe(type));
    this.name = "HistoryError";
  }
}

function describe(t: HistoryErrorType): string {
  switch (t.code) {
    case "BAD_FILE":
      return `${t.height >= 0 ? `height ${t.height}: ` : ""}damaged export file at byte ${t.offset}: ${t.info}`;
    case "BAD_BLOCK":
      return `height ${t.height}: ${t.info}`;
    case "BAD_DIRECTORY":
      return `${t.height === undefined ? "" : `height ${t.height}: `}${t.path}: ${t.info}`;
    case "REFUSED":
      return t.info;
  }
}
