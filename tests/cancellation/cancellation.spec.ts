/**
 * Payment cancellation (spec §1 cancellation rules 1-5, §3, §4.4). camt.056/camt.029 fields are not
 * shown: they are exchanged in the shape the profile declares (CXL-06), and a target that refuses
 * that shape blocks these tests instead of failing them. What each outcome means for the payment is
 * documented and strict: a payment whose pacs.002 already reads settled was certainly in a sent
 * batch, so its cancellation is rejected and it stays settled (CXL-03, no capability needed); a
 * cancellation sent right after its payment most likely meets a batch not yet sent, and where the
 * target confirms it the payment never settles (CXL-02, no capability needed); with batchControl the
 * suite also decides when the batch is sent, before and after the cancellation.
 */
import { test, takes } from '../../fixtures/test';
import { checkStatusReport, REPORT_RULES } from '../../checks/status-report';
import { furtherVersions, repeatStatusOf, tokenLeewaySeconds } from '../../profile/profile';
import {
  awaitFinalStatus,
  finalStatusAs,
  readStatus,
  type StatusRead,
  submitPayment,
  type SettledPayment,
  type SubmitResult,
} from '../../client/flows/payment';
import { returnFor, submitReturn } from '../../client/flows/returns';
import { submitRefund } from '../../client/flows/refunds';
import { buildPacs007 } from '../../messages/pacs007';
import { beneficiaryOf, paymentTo, paymentToNoClient } from '../../client/flows/incoming';
import {
  readCancellation,
  awaitCancellationOf,
  requestCancellation,
  unknownPaymentRefusal,
  type Resolution,
} from '../../client/flows/cancellation';
import {
  cancelAfterBatchSent,
  cancelBeforeBatch,
  foreignCancellation,
  refundedThenCancelled,
  returnedThenCancelled,
  settledCancellations,
  tokenExpiry,
} from '../../arrange/observation-catalogue';
import { resultOf, type Observe } from '../../arrange/observations';
import { answered, answerOf, type Verdicts } from '../../checks/verdicts';
import type { Api } from '../../client/api';
import type { Clients } from '../../client/target';
import type { Capability } from '../../ledger/capabilities';
import type { ClientIdentity } from '../../transport/client-jwts';
import { buildCamt056, type CancellationReason } from '../../messages/camt056';
import { type Pacs008Message, paymentIds, withoutScheme } from '../../messages/pacs008';
import { camt029Schema } from '../../messages/schemas/camt029';
import { cancellationResponseSchema } from '../../messages/schemas/camt056-request';
import {
  acceptedAnswer,
  camt029Served,
  acceptedAs,
  endsIn,
  equals,
  hasStatus,
  locationNames,
  namesId,
  neverServerError,
  noSecondPayment,
  notReadAs,
  decidedWithin,
  readableResolution,
  notResolvedAs,
  ownPaymentOrRefused,
  resolvedAs,
  acceptedInDeclaredShape,
  staysSettled,
  twinAccepted,
} from '../../checks/answers';
import { conformsTo } from '../../checks/schema-check';
import { is2xx, is4xx } from '../../messages/http-status';
import { namesOnlyItsId } from '../../messages/answers';
import { expectBusinessRefusal, expectCancellationRefused, requireId } from '../../checks/payment-answers';
import { refusedAs } from '../../checks/refusals';

async function pay(
  api: Api,
  verdicts: Verdicts,
  payer: ClientIdentity,
  payment: Pacs008Message,
  version?: string,
): Promise<string> {
  const { exchange } = await submitPayment(api, payment, {
    client: payer,
    label: `pay: the payer’s bank submits the payment${version ? ` (pacs008 ${version})` : ''}`,
    ...(version ? { version } : {}),
  });
  verdicts.require('P8-01', 'the payment to cancel is created', hasStatus(exchange, [201]));
  return requireId(api, verdicts, exchange);
}

/** The settled payment of returnedThenCancelled, once its beneficiary's return settled accepted. */
async function returnedOriginal(observe: Observe, verdicts: Verdicts): Promise<SettledPayment> {
  const { original, final } = await observe(returnedThenCancelled);
  verdicts.require('RTR-01', 'the beneficiary’s return of the payment settles accepted', endsIn(final, 'accepted'));
  return original;
}

/** The settled payment of refundedThenCancelled, once its beneficiary's refund of part of it settled accepted. */
async function refundedOriginal(observe: Observe, verdicts: Verdicts): Promise<SettledPayment> {
  const { original, final } = await observe(refundedThenCancelled);
  verdicts.require(
    'RFD-01',
    'the beneficiary’s refund of part of the payment settles accepted',
    endsIn(final, 'accepted'),
  );
  return original;
}

/**
 * A camt.056 of an own payment: accepted (2xx), or the declared shape is not the target's (blocked by
 * CXL-06). Whether its answer names the cancellation matters only where the test reads it by that id:
 * GET camt029 is read by that id or the payment's own.
 */
function cancellationAccepted(
  verdicts: Verdicts,
  answer: SubmitResult,
  what = 'the cancellation of an own payment is accepted',
): void {
  verdicts.require('CXL-01', what, acceptedInDeclaredShape(answer.exchange, 'CXL-06'));
}

/**
 * GET camt029 serves the cancellation's outcome (a 2xx by the id the camt.056 answer named or by the
 * payment's own), under the declared root (CXL-06, else blocked). §1 promises that camt.029 for a
 * rejection ("camt.029.001.09 for a rejection"; rule 5: GET camt029 "returns that camt.029 message",
 * rule 4's): where the cancellation is certainly rejected, CXL-04 is the test's own rule (`rejected`,
 * it fails). Whether a confirmed or pending cancellation has one to serve it does not say: there, none
 * served blocks the test by the declared shapes (`unknown`, CXL-06).
 */
