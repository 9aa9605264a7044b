/**
 * Return (pacs.004, spec §2.5): the negative catalogue. Each case returns two settled payments of
 * the same seed template: the valid twin returns the first and must be accepted, then the mutant
 * (one rule broken, or one allowed variant) returns the second. The beneficiary's institution returns
 * (§1): the secondary client, or the primary paid at its own sort code; with neither, payments the
 * service never saw, where the profile says it accepts their return (client/flows/returns.ts).
 */
import { test, takes } from '../../fixtures/test';
import { creditorPlaceHeld } from '../../checks/iso20022';
import { allowedReturnVariants, returnCases, type ReturnCase } from '../../cases/pacs004-cases';
import { returnVariants } from '../../arrange/observation-catalogue';
import { resultOf } from '../../arrange/observations';
import { applyEdits } from '../../cases/field-rows';
import { beneficiaryOf, paymentTo } from '../../client/flows/incoming';
import { originalsToReturn, returnFor, submitReturn } from '../../client/flows/returns';
import type { Api } from '../../client/api';
import type { TakeSettled } from '../../arrange/pool';
import type { Pacs004Message } from '../../messages/pacs004';
import type { Pacs008Message } from '../../messages/pacs008';
import type { Clients } from '../../client/target';
import { twinAccepted, acceptedAnswer, endsIn, namesAnId } from '../../checks/answers';
import { businessAnsweredAsRead, expectBusinessRefusal } from '../../checks/payment-answers';
import { finalStatusAs } from '../../client/flows/payment';
import { refusalAssumptions, refusedAs } from '../../checks/refusals';

const verb = (c: ReturnCase): string =>
  c.outcome === 'accepted'
    ? 'accepts'
    : c.outcome === 'reading'
      ? 'refused or accepted, as the profile reads it'
      : 'refuses';

/**
 * Two originals for the twin and the mutant: settled payments the returner received, or payments the
 * service never saw (the case's own choice, or the profile's only way: client/flows/returns.ts).
 */
async function originalsFor(
  c: ReturnCase,
  api: Api,
  take: TakeSettled,
  clients: Clients,
  seed: string,
): Promise<{ originals: [Pacs008Message, Pacs008Message]; recalls: (string | undefined)[]; known: boolean }> {
  const beneficiary = beneficiaryOf(clients);
  if (c.original === 'unknown')
    return { originals: [paymentTo(beneficiary, seed), paymentTo(beneficiary, seed)], recalls: [], known: false };
  const { originals, recalls, known } = await originalsToReturn(api, clients, take, seed, 2, {
    withRejectedCancellation: c.cancellationRequested ?? false,
  });
  return { originals: [originals[0]!, originals[1]!], recalls, known };
}

/**
 * What a case needs to return: a payment the client may return (its own sort code's, the second
 * client's, or one the service never saw where that is accepted); a payment it received, when the
 * rule is about the original itself (its amount, RTR-33) or its cancellation request (rtrdInstdAmt).
 */
const needsOf = (c: ReturnCase) =>
  c.original === 'unknown'
    ? []
    : [
        {
          needs:
            c.cancellationRequested || c.outcome === 'businessRefusal' || c.outcome === 'reading'
              ? ('beneficiarySide' as const)
              : ('returnableOriginal' as const),
        },
      ];

/** What a case's answer is judged by besides its rules: a refusal's status and body, a reading's never-a-5xx. */
const judgedBesides = (c: ReturnCase): string[] =>
  c.outcome === 'accepted' ? [] : c.outcome === 'reading' ? ['ROB-03'] : refusalAssumptions(c.field);

