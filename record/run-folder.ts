/**
 * One folder per suite run: reports/runs/<UTC stamp>-<runId>/ holds everything the run wrote
 *
 *   allure-results/   raw Allure results (rendered into reports/allure-report by the scripts)
 *   results.json      Playwright's JSON report (what nightly, certify and compare read)
 *   junit.xml         the tests as JUnit XML, for CI (GitLab's test tab, Jenkins)
 *   transcripts/      redacted HTTP transcripts, one JSONL file per worker
 *   test-results/     Playwright's output folder
 *   run.json          runId, seed, projects, command, start, end, status, exit code, counts
 *
 * PAYMENTS_RUN_DIR names the folder. The scripts set it; a plain `npx playwright test` gets one from
 * the config (profile/run-settings.ts), exported before the workers fork so that they all agree. Nothing
 * shared is deleted when a run starts: a run writes into its own folder, and old folders are rotated
 * away (the newest PAYMENTS_KEEP_RUNS stay; a folder that may belong to a run still going is never
 * removed). The parent folder is PAYMENTS_RUNS_ROOT (profile/run-settings.ts reads both): every
 * function here is given it.
 */
import type { IsoCounts } from './iso-tally';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readdir, rmdir, unlink } from 'node:fs/promises';
import { runIdInFolderName } from '../profile/run-settings';
import os from 'node:os';
import path from 'node:path';
import type { TargetTally } from './target-tally';
import type { HistoryRecord } from './history';

export const RUN_RECORD = 'run.json';
/** A folder without an end mark younger than this may belong to a run still going. */
export const RUNNING_GRACE_MS = 60 * 60 * 1000;

export interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Tests the target's infrastructure left without evidence (429/502/503/504 after retries, no answer); not counted in skipped. */
  inconclusive?: number;
  flaky: number;
  /** Tests that reached a result (passed, failed or skipped by a fixture): 0 means nothing ran. */
  executed: number;
}

/** A live profile's payments at one moment of a run (client/live-budget.ts): made (201) and budget slots used. */
export interface LivePayments {
  profile: string;
  made: number;
  claimed: number;
  maxPayments: number;
}

export interface RunRecord {
  runId: string;
  seed: string;
  projects: string[];
  command: string;
  startedAt: string;
  endedAt?: string;
  /** running, then Playwright's final status: passed | failed | interrupted | timedout, or inconclusive (exit 4: nothing failed, some tests left without evidence). */
  status: string;
  exitCode?: number;
  counts?: RunCounts;
  /** Submissions the target accepted, by operation: what the run created there (record/created-count.ts). */
  created?: Record<string, number>;
  /** Messages sent as valid and how many passed their ISO 20022 XSD, by operation (record/iso-tally.ts). */
  iso?: IsoCounts;
  /**
   * Per project, what its target answered (record/target-tally.ts) and, when that makes one, the
   * run's verdict on it with its sentence (checks/target-verdict.ts: not validating, refuses or fails everything).
   */
  targets?: Record<string, TargetTally & { verdict?: string; sentence?: string }>;
  totalTests?: number;
  /** The run's history judged as one (runner/history.ts): a violation fails the run. */
  history?: HistoryRecord;
  /** Live profiles only: the payments counted when the tests began and when the run ended. */
  livePayments?: { before?: LivePayments[]; after?: LivePayments[] };
  pid: number;
  host: string;
}

/** Exit status of a run with inconclusive tests (infrastructure) and no failure: neither a pass nor a conformance failure. */
export const EXIT_INCONCLUSIVE = 4;

/**
 * A run whose every counted test was skipped assessed nothing: it must not pass as a green run (a
 * nightly job of one client's money sequences, an exploration without a second client). Decided by
 * the run's record (runner/reporters/record.ts), which every `--reporter` keeps.
 */
export const assessedNothing = (counts: Pick<RunCounts, 'passed' | 'failed' | 'skipped'>): boolean =>
  counts.skipped > 0 && counts.passed === 0 && counts.failed === 0;

/** Playwright's status of a run, failed when it passed but assessed nothing. */
export const recordedStatus = (status: string, counts: Pick<RunCounts, 'passed' | 'failed' | 'skipped'>): string =>
  status === 'passed' && assessedNothing(counts) ? 'failed' : status;

/** What a run that assessed nothing says, whatever reporter shows it. */
export const assessedNothingLine = (skipped: number): string =>
  `every selected test was skipped (${skipped}): nothing was assessed, the run fails (the skip reasons: the default reporter's summary, results.json)`;

/** 0 passed, 1 failed (or interrupted), 4 nothing failed but some tests were inconclusive. */
export function runExitCode(status: string, counts: Pick<RunCounts, 'inconclusive'>): number {
  if (status !== 'passed') return 1;
  return counts.inconclusive ? EXIT_INCONCLUSIVE : 0;
}

