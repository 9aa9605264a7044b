/**
 * The exploration's judges (checks/exploration.ts): what each answer must be, from what the suite
 * sent and was answered (its model, engines/exploration/model.ts), by the documented invariants
 * only. Where the spec is open every answer passes; what never passes is money going back beyond
 * the original (MNY-01), another client's ids changing a payment (XCL-01), a repeat creating a
 * payment (IDEM-02).
 * Run: node --import tsx --test tests/unit/checks/exploration-model.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  expectRefund,
  expectReturn,
  judgeAmount,
  judgeAnswer,
  judgeCancellation,
  judgeCancellationAnswer,
  judgeDuplicates,
  judgeFollowed,
  judgeIncoming,
  invalidAmountExpectation,
  judgeInvalidAmount,
  judgeNotifications,
  judgePayerStatus,
  judgePayment,
  judgeRepeat,
  judgeSameRefundCopies,
  judgeSettledAccepted,
  judgeShadow,
  judgeStatusRead,
  judgeStrangerCancellation,
  judgeStrangerRead,
  missedIntention,
  type MoneyBack,
  type PaymentModel,
} from '../../../checks/exploration';
import { counted, moneyBack, moneyVerdict, restOf } from '../../../checks/payment-model';
import { describeStep, needsStranger, paymentsCreatedBy } from '../../../engines/exploration/steps';
import { formatReplay, parseReplay } from '../../../engines/exploration/explorer';

const settled = (amount = 10_000n, extra: Partial<PaymentModel> = {}): PaymentModel => ({
  label: 'P0',
  id: 'id-P0',
  msgId: 'MSG-0',
  txId: 'TX-0',
  amount,
  status: 'accepted',
  history: ['ACCC'],
  back: [],
  cancellation: 'none',
  strangerCancelled: false,
  shadowed: false,
  ...extra,
});
const back = (
  kind: 'return' | 'refund',
  amount: bigint,
  http: number,
  final?: MoneyBack['final'],
  by: MoneyBack['by'] = 'beneficiary',
): MoneyBack => ({ label: `${kind} X`, kind, by, amount, http, id: `id-${kind}`, ...(final ? { final } : {}) });
const shape = { refundShapeConfirmed: true, returnShapeConfirmed: true };

test('money that went back counts from evidence: refused is nothing, 2xx is maybe until its status is final', () => {
  assert.equal(counted(back('refund', 100n, 400)), 'no');
  assert.equal(counted(back('refund', 100n, 201)), 'maybe');
  assert.equal(counted(back('refund', 100n, 201, 'accepted')), 'yes');
  assert.equal(counted(back('refund', 100n, 201, 'rejected')), 'no');
  const p = settled(10_000n, {
    back: [back('refund', 6_000n, 201, 'accepted'), back('refund', 1_000n, 201), back('return', 10_000n, 400)],
  });
  assert.deepEqual({ yes: moneyBack(p).yes, maybe: moneyBack(p).maybe }, { yes: 6_000n, maybe: 1_000n });
  assert.equal(restOf(p), 3_000n);
});

test('MNY-01: holds within the original; maybes that alone break it are followed; evidence beyond it breaks it', () => {
  assert.equal(
    moneyVerdict(settled(10_000n, { back: [back('refund', 6_000n, 201), back('refund', 4_000n, 201)] })).verdict,
    'holds',
  );
  const open = moneyVerdict(settled(10_000n, { back: [back('refund', 6_000n, 201), back('return', 10_000n, 201)] }));
  assert.equal(open.verdict, 'follow');
  assert.equal(open.verdict === 'follow' && open.open.length, 2);
  // A target reporting business rejections by status: the return settled rejected, nothing is broken.
  assert.equal(
    moneyVerdict(
      settled(10_000n, { back: [back('refund', 6_000n, 201, 'accepted'), back('return', 10_000n, 201, 'rejected')] }),
    ).verdict,
    'holds',
  );
  const broken = moneyVerdict(
    settled(10_000n, { back: [back('refund', 6_000n, 201, 'accepted'), back('return', 10_000n, 201, 'accepted')] }),
  );
  assert.equal(broken.verdict, 'broken');
  assert.equal(broken.verdict === 'broken' && broken.finding.rule, 'MNY-01');
  assert.match(
    broken.verdict === 'broken' ? broken.finding.received! : '',
    /160\.00: refund X 60\.00 \(accepted\) \+ return X 100\.00 \(accepted\)/,
  );
  const cancelled = moneyVerdict(
    settled(10_000n, { status: 'cancelled', back: [back('refund', 100n, 201, 'accepted')] }),
  );
  assert.equal(
    cancelled.verdict === 'broken' && cancelled.finding.rule,
    'MNY-01',
    'nothing goes back for a payment that was never received',
  );
});

test('a return: the beneficiary, the whole amount, once, never after a refund; accepted when all of that holds', () => {
  assert.deepEqual(pick(expectReturn(settled(), 'stranger', 10_000n, shape)), ['refused', 'RTR-39']);
  assert.deepEqual(pick(expectReturn(settled(), 'beneficiary', 5_000n, shape)), ['refused', 'RTR-33']);
  assert.deepEqual(
    pick(
      expectReturn(settled(10_000n, { back: [back('refund', 1n, 201, 'accepted')] }), 'beneficiary', 10_000n, shape),
    ),
    ['refused', 'MNY-01'],
  );
  assert.deepEqual(
    pick(
      expectReturn(
        settled(10_000n, { back: [back('return', 10_000n, 201, 'accepted')] }),
        'beneficiary',
        10_000n,
        shape,
      ),
    ),
    ['refused', 'RTR-38'],
  );
  assert.deepEqual(
    pick(expectReturn(settled(10_000n, { back: [back('refund', 1n, 201)] }), 'beneficiary', 10_000n, shape)),
    ['either'],
    'the refund may still be rejected',
  );
  assert.deepEqual(
    pick(expectReturn(settled(10_000n, { status: undefined }), 'beneficiary', 10_000n, shape)),
    ['either'],
    'not known to have settled',
  );
  assert.deepEqual(pick(expectReturn(settled(), 'beneficiary', 10_000n, shape)), ['accepted', 'RTR-01']);
  assert.deepEqual(
    pick(expectReturn(settled(10_000n, { shadowed: true }), 'beneficiary', 10_000n, shape)),
    ['accepted', 'XCL-01'],
    'another client reusing the ids changes nothing',
  );
});

test('a refund: part of the payment, never the whole at once, never beyond it, never after a return', () => {
  assert.deepEqual(pick(expectRefund(settled(), 'stranger', 100n, shape)), ['refused', 'RFD-08']);
  assert.deepEqual(pick(expectRefund(settled(), 'beneficiary', 10_000n, shape)), ['refused', 'RFD-02']);
  assert.deepEqual(pick(expectRefund(settled(), 'beneficiary', 10_001n, shape)), ['refused', 'RFD-04']);
  assert.deepEqual(
    pick(
      expectRefund(settled(10_000n, { back: [back('return', 10_000n, 201, 'accepted')] }), 'beneficiary', 100n, shape),
    ),
    ['refused', 'MNY-01'],
  );
  assert.deepEqual(
    pick(
      expectRefund(settled(10_000n, { back: [back('refund', 9_950n, 201, 'accepted')] }), 'beneficiary', 51n, shape),
    ),
    ['refused', 'RFD-04'],
  );
  assert.deepEqual(
    pick(
      expectRefund(settled(10_000n, { back: [back('refund', 9_950n, 201, 'accepted')] }), 'beneficiary', 50n, shape),
    ),
    ['accepted', 'RFD-03'],
    'refunds may reach the whole',
  );
  assert.deepEqual(pick(expectRefund(settled(), 'beneficiary', 100n, shape)), ['accepted', 'RFD-01']);
  assert.deepEqual(
    pick(expectRefund(settled(), 'beneficiary', 100n, { refundShapeConfirmed: false, returnShapeConfirmed: true })),
    ['either'],
    'the pacs.007 shape is an assumption until a refund in it was accepted',
  );
  assert.deepEqual(pick(expectRefund(settled(10_000n, { shadowed: true }), 'beneficiary', 100n, shape)), [
    'accepted',
    'XCL-01',
  ]);
});

test('an answer against its expectation: a 2xx that must be a refusal is followed to its final status; never a 5xx', () => {
  const refused = { answer: 'refused' as const, rule: 'MNY-01', why: 'already refunded' };
  assert.deepEqual(judgeAnswer(refused, 201, 'a return', 'RTR-01'), { verdict: 'follow' });
  assert.equal(judgeFollowed(refused, 'rejected', 'RJCT', 'a return').ok, true);
  assert.equal(judgeFollowed(refused, 'accepted', 'ACCC', 'a return').ok, false);
  const accepted = judgeAnswer({ answer: 'accepted', rule: 'XCL-01', why: 'settled' }, 400, 'a return', 'RTR-01');
  assert.equal(accepted.verdict === 'judged' && accepted.finding.ok, false);
  assert.equal(accepted.verdict === 'judged' && accepted.finding.rule, 'XCL-01');
  const either = judgeAnswer({ answer: 'either', why: 'pending' }, 500, 'a refund', 'RFD-01');
  assert.equal(either.verdict === 'judged' && either.finding.ok, false, 'a 5xx is never an answer');
  assert.equal(
    judgeAnswer({ answer: 'either', why: 'pending' }, 409, 'a refund', 'RFD-01').verdict,
    'open',
    'an answer the spec leaves open is no evidence for the rule',
  );
  const owed = { answer: 'accepted' as const, rule: 'RFD-01', why: 'settled, nothing sent back' };
  assert.equal(judgeSettledAccepted(owed, 'refund F1', 201, 'accepted').ok, true);
  assert.equal(judgeSettledAccepted(owed, 'refund F1', 201, 'rejected').ok, false, 'a 2xx that ends rejected');
  assert.equal(judgeSettledAccepted(owed, 'refund F1', 201, undefined).received, 'HTTP 201, then no final status');
});

test('a directed step whose intended outcome the spec leaves open is blocked, not failed, when it does not come', () => {
  const open = { answer: 'either' as const, why: 'not known to have settled', assumption: 'RFD-07' };
  assert.equal(missedIntention(open, back('refund', 100n, 201, 'accepted'), 'accepted'), undefined);
  assert.deepEqual(missedIntention(open, back('refund', 100n, 201, 'rejected'), 'accepted'), {
    why: 'it was refused (HTTP 201, then rejected), which the spec allows here: not known to have settled',
    assumption: 'RFD-07',
  });
  assert.equal(missedIntention(open, back('refund', 100n, 400), 'refused'), undefined);
  assert.equal(missedIntention(open, back('refund', 100n, 400), undefined), undefined, 'no intention');
  const decided = { answer: 'accepted' as const, rule: 'RFD-01', why: 'settled' };
  assert.equal(missedIntention(decided, back('refund', 100n, 400), 'accepted'), undefined, 'judged, not blocked');
});

const NO_LISTS = { statusCodes: { pending: [], accepted: [], rejected: [], cancelled: [] } };

test('statuses the payer reads stay final and of their class after ACCC or RJTC, and match its cancellation', () => {
  assert.deepEqual(judgePayerStatus(settled(), 'ACCC', 'accepted', NO_LISTS), []);
  assert.equal(judgePayerStatus(settled(), 'PEND', 'pending', NO_LISTS)[0]?.rule, 'STS-10');
  assert.equal(judgePayerStatus(settled(), 'RJCT', 'rejected', NO_LISTS)[0]?.rule, 'STS-10');
  assert.deepEqual(
    judgePayerStatus(settled(10_000n, { status: 'pending', history: ['PEND'] }), 'ACCC', 'accepted', NO_LISTS),
    [],
  );
  const pending: Partial<PaymentModel> = { status: 'pending', history: ['PEND'] };
  assert.equal(
    judgePayerStatus(settled(10_000n, { ...pending, cancellation: 'confirmed' }), 'ACCC', 'accepted', NO_LISTS)[0]
      ?.rule,
    'CXL-02',
  );
  assert.equal(
    judgePayerStatus(settled(10_000n, { ...pending, strangerCancelled: true }), 'CANC', 'cancelled', NO_LISTS)[0]?.rule,
    'XCL-01',
  );
  assert.equal(
    judgePayerStatus(settled(10_000n, { ...pending, cancellation: 'rejected' }), 'CANC', 'cancelled', NO_LISTS)[0]
      ?.rule,
    'CXL-03',
    'its cancellation rejected, the payment goes on',
  );
  // Only §3's final codes are final by rule: ACSC (final in ISO's table) followed by another code is a
  // lesson about the target, never a finding; ACCC followed by an interim code is one, by ACSC (final,
  // still accepted: §3 shows no transitions) none.
  const viaAcsc = settled(10_000n, { history: ['ACSP', 'ACSC'] });
  assert.deepEqual(judgePayerStatus(viaAcsc, 'ACCC', 'accepted', NO_LISTS), []);
  assert.deepEqual(judgePayerStatus(viaAcsc, 'ACSP', 'pending', NO_LISTS), []);
  assert.equal(judgePayerStatus(settled(), 'ACSP', 'pending', NO_LISTS)[0]?.rule, 'STS-10');
  assert.deepEqual(judgePayerStatus(settled(), 'ACSC', 'accepted', NO_LISTS), []);
  assert.equal(
    judgePayerStatus(settled(10_000n, { history: ['ACCC', 'ACSC'] }), 'PDNG', 'pending', NO_LISTS)[0]?.rule,
    'STS-10',
    'ACCC, ACSC, then interim: judged against ACCC, not only the read before',
  );
  assert.equal(judgePayerStatus(settled(), 'XXXX', undefined, NO_LISTS)[0]?.rule, 'STS-07');
});

test('reads by others and cancellations', () => {
  assert.equal(judgeStatusRead(settled(), 200, 'ACCC'), undefined, 'a status to judge as such');
  assert.equal(judgeStatusRead(settled(), 200, undefined)?.rule, 'STS-01');
  assert.equal(judgeStatusRead(settled(), 404, 'ACCC')?.ok, false);
  assert.equal(judgeCancellationAnswer(settled(), 503)?.rule, 'CXL-01');
  assert.equal(judgeCancellationAnswer(settled(), 400), undefined, 'the camt.056 shape is an assumption (CXL-06)');
  assert.equal(judgeCancellationAnswer(settled(), 202), undefined);
  assert.equal(judgeStrangerRead(settled(), 'status', 404).ok, true);
  assert.equal(judgeStrangerRead(settled(), 'status', 200).rule, 'STS-13');
  assert.equal(judgeStrangerRead(settled(), 'incoming', 200).rule, 'INC-03');
  assert.equal(judgeIncoming(settled(), 200, 10_000n).ok, true);
  assert.equal(judgeIncoming(settled(), 404, undefined).ok, false, 'a settled payment is served to its beneficiary');
  assert.equal(judgeIncoming(settled(10_000n, { status: undefined }), 404, undefined).ok, true);
  assert.equal(judgeIncoming(settled(), 200, 9_999n).ok, false);
  assert.equal(judgeCancellation(settled(), 'confirmed').rule, 'CXL-03');
  assert.equal(judgeCancellation(settled(), 'confirmed').ok, false);
  assert.equal(judgeCancellation(settled(10_000n, { status: undefined }), 'confirmed').ok, true);
  assert.equal(judgeStrangerCancellation(settled(), 201, false).ok, false);
  assert.equal(judgeStrangerCancellation(settled(), 202, false, 'rejected').ok, true, 'rejected in its camt.029');
  assert.equal(judgeStrangerCancellation(settled(), 202, false, 'confirmed').ok, false);
  assert.equal(
    judgeStrangerCancellation(settled(), 202, false, 'other').rule,
    'CXL-06',
    'an undeclared code: the profile’s',
  );
  assert.equal(judgeStrangerCancellation(settled(), 202, false, 'unserved').rule, 'CXL-01');
  assert.equal(judgeStrangerCancellation(settled(), 202, false, 'unserved').ok, false);
  assert.equal(judgeStrangerCancellation(settled(), 404, false).ok, true);
  assert.equal(
    judgeStrangerCancellation(settled(), 201, true).ok,
    true,
    'the stranger cancelling its own payment with those ids',
  );
});

test('payments, repeats and duplicates: a used msgId never creates a payment', () => {
  const copies = (...answers: (number | [number, string])[]) =>
    answers.map((a) => (typeof a === 'number' ? { http: a } : { http: a[0], id: a[1] }));
  assert.equal(judgeSameRefundCopies(copies(201, 200, 409)).ok, true);
  assert.equal(judgeSameRefundCopies(copies(201, 201, 200)).ok, false, 'two refunds booked for one msgId');
  assert.equal(judgeSameRefundCopies(copies(201, 201, 200)).rule, 'RFD-06');
  assert.equal(
    judgeSameRefundCopies(copies([201, 'F1'], [201, 'F1'], [202, 'F1'])).ok,
    true,
    'every copy answered with the one refund’s id: one refund, whatever its 2xx',
  );
  assert.equal(judgeSameRefundCopies(copies([202, 'F1'], [202, 'F2'])).ok, false, 'two ids: two refunds');
  assert.equal(judgePayment('P3', 1_000n, 201, true).ok, true);
  assert.equal(judgePayment('P3', 1_000n, 400, true).ok, false);
  assert.equal(
    judgePayment('P3', 900_000_000_000_000n, 422, false).ok,
    true,
    'a limit of its own the spec does not show',
  );
  const p = settled();
  assert.equal(judgeRepeat(p, 'same', 201, 'id-other', {})[0]?.rule, 'IDEM-02');
  assert.deepEqual(
    judgeRepeat(p, 'same', 503, undefined, {}).map((f) => [f.rule, f.ok]),
    [['IDEM-01', false]],
    'a 5xx is no 200, and no proof of a second payment',
  );
  assert.deepEqual(
    judgeRepeat(p, 'other', 500, undefined, {}).map((f) => [f.rule, f.ok]),
    [['IDEM-01', false]],
    'another body: a 5xx is neither 200 nor a 4xx',
  );
  assert.deepEqual(judgeRepeat(p, 'other', 0, undefined, {}), [], 'no answer: nothing to judge here');
  assert.deepEqual(
    judgeRepeat(p, 'same', 200, 'id-P0', {}).map((f) => [f.rule, f.ok]),
    [
      ['IDEM-02', true],
      ['IDEM-01', true],
    ],
  );
  assert.equal(judgeRepeat(p, 'same', 200, 'id-other', {}).find((f) => f.rule === 'IDEM-04')?.ok, false);
  assert.equal(judgeRepeat(p, 'other', 200, 'id-P0', { idempotencyConflict: 'original' }).at(-1)?.ok, true);
  assert.equal(judgeRepeat(p, 'other', 409, undefined, { idempotencyConflict: 'original' }).at(-1)?.ok, false);
  assert.equal(judgeRepeat(p, 'other', 409, undefined, { idempotencyConflict: 'reject' }).at(-1)?.ok, true);
  assert.equal(judgeRepeat(p, 'other', 409, undefined, {}).at(-1)?.ok, true, 'either when the profile says nothing');
  const h = (...statuses: number[]) => statuses.map((http) => ({ http }));
  assert.equal(judgeDuplicates('P3', h(201, 200, 200)).ok, true);
  assert.equal(judgeDuplicates('P3', h(201, 201, 200)).rule, 'IDEM-02');
  assert.equal(judgeDuplicates('P3', h(200, 200, 200)).rule, 'IDEM-03');
  assert.equal(judgeDuplicates('P3', h(201, 409, 200), h(200)).ok, true, '409 in flight, then 200');
  assert.equal(judgeDuplicates('P3', h(201, 409, 200)).ok, false, 'a 409 never sent again');
  assert.equal(judgeDuplicates('P3', h(201, 409, 200), h(409)).ok, false);
  assert.equal(judgeDuplicates('P3', h(201, 409, 200), h(201)).rule, 'IDEM-02', 'sent again, a second payment');
  assert.equal(judgeDuplicates('P3', h(201, 422, 503), h(200, 200)).ok, true, 'any 4xx or a 503 in flight, then 200');
  assert.equal(judgeDuplicates('P3', h(201, 500, 200), h(200)).ok, false, 'a 500 is no in-flight refusal');
  const named = (...ids: string[]) => ids.map((id) => ({ http: 201, id }));
  assert.equal(
    judgeDuplicates('P3', named('P-1', 'P-1', 'P-1')).rule,
    'IDEM-03',
    'one payment answered 201 three times',
  );
  assert.equal(judgeDuplicates('P3', named('P-1', 'P-2')).rule, 'IDEM-02', 'two ids: two payments');
});

test('XCL-01: another client paying with the same msgId and txId gets a payment of its own', () => {
  assert.equal(judgeShadow(settled(), 201, 'id-shadow').ok, true);
  assert.equal(judgeShadow(settled(), 200, 'id-P0').ok, false);
  assert.equal(
    judgeShadow(settled(), 409, undefined).ok,
    true,
    'a msgId unique across clients: refused, nothing leaked',
  );
  assert.equal(judgeShadow(settled(), 500, undefined).ok, false);
  assert.equal(judgeShadow(settled(), 200, undefined).ok, false, 'a repeat of another client’s payment');
});

test('IDEM-02 on notifications: one naming a payment nobody created, with a msgId already paid, is a second payment', () => {
  const known = new Map([
    ['id-P0', 'MSG-0'],
    ['id-sentinel', 'MSG-S'],
  ]);
  assert.equal(
    judgeNotifications(known, [
      { id: 'id-P0', msgId: 'MSG-0' },
      { id: 'id-sentinel', msgId: 'MSG-S' },
    ]).ok,
    true,
  );
  const twin = judgeNotifications(known, [
    { id: 'id-P0', msgId: 'MSG-0' },
    { id: 'id-twin', msgId: 'MSG-0' },
  ]);
  assert.equal(twin.ok, false);
  assert.match(twin.received!, /id-twin/);
  assert.equal(
    judgeNotifications(known, [{ id: 'id-elsewhere', msgId: 'MSG-9' }]).ok,
    true,
    'no evidence of a second payment for a msgId the suite used',
  );
});

test('amounts ISO does not allow are refused or accepted as the profile says; a 5xx for them is a robustness failure', () => {
  assert.equal(judgeInvalidAmount('MNY-04', 'a payment of 10.005', 400, 'refuse').ok, true);
  assert.equal(judgeInvalidAmount('MNY-04', 'a payment of 10.005', 201, 'refuse').ok, false);
  assert.equal(
    judgeInvalidAmount('MNY-04', 'a payment of 10.005', 201, 'either').ok,
    true,
    'the spec only types amounts as numbers',
  );
  assert.equal(judgeInvalidAmount('MNY-04', 'a payment of 10.005', 400, 'either').ok, true);
  assert.equal(judgeInvalidAmount('MNY-05', 'a payment of 1e19', 400, 'accept').ok, false);
  assert.equal(judgeInvalidAmount('MNY-05', 'a payment of 1e308', 500, 'either').rule, 'ROB-03');
  assert.equal(invalidAmountExpectation('MNY-04', { amountPrecision: 'accept', amountDigits: 'refuse' }), 'accept');
  assert.equal(invalidAmountExpectation('MNY-05', {}), 'either');
  const refuses = { amountPrecision: 'refuse', amountDigits: 'accept' } as const;
  assert.equal(judgeAmount(refuses, 10.005, 'a payment of 10.005', 201).rule, 'MNY-04');
  assert.equal(judgeAmount(refuses, 10.005, 'a payment of 10.005', 201).ok, false);
  assert.equal(judgeAmount(refuses, 1e19, 'a payment of 1e19', 400).rule, 'MNY-05');
  assert.equal(judgeAmount(refuses, 1e19, 'a payment of 1e19', 400).ok, false, 'the profile accepts such amounts');
  assert.equal(
    judgeAmount(refuses, 1e19, 'a refund of 1e19', 400, true).ok,
    true,
    'a refund over what is left is not owed acceptance',
  );
});

test('steps in words, which need a third institution, how many payments each may create', () => {
  assert.equal(
    describeStep({ do: 'refund', payment: 0, amount: { of: 'cents', cents: 6_000 }, as: 'beneficiary' }),
    'refund 60.00 of P0 as the beneficiary',
  );
  assert.equal(
    describeStep({ do: 'drain', payment: 2, pieceCents: 3, pieces: 30 }),
    'drain P2: all but 30 × 0.03, then 31 refunds of 0.03 at once',
  );
  assert.equal(needsStranger({ do: 'shadow', payment: 0 }), true);
  assert.equal(needsStranger({ do: 'read status', payment: 0, as: 'stranger' }), true);
  assert.equal(needsStranger({ do: 'return', payment: 0, amount: 'whole', as: 'beneficiary' }), false);
  assert.equal(paymentsCreatedBy({ do: 'pay', cents: 100 }), 1);
  assert.equal(paymentsCreatedBy({ do: 'repeat', payment: 0, body: 'same' }), 1, 'its sentinel');
  assert.equal(paymentsCreatedBy({ do: 'pay duplicates', copies: 3 }), 2, 'one payment and its sentinel');
  assert.equal(paymentsCreatedBy({ do: 'settle' }), 0);
});

test('a counterexample replays from one variable: its lane, seed, path and the commands’ replay path', () => {
  const replay = {
    lane: 'three institutions' as const,
    seed: -1460583445,
    path: '3:2:2:1:1:1:3',
    replayPath: 'DABAADN:VB',
  };
  assert.equal(
    formatReplay(replay),
    'lane=three institutions;seed=-1460583445;path=3:2:2:1:1:1:3;replayPath=DABAADN:VB',
  );
  assert.deepEqual(parseReplay(formatReplay(replay)), replay);
  assert.deepEqual(parseReplay('lane=payer and beneficiary;seed=7;path=0'), {
    lane: 'payer and beneficiary',
    seed: 7,
    path: '0',
  });
  assert.throws(() => parseReplay('seed=7;path=0'), /PAYMENTS_EXPLORE_REPLAY must be/, 'the lane is part of it');
  assert.throws(() => parseReplay('lane=payer and beneficiary;path=0'), /PAYMENTS_EXPLORE_REPLAY must be/);
});

function pick(e: ReturnType<typeof expectReturn>): string[] {
  return e.answer === 'either' ? ['either'] : [e.answer, e.rule];
}

test('a return is open until one with the creditor name where the profile reads it was accepted (ISO-03)', () => {
  const unconfirmed = expectReturn(settled(), 'beneficiary', 10_000n, {
    refundShapeConfirmed: true,
    returnShapeConfirmed: false,
  });
  assert.deepEqual(
    [unconfirmed.answer, 'assumption' in unconfirmed ? unconfirmed.assumption : undefined],
    ['either', 'ISO-03'],
  );
});
