/**
 * Where the time of a profiled run goes, from what the probe recorded (tools/bench/probe.ts)
 * and the run's Playwright JSON report: CPU per activity in the runner, the workers and the
 * reference; per worker, how long it took to start, when its first request went out and came back,
 * and how much of its wall time was spent with a request in flight or waiting for the scheme.
 */
import type { JsonStep, ReportTest } from '../../record/playwright-report';
import { ACTIVITIES, timeByActivity, type Activity } from './cpu-profile';
import type { ProbedProcess, ProbedRequest } from './probe';

export interface CpuRow {
  activity: Activity;
  /** Milliseconds of CPU (idle: of waiting) in each kind of process. */
  runner: number;
  workers: number;
  reference: number;
}

export interface WorkerTimeline {
  workerIndex: number;
  /** Milliseconds after the runner started. */
  processStart: number;
  firstTestStart: number | undefined;
  firstRequest: (ProbedRequest & { sent: number; answered: number | undefined }) | undefined;
  processEnd: number;
  /** CPU per activity from the worker's start to its first request: what a worker does before it can test. */
  beforeFirstRequest: Map<Activity, number>;
  requests: number;
  /** Wall time with at least one request of this worker in flight. */
  requestsInFlightMs: number;
  /** Wall time in steps that wait for the scheme: observations, the settled-payment pool. */
  settlementWaitMs: number;
  /** Sum of its tests' durations. */
  testsMs: number;
  /** Time between one of its tests ending and the next beginning: the runner handing over the next test, the worker's own work in between. */
  betweenTestsMs: number;
  /** From the end of its last test to the end of the process: worker teardown. */
  afterLastTestMs: number;
}

export interface Breakdown {
  wallMs: number;
  cpu: CpuRow[];
  workers: WorkerTimeline[];
  /** When the reference process started, ms after the runner started. */
  referenceStart: number | undefined;
  /** When the first worker process started, and the runner's CPU per activity until then (config, profiles, keys, server start). */
  firstWorkerStart: number | undefined;
  runnerBeforeWorkers: Map<Activity, number>;
}

/** Total length of the union of [from, to] intervals. */
function unionMs(intervals: readonly [number, number][]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = Number.NEGATIVE_INFINITY;
  for (const [from, to] of sorted) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total;
}

const WAIT_STEP = /\bwait for\b/;
/** Top-level waiting steps only: a wait inside a wait is counted once. */
const waitingMs = (steps: readonly JsonStep[] | undefined): number =>
  (steps ?? []).reduce((sum, s) => sum + (WAIT_STEP.test(s.title) ? s.duration : waitingMs(s.steps)), 0);

export function breakdown(processes: readonly ProbedProcess[], tests: readonly ReportTest[]): Breakdown {
  const runner = processes.find((p) => p.kind === 'runner');
  const t0 = runner?.startedAt ?? Math.min(...processes.map((p) => p.startedAt));
  const wallMs = (runner?.endedAt ?? Math.max(...processes.map((p) => p.endedAt))) - t0;

  const cpu = new Map<Activity, CpuRow>(
    ACTIVITIES.map((activity) => [activity, { activity, runner: 0, workers: 0, reference: 0 }]),
  );
  for (const p of processes) {
    if (!p.profile || p.kind === 'other') continue;
    const column = p.kind === 'worker' ? 'workers' : p.kind;
    for (const [activity, ms] of timeByActivity(p.profile)) cpu.get(activity)![column] += ms;
  }

  const results = tests.flatMap((t) => t.results);
  const workers = processes
    .filter((p) => p.kind === 'worker')
    .map((p): WorkerTimeline => {
      const own = results.filter((r) => r.workerIndex === p.workerIndex && r.startTime);
      const firstTestStart = own.length ? Math.min(...own.map((r) => Date.parse(r.startTime!))) - t0 : undefined;
      const first = p.requests[0];
      const spans = own
        .map((r) => ({ from: Date.parse(r.startTime!) - t0, to: Date.parse(r.startTime!) - t0 + (r.duration ?? 0) }))
        .sort((a, b) => a.from - b.from);
      const betweenTestsMs = spans.slice(1).reduce((sum, s, i) => sum + Math.max(0, s.from - spans[i]!.to), 0);
      const lastEnd = spans.length ? Math.max(...spans.map((s) => s.to)) : undefined;
      return {
        workerIndex: p.workerIndex!,
        processStart: p.startedAt - t0,
        firstTestStart,
        firstRequest: first
          ? {
              ...first,
              sent: first.sentAt - t0,
              answered: first.answeredAt === null ? undefined : first.answeredAt - t0,
            }
          : undefined,
        processEnd: p.endedAt - t0,
        beforeFirstRequest: p.profile && first ? timeByActivity(p.profile, 0, first.sentAt - p.startedAt) : new Map(),
        requests: p.requests.length,
        requestsInFlightMs: unionMs(p.requests.map((r) => [r.sentAt, r.answeredAt ?? r.sentAt])),
        settlementWaitMs: own.reduce((sum, r) => sum + waitingMs(r.steps), 0),
        testsMs: own.reduce((sum, r) => sum + (r.duration ?? 0), 0),
        betweenTestsMs,
        afterLastTestMs: lastEnd === undefined ? 0 : p.endedAt - t0 - lastEnd,
      };
    })
    .sort((a, b) => a.workerIndex - b.workerIndex);

  const reference = processes.find((p) => p.kind === 'reference');
  const firstWorkerStart = workers.length ? Math.min(...workers.map((w) => w.processStart)) : undefined;
  return {
    wallMs,
    cpu: [...cpu.values()],
    workers,
    referenceStart: reference ? reference.startedAt - t0 : undefined,
    firstWorkerStart,
    runnerBeforeWorkers:
      runner?.profile && firstWorkerStart !== undefined
        ? timeByActivity(runner.profile, 0, firstWorkerStart)
        : new Map(),
  };
}