function resolutionServed(
  verdicts: Verdicts,
  resolution: Resolution | undefined,
  outcome: 'rejected' | 'unknown',
): Resolution {
  const served = camt029Served(resolution?.exchange);
  if (outcome === 'rejected')
    verdicts.checkOrStop(
      'CXL-04',
      'GET camt029 serves the rejection of the cancellation (by its id or the payment’s)',
      served,
    );
  else
    verdicts.gate(
      'CXL-06',
      'GET camt029 serves a cancellation that may not be rejected (by its id or the payment’s)',
      served,
    );
  verdicts.gate('CXL-06', 'the camt.029 has the declared root', {
    ok: resolution!.body !== undefined,
    received: answerOf(resolution!.exchange),
  });
  return resolution!;
}

test.describe('cancellation: whose payment', () => {
  test('a cancellation of a payment that does not exist is refused', { tag: ['@CXL-01'] }, async ({
    api,
    verdicts,
    clients,
    seed,
  }) => {
    const own = withoutScheme(paymentTo(beneficiaryOf(clients), seed));
    await pay(api, verdicts, clients.primary, own);
    cancellationAccepted(
      verdicts,
      await requestCancellation(api, buildCamt056({ seed, original: own }), {
        label: 'valid twin: cancel an own payment (camt.056)',
      }),
    );
    const neverPaid = withoutScheme(paymentTo(beneficiaryOf(clients), seed));
    const answer = await requestCancellation(api, buildCamt056({ seed, original: neverPaid }), {
      label: 'cancel a payment that was never made',
    });
    await expectCancellationRefused(api, verdicts, 'CXL-01', answer.exchange, {
      refusal: unknownPaymentRefusal(api.profile),
      what: 'the cancellation of a payment that was never made is refused',
      // A payment never made has no id of its own to read a camt.029 by.
      resolve: async (id) => (id ? awaitCancellationOf(api, { cancellation: id, payment: id }) : undefined),
    });
  });

  test('a cancellation of another client’s payment is refused', {
    tag: ['@CXL-01'],
    ...takes({ needs: 'secondClient' }, { observation: foreignCancellation }),
  }, async ({ api, verdicts, observe }) => {
    // Sent from the worker's start, in the background, and the other client's payment followed to its
    // final status there: that is a settlement delay.
    const { twin, foreign } = await observe(foreignCancellation);
    cancellationAccepted(verdicts, twin);
    const { theirsId, answer, theirsFinal } = foreign!;
    await expectCancellationRefused(api, verdicts, 'CXL-01', answer.exchange, {
      refusal: unknownPaymentRefusal(api.profile),
      what: 'the cancellation of another client’s payment is refused',
      // With no id named, the payment's own, where the canceller is served it: its refusal is no violation.
      resolve: async (id) => {
        if (id) return awaitCancellationOf(api, { cancellation: id, payment: theirsId });
        const byPayment = await awaitCancellationOf(api, { payment: theirsId });
        return is2xx(byPayment.exchange) ? byPayment : undefined;
      },
    });
    // Whatever its camt.029 said (one still pending proves nothing), the payment must go on.
    verdicts.check(
      'CXL-01',
      'the other client’s payment is not cancelled by it: it settles accepted',
      endsIn(resultOf(theirsFinal), 'accepted'),
    );
  });

  // The beneficiary is not the only institution that is not the payer: a target that refuses the
  // beneficiary's cancellation rather than everyone's but the payer's takes a third institution's. The
  // payment goes to a sort code no client holds, so the second client is that third institution.
  test('a cancellation by an institution with no part in the payment is refused', {
    tag: ['@CXL-01'],
    ...takes({ needs: 'secondClient' }),
  }, async ({ api, verdicts, clients, seed, profile }) => {
    const expectations = profile.expectations;
    const own = withoutScheme(paymentToNoClient(clients, `${seed}-own`));
    await pay(api, verdicts, clients.primary, own);
    cancellationAccepted(verdicts, await requestCancellation(api, buildCamt056({ seed, original: own })));
    const theirs = withoutScheme(paymentToNoClient(clients, seed));
    const theirsId = await pay(api, verdicts, clients.primary, theirs);
    const stranger = clients.secondary!;
    const answer = await requestCancellation(api, buildCamt056({ seed, original: theirs }), {
      client: stranger,
      label: 'mutant: an institution with no part in the payment asks to cancel it',
    });
    await expectCancellationRefused(api, verdicts, 'CXL-01', answer.exchange, {
      refusal: unknownPaymentRefusal(api.profile),
      what: 'the cancellation by an institution with no part in the payment is refused',
      resolve: async (id) => {
        if (id) return awaitCancellationOf(api, { cancellation: id, payment: theirsId }, { client: stranger });
        const byPayment = await awaitCancellationOf(api, { payment: theirsId }, { client: stranger });
        return is2xx(byPayment.exchange) ? byPayment : undefined;
      },
    });
    // One read, not a wait for settlement: a cancellation that was taken shows at once.
    const read = await readStatus(api, theirsId, { label: 'query status: the payment after the refused cancellation' });
    verdicts.require('STS-01', 'the payment’s status is served', hasStatus(read.exchange, [200]));
    verdicts.check('CXL-01', 'the payment is not cancelled by it', notReadAs(read.txSts, 'cancelled', expectations));
    verdicts.check('CXL-01', 'the payment is not rejected by it', notReadAs(read.txSts, 'rejected', expectations));
  });

  // A client's msgIds are unique among its own requests (§2.2's idempotency), not across clients
  // (XCL-01): the other client's payment with the same msgId and txId is never the one a cancellation
  // names, whichever of the two was made first. A cancellation whose batch was already sent is
  // rejected and cancels nothing, whichever payment it found: only a confirmed one shows which payment
  // it took, so the pair is paid and cancelled again until one is (as the right-after cancellations are).
  for (const order of ['theirs first', 'own first'] as const)
    test(`a cancellation of an own payment leaves the other client’s payment with the same msgId and txId alone (${order})`, {
      tag: ['@XCL-01', '@CXL-01', '@CXL-02', '@op:cancel'],
      ...takes({ needs: 'secondClient' }),
    }, async ({ api, verdicts, clients, seed }) => {
      const expectations = api.profile.expectations;
      const other = clients.secondary!;
      const theirsIds: string[] = [];
      let confirmedId: string | undefined;
      for (let attempt = 1; attempt <= CANCEL_ATTEMPTS && !confirmedId; attempt++) {
        // Both to a sort code neither client holds: each payment is its payer's alone.
        const own = withoutScheme(paymentToNoClient(clients, `${seed}-${attempt}-own`));
        const theirs = withoutScheme(paymentToNoClient(clients, `${seed}-${attempt}-theirs`));
        const ids = paymentIds(own);
        theirs.fitoFICstmrCdtTrf.grpHdr.msgId = ids.msgId;
        theirs.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId.txId = ids.txId;
        const payTheirs = () =>
          submitPayment(api, theirs, { client: other, label: 'the other client pays with the same msgId and txId' });
        const theirsFirst = order === 'theirs first' ? await payTheirs() : undefined;
        const ownId = await pay(api, verdicts, clients.primary, own);
        const theirsAnswer = theirsFirst ?? (await payTheirs());
        verdicts.check(
          'XCL-01',
          'the other client reusing a msgId and txId gets a payment of its own, or a refusal',
          ownPaymentOrRefused(theirsAnswer.exchange, theirsAnswer.paymentsServiceId, ownId),
        );
        if (theirsAnswer.exchange.response.status !== 201)
          return verdicts.skip({
            kind: 'not-applicable',
            why: 'the target refused the other client’s payment with the same msgId and txId (XCL-01 allows it): there is no payment of theirs to leave alone',
          });
        theirsIds.push(requireId(api, verdicts, theirsAnswer.exchange));
        const answer = await requestCancellation(api, buildCamt056({ seed: `${seed}-${attempt}`, original: own }), {
          label: 'cancel: the primary cancels its own payment right after paying (camt.056)',
        });
        cancellationAccepted(verdicts, answer);
        const resolution = await awaitCancellationOf(api, { cancellation: answer.paymentsServiceId, payment: ownId });
        if (resolution.outcome === 'confirmed') confirmedId = ownId;
      }
      // Confirmed or rejected, the other client's payment goes its own way: it is never the cancelled one.
      const theirsFinals = await Promise.all(
        theirsIds.map((id) =>
          awaitFinalStatus(api, id, { client: other, label: 'query status of the other client’s payment until final' }),
        ),
      );
      for (const theirsFinal of theirsFinals)
        verdicts.check(
          'XCL-01',
          'the other client’s payment with the same msgId and txId is not cancelled',
          notReadAs(theirsFinal.txSts, 'cancelled', expectations),
        );
      if (!confirmedId) return;
      // Confirmed, it was the canceller's own payment that left its batch (rule 3): read once the other
      // client's payments, paid beside it, are final.
      const ownRead = await readStatus(api, confirmedId, {
        label: 'query status: the own payment whose cancellation was confirmed',
      });
      verdicts.require('STS-01', 'the own payment’s status is served', hasStatus(ownRead.exchange, [200]));
      verdicts.check(
        'CXL-02',
        'the own payment whose cancellation was confirmed does not read accepted',
        notReadAs(ownRead.txSts, 'accepted', expectations),
      );
    });

  test('an institution with no part in a payment cannot read its cancellation', { tag: ['@CXL-07'] }, async ({
    api,
    verdicts,
    clients,
    seed,
  }) => {
    // To a sort code no client holds: the second client is neither the payment's payer nor its beneficiary's.
    const own = withoutScheme(paymentToNoClient(clients, seed));
    const paymentId = await pay(api, verdicts, clients.primary, own);
    const answer = await requestCancellation(api, buildCamt056({ seed, original: own }));
    verdicts.require(
      'CXL-01',
      'the cancellation of an own payment is accepted',
      acceptedInDeclaredShape(answer.exchange, 'CXL-06'),
    );
    const mine = await awaitCancellationOf(api, { cancellation: answer.paymentsServiceId, payment: paymentId });
    resolutionServed(verdicts, mine, 'unknown');
    // By the id it was served under, and by the other one the spec may mean (readCancellationOf).
    const ids = new Set([mine.id, paymentId, ...(answer.paymentsServiceId ? [answer.paymentsServiceId] : [])]);
    for (const id of ids) {
      const foreign = await readCancellation(api, id, { client: clients.secondary! });
      verdicts.check(
        'CXL-07',
        `an institution with no part in the payment is refused its cancellation (by ${id === paymentId ? 'the payment’s id' : 'the cancellation’s id'})`,
        refusedAs(foreign.exchange, 'notFound'),
      );
    }
  });
});

