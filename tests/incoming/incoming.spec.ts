/**
 * Incoming payment (spec §1, §4.4, §6): the main flow seen from the beneficiary. Client A (primary)
 * pays client B (secondary, whose memberId is the creditor agent). B reads the payment with GET
 * pacs008/{id} using the id of A's submission answer (no notification needed), and an institution
 * with no part in a payment may not read it; what A's own read of that view gets is a reading (INC-07). Where the suite can receive notifications, B is notified with that id. The answer's shape
 * is not shown: the pacs.008 under its root is an assumption (INC-05) that gates the content checks.
 */
import { checkStatusReport, REPORT_RULES } from '../../checks/status-report';
import { test, takes } from '../../fixtures/test';
import { settledToNoClient } from '../../arrange/operations';
import type { Verdicts } from '../../checks/verdicts';
import {
  acceptedOrRefused,
  carriesId,
  equals,
  holds,
  localDateTime,
  notificationArrived,
  twinAccepted,
  acceptedAnswer,
  endsIn,
  hasStatus,
  refusedAnswer,
} from '../../checks/answers';
import { answerOf } from '../../checks/verdicts';
import { attempt, type Observation, type Observe } from '../../arrange/observations';
import {
  incomingForNotification,
  incomingForPayloadShape,
  onUsPayments,
  paymentToNoClientLifecycle,
  largeIncoming,
  refundedIncoming,
  repeatedIncoming,
  type Followed,
  type Incoming,
} from '../../arrange/observation-catalogue';
import { awaitIncoming, beneficiaryOf, readIncoming } from '../../client/flows/incoming';
import { awaitFinalStatus, readStatus, StillNotFinal } from '../../client/flows/payment';
import { readingOf } from '../../ledger/readings';
import type { Profile } from '../../profile/profile';
import { incomingPaymentIdOf } from '../../ledger/capabilities';
import type { ReceivedNotification } from '../../transport/loopback-server';
import { paymentTransaction, type Pacs008Message } from '../../messages/pacs008';
import type { Api } from '../../client/api';
import type { ClientIdentity } from '../../transport/client-jwts';
import type { Exchange } from '../../transport/http';
import { is2xx, is4xx } from '../../messages/http-status';
import { incomingTransaction, requireId } from '../../checks/payment-answers';
import { refusedAs } from '../../checks/refusals';

/** A pays B and B's notification arrives: observed from the worker's start (arrange/observation-catalogue.ts). */
async function notified(
  observe: Observe,
  verdicts: Verdicts,
  observation: Observation<Incoming>,
  profile: Profile,
  role: 'precondition' | 'assessed',
): Promise<Incoming & { notification: ReceivedNotification }> {
  const seen = await observe(observation);
  // INC-01 is the own rule of the test that cites it (it fails); for the others a precondition (blocked).
  (role === 'assessed' ? verdicts.checkOrStop.bind(verdicts) : verdicts.require.bind(verdicts))(
    'INC-01',
    'a notification for the payment reaches B',
    notificationArrived(seen.notification, profile.polling.timeoutMs),
  );
  return seen as Incoming & { notification: ReceivedNotification };
}

/**
 * B reads payment `id` as incoming and sees what A sent (INC-02): read again while not found, since the
 * spec does not say when the beneficiary's view appears.
 */
