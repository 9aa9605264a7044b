/**
 * Refund (pacs.007, spec §1, §4.4): the beneficiary's institution (the secondary client, or with one
 * client the primary paid at its own sort code where the target reads that as incoming, INC-06) sends
 * back part of a settled payment it received. Several refunds may together reach the full amount, never more;
 * a single refund of the full amount is refused (that is a return). The pacs.007 fields are not
 * shown: the message goes in the shape the profile declares (RFD-07), and a target that refuses that
 * shape blocks these tests instead of failing them; the amount rules are documented.
 */
import { test, takes } from '../../fixtures/test';
import { settledToNoClient } from '../../arrange/operations';
import { repeatStatusOf } from '../../profile/profile';
import {
  type SubmitResult,
  type SettledPayment,
  finalStatusAs,
  readOnFurtherVersions,
  readStatus,
} from '../../client/flows/payment';
import { refusedAs } from '../../checks/refusals';
import { beneficiaryOf, partiesOf } from '../../client/flows/incoming';
import { submitRefund } from '../../client/flows/refunds';
import { paymentToNoClientLifecycle, refundChains, refundToFinal } from '../../arrange/observation-catalogue';
import { refundSplits, type RefundSplitCase, type RefundStep } from '../../cases/refund-cases';
import { answered, type Expectation, type Verdicts } from '../../checks/verdicts';
import {
  acceptedAnswer,
  acceptedAs,
  endsIn,
  hasStatus,
  locationNames,
  namesId,
  neverServerError,
  refusedAnswer,
  statusServed,
  twinAccepted,
  acceptedInDeclaredShape,
  servedUntilFinal,
  statusServedOn,
  namesAnId,
} from '../../checks/answers';
import { dataObjectLikeSubmission } from '../../checks/schema-check';
import { checkReturnOrRefundReport, checkStatusReports, REPORT_RULES } from '../../checks/status-report';
import { is2xx, is4xx } from '../../messages/http-status';
import { namesOnlyItsId } from '../../messages/answers';
import type { Api } from '../../client/api';
import type { Clients } from '../../client/target';
import type { TakeSettled } from '../../arrange/pool';
import type { ClientIdentity } from '../../transport/client-jwts';
import { buildPacs007, PACS007_ROOT, type Pacs007Message } from '../../messages/pacs007';
import { checkMonotonic, echoesMsgId, expectBusinessRefusal } from '../../checks/payment-answers';
import { readingOf } from '../../ledger/readings';

async function refund(
  api: Api,
  refunder: ClientIdentity,
  original: SettledPayment,
  seed: string,
  amount: number | undefined,
  label: string,
  edit?: (message: Pacs007Message) => void,
): Promise<{ message: Pacs007Message; answer: SubmitResult }> {
  const message = buildPacs007({ seed, original: original.message, ...(amount !== undefined ? { amount } : {}) });
  edit?.(message);
  return { message, answer: await submitRefund(api, message, { client: refunder, label }) };
}

/**
 * A valid refund in the declared shape: accepted, or blocked when the target refuses it, by what the
 * refund rests on: the original the suite chose (the client's own on-us payment, INC-06), else the
 * declared shape (RFD-07).
 */
function refundAccepted(
  verdicts: Verdicts,
  rule: string,
  answer: SubmitResult,
  what: string,
  role: 'precondition' | 'assessed' = 'precondition',
): void {
  const accepted = acceptedInDeclaredShape(answer.exchange, verdicts.originalAssumption ?? 'RFD-07');
  if (role === 'assessed') verdicts.checkOrStop(rule, what, accepted);
  else verdicts.require(rule, what, accepted);
}

/** A refund twin: a refusal blocks the test, as refundAccepted says. */
const twinOf = (verdicts: Verdicts) => ({ rule: 'RFD-01', refusalBlockedBy: verdicts.originalAssumption ?? 'RFD-07' });

/**
 * Two settled payments to the beneficiary's institution: the first refunded in part, the valid twin
 * that must be accepted; the second left for the test's one mutation.
 */
async function afterRefundTwin(
  api: Api,
  verdicts: Verdicts,
  clients: Clients,
  seed: string,
  settledOriginals: TakeSettled,
  label: string,
  reversed = false,
): Promise<{ payer: ClientIdentity; refunder: ClientIdentity; original: SettledPayment }> {
  const { payer, beneficiary: refunder } = partiesOf(clients, reversed);
  const [twinOriginal, original] = await settledOriginals({ payer, beneficiary: refunder }, 2);
  const twin = await refund(api, refunder, twinOriginal!, seed, undefined, label);
  twinAccepted(verdicts, twin.answer.exchange, twinOf(verdicts));
  return { payer, refunder, original: original! };
}