test.describe('cancellation: repeats and shapes', () => {
  test('a repeated cancellation (same assgnmt.id) is idempotent', { tag: ['@CXL-05', '@CXL-01'] }, async ({
    api,
    verdicts,
    clients,
    seed,
  }) => {
    const own = withoutScheme(paymentTo(beneficiaryOf(clients), seed));
    await pay(api, verdicts, clients.primary, own);
    const message = buildCamt056({ seed, original: own });
    const first = await requestCancellation(api, message, { label: 'request cancellation (camt.056)' });
    cancellationAccepted(verdicts, first);
    // The answer is not shown (§4.4): one that names nothing leaves only the repeat's status to judge.
    const id = first.paymentsServiceId;
    const repeat = await requestCancellation(api, message, { label: 'send the same cancellation again' });
    verdicts.check('CXL-01', 'a repeated cancellation gets an answer, never a 5xx', neverServerError(repeat.exchange));
    verdicts.assume(
      'CXL-05',
      'the repeat is answered 200, or as the operation accepts',
      hasStatus(repeat.exchange, repeatStatusOf(api.profile.expectations, 'cancel')),
    );
    // A body the profile reads as any is unchecked (IDEM-04's own test reads each shape).
    if (id !== undefined && ['original', 'id-only'].includes(api.profile.expectations.repeatBody ?? 'original'))
      verdicts.assume('CXL-05', 'the repeat names the same cancellation', namesId(repeat, id));
  });

  test('camt.056 answer and camt.029 follow the declared ISO 20022 shapes', {
    tag: ['@CXL-06', '@CXL-01', '@op:cancel', '@op:cancellationStatus'],
  }, async ({ api, verdicts, clients, seed }) => {
    const own = withoutScheme(paymentTo(beneficiaryOf(clients), seed));
    const paymentId = await pay(api, verdicts, clients.primary, own);
    const answer = await requestCancellation(api, buildCamt056({ seed, original: own }));
    // A 4xx is the declared shape's assumption (CXL-06, below): no evidence about CXL-01 either way.
    if (!is4xx(answer.exchange))
      verdicts.check(
        'CXL-01',
        'a cancellation of an own payment in the declared shape is accepted',
        acceptedAnswer(answer.exchange),
      );
    verdicts.assume(
      'CXL-06',
      'the declared camt.056 shape is accepted with the profile’s status',
      acceptedAs(answer.exchange, 'cancel', api.profile.expectations),
    );
    // Refused: there is no cancellation to read, and the assumption above reports why.
    if (!is2xx(answer.exchange)) return;
    verdicts.assume(
      'CXL-06',
      'a Location header names the cancellation',
      locationNames(answer.exchange, answer.paymentsServiceId),
    );
    // Not shown (§4.4): the answer's shape is the profile's (a data object, its id only, or any that names it).
    const declared = api.profile.expectations.cancelAnswer ?? 'data';
    if (declared === 'data')
      verdicts.assume(
        'CXL-06',
        'the camt.056 answer is a data object naming the cancellation',
        conformsTo(
          cancellationResponseSchema,
          answer.exchange.response.json,
          'data.paymentsServiceId',
          answerOf(answer.exchange),
        ),
      );
    if (declared === 'id-only')
      verdicts.assume('CXL-06', 'the camt.056 answer is {"data":{"paymentsServiceId"}}', {
        ok: namesOnlyItsId(answer.exchange),
        expected: 'data with only paymentsServiceId',
        ...answered(answer.exchange),
      });
    const resolution = await awaitCancellationOf(api, { cancellation: answer.paymentsServiceId, payment: paymentId });
    // Cancelled right after its payment, most likely confirmed: a camt.029 §1 promises for a rejection only.
    verdicts.gate(
      'CXL-06',
      'GET camt029 serves a cancellation that may not be rejected (by its id or the payment’s)',
      acceptedAnswer(resolution.exchange),
    );
    // An answer that names nothing (§4.4 shows none) leaves camt029 to the payment's id (§1 rule 5 names no other).
    if (answer.paymentsServiceId !== undefined)
      verdicts.assume(
        'CXL-06',
        'GET camt029 serves it by the id the camt.056 answer named',
        equals(`camt029/${resolution.id}`, `camt029/${answer.paymentsServiceId}`),
      );
    verdicts.assume('CXL-06', 'GET camt029 answers 200 with the declared root', {
      ok: resolution.exchange.response.status === 200 && resolution.body !== undefined,
      expected: `HTTP 200 with ${api.profile.messages.resolution.root}`,
      ...answered(resolution.exchange),
    });
    if (!resolution.body) return;
    verdicts.assume(
      'CXL-06',
      'the camt.029 content has the declared shape',
      conformsTo(camt029Schema, resolution.body, 'assgnmt, sts.conf, cxlDtls[].txInfAndSts[]'),
    );
    const entry = resolution.body.cxlDtls?.[0]?.txInfAndSts?.[0];
    verdicts.assume('CXL-06', 'camt.029 names the original msgId and txId', {
      ok:
        entry?.orgnlGrpInf?.orgnlMsgId === own.fitoFICstmrCdtTrf.grpHdr.msgId &&
        entry?.orgnlTxId === own.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId.txId,
      expected: 'the original identifiers',
      received: JSON.stringify(entry ?? null),
    });
    verdicts.assume('CXL-06', 'sts.conf is one of the declared codes', {
      ok: resolution.outcome !== 'other',
      expected: [...api.profile.messages.resolution.confirmed, ...api.profile.messages.resolution.rejected].join(
        ' or ',
      ),
      received: String(resolution.conf),
    });
  });
});

