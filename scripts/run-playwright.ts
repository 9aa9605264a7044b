/** Runs Playwright as a child process and reads its JSON report: the one place scripts start a suite run. */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

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
  jsonReport: string;
}

interface JsonSpec {
  title: string;
  file: string;
  tags: string[];
  tests: { status: string; projectName: string }[];
}
interface JsonSuite {
  title: string;
  suites?: JsonSuite[];
  specs?: JsonSpec[];
}

function collect(suite: JsonSuite, prefix: string[], out: SuiteRun['tests']): void {
  const here = suite.title ? [...prefix, suite.title] : prefix;
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests) {
      const outcome = t.status === 'expected' ? 'passed' : t.status === 'skipped' ? 'skipped' : t.status === 'flaky' ? 'passed' : 'failed';
      out.push({ title: [t.projectName, ...here, spec.title].join(' › '), tags: spec.tags.map((x) => x.replace(/^@/, '')), outcome });
    }
  }
  for (const child of suite.suites ?? []) collect(child, here, out);
}

export function readJsonReport(file: string): SuiteRun['tests'] {
  if (!existsSync(file)) return [];
  const report = JSON.parse(readFileSync(file, 'utf8')) as { suites: JsonSuite[] };
  const tests: SuiteRun['tests'] = [];
  for (const s of report.suites) collect(s, [], tests);
  return tests;
}

export async function runPlaywright(args: string[], env: Record<string, string> = {}, options: { quiet?: boolean } = {}): Promise<SuiteRun> {
  const jsonReport = env.PAYMENTS_JSON_REPORT ?? path.join(os.tmpdir(), `payments-pw-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  rmSync(jsonReport, { force: true });
  const started = Date.now();
  const cli = path.join('node_modules', '@playwright', 'test', 'cli.js');
  const child = spawn(process.execPath, [cli, 'test', ...args], {
    env: { ...process.env, ...env, PAYMENTS_JSON_REPORT: jsonReport },
    stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exitCode: number = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
  const tests = readJsonReport(jsonReport);
  if (!tests.length && exitCode !== 0 && options.quiet) process.stderr.write(output.slice(-4000));
  const counts = { passed: 0, failed: 0, skipped: 0 };
  for (const t of tests) counts[t.outcome as keyof SuiteCounts]++;
  return {
    exitCode,
    counts,
    failures: tests.filter((t) => t.outcome === 'failed').map(({ title, tags }) => ({ title, tags })),
    tests,
    durationMs: Date.now() - started,
    jsonReport,
  };
}
