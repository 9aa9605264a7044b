/**
 * pacs.008 negative catalogue (spec §2.2, §8), generated from the rule table in
 * fixtures/catalogues/pacs008-cases.ts. Each case sends its valid twin first (201, or the case proves
 * nothing), then the mutant, which must be refused: a 4xx for schema rules, and for amount and
 * currency rules either a 4xx or a 201 whose pacs.002 ends rejected.
 */
import { test, expect } from '../../fixtures/test';
import { pacs008Cases } from '../../fixtures/catalogues/pacs008-cases';
import { expectBusinessRefusal, submitPayment } from '../../fixtures/flows';
import { buildPacs008 } from '../../helpers/messages/pacs008';

test.describe('pacs.008 validation: refusals', () => {
  test('the catalogue covers every documented pacs.008 field rule', () => {
    const cited = new Set(pacs008Cases.flatMap((c) => c.rules));
    for (const id of ['P8-06', 'P8-10', 'P8-11', 'P8-12', 'P8-13', 'P8-14', 'P8-15', 'P8-16', 'P8-17', 'P8-18', 'P8-19', 'P8-20', 'P8-21', 'P8-22', 'P8-23', 'P8-24', 'P8-25', 'P8-26', 'P8-27', 'P8-28', 'P8-31']) {
      expect(cited.has(id), `no negative case for ${id}`).toBe(true);
    }
  });

  for (const c of pacs008Cases) {
    test(`refuses: ${c.name}`, { tag: c.rules.map((r) => `@${r}`) }, async ({ api, verdicts, seed }) => {
      const twin = await submitPayment(api, buildPacs008({ seed, ...c.base }), { label: 'valid twin' });
      verdicts.expectStatus(twin.exchange, [201], 'the valid twin must be accepted, or the case proves nothing');
      // Same seeded content, fresh identifiers: the mutant is never an idempotent repeat of the twin.
      const body = structuredClone(buildPacs008({ seed, ...c.base })) as unknown as Record<string, unknown>;
      const mutant = await submitPayment(api, c.mutate(body), { label: `mutant: ${c.name}` });
      if (c.oracle === 'business') await expectBusinessRefusal(api, verdicts, mutant.exchange, { field: c.field });
      else verdicts.expectRefused(mutant.exchange, 'validation', { field: c.field });
    });
  }
});
