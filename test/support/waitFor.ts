/**
 * Waiting for a condition, with a bound, instead of sleeping a fixed time before an assertion: a fixed sleep
 * is too short on a loaded machine (a flaky failure) and wasted on an idle one. The one polling helper of the
 * tests (test/unit/rpc/nodeHarness.ts re-exports it).
 */

/**
 * Poll `probe` every `everyMs` until it returns a value other than undefined, and resolve with it; reject
 * after `timeoutMs` with `timed out waiting for <what>` (and `detail()`, e.g. a node's log tail).
 * An error thrown by `probe` propagates: wrap it (`.catch(() => undefined)`) where "not yet" looks like one.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 30_000,
  everyMs = 50,
  detail?: () => string | Promise<string>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${what} (${timeoutMs} ms)${detail === undefined ? "" : `: ${await detail()}`}`,
      );
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** `waitFor` for a yes/no condition. */
export async function waitUntil(
  what: string,
  condition: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
  everyMs = 50,
  detail?: () => string | Promise<string>,
): Promise<void> {
  await waitFor(what, async () => ((await condition()) ? true : undefined), timeoutMs, everyMs, detail);
}
