/**
 * Idempotency of the submission on grpHdr.msgId (spec §2.2, §4.2, §7): a repeat is 200, concurrent
 * duplicates create one payment, a repeat never pays twice, and a repeat with another body is
 * answered as the profile assumes.
 */
import { test, expect } from '../../fixtures/test';
import { dataOf, submitPayment } from '../../fixtures/flows';
import { repeatNotifiedOnce } from '../../fixtures/catalogues/observations';
import { brief } from '../../fixtures/verdicts';
import { buildPacs008, clonePacs008, paymentIds } from '../../helpers/messages/pacs008';

test.describe('payment idempotency', () => {
  test('a repeat of a used msgId gets 200 and names the same payment', { tag: ['@IDEM-01', '@IDEM-04'] }, async ({ api, verdicts, seed }) => {
    const message = buildPacs008({ seed });
    const first = await submitPayment(api, message, { label: 'first submission' });
    verdicts.expectStatus(first.exchange, [201], 'first submission');
    const repeat = await submitPayment(api, message, { label: 'the same message again (fresh SCA)' });
    verdicts.expectStatus(repeat.exchange, [200], 'repeat with the same msgId');
    verdicts.assume(repeat.paymentsServiceId === first.paymentsServiceId, `the repeat names the original payment ${first.paymentsServiceId} (got ${brief(repeat.exchange)})`);
    verdicts.assume(dataOf(repeat.exchange)?.paymentId === paymentIds(message).msgId, 'the repeat echoes the msgId as paymentId');
  });

  test('20 concurrent duplicates give exactly one 201 and nineteen 200', { tag: ['@IDEM-03', '@IDEM-04'] }, async ({ api, verdicts, seed }) => {
    const message = buildPacs008({ seed });
    await api.accessToken(); // one token for all, so the race is on the submission only
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => submitPayment(api, message, { label: `duplicate ${i + 1} of 20` })));
    const statuses = results.map((r) => r.exchange.response.status);
    expect(statuses.filter((s) => s === 201).length, `exactly one 201 among ${statuses.join(',')}`).toBe(1);
    expect(statuses.filter((s) => s === 200).length, `the rest 200 among ${statuses.join(',')}`).toBe(19);
    const ids = new Set(results.map((r) => r.paymentsServiceId));
    verdicts.assume(ids.size === 1, `all 20 answers name one payment (got ${[...ids].join(', ')})`);
  });

  test('a repeat never creates a second payment: the beneficiary is notified once', { tag: ['@IDEM-02'] }, async ({ verdicts, observe }) => {
    // Paid, repeated and followed to the notifications from the worker's start, in the background,
    // to a beneficiary of this test alone (fixtures/catalogues/observations.ts).
    const seen = await observe(repeatNotifiedOnce);
    verdicts.expectStatus(seen.first.exchange, [201], 'first submission');
    verdicts.expectStatus(seen.repeat.exchange, [200], 'repeat');
    verdicts.expectStatus(seen.sentinel.exchange, [201], 'sentinel submission');
    expect(seen.firstFinal?.statusClass, 'the payment settles').toBe('accepted');
    expect(seen.sentinelFinal, 'the sentinel reaches a final status').toBeDefined();
    expect(seen.firstNotified, 'notification of the payment').toBe(true);
    expect(seen.sentinelNotified, 'notification of the sentinel').toBe(true);
    const firstId = seen.first.paymentsServiceId;
    expect(seen.received.filter((id) => id === firstId).length, 'exactly one notification for the payment').toBe(1);
    expect(seen.received.filter((id) => id !== firstId && id !== seen.sentinel.paymentsServiceId), 'no notification of any other payment').toEqual([]);
  });

  test('a repeat of a used msgId with a different body is answered per the profile', { tag: ['@IDEM-05'] }, async ({ api, verdicts, seed }) => {
    const message = buildPacs008({ seed, amount: 10 });
    const first = await submitPayment(api, message, { label: 'first submission' });
    verdicts.expectStatus(first.exchange, [201], 'first submission');
    const changed = clonePacs008(message);
    changed.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.intrBkSttlmAmt.value = 20;
    const repeat = await submitPayment(api, changed, { label: 'same msgId, amount 20 instead of 10' });
    const status = repeat.exchange.response.status;
    // msgId "is used for idempotency" (§2.2): whatever the answer, it never creates a second payment.
    expect(status, `a used msgId never creates a new payment ${brief(repeat.exchange)}`).not.toBe(201);
    expect(status, 'never a 5xx').toBeLessThan(500);
    const mode = api.profile.expectations.idempotencyConflict ?? 'either';
    const original = status === 200 && repeat.paymentsServiceId === first.paymentsServiceId;
    const refused = status >= 400 && status < 500;
    if (mode === 'original') verdicts.assume(original, `200 with the original payment ${first.paymentsServiceId} (got ${status} ${brief(repeat.exchange)})`);
    if (mode === 'reject') verdicts.assume(refused, `a 4xx conflict (got ${status})`);
    if (mode === 'either') verdicts.assume(original || refused, `200 with the original payment or a 4xx (got ${status})`);
  });
});
