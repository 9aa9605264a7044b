/**
 * Item "a refused run renders no report; the report never lies": each run writes into its own folder
 * reports/runs/<UTC stamp>-<runId>/ (allure-results/, results.json, transcripts/, run.json), old
 * folders rotate away except those that may belong to a run still going, and the user names runs as
 * last / previous / a run id / a folder (compare, report).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  availableRunsText,
  listRuns,
  mayBeRunning,
  resolveRun,
  rotateRuns,
  runPaths,
  writeRunRecord,
  type RunRecord,
} from '../../../record/run-folder';
import { newRunDir, runFolderName } from '../../../profile/run-settings';
import { runSettings } from '../../../profile/run-settings';
import { tempDir } from '../support/cli';
import { suiteEnvironment } from '../../../profile/run-settings';

const HOUR = 60 * 60 * 1000;

function record(runId: string, finished: boolean, pid = 999_999_999): RunRecord {
  return {
    runId,
    seed: '1',
    projects: ['local'],
    command: 'npm run conformance',
    startedAt: new Date().toISOString(),
    ...(finished
      ? { endedAt: new Date().toISOString(), counts: { passed: 3, failed: 1, skipped: 0, flaky: 0, executed: 4 } }
      : {}),
    status: finished ? 'failed' : 'running',
    pid,
    host: 'somewhere-else',
  };
}

/** A run folder n minutes after a fixed start, optionally finished and with a Playwright report. */
function makeRun(
  root: string,
  minute: number,
  runId: string,
  opts: { finished?: boolean; ageMs?: number; report?: boolean } = {},
): string {
  const dir = path.join(root, runFolderName(new Date(Date.UTC(2026, 10, 22, 17, minute, 0)), runId));
  writeRunRecord(dir, record(runId, opts.finished ?? true));
  if (opts.report ?? true) writeFileSync(path.join(dir, 'results.json'), JSON.stringify({ suites: [] }));
  if (opts.ageMs) {
    const t = new Date(Date.now() - opts.ageMs);
    utimesSync(path.join(dir, 'run.json'), t, t);
    utimesSync(dir, t, t);
  }
  return dir;
}

test('run folder names sort by time and carry the run id', () => {
  assert.equal(runFolderName(new Date('2026-11-22T17:16:22.123Z'), 'ab12cd34'), '20261122T171622Z-ab12cd34');
  assert.equal(runFolderName(new Date('2026-11-22T17:16:22Z'), 'nightly/42 #1'), '20261122T171622Z-nightly_42__1');
  assert.match(newRunDir('x', suiteEnvironment({}).runsRoot), /^reports[/\\]runs[/\\]\d{8}T\d{6}Z-x$/);
});

test('rotation keeps the newest 10, and never a folder that may belong to a run still going', async () => {
  const root = tempDir('rotate');
  for (let i = 0; i < 14; i++) makeRun(root, i, `done${i}`, { ageMs: 3 * HOUR });
  const goingYoung = makeRun(root, 0, 'going-young', { finished: false }); // oldest by name, but no end and fresh
  const goingDead = makeRun(root, 1, 'going-dead', { finished: false, ageMs: 3 * HOUR }); // no end, old, runner gone
  const leftOver = path.join(root, '.rotated-20261122T170000Z-killed-before-its-deletion');
  writeRunRecord(leftOver, record('killed', true));
  const rotation = rotateRuns(root, 10);
  const removed = rotation.removed.map((d) => path.basename(d));
  assert.equal(listRuns(root).length, 11, 'rotated folders leave every listing at once');
  await rotation.deleted;
  const left = readdirSync(root).sort();
  assert.ok(!left.includes(path.basename(leftOver)), 'a folder an earlier run set aside and left is deleted too');
  assert.ok(left.includes(path.basename(goingYoung)), 'a young folder without an end mark stays');
  assert.ok(!left.includes(path.basename(goingDead)), 'an old folder without an end mark whose runner is gone goes');
  assert.equal(left.filter((n) => n.includes('-done')).length, 10, 'the newest 10 finished runs stay');
  for (let i = 10; i < 14; i++)
    assert.ok(left.includes(runFolderName(new Date(Date.UTC(2026, 10, 22, 17, i, 0)), `done${i}`)));
  assert.equal(removed.length, 14 + 2 - 10 - 1);
  assert.ok(mayBeRunning({ dir: goingYoung, name: path.basename(goingYoung), record: record('going-young', false) }));
});

test('rotation never deletes the current run folder, and an unfinished one whose runner is alive here', () => {
  const root = tempDir('rotate-current');
  for (let i = 0; i < 12; i++) makeRun(root, 10 + i, `r${i}`, { ageMs: 3 * HOUR });
  const current = makeRun(root, 0, 'current', { finished: false, ageMs: 3 * HOUR });
  const alive = path.join(root, runFolderName(new Date(Date.UTC(2026, 10, 22, 17, 1, 0)), 'alive'));
  writeRunRecord(alive, {
    ...record('alive', false, process.pid),
    host: (require('node:os') as typeof import('node:os')).hostname(),
  });
  const t = new Date(Date.now() - 3 * HOUR);
  utimesSync(path.join(alive, 'run.json'), t, t);
  rotateRuns(root, 10, current);
  assert.ok(existsSync(current));
  assert.ok(existsSync(alive), 'its runner (this process) is alive');
});

test('last, previous, last~N, a run id, a folder name and a path resolve; unfinished or empty runs are skipped', () => {
  const root = tempDir('resolve');
  const a = makeRun(root, 1, 'aaaa1111');
  const b = makeRun(root, 2, 'bbbb2222');
  makeRun(root, 3, 'cccc3333', { finished: false }); // still going: not comparable
  makeRun(root, 4, 'dddd4444', { report: false }); // no results.json
  assert.equal(resolveRun('last', root), b);
  assert.equal(resolveRun('previous', root), a);
  assert.equal(resolveRun('last~1', root), a);
  assert.equal(resolveRun('last~2', root), undefined);
  assert.equal(resolveRun('aaaa1111', root), a);
  assert.equal(resolveRun(path.basename(b), root), b);
  assert.equal(resolveRun(a, root), a);
  assert.equal(resolveRun('nope', root), undefined);
  assert.equal(listRuns(root).length, 4);
  const text = availableRunsText(root);
  assert.match(text, /bbbb2222.*aaaa1111/);
  assert.doesNotMatch(text, /cccc3333|dddd4444/);
  assert.match(availableRunsText(tempDir('empty')), /no finished run/);
});

test('the run settings name the run folder and export it, so the runner and every worker agree', () => {
  const env: NodeJS.ProcessEnv = { PAYMENTS_RUN_ID: 'feedbeef' };
  const first = runSettings(env, ['node', 'cli', 'test']);
  assert.match(first.runDir, /^reports[/\\]runs[/\\]\d{8}T\d{6}Z-feedbeef$/);
  assert.equal(env.PAYMENTS_RUN_DIR, first.runDir);
  const paths = runPaths(first.runDir);
  assert.equal(paths.jsonReport, path.join(first.runDir, 'results.json'));
  assert.equal(paths.allureResults, path.join(first.runDir, 'allure-results'));
  assert.equal(paths.transcripts, path.join(first.runDir, 'transcripts'));
  // A worker reads the settings again later: same folder.
  assert.equal(runSettings(env, ['node', 'worker']).runDir, first.runDir);
  assert.ok(!existsSync(first.runDir), 'the folder is made by the run, not by the settings: a refused run leaves none');
});