const ONE = takes({ pool: 'settled', count: 1 });
const TWO = takes({ pool: 'settled', count: 2 });

test.describe('refund (pacs.007): one refund', () => {
  test('a refund of part of the payment is accepted', { tag: ['@RFD-01'], ...ONE }, async ({
    api,
    verdicts,
    clients,
    seed,
    settledOriginals,
  }) => {
    const refunder = beneficiaryOf(clients);
    const [original] = await settledOriginals({ payer: clients.primary, beneficiary: refunder }, 1);
    const { answer } = await refund(
      api,
      refunder,
      original!,
      seed,
      undefined,
      'refund: part of the payment (pacs.007)',
    );
    refundAccepted(verdicts, 'RFD-01', answer, 'a refund of part of the payment is accepted', 'assessed');
  });

  // The payer, as each client in turn, and an institution new to the run (as for returns, RTR-39;
  // the third needs keyRegistration).
  for (const who of [
    { title: 'only the beneficiary’s institution can refund a payment', by: 'payer', details: TWO },
    {
      title: 'only the beneficiary’s institution can refund a payment — the other client paying',
      by: 'payer',
      reversed: true,
      details: takes({ pool: 'settled-by-secondary', count: 2 }, { needs: 'secondClient' }, { needs: 'ownSortCode' }),
    },
    {
      title: 'an institution with no part in the payment cannot refund it',
      by: 'stranger',
      details: takes({ pool: 'settled', count: 2 }, { needs: 'keyRegistration' }),
    },
  ] as const) {
    test(who.title, { tag: ['@RFD-08'], ...who.details }, async ({
      api,
      verdicts,
      clients,
      seed,
      settledOriginals,
      newClient,
    }) => {
      const { payer, original } = await afterRefundTwin(
        api,
        verdicts,
        clients,
        seed,
        settledOriginals,
        'valid twin: the merchant’s institution refunds part',
        'reversed' in who,
      );
      const refunder = who.by === 'stranger' ? await newClient('stranger') : payer;
      const whose = who.by === 'stranger' ? 'an institution with no part in the payment' : 'the payer’s institution';
      const { answer } = await refund(
        api,
        refunder,
        original,
        seed,
        undefined,
        `mutant: ${whose} (${refunder.role}) tries to refund it`,
      );
      await expectBusinessRefusal(api, verdicts, 'RFD-08', answer.exchange, {
        settle: finalStatusAs(api, refunder),
        what: `a refund by ${whose} is refused`,
        unnamedBy: 'RFD-07',
      });
    });
  }

  // With two clients and no key registration (which the case above needs): a payment to a sort code
  // neither client holds, settled, which the second client, neither its payer nor its beneficiary's
  // institution, tries to refund. Its twin: the same client refunds part of a payment made to it.
  test('an institution with no part in the payment cannot refund it — the other client, of a payment to a sort code no client holds', {
    tag: ['@RFD-08'],
    ...takes({ observation: paymentToNoClientLifecycle }, { pool: 'settled', count: 1 }),
  }, async ({ api, verdicts, clients, seed, observe, settledOriginals }) => {
    const paid = await settledToNoClient(observe, verdicts);
    const { payer, beneficiary: refunder } = partiesOf(clients);
    const [twinOriginal] = await settledOriginals({ payer, beneficiary: refunder }, 1);
    const twin = await refund(
      api,
      refunder,
      twinOriginal!,
      seed,
      undefined,
      'valid twin: the merchant’s institution refunds part',
    );
    twinAccepted(verdicts, twin.answer.exchange, twinOf(verdicts));
    const answer = await submitRefund(api, buildPacs007({ seed, original: paid.message }), {
      client: refunder,
      label: `mutant: the other client (${refunder.role}), with no part in the payment, tries to refund it`,
    });
    await expectBusinessRefusal(api, verdicts, 'RFD-08', answer.exchange, {
      settle: finalStatusAs(api, refunder),
      what: 'a refund by an institution with no part in the payment is refused',
      unnamedBy: 'RFD-07',
    });
  });

  // One refund, nothing refunded before: "less than the original payment" (RFD-02: the full amount is
  // the return flow's; RFD-04: never more than the original in total).
  for (const c of [
    {
      title: 'a single refund of the full amount is refused (the return flow is for that)',
      rule: 'RFD-02',
      amount: (original: number) => original,
      label: 'refund the full amount in one go',
      what: 'a single refund of the full amount is refused',
    },
    {
      title: 'a first refund above the original amount is refused',
      rule: 'RFD-04',
      amount: (original: number) => Math.round(original * 100 + 1) / 100,
      label: 'refund 0.01 more than the payment, nothing refunded before',
      what: 'a refund above the original amount is refused',
    },
    {
      // The limit is the payment's amount, not what the refund's message says it was: here ten times
      // it, so the refund is less than the amount claimed.
      title: 'a first refund above the original amount is refused, its orgnlIntrBkSttlmAmt claiming ten times it',
      rule: 'RFD-04',
      amount: (original: number) => Math.round(original * 100 + 1) / 100,
      label: 'refund 0.01 more than the payment, orgnlIntrBkSttlmAmt ten times the payment',
      what: 'a refund above the original amount is refused whatever orgnlIntrBkSttlmAmt claims',
      edit: (message: Pacs007Message) => {
        const amount = message.fIToFIPmtRvsl.txInf[0]!.orgnlIntrBkSttlmAmt;
        amount.value = Math.round(amount.value * 1000) / 100;
      },
    },
  ]) {
    test(c.title, { tag: [`@${c.rule}`], ...TWO }, async ({ api, verdicts, clients, seed, settledOriginals }) => {
      const { refunder, original } = await afterRefundTwin(
        api,
        verdicts,
        clients,
        seed,
        settledOriginals,
        'valid twin: refund part of another payment',
      );
      const { answer } = await refund(
        api,
        refunder,
        original,
        seed,
        c.amount(original.amount.value),
        c.label,
        'edit' in c ? c.edit : undefined,
      );
      await expectBusinessRefusal(api, verdicts, c.rule, answer.exchange, {
        // Two amounts wrong: a target may name either, so the error is held to no field.
        ...('edit' in c ? {} : { field: 'rvsdIntrBkSttlmAmt' }),
        settle: finalStatusAs(api, refunder),
        what: c.what,
        unnamedBy: 'RFD-07',
      });
    });
  }

  test('a refund of a negative amount is refused', { tag: ['@RFD-10'], ...TWO }, async ({
    api,
    verdicts,
    clients,
    seed,
    settledOriginals,
  }) => {
    const { refunder, original } = await afterRefundTwin(
      api,
      verdicts,
      clients,
      seed,
      settledOriginals,
      'valid twin: refund part of another payment',
    );
    // No reading takes less than nothing as part of the amount, and ISO 20022's XSD allows no
    // negative amount. How the refusal shows is not fixed: §7 reports a rejection "in txSts …
    // not as an HTTP error", so a 4xx and a 2xx that ends rejected both refuse it.
    const message = buildPacs007({ seed, original: original.message, amount: -1 });
    const answer = await submitRefund(api, message, {
      client: refunder,
      label: 'refund a negative amount (-1.00)',
      sentAs: 'mutant',
    });
    await expectBusinessRefusal(api, verdicts, 'RFD-10', answer.exchange, {
      either: true,
      field: 'rvsdIntrBkSttlmAmt',
      settle: finalStatusAs(api, refunder),
      what: 'a refund of a negative amount is refused',
      unnamedBy: 'RFD-07',
    });
  });

  test('a refund repeating a used msgId is idempotent (200, same refund)', {
    tag: ['@RFD-06', '@RFD-01'],
    ...ONE,
  }, async ({ api, verdicts, clients, seed, settledOriginals }) => {
    const refunder = beneficiaryOf(clients);
    const [original] = await settledOriginals({ payer: clients.primary, beneficiary: refunder }, 1);
    const { message, answer } = await refund(
      api,
      refunder,
      original!,
      seed,
      undefined,
      'refund: part of the payment (pacs.007)',
    );
    refundAccepted(verdicts, 'RFD-01', answer, 'the first refund is accepted');
    const repeat = await submitRefund(api, message, { client: refunder, label: 'send the same refund again' });
    verdicts.check('RFD-01', 'a repeated refund gets an answer, never a 5xx', neverServerError(repeat.exchange));
    verdicts.assume(
      'RFD-06',
      'the repeat is answered 200, or as the operation accepts',
      hasStatus(repeat.exchange, repeatStatusOf(api.profile.expectations, 'refund')),
    );
    // A body the profile reads as any is unchecked (IDEM-04's own test reads each shape).
    if (['original', 'id-only'].includes(api.profile.expectations.repeatBody ?? 'original'))
      verdicts.assume('RFD-06', 'the repeat names the first refund', namesId(repeat, answer.paymentsServiceId));
  });

  test('the declared pacs.007 shape is understood and answered with a data object', {
    tag: ['@RFD-07', '@RFD-01', '@RFD-09'],
    ...TWO,
  }, async ({ api, verdicts, clients, seed, settledOriginals }) => {
    const refunder = beneficiaryOf(clients);
    const [original, other] = await settledOriginals({ payer: clients.primary, beneficiary: refunder }, 2);
    const { message, answer } = await refund(
      api,
      refunder,
      original!,
      seed,
      undefined,
      `refund in the declared shape (root ${api.profile.messages.refund.root})`,
    );
    // A refusal of the client's own on-us payment is no evidence about the shape (INC-06 reports it).
    verdicts.originalHeld(answer.exchange);
    // A 4xx is the declared shape's assumption (RFD-07, below): no evidence about RFD-01 either way.
    if (!is4xx(answer.exchange))
      verdicts.check(
        'RFD-01',
        'a refund of part of the payment in the declared shape is accepted',
        acceptedAnswer(answer.exchange),
      );
    verdicts.assume(
      'RFD-07',
      `the declared shape (root ${api.profile.messages.refund.root}) is accepted with the profile’s status`,
      acceptedAs(answer.exchange, 'refund', api.profile.expectations),
    );
    if (!is2xx(answer.exchange)) return;
    verdicts.assume(
      'RFD-07',
      'a Location header names the refund',
      locationNames(answer.exchange, answer.paymentsServiceId),
    );
    // Not shown (§4.4): the answer's shape is the profile's (a data object, its id only, or any that names it).
    const declared = api.profile.expectations.refundAnswer ?? 'data';
    if (declared === 'id-only')
      verdicts.assume('RFD-07', 'the pacs.007 answer is {"data":{"paymentsServiceId"}}', {
        ok: namesOnlyItsId(answer.exchange),
        expected: 'data with only paymentsServiceId',
        ...answered(answer.exchange),
      });
    if (declared === 'data') {
      verdicts.assume(
        'RFD-07',
        'the pacs.007 answer is a §2.3-like data object',
        dataObjectLikeSubmission(answer.exchange),
      );
      echoesMsgId(verdicts, api, answer.exchange, message[PACS007_ROOT].grpHdr.msgId, {
        rule: 'RFD-07',
        assumed: true,
      });
    }
    // The same content under a root no one declared: the spec does not name pacs.007's root, so a target
    // may refuse it or read it as the refund (RFD-09, a reading).
    const renamed = buildPacs007({ seed, original: other!.message });
    const wrongRoot = await api.submit(
      'refund',
      { suiteUnknownRoot: renamed[PACS007_ROOT] },
      { client: refunder, label: 'the refund under a root nobody declared (suiteUnknownRoot)', sentAs: 'mutant' },
    );
    const reading = readingOf(api.profile.expectations, 'RFD-09');
    if (reading !== 'either')
      verdicts.assume(
        'RFD-09',
        `a body under a root nobody declared is ${reading === 'refuse' ? 'refused' : 'read as the refund'}, as the profile reads it`,
        reading === 'refuse' ? refusedAnswer(wrongRoot) : acceptedAnswer(wrongRoot),
      );
  });
});

