/**
 * Payment cancellation (spec §1 cancellation rules 1-5, §3, §4.4). The outcome depends on whether
 * the batch holding the payment was sent, so the payer here is a fresh client with MANUAL batching
 * and the test sends the batch itself (reference admin API; capability batchControl, else the
 * ledger skips CXL-02/03/04). camt.056/camt.029 shapes and the CNCL/RJCR codes are assumptions
 * (the spec does not show them); what each outcome means for the payment is documented and strict.
 */
import { test, expect } from '../../fixtures/test';
import { submitPayment } from '../../fixtures/flows';
import { beneficiaryOf, expectCancellationAccepted, expectResolution, paymentTo, readCancellation, requestCancellation } from '../../fixtures/flows-beneficiary';
import { cancelAfterBatchSent, cancelBeforeBatch } from '../../fixtures/catalogues/observations';
import { brief } from '../../fixtures/verdicts';
import type { Api } from '../../fixtures/api';
import type { ClientIdentity } from '../../helpers/client-jwts';
import { classifyStatus } from '../../helpers/status-vocabulary';
import { buildCamt056 } from '../../helpers/messages/camt056';
import type { Pacs008Message } from '../../helpers/messages/pacs008';
import { camt029Schema } from '../../helpers/schemas/camt029';
import { cancellationResponseSchema } from '../../helpers/schemas/camt056-request';
import { validateAgainst } from '../../helpers/schemas/validator';

async function pay(api: Api, payer: ClientIdentity, payment: Pacs008Message): Promise<string> {
  return test.step('pay: the payer’s bank submits the payment', async () => {
    const { exchange, paymentsServiceId } = await submitPayment(api, payment, { client: payer });
    expect(exchange.response.status, `payment ${brief(exchange)}`).toBe(201);
    return paymentsServiceId!;
  });
}

test.describe('cancellation: whose payment, repeats and shapes', () => {
  test('a cancellation of a payment that does not exist is refused', { tag: ['@CXL-01'] }, async ({ api, verdicts, clients, seed }) => {
    const own = paymentTo(beneficiaryOf(clients), seed);
    await pay(api, clients.primary, own);
    expectCancellationAccepted(verdicts, await requestCancellation(api, buildCamt056({ seed, original: own }), { label: 'valid twin: cancel an own payment (camt.056)' }));
    const neverPaid = paymentTo(beneficiaryOf(clients), seed);
    const answer = await requestCancellation(api, buildCamt056({ seed, original: neverPaid }), { label: 'cancel a payment that was never made' });
    verdicts.expectRefused(answer.exchange, 'notFound');
  });

  test('a cancellation of another client’s payment is refused', { tag: ['@CXL-01'] }, async ({ api, verdicts, clients, seed }) => {
    test.skip(!clients.secondary, 'needs a second client (profile clients.secondary)');
    const own = paymentTo(clients.secondary!, seed);
    await pay(api, clients.primary, own);
    expectCancellationAccepted(verdicts, await requestCancellation(api, buildCamt056({ seed, original: own }), { label: 'valid twin: cancel an own payment (camt.056)' }));
    const theirs = paymentTo(clients.primary, seed);
    await pay(api, clients.secondary!, theirs);
    const answer = await requestCancellation(api, buildCamt056({ seed, original: theirs }), { label: 'cancel a payment the other client made' });
    verdicts.expectRefused(answer.exchange, 'notFound');
  });

  test('a repeated cancellation (same assgnmt.id) is idempotent', { tag: ['@CXL-05'] }, async ({ api, verdicts, clients, seed }) => {
    const own = paymentTo(beneficiaryOf(clients), seed);
    await pay(api, clients.primary, own);
    const message = buildCamt056({ seed, original: own });
    const first = await requestCancellation(api, message, { label: 'request cancellation (camt.056)' });
    expectCancellationAccepted(verdicts, first);
    const repeat = await requestCancellation(api, message, { label: 'send the same cancellation again' });
    expect(repeat.exchange.response.status, `never a 5xx ${brief(repeat.exchange)}`).toBeLessThan(500);
    verdicts.assume(repeat.exchange.response.status === 200, `the repeat is answered 200 (got ${repeat.exchange.response.status})`);
    verdicts.assume(repeat.paymentsServiceId === first.paymentsServiceId, `the repeat names the same cancellation ${first.paymentsServiceId} (got ${repeat.paymentsServiceId})`);
  });

  test('camt.056 answer and camt.029 follow the assumed ISO 20022 shapes', { tag: ['@CXL-06'] }, async ({ api, verdicts, clients, seed }) => {
    const own = paymentTo(beneficiaryOf(clients), seed);
    await pay(api, clients.primary, own);
    const answer = await requestCancellation(api, buildCamt056({ seed, original: own }));
    const id = expectCancellationAccepted(verdicts, answer);
    const answerShape = validateAgainst(cancellationResponseSchema, answer.exchange.response.json);
    verdicts.assume(answerShape.errors.length === 0, `camt.056 answer shape: ${answerShape.errors.join('; ')}`);
    const resolution = await readCancellation(api, id);
    expect(resolution.exchange.response.status, `never a 5xx ${brief(resolution.exchange)}`).toBeLessThan(500);
    verdicts.assume(resolution.exchange.response.status === 200, `GET camt029 by the cancellation id answers 200 (got ${resolution.exchange.response.status})`);
    const shape = validateAgainst(camt029Schema, resolution.exchange.response.json);
    verdicts.assume(shape.errors.length === 0, `camt.029 shape (rsltnOfInvstgtn): ${shape.errors.join('; ')}`);
    if (shape.unknownFields.length) test.info().annotations.push({ type: 'schema drift', description: `camt029-response: ${shape.unknownFields.join(', ')}` });
    const entry = resolution.body?.rsltnOfInvstgtn?.cxlDtls?.[0]?.txInfAndSts?.[0];
    verdicts.assume(entry?.orgnlGrpInf?.orgnlMsgId === own.fitoFICstmrCdtTrf.grpHdr.msgId, 'camt.029 names the original msgId');
    verdicts.assume(entry?.orgnlTxId === own.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId.txId, 'camt.029 names the original txId');
  });
});

