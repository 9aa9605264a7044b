import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../support/cli';
import {
  claimLivePayment,
  describeLiveBudget,
  largestAmount,
  liveBudgetUse,
  livePaymentAmount,
  recordLivePayment,
} from '../../../client/live-budget';
import { loadProfile } from '../../../profile/profile';
import { buildPacs008, paidTo } from '../../../messages/pacs008';

const beneficiary = { memberId: '040004', account: '40000004', name: 'Test Account' };
const live = { ...loadProfile('live'), liveLimits: { maxPayments: 2, maxAmount: 5, beneficiary } };
const message = (value: number) => ({
  fitoFICstmrCdtTrf: { cdtTrfTxInf: [{ intrBkSttlmAmt: { value, ccy: 'GBP' } }] },
});

test('a non-live profile is never limited', () => {
  assert.deepEqual(claimLivePayment(loadProfile('local'), message(1e9)), { ok: true });
});

test('a live run gets exactly maxPayments slots, shared by every caller of the run', () => {
  const budget = tempDir('live-budget');
  assert.equal(claimLivePayment(live, message(1), budget).ok, true);
  assert.equal(claimLivePayment(live, message(1), budget).ok, true);
  const third = claimLivePayment(live, message(1), budget);
  assert.equal(third.ok, false);
  assert.match(third.ok ? '' : third.reason, /used up/);
});

test('an amount above maxAmount is refused before any slot is taken', () => {
  const budget = tempDir('live-budget');
  const verdict = claimLivePayment(live, message(5.01), budget);
  assert.equal(verdict.ok, false);
  assert.equal(claimLivePayment(live, message(5), budget).ok, true);
});

test('a live profile that names no account to pay submits nothing', () => {
  const nowhere = { ...live, liveLimits: { maxPayments: 2, maxAmount: 5 } };
  const verdict = claimLivePayment(nowhere, message(1), tempDir('live-budget'));
  assert.equal(verdict.ok, false);
  assert.match(verdict.ok ? '' : verdict.reason, /liveLimits\.beneficiary/);
});

test('paidTo: a drawn creditor becomes the live beneficiary; a creditor a test chose stays', () => {
  const m = buildPacs008({ seed: 'live' });
  const paid = paidTo(m, beneficiary) as typeof m;
  const tx = paid.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!;
  assert.deepEqual(
    [tx.cdtrAgt.finInstnId.clrSysMmbId.mmbId, tx.cdtrAcct.id.othr.id, tx.cdtr.nm, tx.cdtrAcct.nm],
    ['040004', '40000004', 'Test Account', 'Test Account'],
  );
  assert.equal(paidTo(m, undefined), m);
  const chosen = buildPacs008({ seed: 'live', creditorMemberId: '123456' });
  assert.equal(paidTo(chosen, beneficiary), chosen);
});

test('largestAmount finds every {value, ccy} in a message', () => {
  assert.equal(largestAmount({ a: [{ value: 3, ccy: 'EUR' }, { b: { value: 7.5, ccy: 'GBP' } }], value: 99 }), 7.5);
});

test('a live profile without liveLimits allows no payment', () => {
  const { liveLimits: _ignored, ...noLimits } = live;
  assert.equal(claimLivePayment(noLimits, message(1)).ok, false);
});

test('the budget counts slots used and payments made (a refused or repeated submission uses a slot, makes no payment)', () => {
  const budget = tempDir('live-budget');
  assert.deepEqual(liveBudgetUse(budget), { claimed: 0, made: 0 });
  const first = claimLivePayment(live, message(1), budget);
  claimLivePayment(live, message(1), budget);
  assert.ok(first.ok && first.slot);
  recordLivePayment(first.slot);
  assert.deepEqual(liveBudgetUse(budget), { claimed: 2, made: 1 });
  assert.equal(
    describeLiveBudget(live, liveBudgetUse(budget), 'after'),
    'live payments after the run (live): 1 made, 2 of 2 budget slots used (maxPayments 2, maxAmount 5)',
  );
});

test('the live lane pays a low value: at most maxAmount, and 1.00', () => {
  assert.equal(livePaymentAmount(live), 1);
  assert.equal(livePaymentAmount({ ...live, liveLimits: { maxPayments: 1, maxAmount: 0.5 } }), 0.5);
});