test.describe('refund (pacs.007): several refunds of one payment', () => {
  for (const c of refundSplits) runSplit(c);
});

/**
 * A chain of refunds on one settled payment: the accepted steps, then the one that must be refused.
 * Sent and followed in the background from the worker's start (the refund chains of
 * arrange/observation-catalogue.ts): the accepted ones are followed to their final status, together,
 * before the refused step is sent and at the end. A refund the target takes and then rejects is not accepted.
 */
function runSplit(c: RefundSplitCase): void {
  test(`flow: ${c.name}`, {
    tag: c.rules.map((r) => `@${r}`),
    ...takes({ observation: refundChains.get(c.name)! }),
  }, async ({ api, verdicts, clients, observe }) => {
    const refunder = beneficiaryOf(clients);
    const { original, steps } = await observe(refundChains.get(c.name)!);
    verdicts.originalHeld(steps[0]!.answer.exchange);
    const of = (step: RefundStep, i: number): string => `refund ${i + 1} of ${step.value.toFixed(2)}`;
    // A step's rule is assessed where the case cites it, else it is a precondition of the case's.
    const judge = (step: RefundStep, what: string, expectation: Expectation): void => {
      if (c.rules.includes(step.rule)) verdicts.check(step.rule, what, expectation);
      else verdicts.require(step.rule, what, expectation);
    };
    const amounts = c.amounts(original.amount.value);
    // Until one refund in the declared shape is accepted, a refusal may be the shape's (RFD-07).
    const firstAccepted = amounts.findIndex((step) => step.expect === 'accepted');
    for (const [i, step] of amounts.entries()) {
      const { answer, final } = steps[i]!;
      if (step.expect === 'refused') {
        await expectBusinessRefusal(api, verdicts, step.rule, answer.exchange, {
          field: 'rvsdIntrBkSttlmAmt',
          settle: finalStatusAs(api, refunder),
          what: `${of(step, i)} is refused`,
          unnamedBy: 'RFD-07',
        });
        continue;
      }
      // Once a refund in the declared shape was accepted, a refusal of the next is no shape problem: evidence.
      if (i === firstAccepted)
        refundAccepted(
          verdicts,
          step.rule,
          answer,
          `${of(step, i)} is accepted`,
          c.rules.includes(step.rule) ? 'assessed' : 'precondition',
        );
      else judge(step, `${of(step, i)} is accepted`, acceptedAnswer(answer.exchange));
      // The answer's shape is not shown: an id it does not name blocks the chain (RFD-07), it breaks no rule.
      verdicts.require('RFD-07', `${of(step, i)}: the answer names its paymentsServiceId`, namesAnId(answer));
      judge(step, `${of(step, i)} ends accepted`, endsIn(final, 'accepted'));
    }
  });
}

