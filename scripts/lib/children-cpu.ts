/**
 * CPU seconds of the processes this one has waited for, children and what they waited for (Linux
 * /proc: cutime + cstime); undefined elsewhere. On a shared machine a command's wall time says
 * little, its CPU time is what a quiet machine would spend.
 */
import { readFileSync } from 'node:fs';

export function childrenCpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5) (cutime, cstime), counted from the state field, which is the 3rd;
    // in clock ticks, which /proc gives in USER_HZ (100 a second).
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

/** The machine's CPU time since boot in clock ticks, busy and in all (Linux /proc/stat); undefined elsewhere. */
export interface MachineCpu {
  busy: number;
  total: number;
}

/**
 * Every process's CPU, not only those this one waited for: the references a run's global setup starts
 * and leaves to exit after it are nobody's waited-for children, and their CPU is in no cutime.
 */
export function machineCpu(): MachineCpu | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    // cpu user nice system idle iowait irq softirq steal (guest time is counted in user already).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const busy = user! + nice! + system! + irq! + softirq! + (steal ?? 0);
    const total = busy + idle! + iowait!;
    return Number.isFinite(total) && total > 0 ? { busy, total } : undefined;
  } catch {
    return undefined;
  }
}

/** The share of the machine's cores that were busy between two readings, whatever ran. */
export function busyShare(before: MachineCpu, after: MachineCpu): number | undefined {
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : undefined;
}
