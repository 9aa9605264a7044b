/**
 * Return (pacs.004, spec §1, §2.5, §4.4), positive side and lifecycle: a valid return is accepted,
 * the minimal return too, a repeat is idempotent, its status is served by pacs.002, a payment is
 * returned once, and a return of a payment the service never saw follows the profile.
 */
import { test, takes } from '../../fixtures/test';
import { settledToNoClient } from '../../arrange/operations';
import {
  awaitFinalStatus,
  dataOf,
  namesOnlyItsId,
  idOf,
  finalStatusAs,
  readOnFurtherVersions,
  readStatus,
  type SubmitResult,
} from '../../client/flows/payment';
import { refusedAs } from '../../checks/refusals';
import { createdIdOf } from '../../messages/answers';
import { beneficiaryOf, partiesOf, paymentTo } from '../../client/flows/incoming';
import { originalsToReturn, returnFor, submitReturn } from '../../client/flows/returns';
import {
  minimalReturnToFinal,
  paymentToNoClientLifecycle,
  returnToFinal,
  returnMsgIdKept,
  returnTwice,
} from '../../arrange/observation-catalogue';
import { resultOf } from '../../arrange/observations';
import { answered, answerOf } from '../../checks/verdicts';
import {
  acceptedAs,
  acceptedOrRefused,
  endsIn,
  equals,
  locationNames,
  namesId,
  namesNoOther,
  statusServed,
  twinAccepted,
  acceptedAnswer,
  hasStatus,
  servedUntilFinal,
  statusServedOn,
  namesAnId,
} from '../../checks/answers';
import { creditorPlaceHeld } from '../../checks/iso20022';
import { dataObjectLikeSubmission } from '../../checks/schema-check';
import { checkReturnOrRefundReport, checkStatusReports, REPORT_RULES } from '../../checks/status-report';
import { is2xx, is4xx } from '../../messages/http-status';
import { checkMonotonic, echoesMsgId, expectBusinessRefusal } from '../../checks/payment-answers';
import { acceptanceStatusOf, repeatStatusOf } from '../../profile/profile';

const TWO = takes({ pool: 'settled', count: 2 });
/** One original to return (originalsToReturn): a settled payment, or one never made where the profile returns those. */
const RETURNED = takes({ pool: 'settled', count: 1, forReturn: true });

