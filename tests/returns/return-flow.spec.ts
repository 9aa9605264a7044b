/**
 * End to end, in business terms: the payer's bank pays, the beneficiary's bank is notified, reads
 * the incoming payment, sends the full amount back (return), and both banks query the statuses; and
 * a return that answers a rejected cancellation (FOCR). Each flow waits for two settlements (the
 * payment, then the return), so it runs from the worker's start in the background
 * (fixtures/catalogues/observations.ts) and the test checks what it saw.
 */
import { test, expect } from '../../fixtures/test';
import { expectCancellationAccepted, expectResolution } from '../../fixtures/flows-beneficiary';
import { payNotifyReturn, returnAfterRejectedCancellation } from '../../fixtures/catalogues/observations';
import { paymentAmount, type Pacs008Message } from '../../helpers/messages/pacs008';

test('flow: pay → notify → read incoming → full return → statuses', { tag: ['@RTR-01', '@RTR-33', '@RTR-35', '@STS-08'] }, async ({ verdicts, clients, notifications, observe }) => {
  const seen = await observe(payNotifyReturn);
  if (notifications && clients.secondary) {
    expect(seen.notification, 'a notification naming the payment reaches the beneficiary').toBeDefined();
    const read = seen.incomingRead!;
    verdicts.expectAccepted(read, 'incoming payment read', 200);
    const incoming = (read.response.json as Pacs008Message | undefined)?.fitoFICstmrCdtTrf?.cdtTrfTxInf?.[0];
    expect(incoming?.intrBkSttlmAmt, 'amount seen by the beneficiary').toEqual(paymentAmount(seen.original.message));
  }
  verdicts.expectAccepted(seen.answer.exchange, 'the full return');
  expect(seen.final, 'the return names its paymentsServiceId').toBeDefined();
  expect(seen.final!.statusClass, `the return is accepted (statuses ${seen.final!.history.join(' → ')})`).toBe('accepted');
  expect(seen.paymentFinalAfterReturn!.statusClass, 'the returned payment’s own status is final and unchanged').toBe('accepted');
});

test('flow: cancel after the batch is sent → rejected → the beneficiary returns the payment (FOCR)', { tag: ['@CXL-03', '@RTR-18', '@RTR-23'] }, async ({ verdicts, observe }) => {
  const seen = await observe(returnAfterRejectedCancellation);
  expectCancellationAccepted(verdicts, seen.cancellation);
  expect(expectResolution(seen.resolution).conf, 'the cancellation is rejected after the batch').not.toBe('CNCL');
  expect(seen.final.statusClass, `the payment settles (statuses ${seen.final.history.join(' → ')})`).toBe('accepted');
  verdicts.expectAccepted(seen.returned.exchange, 'a return answering a cancellation request, with rtrdInstdAmt');
  expect(seen.returnFinal, 'the return names its paymentsServiceId').toBeDefined();
  expect(seen.returnFinal!.statusClass, `the return settles accepted (statuses ${seen.returnFinal!.history.join(' → ')})`).toBe('accepted');
});
