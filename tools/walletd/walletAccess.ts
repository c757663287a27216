/**
 * The daemon's access to the wallet file it shares with `ledgerd-wallet`: every call reads the file afresh (under
 * the CLI's own lock for writes, WalletFile.update), so the CLI and the service cannot disagree. An encrypted
 * wallet stays locked until `unlock-wallet` gives its passphrase, and locks again when the timeout runs out (the
 * passphrase is then forgotten). The file must be the owner's alone: mode 0600, refused when others can read it.
 */

import { WalletError } from "../wallet/errors.js";
import { Passphrase, SealError } from "../wallet/walletCrypto.js";
import { WalletFile } from "../wallet/walletFile.js";
import { invalidParams, WalletdCode, WalletdError } from "./errors.js";

/** Longest unlock, seconds: the reference takes any int64; a day bounds how long a forgotten unlock lasts. */
export const MAX_UNLOCK_SECONDS = 86_400;

/** Refuse a wallet file that anyone but its owner can read or write (mode bits of group and others). */
export function checkWalletMode(path: string): void {
  const mode = WalletFile.mode(path);
  if (mode !== undefined && (mode & 0o077) !== 0)
    throw new WalletdError(
      WalletdCode.Internal,
      `wallet file ${path} can be read or written by other users (mode ${mode.toString(8)}); the wallet service refuses it: run chmod 600 ${path}`,
    );
}

/** A WalletError of the wallet file (damaged, unreadable, locked by another process) as a JSON-RPC error. */
export function walletFileError(e: unknown): never {
  if (e instanceof WalletError) throw new WalletdError(WalletdCode.Internal, e.message);
  throw e;
}

export class WalletAccess {
  private pass: Passphrase | undefined;
  private unlockedUntilMs = 0;
  private relock: NodeJS.Timeout | undefined;

  constructor(
    readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Is the file an encrypted wallet? (re-read every time: `ledgerd-wallet encrypt` may have run meanwhile) */
  get encrypted(): boolean {
    return WalletFile.isEncrypted(this.path);
  }

  /** Locked: encrypted, and no passphrase given or its time ran out. */
  get locked(): boolean {
    return this.encrypted && (this.pass === undefined || this.now() >= this.unlockedUntilMs);
  }

  /** The wallet as it is on disk now; -32001 while locked. */
  load(): WalletFile {
    checkWalletMode(this.path);
    if (this.locked)
      throw new WalletdError(
        WalletdCode.WalletLocked,
        "the wallet is encrypted and locked: call unlock-wallet with its passphrase and a timeout in seconds",
      );
    try {
      return WalletFile.load(this.path, this.encrypted ? this.pass : undefined);
    } catch (e) {
      return walletFileError(e);
    }
  }

  /** `unlock-wallet`: check the passphrase against the file, keep it for `timeoutSeconds`. Returns the end, ms. */
  unlock(passphrase: unknown, timeoutSeconds: unknown): number {
    if (typeof passphrase !== "string" || passphrase === "")
      throw invalidParams("passphrase: expected the wallet's passphrase, a non-empty string");
    if (
      typeof timeoutSeconds !== "number" ||
      !Number.isInteger(timeoutSeconds) ||
      timeoutSeconds <= 0 ||
      timeoutSeconds > MAX_UNLOCK_SECONDS
    )
      throw invalidParams(
        `timeout: expected whole seconds in 1..${MAX_UNLOCK_SECONDS}, got ${JSON.stringify(timeoutSeconds)}`,
      );
    checkWalletMode(this.path);
    if (!this.encrypted)
      throw invalidParams(
        `wallet file ${this.path} is not encrypted: it is always unlocked (ledgerd-wallet encrypt encrypts it)`,
      );
    let pass: Passphrase;
    try {
      pass = new Passphrase(passphrase);
      WalletFile.load(this.path, pass);
    } catch (e) {
      if (e instanceof WalletError && /wrong passphrase/.test(e.message))
        throw new WalletdError(WalletdCode.IncorrectPassphrase, "wrong passphrase: the wallet stays locked");
      if (e instanceof SealError) throw invalidParams(`passphrase: ${e.message}`);
      return walletFileError(e);
    }
    this.pass = pass;
    this.unlockedUntilMs = this.now() + timeoutSeconds * 1000;
    clearTimeout(this.relock);
    // forget the passphrase (and its derived key) when the time is up, not only refuse it
    this.relock = setTimeout(() => this.lock(), timeoutSeconds * 1000);
    this.relock.unref();
    return this.unlockedUntilMs;
  }

  lock(): void {
    this.pass = undefined;
    this.unlockedUntilMs = 0;
    clearTimeout(this.relock);
  }
}