test.describe('return (pacs.004): one rule at a time', { tag: '@op:returnPayment' }, () => {
  for (const c of returnCases.filter((x) => x.outcome !== 'accepted')) {
    const pool =
      c.original === 'unknown'
        ? takes()
        : takes(
            { pool: c.cancellationRequested ? 'settled+cancellation' : 'settled', count: 2, forReturn: true },
            ...needsOf(c),
          );
    test(`${verb(c)}: ${c.name}`, {
      tag: [...c.rules, ...judgedBesides(c)].map((r) => `@${r}`),
      ...pool,
    }, async ({ api, verdicts, clients, seed, profile, settledOriginals }) => {
      if (c.original === 'unknown' && profile.expectations.returnUnknownOriginal !== 'accept') {
        verdicts.skip({
          kind: 'not-applicable',
          why: 'needs a target that accepts returns of payments it does not know (profile expectations.returnUnknownOriginal: accept)',
        });
      }
      const returner = beneficiaryOf(clients);
      const {
        originals: [twinOriginal, mutantOriginal],
        recalls: [twinRecall, mutantRecall],
        known,
      } = await originalsFor(c, api, settledOriginals, clients, seed);

      const twin = returnFor(api, { seed, original: twinOriginal, recall: twinRecall, ...(c.twin ?? {}) });
      const twinAnswer = await submitReturn(api, twin, {
        client: returner,
        label: 'valid twin: return the payment (pacs.004)',
      });
      // The suite chose the original: a refused twin blocks by what the choice rests on (RTR-36 for one the
      // target never saw, INC-06 for the client's own on-us payment), whose own test reports it.
      const chosen = known ? verdicts.originalAssumption : 'RTR-36';
      creditorPlaceHeld(verdicts, twinAnswer.exchange);
      twinAccepted(verdicts, twinAnswer.exchange, { rule: 'RTR-01', ...(chosen ? { refusalBlockedBy: chosen } : {}) });

      // A case may read the twin as it was sent (a reused identifier): twinValue in cases/field-rows.ts.
      const mutant: Pacs004Message = applyEdits(
        returnFor(api, { seed, original: mutantOriginal, recall: mutantRecall, ...(c.twin ?? {}) }),
        c.edits ?? [],
        { twin },
      );
      const answer = await submitReturn(api, mutant, {
        client: returner,
        label: `mutant: ${c.name}`,
        sentAs: 'mutant',
        ...(c.submit ?? {}),
      });

      let rejectedByStatus = false;
      for (const rule of c.rules) {
        switch (c.outcome) {
          case 'accepted':
            throw new Error(`${c.name}: an allowed variant runs with the others of its rule (below)`);
          case 'refused':
            verdicts.check(
              rule,
              `a return with ${c.name} is refused`,
              refusedAs(answer.exchange, c.refusal ?? 'validation', { ...(c.field ? { field: c.field } : {}) }),
            );
            break;
          case 'reading':
            await businessAnsweredAsRead(api, verdicts, rule, answer.exchange, {
              settle: finalStatusAs(api, returner),
              what: `a return with ${c.name}`,
            });
            break;
          case 'businessRefusal':
          case 'either':
            if (
              (await expectBusinessRefusal(api, verdicts, rule, answer.exchange, {
                settle: finalStatusAs(api, returner),
                ...(c.field ? { field: c.field } : {}),
                what: `a return with ${c.name} is refused`,
                unnamedBy: 'RTR-37',
                ...(c.outcome === 'either' ? { either: true as const } : {}),
              })) === 'status'
            )
              rejectedByStatus = true;
            break;
        }
      }
      // A mutant taken and then rejected proves its mutation only if its valid twin settles accepted.
      if (rejectedByStatus) {
        const twinFinal = twinAnswer.paymentsServiceId
          ? await finalStatusAs(api, returner)(twinAnswer.paymentsServiceId)
          : undefined;
        verdicts.require(
          'RTR-01',
          'the valid twin settles accepted (else the mutant’s rejection need not be the mutation’s)',
          endsIn(twinFinal, 'accepted'),
        );
      }
    });
  }
});

/**
 * The variants §2.5 allows, of one rule together: each returns a settled payment of its own, all at
 * once after one valid twin, and each must be accepted and then settle accepted. A return taken with a
 * 2xx and rejected in pacs.002 is not accepted (§7 reports a rejection in txSts). Paid, returned and
 * followed from the worker's start, in the background (arrange/observation-catalogue.ts): the test
 * waits only for what is left of them.
 */
test.describe('return (pacs.004): the variants §2.5 allows', { tag: '@op:returnPayment' }, () => {
  for (const [group, variants] of allowedReturnVariants) {
    const recalled = variants[0]!.cancellationRequested ?? false;
    test(`accepts each allowed variant, and each settles accepted: ${group} (${variants.length} variant${variants.length === 1 ? '' : 's'})`, {
      tag: [...new Set(variants.flatMap((c) => c.rules))].map((r) => `@${r}`),
      ...takes(
        { observation: returnVariants.get(group)! },
        { needs: recalled ? 'beneficiarySide' : 'returnableOriginal' },
      ),
    }, async ({ verdicts, observe }) => {
      const { known, twin, variants: sent } = await observe(returnVariants.get(group)!);
      // As in the catalogue: a refused twin blocks by what the choice of original rests on.
      const chosen = known ? verdicts.originalAssumption : 'RTR-36';
      creditorPlaceHeld(verdicts, twin.exchange);
      twinAccepted(verdicts, twin.exchange, { rule: 'RTR-01', ...(chosen ? { refusalBlockedBy: chosen } : {}) });
      const accepted = variants.flatMap((c, i) =>
        c.rules.every((r) =>
          verdicts.check(r, `a return with ${c.name} is accepted`, acceptedAnswer(sent[i]!.answer.exchange)),
        )
          ? [{ c, ...sent[i]! }]
          : [],
      );
      // The answer's shape is not shown: an id it does not name blocks the rest (RTR-37), it breaks no rule.
      for (const { c, answer } of accepted)
        verdicts.require('RTR-37', `the answer to ${c.name} names its paymentsServiceId`, namesAnId(answer));
      const finals = accepted.map(({ final }) => (final ? resultOf(final) : undefined));
      for (const [k, { c }] of accepted.entries())
        for (const r of c.rules)
          verdicts.check(r, `the return with ${c.name} settles accepted`, endsIn(finals[k], 'accepted'));
    });
  }
});