test.describe('cancellation: after the payment settled', () => {
  // Rule 4 holds for every cancellation of the payment, not only its first: a second request, with an
  // assgnmt.id of its own, sent after a first one, is rejected the same way. How the first was answered
  // (a 2xx and a rejection in camt.029, or a refusal at once) is no precondition: the spec says rejected, not how.
  for (const c of [
    {
      title:
        'a cancellation of a payment that already reads settled is rejected, and the payment stays settled, two batches later too',
      again: false,
      aBatchLater: true,
      label: 'cancel the settled payment (camt.056)',
    },
    {
      title:
        'a second cancellation of a settled payment, after a first one, is rejected too, and the payment stays settled',
      again: true,
      label: 'cancel the settled payment again, with an assgnmt.id of its own (camt.056)',
    },
    {
      // The first one's rejection already decided: a service that escalates a payer's second request takes it.
      title:
        'a second cancellation of a settled payment, sent once the first was rejected, is rejected too, and the payment stays settled',
      again: true,
      afterDecided: true,
      label: 'cancel the settled payment again, once the first cancellation was decided (camt.056)',
    },
    {
      // Settled a moment ago: its batch was sent all the same. A grace period after settlement is no rule of §1.
      title: 'a cancellation sent as soon as its payment reads settled is rejected, and the payment stays settled',
      again: false,
      justSettled: true,
      label: 'cancel the payment as soon as it reads settled (camt.056)',
    },
    {
      // Part of it went back to the payer by a refund; the batch that held the payment was sent.
      title:
        'a cancellation of a settled payment its beneficiary refunded part of is rejected, and the payment stays settled',
      again: false,
      refunded: true,
      label: 'cancel the settled, partly refunded payment (camt.056)',
    },
    {
      // Its beneficiary's return changes nothing of rule 4: the batch that held the payment was sent.
      title: 'a cancellation of a settled payment its beneficiary returned is rejected, and the payment stays settled',
      again: false,
      returned: true,
      label: 'cancel the settled, returned payment (camt.056)',
    },
    {
      // Rule 4 asks whether the batch "has already been sent", which is the service's to know when the
      // request comes. The assgnmt.creDtTm the camt.056 gives itself (here its payment's own creation
      // time, before the batch) is the assigner's word about when it wrote the message, not the batch's state.
      title:
        'a cancellation of a settled payment, dated (assgnmt.creDtTm) when its payment was made, is rejected, and the payment stays settled',
      again: false,
      backdated: true,
      label: 'cancel the settled payment with a camt.056 dated when the payment was made',
    },
  ])
    test(c.title, {
      tag: ['@CXL-03', '@CXL-04'],
      ...takes(
        ...(c.returned
          ? [{ observation: returnedThenCancelled }]
          : c.refunded
            ? [{ observation: refundedThenCancelled }]
            : c.justSettled
              ? [{ observation: settledCancellations.justSettled }]
              : c.aBatchLater
                ? [{ observation: settledCancellations.aBatchLater }]
                : [{ pool: 'settled' as const, count: 1 }]),
      ),
    }, async ({ api, verdicts, clients, settledOriginals, seed, observe }) => {
      // Cancelled and followed from the worker's start, in the background, where the test would wait a
      // settlement or more: as soon as the payment reads settled, and two batches later.
      const sent = c.justSettled
        ? await observe(settledCancellations.justSettled)
        : c.aBatchLater
          ? await observe(settledCancellations.aBatchLater)
          : undefined;
      // Settled means its batch was sent (§1 rule 4): no batch control needed to know it is too late.
      const [original] = sent
        ? [sent.original]
        : c.returned
          ? [await returnedOriginal(observe, verdicts)]
          : c.refunded
            ? [await refundedOriginal(observe, verdicts)]
            : await settledOriginals({ payer: clients.primary, beneficiary: beneficiaryOf(clients) }, 1);
      if (c.again) {
        const first = await requestCancellation(
          api,
          buildCamt056({ seed: `${seed}-first`, original: original!.message }),
          { label: 'cancel the settled payment a first time (camt.056)' },
        );
        if (c.afterDecided && is2xx(first.exchange))
          await awaitCancellationOf(api, {
            cancellation: first.paymentsServiceId,
            payment: original!.paymentsServiceId,
          });
      }
      const paidAt = new Date(original!.message.fitoFICstmrCdtTrf.grpHdr.creDtTm);
      const answer =
        sent?.answer ??
        (await requestCancellation(
          api,
          buildCamt056({ seed, original: original!.message, ...(c.backdated ? { now: paidAt } : {}) }),
          { label: c.label },
        ));
      verdicts.check(
        'CXL-03',
        'the cancellation of a settled payment gets an answer, never a 5xx',
        neverServerError(answer.exchange),
      );
      if (is2xx(answer.exchange)) {
        const resolution = sent?.resolution
          ? resultOf(sent.resolution)
          : await awaitCancellationOf(api, {
              cancellation: answer.paymentsServiceId,
              payment: original!.paymentsServiceId,
            });
        // Taken, the cancellation of a payment in a sent batch is rejected with a camt.029 (rule 4), which GET camt029 returns (rule 5).
        verdicts.check(
          'CXL-04',
          'GET camt029 serves the rejection of the cancellation (by its id or the payment’s)',
          camt029Served(resolution.exchange),
        );
        if (resolution.body) {
          verdicts.check(
            'CXL-03',
            'camt.029 does not confirm the cancellation of a settled payment',
            notResolvedAs(resolution, 'confirmed', api.profile.messages.resolution.confirmed),
          );
          verdicts.check(
            'CXL-03',
            'camt.029 decides the cancellation of a settled payment: it does not stay pending',
            decidedWithin(resolution, api.profile.polling.timeoutMs),
          );
          verdicts.assume(
            'CXL-06',
            'camt.029 reports the rejection with a declared code',
            resolvedAs(resolution, 'rejected', api.profile.messages.resolution.rejected),
          );
        } else if (is2xx(resolution.exchange))
          // Served, but not under the declared root: whether it rejects the cancellation cannot be read.
          verdicts.assume(
            'CXL-06',
            'camt.029 is served under the declared root (messages.resolution.root)',
            readableResolution(resolution, api.profile.messages.resolution.root),
          );
      }
      /** CXL-03 on one read of the payment (made now, unless made in the background): it still reads settled. */
      const stillSettled = async (label: string, claim: string, made?: StatusRead): Promise<void> => {
        const read = made ?? (await readStatus(api, original!.paymentsServiceId, { label }));
        verdicts.require('STS-01', 'the payment’s status is served', hasStatus(read.exchange, [200]));
        verdicts.check('CXL-03', claim, staysSettled(original!.final.txSts, read.txSts, api.profile.expectations));
      };
      await stillSettled(
        'read the payment after the cancellation request',
        'the payment stays settled',
        sent?.readAfter,
      );
      if (!sent?.controls.length) return;
      // Rejected is rejected for good: two payments paid one after the other, each once the one before
      // settled, settle in two later batches; by then a service that acts on the rejected request after
      // all (a flag left set, a job that retries) has cancelled the first.
      for (const [i, { submission, final }] of sent.controls.entries()) {
        verdicts.require(
          'P8-01',
          `payment ${i + 1} paid after the cancellation is created`,
          hasStatus(submission.exchange, [201]),
        );
        requireId(api, verdicts, submission.exchange);
        if (final) resultOf(final);
      }
      await stillSettled(
        'read the payment once two payments paid after the cancellation settled',
        'the payment stays settled two batches later',
        sent.readLater,
      );
    });
});

