/** Typed errors of the anchoring service and anchor records (STYLE §1). */
import { NodeError } from "../errors.js";

export type AnchorErrorType =
  | { code: "BAD_RECORD"; field: string; reason: string }
  | { code: "BAD_KEY"; file: string; reason: string }
  | { code: "WRONG_CHAIN"; expected: number; got: number }
  | { code: "STATE_FILE"; file: string; reason: string }
  | { code: "NONCE_USED"; txId: string; nonce: number }
  | { code: "FAILED"; info: string }; // an anchor that does not check out, a limit, a state the code rules out

export class AnchorError extends NodeError {
  constructor(readonly type: AnchorErrorType) {
    super(describe(type));
  }
}

function describe(t: AnchorErrorType): string {
  switch (t.code) {
    case "BAD_RECORD":
      return `anchor record ${t.field}: ${t.reason}`;
    case "BAD_KEY":
      return `${t.file}: ${t.reason}`;
    case "WRONG_CHAIN":
      return `the Ethereum RPC serves chain ID ${t.got}, the configuration says ${t.expected}`;
    case "STATE_FILE":
      return `${t.file}: ${t.reason}`;
    case "FAILED":
      return t.info;
    case "NONCE_USED":
      return `nonce ${t.nonce} of the anchoring account was used by another transaction than ${t.txId}`;
  }
}
