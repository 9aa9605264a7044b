/**
 * The summary's skipped tests (runner/reporters/summary.ts): grouped by reason, the rule a
 * capability's skip names taken out of the reason (one missing capability blocks many rules, one
 * line for all of them) and listed with the rules the skipped tests cite.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeSkip, skipAnnotation, type SkipReason } from '../../../ledger/outcomes';
import { skipReasonGroup } from '../../../runner/reporters/summary';

const skippedWith = (reason: SkipReason) => [
  { type: 'skip', description: describeSkip(reason) },
  skipAnnotation(reason),
];

test('a capability skip is grouped without the rule it names; the rules are the test’s and that one', () => {
  const withRule = skipReasonGroup(
    ['@AT-04', '@op:submitPayment'],
    skippedWith({ kind: 'capability', capability: 'secondClient', profile: 'p', rule: 'AT-04' }),
  );
  const without = skipReasonGroup(
    ['@XCL-01', '@P8-01'],
    skippedWith({ kind: 'capability', capability: 'secondClient', profile: 'p' }),
  );
  assert.equal(withRule.reason, without.reason, 'one reason for the same missing capability');
  assert.doesNotMatch(withRule.reason, /^AT-04 /);
  assert.deepEqual(withRule.rules, ['AT-04']);
  assert.deepEqual(without.rules, ['XCL-01', 'P8-01']);
});

test('any other skip is grouped by what it says', () => {
  const blocked = skipReasonGroup(
    ['@RTR-01'],
    skippedWith({ kind: 'blocked', by: 'assumption INC-06', answer: 'HTTP 400' }),
  );
  assert.equal(blocked.reason, 'blocked by assumption INC-06: HTTP 400');
  assert.deepEqual(blocked.rules, ['RTR-01']);
  assert.deepEqual(skipReasonGroup([], [{ type: 'skip', description: 'by hand' }]), { reason: 'by hand', rules: [] });
});