/**
 * Payments paid and cancelled at once before every rejection is taken as the target's reading (§1 rule
 * 4). A cancellation comes at least an answer's latency after its payment was taken, plus its wait in
 * a rate-limited client's queue: against a sandbox whose batches leave every few round trips, most
 * attempts come too late, and each one costs a payment, a camt.056 and the reads of its camt.029.
 */
const CANCEL_ATTEMPTS = 8;

/**
 * CXL-02 right after paying: the payment (on `version`, else the profile's first pacs008 version) is
 * cancelled at once until a cancellation is confirmed, then it must never settle and cannot be returned.
 */
async function confirmedRightAfterPaying(
  {
    api,
    verdicts,
    clients,
    seed,
    granted,
  }: { api: Api; verdicts: Verdicts; clients: Clients; seed: string; granted: ReadonlySet<Capability> },
  version?: string,
  reason?: CancellationReason,
): Promise<void> {
  const beneficiary = beneficiaryOf(clients);
  const expectations = api.profile.expectations;
  let confirmed: { payment: Pacs008Message; paymentId: string; paidWith: string } | undefined;
  const rejected: string[] = [];
  for (let attempt = 1; attempt <= CANCEL_ATTEMPTS && !confirmed; attempt++) {
    const payment = withoutScheme(paymentTo(beneficiary, `${seed}-${attempt}`));
    const paymentId = await pay(api, verdicts, clients.primary, payment, version);
    const cancellation = buildCamt056({ seed: `${seed}-${attempt}`, original: payment, ...(reason ? { reason } : {}) });
    const answer = await requestCancellation(api, cancellation, { label: 'cancel: right after paying (camt.056)' });
    verdicts.require(
      'CXL-01',
      'the cancellation of an own payment is accepted',
      acceptedInDeclaredShape(answer.exchange, 'CXL-06'),
    );
    const resolution = resolutionServed(
      verdicts,
      await awaitCancellationOf(api, { cancellation: answer.paymentsServiceId, payment: paymentId }),
      'unknown',
    );
    verdicts.gate('CXL-06', 'camt.029 confirms or rejects with a declared code', {
      ok: resolution.outcome !== 'other',
      received: `sts.conf ${resolution.conf}`,
    });
    if (resolution.outcome === 'confirmed') confirmed = { payment, paymentId, paidWith: `${seed}-${attempt}` };
    else rejected.push(paymentId);
  }
  // Rejected, its batch was sent (rule 4): the payment goes on, and is not cancelled after all.
  const finals = await Promise.all(
    rejected.map((id) =>
      awaitFinalStatus(api, id, { label: 'query status of a payment whose cancellation was rejected' }),
    ),
  );
  for (const final of finals)
    verdicts.check(
      'CXL-03',
      'a payment whose cancellation was rejected is not cancelled',
      notReadAs(final.txSts, 'cancelled', expectations),
    );
  if (!confirmed)
    return verdicts.skip({
      kind: 'not-applicable',
      why: `the target rejected the cancellation of each of ${CANCEL_ATTEMPTS} payments sent right before it: their batches were already sent (§1 rule 4), which leaves rule 3 nothing to judge here`,
    });
  const { payment, paymentId, paidWith } = confirmed;
  /** CXL-02 on one read of the cancelled payment's status. */
  const neverAccepted = async (when: string, claim: string, settled = false): Promise<void> => {
    const read = await readStatus(api, paymentId, { label: `query status: the cancelled payment ${when}` });
    verdicts.require('STS-01', 'the status of the cancelled payment is served', hasStatus(read.exchange, [200]));
    verdicts.check('CXL-02', claim, notReadAs(read.txSts, 'accepted', expectations));
    // Cancelled, it is still §2.4's report of that payment (its reason's addtlInf an array of strings).
    checkStatusReport(verdicts, read.exchange, payment, ` of the cancelled payment ${when}`);
    // Rule 3: "the payment is returned to the payer's account". Once a payment paid after it settled,
    // it is no longer waiting either (which code it ends in, rejected or cancelled, is the target's).
    if (settled)
      verdicts.check(
        'CXL-02',
        'the payment whose cancellation was confirmed is no longer pending',
        notReadAs(read.txSts, 'pending', expectations),
      );
  };
  await neverAccepted(
    'once its cancellation is confirmed',
    'the payment whose cancellation was confirmed does not read accepted',
  );
  // §7 answers a used msgId with 200 whatever became of its payment: the one the cancellation undid is
  // not made again (the control's settlement below would settle it too).
  const again = await submitPayment(api, payment, {
    client: clients.primary,
    label: 'the cancelled payment submitted again (same msgId, fresh SCA)',
    ...(version ? { version } : {}),
  });
  verdicts.check('IDEM-01', 'the cancelled payment submitted again gets 200', hasStatus(again.exchange, [200]));
  verdicts.check(
    'IDEM-02',
    'the cancelled payment submitted again creates no second payment',
    noSecondPayment(again.exchange, again.paymentsServiceId, paymentId),
  );
  // Paid after the cancellation, the control travels in the same batch or a later one: once it is
  // final, the cancelled payment would have settled too. It carries the cancelled payment's data
  // with ids of its own, so that its return below is the valid twin of the cancelled one's.
  const control = withoutScheme(paymentTo(beneficiary, paidWith));
  const controlId = await pay(api, verdicts, clients.primary, control, version);
  // A second one, paid beside it, for the refund's valid twin (a payment partly refunded is returned no
  // more): only where the beneficiary's side is the suite's, as the return and refund below need.
  const refundControl = withoutScheme(paymentTo(beneficiary, `${paidWith}|refund-control`));
  const refundControlId = granted.has('beneficiarySide')
    ? await pay(api, verdicts, clients.primary, refundControl, version)
    : undefined;
  const controlFinal = await awaitFinalStatus(api, controlId, {
    label: 'query status of the control payment (pacs.002)',
  });
  verdicts.require(
    'STS-08',
    'the control payment paid after the cancellation settles',
    endsIn(controlFinal, 'accepted'),
  );
  await neverAccepted(
    'once the control payment settled',
    'the payment whose cancellation was confirmed never settles accepted',
    true,
  );
  // The money is back with the payer: the beneficiary has nothing to return. Its valid twin: the
  // settled control payment, returned by the same beneficiary.
  if (!granted.has('beneficiarySide')) return;
  const twin = await submitReturn(api, returnFor(api, { seed, original: control }), {
    client: beneficiary,
    label: 'valid twin: the beneficiary returns the settled control payment (pacs.004)',
  });
  twinAccepted(verdicts, twin.exchange, { rule: 'RTR-01' });
  const returned = await submitReturn(api, returnFor(api, { seed, original: payment }), {
    client: beneficiary,
    label: 'return: the beneficiary returns the cancelled payment (pacs.004)',
  });
  await expectBusinessRefusal(api, verdicts, 'CXL-02', returned.exchange, {
    settle: finalStatusAs(api, beneficiary),
    what: 'a return of the payment whose cancellation was confirmed is refused',
    unnamedBy: 'RTR-37',
  });
  // Nor part of it by a refund (§1: "send back part of the original amount"): nothing reached the
  // beneficiary to send back. The valid twin: part of the second control payment, refunded by the same beneficiary.
  await awaitFinalStatus(api, refundControlId!, { label: 'query status of the second control payment (pacs.002)' });
  const refundTwin = await submitRefund(api, buildPacs007({ seed, original: refundControl }), {
    client: beneficiary,
    label: 'valid twin: the beneficiary refunds part of the second control payment (pacs.007)',
  });
  twinAccepted(verdicts, refundTwin.exchange, { rule: 'RFD-01' });
  const refunded = await submitRefund(api, buildPacs007({ seed, original: payment }), {
    client: beneficiary,
    label: 'refund: the beneficiary refunds part of the cancelled payment (pacs.007)',
  });
  await expectBusinessRefusal(api, verdicts, 'CXL-02', refunded.exchange, {
    settle: finalStatusAs(api, beneficiary),
    what: 'a refund of the payment whose cancellation was confirmed is refused',
    unnamedBy: 'RFD-07',
  });
}

