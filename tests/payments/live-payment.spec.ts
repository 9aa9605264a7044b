/**
 * The live lane's real payment (spec §2.3, §4.2, §4.3): one low-value payment (at most
 * liveLimits.maxAmount, and 1.00) is created, its pacs.002 is served and echoes it, and its repeat is
 * idempotent. In a live run it is the worker's one payment that the read tests read as well
 * (client/flows/live-lane.ts), and the repeat takes a budget slot of its own: a target whose
 * idempotency is broken would pay twice. Elsewhere it runs as any test, with a payment of its own.
 */
import { test } from '../../fixtures/test';
import { firstStatusEntry, readStatus } from '../../client/flows/payment';
import { paymentToRead, repeatLanePayment } from '../../client/flows/live-lane';
import { answered } from '../../checks/verdicts';
import { paymentIds } from '../../messages/pacs008';
import { ISO_STATUS_CODES } from '../../profile/status-vocabulary';
import { hasStatus, equals, namesNoOther } from '../../checks/answers';

test.describe('live lane: a real low-value payment', () => {
  test('a low-value payment is created, its pacs.002 served, its repeat idempotent', {
    tag: [
      '@P8-01',
      '@P8-02',
      '@STS-01',
      '@STS-03',
      '@STS-07',
      '@IDEM-01',
      '@IDEM-02',
      '@op:submitPayment',
      '@op:paymentStatus',
      '@live-safe',
    ],
  }, async ({ api, verdicts, seed }) => {
    const payment = await paymentToRead(api, verdicts, seed);
    verdicts.check('P8-01', 'the payment is created (201)', hasStatus(payment.submission.exchange, [201]));
    verdicts.check('P8-02', 'the answer names the payment', {
      ok: payment.id !== '',
      expected: 'a non-empty paymentsServiceId',
      ...answered(payment.submission.exchange),
    });

    const read = await readStatus(api, payment.id, { label: 'read its pacs.002 status' });
    verdicts.check('STS-01', 'its status is served (200)', hasStatus(read.exchange, [200]));
    const entry = firstStatusEntry(read.exchange.response.json);
    const orgnlGrpInf = entry?.orgnlGrpInf as Record<string, unknown> | undefined;
    verdicts.check(
      'STS-03',
      'orgnlGrpInf.orgnlMsgId echoes grpHdr.msgId',
      equals(orgnlGrpInf?.orgnlMsgId, paymentIds(payment.message).msgId),
    );
    verdicts.check('STS-07', 'txSts is an ISO 20022 status code', {
      ok: ISO_STATUS_CODES.has(String(read.txSts)),
      expected: 'an ISO 20022 ExternalPaymentTransactionStatus code',
      received: String(read.txSts),
    });

    const repeat = await repeatLanePayment(api, payment);
    verdicts.check('IDEM-01', 'the repeat with the same msgId gets 200', hasStatus(repeat.exchange, [200]));
    verdicts.check('IDEM-02', 'the repeat names no other payment', namesNoOther(repeat, payment.id));
  });
});
