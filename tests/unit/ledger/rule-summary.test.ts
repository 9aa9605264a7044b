/**
 * Rules first (ledger/rule-summary.ts): a run says, before counting tests, how many of the ledger's
 * documented rules it assessed and violated, which it could not assess and why, and which
 * assumptions did not hold; the terminal's summary and the report's overview print the same lines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rules } from '../../../ledger/rules';
import { describeRulesGlance, rulesAtAGlance, summariseRuleOutcomes } from '../../../ledger/rule-summary';
import type { RuleOutcome } from '../../../ledger/outcomes';

const documented = rules.filter((r) => r.level === 'documented' && !r.retired);

test('the glance counts documented rules assessed and violated out of the total, groups the rest by why, and lists assumptions not met', () => {
  const [a, b, c, d] = documented;
  const tests: { test: string; outcomes: RuleOutcome[] }[] = [
    { test: 't1', outcomes: [{ rule: a!.id, status: 'passed' }] },
    {
      test: 't2',
      outcomes: [
        { rule: b!.id, status: 'failed', why: 'HTTP 201' },
        { rule: a!.id, status: 'passed' },
      ],
    },
    {
      test: 't3',
      outcomes: [{ rule: c!.id, status: 'skipped', reason: { kind: 'blocked', by: 'assumption ERR-01', answer: 'x' } }],
    },
    { test: 't4', outcomes: [{ rule: d!.id, status: 'skipped', reason: { kind: 'inconclusive', answer: '503' } }] },
    { test: 't5', outcomes: [{ rule: 'ERR-02', status: 'failed', why: 'enforced' }] },
  ];
  const glance = rulesAtAGlance(summariseRuleOutcomes(rules, tests), ['ERR-01']);
  assert.equal(glance.documented, documented.length);
  assert.equal(glance.assessed, 2);
  assert.deepEqual(glance.violated, [b!.id]);
  assert.deepEqual(glance.assumptionsNotMet, ['ERR-01', 'ERR-02']);
  const groups = Object.fromEntries(glance.unassessed.map((g) => [g.why, g.rules]));
  assert.deepEqual(groups['blocked by assumption ERR-01'], [c!.id]);
  assert.deepEqual(groups['inconclusive (infrastructure): run again'], [d!.id]);
  assert.equal(groups['not run, no test of this run cites them']!.length, documented.length - 4);
  const lines = describeRulesGlance(glance);
  assert.equal(lines[0], `2 of ${documented.length} documented rules assessed, 1 violated (${b!.id})`);
  assert.match(lines[1]!, new RegExp(`^${documented.length - 2} not assessed: ${documented.length - 4} not run`));
  assert.match(lines[2]!, /^2 of \d+ assumptions not met \(ERR-01, ERR-02\): reported, see the profile$/);
});
