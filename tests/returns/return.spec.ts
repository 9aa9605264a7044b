/**
 * Return (pacs.004, spec §1, §2.5, §4.4), positive side and lifecycle: a valid return is accepted,
 * the minimal return too, a repeat is idempotent, its status is served by pacs.002, a payment is
 * returned once, and a return of a payment the service never saw follows the profile.
 */
import { test, expect } from '../../fixtures/test';
import { dataOf, expectBusinessRefusal } from '../../fixtures/flows';
import { returnToFinal } from '../../fixtures/catalogues/observations';
import { beneficiaryOf, paymentTo, settledOriginals, submitReturn } from '../../fixtures/flows-beneficiary';
import { brief } from '../../fixtures/verdicts';
import { buildPacs004, minimalPacs004 } from '../../helpers/messages/pacs004';
import { submissionResponseSchema } from '../../helpers/schemas/submission-response';
import { validateAgainst } from '../../helpers/schemas/validator';

test.describe('return (pacs.004): accepted returns', () => {
  test('a valid full return of a settled payment is accepted', { tag: ['@RTR-01', '@RTR-37'] }, async ({ api, verdicts, clients, seed }) => {
    const returner = beneficiaryOf(clients);
    const [original] = await settledOriginals(api, { payer: clients.primary, beneficiary: returner }, 1);
    const message = buildPacs004({ seed, original: original!.message });
    const { exchange } = await submitReturn(api, message, { client: returner });
    verdicts.expectAccepted(exchange, 'a valid return');
    const shape = validateAgainst(submissionResponseSchema, exchange.response.json);
    verdicts.assume(shape.errors.length === 0, `the pacs.004 response is a §2.3-like data object (${shape.errors.join('; ')}) ${brief(exchange)}`);
    verdicts.assume(dataOf(exchange)?.paymentId === message.pmtRtr.grpHdr.msgId, 'data.paymentId echoes the return msgId');
    verdicts.assume(dataOf(exchange)?.status === 'PENDING', `data.status is PENDING (got ${String(dataOf(exchange)?.status)})`);
  });

  test('a minimal return (every optional field left out) is accepted', { tag: ['@RTR-30'] }, async ({ api, verdicts, clients, seed }) => {
    const returner = beneficiaryOf(clients);
    const [original] = await settledOriginals(api, { payer: clients.primary, beneficiary: returner }, 1);
    const minimal = minimalPacs004(buildPacs004({ seed, original: original!.message }));
    expect(minimal.pmtRtr.grpHdr.ttlRtrdIntrBkSttlmAmt, 'the minimal message has no optional total').toBeUndefined();
    const { exchange } = await submitReturn(api, minimal, { client: returner, label: 'return with only the required fields (pacs.004)' });
    verdicts.expectAccepted(exchange, 'a minimal return');
  });

  test('a return repeating a used msgId is idempotent (200, same return)', { tag: ['@RTR-05'] }, async ({ api, verdicts, clients, seed }) => {
    const returner = beneficiaryOf(clients);
    const [original] = await settledOriginals(api, { payer: clients.primary, beneficiary: returner }, 1);
    const message = buildPacs004({ seed, original: original!.message });
    const first = await submitReturn(api, message, { client: returner, label: 'return the payment (pacs.004)' });
    verdicts.expectAccepted(first.exchange, 'first return');
    const repeat = await submitReturn(api, message, { client: returner, label: 'send the same return again' });
    verdicts.expectStatus(repeat.exchange, [200], 'the repeated return');
    verdicts.assume(repeat.paymentsServiceId === first.paymentsServiceId, `the repeat answers the original return ${first.paymentsServiceId} (got ${repeat.paymentsServiceId})`);
  });

  test('a second return of the same payment is refused', { tag: ['@RTR-38'] }, async ({ api, verdicts, clients, seed }) => {
    const returner = beneficiaryOf(clients);
    const [original] = await settledOriginals(api, { payer: clients.primary, beneficiary: returner }, 1);
    const first = await submitReturn(api, buildPacs004({ seed, original: original!.message }), { client: returner, label: 'return the payment (pacs.004)' });
    verdicts.expectAccepted(first.exchange, 'first return');
    const second = await submitReturn(api, buildPacs004({ seed, original: original!.message }), { client: returner, label: 'return the same payment again, new msgId' });
    await expectBusinessRefusal(api, verdicts, second.exchange, { client: returner });
  });
});

test.describe('return (pacs.004): who may return', () => {
  test('only the beneficiary’s institution can return a payment', { tag: ['@RTR-39'] }, async ({ api, verdicts, clients, seed }) => {
    const beneficiary = beneficiaryOf(clients);
    test.skip(beneficiary === clients.primary, 'needs a second client as the beneficiary');
    const [twinOriginal, original] = await settledOriginals(api, { payer: clients.primary, beneficiary }, 2);
    const twin = await submitReturn(api, buildPacs004({ seed, original: twinOriginal!.message }), { client: beneficiary, label: 'valid twin: the beneficiary returns its payment' });
    verdicts.expectAccepted(twin.exchange, 'the valid twin');
    const mutant = await submitReturn(api, buildPacs004({ seed, original: original!.message }), { client: clients.primary, label: 'mutant: the payer’s institution tries to return it' });
    await expectBusinessRefusal(api, verdicts, mutant.exchange, { client: clients.primary });
  });
});

test.describe('return (pacs.004): status and unknown originals', () => {
  test('the status of a return is served by pacs.002 and reaches accepted', { tag: ['@RTR-35'] }, async ({ verdicts, observe }) => {
    // Paid, settled, returned and followed from the worker's start, in the background.
    const { answer, final } = await observe(returnToFinal);
    verdicts.expectAccepted(answer.exchange, 'return');
    expect(final, `the return names its paymentsServiceId ${brief(answer.exchange)}`).toBeDefined();
    expect(final!.statusClass, `the return settles as accepted (statuses ${final!.history.join(' → ')})`).toBe('accepted');
  });

  test('a return of a payment the service does not know is answered as the profile says', { tag: ['@RTR-36'] }, async ({ api, verdicts, clients, seed, profile }) => {
    const returner = beneficiaryOf(clients);
    const neverPaid = paymentTo(returner, seed);
    const { exchange } = await submitReturn(api, buildPacs004({ seed, original: neverPaid }), { client: returner, label: 'return a payment that was never made' });
    expect(exchange.response.status, `never a 5xx ${brief(exchange)}`).toBeLessThan(500);
    const mode = profile.expectations.returnUnknownOriginal ?? 'either';
    if (mode === 'accept') verdicts.assume(exchange.response.status === 201, `the return of an unknown original is accepted (got ${exchange.response.status} ${brief(exchange)})`);
    if (mode === 'refuse') await expectBusinessRefusal(api, verdicts, exchange, { client: returner });
    if (mode === 'either') {
      const status = exchange.response.status;
      expect((status >= 200 && status < 300) || (status >= 400 && status < 500), `accepted (2xx) or refused (4xx) ${brief(exchange)}`).toBe(true);
    }
  });
});
