/**
 * The wallet service's JSON-RPC errors. Codes are the reference wallet daemon's (FactomProject/wallet
 * wsapi/errors.go): -32001 the wallet is locked, -32003 a wrong passphrase, and the JSON-RPC 2.0 codes. Where the
 * reference answers -32603 "Internal error" for a caller's mistake (an unknown address or transaction name, an
 * amount that does not add up), this service answers -32602 "Invalid params", with `data` naming what was wrong
 * (docs/compat.md). `data` never holds a secret.
 */
export const WalletdCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  Internal: -32603,
  WalletLocked: -32001,
  IncorrectPassphrase: -32003,
} as const;

const MESSAGES: Record<number, string> = {
  [WalletdCode.ParseError]: "Parse error",
  [WalletdCode.InvalidRequest]: "Invalid Request",
  [WalletdCode.MethodNotFound]: "Method not found",
  [WalletdCode.InvalidParams]: "Invalid params",
  [WalletdCode.Internal]: "Internal error",
  [WalletdCode.WalletLocked]: "Wallet is locked",
  [WalletdCode.IncorrectPassphrase]: "Incorrect passphrase",
};

/** One JSON-RPC error answer: `{code, message, data}`. */
export class WalletdError extends Error {
  readonly rpcMessage: string;
  constructor(
    readonly code: number,
    readonly data: string,
  ) {
    super(`${MESSAGES[code] ?? "Error"}: ${data}`);
    this.name = "WalletdError";
    this.rpcMessage = MESSAGES[code] ?? "Error";
  }
}

/** -32602 with `data` naming the param and what is wrong with it. */
export function invalidParams(data: string): WalletdError {
  return new WalletdError(WalletdCode.InvalidParams, data);
}
