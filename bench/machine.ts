/** The machine a set of figures belongs to (bench/results/*.json). */
import { availableParallelism, cpus, loadavg, totalmem } from "node:os";

export interface MachineDescription {
  cpuModel: string;
  /** cores available to this process */
  cpus: number;
  memoryGiB: number;
  node: string;
  platform: string;
  arch: string;
  /** 1-minute load average when the run started: > 0.5 means other work shared the cores */
  loadAverage1m: number;
}

export function describeMachine(): MachineDescription {
  return {
    cpuModel: cpus()[0]?.model.trim() ?? "unknown",
    cpus: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: process.platform,
    arch: process.arch,
    loadAverage1m: Math.round(loadavg()[0]! * 100) / 100,
  };
}