test.describe('return (pacs.004): accepted returns', () => {
  test('a valid full return of a settled payment is accepted', { tag: ['@RTR-01', '@RTR-37'], ...RETURNED }, async ({
    api,
    verdicts,
    clients,
    seed,
    settledOriginals,
  }) => {
    const { returner, originals } = await originalsToReturn(api, clients, settledOriginals, seed, 1);
    const message = returnFor(api, { seed, original: originals[0]! });
    const { exchange } = await submitReturn(api, message, { client: returner });
    verdicts.originalHeld(exchange);
    creditorPlaceHeld(verdicts, exchange);
    const declared = api.profile.expectations.returnAnswer ?? 'data';
    const accepted = verdicts.check(
      'RTR-01',
      'a valid return is accepted',
      acceptedAnswer(
        exchange,
        declared === 'any'
          ? undefined
          : { rule: 'RTR-37', status: acceptanceStatusOf(api.profile.expectations, 'returnPayment') },
      ),
    );
    if (accepted)
      verdicts.assume('RTR-37', 'a Location header names the return', locationNames(exchange, idOf(api, exchange)));
    if (declared === 'id-only') {
      verdicts.assume('RTR-37', 'the pacs.004 answer is {"data":{"paymentsServiceId"}}', {
        ok: namesOnlyItsId(exchange),
        expected: 'data with only paymentsServiceId',
        ...answered(exchange),
      });
    }
    if (declared !== 'data') return;
    verdicts.assume('RTR-37', 'the pacs.004 answer is a data object like §2.3', dataObjectLikeSubmission(exchange));
    echoesMsgId(verdicts, api, exchange, message.pmtRtr.grpHdr.msgId, { rule: 'RTR-37', assumed: true });
    verdicts.assume('RTR-37', 'data.status is PENDING', equals(dataOf(exchange)?.status, 'PENDING'));
  });

  test('a minimal return (every optional field left out) is accepted', {
    tag: ['@RTR-30'],
    ...takes({ observation: minimalReturnToFinal }),
  }, async ({ verdicts, observe }) => {
    // Paid, settled, returned and followed from the worker's start, in the background.
    const { message, answer, final } = await observe(minimalReturnToFinal);
    verdicts.checkOrStop('RTR-30', 'the minimal message has no optional total', {
      ok: message.pmtRtr.grpHdr.ttlRtrdIntrBkSttlmAmt === undefined,
    });
    verdicts.originalHeld(answer.exchange);
    creditorPlaceHeld(verdicts, answer.exchange);
    if (!verdicts.check('RTR-30', 'a minimal return is accepted', acceptedAnswer(answer.exchange))) return;
    // Taken with a 2xx and rejected in pacs.002 is not accepted (§7). The answer's shape is not shown (RTR-37).
    verdicts.require('RTR-37', 'the answer names the return’s paymentsServiceId', namesAnId(answer));
    verdicts.check('RTR-30', 'the minimal return settles accepted', endsIn(final && resultOf(final), 'accepted'));
  });

  test('a return repeating a used msgId is idempotent (the same return, answered 200)', {
    tag: ['@RTR-05', '@RTR-41'],
    ...RETURNED,
  }, async ({ api, verdicts, clients, seed, settledOriginals }) => {
    const { returner, originals } = await originalsToReturn(api, clients, settledOriginals, seed, 1);
    const message = returnFor(api, { seed, original: originals[0]! });
    const first = await submitReturn(api, message, { client: returner, label: 'return the payment (pacs.004)' });
    verdicts.originalHeld(first.exchange);
    creditorPlaceHeld(verdicts, first.exchange);
    verdicts.require('RTR-01', 'the first return is accepted', acceptedAnswer(first.exchange));
    const repeat = await submitReturn(api, message, { client: returner, label: 'send the same return again' });
    // §2.5: the msgId is "used for idempotency": the repeat is no new return, whatever its answer's status.
    verdicts.check('RTR-05', 'the repeated return is not refused as a new return', acceptedAnswer(repeat.exchange));
    verdicts.check(
      'RTR-05',
      'a repeat that names a return names the first',
      namesNoOther(repeat, first.paymentsServiceId),
    );
    verdicts.assume(
      'RTR-41',
      'the repeated return is answered 200, or as the operation accepts',
      hasStatus(repeat.exchange, repeatStatusOf(api.profile.expectations, 'returnPayment')),
    );
    // A body the profile reads as any is unchecked (IDEM-04's own test reads each shape).
    if (['original', 'id-only'].includes(api.profile.expectations.repeatBody ?? 'original')) {
      verdicts.assume('IDEM-04', 'the repeat names the first return', namesId(repeat, first.paymentsServiceId));
    }
  });

  test('a return’s msgId stays used: sent again returning another payment, or once the return is final, it names no other return', {
    tag: ['@RTR-05'],
    ...takes({ observation: returnMsgIdKept }),
  }, async ({ verdicts, observe }) => {
    // Sent and followed from the worker's start, in the background: the first return must be final
    // before it is sent again.
    const { first, changed, final, same } = await observe(returnMsgIdKept);
    verdicts.originalHeld(first.exchange);
    creditorPlaceHeld(verdicts, first.exchange);
    verdicts.require('RTR-01', 'the first return is accepted', acceptedAnswer(first.exchange));
    verdicts.require('RTR-37', 'the answer names the return’s paymentsServiceId', namesAnId(first));
    // §2.5: the msgId is "used for idempotency", whatever the body and however long ago: a store that
    // keys a return with its body, or forgets a final return's msgId, books a second return under it.
    const namesTheFirst = (repeat: SubmitResult) => namesNoOther(repeat, first.paymentsServiceId);
    // A valid return of another payment under the used msgId: refused, or answered as the repeat.
    verdicts.check(
      'RTR-05',
      'the msgId again, returning another payment, names no other return',
      namesTheFirst(changed!),
    );
    // The wait's own outcome (a status never served, never final) ends the test as it would have here.
    resultOf(final!);
    verdicts.check(
      'RTR-05',
      'the same return sent again once final is not refused as a new return',
      acceptedAnswer(same!.exchange),
    );
    verdicts.check('RTR-05', 'the same return sent again once final names no other return', namesTheFirst(same!));
  });

  test('a second return of the same payment is refused', {
    tag: ['@RTR-38', '@MNY-01', '@op:returnPayment'],
    ...takes({ observation: returnTwice }),
  }, async ({ api, verdicts, clients, observe }) => {
    // The first return settled before the second was sent, from the worker's start, in the background.
    const { first, second, originalId } = await observe(returnTwice);
    verdicts.originalHeld(first.answer.exchange);
    verdicts.require('RTR-01', 'the first return is accepted', acceptedAnswer(first.answer.exchange));
    verdicts.require('RTR-37', 'the answer to the first return names its paymentsServiceId', namesAnId(first.answer));
    verdicts.require(
      'RTR-01',
      'the first return settles accepted',
      endsIn(first.final && resultOf(first.final), 'accepted'),
    );
    // A 2xx naming the first return makes no second one: the target answered with the return it has.
    // Not a 201 (something was created), and not where the answers name the original payment (a POST
    // pacs004 answer is not shown), which would name it whatever was made.
    const firstReturnId = first.answer.paymentsServiceId;
    if (
      is2xx(second!.exchange) &&
      second!.exchange.response.status !== 201 &&
      firstReturnId !== undefined &&
      firstReturnId !== originalId &&
      second!.paymentsServiceId === firstReturnId
    ) {
      verdicts.check('RTR-38', 'the second return is answered with the first, creating none', {
        ok: true,
        ...answered(second!.exchange),
      });
      return;
    }
    await expectBusinessRefusal(api, verdicts, 'RTR-38', second!.exchange, {
      settle: finalStatusAs(api, beneficiaryOf(clients)),
      what: 'a second return of the same payment is refused',
      unnamedBy: 'RTR-37',
    });
  });
});