const RUN_FOLDER = /^\d{8}T\d{6}Z-.+$/;

/** Whether a folder is named like a run folder: only then are its siblings run folders to rotate. */
export const isRunFolderName = (dir: string): boolean => RUN_FOLDER.test(path.basename(dir));

/** Where one run keeps each of its artifacts. */
export interface RunPaths {
  dir: string;
  allureResults: string;
  jsonReport: string;
  /** The run's tests as JUnit XML (runner/junit.ts), where CI tools read results. */
  junit: string;
  transcripts: string;
  outputDir: string;
  /** What the selected tests will take (arrange/plan.ts), written when the run begins. */
  plan: string;
  /** A failed test's replay files (fixtures/api.ts): `<test>.sh` reruns it, `<test>.curl.sh` sends its last request. */
  replay: string;
  /** A live run's payment budget: a file per slot claimed, another per payment made (client/live-budget.ts). */
  liveBudget: string;
}

export function runPaths(dir: string): RunPaths {
  return {
    dir,
    allureResults: path.join(dir, 'allure-results'),
    jsonReport: path.join(dir, 'results.json'),
    junit: path.join(dir, 'junit.xml'),
    transcripts: path.join(dir, 'transcripts'),
    outputDir: path.join(dir, 'test-results'),
    plan: path.join(dir, 'plan.json'),
    replay: path.join(dir, 'replay'),
    liveBudget: path.join(dir, 'live-budget'),
  };
}

/** What of a finished run's record a run folder lacks (run.json with an end, results.json, Allure results, plan.json, junit.xml): empty when it is all there. */
export function missingFromRecord(dir: string, options: { allure?: boolean } = {}): string[] {
  const files = runPaths(dir);
  const missing: string[] = [];
  if (!readRunRecord(dir)?.endedAt) missing.push('run.json with an end');
  if (!existsSync(files.jsonReport)) missing.push('results.json');
  if (
    (options.allure ?? true) &&
    !(existsSync(files.allureResults) && readdirSync(files.allureResults).some((f) => f.endsWith('-result.json')))
  )
    missing.push('Allure results');
  if (!existsSync(files.plan)) missing.push('plan.json');
  if (!existsSync(files.junit)) missing.push('junit.xml');
  return missing;
}

export function readRunRecord(dir: string): RunRecord | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, RUN_RECORD), 'utf8')) as RunRecord;
  } catch {
    return undefined;
  }
}

export function writeRunRecord(dir: string, record: RunRecord): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, RUN_RECORD), `${JSON.stringify(record, null, 2)}\n`);
}

/** Updates run.json in place (the scripts add the exit code of the command). */
export function updateRunRecord(dir: string, patch: Partial<RunRecord>): RunRecord | undefined {
  const record = readRunRecord(dir);
  if (!record) return undefined;
  const updated = { ...record, ...patch };
  writeRunRecord(dir, updated);
  return updated;
}

/** A run that reached its end and ran at least one test: the only kind a report is rendered from. */
export const executedTests = (record: RunRecord | undefined): boolean =>
  Boolean(record?.endedAt && (record.counts?.executed ?? 0) > 0);

export interface RunEntry {
  dir: string;
  name: string;
  record: RunRecord | undefined;
}

/** Run folders under root, newest first. */
export function listRuns(root: string): RunEntry[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => RUN_FOLDER.test(name) && statSync(path.join(root, name)).isDirectory())
    .sort()
    .reverse()
    .map((name) => ({ dir: path.join(root, name), name, record: readRunRecord(path.join(root, name)) }));
}

function pidAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Without an end mark, a folder may belong to a run still going: young, or its runner is alive here. */
export function mayBeRunning(entry: RunEntry, now = Date.now()): boolean {
  if (entry.record?.endedAt) return false;
  let modified = 0;
  try {
    modified = statSync(entry.dir).mtimeMs;
    const record = path.join(entry.dir, RUN_RECORD);
    if (existsSync(record)) modified = Math.max(modified, statSync(record).mtimeMs);
  } catch {
    return false;
  }
  if (now - modified < RUNNING_GRACE_MS) return true;
  return entry.record?.host === os.hostname() && pidAlive(entry.record.pid) && now - modified < 24 * RUNNING_GRACE_MS;
}

/** A rotated run folder waits under this prefix for its deletion: no listing reads the name (RUN_FOLDER). */
const ROTATED_PREFIX = '.rotated-';

export interface Rotation {
  /** The run folders rotated out, by the name they had. */
  removed: string[];
  /** Their deletion (and that of any an earlier run set aside and left), which never rejects. */
  deleted: Promise<void>;
}

