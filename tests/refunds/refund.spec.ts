/**
 * Refund (pacs.007, spec §1, §4.4): the beneficiary's institution (secondary client) sends back part
 * of a settled payment it received. Several refunds may together reach the full amount, never more;
 * a single refund of the full amount is refused (that is a return). The pacs.007 fields are not shown
 * in the spec: the message shape is an assumption (RFD-07), the amount rules are documented.
 */
import { test, expect } from '../../fixtures/test';
import { expectBusinessRefusal } from '../../fixtures/flows';
import { refundToFinal } from '../../fixtures/catalogues/observations';
import { beneficiaryOf, settledOriginals, submitRefund, type Submitted } from '../../fixtures/flows-beneficiary';
import { refundSplits, type RefundSplitCase } from '../../fixtures/catalogues/refund-cases';
import { brief, type Verdicts } from '../../fixtures/verdicts';
import type { Api } from '../../fixtures/api';
import type { ClientIdentity } from '../../helpers/client-jwts';
import type { SettledPayment } from '../../fixtures/flows';
import { buildPacs007, type Pacs007Message } from '../../helpers/messages/pacs007';
import { submissionResponseSchema } from '../../helpers/schemas/submission-response';
import { validateAgainst } from '../../helpers/schemas/validator';

async function refund(api: Api, refunder: ClientIdentity, original: SettledPayment, seed: string, amount: number | undefined, label: string): Promise<{ message: Pacs007Message; answer: Submitted }> {
  const message = buildPacs007({ seed, original: original.message, ...(amount !== undefined ? { amount } : {}) });
  return { message, answer: await submitRefund(api, message, { client: refunder, label }) };
}

function expectAccepted(verdicts: Verdicts, answer: Submitted, what: string): string {
  verdicts.expectAccepted(answer.exchange, what);
  expect(answer.paymentsServiceId, `${what}: data.paymentsServiceId ${brief(answer.exchange)}`).toBeTruthy();
  return answer.paymentsServiceId!;
}

test.describe('refund (pacs.007): one refund', () => {
  test('a refund of part of the payment is accepted', { tag: ['@RFD-01'] }, async ({ api, verdicts, clients, seed }) => {
    const refunder = beneficiaryOf(clients);
    const [original] = await settledOriginals(api, { payer: clients.primary, beneficiary: refunder }, 1);
    const { answer } = await refund(api, refunder, original!, seed, undefined, 'refund: part of the payment (pacs.007)');
    expectAccepted(verdicts, answer, 'a partial refund');
  });

  test('only the beneficiary’s institution can refund a payment', { tag: ['@RFD-08'] }, async ({ api, verdicts, clients, seed }) => {
    const refunder = beneficiaryOf(clients);
    test.skip(refunder === clients.primary, 'needs a second client as the beneficiary');
    const [twinOriginal, original] = await settledOriginals(api, { payer: clients.primary, beneficiary: refunder }, 2);
    const twin = await refund(api, refunder, twinOriginal!, seed, undefined, 'valid twin: the merchant’s institution refunds part');
    expectAccepted(verdicts, twin.answer, 'the valid twin');
    const { answer } = await refund(api, clients.primary, original!, seed, undefined, 'mutant: the payer’s institution tries to refund it');
    await expectBusinessRefusal(api, verdicts, answer.exchange, { client: clients.primary });
  });

  test('a single refund of the full amount is refused (the return flow is for that)', { tag: ['@RFD-02'] }, async ({ api, verdicts, clients, seed }) => {
    const refunder = beneficiaryOf(clients);
    const [twinOriginal, original] = await settledOriginals(api, { payer: clients.primary, beneficiary: refunder }, 2);
    const twin = await refund(api, refunder, twinOriginal!, seed, undefined, 'valid twin: refund part of another payment');
    expectAccepted(verdicts, twin.answer, 'the valid twin');
    const { answer } = await refund(api, refunder, original!, seed, original!.amount.value, 'refund the full amount in one go');
    await expectBusinessRefusal(api, verdicts, answer.exchange, { field: 'rvsdIntrBkSttlmAmt', client: refunder });
  });

  test('a refund repeating a used msgId is idempotent (200, same refund)', { tag: ['@RFD-06'] }, async ({ api, verdicts, clients, seed }) => {
    const refunder = beneficiaryOf(clients);
    const [original] = await settledOriginals(api, { payer: clients.primary, beneficiary: refunder }, 1);
    const { message, answer } = await refund(api, refunder, original!, seed, undefined, 'refund: part of the payment (pacs.007)');
    expectAccepted(verdicts, answer, 'first refund');
    const repeat = await submitRefund(api, message, { client: refunder, label: 'send the same refund again' });
    expect(repeat.exchange.response.status, `never a 5xx ${brief(repeat.exchange)}`).toBeLessThan(500);
    verdicts.assume(repeat.exchange.response.status === 200, `the repeat is answered 200 (got ${repeat.exchange.response.status})`);
    verdicts.assume(repeat.paymentsServiceId === answer.paymentsServiceId, `the repeat names the first refund ${answer.paymentsServiceId} (got ${repeat.paymentsServiceId})`);
  });

  test('the pacs.007 message (fIToFIPmtRvsl) is understood and answered with a data object', { tag: ['@RFD-07'] }, async ({ api, verdicts, clients, seed }) => {
    const refunder = beneficiaryOf(clients);
    const [original, other] = await settledOriginals(api, { payer: clients.primary, beneficiary: refunder }, 2);
    const { message, answer } = await refund(api, refunder, original!, seed, undefined, 'refund: part of the payment (pacs.007)');
    expectAccepted(verdicts, answer, 'the assumed ISO 20022 shape');
    const shape = validateAgainst(submissionResponseSchema, answer.exchange.response.json);
    verdicts.assume(shape.errors.length === 0, `the pacs.007 answer is a §2.3-like data object (${shape.errors.join('; ')})`);
    verdicts.assume((answer.exchange.response.json as { data?: { paymentId?: unknown } })?.data?.paymentId === message.fIToFIPmtRvsl.grpHdr.msgId, 'data.paymentId echoes the refund msgId');
    // The same content under another root name is not the assumed message: it must not be taken as a refund.
    const renamed = buildPacs007({ seed, original: other!.message });
    const wrongRoot = await submitRefund(api, { pmtRvsl: renamed.fIToFIPmtRvsl }, { client: refunder, label: 'refund under another root name (pmtRvsl)' });
    verdicts.assume(wrongRoot.exchange.response.status >= 400 && wrongRoot.exchange.response.status < 500, `a body without the fIToFIPmtRvsl root is refused (got ${wrongRoot.exchange.response.status} ${brief(wrongRoot.exchange)})`);
  });
});

