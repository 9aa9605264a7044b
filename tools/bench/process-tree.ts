/** Peak resident memory of a suite run: every process under the Playwright CLI a bench started, read from /proc. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const PAGE_BYTES = 4096;

/**
 * Sum of resident memory, in bytes, of every process under `root`'s Playwright child (runner,
 * workers, reference and its shell), not `root` nor its other children: tsx keeps an esbuild service
 * process under the bench once it has compiled a changed file, the bench's, not the suite's.
 */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name sits in parentheses and may hold spaces: fields are counted after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      const ppid = Number(fields[1]);
      rss.set(pid, Number(fields[21]) * PAGE_BYTES);
      children.set(ppid, [...(children.get(ppid) ?? []), pid]);
    } catch {
      // The process ended between readdir and read.
    }
  }
  let total = 0;
  const stack = (children.get(root) ?? []).filter(isPlaywrightCli);
  while (stack.length) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** The Playwright CLI that runPlaywright starts (`node node_modules/@playwright/test/cli.js test …`). */
function isPlaywrightCli(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .some((arg) => arg.endsWith(path.join('@playwright', 'test', 'cli.js')));
  } catch {
    return false;
  }
}

/** Samples the tree under this process every 200 ms until stopped; returns the peak in bytes. */
export function rssSampler(): { stop: () => number } {
  let peak = 0;
  const sample = (): void => {
    peak = Math.max(peak, treeRss(process.pid));
  };
  const timer = setInterval(sample, 200);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}