test.describe('return (pacs.004): who may return', () => {
  // The payer, as each client in turn (a target may tell the parties apart by a client, not by the
  // payment), and an institution new to the run: a target that refuses "the payer" rather than
  // "anyone but the beneficiary" takes the third's return (which needs keyRegistration).
  for (const who of [
    { title: 'only the beneficiary’s institution can return a payment', by: 'payer', details: TWO },
    {
      title: 'only the beneficiary’s institution can return a payment — the other client paying',
      by: 'payer',
      reversed: true,
      details: takes({ pool: 'settled-by-secondary', count: 2 }, { needs: 'secondClient' }, { needs: 'ownSortCode' }),
    },
    {
      title: 'an institution with no part in the payment cannot return it',
      by: 'stranger',
      details: takes({ pool: 'settled', count: 2 }, { needs: 'keyRegistration' }),
    },
  ] as const) {
    test(who.title, { tag: ['@RTR-39'], ...who.details }, async ({
      api,
      verdicts,
      clients,
      seed,
      settledOriginals,
      newClient,
    }) => {
      const { payer, beneficiary } = partiesOf(clients, 'reversed' in who);
      const [twinOriginal, original] = await settledOriginals({ payer, beneficiary }, 2);
      const twin = await submitReturn(api, returnFor(api, { seed, original: twinOriginal!.message }), {
        client: beneficiary,
        label: 'valid twin: the beneficiary returns its payment',
      });
      twinAccepted(verdicts, twin.exchange, { rule: 'RTR-01' });
      const returner = who.by === 'stranger' ? await newClient('stranger') : payer;
      const whose = who.by === 'stranger' ? 'an institution with no part in the payment' : 'the payer’s institution';
      const mutant = await submitReturn(api, returnFor(api, { seed, original: original!.message }), {
        client: returner,
        label: `mutant: ${whose} (${returner.role}) tries to return it`,
      });
      await expectBusinessRefusal(api, verdicts, 'RTR-39', mutant.exchange, {
        settle: finalStatusAs(api, returner),
        what: `a return by ${whose} is refused`,
        unnamedBy: 'RTR-37',
      });
    });
  }
});

// With two clients and no key registration (which the stranger case above needs): a payment to a
// sort code neither client holds, settled, which the second client, neither its payer nor its
// beneficiary's institution, tries to return. Its twin: the same client returns a payment made to it.
test.describe('return (pacs.004): who may return, with two clients', () => {
  test('an institution with no part in the payment cannot return it — the other client, of a payment to a sort code no client holds', {
    tag: ['@RTR-39'],
    ...takes({ observation: paymentToNoClientLifecycle }, { pool: 'settled', count: 1 }),
  }, async ({ api, verdicts, clients, seed, observe, settledOriginals }) => {
    const paid = await settledToNoClient(observe, verdicts);
    const { payer, beneficiary } = partiesOf(clients);
    const [twinOriginal] = await settledOriginals({ payer, beneficiary }, 1);
    const twin = await submitReturn(api, returnFor(api, { seed, original: twinOriginal!.message }), {
      client: beneficiary,
      label: 'valid twin: the beneficiary returns its payment',
    });
    twinAccepted(verdicts, twin.exchange, { rule: 'RTR-01' });
    const mutant = await submitReturn(api, returnFor(api, { seed, original: paid.message }), {
      client: beneficiary,
      label: `mutant: the other client (${beneficiary.role}), with no part in the payment, tries to return it`,
    });
    await expectBusinessRefusal(api, verdicts, 'RTR-39', mutant.exchange, {
      settle: finalStatusAs(api, beneficiary),
      what: 'a return by an institution with no part in the payment is refused',
      unnamedBy: 'RTR-37',
    });
  });
});

