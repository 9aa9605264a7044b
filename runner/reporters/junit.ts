/**
 * The run's JUnit XML (runner/junit.ts) in its folder, `junit.xml`: a part of the run's record
 * (record.ts), so a `--reporter` on the command line keeps it. Each test once, with its last result.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig, Reporter, Suite, TestCase, TestResult } from '@playwright/test/reporter';
import { junitXml, type JunitTest } from '../junit';

export default class JunitReporter implements Reporter {
  private readonly tests = new Map<TestCase, JunitTest>();
  private testDir: string | undefined;
  private readonly started = new Date().toISOString();

  constructor(private readonly outputFile: string) {}

  onBegin(config: FullConfig, _suite: Suite): void {
    const dir = config.projects[0]?.testDir;
    if (dir) this.testDir = path.relative(process.cwd(), dir).split(path.sep).join('/');
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const outcome = test.outcome();
    const [, project = '', ...titlePath] = test.titlePath();
    this.tests.set(test, {
      project,
      titlePath,
      tags: test.tags,
      outcome: outcome === 'skipped' ? 'skipped' : outcome === 'unexpected' ? 'failed' : 'passed',
      annotations: test.annotations,
      resultAnnotations: result.annotations,
      durationMs: test.results.reduce((sum, r) => sum + r.duration, 0),
      errors: result.errors.map((e) => e.message ?? e.value ?? '').filter(Boolean),
    });
  }

  onEnd(): void {
    mkdirSync(path.dirname(this.outputFile), { recursive: true });
    writeFileSync(
      this.outputFile,
      junitXml([...this.tests.values()], {
        ...(this.testDir ? { testDir: this.testDir } : {}),
        timestamp: this.started,
      }),
    );
  }
}
