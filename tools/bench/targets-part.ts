/**
 * The targets of a run against the embedded reference: a full local run as a person waits for it
 * (`npm run conformance`: the suite, its summary, the report rendered and the secret scan; the median
 * of FULL_RUNS, each split into its phases), the suite run alone (server start included) and its peak
 * memory, the same run given --reporter=dot (same time, same record), what a one-test run sends, and
 * what a 10 s settlement delay adds. Each is measured with the machine's load beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { renderReport } from '../../scripts/report';
import {
  measureSuite,
  countsText,
  failureList,
  sameCounts,
  slowestTests,
  writeBenchProfile,
  type Measured,
} from './suite-run';
import { removeTemporaryFiles } from './cleanup';
import { mb, mib, seconds, type Row } from './format';
import {
  ONE_TEST_GREP,
  SETTLEMENT_DELAY_MS,
  TARGET_ADDED_WALL_S,
  TARGET_ONE_TEST_REQUESTS,
  TARGET_PEAK_MB,
  TARGET_REPORTER_FLAG_PCT,
  TARGET_WALL_S,
  FULL_RUNS,
  WORKERS,
} from './targets';
import { missingFromRecord } from '../../record/run-folder';
import { timeHistoryCheck, type HistoryTiming } from './history';
import { measureConformance, median, type CommandRun } from './command-run';
import { measureFrameworkFloor } from './framework-floor';

export interface TargetsResult {
  /** The full local run, Allure results written as `npm run conformance` writes them. */
  full: Measured;
  /** Its history, read and checked (tools/bench/history.ts). */
  history: HistoryTiming | undefined;
  runs: Measured[];
  rows: Row[];
  notes: string[];
}

