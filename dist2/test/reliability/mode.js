/**
 * Run modes of the reliability suites. CI runs the short mode (`make test`); `LEDGERD_LONG=1`
 * (`make test-long`) runs the long one: more crash rounds, more fuzz cases, bigger floods.
 */
/** True under `LEDGERD_LONG=1`. */
export const LONG = process.env.LEDGERD_LONG === "1";
/**
 * Seed of the pseudo-random generators: `LEDGERD_FUZZ_SEED` when set (to replay a failure), else a fixed
 * default in CI (the same cases on every run) and the current time in long mode (new cases each run).
 * Every test prints the seed it used.
 */
export function fuzzSeed() {
    const fromEnv = process.env.LEDGERD_FUZZ_SEED;
    if (fromEnv !== undefined && fromEnv !== "") {
        const n = Number(fromEnv);
        if (!Number.isSafeInteger(n))
            throw new Error(`LEDGERD_FUZZ_SEED must be an integer, got ${JSON.stringify(fromEnv)}`);
        return n >>> 0;
    }
    return LONG ? Date.now() >>> 0 : 0x5eed_2026;
}
//# sourceMappingURL=mode.js.map