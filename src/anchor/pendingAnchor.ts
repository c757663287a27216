/**
 * The anchoring node's one piece of private state: the anchor in flight, kept in a small JSON file beside
 * the database. It is written (atomically, synced) after a transaction is signed and BEFORE it is sent, and
 * again before its record is submitted to the ledger, so a restart at any moment resumes the same
 * transaction and the same record entry instead of making new ones: nothing is anchored twice or skipped.
 * Everything else the service needs is in the ledger (the anchor chain).
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { AnchorError } from "./errors.js";
import type { SignedAnchorTx } from "./ethereum.js";

export interface PendingAnchor {
  dbHeightMin: number;
  dbHeightMax: number;
  /** hex, 64 characters */
  windowMR: string;
  tx: SignedAnchorTx;
  /** once confirmed: the record entry (marshalled, hex) submitted to the ledger */
  recordEntry?: string;
}

/** The pending-anchor file; absent = nothing in flight. */
export class PendingAnchorFile {
  constructor(readonly path: string) {}

  read(): PendingAnchor | undefined {
    let text: string;
    try {
      text = readFileSync(this.path, "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw new AnchorError({ code: "STATE_FILE", file: this.path, reason: String(e) });
    }
    try {
      const p = JSON.parse(text) as PendingAnchor;
      if (!Number.isSafeInteger(p.dbHeightMin) || typeof p.tx?.raw !== "string" || typeof p.tx.hash !== "string")
        throw new AnchorError({ code: "FAILED", info: "missing fields" });
      return p;
    } catch (e) {
      throw new AnchorError({ code: "STATE_FILE", file: this.path, reason: `unreadable: ${String(e)}` });
    }
  }

  /** Replace the file's content durably: write a temporary file, sync it, rename it over, sync the directory. */
  write(p: PendingAnchor): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, "w", 0o600);
    try {
      writeSync(fd, JSON.stringify(p));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.path);
    const dir = openSync(dirname(this.path), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }

  clear(): void {
    rmSync(this.path, { force: true });
  }
}
