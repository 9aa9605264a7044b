/**
 * Broken targets: the reference's REF_BROKEN modes (a payments API that answers 500 to everything,
 * refuses everything with 400, or is a mock that answers every POST with a canned 201 and every read
 * 404), each behind a token endpoint that works.
 * Run: node --import tsx --test tests/unit/reference/broken-targets.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../reference/config';
import { CANNED_CREATED } from '../../../reference/broken';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PATHS, get, newParty, paymentTo, post, startRef } from '../support/reference-http';
import { emptyTally, readTargetTallies, type TargetTally, WorkerTargetTally } from '../../../record/target-tally';
import { judgeTarget, sendsNothingMore } from '../../../checks/target-verdict';

test('REF_BROKEN: the three modes, anything else refuses to start', () => {
  assert.equal(loadConfig({}, {}).broken, undefined);
  for (const mode of ['answers-500', 'refuses-400', 'mock'])
    assert.equal(loadConfig({}, { REF_BROKEN: mode }).broken, mode);
  assert.throws(() => loadConfig({}, { REF_BROKEN: 'accept-all' }), /REF_BROKEN must be one of/);
});

for (const [mode, post201, read] of [
  ['answers-500', 500, 500],
  ['refuses-400', 400, 400],
  ['mock', 201, 404],
] as const) {
  test(`REF_BROKEN=${mode}: tokens are issued; every payments POST gets ${post201}, every read ${read}`, async () => {
    const ref = await startRef({ broken: mode });
    try {
      const payer = await newParty(ref, 'payer');
      const beneficiary = await newParty(ref, 'beneficiary');
      const payment = paymentTo(beneficiary, 10);
      const submitted = await post(ref, payer, PATHS.payment, payment);
      assert.equal(submitted.status, post201);
      // Nothing is checked: a body that is not even JSON gets the same answer.
      assert.equal((await post(ref, payer, PATHS.return, 'not json')).status, post201);
      assert.equal((await post(ref, payer, PATHS.refund, {})).status, post201);
      if (mode === 'mock') {
        assert.deepEqual(submitted.json, CANNED_CREATED, 'one canned body, whatever was sent');
        const id = submitted.json.data.paymentsServiceId as string;
        assert.equal((await get(ref, payer, PATHS.status(id))).status, 404, 'the mock keeps nothing');
      }
      assert.equal((await get(ref, payer, PATHS.status('any'))).status, read);
      assert.equal((await get(ref, beneficiary, PATHS.incoming('any'))).status, read);
      assert.equal((await fetch(`${ref.url}/_admin/info`)).status, 200, 'the admin API is left alone');
    } finally {
      await ref.close();
    }
  });
}

const tally = (parts: Partial<TargetTally>): TargetTally => ({ ...emptyTally(), ...parts });
const counts = (accepted: number, refused: number, serverError = 0) => ({ accepted, refused, serverError });

test('judgeTarget: not validating, refusing everything, failing everything; a conforming target gets no verdict', () => {
  assert.equal(judgeTarget(tally({ answers: counts(900, 450), refusalCases: counts(0, 412) })), undefined);
  assert.equal(
    judgeTarget(tally({ answers: counts(900, 450), refusalCases: counts(40, 372) })),
    undefined,
    'a target that accepts some refusal cases is judged by their tests, not as a whole',
  );
  assert.equal(judgeTarget(tally({ refusalCases: counts(19, 0) })), undefined, 'a handful says nothing');
  assert.equal(
    judgeTarget(tally({ answers: counts(60, 0), refusalCases: counts(24, 2), notSent: 380 }))?.sentence,
    'this target accepts what the spec says it must refuse (24 of 26 refusal cases accepted; 380 tests sent nothing, as it settles nothing it accepts): it is not validating',
  );
  assert.equal(
    judgeTarget(tally({ answers: counts(0, 1234) }))?.sentence,
    'this target refuses every payments request, valid ones included (1,234 of 1,234 answered 4xx, none 2xx): none of its payments rules could be assessed',
  );
  assert.equal(judgeTarget(tally({ answers: counts(0, 30, 4) }))?.kind, 'refuses-everything');
  assert.equal(
    judgeTarget(tally({ answers: counts(0, 0, 321) }))?.sentence,
    'this target answers every payments request with a server error (321 of 321 answered 5xx): it is broken, and none of its payments rules could be assessed',
  );
});

test('sendsNothingMore: only a target that accepts most refusal cases AND settles nothing it accepts', () => {
  const unsettled = { rule: 'STS-01', message: 'the status of x is served (HTTP 200); received HTTP 404' };
  assert.equal(
    sendsNothingMore(tally({ refusalCases: counts(30, 2) })),
    undefined,
    'it settles: every answer is evidence',
  );
  assert.equal(sendsNothingMore(tally({ refusalCases: counts(2, 30), unsettled })), undefined, 'it validates');
  assert.match(
    sendsNothingMore(tally({ refusalCases: counts(30, 2), unsettled })) ?? '',
    /^the target is not validating \(30 of 32 refusal cases accepted so far\) and settles nothing it accepts \(STS-01: the status of x is served \(HTTP 200\); received HTTP 404\): this test would only create more there$/,
  );
});

test('WorkerTargetTally: each worker keeps its file; every worker reads the run’s sum, per project', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'target-tally-'));
  try {
    const first = new WorkerTargetTally(dir, 'local-broken-mock', 0, 0);
    const second = new WorkerTargetTally(dir, 'local-broken-mock', 1, 0);
    const other = new WorkerTargetTally(dir, 'local', 2, 0);
    first.answer(201);
    first.refusalCase('accepted');
    second.refusalCase('accepted');
    second.unsettled('STS-01', 'not served');
    second.unsettled('STS-08', 'a later one adds nothing');
    other.refusalCase('refused');
    assert.deepEqual(second.run().refusalCases, counts(2, 0));
    assert.deepEqual(second.run().unsettled, { rule: 'STS-01', message: 'not served' });
    assert.equal(second.run().answers.accepted, 1, "another worker's answers are read from its file once written");
    first.flush();
    second.flush();
    other.flush();
    const byProject = readTargetTallies(dir);
    assert.deepEqual([...byProject.keys()].sort(), ['local', 'local-broken-mock']);
    assert.deepEqual(byProject.get('local')?.refusalCases, counts(0, 1));
    assert.equal(byProject.get('local-broken-mock')?.answers.accepted, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const root = path.resolve(__dirname, '..', '..', '..');
const cli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');

interface RunOutcome {
  stdout: string;
  record: { created?: Record<string, number>; targets?: Record<string, { verdict?: string; notSent: number }> };
  /** Every test's title (its describe and its own) and final status. */
  tests: { title: string; status: string; skip?: string }[];
}

