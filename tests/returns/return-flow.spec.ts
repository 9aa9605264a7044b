/**
 * End to end, in business terms: the payer's bank pays, the beneficiary's bank is notified, reads
 * the incoming payment, sends the full amount back (return), and both banks query the statuses.
 */
import { test, expect } from '../../fixtures/test';
import { awaitFinalStatus, payAndSettle } from '../../fixtures/flows';
import { beneficiaryOf, paymentTo, submitReturn } from '../../fixtures/flows-beneficiary';
import { buildPacs004 } from '../../helpers/messages/pacs004';
import { paymentAmount, type Pacs008Message } from '../../helpers/messages/pacs008';

test('flow: pay → notify → read incoming → full return → statuses', { tag: ['@RTR-01', '@RTR-33', '@RTR-35', '@STS-08'] }, async ({ api, verdicts, clients, seed, notifications, profile }) => {
  const beneficiary = beneficiaryOf(clients);
  const payment = paymentTo(beneficiary, seed);

  const settled = await test.step('pay: the payer’s bank sends the payment and it settles', () => payAndSettle(api, payment));

  if (notifications && clients.secondary) {
    await test.step('notify: the beneficiary’s bank is told of the incoming payment', async () => {
      const note = await notifications.waitFor((n) => (n.body as { paymentsServiceId?: unknown })?.paymentsServiceId === settled.paymentsServiceId, profile.polling.timeoutMs);
      expect(note, 'a notification naming the payment reaches the beneficiary').toBeDefined();
    });
    await test.step('read incoming: the beneficiary reads amount and sender', async () => {
      const read = await api.read('incomingPayment', settled.paymentsServiceId, { client: beneficiary, label: 'read incoming payment (pacs.008)' });
      verdicts.expectAccepted(read, 'incoming payment read', 200);
      const incoming = (read.response.json as Pacs008Message | undefined)?.fitoFICstmrCdtTrf?.cdtTrfTxInf?.[0];
      expect(incoming?.intrBkSttlmAmt, 'amount seen by the beneficiary').toEqual(paymentAmount(payment));
    });
  }

  const returned = await test.step('return: the beneficiary’s bank sends the full amount back', async () => {
    const answer = await submitReturn(api, buildPacs004({ seed, original: payment }), { client: beneficiary });
    verdicts.expectAccepted(answer.exchange, 'the full return');
    return answer.paymentsServiceId!;
  });

  await test.step('query status: the return settles and the payment stays accepted', async () => {
    const ofReturn = await awaitFinalStatus(api, returned, { client: beneficiary, label: 'query status of the return (pacs.002)' });
    expect(ofReturn.statusClass, 'the return is accepted').toBe('accepted');
    const ofPayment = await awaitFinalStatus(api, settled.paymentsServiceId, { label: 'query status of the original payment (pacs.002)' });
    expect(ofPayment.statusClass, 'the returned payment’s own status is final and unchanged').toBe('accepted');
  });
});