async function readsAsSent(
  api: Api,
  verdicts: Verdicts,
  beneficiary: ClientIdentity,
  { id, message, payerAccepted }: { id: string; message: Pacs008Message; payerAccepted: boolean },
  what: string,
): Promise<void> {
  const read = await awaitIncoming(api, id, {
    client: beneficiary,
    label: `B reads ${what} with the id of A’s submission answer`,
  });
  verdicts.originalHeld(read);
  verdicts.check('INC-02', `the beneficiary reads ${what}`, acceptedAnswer(read, { rule: 'INC-05', status: 200 }));
  const seen = incomingTransaction(api, verdicts, read);
  const sent = paymentTransaction(message);
  // The amount object's value and ccy (§2: "{value: number, ccy: string (currency code)}"), members of its own allowed.
  verdicts.check('INC-02', `the amount A sent in ${what}`, holds(seen.intrBkSttlmAmt, sent.intrBkSttlmAmt));
  // The sender, as §1 says: the debtor's name. Its address the flow table does not ask for.
  verdicts.check('INC-02', `the sender (the debtor’s name) A named in ${what}`, equals(seen.dbtr?.nm, sent.dbtr.nm));
  // §4.3 reads a status by "the identifier from the submission response or from a notification", and
  // the beneficiary is the one notified; whether a target must serve B the status the spec does not
  // say. Served, it is the payment's status, which its payer read accepted: B's view may be posted
  // later than the payer's, so an interim code is followed until final, and it ends accepted (STS-08).
  const status = await readStatus(api, id, { client: beneficiary, label: `B reads the status of ${what}` });
  // Served, it is §2.4's report of that payment, whoever reads it: its echoes are the payment's own.
  if (status.exchange.response.status === 200)
    checkStatusReport(verdicts, status.exchange, message, ` B reads of ${what}`);
  if (!payerAccepted || status.exchange.response.status !== 200) return;
  // Its payer's accepted read proves the payment accepted: B's view still pending at the end of the
  // wait is an answer of the target, not a settlement still to come (stillPending: 'answer').
  const followed = await attempt(
    awaitFinalStatus(api, id, {
      client: beneficiary,
      label: `B follows the status of ${what} until final`,
      stillPending: 'answer',
    }),
  );
  if (!followed.ok && !(followed.error instanceof StillNotFinal)) throw followed.error;
  verdicts.check(
    'STS-08',
    `B’s status of ${what} ends accepted, as its payer read it`,
    followed.ok
      ? endsIn(followed.value, 'accepted')
      : { ok: false, expected: 'an accepted txSts', received: (followed.error as Error).message },
  );
}

const ONE = takes({ pool: 'settled', count: 1 });

/** The rules of §2.4's report, which a status B is served is held to (readsAsSent). */
const REPORT_TAGS = REPORT_RULES.map((rule) => `@${rule}`);

