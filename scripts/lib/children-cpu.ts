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