/** The rules of §2.4's report, which every read of a cancelled payment is held to. */
const REPORT_TAGS = REPORT_RULES.map((rule) => `@${rule}`);

test.describe('cancellation: right after its payment (no batch control)', () => {
  // What a sandbox allows: no say in when a batch is sent, so the cancellation follows its payment at
  // once, where the batch has most likely not been sent. Confirmed (camt.029, the profile's codes),
  // §1 rule 3 returns the payment to the payer: it never settles accepted and the beneficiary cannot
  // return it. Rejected each time, the batches were already sent (rule 4): that conforms, and leaves
  // rule 3 nothing to judge here. An outcome the profile's codes do not name proves nothing.
  test(
    'a cancellation confirmed right after its payment: the payment never settles, its msgId pays nothing again, and it cannot be returned',
    {
      tag: ['@CXL-02', '@CXL-01', '@CXL-03', '@IDEM-01', '@IDEM-02', ...REPORT_TAGS],
    },
    async ({ api, verdicts, clients, seed, granted }) =>
      confirmedRightAfterPaying({ api, verdicts, clients, seed, granted }),
  );

  // §4.4 asks a camt.056 "including the cancellation reason" and shows none of its fields: ISO 20022's
  // CancellationReason33Choice is a code or the assigner's own text (Prtry). Whichever it is, rule 3
  // is the same; a target that takes codes only refuses it, which blocks the test (CXL-06).
  test(
    'a cancellation with a reason of its own (rsn.prtry), confirmed right after its payment: the payment never settles',
    {
      tag: ['@CXL-02', '@CXL-01', '@CXL-03', '@IDEM-01', '@IDEM-02', ...REPORT_TAGS],
    },
    async ({ api, verdicts, clients, seed, granted }) =>
      confirmedRightAfterPaying({ api, verdicts, clients, seed, granted }, undefined, { prtry: 'PAYER REQUEST' }),
  );

  // §4.2 and §9 name POST pacs008/v08 the same operation: a payment made there is cancelled as any.
  test('a cancellation confirmed right after its payment on each further pacs008 version: the payment never settles', {
    tag: ['@CXL-02', '@CXL-01', '@CXL-03', '@IDEM-01', '@IDEM-02', ...REPORT_TAGS],
  }, async ({ api, verdicts, clients, seed, granted, profile }) => {
    const versions = furtherVersions(profile, 'submitPayment');
    if (!versions.length)
      verdicts.skip({
        kind: 'not-applicable',
        why: 'the profile lists one path version of POST pacs008 (operations.submitPayment.versions)',
      });
    for (const version of versions)
      await test.step(`POST pacs008 ${version}`, () =>
        confirmedRightAfterPaying({ api, verdicts, clients, seed: `${seed}-${version}`, granted }, version));
  });
});