/**
 * Rotates out the run folders beyond the newest `keep`, except `current` and any that may belong to a
 * run still going. Each is renamed at once out of every listing, then deleted off the main thread: a
 * full run's folder holds some 4,000 files, whose deletion kept the runner from starting its workers.
 */
export function rotateRuns(root: string, keep: number, current?: string, now = Date.now()): Rotation {
  const removed: string[] = [];
  const currentAbs = current ? path.resolve(current) : undefined;
  for (const entry of listRuns(root).slice(keep)) {
    if (path.resolve(entry.dir) === currentAbs || mayBeRunning(entry, now)) continue;
    try {
      renameSync(entry.dir, path.join(root, `${ROTATED_PREFIX}${entry.name}`));
    } catch {
      rmSync(entry.dir, { recursive: true, force: true });
    }
    removed.push(entry.dir);
  }
  const aside = existsSync(root) ? readdirSync(root).filter((name) => name.startsWith(ROTATED_PREFIX)) : [];
  // Best effort: a folder another run is deleting at the same time, or one that will not go, waits for the next run.
  const deleted = (async () => {
    for (const name of aside) await removeOneAtATime(path.join(root, name)).catch(() => undefined);
  })();
  return { removed, deleted };
}

/**
 * A folder deleted one entry at a time: fs.rm deletes a folder's entries all at once, and its
 * thousands of calls would fill the thread pool the run's own file writes (the Allure results) wait on.
 */
async function removeOneAtATime(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) await removeOneAtATime(at);
    else await unlink(at);
  }
  await rmdir(dir);
}

const describe = (e: RunEntry): string => {
  const c = e.record?.counts;
  if (!e.record) return `${e.name} (no run.json)`;
  if (!e.record.endedAt) return `${e.name} (unfinished)`;
  return `${e.name} (${(e.record.projects ?? []).join(',')}: ${c?.passed ?? 0} passed, ${c?.failed ?? 0} failed, ${c?.skipped ?? 0} skipped)`;
};

/** Finished runs that executed tests and left a Playwright JSON report, newest first. */
export function comparableRuns(root: string): RunEntry[] {
  return listRuns(root).filter((e) => executedTests(e.record) && existsSync(path.join(e.dir, 'results.json')));
}

export function availableRunsText(root: string, max = 10): string {
  const runs = comparableRuns(root);
  if (!runs.length) return `no finished run under ${root} yet (npm run conformance makes one)`;
  const shown = runs.slice(0, max).map(describe).join('; ');
  return `runs under ${root}, newest first: ${shown}${runs.length > max ? `; and ${runs.length - max} more` : ''}`;
}

/** A run folder that `last`, `previous` or `last~N` passed over, and why. */
export interface PassedOver {
  name: string;
  why: string;
  /** The folder kept no record of its run (no run.json or results.json, or no end while no run is going): "last" is then not the run the user just made. */
  recordLost: boolean;
}

function whyNotComparable(entry: RunEntry, now: number): Omit<PassedOver, 'name'> {
  if (!entry.record) return { why: 'no run.json', recordLost: true };
  if (!entry.record.endedAt)
    return mayBeRunning(entry, now)
      ? { why: 'still running', recordLost: false }
      : { why: 'never ended (killed?)', recordLost: true };
  if (!executedTests(entry.record)) return { why: 'ran no test', recordLost: false };
  return { why: 'no results.json', recordLost: true };
}

/**
 * The run folders newer than the run `last`, `previous` or `last~N` names that it passed over
 * because they are not comparable; empty for any other name.
 */
export function passedOver(spec: string, root: string, now = Date.now()): PassedOver[] {
  if (!(spec === 'last' || spec === 'previous' || /^last~\d+$/.test(spec))) return [];
  const chosen = resolveRun(spec, root);
  const skipped: PassedOver[] = [];
  for (const entry of listRuns(root)) {
    if (entry.dir === chosen) break;
    if (executedTests(entry.record) && existsSync(path.join(entry.dir, 'results.json'))) continue;
    skipped.push({ name: entry.name, ...whyNotComparable(entry, now) });
  }
  return skipped;
}

/**
 * A run named the way a user would: `last`, `previous` (or `last~N`), a run id, a run folder name, or
 * a path (a run folder, a Playwright JSON report, a certification bundle). Undefined when nothing
 * matches.
 */
export function resolveRun(spec: string, root: string): string | undefined {
  const runs = comparableRuns(root);
  const back =
    spec === 'last' ? 0 : spec === 'previous' ? 1 : /^last~(\d+)$/.test(spec) ? Number(spec.slice(5)) : undefined;
  if (back !== undefined) return runs[back]?.dir;
  const byName = listRuns(root).find(
    (e) => e.name === spec || e.name.endsWith(`-${runIdInFolderName(spec)}`) || e.record?.runId === spec,
  );
  if (byName) return byName.dir;
  if (existsSync(spec)) return spec;
  return undefined;
}
