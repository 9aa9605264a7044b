/**
 * Payment cancellation (spec §1 cancellation rules 1-5, §3, §4.4). The outcome depends on whether
 * the batch holding the payment was sent, so the payer here is a fresh client with MANUAL batching
 * and the test sends the batch itself (reference admin API; capability batchControl, else the
 * ledger skips CXL-02/03/04). camt.056/camt.029 shapes and the CNCL/RJCR codes are assumptions
 * (the spec does not show them); what each outcome means for the payment is documented and strict.
 */
import { test, expect } from '../../fixtures/test';
import { awaitFinalStatus, readStatus, submitPayment } from '../../fixtures/flows';
import {
  beneficiaryOf,
  paymentTo,
  readCancellation,
  registerManualBatchClient,
  requestCancellation,
  sendBatch,
  settlementWindowMs,
  submitReturn,
  type Resolution,
  type Submitted,
} from '../../fixtures/flows-beneficiary';
import { brief, type Verdicts } from '../../fixtures/verdicts';
import type { Api } from '../../fixtures/api';
import type { ClientIdentity } from '../../helpers/client-jwts';
import { classifyStatus } from '../../helpers/status-vocabulary';
import { buildCamt056 } from '../../helpers/messages/camt056';
import { buildPacs004 } from '../../helpers/messages/pacs004';
import type { Pacs008Message } from '../../helpers/messages/pacs008';
import { camt029Schema } from '../../helpers/schemas/camt029';
import { cancellationResponseSchema } from '../../helpers/schemas/camt056-request';
import { validateAgainst } from '../../helpers/schemas/validator';

/** A new camt.056 is accepted: 2xx is documented enough to go on; 201 and the data shape are assumed. */
function expectCancellationAccepted(verdicts: Verdicts, answer: Submitted): string {
  const status = answer.exchange.response.status;
  expect(status >= 200 && status < 300, `the cancellation request is accepted, got ${status} ${brief(answer.exchange)}`).toBe(true);
  verdicts.assume(status === 201, `a new cancellation is answered 201 (got ${status})`);
  expect(answer.paymentsServiceId, `the answer names the cancellation (data.paymentsServiceId) ${brief(answer.exchange)}`).toBeTruthy();
  return answer.paymentsServiceId!;
}

async function pay(api: Api, payer: ClientIdentity, payment: Pacs008Message): Promise<string> {
  return test.step('pay: the payer’s bank submits the payment', async () => {
    const { exchange, paymentsServiceId } = await submitPayment(api, payment, { client: payer });
    expect(exchange.response.status, `payment ${brief(exchange)}`).toBe(201);
    return paymentsServiceId!;
  });
}

async function cancel(api: Api, verdicts: Verdicts, payer: ClientIdentity, payment: Pacs008Message, seed: string): Promise<string> {
  return test.step('cancel: the payer’s bank asks to cancel (camt.056)', async () =>
    expectCancellationAccepted(verdicts, await requestCancellation(api, buildCamt056({ seed, original: payment }), { client: payer })),
  );
}

async function queryCancellation(api: Api, id: string, payer: ClientIdentity): Promise<Resolution> {
  return test.step('query cancellation: read its outcome (camt.029)', async () => {
    const resolution = await readCancellation(api, id, { client: payer });
    // The status code of GET camt029 is not shown: any 2xx that carries the message serves it.
    const status = resolution.exchange.response.status;
    expect(status >= 200 && status < 300, `GET camt029 returns the camt.029 message ${brief(resolution.exchange)}`).toBe(true);
    expect(resolution.body?.rsltnOfInvstgtn, 'a camt.029 message (rsltnOfInvstgtn)').toBeDefined();
    return resolution;
  });
}