// Last in the file: its refund settles two settlement delays after the worker started (the payment,
// then the refund), so the later it runs the less it waits.
test.describe('refund (pacs.007): status', () => {
  test('the status of a refund is served by pacs.002, reaches accepted, and is no stranger’s to read', {
    tag: ['@RFD-05', '@RFD-01', '@STS-13', '@STS-10', ...REPORT_RULES.map((rule) => `@${rule}`)],
    ...takes({ observation: refundToFinal }),
  }, async ({ api, verdicts, clients, observe, granted, newClient }) => {
    // Paid, settled, refunded and followed from the worker's start, in the background.
    const { answer, final, original, originalReads, sentMsgId } = await observe(refundToFinal);
    verdicts.originalHeld(answer.exchange, final?.statusClass === 'rejected' ? final.history.join(' → ') : undefined);
    refundAccepted(verdicts, 'RFD-01', answer, 'a partial refund is accepted');
    // The answer's shape is not shown: an id it does not name blocks the test (RFD-07), it breaks no rule.
    verdicts.require('RFD-07', 'the refund’s answer names its paymentsServiceId', statusServed(final, answer.exchange));
    verdicts.check('RFD-05', 'the refund’s status is served until final', servedUntilFinal(final));
    // §4.3: the same operation "serves the status of payments, returns and refunds": §2.4's report.
    if (final)
      checkReturnOrRefundReport(
        verdicts,
        final.last,
        { kind: 'refund', msgId: sentMsgId },
        'the refund’s final status report',
      );
    // The payment stays settled while its refund is pending and once it is final: §3's final codes stay final.
    checkMonotonic(verdicts, api, [...original.final.history, ...originalReads.flatMap((r) => r.txSts ?? [])]);
    checkStatusReports(verdicts, originalReads, original.message, ' of the payment while and once it is refunded');
    verdicts.check('RFD-01', 'the refund settles accepted', endsIn(final, 'accepted'));
    // §4.3 names GET pacs002/v10 the same operation: "It serves the status of payments, returns and refunds".
    for (const { version, read } of await readOnFurtherVersions(api, answer.paymentsServiceId!, {
      client: beneficiaryOf(clients),
    })) {
      verdicts.check('RFD-05', `the refund’s status is served on ${version} too`, statusServedOn(version, read));
      checkReturnOrRefundReport(
        verdicts,
        read.exchange,
        { kind: 'refund', msgId: sentMsgId },
        `the refund’s status report on ${version}`,
      );
    }
    // §1: a refund's status is read with pacs.002, as a payment's; an institution new to the run is no
    // party to it (STS-13), as it is none to a payment.
    if (granted.has('keyRegistration')) {
      const stranger = await newClient('stranger');
      const read = await readStatus(api, answer.paymentsServiceId!, {
        client: stranger,
        label: 'an institution with no part in the refund reads its status',
      });
      verdicts.check('STS-13', 'it is refused the refund’s status', refusedAs(read.exchange, 'notFound'));
    }
  });
});
