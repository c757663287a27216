/**
 * How the replicated log's NATS client tells its failures apart (jetStreamLog.ts, writeForwarding.ts): refused
 * (credentials, TLS, permissions: waiting cannot help), unavailable (no stream leader before the deadline), or
 * retryable (the stream is between leaders, the cluster still forming).
 */
import { NodeError } from "../errors.js";

/** The NATS servers refused this node (credentials, TLS, permissions): retrying cannot help. */
export class LogRefusedError extends NodeError {}

/** True for a NATS permissions violation (the user may not publish or subscribe there). */
export function isPermissionError(e: unknown): boolean {
  const text = e instanceof Error ? `${e.name} ${e.message}` : String(e);
  return /permission/i.test(text);
}

/** An append that could not be stored before its deadline. */
export class LogUnavailableError extends NodeError {
  constructor(readonly info: string) {
    super(`the replicated log is unavailable: ${info}`);
    this.name = "LogUnavailableError";
  }
}

/** True for the errors a publish gets while the stream has no leader (retryable). */
export function isRetryable(e: unknown): boolean {
  if (isPermissionError(e)) return false;
  const text = e instanceof Error ? `${e.name} ${e.message}` : String(e);
  // "no suitable peers for placement": the NATS cluster is still forming (its servers have not all met
  // yet, seen for ~1 s after a start on a loaded machine); the stream can be placed once they have.
  return /no responders|503|timeout|TIMEOUT|jetstream is not enabled|not enabled|closed|disconnect|leader|no suitable peers/i.test(
    text,
  );
}

/** The error for a permissions violation: which user, and what the server said. */
export function refused(options: { user?: string }, e: unknown): LogRefusedError {
  const user = options.user === undefined || options.user === "" ? "(no user)" : `user ${options.user}`;
  return new LogRefusedError(
    `NATS refused ${user}: ${e instanceof Error ? e.message : String(e)} (docs/cluster.md §2.3 lists each role's permissions)`,
  );
}