test.describe('refund (pacs.007): several refunds of one payment', () => {
  for (const c of refundSplits) runSplit(c);
});

/** A chain of refunds on one settled payment: every accepted step first, then the one that must be refused. */
function runSplit(c: RefundSplitCase): void {
  test(`flow: ${c.name}`, { tag: c.rules.map((r) => `@${r}`) }, async ({ api, verdicts, clients, seed }) => {
    const refunder = beneficiaryOf(clients);
    // From the pool: settled ahead of the test, and the pool attaches the "pay" exchanges to this test.
    const [original] = await test.step('pay: the payer pays the merchant and the payment settles', () => settledOriginals(api, { payer: clients.primary, beneficiary: refunder }, 1));
    const amounts = c.amounts(original!.amount.value);
    for (const [i, step] of amounts.entries()) {
      await test.step(`refund ${i + 1}: ${step.value.toFixed(2)} of ${original!.amount.value.toFixed(2)} (${step.expect})`, async () => {
        const { answer } = await refund(api, refunder, original!, `${seed}|${i}`, step.value, `refund ${i + 1} (pacs.007)`);
        if (step.expect === 'accepted') expectAccepted(verdicts, answer, `refund ${i + 1} of ${step.value}`);
        else await expectBusinessRefusal(api, verdicts, answer.exchange, { field: 'rvsdIntrBkSttlmAmt', client: refunder });
      });
    }
  });
}

// Last in the file: its refund settles two settlement delays after the worker started (the payment,
// then the refund), so the later it runs the less it waits.
test.describe('refund (pacs.007): status', () => {
  test('the status of a refund is served by pacs.002 and reaches accepted', { tag: ['@RFD-05'] }, async ({ verdicts, observe }) => {
    // Paid, settled, refunded and followed from the worker's start, in the background.
    const { answer, final } = await observe(refundToFinal);
    expectAccepted(verdicts, answer, 'a partial refund');
    expect(final, `the refund names its paymentsServiceId ${brief(answer.exchange)}`).toBeDefined();
    expect(final!.statusClass, `the refund settles as accepted (statuses ${final!.history.join(' → ')})`).toBe('accepted');
  });
});