test.describe('incoming payment: reading it', () => {
  test('the beneficiary reads the amount and the sender of each of two incoming payments', {
    tag: ['@INC-02', '@INC-05', '@STS-08', ...REPORT_TAGS],
    // Two, each with its own amount and sender: a read answered with another of its payments shows.
    ...takes({ pool: 'settled', count: 2 }),
  }, async ({ api, verdicts, clients, granted, profile, settledOriginals }) => {
    // No client of the profile receives the suite's payments: the profile's own incoming payment is read instead.
    const declaredId = granted.has('beneficiarySide') ? undefined : incomingPaymentIdOf(profile);
    if (declaredId) {
      const read = await readIncoming(api, declaredId, {
        label: 'read the incoming payment the profile names (target.incomingPaymentId)',
      });
      verdicts.check(
        'INC-02',
        'the beneficiary reads its incoming payment',
        acceptedAnswer(read, { rule: 'INC-05', status: 200 }),
      );
      const seen = incomingTransaction(api, verdicts, read);
      // What was sent is the payer's to know: the read is checked to show an amount and a sender.
      verdicts.check('INC-02', 'the amount sent (intrBkSttlmAmt: a positive value and a currency)', {
        ok:
          typeof seen.intrBkSttlmAmt?.value === 'number' &&
          seen.intrBkSttlmAmt.value > 0 &&
          Boolean(seen.intrBkSttlmAmt.ccy),
        expected: '{value > 0, ccy}',
        received: JSON.stringify(seen.intrBkSttlmAmt) ?? 'nothing (absent)',
      });
      verdicts.check('INC-02', 'the sender (dbtr with a name)', {
        ok: typeof seen.dbtr?.nm === 'string' && seen.dbtr.nm !== '',
        expected: 'dbtr.nm',
        received: JSON.stringify(seen.dbtr) ?? 'nothing (absent)',
      });
      return;
    }
    const beneficiary = beneficiaryOf(clients);
    const payments = await settledOriginals({ payer: clients.primary, beneficiary }, 2);
    for (const [i, payment] of payments.entries())
      await readsAsSent(
        api,
        verdicts,
        beneficiary,
        {
          id: payment.paymentsServiceId,
          message: payment.message,
          payerAccepted: payment.final.statusClass === 'accepted',
        },
        `payment ${i + 1}`,
      );
  });

  test('the beneficiary reads the amount and the sender of a payment larger than the pool’s', {
    tag: ['@INC-02', '@INC-05', '@P8-01', '@STS-08', ...REPORT_TAGS],
    ...takes({ observation: largeIncoming }),
  }, async ({ api, verdicts, clients, observe }) => {
    // Paid and followed from the worker's start. A deployment may refuse a payment this large by a
    // limit the spec does not show: such a refusal blocks.
    const { message, submission, final } = await observe(largeIncoming);
    const { exchange } = submission;
    const created = `a valid payment of ${paymentTransaction(message).intrBkSttlmAmt.value.toFixed(2)} is created`;
    if (is4xx(exchange))
      verdicts.gate('P8-01', created, {
        ok: false,
        received: `it was refused, perhaps by an amount limit the spec does not show: ${answerOf(exchange)}`,
      });
    verdicts.check('P8-01', created, hasStatus(exchange, [201]));
    const id = requireId(api, verdicts, exchange);
    verdicts.require('STS-08', 'the payment settles', endsIn(final, 'accepted'));
    await readsAsSent(api, verdicts, beneficiaryOf(clients), { id, message, payerAccepted: true }, 'the large payment');
  });

  test('the beneficiary reads a payment as first sent after its payer sent its msgId again with another amount', {
    tag: ['@INC-02', '@INC-05', '@STS-08', ...REPORT_TAGS],
    ...takes({ observation: repeatedIncoming }),
  }, async ({ api, verdicts, clients, observe }) => {
    // §4.2's "idempotent repeat": whatever it is answered (IDEM-05 reads that), it changes no payment. A
    // store that upserts on the msgId shows B the repeat's amount for the payment A made.
    const { message, first, final } = await observe(repeatedIncoming);
    verdicts.require('P8-01', 'the payment is created', hasStatus(first.exchange, [201]));
    const id = requireId(api, verdicts, first.exchange);
    verdicts.require('STS-08', 'the payment settles', endsIn(final, 'accepted'));
    await readsAsSent(
      api,
      verdicts,
      beneficiaryOf(clients),
      { id, message, payerAccepted: true },
      'the payment sent again',
    );
  });

  test('the beneficiary still reads a payment it refunded part of, as sent', {
    tag: ['@INC-02', '@INC-05', '@STS-08', ...REPORT_TAGS],
    ...takes({ observation: refundedIncoming }),
  }, async ({ api, verdicts, clients, observe }) => {
    // §1's incoming flow reads "the payment information (amount, sender)": a refund is a message of its
    // own (pacs.007), which sends back part of the amount and changes neither.
    const { original, final } = await observe(refundedIncoming);
    verdicts.require(
      'RFD-01',
      'the beneficiary’s refund of part of the payment settles accepted',
      endsIn(final, 'accepted'),
    );
    await readsAsSent(
      api,
      verdicts,
      beneficiaryOf(clients),
      {
        id: original.paymentsServiceId,
        message: original.message,
        payerAccepted: original.final.statusClass === 'accepted',
      },
      'the payment once part of it was refunded',
    );
  });

  test('an institution with no part in a payment cannot read it', {
    tag: ['@INC-03', '@STS-13', '@op:incomingPayment', '@op:paymentStatus'],
    ...takes({ observation: paymentToNoClientLifecycle }, { pool: 'settled', count: 1 }),
  }, async ({ api, verdicts, clients, granted, newClient, observe, settledOriginals }) => {
    // The primary pays a sort code neither client holds: the secondary is neither the payment's payer
    // nor its beneficiary's institution, and reads it once it settled (an incoming payment by then).
    const seen = await settledToNoClient(observe, verdicts);
    const id = requireId(api, verdicts, seen.submission.exchange);
    twinAccepted(verdicts, seen.firstRead!.exchange, { rule: 'STS-01', status: [200] });
    // The incoming view's valid twin: the beneficiary's institution reads a payment made to it.
    if (granted.has('beneficiarySide')) {
      const beneficiary = beneficiaryOf(clients);
      const [own] = await settledOriginals({ payer: clients.primary, beneficiary }, 1);
      const read = await readIncoming(api, own!.paymentsServiceId, {
        client: beneficiary,
        label: 'valid twin: the beneficiary reads a payment made to it, as incoming',
      });
      verdicts.originalHeld(read);
      twinAccepted(verdicts, read, { rule: 'INC-02' });
    }
    const stranger = clients.secondary!;
    const status = await readStatus(api, id, {
      client: stranger,
      label: 'an institution with no part in the payment reads its status',
    });
    verdicts.check('STS-13', 'it is refused the status', refusedAs(status.exchange, 'notFound'));
    const incoming = await readIncoming(api, id, {
      client: stranger,
      label: 'an institution with no part in the payment reads it as incoming',
    });
    verdicts.check('INC-03', 'it is refused the incoming view', refusedAs(incoming, 'notFound'));
    if (granted.has('keyRegistration')) {
      const unregistered = await newClient('stranger');
      const byStranger = await readIncoming(api, id, {
        client: unregistered,
        label: 'an institution new to the run reads it as incoming',
      });
      verdicts.check('INC-03', 'a third institution is refused the incoming view', refusedAs(byStranger, 'notFound'));
    }
    const unknown = await readIncoming(api, `${id}-unknown`, {
      client: beneficiaryOf(clients),
      label: 'an id that names no payment, read as incoming',
    });
    verdicts.check('INC-03', 'an id that names no payment is not served', refusedAs(unknown, 'notFound'));
  });

  test('the payer reads its own payment through the incoming endpoint: refused or served, as the profile reads it', {
    tag: ['@INC-07'],
    ...ONE,
  }, async ({ api, verdicts, clients, profile, settledOriginals }) => {
    // §1 and §4.4 give GET pacs008/{id} to the beneficiary; neither refuses it to the payer, the payment's other party.
    const beneficiary = beneficiaryOf(clients);
    const [payment] = await settledOriginals({ payer: clients.primary, beneficiary }, 1);
    const id = payment!.paymentsServiceId;
    const own = await readIncoming(api, id, { client: beneficiary, label: 'valid twin: B reads its incoming payment' });
    twinAccepted(verdicts, own, { rule: 'INC-02' });
    const byPayer = await readIncoming(api, id, {
      client: clients.primary,
      label: 'the payer reads its own payment as incoming',
    });
    const reading = readingOf(profile.expectations, 'INC-07');
    if (reading !== 'either')
      verdicts.assume(
        'INC-07',
        `the payer’s incoming read is ${reading === 'refuse' ? 'refused' : 'served'}, as the profile reads it`,
        reading === 'refuse' ? refusedAnswer(byPayer) : acceptedAnswer(byPayer),
      );
  });
});

