/**
 * Playwright reporter that keeps run.json of the run folder (helpers/run-folder.ts): written when the
 * tests begin (after the global setup, so a run refused there leaves no folder), completed with the
 * end, status and counts when the run ends. A folder whose run.json has no end is a run still going
 * or one that was killed; rotation leaves young ones alone. Also rotates old run folders at the start.
 */
import os from 'node:os';
import path from 'node:path';
import type { FullResult, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { isRunFolderName, rotateRuns, writeRunRecord, type RunCounts, type RunRecord } from './run-folder';

class RunFolderReporter implements Reporter {
  private record: RunRecord | undefined;
  private readonly counts: RunCounts = { passed: 0, failed: 0, skipped: 0, flaky: 0, executed: 0 };
  private readonly dir = process.env.PAYMENTS_RUN_DIR;

  onBegin(_config: unknown, suite: Suite): void {
    if (!this.dir || process.argv.includes('--list')) return;
    this.record = {
      runId: process.env.PAYMENTS_RUN_ID ?? '',
      seed: process.env.PAYMENTS_SEED ?? '',
      projects: suite.suites.map((s) => s.title),
      command: process.env.PAYMENTS_RUN_COMMAND ?? ['npx playwright', ...process.argv.slice(2)].join(' '),
      startedAt: new Date().toISOString(),
      status: 'running',
      totalTests: suite.allTests().length,
      pid: process.pid,
      host: os.hostname(),
    };
    writeRunRecord(this.dir, this.record);
    try {
      // Only among run folders: a PAYMENTS_RUN_DIR named otherwise (a temp folder) has no siblings to rotate.
      if (isRunFolderName(this.dir)) rotateRuns(path.dirname(this.dir), undefined, this.dir);
    } catch (error) {
      console.error(`run folders: rotation failed (${(error as Error).message})`);
    }
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    if (result.retry < test.retries && result.status === 'failed') return;
    this.counts.executed++;
    const outcome = test.outcome();
    if (outcome === 'skipped') this.counts.skipped++;
    else if (outcome === 'expected') this.counts.passed++;
    else if (outcome === 'flaky') {
      this.counts.passed++;
      this.counts.flaky++;
    } else this.counts.failed++;
  }

  onEnd(result: FullResult): void {
    if (!this.record || !this.dir) return;
    writeRunRecord(this.dir, {
      ...this.record,
      endedAt: new Date().toISOString(),
      status: result.status,
      exitCode: result.status === 'passed' ? 0 : 1,
      counts: this.counts,
    });
  }

  printsToStdio(): boolean {
    return false;
  }
}

export default RunFolderReporter;
