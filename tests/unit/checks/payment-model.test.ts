/**
 * The payment model both exploration and the run's history judge by (checks/payment-model.ts): money
 * counted from evidence, a request that may have been applied taken both ways, statuses that never
 * move back.
 * Run: node --import tsx --test tests/unit/checks/payment-model.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counted, forbiddenMove, moneyVerdict, type MoneyBack } from '../../../checks/payment-model';

const back = (kind: MoneyBack['kind'], amount: bigint, http: number | undefined, final?: MoneyBack['final']) => ({
  label: `${kind} ${amount}`,
  kind,
  amount,
  http,
  ...(final ? { final } : {}),
});

test('an answer that never came, or came as a 5xx, may have been applied: maybe, never no', () => {
  assert.equal(counted(back('refund', 1n, undefined)), 'maybe');
  assert.equal(counted(back('refund', 1n, 503)), 'maybe');
  assert.equal(counted(back('refund', 1n, 500)), 'maybe');
  assert.equal(counted(back('refund', 1n, 429)), 'no');
  assert.equal(counted(back('refund', 1n, 503, 'accepted')), 'yes', 'its final status decides');
});

test('money: a violation only when every resolution of the maybes breaks it', () => {
  const p = (items: ReturnType<typeof back>[]) => ({
    label: 'P',
    amount: 100n,
    status: 'accepted' as const,
    back: items,
  });
  assert.equal(
    moneyVerdict(p([back('refund', 60n, 201, 'accepted'), back('refund', 40n, 201, 'accepted')])).verdict,
    'holds',
  );
  // Over only if the lost answer was applied: undecidable, not a violation.
  assert.equal(
    moneyVerdict(p([back('refund', 60n, 201, 'accepted'), back('refund', 60n, undefined)])).verdict,
    'follow',
  );
  // Over whatever the lost answer did.
  const over = moneyVerdict(
    p([back('refund', 60n, 201, 'accepted'), back('refund', 50n, 201, 'accepted'), back('refund', 1n, undefined)]),
  );
  assert.equal(over.verdict, 'broken');
  assert.equal(over.verdict === 'broken' && over.finding.rule, 'MNY-01');
});

test('ACCC and RJTC are followed only by a final code of their class; any other code by anything, whatever the profile lists', () => {
  const iso = { statusCodes: { pending: [], accepted: [], rejected: [], cancelled: [] } };
  const acscInterim = { statusCodes: { pending: ['ACSP', 'ACSC'], accepted: ['ACCC'], rejected: [], cancelled: [] } };
  assert.equal(forbiddenMove(undefined, 'PDNG', iso), undefined);
  assert.equal(forbiddenMove('PDNG', 'ACCC', iso), undefined);
  assert.equal(forbiddenMove('ACCC', 'ACCC', iso), undefined);
  assert.equal(forbiddenMove('ACCC', 'PDNG', iso), 'ACCC');
  assert.equal(forbiddenMove('ACCC', 'ACSC', iso), undefined, 'ACCC, then ACSC, final in ISO’s table: still accepted');
  assert.equal(forbiddenMove('ACCC', 'ACSC', acscInterim), 'ACCC', 'ACCC, then a code the profile reads as interim');
  assert.equal(forbiddenMove('RJTC', 'ACCC', iso), 'RJTC');
  assert.equal(forbiddenMove('ACSC', 'ACCC', iso), undefined, 'ACSC, final in ISO’s table, followed by ACCC: a lesson');
  assert.equal(forbiddenMove('ACSC', 'ACCC', acscInterim), undefined);
  assert.equal(forbiddenMove('CANC', 'ACCC', iso), undefined, 'CXL-02 judges a cancelled payment that settles');
});