/** Renders a run's Allure results into a scratch folder with a scratch history: the time `npm run conformance` adds after the run. */
function timeReportRendering(runDir: string): number | undefined {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'payments-bench-report-'));
  try {
    const t0 = performance.now();
    const index = renderReport(path.join(runDir, 'allure-results'), path.join(scratch, 'report'), {
      print: false,
      historyPath: path.join(scratch, 'history.jsonl'),
    });
    return index ? performance.now() - t0 : undefined;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function targetsPart(): Promise<TargetsResult> {
  const rows: Row[] = [];
  const notes: string[] = [];

  // What a person waits for: the command, its report and its secret scan, FULL_RUNS times.
  const commands: CommandRun[] = [];
  for (let i = 1; i <= FULL_RUNS; i++)
    commands.push(await measureConformance(`npm run conformance (${i} of ${FULL_RUNS})`, ['--project=local']));
  const walls = commands.map((c) => c.wallMs);
  const typical = median(walls);
  const clean = commands.every((c) => c.exitCode === 0);
  // The tests of the first run: its counts line's passed, failed and skipped ("673 passed, 0 failed, 0 skipped").
  const tests = commands[0]?.counts
    ?.match(/\d+/g)
    ?.slice(0, 3)
    .reduce((sum, n) => sum + Number(n), 0);
  rows.push({
    measure: `a full local run as a person waits for it: npm run conformance (${tests ?? 'an unknown number of'} tests, ${WORKERS} workers, report rendered, secret scan), median of ${FULL_RUNS} (${walls.map(seconds).join(', ')})`,
    value: seconds(typical),
    target: `< ${TARGET_WALL_S} s`,
    ok: typical < TARGET_WALL_S * 1000 && clean,
    load: { before: commands[0]!.load.before, after: commands.at(-1)!.load.after },
  });
  const phase = (key: keyof NonNullable<CommandRun['phases']>): string => {
    const values = commands.flatMap((c) => (c.phases ? [c.phases[key]] : []));
    return values.length ? seconds(median(values)) : '—';
  };
  rows.push({
    measure:
      'of which (medians): start (npm, the script, the runner, keys, tests loaded, reference and workers started) / the tests / the summary / the report with the secret scan beside it',
    value: `${phase('startMs')} / ${phase('testsMs')} / ${phase('summaryMs')} / ${phase('reportMs')}`,
    target: '—',
    ok: undefined,
  });
  const cpu = commands.flatMap((c) => (c.cpuSeconds !== undefined ? [c.cpuSeconds] : []));
  if (cpu.length)
    rows.push({
      measure: 'CPU of that command and every process it started (median)',
      value: `${median(cpu).toFixed(1)} CPU-s`,
      target: '—',
      ok: undefined,
    });
  for (const c of commands)
    if (c.exitCode !== 0) notes.push(`npm run conformance exited ${c.exitCode}: ${c.counts ?? ''}`);

  let renderMs: number | undefined;
  let history: HistoryTiming | undefined;
  const full = await measureSuite(`full local run, ${WORKERS} workers`, {
    project: 'local',
    workers: WORKERS,
    inspect: (runDir) => {
      renderMs = timeReportRendering(runDir);
      history = timeHistoryCheck(runDir);
    },
  });
  rows.push({
    measure: `of which the suite run alone (npx playwright test, ${WORKERS} workers, server start included, Allure results written)`,
    value: seconds(full.wallMs),
    target: '—',
    ok: undefined,
    load: full.load,
  });
  rows.push({
    measure: 'peak memory of that run (RSS summed over the process tree)',
    value: `${mb(full.peakRssBytes)} (${mib(full.peakRssBytes)})`,
    target: `< ${TARGET_PEAK_MB} MB`,
    ok: full.peakRssBytes < TARGET_PEAK_MB * 1e6,
    load: full.load,
  });
  if (renderMs !== undefined)
    rows.push({
      measure: 'report rendering after it (allure generate, what npm run conformance adds)',
      value: seconds(renderMs),
      target: '—',
      ok: undefined,
    });
  // What the target leaves for the suite's own work: the same count of tests, empty, through the
  // same runner, reporter and rendering. A floor at or above the target says no tuning reaches it.
  const files = new Set(full.run.tests.map((t) => t.file)).size;
  const floor = await measureFrameworkFloor({ tests: full.run.tests.length, files, workers: WORKERS });
  rows.push({
    measure: `the framework alone: ${floor.passed} empty tests in ${files} files, ${WORKERS} workers, Allure results written by the run's own reporter, then rendered (no reference, key or request)`,
    value: `${seconds(floor.runMs + (floor.renderMs ?? 0))} (run ${seconds(floor.runMs)}, rendering ${floor.renderMs === undefined ? '—' : seconds(floor.renderMs)})${floor.cpuSeconds !== undefined ? `, the run ${floor.cpuSeconds.toFixed(1)} CPU-s` : ''}`,
    target: '—',
    ok: undefined,
    load: floor.load,
  });

  // Playwright's --reporter replaces the config's reporters; the suite's plan and record must not go with them.
  let missing: string[] = [];
  const dot = await measureSuite(`full local run, ${WORKERS} workers, --reporter=dot`, {
    project: 'local',
    workers: WORKERS,
    args: ['--reporter=dot'],
    inspect: (runDir) => (missing = missingFromRecord(runDir)),
  });
  const change = (100 * (dot.wallMs - full.wallMs)) / full.wallMs;
  rows.push({
    measure: `the same run given --reporter=dot (${missing.length ? `record lacks ${missing.join(', ')}` : 'plan, run.json, results.json and Allure results kept'})`,
    value: `${seconds(dot.wallMs)} (${change < 0 ? '−' : '+'}${Math.abs(change).toFixed(0)} %)`,
    target: `±${TARGET_REPORTER_FLAG_PCT} %, record kept`,
    ok: Math.abs(change) <= TARGET_REPORTER_FLAG_PCT && !missing.length,
    load: dot.load,
  });
  if (!sameCounts(full, dot))
    notes.push(
      `--reporter=dot run verdicts differ from the full run: ${countsText(dot)} vs ${countsText(full)}${failureList(dot)}`,
    );

  // The runner writes every Allure result and attachment itself (allure-js-commons fsyncs each file): what that costs the run.
  const noAllure = await measureSuite(`full local run, ${WORKERS} workers, no Allure results`, {
    project: 'local',
    workers: WORKERS,
    allure: false,
  });
  rows.push({
    measure: 'the same run writing no Allure results (PAYMENTS_ALLURE=0)',
    value: `${seconds(noAllure.wallMs)} (${noAllure.wallMs <= full.wallMs ? '−' : '+'}${seconds(Math.abs(full.wallMs - noAllure.wallMs))})`,
    target: '—',
    ok: undefined,
    load: noAllure.load,
  });

  // The probe counts every request of every process, client registrations included, not only the transcripts' exchanges.
  const oneTest = await measureSuite(`--grep ${ONE_TEST_GREP}`, {
    project: 'local',
    workers: WORKERS,
    args: ['--grep', ONE_TEST_GREP],
    probe: true,
  });
  const sent = oneTest.processes.filter((p) => p.kind !== 'reference').flatMap((p) => p.requests);
  rows.push({
    measure: `requests of a one-test run (--grep ${ONE_TEST_GREP}, ${oneTest.run.counts.passed + oneTest.run.counts.failed} test run)`,
    value: String(sent.length),
    target: `≤ ${TARGET_ONE_TEST_REQUESTS}`,
    ok: sent.length <= TARGET_ONE_TEST_REQUESTS,
    load: oneTest.load,
  });
  notes.push(
    `the requests of the one-test run: ${sent.map((r) => `${r.method} ${new URL(r.url).pathname}`).join(', ') || 'none'}`,
  );

  // The local profile's 10 s polling timeout would end every wait just as the payment settles: a
  // temporary copy waits longer. Same suite, same reference, same dialect.
  writeBenchProfile('bench-delay', 45_000);
  let delayed: Measured;
  try {
    delayed = await measureSuite(`full run, settlement ${SETTLEMENT_DELAY_MS / 1000} s`, {
      project: 'bench-delay',
      workers: WORKERS,
      env: { REF_SETTLEMENT_DELAY_MS: String(SETTLEMENT_DELAY_MS) },
    });
  } finally {
    removeTemporaryFiles();
  }
  const added = (delayed.wallMs - full.wallMs) / 1000;
  rows.push({
    measure: `added wall time with a ${SETTLEMENT_DELAY_MS / 1000} s settlement delay (${WORKERS} workers)`,
    value: `+${added.toFixed(1)} s`,
    target: `≤ ${TARGET_ADDED_WALL_S} s`,
    ok: added <= TARGET_ADDED_WALL_S,
    load: delayed.load,
  });
  const slow = slowestTests(delayed, 5, SETTLEMENT_DELAY_MS);
  notes.push(
    `with the ${SETTLEMENT_DELAY_MS / 1000} s settlement delay, the longest tests (a test waits when its observation or the pool is still settling; ${slow.atLeast} took ≥ ${SETTLEMENT_DELAY_MS / 1000} s): ${slow.slowest.join('; ')}`,
  );
  if (!sameCounts(full, delayed))
    notes.push(
      `settlement-delay run verdicts differ from the full run: ${countsText(delayed)} vs ${countsText(full)}${failureList(delayed)}`,
    );
  if (full.run.counts.failed) notes.push(`the full run had failures${failureList(full)}`);

  return { full, history, runs: [full, dot, noAllure, oneTest, delayed], rows, notes };
}
