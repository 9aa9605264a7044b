/**
 * Runs Playwright as a child process in a run folder of its own and reads its JSON report: the one
 * place scripts start a suite run. Memory tuning of the processes a run starts lives here too.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PROGRESS_PREFIX } from '../../runner/reporters/progress';
import { INCONCLUSIVE_ANNOTATION } from '../../ledger/outcomes';
import { flattenReport, readReportFile, type ReportTest } from '../../record/playwright-report';
import { loadProfile, type Profile } from '../../profile/profile';
import { projectArguments } from '../../profile/run-settings';
import {
  EXIT_INCONCLUSIVE,
  executedTests,
  readRunRecord,
  runPaths,
  updateRunRecord,
  type RunRecord,
} from '../../record/run-folder';

export interface SuiteCounts {
  passed: number;
  failed: number;
  /** Skipped tests, the inconclusive ones not among them. */
  skipped: number;
  /** Tests the target's infrastructure left without evidence (fixtures/inconclusive.ts). */
  inconclusive: number;
}

/** Whether a report's test ended inconclusive (infrastructure): skipped with an `inconclusive` annotation. */
export function isInconclusive(t: ReportTest): boolean {
  return (
    t.outcome === 'skipped' &&
    [...t.annotations, ...t.resultAnnotations].some((a) => a.type === INCONCLUSIVE_ANNOTATION)
  );
}

export interface SuiteRun {
  exitCode: number;
  counts: SuiteCounts;
  /** Every (project, test) record of the JSON report. */
  tests: ReportTest[];
  durationMs: number;
  /** The run folder (results.json, allure-results, transcripts, run.json). */
  runDir: string;
  jsonReport: string;
  /** run.json as the run left it; undefined when the run was refused before any test began. */
  record: RunRecord | undefined;
  /** The run reached its end and at least one test produced a result: only then is there anything to report. */
  executed: boolean;
}

/**
 * Memory of the processes a run starts (a 2-worker run under 600 MB of RSS summed over the tree).
 * V8 sizes its heap for the machine: with a lot of RAM each process grows a 32 MB young generation
 * and lets the old one grow 4× before collecting, far more than a worker's live heap needs.
 *  - Workers (through NODE_OPTIONS, which the runner hands them): 1 MB semi-spaces, a 256 MB old
 *    generation, which V8 then grows by a smaller factor.
 *  - The runner: the same NODE_OPTIONS, and no V8 flag on its command line (a matrix's semiSpaceMb
 *    aside): Playwright forks the workers with the runner's command-line flags, which win over
 *    NODE_OPTIONS, so that a flag the user set there (`--max-semi-space-size=16`) would lose in every process.
 *  - glibc malloc: one arena instead of one per thread, and blocks of 128 KB and more given back to
 *    the system when freed: less resident memory per worker, no slower (other C libraries ignore them).
 * The reference sets its own flags on its command line (runner/projects.ts).
 *
 * A runner that keeps the results of many projects (the dialect matrix: a project per dialect)
 * needs more than the workers' 256 MB: `runnerHeapMb` gives the runner its own NODE_OPTIONS and hands
 * the workers' through PAYMENTS_WORKER_NODE_OPTIONS, which the config puts back in NODE_OPTIONS before
 * any worker forks (profile/run-settings.ts).
 */
const WORKER_V8_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=256'];

/** `options` plus each flag it does not set yet: a flag the user set wins. */
function withFlags(options: string, flags: readonly string[]): string {
  const missing = flags.filter((flag) => !options.includes(flag.split('=')[0]!));
  return [options, ...missing].filter(Boolean).join(' ');
}

/** The V8 flags of the runner's command line: a matrix's semi-spaces, else none (see above). */
export function runnerV8Flags(semiSpaceMb: number | undefined): string[] {
  return semiSpaceMb ? [`--max-semi-space-size=${semiSpaceMb}`] : [];
}

export function memoryEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    NODE_OPTIONS: withFlags(env.NODE_OPTIONS ?? '', WORKER_V8_FLAGS),
    MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX ?? '1',
    MALLOC_MMAP_THRESHOLD_: env.MALLOC_MMAP_THRESHOLD_ ?? '131072',
  };
}

/** The runner's own heap, the workers' NODE_OPTIONS handed over for the config to restore (nothing without a size). */
function runnerHeap(mb: number | undefined): Record<string, string> {
  if (!mb) return {};
  const workers = memoryEnvironment().NODE_OPTIONS!;
  return {
    NODE_OPTIONS: workers.replace(/--max-old-space-size=\d+/, `--max-old-space-size=${mb}`),
    PAYMENTS_WORKER_NODE_OPTIONS: workers,
  };
}

