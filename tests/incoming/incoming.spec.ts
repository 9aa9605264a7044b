/**
 * Incoming payment (spec §1, §4.4, §6): the main flow seen from the beneficiary. Client A (primary)
 * pays client B (secondary, whose memberId is the creditor agent); B is notified at the suite's
 * loopback listener and reads the payment with GET pacs008/{paymentsServiceId}. Without the
 * notifications capability these tests are skipped through the ledger (INC-* where).
 */
import { test, expect } from '../../fixtures/test';
import { payAndSettle } from '../../fixtures/flows';
import { paymentTo } from '../../fixtures/flows-beneficiary';
import { brief, type Verdicts } from '../../fixtures/verdicts';
import type { Api } from '../../fixtures/api';
import type { ClientIdentity } from '../../helpers/client-jwts';
import type { NotificationListener, ReceivedNotification } from '../../helpers/notification-listener';
import { LOCAL_DATE_TIME } from '../../helpers/schemas/submission-response';
import { paymentTransaction, type Pacs008Message } from '../../helpers/messages/pacs008';
import type { Clients } from '../../fixtures/target';

interface IncomingSetup {
  beneficiary: ClientIdentity;
  payment: Pacs008Message;
  paymentsServiceId: string;
  notification: ReceivedNotification;
}

const idOf = (n: ReceivedNotification): unknown => (n.body as { paymentsServiceId?: unknown } | undefined)?.paymentsServiceId;

/** A pays B and B's notification arrives: the start of every test here. */
async function payAndAwaitNotification(api: Api, clients: Clients, notifications: NotificationListener | undefined, seed: string, timeoutMs: number): Promise<IncomingSetup> {
  const beneficiary = clients.secondary;
  if (!beneficiary || !notifications) throw new Error('incoming payments need a second client and the notification listener');
  const payment = paymentTo(beneficiary, seed);
  const settled = await test.step('pay: client A pays client B', () => payAndSettle(api, payment));
  const notification = await test.step('notify: B’s institution receives the incoming-payment notification', async () => {
    const hit = await notifications.waitFor((n) => n.path.includes(encodeURIComponent(beneficiary.clientId)) && idOf(n) === settled.paymentsServiceId, timeoutMs);
    expect(hit, `no notification for payment ${settled.paymentsServiceId} reached B within ${timeoutMs} ms`).toBeDefined();
    return hit!;
  });
  return { beneficiary, payment, paymentsServiceId: settled.paymentsServiceId, notification };
}

async function readIncoming(api: Api, verdicts: Verdicts, id: string, client: ClientIdentity): Promise<Pacs008Message> {
  const read = await api.read('incomingPayment', id, { client, label: 'read incoming: B reads the payment (GET pacs008)' });
  verdicts.expectAccepted(read, 'the beneficiary reads its incoming payment', 200);
  return read.response.json as Pacs008Message;
}

test.describe('incoming payment', () => {
  test('the beneficiary is notified with the identifier of the incoming payment', { tag: ['@INC-01'] }, async ({ api, clients, notifications, seed, profile }) => {
    const { notification, paymentsServiceId, beneficiary } = await payAndAwaitNotification(api, clients, notifications, seed, profile.polling.timeoutMs);
    expect(idOf(notification), 'the notification carries the identifier to query the payment').toBe(paymentsServiceId);
    expect(notifications!.matching((n) => idOf(n) === paymentsServiceId && !n.path.includes(encodeURIComponent(beneficiary.clientId))), 'only the beneficiary is notified').toEqual([]);
  });

  test('the beneficiary reads the amount and the sender of the incoming payment', { tag: ['@INC-02'] }, async ({ api, verdicts, clients, notifications, seed, profile }) => {
    const setup = await payAndAwaitNotification(api, clients, notifications, seed, profile.polling.timeoutMs);
    const incoming = await readIncoming(api, verdicts, String(idOf(setup.notification)), setup.beneficiary);
    const sent = paymentTransaction(setup.payment);
    const seen = incoming?.fitoFICstmrCdtTrf?.cdtTrfTxInf?.[0];
    expect(seen, `the incoming payment has a transaction ${JSON.stringify(incoming).slice(0, 200)}`).toBeDefined();
    expect(seen!.intrBkSttlmAmt, 'the amount A sent').toEqual(sent.intrBkSttlmAmt);
    expect(seen!.dbtr?.nm, 'the sender (debtor) A named').toBe(sent.dbtr.nm);
    expect(seen!.dbtr, 'the whole debtor structure A sent').toEqual(sent.dbtr);
  });

  test('only the beneficiary can read an incoming payment', { tag: ['@INC-03'] }, async ({ api, verdicts, clients, notifications, seed, profile }) => {
    const setup = await payAndAwaitNotification(api, clients, notifications, seed, profile.polling.timeoutMs);
    await readIncoming(api, verdicts, setup.paymentsServiceId, setup.beneficiary);
    const notFound = profile.expectations.refusalStatus.notFound;
    const byPayer = await api.read('incomingPayment', setup.paymentsServiceId, { client: clients.primary, label: 'the payer (not the beneficiary) tries to read it as incoming' });
    expect(byPayer.response.status, `never a 5xx ${brief(byPayer)}`).toBeLessThan(500);
    verdicts.assume(notFound.includes(byPayer.response.status), `a non-beneficiary gets ${notFound.join('/')} (got ${byPayer.response.status} ${brief(byPayer)})`);
    const unrelated = await api.read('incomingPayment', `${setup.paymentsServiceId}-unknown`, { client: setup.beneficiary, label: 'B reads an id that names no payment' });
    expect(unrelated.response.status, `never a 5xx ${brief(unrelated)}`).toBeLessThan(500);
    verdicts.assume(notFound.includes(unrelated.response.status), `an unknown id gets ${notFound.join('/')} (got ${unrelated.response.status} ${brief(unrelated)})`);
  });

  test('the notification payload has the assumed shape', { tag: ['@INC-04'] }, async ({ api, verdicts, clients, notifications, seed, profile }) => {
    const { notification, paymentsServiceId } = await payAndAwaitNotification(api, clients, notifications, seed, profile.polling.timeoutMs);
    const body = notification.body as Record<string, unknown> | undefined;
    await test.info().attach('notification body', { body: JSON.stringify(body, null, 2), contentType: 'application/json' });
    verdicts.assume(body?.event === 'payment.incoming', `event is payment.incoming (got ${String(body?.event)})`);
    verdicts.assume(body?.paymentsServiceId === paymentsServiceId, 'paymentsServiceId names the payment');
    verdicts.assume(typeof body?.creationDateTime === 'string' && new RegExp(LOCAL_DATE_TIME).test(body.creationDateTime), `creationDateTime is a date-time without zone (got ${String(body?.creationDateTime)})`);
  });
});
