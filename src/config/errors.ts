/**
 * A configuration problem found at start or at `reload-configuration`: a bad flag, a bad INI file, an
 * unusable TLS file. The message is complete and meant for the operator (it names the file, the line and
 * the field when there is one); the structured parts are for callers that map it (rpc/errors.ts) and tests.
 */
import { NodeError } from "../errors.js";

export interface ConfigErrorDetail {
  /** path of the file at fault (INI file, TLS key or certificate) */
  file?: string;
  /** 1-based line of the INI file */
  line?: number;
  /** "Group.Field" for INI fields, "-flag" for flags */
  field?: string;
}

export class ConfigError extends NodeError {
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;

  constructor(message: string, detail: ConfigErrorDetail = {}) {
    super(message);
    this.name = "ConfigError";
    this.file = detail.file;
    this.line = detail.line;
    this.field = detail.field;
  }
}