test.describe('cancellation: before and after the batch is sent (batchControl)', () => {
  // Each flow ran from the worker's start, in the background, with a fresh manual-batching payer
  // (arrange/observation-catalogue.ts); the test checks what it saw.
  test('flow: cancel before the batch is sent → confirmed, the payment is cancelled and never settles', {
    tag: ['@CXL-02', ...REPORT_TAGS],
    ...takes({ observation: cancelBeforeBatch }),
  }, async ({ api, verdicts, observe }) => {
    const seen = await observe(cancelBeforeBatch);
    cancellationAccepted(verdicts, seen.cancellation, 'the cancellation before the batch is accepted');
    const resolution = resolutionServed(verdicts, seen.resolution, 'unknown');
    verdicts.check(
      'CXL-02',
      'camt.029 does not report a rejection before the batch is sent',
      notResolvedAs(resolution, 'rejected', api.profile.messages.resolution.rejected),
    );
    verdicts.assume(
      'CXL-06',
      'camt.029 confirms with a declared code',
      resolvedAs(resolution, 'confirmed', api.profile.messages.resolution.confirmed),
    );
    const expectations = api.profile.expectations;
    verdicts.require(
      'STS-01',
      'the status of the cancelled payment is served',
      hasStatus(seen.statusAfterCancel.exchange, [200]),
    );
    verdicts.check(
      'CXL-02',
      'the payment cancelled before its batch does not read accepted',
      notReadAs(seen.statusAfterCancel.txSts, 'accepted', expectations),
    );
    // Cancelled, it is still §2.4's report of that payment, before its batch and after.
    checkStatusReport(
      verdicts,
      seen.statusAfterCancel.exchange,
      seen.payment,
      ' of the payment cancelled before its batch',
    );
    verdicts.check('CXL-02', 'the cancelled payment is not in the batch sent afterwards', {
      ok: !seen.sent.includes(seen.paymentId),
      expected: `a batch without ${seen.paymentId}`,
      received: seen.sent.join(', ') || 'nothing',
    });
    // The control payment travelled in the same batch: once it is final, the cancelled one would have settled too.
    verdicts.require('STS-08', 'the control payment of the same batch settles', endsIn(seen.controlFinal, 'accepted'));
    verdicts.require(
      'STS-01',
      'the status of the cancelled payment is served after its batch settled',
      hasStatus(seen.statusAfterSettlement.exchange, [200]),
    );
    // Rule 3 says the payment goes back to the payer, not which code shows it: any but an accepted one.
    verdicts.check(
      'CXL-02',
      'the cancelled payment never settles',
      notReadAs(seen.statusAfterSettlement.txSts, 'accepted', expectations),
    );
    checkStatusReport(
      verdicts,
      seen.statusAfterSettlement.exchange,
      seen.payment,
      ' of the cancelled payment after its batch settled',
    );
  });

  test('cancel after the batch is sent → rejected (camt.029 with a reason), the payment settles', {
    tag: ['@CXL-03', '@CXL-04'],
    ...takes({ observation: cancelAfterBatchSent }),
  }, async ({ api, verdicts, observe }) => {
    const seen = await observe(cancelAfterBatchSent);
    verdicts.checkOrStop('CXL-03', 'the batch holds the payment', {
      ok: seen.sent.includes(seen.paymentId),
      expected: seen.paymentId,
      received: seen.sent.join(', '),
    });
    cancellationAccepted(verdicts, seen.cancellation, 'the cancellation after the batch is answered');
    const resolution = resolutionServed(verdicts, seen.resolution, 'rejected');
    verdicts.check(
      'CXL-03',
      'camt.029 does not confirm a cancellation after the batch was sent',
      notResolvedAs(resolution, 'confirmed', api.profile.messages.resolution.confirmed),
    );
    verdicts.assume('CXL-06', 'camt.029 rejects with a declared code and a reason', {
      ok: resolution.outcome === 'rejected' && resolution.reasons.length > 0,
      expected: `${api.profile.messages.resolution.rejected.join(' or ')} with cxlStsRsnInf`,
      received: `sts.conf ${resolution.conf}, reasons ${resolution.reasons.join(', ') || 'none'}`,
    });
    verdicts.check('CXL-03', 'a payment whose cancellation was rejected settles', endsIn(seen.final, 'accepted'));
  });
});

