/**
 * Idempotency of the submission on grpHdr.msgId (spec §2.2, §4.2, §7): a repeat is 200, concurrent
 * duplicates create one payment, a repeat never pays twice, and a repeat with another body is
 * answered as the profile assumes. The body of a repeat is not shown (IDEM-04), but evidence beats
 * assumption: a repeat naming another payment that pacs.002 serves proves a second payment (IDEM-02).
 */
import { test, takes } from '../../fixtures/test';
import { readStatus, submitPayment, type SubmitResult } from '../../client/flows/payment';
import { paymentToRejection, repeatNotifiedOnce, returnedThenRepeated } from '../../arrange/observation-catalogue';
import { answered, type Verdicts } from '../../checks/verdicts';
import {
  mostInFlight,
  namesId,
  endsIn,
  hasStatus,
  noSecondPayment,
  notifiesOnly,
  ownPaymentOrRefused,
  refusedInFlight,
  statusServed,
} from '../../checks/answers';
import { awaitIncoming, beneficiaryOf, paymentToNoClient } from '../../client/flows/incoming';
import { is4xx } from '../../messages/http-status';
import type { Api } from '../../client/api';
import type { ClientIdentity } from '../../transport/client-jwts';
import { buildPacs008, clonePacs008, paymentIds, type Pacs008Message } from '../../messages/pacs008';
import { echoesMsgId, requireId } from '../../checks/payment-answers';
import { checkStatusReport, REPORT_RULES } from '../../checks/status-report';

/** §7's 200 row, whatever became of the payment: `what` submitted again gets 200 and names no other payment. */
async function repeatPaysNothing(
  api: Api,
  verdicts: Verdicts,
  message: Pacs008Message,
  paymentId: string | undefined,
  what: string,
): Promise<void> {
  const repeat = await submitPayment(api, message, { label: `${what} submitted again (same msgId, fresh SCA)` });
  verdicts.check('IDEM-01', `${what} submitted again gets 200`, hasStatus(repeat.exchange, [200]));
  verdicts.check(
    'IDEM-02',
    `${what} submitted again creates no second payment`,
    noSecondPayment(repeat.exchange, repeat.paymentsServiceId, paymentId),
  );
}

/** IDEM-02 on evidence: every id the answers name that pacs.002 serves is a payment; one msgId makes one. */
async function checkOnePayment(
  api: Api,
  verdicts: Verdicts,
  answers: readonly SubmitResult[],
  client?: ClientIdentity,
): Promise<void> {
  const ids = [...new Set(answers.map((a) => a.paymentsServiceId).filter((id): id is string => id !== undefined))];
  const served: string[] = [];
  for (const id of ids.length > 1 ? ids : []) {
    const read = await readStatus(api, id, {
      label: `read status of ${id}, named by an answer to the same msgId`,
      ...(client ? { client } : {}),
    });
    if (read.exchange.response.status === 200) served.push(id);
  }
  verdicts.check('IDEM-02', 'the answers to one msgId name one payment (pacs.002 serves no second one)', {
    ok: served.length <= 1,
    expected: 'one payment',
    received:
      served.length > 1
        ? `${served.length} payments served by pacs.002: ${served.join(', ')}`
        : `ids ${ids.join(', ')}`,
  });
}

/** Another body under a used msgId: the amount changed, or only grpHdr.creDtTm. */
const OTHER_BODIES: { title: string; label: string; change: (m: Pacs008Message) => void }[] = [
  {
    title: '',
    label: 'amount 20 instead of 10',
    change: (m) => {
      m.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.intrBkSttlmAmt.value = 20;
    },
  },
  {
    title: ': creDtTm a minute later',
    label: 'creDtTm a minute later',
    change: (m) => {
      const at = new Date(Date.parse(m.fitoFICstmrCdtTrf.grpHdr.creDtTm) + 60_000);
      m.fitoFICstmrCdtTrf.grpHdr.creDtTm = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
    },
  },
  {
    title: ': another endToEndId and txId',
    label: 'another endToEndId and txId',
    change: (m) => {
      const ids = m.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId;
      ids.endToEndId = `${ids.endToEndId}-2`;
      ids.txId = `${ids.txId}-2`;
    },
  },
];

