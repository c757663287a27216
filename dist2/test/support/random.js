/**
 * Seeded pseudo-random numbers for property and fuzz tests (mulberry32: 32-bit state, fast, good enough for
 * test data — NOT for keys). The same seed gives the same sequence, so a failing case can be replayed by
 * its seed, which every test prints in its assertion messages.
 */
export class Random {
    seed;
    state;
    constructor(seed) {
        this.seed = seed;
        this.state = seed >>> 0;
    }
    /** Uniform u32. */
    u32() {
        this.state = (this.state + 0x6d2b79f5) >>> 0;
        let t = this.state;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return (t ^ (t >>> 14)) >>> 0;
    }
    /** Uniform float in [0, 1). */
    float() {
        return this.u32() / 2 ** 32;
    }
    /** Uniform integer in [min, max] (inclusive; both safe integers, range below 2^53). */
    int(min, max) {
        return min + Math.floor(this.float() * (max - min + 1));
    }
    /** true with probability p. */
    chance(p) {
        return this.float() < p;
    }
    /** `n` random bytes. */
    bytes(n) {
        const out = new Uint8Array(n);
        for (let i = 0; i < n; i += 4) {
            const v = this.u32();
            for (let k = 0; k < 4 && i + k < n; k++)
                out[i + k] = (v >>> (8 * k)) & 0xff;
        }
        return out;
    }
    /** Uniform 64-bit unsigned bigint. */
    u64() {
        return (BigInt(this.u32()) << 32n) | BigInt(this.u32());
    }
    /** One element of a non-empty array. */
    pick(items) {
        return items[this.int(0, items.length - 1)];
    }
    /**
     * A mutated copy of `bytes` for fuzzing decoders: flips, overwrites, truncations, extensions, inserted or
     * removed runs — one to three of them.
     */
    mutate(bytes) {
        let out = bytes.slice();
        const rounds = this.int(1, 3);
        for (let round = 0; round < rounds; round++) {
            const at = out.length === 0 ? 0 : this.int(0, out.length - 1);
            switch (this.int(0, 5)) {
                case 0: // flip one bit
                    if (out.length > 0)
                        out[at] ^= 1 << this.int(0, 7);
                    break;
                case 1: // overwrite one byte
                    if (out.length > 0)
                        out[at] = this.int(0, 255);
                    break;
                case 2: // truncate
                    out = out.slice(0, this.int(0, out.length));
                    break;
                case 3: // append random bytes
                    out = Uint8Array.from([...out, ...this.bytes(this.int(1, 40))]);
                    break;
                case 4: // insert random bytes
                    out = Uint8Array.from([...out.subarray(0, at), ...this.bytes(this.int(1, 8)), ...out.subarray(at)]);
                    break;
                default: // remove a run
                    out = Uint8Array.from([...out.subarray(0, at), ...out.subarray(Math.min(out.length, at + this.int(1, 8)))]);
            }
        }
        return out;
    }
}
//# sourceMappingURL=random.js.map