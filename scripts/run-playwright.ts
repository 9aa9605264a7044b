/** Runs Playwright as a child process and reads its JSON report: the one place scripts start a suite run. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { flattenReport, readReportFile } from '../helpers/playwright-report';
import { executedTests, readRunRecord, updateRunRecord, type RunRecord } from '../helpers/run-folder';

export interface SuiteCounts {
  passed: number;
  failed: number;
  skipped: number;
}

export interface SuiteRun {
  exitCode: number;
  counts: SuiteCounts;
  /** Titles of the failed tests ("file › describe › title"), with the rule tags they cite. */
  failures: { title: string; tags: string[] }[];
  tests: { title: string; tags: string[]; outcome: string }[];
  durationMs: number;
  /** The run folder (PAYMENTS_RUN_DIR): allure-results/, results.json, transcripts/, run.json. */
  runDir: string;
  jsonReport: string;
  /** run.json as the run left it; undefined when the run was refused before any test began. */
  record: RunRecord | undefined;
  /** The run reached its end and at least one test produced a result: only then is there anything to report. */
  executed: boolean;
}

/** One record per (project, test); the title leads with the project: "project › file › describe › title". */
export function readJsonReport(file: string): SuiteRun['tests'] {
  const report = readReportFile(file);
  if (!report) return [];
  return flattenReport(report).map((t) => ({
    title: [t.project, ...t.titlePath].join(' › '),
    tags: t.tags.map((x) => x.replace(/^@/, '')),
    outcome: t.outcome,
  }));
}

/**
 * The runner's young generation (issue 7 memory target). Playwright forks its workers with the
 * runner's command-line flags, which win over NODE_OPTIONS: a heap cap here would replace the
 * workers' own (playwright.config.ts), so the runner gets none.
 */
const RUNNER_V8_FLAGS = ['--max-semi-space-size=1'];

/**
 * Runs the suite into a run folder: env.PAYMENTS_RUN_DIR when the caller names one (the user-facing
 * scripts name reports/runs/<stamp>-<runId>), else a scratch folder under the system temp folder that
 * the caller removes (run.runDir). The exit code lands in run.json.
 */
export async function runPlaywright(args: string[], env: Record<string, string> = {}, options: { quiet?: boolean; command?: string } = {}): Promise<SuiteRun> {
  const runDir = env.PAYMENTS_RUN_DIR || mkdtempSync(path.join(os.tmpdir(), 'payments-run-'));
  const jsonReport = env.PAYMENTS_JSON_REPORT ?? path.join(runDir, 'results.json');
  const started = Date.now();
  const cli = path.join('node_modules', '@playwright', 'test', 'cli.js');
  // The runner is already running when playwright.config.ts sizes the workers and the reference.
  const child = spawn(process.execPath, [...RUNNER_V8_FLAGS, cli, 'test', ...args], {
    env: { ...process.env, ...env, PAYMENTS_RUN_DIR: runDir, PAYMENTS_JSON_REPORT: jsonReport, ...(options.command ? { PAYMENTS_RUN_COMMAND: options.command } : {}) },
    stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exitCode: number = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  const tests = existsSync(jsonReport) ? readJsonReport(jsonReport) : [];
  if (!tests.length && exitCode !== 0 && options.quiet) process.stderr.write(output.slice(-4000));
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const t of tests) counts[t.outcome as keyof SuiteCounts]++;
  const record = readRunRecord(runDir) ? updateRunRecord(runDir, { exitCode }) : undefined;
  return {
    exitCode,
    counts,
    failures: tests.filter((t) => t.outcome === 'failed').map(({ title, tags }) => ({ title, tags })),
    tests,
    durationMs: Date.now() - started,
    runDir,
    jsonReport,
    record,
    executed: executedTests(record),
  };
}
