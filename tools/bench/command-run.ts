/**
 * `npm run conformance` measured as a person waits for it: from typing the command to its last line
 * (the report's path), the report rendered and the secret scan done, in scratch folders of its own.
 * Its output lines are timed as they come, which splits the wall time into the command's phases:
 * start (npm, the script, Playwright's runner, the keys, the tests loaded, the reference and the
 * workers started: up to "Running N tests"), the tests (to the summary's first line), the summary
 * (to the counts line CI reads), and the report with the secret scan beside it (to "report:").
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stripVTControlCharacters } from 'node:util';
import { trackChild, untrackChild } from './cleanup';
import { loadNow, seconds, type Load } from './format';
import { childrenCpuSeconds } from '../../scripts/lib/children-cpu';

export interface CommandPhases {
  /** To "Running N tests using W workers". */
  startMs: number;
  /** From there to the summary's first line. */
  testsMs: number;
  /** The summary, to the counts line. */
  summaryMs: number;
  /** From the counts line to the report's path: Allure's rendering, the secret scan beside it. */
  reportMs: number;
}

export interface CommandRun {
  wallMs: number;
  exitCode: number;
  phases: CommandPhases | undefined;
  /** The counts line ("673 passed, 0 failed, 0 skipped"). */
  counts: string | undefined;
  /** CPU seconds of the command and every process it waited for (Linux: the bench's children's times). */
  cpuSeconds: number | undefined;
  load: Load;
  /** The command's output, for the lines a caller reads (the floor of a throttled run). */
  output: string;
}

/** Runs `npm run conformance -- <args>` in scratch run, report and history folders, removed after. */
export async function measureConformance(
  label: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CommandRun> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'payments-bench-command-'));
  process.stdout.write(`bench: ${label} … `);
  const before = loadNow();
  const cpuBefore = childrenCpuSeconds();
  const t0 = performance.now();
  const marks: { start?: number; summary?: number; counts?: number; report?: number } = {};
  let output = '';
  let partial = '';
  try {
    const child = spawn('npm', ['run', 'conformance', '--', ...args], {
      env: {
        ...process.env,
        PAYMENTS_RUN_DIR: path.join(scratch, 'run'),
        PAYMENTS_REPORT_DIR: path.join(scratch, 'report'),
        PAYMENTS_ALLURE_HISTORY: path.join(scratch, 'history.jsonl'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    trackChild(child);
    const line = (text: string): void => {
      const at = performance.now() - t0;
      if (marks.start === undefined && /^Running \d+ tests? using/.test(text)) marks.start = at;
      else if (marks.start !== undefined && marks.summary === undefined && /^Rules( \(|:)/.test(text))
        marks.summary = at;
      else if (/^\d+ passed, \d+ failed, \d+ skipped/.test(text)) marks.counts = at;
      else if (/^report: /.test(text)) marks.report = at;
    };
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      output += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) line(stripVTControlCharacters(l).trim());
    });
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const exitCode: number = await new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
    untrackChild(child);
    const wallMs = performance.now() - t0;
    const cpuAfter = childrenCpuSeconds();
    const phases =
      marks.start !== undefined && marks.summary !== undefined && marks.counts !== undefined
        ? {
            startMs: marks.start,
            testsMs: marks.summary - marks.start,
            summaryMs: marks.counts - marks.summary,
            reportMs: (marks.report ?? wallMs) - marks.counts,
          }
        : undefined;
    const counts = /^(\d+ passed, \d+ failed, \d+ skipped(?:, \d+ inconclusive)?)$/m.exec(
      stripVTControlCharacters(output),
    )?.[1];
    const cpuSeconds = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
    console.log(
      `${seconds(wallMs)}${phases ? ` (start ${seconds(phases.startMs)}, tests ${seconds(phases.testsMs)}, summary ${seconds(phases.summaryMs)}, report and scan ${seconds(phases.reportMs)})` : ''}, ${counts ?? `exit ${exitCode}`}${cpuSeconds !== undefined ? `, ${cpuSeconds.toFixed(1)} CPU-s` : ''}, load ${before.toFixed(2)}`,
    );
    return { wallMs, exitCode, phases, counts, cpuSeconds, load: { before, after: loadNow() }, output };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
