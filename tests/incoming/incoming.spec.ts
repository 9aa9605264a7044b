/**
 * Incoming payment (spec §1, §4.4, §6): the main flow seen from the beneficiary. Client A (primary)
 * pays client B (secondary, whose memberId is the creditor agent); B is notified at the suite's
 * loopback listener and reads the payment with GET pacs008/{paymentsServiceId}. Without the
 * notifications capability these tests are skipped through the ledger (INC-* where).
 */
import { test, expect } from '../../fixtures/test';
import { brief, type Verdicts } from '../../fixtures/verdicts';
import type { Api } from '../../fixtures/api';
import type { Observation, Observe } from '../../fixtures/observations';
import { incomingForForeignRead, incomingForNotification, incomingForPayloadShape, incomingForReading, type Incoming } from '../../fixtures/catalogues/observations';
import type { Profile } from '../../helpers/profile';
import type { ClientIdentity } from '../../helpers/client-jwts';
import type { ReceivedNotification } from '../../helpers/notification-listener';
import { LOCAL_DATE_TIME } from '../../helpers/schemas/submission-response';
import { paymentTransaction, type Pacs008Message } from '../../helpers/messages/pacs008';

const idOf = (n: ReceivedNotification): unknown => (n.body as { paymentsServiceId?: unknown } | undefined)?.paymentsServiceId;

/**
 * A pays B and B's notification arrives: the start of every test here, observed in the background
 * from the worker's start (fixtures/catalogues/observations.ts); each test has a payment of its own.
 */
async function notified(observe: Observe, observation: Observation<Incoming>, profile: Profile): Promise<Incoming & { notification: ReceivedNotification }> {
  const seen = await observe(observation);
  expect(seen.notification, `no notification for payment ${seen.settled.paymentsServiceId} reached B within ${profile.polling.timeoutMs} ms of its settlement`).toBeDefined();
  return seen as Incoming & { notification: ReceivedNotification };
}

async function readIncoming(api: Api, verdicts: Verdicts, id: string, client: ClientIdentity): Promise<Pacs008Message> {
  const read = await api.read('incomingPayment', id, { client, label: 'read incoming: B reads the payment (GET pacs008)' });
  verdicts.expectAccepted(read, 'the beneficiary reads its incoming payment', 200);
  return read.response.json as Pacs008Message;
}

test.describe('incoming payment', () => {
  test('the beneficiary is notified with the identifier of the incoming payment', { tag: ['@INC-01'] }, async ({ notifications, profile, observe }) => {
    const { notification, settled, beneficiary } = await notified(observe, incomingForNotification, profile);
    const paymentsServiceId = settled.paymentsServiceId;
    expect(idOf(notification), 'the notification carries the identifier to query the payment').toBe(paymentsServiceId);
    expect(notifications!.matching((n) => idOf(n) === paymentsServiceId && !n.path.includes(encodeURIComponent(beneficiary.clientId))), 'only the beneficiary is notified').toEqual([]);
  });

  test('the beneficiary reads the amount and the sender of the incoming payment', { tag: ['@INC-02'] }, async ({ api, verdicts, profile, observe }) => {
    const setup = await notified(observe, incomingForReading, profile);
    const incoming = await readIncoming(api, verdicts, String(idOf(setup.notification)), setup.beneficiary);
    const sent = paymentTransaction(setup.payment);
    const seen = incoming?.fitoFICstmrCdtTrf?.cdtTrfTxInf?.[0];
    expect(seen, `the incoming payment has a transaction ${JSON.stringify(incoming).slice(0, 200)}`).toBeDefined();
    expect(seen!.intrBkSttlmAmt, 'the amount A sent').toEqual(sent.intrBkSttlmAmt);
    expect(seen!.dbtr?.nm, 'the sender (debtor) A named').toBe(sent.dbtr.nm);
    expect(seen!.dbtr, 'the whole debtor structure A sent').toEqual(sent.dbtr);
  });

  test('only the beneficiary can read an incoming payment', { tag: ['@INC-03'] }, async ({ api, verdicts, clients, profile, observe }) => {
    const setup = await notified(observe, incomingForForeignRead, profile);
    const paymentsServiceId = setup.settled.paymentsServiceId;
    await readIncoming(api, verdicts, paymentsServiceId, setup.beneficiary);
    const notFound = profile.expectations.refusalStatus.notFound;
    const byPayer = await api.read('incomingPayment', paymentsServiceId, { client: clients.primary, label: 'the payer (not the beneficiary) tries to read it as incoming' });
    expect(byPayer.response.status, `never a 5xx ${brief(byPayer)}`).toBeLessThan(500);
    verdicts.assume(notFound.includes(byPayer.response.status), `a non-beneficiary gets ${notFound.join('/')} (got ${byPayer.response.status} ${brief(byPayer)})`);
    const unrelated = await api.read('incomingPayment', `${paymentsServiceId}-unknown`, { client: setup.beneficiary, label: 'B reads an id that names no payment' });
    expect(unrelated.response.status, `never a 5xx ${brief(unrelated)}`).toBeLessThan(500);
    verdicts.assume(notFound.includes(unrelated.response.status), `an unknown id gets ${notFound.join('/')} (got ${unrelated.response.status} ${brief(unrelated)})`);
  });

  test('the notification payload has the assumed shape', { tag: ['@INC-04'] }, async ({ verdicts, profile, observe }) => {
    const { notification, settled } = await notified(observe, incomingForPayloadShape, profile);
    const paymentsServiceId = settled.paymentsServiceId;
    const body = notification.body as Record<string, unknown> | undefined;
    await test.info().attach('notification body', { body: JSON.stringify(body, null, 2), contentType: 'application/json' });
    verdicts.assume(body?.event === 'payment.incoming', `event is payment.incoming (got ${String(body?.event)})`);
    verdicts.assume(body?.paymentsServiceId === paymentsServiceId, 'paymentsServiceId names the payment');
    verdicts.assume(typeof body?.creationDateTime === 'string' && new RegExp(LOCAL_DATE_TIME).test(body.creationDateTime), `creationDateTime is a date-time without zone (got ${String(body?.creationDateTime)})`);
  });
});
