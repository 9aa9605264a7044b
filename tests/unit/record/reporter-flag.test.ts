/**
 * A `--reporter` given on the command line replaces what the terminal shows, never the run's record.
 * The same small selection run twice, once as is and once with `--reporter=dot`: both plan the same
 * prefetch before the workers start (plan.json), leave the same run folder (run.json ended,
 * results.json, Allure results), register the same clients and send the same kinds of requests
 * (counted in every process by the bench's probe, as `npm run bench` counts a one-test run's). Were the reporters that plan and keep the record
 * among those the flag replaces, there would be no plan (every test would start what it takes
 * itself, far slower), no run.json, results.json or Allure results. Also: a run whose whole selection
 * was skipped fails under `--reporter=dot` (the record decides, not the summary reporter the flag
 * replaces), and a file filter with `--shard` keeps the run folder.
 * Run: node --import tsx --test tests/unit/record/reporter-flag.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { missingFromRecord, readRunRecord, runPaths } from '../../../record/run-folder';
import { flattenReport, readReportFile } from '../../../record/playwright-report';
import { probeEnvironment, readProbe } from '../../../tools/bench/probe';
import { cleanEnv, runPlaywrightCli, tempDir } from '../support/cli';

/** A test that takes nothing ahead (the bench's one-test run) and one whose observation the plan starts with the worker. */
const SELECTION = ['--project=local', '--grep', 'a valid JWT-bearer request gets 200|goes from pending to accepted'];

interface Kept {
  stdout: string;
  runDir: string;
  requests: string[];
}

function run(extra: string[], selection: readonly string[] = SELECTION, exitStatus = 0): Kept {
  const scratch = tempDir('reporter-flag');
  const runDir = path.join(scratch, 'run');
  const probe = path.join(scratch, 'probe');
  const ran = runPlaywrightCli(
    [...selection, ...extra],
    cleanEnv({
      PAYMENTS_RUN_DIR: runDir,
      PAYMENTS_WORKERS: '2',
      PAYMENTS_SEED: '4242',
      ...probeEnvironment(probe, { cpuProfile: false }),
    }),
  );
  assert.equal(ran.status, exitStatus, ran.stdout + ran.stderr);
  // The requests the suite sent (the reference's own are not the suite's), as "METHOD /path" without identifiers.
  const requests = readProbe(probe)
    .filter((p) => p.kind !== 'reference')
    .flatMap((p) => p.requests.map((r) => `${r.method} ${new URL(r.url).pathname.split('/').slice(0, 4).join('/')}`))
    .sort();
  return { stdout: ran.stdout + ran.stderr, runDir, requests };
}

test('--reporter=dot keeps the plan, the run folder and the requests of the same run without it', () => {
  const plain = run([]);
  const dot = run(['--reporter=dot']);

  assert.match(plain.stdout, /✓ .*@TOK-01/, 'the default terminal reporter lists each test');
  assert.doesNotMatch(dot.stdout, /✓ /, '--reporter=dot replaced what the terminal shows');

  for (const kept of [plain, dot]) {
    assert.deepEqual(missingFromRecord(kept.runDir), [], `the record of ${kept.runDir}`);
    assert.equal(readRunRecord(kept.runDir)?.counts?.executed, 2);
    assert.deepEqual(
      flattenReport(readReportFile(runPaths(kept.runDir).jsonReport)!).map((t) => t.outcome),
      ['passed', 'passed'],
    );
  }
  assert.match(readRunRecord(dot.runDir)!.command, /--reporter=dot/);

  const plan = (k: Kept): unknown => JSON.parse(readFileSync(runPaths(k.runDir).plan, 'utf8'));
  assert.deepEqual(plan(dot), plan(plain), 'the same plan, written before the workers started');
  assert.notDeepEqual(
    (plan(plain) as { projects: { local: { observations: string[] } } }).projects.local.observations,
    [],
    'the plan starts an observation',
  );

  // The same clients registered, and the same kinds of requests sent. How many of each depends on
  // the machine: how often a status is read while it settles, how many tokens (one per worker that
  // ran a test needing one; two tests may share a worker or not), and a payment sent again when its
  // connection closed under it (the transport retries a repeatable request, same msgId).
  const registrations = (k: Kept): number => k.requests.filter((r) => r === 'POST /_admin/clients').length;
  assert.equal(registrations(dot), registrations(plain), 'the same clients registered with --reporter=dot');
  assert.deepEqual([...new Set(dot.requests)], [...new Set(plain.requests)], 'the same kinds of reads');
});

test('a selection that is all skipped fails under --reporter=dot too: the run record decides, not the summary reporter it replaces', () => {
  // A keyless client cannot sign an assertion of its own: every AJWT-03 test is skipped, naming the missing key.
  const skipped = run(['--reporter=dot'], ['--project=local-keyless', '--grep', '@AJWT-03 '], 1);
  const count = Number(/every selected test was skipped \((\d+)\): nothing was assessed/.exec(skipped.stdout)?.[1]);
  assert.ok(count > 0, skipped.stdout);
  assert.deepEqual(missingFromRecord(skipped.runDir), [], 'the record of a run that assessed nothing');
  const record = readRunRecord(skipped.runDir)!;
  assert.deepEqual(
    [record.status, record.exitCode, record.counts?.skipped, record.counts?.passed],
    ['failed', 1, count, 0],
  );
});

test('a file filter and --shard keep the run folder too', () => {
  // The first of two shards of three token tests, given with a file filter: two of them run.
  const kept = run(
    ['--reporter=line', '--shard=1/2'],
    [
      '--project=local',
      '--grep',
      'a valid JWT-bearer request gets 200|refuses: wrong client secret|refuses: unknown client id',
      'tests/auth/token.spec.ts',
    ],
  );
  assert.deepEqual(missingFromRecord(kept.runDir), [], `the record of ${kept.runDir}`);
  const record = readRunRecord(kept.runDir)!;
  assert.match(record.command, /--shard=1\/2/);
  assert.equal(record.status, 'passed');
  assert.equal(record.counts?.executed, 2);
  assert.deepEqual(
    flattenReport(readReportFile(runPaths(kept.runDir).jsonReport)!).map((t) => t.outcome),
    ['passed', 'passed'],
  );
});
