/**
 * What tools/bench/probe.cjs recorded in each process of a run: its kind, start and end (epoch
 * ms), the CPU time and peak RSS the system counted, its HTTP requests, and its CPU profile.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { memoryEnvironment } from '../../scripts/lib/run-playwright';
import type { CpuProfile } from './cpu-profile';

const PROBE = path.join(__dirname, 'probe.cjs');

export interface ProbedRequest {
  method: string;
  url: string;
  sentAt: number;
  /** When the answer's headers came back; null when none did. */
  answeredAt: number | null;
}

export type ProcessKind = 'runner' | 'worker' | 'reference' | 'other';

export interface ProbedProcess {
  pid: number;
  kind: ProcessKind;
  /** Playwright's worker index, for workers. */
  workerIndex: number | undefined;
  startedAt: number;
  endedAt: number;
  /** User and system CPU of the whole process, its threads included (process.cpuUsage at exit). */
  cpuSeconds: number;
  /** Its peak resident set (resourceUsage().maxRSS at exit). */
  peakRssBytes: number;
  requests: ProbedRequest[];
  profile: CpuProfile | undefined;
}

/**
 * The environment that preloads the probe into every Node process of a run, writing into `dir`;
 * without `cpuProfile`, only the requests (the profiler and its files cost each process CPU).
 */
export function probeEnvironment(dir: string, { cpuProfile = true } = {}): Record<string, string> {
  // NODE_OPTIONS replaces the one runPlaywright would set: keep its memory flags beside the preload.
  return {
    PAYMENTS_BENCH_PROBE: dir,
    ...(cpuProfile ? {} : { PAYMENTS_BENCH_PROBE_CPU: '0' }),
    NODE_OPTIONS: memoryEnvironment({ NODE_OPTIONS: `--require ${PROBE}` }).NODE_OPTIONS!,
  };
}

interface Marks {
  pid: number;
  argv: string[];
  workerIndex: string | null;
  startedAt: number;
  endedAt: number;
  cpu: { user: number; system: number };
  maxRssKb: number;
  requests: ProbedRequest[];
}

function kindOf(marks: Marks): ProcessKind {
  const script = marks.argv[0] ?? '';
  if (marks.workerIndex !== null) return 'worker';
  if (script.endsWith(path.join('@playwright', 'test', 'cli.js'))) return 'runner';
  if (script.endsWith(path.join('reference', 'main.ts'))) return 'reference';
  return 'other';
}

/** Every process the probe saw, oldest first. */
export function readProbe(dir: string): ProbedProcess[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f): ProbedProcess => {
      const marks = JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as Marks;
      const profileFile = path.join(dir, `${marks.pid}.cpuprofile`);
      return {
        pid: marks.pid,
        kind: kindOf(marks),
        workerIndex: marks.workerIndex === null ? undefined : Number(marks.workerIndex),
        startedAt: marks.startedAt,
        endedAt: marks.endedAt,
        cpuSeconds: (marks.cpu.user + marks.cpu.system) / 1e6,
        peakRssBytes: marks.maxRssKb * 1024,
        requests: marks.requests,
        profile: existsSync(profileFile) ? (JSON.parse(readFileSync(profileFile, 'utf8')) as CpuProfile) : undefined,
      };
    })
    .sort((a, b) => a.startedAt - b.startedAt);
}
