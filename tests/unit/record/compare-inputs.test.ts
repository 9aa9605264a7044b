/**
 * Item "compare needs an input a user can find": the Playwright JSON report of a run lives in its run
 * folder, `npm run compare -- last previous` works, so do a run id and a run folder, and an input that
 * names no run stops the command with one sentence listing the runs there are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { passedOver, writeRunRecord } from '../../../record/run-folder';
import { runFolderName } from '../../../profile/run-settings';
import { loadNamedRun } from '../../../scripts/compare';
import { cleanEnv, runScript, tempDir } from '../support/cli';

function playwrightReport(outcomes: Record<string, 'passed' | 'failed'>): unknown {
  return {
    suites: [
      {
        title: 'status/status.spec.ts',
        file: 'status/status.spec.ts',
        specs: Object.entries(outcomes).map(([title, o]) => ({
          title,
          file: 'status/status.spec.ts',
          tags: ['STS-01'],
          tests: [
            {
              projectName: 'local',
              status: o === 'passed' ? 'expected' : 'unexpected',
              results: [{ status: o, ...(o === 'failed' ? { errors: [{ message: 'boom' }] } : {}) }],
            },
          ],
        })),
      },
    ],
    errors: [],
  };
}

function runsRoot(): { root: string; older: string; newer: string } {
  const root = tempDir('runs');
  const make = (minute: number, runId: string, outcomes: Record<string, 'passed' | 'failed'>): string => {
    const dir = path.join(root, runFolderName(new Date(Date.UTC(2026, 10, 22, 3, minute)), runId));
    mkdirSync(path.join(dir, 'transcripts'), { recursive: true });
    writeFileSync(path.join(dir, 'results.json'), JSON.stringify(playwrightReport(outcomes)));
    writeFileSync(
      path.join(dir, 'transcripts', 'transcript-local-0.jsonl'),
      `${JSON.stringify({ project: 'local', test: 'status/status.spec.ts › a', label: 'status read', startedAt: '1', request: { method: 'GET', url: 'http://x/payments/pacs002/v12/abc' }, response: { status: 200, body: '{"a":1}' } })}\n`,
    );
    writeRunRecord(dir, {
      runId,
      seed: '1',
      projects: ['local'],
      command: 'npm run conformance',
      startedAt: 'x',
      endedAt: 'y',
      status: 'passed',
      exitCode: 0,
      counts: { passed: 2, failed: 0, skipped: 0, flaky: 0, executed: 2 },
      pid: 1,
      host: 'h',
    });
    return dir;
  };
  const older = make(1, 'old11111', { a: 'passed', b: 'passed' });
  const newer = make(2, 'new22222', { a: 'passed', b: 'failed' });
  return { root, older, newer };
}

test('last, previous, a run id and a run folder load the run folder (its results.json and transcripts)', () => {
  const { root, older, newer } = runsRoot();
  assert.equal(loadNamedRun('last', undefined, root).source, newer);
  assert.equal(loadNamedRun('previous', undefined, root).source, older);
  assert.equal(loadNamedRun('old11111', undefined, root).source, older);
  const byFolder = loadNamedRun(newer, undefined, root);
  assert.equal(byFolder.tests.length, 2);
  assert.equal(byFolder.transcript?.length, 1, 'the transcripts of the run folder are found');
});

test('an input that names no run: one sentence listing the runs there are', () => {
  const { root } = runsRoot();
  for (const bad of ['reports-that-do-not-exist', tempDir('not-a-run')]) {
    assert.throws(
      () => loadNamedRun(bad, undefined, root),
      (e: Error) =>
        !e.message.includes('\n') &&
        /names no run|is not a run/.test(e.message) &&
        /new22222.*old11111/.test(e.message) &&
        /give last, previous, a run id/.test(e.message),
    );
  }
});

test('npm run compare -- last previous compares the two newest runs; -- reports reports fails in one sentence', () => {
  const { root, older, newer } = runsRoot();
  const env = cleanEnv({ PAYMENTS_RUNS_ROOT: root });
  const out = tempDir('compare-out');
  const ok = runScript('compare.ts', ['previous', 'last', '--out', out], env);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.ok(ok.stdout.includes(`A: ${older}`) && ok.stdout.includes(`B: ${newer}`), ok.stdout);
  assert.match(ok.stdout, /Newly failing \(1\):\n\s+✖ status\/status\.spec\.ts › b/);

  const bad = runScript('compare.ts', ['reports', 'reports'], env);
  assert.equal(bad.status, 2);
  const line = bad.stderr.trim();
  assert.equal(line.split('\n').length, 1, bad.stderr);
  assert.match(
    line,
    /^✖ "reports" is not a run .*: give last, previous, a run id, a run folder, a Playwright JSON report or a certification bundle; runs under .*new22222.*old11111/,
  );
});

test('a newer run folder that kept no record: last and previous say so in one sentence instead of comparing older runs', () => {
  const { root, older, newer } = runsRoot();
  // What a run left before it kept its record whatever --reporter said: a folder with a plan and transcripts, no run.json.
  const lost = path.join(root, runFolderName(new Date(Date.UTC(2026, 10, 22, 3, 3)), 'lost3333'));
  mkdirSync(path.join(lost, 'transcripts'), { recursive: true });
  writeFileSync(path.join(lost, 'plan.json'), '{"projects":{}}');
  for (const spec of ['last', 'previous']) {
    assert.throws(
      () => loadNamedRun(spec, undefined, root),
      (e: Error) =>
        !e.message.includes('\n') &&
        e.message.includes(
          `"${spec}" would pass over newer run folders that kept no record of their run: ${path.basename(lost)} (no run.json)`,
        ) &&
        /new22222.*old11111/.test(e.message),
    );
  }
  assert.equal(loadNamedRun('new22222', undefined, root).source, newer, 'a run named by its id still loads');
  assert.equal(loadNamedRun(older, undefined, root).source, older);

  const env = cleanEnv({ PAYMENTS_RUNS_ROOT: root });
  const refused = runScript('compare.ts', ['previous', 'last', '--out', tempDir('compare-out')], env);
  assert.equal(refused.status, 2);
  assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.match(refused.stderr, /kept no record of their run: .*lost3333 \(no run\.json\)/);
});

test('a newer run still going is passed over, named as such (a note, not a refusal)', () => {
  const { root, newer } = runsRoot();
  const going = path.join(root, runFolderName(new Date(Date.UTC(2026, 10, 22, 3, 3)), 'going333'));
  writeRunRecord(going, {
    runId: 'going333',
    seed: '1',
    projects: ['local'],
    command: 'x',
    startedAt: 'x',
    status: 'running',
    pid: process.pid,
    host: 'h',
  });
  assert.deepEqual(passedOver('last', root), [{ name: path.basename(going), why: 'still running', recordLost: false }]);
  assert.equal(loadNamedRun('last', undefined, root).source, newer);
});
