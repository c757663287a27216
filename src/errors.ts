/**
 * The project's error base (STYLE §1). Every error src/ throws on purpose is a NodeError subclass: it
 * carries its structured parts (a `type` with a `code`, or named fields) and a complete human message.
 * rpc/errors.ts maps the ones a request can meet to JSON-RPC; the CLI prints the rest. A bare `Error` is a
 * lint error in src/ (tools/lint/no-bare-error.grit), so anything else that reaches a caller is a bug.
 */
export class NodeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A state the code rules out was reached: a bug, never a problem with the input (an internal error). */
export class InvariantError extends NodeError {}