test.describe('cancellation: before and after the batch is sent', () => {
  test('flow: cancel before the batch is sent → confirmed, the payment is cancelled and never settles', { tag: ['@CXL-02', '@CXL-04'] }, async ({ api, verdicts, clients, seed, http, target, redactor }) => {
    const payer = await registerManualBatchClient(http, target, redactor, test.info().workerIndex);
    const payment = paymentTo(beneficiaryOf(clients), seed);
    const paymentId = await pay(api, payer, payment);
    const cancellationId = await cancel(api, verdicts, payer, payment, seed);

    const resolution = await queryCancellation(api, cancellationId, payer);
    expect(resolution.conf, 'camt.029 does not report a rejection before the batch is sent').not.toBe('RJCR');
    verdicts.assume(resolution.conf === 'CNCL' && resolution.txCxlSts === 'CNCL', `camt.029 confirms with CNCL (got sts.conf ${resolution.conf}, txCxlSts ${resolution.txCxlSts})`);

    await test.step('query status: the payment shows cancelled', async () => {
      const read = await readStatus(api, paymentId, { client: payer, label: 'query status of the cancelled payment (pacs.002)' });
      expect(read.exchange.response.status, brief(read.exchange)).toBe(200);
      expect(classifyStatus(read.txSts, api.profile.expectations), `txSts of a payment cancelled before its batch (got ${read.txSts})`).toBe('cancelled');
    });

    const sent = await sendBatch(api, http, target, payer);
    verdicts.assume(!sent.includes(paymentId), `the cancelled payment is not in the batch sent afterwards (sent ${sent.join(', ') || 'nothing'})`);

    await test.step('query status after a settlement window: still cancelled, never settled', async () => {
      const windowMs = await settlementWindowMs(http, target);
      await new Promise((r) => setTimeout(r, windowMs));
      const read = await readStatus(api, paymentId, { client: payer, label: 'query status again after the settlement window (pacs.002)' });
      expect(read.exchange.response.status, brief(read.exchange)).toBe(200);
      expect(classifyStatus(read.txSts, api.profile.expectations), `the cancelled payment must never settle (got ${read.txSts} after ${windowMs} ms)`).toBe('cancelled');
    });
  });

  test('cancel after the batch is sent → rejected (camt.029 with a reason), the payment settles', { tag: ['@CXL-03', '@CXL-04'] }, async ({ api, verdicts, clients, seed, http, target, redactor }) => {
    const payer = await registerManualBatchClient(http, target, redactor, test.info().workerIndex);
    const payment = paymentTo(beneficiaryOf(clients), seed);
    const paymentId = await pay(api, payer, payment);
    const sent = await sendBatch(api, http, target, payer);
    expect(sent, 'the batch holds the payment').toContain(paymentId);
    const cancellationId = await cancel(api, verdicts, payer, payment, seed);

    const resolution = await queryCancellation(api, cancellationId, payer);
    expect(resolution.conf, 'camt.029 must not confirm a cancellation after the batch was sent').not.toBe('CNCL');
    expect(resolution.txCxlSts, 'the transaction’s cancellation status is not a confirmation').not.toBe('CNCL');
    verdicts.assume(resolution.conf === 'RJCR' && resolution.txCxlSts === 'RJCR', `camt.029 rejects with RJCR (got sts.conf ${resolution.conf}, txCxlSts ${resolution.txCxlSts})`);
    verdicts.assume(resolution.reasons.length > 0, 'the rejection carries a reason (cxlStsRsnInf)');

    await test.step('query status: the payment goes through and settles accepted', async () => {
      const final = await awaitFinalStatus(api, paymentId, { client: payer, label: 'query status of the payment (pacs.002)' });
      expect(final.statusClass, `a payment whose cancellation was rejected settles (statuses ${final.history.join(' → ')})`).toBe('accepted');
    });
  });

  test('flow: cancel after the batch is sent → rejected → the beneficiary returns the payment (FOCR)', { tag: ['@CXL-03', '@RTR-18', '@RTR-23'] }, async ({ api, verdicts, clients, seed, http, target, redactor }) => {
    const payer = await registerManualBatchClient(http, target, redactor, test.info().workerIndex);
    const beneficiary = beneficiaryOf(clients);
    const payment = paymentTo(beneficiary, seed);
    const paymentId = await pay(api, payer, payment);
    await sendBatch(api, http, target, payer);
    const cancellationId = await cancel(api, verdicts, payer, payment, seed);
    const resolution = await queryCancellation(api, cancellationId, payer);
    expect(resolution.conf, 'the cancellation is rejected after the batch').not.toBe('CNCL');
    await test.step('query status: the payment settles', async () => {
      const final = await awaitFinalStatus(api, paymentId, { client: payer, label: 'query status of the payment (pacs.002)' });
      expect(final.statusClass).toBe('accepted');
    });

    const returnId = await test.step('return: the beneficiary’s bank answers the cancellation with a return (FOCR, addtlInf, rtrdInstdAmt)', async () => {
      const message = buildPacs004({ seed, original: payment, reason: { cd: 'FOCR' }, addtlInf: cancellationId.slice(0, 35), withInstructedAmount: true });
      const answer = await submitReturn(api, message, { client: beneficiary });
      verdicts.expectAccepted(answer.exchange, 'a return answering a cancellation request, with rtrdInstdAmt');
      return answer.paymentsServiceId!;
    });
    await test.step('query status: the return settles accepted', async () => {
      const final = await awaitFinalStatus(api, returnId, { client: beneficiary, label: 'query status of the return (pacs.002)' });
      expect(final.statusClass).toBe('accepted');
    });
  });
});

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