test.describe('return (pacs.004): status and unknown originals', () => {
  test('the status of a return is served by pacs.002, reaches accepted, and is no stranger’s to read', {
    tag: ['@RTR-35', '@RTR-01', '@STS-13', '@STS-10', ...REPORT_RULES.map((rule) => `@${rule}`)],
    ...takes({ observation: returnToFinal }),
  }, async ({ api, verdicts, clients, observe, granted, newClient }) => {
    // Paid, settled, returned and followed from the worker's start, in the background.
    const { answer, final, original, originalReads, sentMsgId } = await observe(returnToFinal);
    verdicts.originalHeld(answer.exchange, final?.statusClass === 'rejected' ? final.history.join(' → ') : undefined);
    verdicts.require('RTR-01', 'the return is accepted', acceptedAnswer(answer.exchange));
    // §4.4 does not show the answer: an id it does not name blocks the test (RTR-37), it breaks no rule.
    verdicts.require('RTR-37', 'the return’s answer names its paymentsServiceId', statusServed(final, answer.exchange));
    verdicts.check('RTR-35', 'the return’s status is served until final', servedUntilFinal(final));
    // §4.3: the same operation "serves the status of payments, returns and refunds": §2.4's report.
    if (final)
      checkReturnOrRefundReport(
        verdicts,
        final.last,
        { kind: 'return', msgId: sentMsgId },
        'the return’s final status report',
      );
    // The payment stays settled while its return is pending and once it is final: §3's final codes stay final.
    checkMonotonic(verdicts, api, [...original.final.history, ...originalReads.flatMap((r) => r.txSts ?? [])]);
    checkStatusReports(verdicts, originalReads, original.message, ' of the payment while and once it is returned');
    verdicts.check('RTR-01', 'the return settles accepted', endsIn(final, 'accepted'));
    // §4.3 names GET pacs002/v10 the same operation: "It serves the status of payments, returns and refunds".
    for (const { version, read } of await readOnFurtherVersions(api, answer.paymentsServiceId!, {
      client: beneficiaryOf(clients),
    })) {
      verdicts.check('RTR-35', `the return’s status is served on ${version} too`, statusServedOn(version, read));
      checkReturnOrRefundReport(
        verdicts,
        read.exchange,
        { kind: 'return', msgId: sentMsgId },
        `the return’s status report on ${version}`,
      );
    }
    // §1: a return's status is read with pacs.002, as a payment's; an institution new to the run is no
    // party to it (STS-13), as it is none to a payment.
    if (granted.has('keyRegistration')) {
      const stranger = await newClient('stranger');
      const read = await readStatus(api, answer.paymentsServiceId!, {
        client: stranger,
        label: 'an institution with no part in the return reads its status',
      });
      verdicts.check('STS-13', 'it is refused the return’s status', refusedAs(read.exchange, 'notFound'));
    }
  });

  test('a return of a payment the service does not know is answered as the profile says', { tag: ['@RTR-36'] }, async ({
    api,
    verdicts,
    clients,
    seed,
    profile,
  }) => {
    const returner = beneficiaryOf(clients);
    const neverPaid = paymentTo(returner, seed);
    const { exchange } = await submitReturn(api, returnFor(api, { seed, original: neverPaid }), {
      client: returner,
      label: 'return a payment that was never made',
    });
    // Not a citation of RTR-01 (it needs a returnable original, which this test does not): a 5xx leaves RTR-36 without evidence.
    verdicts.require(
      'RTR-01',
      'a return of an unknown payment gets an answer: accepted (2xx) or refused (4xx)',
      acceptedOrRefused(exchange),
    );
    const mode = profile.expectations.returnUnknownOriginal ?? 'either';
    if (mode === 'accept')
      verdicts.assume(
        'RTR-36',
        'the return of an unknown original is accepted with the profile’s status',
        acceptedAs(exchange, 'returnPayment', profile.expectations),
      );
    if (mode === 'refuse') {
      const id = is2xx(exchange) ? createdIdOf(api, exchange) : undefined;
      const final = id ? await awaitFinalStatus(api, id, { client: returner, servedBy: 'RTR-35' }) : undefined;
      verdicts.assume('RTR-36', 'the return of an unknown original is refused (4xx, or 2xx then rejected)', {
        ok: is4xx(exchange) || final?.statusClass === 'rejected',
        expected: 'a refusal',
        received: final ? final.history.join(' → ') : answerOf(exchange),
      });
    }
  });
});
