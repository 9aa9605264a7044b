/**
 * What the terminal shows of a run (the config's reporter; `--reporter` replaces it): a line per test
 * as it ends (dots on CI), then each failure once (failure.ts), then the one summary (summary.ts),
 * whose last line CI reads. Playwright's list and dot reporters printed each failure with numbered
 * attachments (numbers skipped for the ones they hide), every attachment cut at 300 characters (an
 * sca-token's claims before hd, the rerun command), the oracle's line in checks/ as the code frame,
 * and the counts in a form of their own, beside the summary's.
 */
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { suiteEnvironment } from '../../profile/run-settings';
import { formatFailure, plainPaint, type Paint } from './failure';
import SummaryReporter from './summary';
import type { FloorLimits } from './reporters';

const colored: Paint = {
  red: (t) => `\u001b[31m${t}\u001b[39m`,
  dim: (t) => `\u001b[2m${t}\u001b[22m`,
  bold: (t) => `\u001b[1m${t}\u001b[22m`,
};
const green = (t: string, paint: Paint): string => (paint === colored ? `\u001b[32m${t}\u001b[39m` : t);

export interface TerminalOptions {
  limits?: FloorLimits;
  transcripts?: string;
  /** Dots instead of a line per test (CI). */
  dots?: boolean;
}

class TerminalReporter implements Reporter {
  private readonly summary: SummaryReporter;
  private readonly paint: Paint;
  private readonly failures: { test: TestCase; result: TestResult }[] = [];
  private readonly errors: TestError[] = [];
  private done = 0;
  private dotsOnLine = 0;
  /** `--list`: the tests are listed, as Playwright's list reporter lists them, and nothing runs. */
  private readonly listing = process.argv.includes('--list');

  constructor(private readonly options: TerminalOptions = {}) {
    this.summary = new SummaryReporter(options);
    this.paint = (suiteEnvironment().color ?? Boolean(process.stdout.isTTY)) ? colored : plainPaint;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    if (this.listing) {
      listTests(suite);
      return;
    }
    const tests = suite.allTests().length;
    const workers = config.workers;
    console.log(
      `\nRunning ${tests} test${tests === 1 ? '' : 's'} using ${workers} worker${workers === 1 ? '' : 's'}\n`,
    );
    this.summary.onBegin(config, suite);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.summary.onTestEnd(test, result);
    // A failed try that will be retried is not the test's outcome.
    if (result.retry < test.retries && result.status === 'failed') return;
    this.done++;
    const outcome = test.outcome();
    if (outcome === 'unexpected') this.failures.push({ test, result });
    const mark = outcome === 'skipped' ? '-' : outcome === 'unexpected' ? '✘' : '✓';
    if (this.options.dots) {
      const dot = outcome === 'skipped' ? '°' : outcome === 'unexpected' ? 'F' : '·';
      process.stdout.write(outcome === 'unexpected' ? this.paint.red(dot) : dot);
      if (++this.dotsOnLine === 80) {
        process.stdout.write('\n');
        this.dotsOnLine = 0;
      }
      return;
    }
    const [, project, , ...titles] = test.titlePath();
    const file = path.relative(process.cwd(), test.location.file);
    const line = `  ${mark} ${String(this.done).padStart(4)} [${project}] › ${file}:${test.location.line} › ${titles.join(' › ')} ${test.tags.join(' ')} (${result.duration}ms)`;
    console.log(
      outcome === 'unexpected'
        ? this.paint.red(line)
        : outcome === 'skipped'
          ? this.paint.dim(line)
          : green(line, this.paint),
    );
  }

  onError(error: TestError): void {
    this.errors.push(error);
  }

  /** What a test or a server of the run (the reference, through Playwright's webServer) prints goes through, as Playwright's list reporter lets it. */
  onStdOut(chunk: string | Buffer): void {
    process.stdout.write(chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    process.stderr.write(chunk);
  }

  async onEnd(result: FullResult): Promise<void> {
    if (this.listing) return;
    if (this.dotsOnLine) process.stdout.write('\n');
    const lines: string[] = [];
    for (const error of this.errors)
      lines.push(
        '',
        this.paint.red(`  Error outside a test: ${stripVTControlCharacters(error.message ?? String(error.value))}`),
      );
    for (const [i, { test, result: r }] of this.failures.entries())
      lines.push('', ...formatFailure(test, r, i + 1, this.paint));
    if (lines.length) console.log(lines.join('\n'));
    await this.summary.onEnd(result);
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** The tests of a `--list`, in the lines Playwright's list reporter prints for it. */
function listTests(suite: Suite): void {
  const tests = suite.allTests();
  const lines = ['Listing tests:'];
  for (const test of tests) {
    const [, project, , ...titles] = test.titlePath();
    const location = `${path.relative(process.cwd(), test.location.file)}:${test.location.line}:${test.location.column}`;
    lines.push(`  ${project ? `[${project}] › ` : ''}${location} › ${titles.join(' › ')}`);
  }
  const files = new Set(tests.map((t) => t.location.file)).size;
  lines.push(`Total: ${tests.length} test${tests.length === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`);
  console.log(lines.join('\n'));
}

export default TerminalReporter;
