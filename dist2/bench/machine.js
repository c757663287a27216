/** The machine a set of figures belongs to (bench/results/*.json). */
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";
export function describeMachine() {
    return {
        cpuModel: cpus()[0]?.model.trim() ?? "unknown",
        cpus: availableParallelism(),
        memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
        node: process.version,
        platform: process.platform,
        arch: process.arch,
        loadAverage1m: Math.round(loadavg()[0] * 100) / 100,
    };
}
//# sourceMappingURL=machine.js.map