/** Known deviations: validation messages and the nightly policy (known / regression / expired / stale). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyDeviations,
  fieldNames,
  matches,
  parseDeviations,
  DeviationsError,
  titleWithoutProject,
  type Deviation,
  type RunTest,
} from '../../../ledger/deviations';
import { parseNightlyArgs } from '../../../scripts/nightly';

const FILE = 'environments/sandbox.deviations.json';
const entry = (extra: Partial<Deviation>): Deviation => ({
  reason: 'provider bug',
  ticket: 'PAY-1',
  owner: 'qa@bank.example',
  expires: '2099-12-31',
  ...extra,
});

const error = (json: unknown): string => {
  try {
    parseDeviations(json, FILE);
  } catch (e) {
    assert.ok(e instanceof DeviationsError);
    return e.message;
  }
  assert.fail('expected a DeviationsError');
};

test('a valid file parses', () => {
  const list = parseDeviations([entry({ rule: 'TOK-01' }), entry({ test: 'refuses: sub missing' })], FILE);
  assert.equal(list.length, 2);
});

test('each validation problem is one sentence naming the entry and field', () => {
  assert.equal(error({}), `${FILE}: must be a JSON array of deviation entries`);
  assert.equal(error([entry({})]), `${FILE}: entry 1 needs "rule" or "test" (or both) to say which failures it covers`);
  assert.equal(
    error([entry({ rule: 'TOK-01' }), { rule: 'TOK-01', reason: 'x y', owner: 'me', expires: '2099-01-01' }]),
    `${FILE}: entry 2 is missing "ticket"`,
  );
  assert.equal(
    error([entry({ rule: 'TOK-01', expires: '31/12/2099' })]),
    `${FILE}: entry 1 field "expires" must be a date YYYY-MM-DD`,
  );
  assert.equal(
    error([entry({ rule: 'TOK-01', expires: '2099-02-30' })]),
    `${FILE}: entry 1 field "expires" is not a real date: 2099-02-30`,
  );
  assert.equal(
    error([entry({ rule: 'ZZZ-99' })]),
    `${FILE}: entry 1 field "rule": ZZZ-99 is not in the ledger (ledger/rules.ts)`,
  );
  assert.equal(
    error([{ ...entry({ rule: 'TOK-01' }), until: 'x' }]),
    `${FILE}: entry 1 has unknown field "until" (allowed: rule, test, reason, ticket, owner, expires, renamedField)`,
  );
  assert.equal(
    error([entry({ rule: 'tok-1' })]),
    `${FILE}: entry 1 field "rule" must look like a ledger ID such as P8-12`,
  );
});

const T = (title: string, outcome: string, tags: string[] = []): RunTest => ({
  title: `sandbox › auth/token.spec.ts › ${title}`,
  tags,
  outcome,
});

test('matching: by rule tag, by title text (project excluded), or both', () => {
  const t = T('refuses: sub missing', 'failed', ['AJWT-06', 'TOK-13']);
  assert.ok(matches(entry({ rule: 'AJWT-06' }), t));
  assert.ok(matches(entry({ test: 'sub missing' }), t));
  assert.ok(matches(entry({ rule: 'TOK-13', test: 'sub missing' }), t));
  assert.ok(!matches(entry({ rule: 'TOK-13', test: 'exp missing' }), t));
  assert.ok(!matches(entry({ test: 'sandbox ›' }), t), 'the project name is not part of the matched title');
  assert.equal(titleWithoutProject('local › a › b'), 'a › b');
});

test('a failure covered by an unexpired entry is a known deviation; others are regressions', () => {
  const out = applyDeviations(
    [T('a', 'failed', ['TOK-01']), T('b', 'failed', ['TOK-02']), T('c', 'passed', ['TOK-03'])],
    [entry({ rule: 'TOK-01' })],
    '2026-01-01',
  );
  assert.deepEqual(
    out.known.map((k) => k.test),
    ['sandbox › auth/token.spec.ts › a'],
  );
  assert.deepEqual(
    out.regressions.map((r) => r.test),
    ['sandbox › auth/token.spec.ts › b'],
  );
  assert.equal(out.ok, false);
  const onlyKnown = applyDeviations(
    [T('a', 'failed', ['TOK-01']), T('c', 'passed')],
    [entry({ rule: 'TOK-01' })],
    '2026-01-01',
  );
  assert.equal(onlyKnown.ok, true);
});

test('an expired entry fails the job and no longer excuses its failure; the expiry day itself is still honoured', () => {
  const dev = entry({ rule: 'TOK-01', expires: '2026-01-01' });
  const onDay = applyDeviations([T('a', 'failed', ['TOK-01'])], [dev], '2026-01-01');
  assert.equal(onDay.ok, true);
  const after = applyDeviations([T('a', 'failed', ['TOK-01'])], [dev], '2026-01-02');
  assert.equal(after.ok, false);
  assert.deepEqual(after.expired, [dev]);
  assert.equal(after.regressions.length, 1);
  const passingButExpired = applyDeviations([T('a', 'passed', ['TOK-01'])], [dev], '2026-01-02');
  assert.equal(passingButExpired.ok, false);
});

test('an entry whose tests now pass, or that matches no test, is stale and fails the job', () => {
  const passes = applyDeviations([T('a', 'passed', ['TOK-01'])], [entry({ rule: 'TOK-01' })], '2026-01-01');
  assert.equal(passes.ok, false);
  assert.match(passes.stale[0]!.why, /passes now.*remove it/);
  const gone = applyDeviations([T('a', 'passed')], [entry({ test: 'renamed test' })], '2026-01-01');
  assert.equal(gone.ok, false);
  assert.match(gone.stale[0]!.why, /matches no test/);
});

test('in a partial run or when its tests were skipped, an entry that matched nothing is reported, not failed', () => {
  const partial = applyDeviations([T('a', 'passed')], [entry({ test: 'elsewhere' })], '2026-01-01', false);
  assert.equal(partial.ok, true);
  assert.equal(partial.unchecked.length, 1);
  const skipped = applyDeviations([T('a', 'skipped', ['TOK-01'])], [entry({ rule: 'TOK-01' })], '2026-01-01');
  assert.equal(skipped.ok, true);
  assert.match(skipped.unchecked[0]!.why, /skipped/);
});

test('nightly arguments: --project is kept for Playwright; filters make the run partial', () => {
  const full = parseNightlyArgs(['--project', 'sandbox', '--workers', '2']);
  assert.deepEqual(full, {
    project: 'sandbox',
    fromReports: [],
    partial: false,
    discover: true,
    playwrightArgs: ['--project=sandbox', '--workers', '2'],
  });
  assert.equal(parseNightlyArgs(['--project=sandbox', 'tests/auth']).partial, true);
  assert.equal(parseNightlyArgs(['--project=sandbox', '--grep', '@TOK-01']).partial, true);
  assert.equal(parseNightlyArgs(['--project=sandbox', '--shard=1/3']).partial, true);
  assert.deepEqual(
    parseNightlyArgs(['--project=sandbox', '--from-report', 'a.json', '--from-report=dir']).fromReports,
    ['a.json', 'dir'],
  );
  assert.throws(() => parseNightlyArgs(['--workers', '1']), /--project/);
  // Discovery (drift) runs before a suite run; a merge of reports runs it only when asked.
  assert.equal(parseNightlyArgs(['--project=sandbox', '--no-discover']).discover, false);
  assert.equal(parseNightlyArgs(['--project=sandbox', '--from-report', 'a.json']).discover, false);
  assert.equal(parseNightlyArgs(['--project=sandbox', '--from-report', 'a.json', '--discover']).discover, true);
  assert.deepEqual(parseNightlyArgs(['--project=sandbox', '--no-discover']).playwrightArgs, ['--project=sandbox']);
});

test('renamedField: a documented field under another name, found by every later call until the entry expires', () => {
  const base = { rule: 'P8-02', reason: 'the production service answers paymentsHubId', ticket: 'T-1', owner: 'qa' };
  const entries = parseDeviations(
    [{ ...base, renamedField: { documented: 'paymentsServiceId', actual: 'paymentsHubId' }, expires: '2026-12-31' }],
    'x.json',
  );
  assert.deepEqual(fieldNames('paymentsServiceId', entries, '2026-12-01'), ['paymentsServiceId', 'paymentsHubId']);
  assert.deepEqual(
    fieldNames('paymentsServiceId', entries, '2027-01-01'),
    ['paymentsServiceId'],
    'an expired entry renames nothing',
  );
  assert.throws(
    () =>
      parseDeviations(
        [{ ...base, renamedField: { documented: 'paymentId', actual: 'x' }, expires: '2026-12-31' }],
        'x.json',
      ),
    DeviationsError,
  );
  const { rule: _rule, ...withoutRule } = base;
  assert.throws(
    () =>
      parseDeviations(
        [
          {
            ...withoutRule,
            test: 'data object',
            renamedField: { documented: 'paymentsServiceId', actual: 'paymentsHubId' },
            expires: '2026-12-31',
          },
        ],
        'x.json',
      ),
    /without "rule"/,
  );
});