/** Whether the target took what was sent (a 2xx not rejected later in pacs.002), and its answer in words. */
function taken(exchange: Exchange, final?: Followed['final']): { ok: boolean; answer: string } {
  const rejected = final?.statusClass === 'rejected';
  return {
    ok: is2xx(exchange) && !rejected,
    answer: `${answerOf(exchange)}${final ? `, then pacs.002 ${final.history.join(' → ')}` : ''}`,
  };
}

test.describe('incoming payment: a payment to one’s own sort code', () => {
  test('a payment the client makes to its own sort code is its incoming payment, or not, as the profile reads it', {
    tag: ['@INC-06', '@op:incomingPayment', '@op:returnPayment', '@op:refund'],
    ...takes({ observation: onUsPayments }),
  }, async ({ verdicts, profile, observe }) => {
    // §1 makes the beneficiary's institution the one that reads, returns and refunds; neither §1 nor §2.2
    // says whether a payment to the payer's own sort code makes the payer its beneficiary.
    const seen = await observe(onUsPayments);
    const incoming = (profile.expectations.onUs ?? 'incoming') === 'incoming';
    const expected = incoming ? 'taken (2xx, not rejected in pacs.002)' : 'refused (4xx, or rejected in pacs.002)';
    // A payer the profile does not read as refused its own payment's incoming view (INC-07) reads it
    // whoever the beneficiary: the read then says nothing of the on-us reading.
    const readDecides = readingOf(profile.expectations, 'INC-07') === 'refuse';
    const parts = [
      ...(readDecides
        ? [{ rule: 'INC-02', what: 'the client reads its on-us payment as incoming', exchange: seen.read }]
        : []),
      { rule: 'RTR-01', what: 'the client returns its on-us payment', followed: seen.returned },
      { rule: 'RFD-01', what: 'the client refunds part of its on-us payment', followed: seen.refunded },
    ];
    const answers = parts.flatMap((part) => {
      const exchange = part.exchange ?? part.followed?.answer.exchange;
      if (!exchange) return [];
      // Either answer is a reading; anything else (a 5xx) is none, and leaves INC-06 without evidence.
      verdicts.require(part.rule, `${part.what}: answered 2xx or 4xx`, acceptedOrRefused(exchange));
      return [{ ...part, ...taken(exchange, part.followed?.final) }];
    });
    // A refund goes in the declared pacs.007 shape: refused where the read and the return were taken, the shape may be why (RFD-07).
    const refund = answers.find((a) => a.rule === 'RFD-01');
    const shapeInDoubt = incoming && refund && !refund.ok && answers.every((a) => a === refund || a.ok);
    for (const a of answers) {
      if (shapeInDoubt && a === refund) continue;
      verdicts.assume('INC-06', `${a.what}: ${incoming ? 'taken' : 'refused'}`, {
        ok: a.ok === incoming,
        expected,
        received: a.answer,
      });
    }
    if (shapeInDoubt)
      verdicts.gate('RFD-07', 'the refund in the declared shape is accepted', {
        ok: false,
        received: `the target refused it: ${refund.answer}`,
      });
  });
});

