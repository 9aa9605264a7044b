/**
 * Item "a refused run renders no report and prints no report path; the report never lies", end to
 * end: the commands run as a user runs them (child processes). A refused run (bad --project, a live
 * profile without confirmation, unset secrets, an unreachable target) prints its one sentence, exits
 * 2, renders nothing, prints no report path and leaves no run folder; nightly prints no OK line and
 * certify no path. A run that executes tests writes its own run folder and the report shows that run
 * only. A run deletes nothing shared when it starts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadProfile } from '../../../profile/profile';
import { secretVariables } from '../../../profile/profile';
import { cleanEnv, dummySecrets, root, runScript, tempDir } from '../support/cli';
import { historyResultCounts } from '../support/report-tests';

const sandboxSecrets = dummySecrets(secretVariables(loadProfile('sandbox')));

/** A report folder holding a stale report (a 45-test run that "passed"), which a refused run must leave alone. */
function staleReport(): { dir: string; mtime: number } {
  const dir = path.join(tempDir('stale'), 'allure-report');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'index.html'), '<html>stale: 45 passed</html>');
  return { dir, mtime: statSync(path.join(dir, 'index.html')).mtimeMs };
}

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const work = tempDir('refused');
  return cleanEnv({
    PAYMENTS_RUN_DIR: path.join(work, 'run'),
    PAYMENTS_ALLURE_HISTORY: path.join(work, 'history.jsonl'),
    ...extra,
  });
}

const refusals: { name: string; args: string[]; env: Record<string, string>; says: RegExp }[] = [
  {
    name: 'a bad --project',
    args: ['--project=nope'],
    env: {},
    says: /✖ no profile "nope": expected environments[/\\]nope\.json/,
  },
  {
    name: 'a live profile without confirmation',
    args: ['--project=live'],
    env: {},
    says: /✖ profile live targets a LIVE deployment/,
  },
  {
    name: 'an unreachable target',
    args: ['--project=sandbox'],
    env: sandboxSecrets,
    says: /✖ target of profile sandbox is unreachable/,
  },
];

for (const r of refusals) {
  test(`npm run conformance after ${r.name}: one sentence, exit 2, no render, no report path, no run folder`, () => {
    const stale = staleReport();
    const e = env({ ...r.env, PAYMENTS_REPORT_DIR: stale.dir });
    const run = runScript('conformance.ts', r.args, e, 60_000);
    const output = run.stdout + run.stderr;
    assert.equal(run.status, 2, output);
    assert.match(output, r.says);
    assert.doesNotMatch(output, /report:|secret scan|run folder:|passed/, output);
    assert.equal(statSync(path.join(stale.dir, 'index.html')).mtimeMs, stale.mtime, 'the stale report was re-rendered');
    assert.equal(readFileSync(path.join(stale.dir, 'index.html'), 'utf8'), '<html>stale: 45 passed</html>');
    assert.ok(!existsSync(e.PAYMENTS_RUN_DIR!), 'a refused run leaves no run folder');
  });
}

test('npm run nightly on a refused run: no "OK — 0 passed", no report path, exit 2', () => {
  const run = runScript(
    'nightly.ts',
    ['--project', 'sandbox'],
    env({ PAYMENTS_REPORT_DIR: staleReport().dir }),
    60_000,
  );
  const output = run.stdout + run.stderr;
  assert.equal(run.status, 2, output);
  assert.match(output, /secret variables are not set/);
  assert.doesNotMatch(output, /\bOK\b|report:|nightly sandbox:/, output);
});

test('npm run certify on a refused run prints no report path and no bundle path', () => {
  const out = tempDir('certify');
  const run = runScript('certify.ts', ['--project', 'sandbox', '--out', out], env({}), 90_000);
  const output = run.stdout + run.stderr;
  assert.notEqual(run.status, 0, output);
  assert.match(output, /secret variables are not set/);
  assert.doesNotMatch(output, /report:|evidence bundle:|CERTIFIED/, output);
  assert.deepEqual(readdirSync(out), [], 'no bundle written');
});

test('a run that executes tests: its own run folder, the report shows that run only, nothing shared deleted', () => {
  // Something another run in this checkout might be using: a run must not delete it when it starts.
  const shared = path.join(root, 'reports', 'allure-results');
  const sentinel = path.join(shared, `.other-run-${process.pid}`);
  mkdirSync(shared, { recursive: true });
  writeFileSync(sentinel, 'in use');
  const stale = staleReport();
  const e = env({ PAYMENTS_REPORT_DIR: stale.dir, PAYMENTS_WORKERS: '1' });
  try {
    const run = runScript(
      'conformance.ts',
      ['tests/status/status.spec.ts', '--grep', 'unknown paymentsServiceId'],
      e,
      120_000,
    );
    const output = run.stdout + run.stderr;
    assert.equal(run.status, 0, output);
    assert.ok(existsSync(sentinel), 'the run deleted reports/allure-results of another run');
    const dir = e.PAYMENTS_RUN_DIR!;
    for (const item of ['allure-results', 'results.json', 'transcripts', 'run.json'])
      assert.ok(existsSync(path.join(dir, item)), `run folder lacks ${item}`);
    const record = JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(record.exitCode, 0);
    assert.equal(record.status, 'passed');
    assert.deepEqual(record.projects, ['local']);
    assert.match(String(record.command), /^npm run conformance -- tests\/status\/status\.spec\.ts/);
    assert.deepEqual(record.counts, { passed: 1, failed: 0, skipped: 0, inconclusive: 0, flaky: 0, executed: 1 });
    assert.ok(record.startedAt && record.endedAt && record.seed && record.runId);
    const printed = /^report: (.+)$/m.exec(output)?.[1];
    assert.ok(printed && existsSync(printed), `the printed report path does not exist: ${printed}`);
    assert.equal(path.dirname(printed), path.resolve(stale.dir));
    const summary = JSON.parse(readFileSync(path.join(stale.dir, 'summary.json'), 'utf8')) as {
      stats: { total: number; passed: number };
    };
    const history = historyResultCounts(path.join(dir, 'allure-results'));
    assert.deepEqual(
      [summary.stats.total, summary.stats.passed],
      [1 + history.total, 1 + history.passed],
      'the report shows this run (its test and its History results), not an earlier one',
    );
  } finally {
    rmSync(sentinel, { force: true });
  }
});
