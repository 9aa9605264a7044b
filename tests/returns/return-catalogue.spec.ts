/**
 * Return (pacs.004, spec §2.5): the negative catalogue. Each case returns two settled payments of
 * the same seed template: the valid twin returns the first and must be accepted, then the mutant
 * (one rule broken, or one allowed variant) returns the second. The beneficiary's institution (the
 * secondary client) returns: §1 "started by the beneficiary's institution".
 */
import { test, expect } from '../../fixtures/test';
import { returnCases, type ReturnCase } from '../../fixtures/catalogues/pacs004-cases';
import { beneficiaryOf, paymentTo, settledOriginals, submitReturn } from '../../fixtures/flows-beneficiary';
import { expectBusinessRefusal } from '../../fixtures/flows';
import { buildPacs004, type Pacs004Message } from '../../helpers/messages/pacs004';
import type { Pacs008Message } from '../../helpers/messages/pacs008';
import type { Api } from '../../fixtures/api';
import type { Clients } from '../../fixtures/target';

const verb = (c: ReturnCase): string => (c.outcome === 'accepted' ? 'accepts' : 'refuses');

/** Two originals for the twin and the mutant: settled payments, or payments the service never saw. */
async function originalsFor(c: ReturnCase, api: Api, clients: Clients, seed: string): Promise<[Pacs008Message, Pacs008Message]> {
  const beneficiary = beneficiaryOf(clients);
  if (c.original === 'unknown') return [paymentTo(beneficiary, seed), paymentTo(beneficiary, seed)];
  const [a, b] = await settledOriginals(api, { payer: clients.primary, beneficiary, ...(c.cancellationRequested ? { withRejectedCancellation: true } : {}) }, 2);
  return [a!.message, b!.message];
}

test.describe('return (pacs.004): one rule at a time', () => {
  for (const c of returnCases) {
    test(`${verb(c)}: ${c.name}`, { tag: c.rules.map((r) => `@${r}`) }, async ({ api, verdicts, clients, seed, profile }) => {
      test.skip(
        c.original === 'unknown' && profile.expectations.returnUnknownOriginal !== 'accept',
        'needs a target that accepts returns of payments it does not know (profile expectations.returnUnknownOriginal: accept)',
      );
      const returner = beneficiaryOf(clients);
      const [twinOriginal, mutantOriginal] = await originalsFor(c, api, clients, seed);

      const twin = buildPacs004({ seed, original: twinOriginal, ...(c.twin ?? {}) });
      const twinAnswer = await submitReturn(api, twin, { client: returner, label: 'valid twin: return the payment (pacs.004)' });
      verdicts.expectAccepted(twinAnswer.exchange, 'the valid twin must be accepted, or the case proves nothing');

      const mutant: Pacs004Message = buildPacs004({ seed, original: mutantOriginal, ...(c.twin ?? {}) });
      c.mutate?.(mutant);
      const answer = await submitReturn(api, mutant, { client: returner, label: `mutant: ${c.name}`, ...(c.submit ?? {}) });

      switch (c.outcome) {
        case 'accepted':
          verdicts.expectAccepted(answer.exchange, `the allowed variant (${c.name})`);
          expect(answer.paymentsServiceId, 'the accepted return has a paymentsServiceId').toBeTruthy();
          break;
        case 'refused':
          verdicts.expectRefused(answer.exchange, c.refusal ?? 'validation', c.field ? { field: c.field } : {});
          break;
        case 'businessRefusal':
          await expectBusinessRefusal(api, verdicts, answer.exchange, { client: returner, ...(c.field ? { field: c.field } : {}) });
          break;
      }
    });
  }
});
