/**
 * The least time a run against a remote-like target can take: its longest chain of requests one after
 * the other, each a round trip, or all its requests at the target's rate limit, whichever is longer.
 * Printed beside the wall time at the end of a run whose profile declares a rate limit, so a reader
 * sees how far the run is from what the target allows.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readWorkerFiles, writeWorkerFile } from './worker-files';

/** What a transcript line (transport/transcript.ts exchangeRecord, with its test) says about timing. */
export interface TimedExchange {
  test: string;
  startedAt: string;
  durationMs: number;
  retries?: readonly unknown[];
}

export interface RunFloor {
  /** Requests sent: the workers' count, else the exchanges recorded in the transcripts and their retries. */
  requests: number;
  /** The most requests of one test that ran one after the other (no overlap). */
  criticalPath: number;
  /** The test that has it. */
  criticalTest: string;
  /** The quickest exchange without retries: a round trip with the target's latency. */
  rttMs: number;
  floorMs: number;
}

/** Longest chain of non-overlapping intervals (earliest end first). */
function longestChain(intervals: [number, number][]): number {
  let end = -Infinity;
  let count = 0;
  for (const [start, stop] of [...intervals].sort((a, b) => a[1] - b[1])) {
    if (start >= end) {
      count++;
      end = stop;
    }
  }
  return count;
}

/** Where a worker leaves the number of requests it sent, background work included. */
export function writeRequestCount(dir: string, workerIndex: number, sent: number): void {
  writeWorkerFile(dir, 'requests', workerIndex, { sent });
}

/** Requests every worker of the run sent (retries and background work included); undefined when none wrote its count. */
export function readRequestCounts(dir: string): number | undefined {
  const files = readWorkerFiles(dir, 'requests') as { sent?: unknown }[] | undefined;
  return files?.reduce((sum: number, f) => sum + (Number(f.sent) || 0), 0);
}

/** `sent`: the workers' own count of requests, when known (the transcripts hold only what a test showed). */
export function runFloor(
  exchanges: readonly TimedExchange[],
  requestsPerSecond: number,
  sent?: number,
): RunFloor | undefined {
  if (!exchanges.length) return undefined;
  const byTest = new Map<string, [number, number][]>();
  let requests = 0;
  let rttMs = Infinity;
  for (const e of exchanges) {
    requests += 1 + (e.retries?.length ?? 0);
    const start = Date.parse(e.startedAt);
    const list = byTest.get(e.test) ?? [];
    list.push([start, start + e.durationMs]);
    byTest.set(e.test, list);
    if (!e.retries?.length) rttMs = Math.min(rttMs, e.durationMs);
  }
  let criticalPath = 0;
  let criticalTest = '';
  for (const [test, intervals] of byTest) {
    const chain = longestChain(intervals);
    if (chain > criticalPath) [criticalPath, criticalTest] = [chain, test];
  }
  if (!Number.isFinite(rttMs)) rttMs = 0;
  requests = Math.max(requests, sent ?? 0);
  return {
    requests,
    criticalPath,
    criticalTest,
    rttMs,
    floorMs: Math.max(criticalPath * rttMs, (requests / requestsPerSecond) * 1000),
  };
}

/** Every exchange of a run's transcripts folder (one JSONL file per worker). */
export function readTranscripts(dir: string): TimedExchange[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  } catch {
    return [];
  }
  return files.flatMap((f) =>
    readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as TimedExchange];
        } catch {
          return [];
        }
      }),
  );
}

export function describeFloor(floor: RunFloor, requestsPerSecond: number, wallMs: number): string {
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  return `wall ${s(wallMs)}, floor ${s(floor.floorMs)} = max(critical path ${floor.criticalPath} requests × RTT ${floor.rttMs} ms = ${s(floor.criticalPath * floor.rttMs)}, ${floor.requests} requests ÷ ${requestsPerSecond}/s = ${s((floor.requests / requestsPerSecond) * 1000)}): ${(wallMs / floor.floorMs).toFixed(2)}× the floor`;
}
