/**
 * The live lane's choices: one header refusal per documented rule (two payment slots each), and what
 * the ledger says a live profile's lane assesses within its budget.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { documentedRules, headerCases, liveHeaderCases } from '../../../cases/sca-cases';
import { reads } from '../../../cases/credential-rows';
import { LANE_SLOTS, REFUSAL_SLOTS } from '../../../client/flows/live-lane';
import { loadProfile } from '../../../profile/profile';
import { liveLane, type ListedTest } from '../../../scripts/ledger-check';

test('the live lane tries each documented header rule once, with a case one client can send where there is one', () => {
  const chosen = liveHeaderCases();
  const rulesOf = (cases: typeof headerCases) => new Set(cases.flatMap(documentedRules));
  // The lane sends the mutant first: a case that reads its valid twin (a reused nonce) cannot run there.
  const mutantFirst = headerCases.filter((c) => !reads(c.change, 'twin'));
  assert.deepEqual(rulesOf(chosen), rulesOf(mutantFirst), 'every documented rule of the catalogue keeps a case');
  assert.ok(mutantFirst.length < headerCases.length && chosen.every((c) => mutantFirst.includes(c)));
  assert.ok(chosen.length < headerCases.length, 'fewer cases than the catalogue: each costs two live payments');
  for (const c of chosen.filter((x) => x.needsOtherClient)) {
    const alone = headerCases.filter((x) => !x.needsOtherClient);
    assert.ok(
      documentedRules(c).some((r) => !alone.some((x) => documentedRules(x).includes(r))),
      `${c.name} needs a second client although a one-client case breaks its rules`,
    );
  }
});

test('the ledger counts only the payment refusals a live budget affords, in run order', () => {
  const refusal = (n: number, rule: string): ListedTest => ({
    title: `h.spec.ts › refuses: ${n}`,
    name: `refuses: ${n}`,
    ruleIds: [rule],
    operations: ['submitPayment'],
    projects: ['live'],
  });
  const token: ListedTest = {
    title: 't.spec.ts › token',
    name: 'a valid token',
    ruleIds: ['TOK-01'],
    operations: ['token'],
    projects: ['live'],
  };
  const tests = [token, refusal(1, 'AT-01'), refusal(2, 'SCA-01')];
  const live = loadProfile('live');
  const afford = (maxPayments: number) => liveLane({ ...live, liveLimits: { maxPayments, maxAmount: 1 } }, tests);
  assert.deepEqual(afford(LANE_SLOTS).overBudget.length, 2, 'the lane keeps its own slots: no refusal fits');
  const one = afford(LANE_SLOTS + REFUSAL_SLOTS);
  assert.deepEqual(
    one.overBudget.map((t) => t.name),
    ['refuses: 2'],
  );
  assert.deepEqual(one.assessed.map((r) => r.id).sort(), ['AT-01', 'TOK-01']);
  assert.equal(afford(LANE_SLOTS + 2 * REFUSAL_SLOTS).overBudget.length, 0);
});
