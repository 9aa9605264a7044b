/** scripts/lib/drift.ts: an assumption that changed is drift, in its own section and exit status, never a conformance failure. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DRIFT_EXIT_CODE,
  failsOnlyAssumptions,
  nightlyExitCode,
  renderDrift,
  splitRegressions,
  type DriftReport,
} from '../../../scripts/lib/drift';
import type { FieldDiff } from '../../../engines/discovery/diff';

const scaDrift: FieldDiff = {
  field: 'expectations.refusalStatus.sca',
  rules: ['SCA-15'],
  expected: [401],
  declared: true,
  observed: [403],
  adopt: [403],
  status: 'differs',
  unmet: [{ field: 'expectations.refusalStatus.sca', key: 'refusalStatus.sca', observed: 403, expected: [401] }],
  complete: true,
};
const none: DriftReport = { fields: [], assumptionFailures: [], discovery: { ran: true } };

test('a test that failed only on assumption rules is drift; one that failed a documented rule stays a regression', () => {
  assert.equal(failsOnlyAssumptions(['SCA-15', 'ERR-02']), true);
  assert.equal(failsOnlyAssumptions(['SCA-15', 'SCA-09']), false, 'SCA-09 is documented');
  assert.equal(failsOnlyAssumptions([]), false, 'a failure no rule claims is a regression');
  assert.equal(failsOnlyAssumptions(undefined), false);
  const rules: Record<string, string[]> = {
    'local › a': ['ERR-01'],
    'local › b': ['P8-01', 'ERR-01'],
    'local › c': [],
  };
  const split = splitRegressions(
    [
      { test: 'local › a', tags: [] },
      { test: 'local › b', tags: [] },
      { test: 'local › c', tags: [] },
    ],
    (t) => rules[t],
  );
  assert.deepEqual(
    split.conformance.map((r) => r.test),
    ['local › b', 'local › c'],
  );
  assert.deepEqual(split.assumptions, [{ test: 'local › a', rules: ['ERR-01'] }]);
});

test('exit status: conformance first, then drift (3), else 0', () => {
  assert.equal(nightlyExitCode(true, none), 0);
  assert.equal(nightlyExitCode(true, { ...none, fields: [scaDrift] }), DRIFT_EXIT_CODE);
  assert.equal(
    nightlyExitCode(true, { ...none, assumptionFailures: [{ test: 'x', rules: ['STS-14'] }] }),
    DRIFT_EXIT_CODE,
  );
  assert.equal(nightlyExitCode(false, { ...none, fields: [scaDrift] }), 1, 'a conformance failure wins');
  assert.equal(
    nightlyExitCode(true, {
      ...none,
      discovery: { ran: false, why: 'the sandbox refused the token request', error: true },
    }),
    DRIFT_EXIT_CODE,
    'drift that could not be checked is not OK',
  );
  assert.equal(
    nightlyExitCode(true, { ...none, discovery: { ran: false, why: '--no-discover' } }),
    0,
    'not asked for is fine',
  );
});

test('the drift section names each changed assumption, its rules and what to do', () => {
  const lines = renderDrift('sandbox', {
    fields: [scaDrift],
    assumptionFailures: [{ test: 'sandbox › payments › x', rules: ['SCA-15'] }],
    discovery: { ran: true },
  });
  assert.deepEqual(lines, [
    '',
    'Assumptions of sandbox (drift is not a conformance failure):',
    'DRIFT            expectations.refusalStatus.sca: the profile expects [401], the target answered 403 (SCA-15); adopt it with npm run discover -- --write, or take it up with the provider',
    'ASSUMPTION       sandbox › payments › x (SCA-15): the target answers otherwise than the profile expects',
    'assumptions sandbox: DRIFT — 1 changed, 1 tests failed on assumptions alone (exit 3 when conformance is OK)',
  ]);
  assert.deepEqual(renderDrift('local', none).slice(-2), [
    'no drift: every answer discovery observed is one the profile admits',
    'assumptions local: OK — 0 changed, 0 tests failed on assumptions alone',
  ]);
  assert.match(
    renderDrift('local', {
      ...none,
      discovery: { ran: false, why: 'cannot reach https://x (ECONNREFUSED)', error: true },
    }).join('\n'),
    /DRIFT UNCHECKED {2}discovery could not run: cannot reach/,
  );
});