test.describe('incoming payment: notifications', () => {
  test('the beneficiary is notified with the identifier of the incoming payment', {
    tag: ['@INC-01'],
    ...takes({ observation: incomingForNotification }),
  }, async ({ verdicts, profile, observe }) => {
    const { notification, settled } = await notified(observe, verdicts, incomingForNotification, profile, 'assessed');
    verdicts.check(
      'INC-01',
      'the notification carries the identifier to query the payment',
      carriesId(notification.body, settled.paymentsServiceId),
    );
  });

  test('the notification payload has the assumed shape', {
    tag: ['@INC-04'],
    ...takes({ observation: incomingForPayloadShape }),
  }, async ({ verdicts, profile, observe }) => {
    const { notification, settled } = await notified(
      observe,
      verdicts,
      incomingForPayloadShape,
      profile,
      'precondition',
    );
    const body = notification.body as Record<string, unknown> | undefined;
    await test
      .info()
      .attach('notification body', { body: JSON.stringify(body, null, 2), contentType: 'application/json' });
    if ((profile.expectations.notificationPayload ?? 'any') === 'any') return;
    verdicts.assume('INC-04', 'event is payment.incoming', equals(body?.event, 'payment.incoming'));
    verdicts.assume(
      'INC-04',
      'paymentsServiceId names the payment',
      equals(body?.paymentsServiceId, settled.paymentsServiceId),
    );
    verdicts.assume('INC-04', 'creationDateTime is a date-time without zone', localDateTime(body?.creationDateTime));
  });
});
