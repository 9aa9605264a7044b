/**
 * Item "history that links": a test's Allure history id must not change between runs, whatever the
 * seed. Two consecutive runs (different seeds) of the same test are rendered into one history file
 * (Allure 3: one JSONL line per generate); every history id of the first run must come back in the
 * second, and the second report must count no test as new.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderReport } from '../../../scripts/report';
import { cleanEnv, runPlaywrightCli, tempDir } from '../support/cli';
import { historyResultCounts } from '../support/report-tests';

const GREP = ['tests/status/status.spec.ts', '--grep', 'unknown paymentsServiceId|needs no sca-token'];

function historyIds(line: string): string[] {
  return Object.keys((JSON.parse(line) as { testResults: Record<string, unknown> }).testResults).sort();
}

test('two runs with different seeds: every history id repeats and the second report has no new test', () => {
  const work = tempDir('history');
  const history = path.join(work, 'history.jsonl');
  const reports: string[] = [];
  /** The run's own History results (runner/history.ts) sit beside its tests, their history ids as stable. */
  const historyResults: number[] = [];
  for (const [i, seed] of ['111', '222'].entries()) {
    const runDir = path.join(work, `run-${i}`);
    const run = runPlaywrightCli(
      ['--project=local', ...GREP],
      cleanEnv({ PAYMENTS_SEED: seed, PAYMENTS_RUN_DIR: runDir, PAYMENTS_WORKERS: '1' }),
    );
    assert.equal(run.status, 0, run.stdout + run.stderr);
    historyResults.push(historyResultCounts(path.join(runDir, 'allure-results')).total);
    const report = renderReport(path.join(runDir, 'allure-results'), path.join(work, `report-${i}`), {
      historyPath: history,
      print: false,
    });
    assert.ok(report, 'the report was rendered');
    reports.push(path.dirname(report));
  }
  const lines = readFileSync(history, 'utf8').split('\n').filter(Boolean);
  assert.equal(lines.length, 2, 'one history line per generate');
  const [first, second] = lines.map(historyIds);
  assert.equal(first!.length, 2 + historyResults[0]!);
  assert.deepEqual(second, first, 'the history ids of the second run are those of the first');
  const summary = JSON.parse(readFileSync(path.join(reports[1]!, 'summary.json'), 'utf8')) as {
    stats: { total: number; new?: number };
  };
  assert.equal(summary.stats.total, 2 + historyResults[1]!);
  assert.equal(summary.stats.new ?? 0, 0, 'the second run shows no "new tests"');
});
