/**
 * pacs.008 negative catalogue (spec §2.2, §8), generated from the rule table in
 * cases/pacs008-cases.ts. Each case sends its valid twin first (201, or the case proves
 * nothing), then the mutant, which must be refused: a 4xx for schema rules, and for amount and
 * currency rules, and values ISO 20022 allows that only the spec excludes, either a 4xx or a 201 whose
 * pacs.002 ends rejected. A request the spec leaves open (a
 * party without its nm) is asked the same way and judged as the profile reads it.
 */
import { test, takes } from '../../fixtures/test';
import { fieldTwinThenMutant } from '../../arrange/operations';
import { pacs008Cases, pacs008ReadingCases } from '../../cases/pacs008-cases';
import { applyEdits, firstPerKey } from '../../cases/field-rows';
import { submitPayment, finalStatusAs } from '../../client/flows/payment';
import { buildPacs008 } from '../../messages/pacs008';
import { answeredAsRead, twinAccepted } from '../../checks/answers';
import { fieldCaseRefused } from '../../checks/payment-answers';
import { refusalAssumptions } from '../../checks/refusals';

test.describe('pacs.008 validation: refusals', { tag: '@op:submitPayment' }, () => {
  for (const c of pacs008Cases) {
    test(`refuses: ${c.name}`, { tag: [...c.rules, ...refusalAssumptions(c.field)].map((r) => `@${r}`) }, async ({
      api,
      verdicts,
      seed,
    }) => {
      const mutant = await fieldTwinThenMutant(api, verdicts, seed, c);
      await fieldCaseRefused(api, verdicts, c, mutant, finalStatusAs(api));
    });
  }
});

// §2.2's rules are rules of the message, not of its sender: a target that keeps some per client (an
// account's currency, a member's charge codes) may hold the first client to them and not the second.
// The first value case of each field and rule, sent by the other client.
const valueCases = firstPerKey(
  pacs008Cases.filter((c) => c.breaks === 'value'),
  (c) => `${c.field} ${c.rules.join()}`,
);

test.describe('pacs.008 validation: the other client’s payments', { tag: '@op:submitPayment' }, () => {
  for (const c of valueCases) {
    test(`refuses, sent by the other client: ${c.name}`, {
      tag: [...c.rules, ...refusalAssumptions(c.field)].map((r) => `@${r}`),
      ...takes({ needs: 'secondClient' }),
    }, async ({ api, verdicts, seed, clients }) => {
      const client = clients.secondary!;
      const mutant = await fieldTwinThenMutant(api, verdicts, seed, c, { client });
      await fieldCaseRefused(api, verdicts, c, mutant, finalStatusAs(api, client));
    });
  }
});

test.describe('pacs.008: what the spec leaves open', { tag: '@op:submitPayment' }, () => {
  for (const c of pacs008ReadingCases) {
    test(`refused or accepted, as the profile reads it: ${c.name}`, { tag: [`@${c.rule}`, '@ROB-03'] }, async ({
      api,
      verdicts,
      seed,
    }) => {
      const twin = await submitPayment(api, buildPacs008({ seed }), { label: 'valid twin' });
      twinAccepted(verdicts, twin.exchange, { rule: 'P8-01', status: [201] });
      const body = structuredClone(api.asSent('submitPayment', buildPacs008({ seed }))) as unknown as Record<
        string,
        unknown
      >;
      const variant = await submitPayment(api, applyEdits(body, c.edits), { label: c.name, sentAs: 'mutant' });
      answeredAsRead(verdicts, api.profile.expectations, {
        rule: c.rule,
        op: 'submitPayment',
        exchange: variant.exchange,
        what: `a payment with ${c.name}`,
      });
    });
  }
});