test.describe('payment idempotency', () => {
  // Each client's repeats: §4.2's 200 is not the first client's alone.
  for (const who of [
    { title: 'a repeat of a used msgId gets 200 and names the same payment', other: false },
    { title: 'a repeat of a used msgId by the other client gets 200 and names the same payment', other: true },
  ])
    test(who.title, {
      tag: ['@IDEM-01', '@IDEM-02', '@IDEM-04'],
      ...(who.other ? takes({ needs: 'secondClient' }) : {}),
    }, async ({ api, verdicts, seed, clients }) => {
      const message = buildPacs008({ seed });
      const sender = who.other ? { client: clients.secondary! } : {};
      const first = await submitPayment(api, message, { label: 'first submission', ...sender });
      verdicts.require('P8-01', 'the first submission is created', hasStatus(first.exchange, [201]));
      const repeat = await submitPayment(api, message, { label: 'the same message again (fresh SCA)', ...sender });
      verdicts.check('IDEM-01', 'the repeat with the same msgId gets 200', hasStatus(repeat.exchange, [200]));
      await checkOnePayment(api, verdicts, [first, repeat], sender.client);
      const shape = api.profile.expectations.repeatBody ?? 'original';
      if (shape === 'original') {
        verdicts.assume('IDEM-04', 'the repeat names the original payment', namesId(repeat, first.paymentsServiceId));
        echoesMsgId(verdicts, api, repeat.exchange, paymentIds(message).msgId, { rule: 'IDEM-04', assumed: true });
      } else if (shape === 'empty') {
        verdicts.assume('IDEM-04', 'the repeat has an empty body', {
          ok: repeat.exchange.response.text.trim() === '',
          expected: 'no body',
          ...answered(repeat.exchange),
        });
      } else if (shape === 'id-only') {
        verdicts.assume('IDEM-04', 'the repeat names the original payment', namesId(repeat, first.paymentsServiceId));
      }
    });

  // §7 answers a used msgId with 200 whatever became of its payment: once its beneficiary returned it,
  // the payment is not made again (the history's money and identity properties see the same requests).
  test('a repeat of a returned payment’s msgId gets 200 and pays nothing again', {
    tag: ['@IDEM-01', '@IDEM-02'],
    ...takes({ observation: returnedThenRepeated }),
  }, async ({ api, verdicts, observe }) => {
    const { original, final } = await observe(returnedThenRepeated);
    verdicts.require('RTR-01', 'the beneficiary’s return of the payment settles accepted', endsIn(final, 'accepted'));
    await repeatPaysNothing(api, verdicts, original.message, original.paymentsServiceId, 'the returned payment');
  });

  // Rejected at settlement, the payment was still made (201): its msgId is a used one (§7's 200 row).
  test('a repeat of a rejected payment’s msgId gets 200 and pays nothing again', {
    tag: ['@IDEM-01', '@IDEM-02'],
    ...takes({ observation: paymentToRejection }),
  }, async ({ api, verdicts, profile, observe }) => {
    if (!profile.expectations.rejectTrigger)
      verdicts.skip({ kind: 'capability', capability: 'rejectTrigger', profile: profile.name });
    const { message, submission, final } = (await observe(paymentToRejection))!;
    verdicts.require('P8-01', 'the payment to be rejected is created', hasStatus(submission.exchange, [201]));
    verdicts.require('STS-09', 'the payment reaches a final status', statusServed(final, submission.exchange));
    verdicts.require('STS-09', 'the payment ends rejected', endsIn(final, 'rejected'));
    await repeatPaysNothing(api, verdicts, message, submission.paymentsServiceId, 'the rejected payment');
  });

  // §7's 200 row once the beneficiary's institution has read the payment (§1's incoming flow): the
  // payment reached it, and its msgId stays a used one whatever the beneficiary's side did with it.
  test('a repeat of a payment’s msgId after its beneficiary read it gets 200 and pays nothing again', {
    tag: ['@IDEM-01', '@IDEM-02'],
    ...takes({ needs: 'beneficiarySide' }, { pool: 'settled', count: 1 }),
  }, async ({ api, verdicts, clients, settledOriginals }) => {
    const beneficiary = beneficiaryOf(clients);
    const [payment] = await settledOriginals({ payer: clients.primary, beneficiary }, 1);
    const read = await awaitIncoming(api, payment!.paymentsServiceId, {
      client: beneficiary,
      label: 'B reads the payment, as incoming',
    });
    verdicts.require('INC-02', 'the beneficiary reads the payment', hasStatus(read, [200]));
    await repeatPaysNothing(
      api,
      verdicts,
      payment!.message,
      payment!.paymentsServiceId,
      'the payment its beneficiary read',
    );
  });

  // A duplicate that arrives while the first is still being processed has no result to repeat yet:
  // a target may refuse it for now (409 in the IETF Idempotency-Key draft, 422 at Adyen, 423, 425, or
  // a 503 to come back later), and that duplicate, sent again once the first is done, is a repeat like
  // any other: 200. What §4.2 fixes is the one 201 and the 200 of a repeat.
  test('20 concurrent duplicates give exactly one 201; the others 200, or a refusal while the first is in flight and 200 when sent again', {
    tag: ['@IDEM-03', '@IDEM-02'],
  }, async ({ api, verdicts, seed }) => {
    const message = buildPacs008({ seed });
    await api.accessToken(); // one token for all, so the race is on the submission only
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submitPayment(api, message, { label: `duplicate ${i + 1} of 20` })),
    );
    const statuses = results.map((r) => r.exchange.response.status);
    verdicts.check(
      'IDEM-03',
      'exactly one of 20 concurrent duplicates is created (201), each other gets 200 (or an in-flight refusal)',
      {
        ok:
          statuses.filter((s) => s === 201).length === 1 &&
          statuses.every((s) => s === 201 || s === 200 || refusedInFlight(s)),
        expected: 'one 201; 200 (or a 4xx or 503 while the first is in flight) for the other nineteen',
        received: statuses.join(', '),
      },
    );
    const inFlight = results.filter((r) => refusedInFlight(r.exchange.response.status));
    const again = await Promise.all(
      inFlight.map((_, i) =>
        submitPayment(api, message, {
          label: `duplicate ${i + 1} of ${inFlight.length} refused in flight, sent again`,
        }),
      ),
    );
    if (again.length)
      verdicts.check('IDEM-03', 'a duplicate refused while the first was in flight gets 200 once it is done', {
        ok: again.every((r) => r.exchange.response.status === 200),
        expected: `HTTP 200 for each of ${again.length}`,
        received: again.map((r) => r.exchange.response.status).join(', '),
      });
    await checkOnePayment(api, verdicts, [...results, ...again]);
    // Paced by a rate limit slower than the target answers, the duplicates went one after another:
    // what passed then is IDEM-01's repeat, not the race this test is for.
    const inFlightAtOnce = mostInFlight(results.map((r) => r.exchange));
    if (inFlightAtOnce < 2)
      verdicts.skip({
        kind: 'not-applicable',
        why: `the 20 duplicates were never in flight together (the pacing of the target's rate limit sent each after the last was answered): no race was run`,
      });
  });

  test('a repeat never creates a second payment: the beneficiary is notified once', {
    tag: ['@IDEM-02'],
    ...takes({ observation: repeatNotifiedOnce }),
  }, async ({ api, verdicts, observe }) => {
    // Paid, repeated and followed to the notifications from the worker's start, in the background,
    // to a beneficiary of this test alone (arrange/observation-catalogue.ts).
    const seen = await observe(repeatNotifiedOnce);
    verdicts.require('P8-01', 'the first submission is created', hasStatus(seen.first.exchange, [201]));
    requireId(api, verdicts, seen.first.exchange);
    verdicts.require('IDEM-01', 'the repeat gets 200', hasStatus(seen.repeat.exchange, [200]));
    verdicts.require('P8-01', 'the sentinel submission is created', hasStatus(seen.sentinel.exchange, [201]));
    verdicts.require('STS-08', 'the payment and the sentinel settle', {
      ok: seen.firstFinal?.statusClass === 'accepted' && seen.sentinelFinal !== undefined,
      expected: 'both final, the payment accepted',
      received: `${seen.firstFinal?.txSts ?? 'no final status'} / ${seen.sentinelFinal?.txSts ?? 'no final status'}`,
    });
    verdicts.require('INC-01', 'the beneficiary is notified of the payment and of the sentinel', {
      ok: seen.firstNotified && seen.sentinelNotified,
      expected: 'both notifications',
      received: `payment ${seen.firstNotified ? 'notified' : 'not notified'}, sentinel ${seen.sentinelNotified ? 'notified' : 'not notified'}`,
    });
    verdicts.check(
      'IDEM-02',
      'the beneficiary is notified of no payment but the first and the sentinel',
      notifiesOnly(seen.received, [seen.first.paymentsServiceId!, seen.sentinel.paymentsServiceId!]),
    );
  });

  test('another client’s payment with the same msgId and txId is its own, or refused, never the first client’s', {
    tag: ['@XCL-01', '@op:submitPayment'],
    ...takes({ needs: 'secondClient' }),
  }, async ({ api, verdicts, clients, seed }) => {
    // Both to a sort code neither client holds: each payment is its payer's alone.
    const message = paymentToNoClient(clients, seed);
    const first = await submitPayment(api, message, { label: 'valid twin: the primary client pays' });
    verdicts.require('P8-01', 'the first client’s payment is created', hasStatus(first.exchange, [201]));
    const firstId = requireId(api, verdicts, first.exchange);
    const shadow = clonePacs008(paymentToNoClient(clients, `${seed}-other`));
    const ids = paymentIds(message);
    shadow.fitoFICstmrCdtTrf.grpHdr.msgId = ids.msgId;
    shadow.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId.txId = ids.txId;
    const answer = await submitPayment(api, shadow, {
      client: clients.secondary!,
      label: 'the secondary client pays with the same msgId and txId',
    });
    verdicts.check(
      'XCL-01',
      'another client reusing a msgId and txId gets a payment of its own, or a refusal',
      ownPaymentOrRefused(answer.exchange, answer.paymentsServiceId, firstId),
    );
  });

  // The amount, or only the creation time a client's retry layer writes afresh: either way the msgId is a used one.
  for (const other of OTHER_BODIES)
    test(`a repeat of a used msgId with a different body is answered per the profile${other.title}`, {
      tag: ['@IDEM-05', '@IDEM-02', '@IDEM-01', ...REPORT_RULES.map((rule) => `@${rule}`)],
    }, async ({ api, verdicts, seed }) => {
      const message = buildPacs008({ seed, amount: 10 });
      const first = await submitPayment(api, message, { label: 'first submission' });
      verdicts.require('P8-01', 'the first submission is created', hasStatus(first.exchange, [201]));
      const changed = clonePacs008(message);
      other.change(changed);
      const repeat = await submitPayment(api, changed, { label: `same msgId, ${other.label}` });
      const status = repeat.exchange.response.status;
      // msgId "is used for idempotency" (§2.2): whatever the answer, it never creates a new payment (a
      // 5xx proves neither way: checkOnePayment reads whether one was made). §4.2's 200 row is any
      // submission with a used msgId; a 4xx is the reading IDEM-05 allows; a 5xx is neither.
      verdicts.check(
        'IDEM-02',
        'a used msgId with another body never creates a payment (no 201)',
        noSecondPayment(repeat.exchange, repeat.paymentsServiceId, first.paymentsServiceId),
      );
      verdicts.check('IDEM-01', 'a used msgId with another body is answered 200, or a 4xx (never a 201 nor a 5xx)', {
        ok: status === 200 || is4xx(status),
        expected: '200 with the original, or a 4xx',
        ...answered(repeat.exchange),
      });
      await checkOnePayment(api, verdicts, [first, repeat]);
      // §2.4 echoes "the original request": whatever the repeat carried, the payment's report is the first's.
      const id = first.paymentsServiceId;
      if (id) {
        const read = await readStatus(api, id, { label: 'read status of the first payment, after the repeat' });
        if (read.exchange.response.status === 200)
          checkStatusReport(verdicts, read.exchange, message, ' of the first payment, after the repeat');
      }
      const mode = api.profile.expectations.idempotencyConflict ?? 'either';
      const original =
        status === 200 &&
        (repeat.paymentsServiceId === undefined || repeat.paymentsServiceId === first.paymentsServiceId);
      const refused = is4xx(status);
      const expected = {
        original: '200 with the original payment',
        reject: 'a 4xx conflict',
        either: '200 with the original payment or a 4xx',
      }[mode];
      verdicts.assume('IDEM-05', `the repeat is answered: ${expected}`, {
        ok: mode === 'original' ? original : mode === 'reject' ? refused : original || refused,
        expected,
        ...answered(repeat.exchange),
      });
    });
});
