/** Load generation against one endpoint: concurrent loops over pre-built submissions, latencies and their percentiles. */
import { performance } from 'node:perf_hooks';
import type { Pool } from 'undici';
import { CONNECTIONS } from './targets';

export interface Submission {
  body: string;
  headers: Record<string, string>;
}

export interface LoadResult {
  completed: number;
  ok: number;
  statuses: Map<number, number>;
  errors: number;
  elapsedMs: number;
  exhausted: boolean;
  p50: number;
  p99: number;
}

export const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** One result over consecutive windows: counts add up, percentiles come from every latency. */
export function mergeWindows(windows: (LoadResult & { latencies: number[] })[]): LoadResult {
  const latencies = windows.flatMap((w) => w.latencies).sort((a, b) => a - b);
  const statuses = new Map<number, number>();
  for (const w of windows) for (const [code, n] of w.statuses) statuses.set(code, (statuses.get(code) ?? 0) + n);
  return {
    completed: latencies.length,
    ok: windows.reduce((n, w) => n + w.ok, 0),
    statuses,
    errors: windows.reduce((n, w) => n + w.errors, 0),
    elapsedMs: windows.reduce((n, w) => n + w.elapsedMs, 0),
    exhausted: windows.some((w) => w.exhausted),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

const percentile = (sorted: number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;

/**
 * CONNECTIONS concurrent loops, each sending the next pre-built submission until the time or the pool
 * runs out. `cycle` reuses the pool (for an endpoint that ignores content; the reference needs a fresh
 * msgId and SCA JWT per submission).
 */
export async function fire(
  pool: Pool,
  urlPath: string,
  items: Submission[],
  from: number,
  durationMs: number,
  okStatus: number,
  cycle = false,
): Promise<LoadResult & { next: number; latencies: number[] }> {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let next = from;
  let errors = 0;
  let exhausted = false;
  const started = performance.now();
  const deadline = started + durationMs;
  const loop = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const item = items[cycle ? next++ % items.length : next++];
      if (!item) {
        exhausted = true;
        return;
      }
      const t0 = performance.now();
      try {
        const res = await pool.request({ path: urlPath, method: 'POST', headers: item.headers, body: item.body });
        await res.body.text();
        latencies.push(performance.now() - t0);
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const elapsedMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    completed: latencies.length,
    ok: statuses.get(okStatus) ?? 0,
    statuses,
    errors,
    elapsedMs,
    exhausted,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    next: Math.min(next, items.length),
    latencies,
  };
}