/** The suite run with Playwright's own CLI against broken profiles, in a runs folder of its own. */
function runSuite(args: readonly string[]): RunOutcome {
  const runsRoot = mkdtempSync(path.join(os.tmpdir(), 'payments-broken-'));
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PAYMENTS_RUNS_ROOT: runsRoot,
      PAYMENTS_ALLURE: '0',
      PAYMENTS_WORKERS: '1',
    };
    for (const k of ['PAYMENTS_PROFILES', 'PAYMENTS_RUN_ID', 'PAYMENTS_RUN_DIR', 'CI', 'PAYMENTS_CLIENT_FAULTS'])
      delete env[k];
    const run = spawnSync(process.execPath, [cli, 'test', ...args], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 600_000,
    });
    const [folder] = readdirSync(runsRoot);
    assert.ok(folder, `the run made its folder: ${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
    const dir = path.join(runsRoot, folder);
    const results = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as {
      suites: PlaywrightSuite[];
    };
    const tests: RunOutcome['tests'] = [];
    const walk = (suite: PlaywrightSuite, titles: string[]): void => {
      for (const s of suite.suites ?? []) walk(s, [...titles, s.title]);
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests) {
          const skip = t.annotations.find((a) => a.type === 'skip')?.description;
          tests.push({
            title: [...titles.slice(1), spec.title].join(' › '),
            status: t.results.at(-1)?.status ?? 'none',
            ...(skip ? { skip } : {}),
          });
        }
    };
    for (const suite of results.suites) walk(suite, []);
    return { stdout: run.stdout, record: JSON.parse(readFileSync(path.join(dir, 'run.json'), 'utf8')), tests };
  } finally {
    rmSync(runsRoot, { recursive: true, force: true });
  }
}

interface PlaywrightSuite {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: {
    title: string;
    tests: { annotations: { type: string; description?: string }[]; results: { status: string }[] }[];
  }[];
}

test('a mock sandbox: named not validating in one sentence, little created, no test titled refused passes on its acceptances', (t) => {
  const { stdout, record, tests } = runSuite([
    '--project=local-broken-mock',
    'tests/payments/validation.spec.ts',
    'tests/money/sequences.spec.ts',
    'tests/refunds/refund.spec.ts',
  ]);
  assert.match(
    stdout,
    /^local-broken-mock: this target accepts what the spec says it must refuse \(\d+ of \d+ refusal cases accepted; \d+ tests sent nothing, as it settles nothing it accepts\): it is not validating$/m,
  );
  const target = record.targets?.['local-broken-mock'];
  assert.equal(target?.verdict, 'not-validating', 'run.json keeps the verdict');
  assert.ok((target?.notSent ?? 0) > 50, `tests sent nothing once the verdict was known: ${target?.notSent}`);
  // Before the verdict and the pool's stop, each refund test here paid a pool refill of 64 payments the mock never settled.
  const created = Object.values(record.created ?? {}).reduce((a, b) => a + b, 0);
  // The money sequences' twins pay a kit payment each, and so does every pacs.008 case the mock answers
  // 201 before the verdict (a value the table excludes may be rejected in pacs.002: its status is
  // followed): 184 in ci87. A refill of 64 per refund test would be far more.
  assert.ok(created <= 250, `created at the mock: ${JSON.stringify(record.created)}`);
  t.diagnostic(`created at the mock: ${JSON.stringify(record.created)}; tests that sent nothing: ${target?.notSent}`);
  assert.ok(
    tests.some((t) => t.skip?.includes('the pool is not paid again')),
    'the pool is not paid again after a fill the mock never settled',
  );
  // The mock refuses nothing: a test whose title says it refuses can only pass on an acceptance.
  const passedAsRefused = tests.filter(
    (t) => t.status === 'passed' && /\brefuse/i.test(t.title.replace(/refused or accepted/g, '')),
  );
  assert.deepEqual(passedAsRefused, []);
});

test('targets that refuse or fail everything: one sentence each, per profile', () => {
  const { stdout, record } = runSuite([
    '--project=local-broken-400',
    '--project=local-broken-500',
    'tests/payments/validation.spec.ts',
  ]);
  assert.match(
    stdout,
    /^local-broken-400: this target refuses every payments request, valid ones included \(\d+ of \d+ answered 4xx, none 2xx\): none of its payments rules could be assessed$/m,
  );
  assert.match(
    stdout,
    /^local-broken-500: this target answers every payments request with a server error \(\d+ of \d+ answered 5xx\): it is broken, and none of its payments rules could be assessed$/m,
  );
  assert.equal(record.targets?.['local-broken-400']?.verdict, 'refuses-everything');
  assert.equal(record.targets?.['local-broken-500']?.verdict, 'fails-everything');
  assert.deepEqual(record.created ?? {}, {}, 'nothing was created');
});
