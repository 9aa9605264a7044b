/**
 * pacs.008 negative catalogue (spec §2.2, §8), generated from the rule table in
 * cases/pacs008-cases.ts. Each case sends its valid twin first (201, or the case proves
 * nothing), then the mutant, which must be refused: a 4xx for schema rules, and for amount and
 * currency rules either a 4xx or a 201 whose pacs.002 ends rejected.
 */
import { test } from '../../fixtures/test';
import { pacs008Cases } from '../../cases/pacs008-cases';
import { applyEdits } from '../../cases/field-rows';
import { submitPayment, finalStatusAs } from '../../client/flows/payment';
import { buildPacs008 } from '../../messages/pacs008';
import { twinAccepted } from '../../checks/answers';
import { expectBusinessRefusal } from '../../checks/payment-answers';
import { refusalAssumptions, refusedAs } from '../../checks/refusals';

test.describe('pacs.008 validation: refusals', { tag: '@op:submitPayment' }, () => {
  for (const c of pacs008Cases) {
    test(`refuses: ${c.name}`, { tag: [...c.rules, ...refusalAssumptions(c.field)].map((r) => `@${r}`) }, async ({
      api,
      verdicts,
      seed,
    }) => {
      const twin = await submitPayment(api, buildPacs008({ seed, ...c.base }), { label: 'valid twin' });
      twinAccepted(verdicts, twin.exchange, { rule: 'P8-01', status: [201] });
      // Same seeded content, fresh identifiers: the mutant is never an idempotent repeat of the twin.
      const body = structuredClone(buildPacs008({ seed, ...c.base })) as unknown as Record<string, unknown>;
      const mutant = await submitPayment(api, applyEdits(body, c.edits), {
        label: `mutant: ${c.name}`,
        sentAs: 'mutant',
      });
      for (const rule of c.rules) {
        const what = `a submission with ${c.name} is refused`;
        if (c.oracle === 'business')
          await expectBusinessRefusal(api, verdicts, rule, mutant.exchange, {
            field: c.field,
            settle: finalStatusAs(api),
            what,
          });
        else verdicts.check(rule, what, refusedAs(mutant.exchange, 'validation', { field: c.field }));
      }
    });
  }
});
