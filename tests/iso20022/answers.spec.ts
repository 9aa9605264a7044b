/**
 * The target's answers held to ISO 20022 (ISO-01, an assumption): the spec names each message's
 * version (§2, §9) and shows few of their fields; where it is silent the version's official XSD is the
 * contract. Each read operation, at each path version the profile lists, serves a valid message: the
 * pacs.002 status report, the camt.029 resolution, the incoming pacs.008. Reported beside the test, and
 * enforced where the profile says the target's answers are valid ISO (expectations.isoAnswers).
 */
import { test, takes } from '../../fixtures/test';
import { OPERATION_DRIVERS } from '../../arrange/operations';
import { answerHeldToIso } from '../../checks/iso20022';
import { isoMessageOf } from '../../messages/iso20022/versions';
import { loadIsoSchemas } from '../../messages/iso20022/validate';

const readers = ['paymentStatus', 'cancellationStatus', 'incomingPayment'] as const;

test.describe('ISO 20022: the target’s answers', () => {
  for (const op of readers) {
    const driver = OPERATION_DRIVERS[op];
    test(`${op}: every path version serves a message valid under its ISO 20022 XSD`, {
      tag: ['@ISO-01', `@op:${op}`],
      ...takes(...driver.takes),
    }, async ({ api, verdicts, clients, seed, settledOriginals }) => {
      const iso = await loadIsoSchemas();
      const send = await driver.prepare({ api, verdicts, clients, seed, settledOriginals });
      for (const version of api.profile.operations[op]?.versions ?? []) {
        const answer = await send(`read ${op} (${version})`, () => ({ version }));
        driver.acceptTwin(verdicts, answer);
        answerHeldToIso(verdicts, iso, answer, {
          op,
          version,
          what: `the ${isoMessageOf(op, version) ?? op} served at ${version} is valid under its XSD`,
        });
      }
    });
  }
});