// AT-05 on the cancellation's two operations, as on the payment's (tests/payments, tests/status):
// a client whose tokens live a few seconds, from the worker's start (observation-catalogue.ts).
test.describe('cancellation: an expired access token', () => {
  test('refuses: an access token used after expires_in — POST camt056', {
    tag: ['@AT-05', '@op:cancel'],
    ...takes({ observation: tokenExpiry.cancel }),
  }, async ({ verdicts, observe, profile }) => {
    test.setTimeout(test.info().timeout + tokenLeewaySeconds(profile) * 1000);
    const seen = await observe(tokenExpiry.cancel);
    verdicts.require(
      'CXL-01',
      'the token cancels a payment before it expires',
      acceptedInDeclaredShape(seen.before, 'CXL-06'),
    );
    verdicts.check(
      'AT-05',
      `the same token is refused after expires_in (${seen.waitedSeconds} s waited)`,
      refusedAs(seen.after, 'unauthenticated'),
    );
  });

  test('refuses: an access token used after expires_in — GET camt029', {
    tag: ['@AT-05', '@op:cancellationStatus'],
    ...takes({ observation: tokenExpiry.cancellationStatus }),
  }, async ({ verdicts, observe, profile }) => {
    test.setTimeout(test.info().timeout + tokenLeewaySeconds(profile) * 1000);
    const seen = await observe(tokenExpiry.cancellationStatus);
    // A confirmed cancellation's camt.029 the spec does not promise: none served blocks (CXL-06).
    verdicts.require('CXL-06', 'the token reads the cancellation before it expires', camt029Served(seen.before));
    verdicts.check(
      'AT-05',
      `the same token is refused after expires_in (${seen.waitedSeconds} s waited)`,
      refusedAs(seen.after, 'unauthenticated'),
    );
  });
});