/** Whether a profile's target limits its requests: a declared rate limit, the reference's rate knobs, or a remote target (whose limits a run learns). */
function throttled(profile: Profile, shell: NodeJS.ProcessEnv): boolean {
  if (profile.concurrency?.rateLimit || profile.target.kind === 'remote') return true;
  const env = profile.target.env ?? {};
  return ['REF_RATE_LIMIT_RPS', 'REF_TOKEN_RATE_LIMIT_RPS'].some((knob) => Number(env[knob] ?? shell[knob] ?? 0) > 0);
}

/**
 * The order the tests are dispatched in. Playwright hands them out file by file, so a run's workers
 * all run one file's tests at a time: against a target that limits each client's requests (and the
 * token endpoint's), a file that uses one client leaves the others' buckets idle while it waits on its
 * own. Such a run's tests go out shuffled (Playwright's --shuffle, seeded with the run's seed, so the
 * same seed gives the same order): at any moment the workers send into every bucket, and the busiest
 * one, which bounds the run, is never left idle by a file that uses another. Any other run keeps the
 * files' order; a --shuffle of the caller's own is kept.
 */
export function orderArgs(args: readonly string[], env: NodeJS.ProcessEnv = process.env): string[] {
  if (args.some((a) => a === '--shuffle' || a.startsWith('--shuffle=') || a === '--list')) return [...args];
  const named = projectArguments(args);
  const names = named.length ? named : (env.PAYMENTS_PROFILES ?? '').split(',').filter(Boolean);
  const profiles = (names.length ? names : ['local']).flatMap((name) => {
    try {
      return [loadProfile(name)];
    } catch {
      return [];
    }
  });
  if (!profiles.some((p) => throttled(p, env))) return [...args];
  const seed = Number(env.PAYMENTS_SEED) || 1;
  return [...args, `--shuffle=${seed}`];
}

/**
 * Runs the suite into a run folder: env.PAYMENTS_RUN_DIR when the caller names one (the user-facing
 * scripts name reports/runs/<stamp>-<runId>), else a scratch folder under the system temp folder that
 * the caller removes. The exit code lands in run.json.
 */
export async function runPlaywright(
  args: string[],
  env: Record<string, string> = {},
  options: {
    quiet?: boolean;
    config?: string;
    command?: string;
    runnerHeapMb?: number;
    /** Semi-spaces of the runner and its workers, where CPU counts more than memory (the matrices). */
    semiSpaceMb?: number;
  } = {},
): Promise<SuiteRun> {
  const runDir = env.PAYMENTS_RUN_DIR || mkdtempSync(path.join(os.tmpdir(), 'payments-run-'));
  const { jsonReport } = runPaths(runDir);
  const started = Date.now();
  const cli = path.join('node_modules', '@playwright', 'test', 'cli.js');
  const child = spawn(
    process.execPath,
    [
      ...runnerV8Flags(options.semiSpaceMb),
      cli,
      'test',
      ...(options.config ? ['-c', options.config] : []),
      ...orderArgs(args, { ...process.env, ...env }),
    ],
    {
      env: {
        ...process.env,
        ...memoryEnvironment(),
        ...runnerHeap(options.runnerHeapMb),
        ...env,
        PAYMENTS_RUN_DIR: runDir,
        ...(options.command ? { PAYMENTS_RUN_COMMAND: options.command } : {}),
      },
      stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    },
  );
  let output = '';
  let partial = '';
  child.stdout?.on('data', (d: Buffer) => {
    output += d.toString();
    // A quiet run still shows that it moves (runner/reporters/progress.ts).
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith(PROGRESS_PREFIX)) process.stdout.write(`  ${line}\n`);
  });
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exitCode: number = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  const report = readReportFile(jsonReport);
  const tests = report ? flattenReport(report) : [];
  if (!tests.length && exitCode !== 0 && options.quiet) process.stderr.write(output.slice(-4000));
  const counts: SuiteCounts = { passed: 0, failed: 0, skipped: 0, inconclusive: 0 };
  for (const t of tests) counts[isInconclusive(t) ? 'inconclusive' : t.outcome]++;
  // run.json keeps the run's own status: 4 when nothing failed but tests were inconclusive (Playwright says 0).
  const record = readRunRecord(runDir)
    ? updateRunRecord(runDir, { exitCode: exitCode === 0 && counts.inconclusive ? EXIT_INCONCLUSIVE : exitCode })
    : undefined;
  return {
    exitCode,
    counts,
    tests,
    durationMs: Date.now() - started,
    runDir,
    jsonReport,
    record,
    executed: executedTests(record),
  };
}