test.describe('cancellation: before and after the batch is sent', () => {
  // Each flow ran from the worker's start, in the background, with a fresh manual-batching payer
  // (fixtures/catalogues/observations.ts); the test checks what it saw.
  test('flow: cancel before the batch is sent → confirmed, the payment is cancelled and never settles', { tag: ['@CXL-02', '@CXL-04'] }, async ({ api, verdicts, observe }) => {
    const seen = await observe(cancelBeforeBatch);
    expectCancellationAccepted(verdicts, seen.cancellation);
    const resolution = expectResolution(seen.resolution);
    expect(resolution.conf, 'camt.029 does not report a rejection before the batch is sent').not.toBe('RJCR');
    verdicts.assume(resolution.conf === 'CNCL' && resolution.txCxlSts === 'CNCL', `camt.029 confirms with CNCL (got sts.conf ${resolution.conf}, txCxlSts ${resolution.txCxlSts})`);

    const afterCancel = seen.statusAfterCancel;
    expect(afterCancel.exchange.response.status, `the status of the cancelled payment is served ${brief(afterCancel.exchange)}`).toBe(200);
    expect(classifyStatus(afterCancel.txSts, api.profile.expectations), `txSts of a payment cancelled before its batch (got ${afterCancel.txSts})`).toBe('cancelled');
    verdicts.assume(!seen.sent.includes(seen.paymentId), `the cancelled payment is not in the batch sent afterwards (sent ${seen.sent.join(', ') || 'nothing'})`);

    // The control payment travelled in the same batch: once it is final, the cancelled one would have settled too.
    expect(seen.controlFinal.statusClass, `the control payment of the same batch settles (statuses ${seen.controlFinal.history.join(' → ')})`).toBe('accepted');
    const later = seen.statusAfterSettlement;
    expect(later.exchange.response.status, `the status of the cancelled payment is served after its batch settled ${brief(later.exchange)}`).toBe(200);
    expect(classifyStatus(later.txSts, api.profile.expectations), `the cancelled payment must never settle (got ${later.txSts} once its batch had settled)`).toBe('cancelled');
  });

  test('cancel after the batch is sent → rejected (camt.029 with a reason), the payment settles', { tag: ['@CXL-03', '@CXL-04'] }, async ({ verdicts, observe }) => {
    const seen = await observe(cancelAfterBatchSent);
    expect(seen.sent, 'the batch holds the payment').toContain(seen.paymentId);
    expectCancellationAccepted(verdicts, seen.cancellation);
    const resolution = expectResolution(seen.resolution);
    expect(resolution.conf, 'camt.029 must not confirm a cancellation after the batch was sent').not.toBe('CNCL');
    expect(resolution.txCxlSts, 'the transaction’s cancellation status is not a confirmation').not.toBe('CNCL');
    verdicts.assume(resolution.conf === 'RJCR' && resolution.txCxlSts === 'RJCR', `camt.029 rejects with RJCR (got sts.conf ${resolution.conf}, txCxlSts ${resolution.txCxlSts})`);
    verdicts.assume(resolution.reasons.length > 0, 'the rejection carries a reason (cxlStsRsnInf)');
    expect(seen.final.statusClass, `a payment whose cancellation was rejected settles (statuses ${seen.final.history.join(' → ')})`).toBe('accepted');
  });
});
