/** reports/bench/latest.md: the targets with the load beside each, the runs, where the time goes, throughput, notes. */
import os from 'node:os';
import type { Activity } from './cpu-profile';
import type { Breakdown } from './breakdown';
import type { Measured } from './suite-run';
import type { ThroughputResults } from './throughput';
import { loadText, mark, mib, seconds, table, type Row } from './format';
import { CONNECTIONS } from './targets';

export interface BenchResults {
  startedAt: Date;
  totalMs: number;
  loadAtStart: number[];
  parts: string[];
  rows: Row[];
  runs: Measured[];
  breakdown: { run: Measured; breakdown: Breakdown } | undefined;
  throughput: ThroughputResults | undefined;
  notes: string[];
}

const ms = (value: number): string => `${(value / 1000).toFixed(2)} s`;
const at = (value: number | undefined): string => (value === undefined ? '—' : `${(value / 1000).toFixed(2)} s`);

/** The activities a worker spent its start on, largest first: "module loading 0.8 s, TS transform 0.3 s, …". */
function activityList(times: ReadonlyMap<Activity, number>, min = 50): string {
  return (
    [...times]
      .filter(([activity, t]) => activity !== 'idle' && t >= min)
      .sort((a, b) => b[1] - a[1])
      .map(([activity, t]) => `${activity} ${ms(t)}`)
      .join(', ') || '—'
  );
}

function breakdownSection(run: Measured, b: Breakdown): string[] {
  const lines: string[] = [];
  const busy = (key: 'runner' | 'workers' | 'reference'): number =>
    b.cpu.filter((r) => r.activity !== 'idle').reduce((sum, r) => sum + r[key], 0);
  const share = (value: number, total: number): string =>
    total > 0 ? `${ms(value)} (${((value / total) * 100).toFixed(0)} %)` : ms(value);
  const cell = (activity: Activity, value: number, total: number): string =>
    activity === 'idle' ? ms(value) : share(value, total);
  lines.push(
    '',
    `## Where the time goes (a profiled full local run: ${seconds(b.wallMs)} wall, load ${loadText(run.load)})`,
    '',
  );
  lines.push(
    'Profiling slows the run; read the shares, not the absolute times. Time on each process’s main thread per activity, from V8’s sampling profiler: a blocking call (an `fsync`, a synchronous key generation) counts as busy for the code that made it, `idle` is the event loop waiting. A sample is charged to the step, signing, transform or report writing it happened under, else to the innermost code that names an activity:',
    '',
  );
  lines.push(
    table(
      ['activity', 'runner', `workers (${b.workers.length}, summed)`, 'reference'],
      [
        ...b.cpu
          .filter((r) => r.runner + r.workers + r.reference >= 1)
          .sort(
            (x, y) =>
              Number(x.activity === 'idle') - Number(y.activity === 'idle') ||
              y.runner + y.workers + y.reference - (x.runner + x.workers + x.reference),
          )
          .map((r) => [
            r.activity,
            cell(r.activity, r.runner, busy('runner')),
            cell(r.activity, r.workers, busy('workers')),
            cell(r.activity, r.reference, busy('reference')),
          ]),
        ['**busy**', ms(busy('runner')), ms(busy('workers')), ms(busy('reference'))],
      ],
    ),
  );
  lines.push(
    '',
    'Wall clock per worker: its lifetime is its start, its tests, the gaps between them (outside every test’s duration: the runner handing over the next test, the worker’s own work in between) and its teardown. Inside the tests: requests in flight (at least one of its requests unanswered) and settlement waits (its tests’ `wait for` steps: observations, the settled-payment pool):',
    '',
  );
  lines.push(
    table(
      [
        'worker',
        'process lifetime',
        'start → first test',
        'tests (summed)',
        'between tests',
        'after last test',
        'requests',
        'requests in flight',
        'settlement waits',
      ],
      b.workers.map((w) => [
        String(w.workerIndex),
        ms(w.processEnd - w.processStart),
        w.firstTestStart === undefined ? '—' : ms(w.firstTestStart - w.processStart),
        ms(w.testsMs),
        ms(w.betweenTestsMs),
        ms(w.afterLastTestMs),
        String(w.requests),
        ms(w.requestsInFlightMs),
        ms(w.settlementWaitMs),
      ]),
    ),
  );
  lines.push(
    '',
    `The first request of each worker (times from the runner’s start). Before the first worker started (${at(b.firstWorkerStart)}), the runner’s main thread was busy with: ${activityList(b.runnerBeforeWorkers)}; the reference process started at ${at(b.referenceStart)}.`,
    '',
  );
  lines.push(
    table(
      [
        'worker',
        'process start',
        'first test begins',
        'first request',
        'sent',
        'answered',
        'CPU from process start to that request',
      ],
      b.workers.map((w) => [
        String(w.workerIndex),
        at(w.processStart),
        at(w.firstTestStart),
        w.firstRequest ? `${w.firstRequest.method} ${new URL(w.firstRequest.url).pathname}` : '—',
        at(w.firstRequest?.sent),
        at(w.firstRequest?.answered),
        activityList(w.beforeFirstRequest),
      ]),
    ),
  );
  return lines;
}

export function renderBench(results: BenchResults): string {
  const cpus = os.cpus();
  const lines = [
    '# Bench',
    '',
    `${results.startedAt.toISOString()} · ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}) · node ${process.version} · ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB · load average at start ${results.loadAtStart.map((l) => l.toFixed(2)).join(' ')} · parts ${results.parts.join(', ')} · bench took ${seconds(results.totalMs)}`,
    '',
    'Load is the 1-minute load average before → after each measurement: a shared machine with a load above its core count gives slow numbers.',
    '',
  ];
  if (results.rows.length)
    lines.push(
      '## Targets',
      '',
      table(
        ['measure', 'value', 'target', '', 'load'],
        results.rows.map((r) => [r.measure, r.value, r.target, mark(r.ok), r.load ? loadText(r.load) : '']),
      ),
    );
  if (results.runs.length) {
    lines.push('', '## Runs against the reference (`--project=local` unless named, server start included)', '');
    lines.push(
      table(
        ['run', 'wall time', 'passed', 'failed', 'skipped', 'HTTP exchanges', 'peak RSS (tree)', 'load'],
        results.runs.map((m) => [
          m.label,
          seconds(m.wallMs),
          String(m.run.counts.passed),
          String(m.run.counts.failed),
          String(m.run.counts.skipped),
          String(m.exchanges),
          mib(m.peakRssBytes),
          loadText(m.load),
        ]),
      ),
    );
  }
  if (results.breakdown) lines.push(...breakdownSection(results.breakdown.run, results.breakdown.breakdown));
  if (results.throughput) {
    lines.push('', `## Reference throughput (${CONNECTIONS} connections, pre-built requests)`, '');
    lines.push(
      table(
        ['server', 'requests/s', 'p50', 'p99', 'detail'],
        results.throughput.serverRows.map((r) => [
          r.server,
          r.perSecond.toFixed(0),
          `${r.p50.toFixed(1)} ms`,
          `${r.p99.toFixed(1)} ms`,
          r.detail,
        ]),
      ),
    );
  }
  if (results.notes.length) lines.push('', '## Notes', '', ...results.notes.map((n) => `- ${n}`));
  return `${lines.join('\n')}\n`;
}
