/**
 * Wallet failures and exit codes (documented in docs/wallet.md):
 *   0  success
 *   1  usage: unknown command or option, wrong number of arguments, option without its value
 *   2  the request could not be done: invalid address/amount/hex, key not in the wallet, insufficient
 *      balance, node unreachable, authentication failed, node rejected the request, timeout, receipt
 *      does not verify
 */
export const EXIT = { OK: 0, USAGE: 1, FAILED: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The command line cannot be understood (exit 1). */
export class UsageError extends Error {
  constructor(
    message: string,
    /** the command whose usage to print, when known */
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}

/** What the user asked cannot be done (exit 2). `hint` is printed on its own line, e.g. a command to run. */
export class WalletError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = "WalletError";
  }
}
