/**
 * The machinery around the exploration: kits prepared ahead but never beyond what the run still needs
 * (KitPool), the profile's budget (never on a live profile), @explore left out of ordinary runs, and
 * what `npm run explore` prints from a run's report.
 * Run: node --import tsx --test tests/unit/engines/exploration-runner.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KitPool, type Kit } from '../../../engines/exploration/kit';
import { laneBudget, laneSeed } from '../../../engines/exploration/budget';
import { leftOut } from '../../../runner/projects';
import { environmentsDir, loadProfile, parseProfile, ProfileError } from '../../../profile/profile';
import type { ReportTest } from '../../../record/playwright-report';
import { explorationsOf, formatExplorations, parseExploreArgs } from '../../../scripts/explore';

const kit = (index: number): Kit => ({
  clients: {} as Kit['clients'],
  ownInstitutions: true,
  payments: [],
  notSettled: [],
  submitted: index + 1,
  exchanges: [],
});

test('KitPool: kits in order, at most `lookahead` ahead, never more than allowed; allow() raises it for shrinking', async () => {
  const started: number[] = [];
  const pool = new KitPool(
    async (i) => {
      started.push(i);
      return kit(i);
    },
    2,
    10,
    3,
  );
  assert.equal((await pool.take())?.submitted, 1);
  assert.deepEqual(started, [0, 1, 2], 'the first taken, two prepared ahead');
  assert.equal((await pool.take())?.submitted, 2);
  assert.equal((await pool.take())?.submitted, 3);
  assert.equal(await pool.take(), undefined, 'three allowed: no fourth');
  pool.allow(Number.POSITIVE_INFINITY);
  assert.equal((await pool.take())?.submitted, 4);
  await pool.close();
  assert.equal(pool.startedKits, 6);
  assert.equal(
    pool.submitted,
    [1, 2, 3, 4, 5, 6].reduce((a, b) => a + b),
    'kits prepared and not taken count too',
  );
});

test('KitPool: a kit that could not be prepared fails the take, not the pool', async () => {
  const pool = new KitPool(
    async (i) => {
      if (i === 0) throw new Error('payments did not settle');
      return kit(i);
    },
    1,
    5,
    5,
  );
  await assert.rejects(pool.take(), /did not settle/);
  assert.equal((await pool.take())?.submitted, 2);
  await pool.close();
});

test('profile exploration: a budget is accepted, and refused on a live profile', () => {
  const local = JSON.parse(readFileSync(path.join(environmentsDir, 'local.json'), 'utf8')) as Record<string, unknown>;
  assert.deepEqual(parseProfile(local, 'environments/local.json').exploration, {
    sequences: 40,
    paymentsPerSequence: 6,
  });
  assert.throws(
    () => parseProfile({ ...local, exploration: { sequences: 0, paymentsPerSequence: 5 } }, 'environments/local.json'),
    /exploration\.sequences/,
  );
  const live = JSON.parse(readFileSync(path.join(environmentsDir, 'live.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(parseProfile(live, 'environments/live.json').exploration, undefined);
  assert.throws(
    () => parseProfile({ ...live, exploration: { sequences: 1, paymentsPerSequence: 1 } }, 'environments/live.json'),
    (e: unknown) => e instanceof ProfileError && /live runs never explore/.test(e.message),
  );
});

test('@explore and @slow are left out of a run unless asked for', () => {
  assert.deepEqual(leftOut({ slow: false, exploring: false }).grepInvert?.source, '@slow|@explore');
  assert.deepEqual(leftOut({ slow: true, exploring: false }).grepInvert?.source, '@explore');
  assert.deepEqual(leftOut({ slow: false, exploring: true }).grepInvert?.source, '@slow');
  assert.deepEqual(leftOut({ slow: true, exploring: true }), {});
});

test('npm run explore: its own options, everything else for Playwright, the local profile by default', () => {
  assert.deepEqual(parseExploreArgs([]), { report: true, playwright: ['--project=local'] });
  assert.deepEqual(parseExploreArgs(['--sequences', '6', '--no-report', '--project=sandbox', '--workers=1']), {
    sequences: 6,
    report: false,
    playwright: ['--project=sandbox', '--workers=1'],
  });
  assert.deepEqual(parseExploreArgs(['--replay', 'seed=1;path=0', '--project', 'local-lenient']), {
    replay: 'seed=1;path=0',
    report: true,
    playwright: ['--project', 'local-lenient'],
  });
  assert.throws(() => parseExploreArgs(['--sequences', 'many']), /--sequences must be a positive integer/);
});

test('npm run explore prints each lane: seed, sequences, payments, and for a failure the shrunk steps and the replay', () => {
  const summary = {
    lane: 'payer and beneficiary',
    seed: 42,
    sequences: 20,
    runs: 23,
    shrinks: 6,
    payments: 86,
    maxPayments: 384,
    failed: true,
    rule: 'MNY-01',
    steps: [
      '1. refund 60.00 of P0 (100.00) as the beneficiary',
      '2. return the whole of P0 (100.00) as the beneficiary',
    ],
    replay: "PAYMENTS_EXPLORE_REPLAY='seed=42;path=3' npx playwright test …",
  };
  const tests: ReportTest[] = [
    {
      project: 'local',
      titlePath: ['money/explore.spec.ts', 'explore: money flows between one payer and one beneficiary'],
      title: 'x',
      tags: ['explore', 'MNY-01'],
      status: 'unexpected',
      outcome: 'failed',
      annotations: [{ type: 'exploration', description: JSON.stringify(summary) }],
      resultAnnotations: [],
      durationMs: 1,
      errors: [],
      results: [],
    },
    {
      project: 'local',
      titlePath: ['money/explore.spec.ts', 'explore: money flows with a third institution'],
      title: 'y',
      tags: ['explore'],
      status: 'skipped',
      outcome: 'skipped',
      annotations: [],
      resultAnnotations: [{ type: 'skip', description: 'needs a third institution' }],
      durationMs: 1,
      errors: [],
      results: [],
    },
    {
      project: 'local',
      titlePath: ['other.spec.ts', 'not an exploration'],
      title: 'z',
      tags: ['P8-01'],
      status: 'expected',
      outcome: 'passed',
      annotations: [],
      resultAnnotations: [],
      durationMs: 1,
      errors: [],
      results: [],
    },
  ];
  const text = formatExplorations(explorationsOf(tests));
  assert.match(
    text,
    /lane "payer and beneficiary": FAILED \(MNY-01\) — 20 sequences asked, 23 run \(shrinking included; 6 shrink step\(s\) taken\), 86 payments created \(at most 384\), fast-check seed 42/,
  );
  assert.match(text, /2\. return the whole of P0/);
  assert.match(text, /replay: PAYMENTS_EXPLORE_REPLAY=/);
  assert.match(text, /third institution: skipped — needs a third institution/);
  assert.match(text, /exploration created 86 payment\(s\) in all/);
  assert.doesNotMatch(text, /not an exploration/);
});

test('a lane’s budget: its share of the sequences, the kits shrinking may need, the payments they bound', () => {
  const local = loadProfile('local');
  const exploration = { sequences: 5, paymentsPerSequence: 5 };
  const first = laneBudget(local, exploration, 'payer and beneficiary');
  const second = laneBudget(local, exploration, 'three institutions');
  assert.deepEqual(
    [first.sequences, second.sequences],
    [3, 2],
    'the sequences are shared, the first lane takes the odd one',
  );
  assert.equal(first.commandsPerSequence, 16);
  assert.equal(first.maxKits, 3 + 5 * 3 + 4, 'generated, shrinking (five per generated), prepared ahead');
  assert.equal(first.maxPayments, 22 * 5, 'each kit’s sequence creates at most its budget, sentinels included');
  assert.equal(
    laneBudget(local, exploration, 'payer and beneficiary', 40).sequences,
    20,
    '--sequences overrides the profile',
  );
  assert.equal(
    laneBudget(local, { ...exploration, commandsPerSequence: 4 }, 'three institutions').commandsPerSequence,
    4,
  );
  assert.equal(
    laneSeed('123', 'local', 'payer and beneficiary'),
    laneSeed('123', 'local', 'payer and beneficiary'),
    'PAYMENTS_SEED replays the generation',
  );
  assert.notEqual(laneSeed('123', 'local', 'payer and beneficiary'), laneSeed('123', 'local', 'three institutions'));
});
