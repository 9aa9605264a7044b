/**
 * Return (pacs.004): where §2.5 departs from ISO 20022's pacs.004.001.09 (spec §2.5, §9; the
 * version's XSD is the other authority), each departure is a reading of the target: the valid twin
 * (valid by the spec and by ISO) returns one settled payment and must be accepted, then the same
 * message in the spec's own spelling returns another (cases/pacs004-readings.ts). Accepted or refused
 * as the profile reads it (ISO-02, ISO-03), never a 5xx.
 */
import { test, takes } from '../../fixtures/test';
import { returnReadingCases } from '../../cases/pacs004-readings';
import { applyEdits } from '../../cases/field-rows';
import { creditorNameOf, originalsToReturn, returnFor, submitReturn } from '../../client/flows/returns';
import { answeredAsRead, twinAccepted } from '../../checks/answers';
import { creditorPlaceHeld, otherCreditorPlaceReading } from '../../checks/iso20022';

test.describe('return (pacs.004): §2.5’s spellings where ISO 20022 differs', { tag: '@op:returnPayment' }, () => {
  for (const c of returnReadingCases) {
    test(`refused or accepted, as the profile reads it: ${c.name}`, {
      tag: [`@${c.rule}`, '@ROB-03'],
      ...takes({ pool: 'settled', count: 2, forReturn: true }, { needs: 'returnableOriginal' }),
    }, async ({ api, verdicts, clients, seed, settledOriginals }) => {
      const { returner, originals } = await originalsToReturn(api, clients, settledOriginals, seed, 2);
      const twin = await submitReturn(api, returnFor(api, { seed, original: originals[0]! }), {
        client: returner,
        label: 'valid twin: return the payment (pacs.004)',
      });
      creditorPlaceHeld(verdicts, twin.exchange);
      twinAccepted(verdicts, twin.exchange, {
        rule: 'RTR-01',
        ...(verdicts.originalAssumption ? { refusalBlockedBy: verdicts.originalAssumption } : {}),
      });
      const variant = applyEdits(
        returnFor(api, { seed, original: originals[1]! }),
        c.edits[creditorNameOf(api.profile)],
      );
      const answer = await submitReturn(api, variant, {
        client: returner,
        label: `the same return, ${c.name}`,
        sentAs: 'mutant',
      });
      answeredAsRead(verdicts, api.profile.expectations, {
        rule: c.rule,
        op: 'returnPayment',
        exchange: answer.exchange,
        what: `a return with ${c.name}`,
        ...(c.rule === 'ISO-03' ? { reading: otherCreditorPlaceReading(api.profile.expectations) } : {}),
      });
    });
  }
});
