/**
 * Typed rejections of the worker pool. A bad signature is never an error (it verifies false);
 * these mean the pool could not do the work at all, so rpc/errors.ts maps them to an internal error.
 */
import { NodeError } from "../errors.js";

export type WorkerPoolErrorType =
  | { code: "POOL_CLOSED"; what: string } // close() was called before or while the work ran
  | { code: "TASK_FAILED"; what: string; reason: string }; // the worker thread died or the task threw

export class WorkerPoolError extends NodeError {
  constructor(
    readonly type: WorkerPoolErrorType,
    options?: { cause?: unknown },
  ) {
    super(
      type.code === "POOL_CLOSED"
        ? `${type.what}: the worker pool is closed`
        : `${type.what}: worker task failed: ${type.reason}`,
      options,
    );
    this.name = "WorkerPoolError";
  }
}
