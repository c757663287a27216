/**
 * Wallet failures and exit codes (documented in docs/wallet.md):
 *   0  success
 *   1  usage: unknown command or option, wrong number of arguments, option without its value
 *   2  the request could not be done: invalid address/amount/hex, key not in the wallet, insufficient
 *      balance, node unreachable, authentication failed, node rejected the request, timeout, receipt
 *      does not verify
 */
export const EXIT = { OK: 0, USAGE: 1, FAILED: 2 };
/** The command line cannot be understood (exit 1). */
export class UsageError extends Error {
    command;
    constructor(message, 
    /** the command whose usage to print, when known */
    command) {
        super(message);
        this.command = command;
        this.name = "UsageError";
    }
}
/** What the user asked cannot be done (exit 2). `hint` is printed on its own line, e.g. a command to run. */
export class WalletError extends Error {
    hint;
    constructor(message, hint) {
        super(message);
        this.hint = hint;
        this.name = "WalletError";
    }
}
//# sourceMappingURL=errors.js.map