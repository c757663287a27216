/**
 * The machine's CPU and disk counters, read from /proc (Linux; undefined elsewhere): what a load run reports
 * beside the node's own CPU to show how much other work the shared machine did and whether the disk bound
 * the write rate. Plain file reads: no process is started (the launcher is nodeProcess.ts).
 */
import { readFileSync } from "node:fs";

/**
 * Busy and total CPU time of the whole machine (first line of /proc/stat, clock ticks): with the node's
 * and the generator's own CPU it shows how much other work took on a shared machine. Undefined off Linux.
 */
export function machineCpuTicks(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!;
    // cpu user nice system idle iowait irq softirq steal ...
    const f = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const idle = f[3]! + f[4]!;
    const total = f.reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** Cumulative counters of the machine's whole disks (/proc/diskstats; ms and counts). */
export interface DiskCounters {
  /** ms with I/O in flight (io_ticks), largest over the disks */
  busyMs: number;
  writes: number;
  writeMs: number;
}

/** Whole disks only (vda, sda, nvme0n1 …), not partitions or loop devices. */
const WHOLE_DISK = /^(?:[vsh]d[a-z]+|xvd[a-z]+|nvme\d+n\d+)$/;

/**
 * Disk counters of the machine: they show whether the disk, rather than a CPU, bounds the write rate
 * (the node makes every journal batch durable before it answers). Undefined off Linux.
 */
export function diskCounters(): DiskCounters | undefined {
  try {
    const out: DiskCounters = { busyMs: 0, writes: 0, writeMs: 0 };
    for (const line of readFileSync("/proc/diskstats", "utf8").split("\n")) {
      const f = line.trim().split(/\s+/);
      if (f.length < 14 || !WHOLE_DISK.test(f[2]!)) continue;
      // after major, minor, name: reads, merged, sectors, ms, writes(7), merged, sectors, ms(10), in flight,
      // io_ticks(12), … (the flush counters that follow are not reliable on virtio disks: not used)
      out.writes += Number(f[7]);
      out.writeMs += Number(f[10]);
      out.busyMs = Math.max(out.busyMs, Number(f[12]));
    }
    return out;
  } catch {
    return undefined;
  }
}
