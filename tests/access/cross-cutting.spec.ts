/**
 * Every cross-cutting rule on every operation it governs (spec §4.1–§4.4, §5): the bearer token,
 * X-Client-Id, a JSON answer to Accept: application/json, the Content-Type of a submission, and the
 * SCA JWT of every submitting POST, with the attacks of RFC 8725. Table-driven from the operation
 * drivers (arrange/operations.ts): the valid twin on the same operation first, then one
 * mutation. POST pacs008 runs the full header and SCA catalogue, through its own driver, in
 * tests/payments/headers-and-sca.spec.ts; the other operations here run one case per rule.
 */
import { ABSENT } from '../../transport/jws';
import { test, takes } from '../../fixtures/test';
import {
  OPERATION_DRIVERS,
  repeatThenMutant,
  twinThenMutant,
  twinThenReserialised,
  type OperationDriver,
} from '../../arrange/operations';
import {
  acceptedScaVariants,
  caseTitle,
  documentedRules,
  headerCases,
  everyOperationCases,
  onePerRuleAndKind,
  repeatHeaderCases,
  reserialisations,
  sendsScaToken,
} from '../../cases/sca-cases';
import { jwtAttacks, outOfReach } from '../../cases/jwt-attacks';
import { scaAttackMutant } from '../../cases/mutations';
import { ANSWER_NOT_SHOWN, OPERATION_LABELS, SUBMITTING_OPERATIONS } from '../../ledger/operations';
import { ruleOf } from '../../ledger/rules';
import { SCA_READINGS, scaReadingOn, type ScaReadingOp } from '../../ledger/readings';
import { acceptedAnswer, answeredAsRead, jsonAnswer, neverServerError, refusedAnswer } from '../../checks/answers';
import { readChangedNothing } from '../../checks/created-nothing';
import { refusalAssumptions, refusedAs, scaRefusedOn } from '../../checks/refusals';
import { tokenExpiry } from '../../arrange/observation-catalogue';
import { tokenLeewaySeconds } from '../../profile/profile';

const drivers = Object.values(OPERATION_DRIVERS);
const submitting = (d: OperationDriver): boolean => SUBMITTING_OPERATIONS.includes(d.op);
/** The same case runs on every operation: its title names the operation, so no two read alike in a list. */
const on = (d: OperationDriver, title: string): string => `${title} — ${OPERATION_LABELS[d.op]}`;
/**
 * Reads of the payment status run in the live lane: their valid twin reads the run's one live payment
 * (client/flows/live-lane.ts) and a refusal is proven to have changed nothing. The other operations'
 * twins create a payment, a cancellation, a return or a refund each: real money per test.
 */
const liveSafe = (d: OperationDriver): boolean => d.op === 'paymentStatus';
/** A test of one operation: its rules, what its driver takes and needs, and what the case itself needs. */
const details = (d: OperationDriver, rules: string[], needsOtherClient = false, taken = d.takes) => ({
  tag: [...rules.map((r) => `@${r}`), `@op:${d.op}`, ...(liveSafe(d) ? ['@live-safe'] : [])],
  ...takes(...taken, ...(needsOtherClient ? [{ needs: 'secondClient' as const }] : [])),
});

const accessCases = onePerRuleAndKind(headerCases, 'AT-', { perNeed: true });
/**
 * The live lane's reads try every access case, not one per rule and kind: they cost no payment.
 */
const accessCasesOf = (d: OperationDriver) =>
  liveSafe(d) ? headerCases.filter((c) => documentedRules(c).some((r) => r.startsWith('AT-'))) : accessCases;
const scaCases = everyOperationCases(headerCases, 'SCA-');

for (const driver of drivers) {
  test.describe(`${driver.op}: access`, () => {
    if (driver.op !== 'submitPayment') {
      for (const c of accessCasesOf(driver)) {
        test(
          on(driver, `refuses: ${c.name}`),
          details(driver, [...c.rules, ...refusalAssumptions()], c.needsOtherClient),
          async ({ api, verdicts, clients, seed, settledOriginals }) => {
            const ctx = { api, verdicts, clients, seed, settledOriginals };
            const { send, twin, mutant } = await twinThenMutant(driver, c, ctx);
            const refused = documentedRules(c).filter((rule) =>
              verdicts.check(rule, `${driver.op} is refused: ${c.name}`, refusedAs(mutant, c.refusal)),
            );
            if (liveSafe(driver) && refused.length) {
              const again = await send('after the refusal: the valid twin again');
              for (const rule of refused) readChangedNothing(verdicts, rule, twin, again);
            }
          },
        );
      }
    }

    test(
      on(driver, 'answers Accept: application/json with a JSON body'),
      details(driver, ['AT-06']),
      async ({ api, verdicts, clients, seed, settledOriginals }) => {
        const send = await driver.prepare({ api, verdicts, clients, seed, settledOriginals });
        const answer = await send('a valid request with Accept: application/json');
        driver.acceptTwin(verdicts, answer);
        verdicts.check(
          'AT-06',
          `${driver.op} answers with a JSON body`,
          jsonAnswer(answer, { bodyOptional: ANSWER_NOT_SHOWN.includes(driver.op) }),
        );
      },
    );

    // A body declared text/plain, or declared as nothing ("Headers (all required)", §4.2).
    const declarations = [
      { name: 'a body declared text/plain', contentType: 'text/plain' },
      { name: 'a body with no Content-Type', contentType: ABSENT },
    ] as const;
    if (driver.op !== 'submitPayment' && ruleOf('AT-07').operations.includes(driver.op))
      for (const declared of declarations)
        test(
          on(driver, `refuses: ${declared.name}`),
          details(driver, ['AT-07', ...refusalAssumptions()]),
          async ({ api, verdicts, clients, seed, settledOriginals }) => {
            const send = await driver.prepare({ api, verdicts, clients, seed, settledOriginals });
            driver.acceptTwin(verdicts, await send('valid twin'));
            const mutant = await send(`mutant: the same body, ${declared.name}`, () => ({
              headers: { 'content-type': declared.contentType },
            }));
            verdicts.check(
              'AT-07',
              `${driver.op} refuses a body not declared application/json`,
              refusedAs(mutant, 'mediaType'),
            );
          },
        );
  });
}

// A repeat of a used idempotency key (a msgId; a camt.056's assgnmt.id) is a request like any other:
// the first request, the same bytes again with every header valid, then once more with one credential
// broken. POST pacs008's own are in tests/payments/headers-and-sca.spec.ts.
for (const driver of drivers.filter(submitting)) {
  test.describe(`${driver.op}: a repeat`, () => {
    if (driver.op !== 'submitPayment') {
      for (const c of repeatHeaderCases) {
        const sca = documentedRules(c).some((rule) => rule.startsWith('SCA-'));
        test(
          on(driver, `refuses: a repeat of a used idempotency key with ${c.name}`),
          details(driver, [...c.rules, ...refusalAssumptions()], false, driver.repeatTakes),
          async ({ api, verdicts, clients, seed, settledOriginals }) => {
            if (sca) verdicts.scaGoverns(driver.op, sendsScaToken(c));
            const { mutant } = await repeatThenMutant(driver, c, { api, verdicts, clients, seed, settledOriginals });
            for (const rule of documentedRules(c))
              verdicts.check(
                rule,
                `a repeat on ${driver.op} is refused: ${c.name}`,
                sca ? scaRefusedOn(driver.op, mutant, c.refusal) : refusedAs(mutant, c.refusal),
              );
          },
        );
      }
    }
  });
}

for (const driver of drivers.filter(submitting)) {
  test.describe(`${driver.op}: SCA`, () => {
    if (driver.op !== 'submitPayment') {
      for (const c of scaCases) {
        test(
          on(driver, caseTitle(c)),
          details(driver, [...c.rules, ...(c.reading ? ['ROB-03'] : [])], c.needsOtherClient),
          async ({ api, verdicts, clients, seed, settledOriginals }) => {
            verdicts.scaGoverns(driver.op, sendsScaToken(c));
            const { mutant } = await twinThenMutant(driver, c, { api, verdicts, clients, seed, settledOriginals });
            if (c.reading)
              return answeredAsRead(verdicts, api.profile.expectations, {
                rule: c.reading,
                op: driver.op,
                exchange: mutant,
                what: `${driver.op} with ${c.name}`,
              });
            for (const rule of documentedRules(c))
              verdicts.check(rule, `${driver.op} is refused: ${c.name}`, scaRefusedOn(driver.op, mutant, c.refusal));
          },
        );
      }

      // hd over the exact bytes: a route may hash its own reading of the body where the payment's does not.
      for (const r of reserialisations.filter((x) => x.everyOperation)) {
        test(
          on(driver, `refuses: body ${r.name} after signing the compact bytes`),
          details(driver, ['SCA-09', 'SCA-15']),
          async ({ api, verdicts, clients, seed, settledOriginals }) => {
            verdicts.scaGoverns(driver.op);
            const mutant = await twinThenReserialised(driver, r, { api, verdicts, clients, seed, settledOriginals });
            verdicts.check(
              'SCA-09',
              `${driver.op} refuses a body ${r.name} after signing`,
              scaRefusedOn(driver.op, mutant, 'sca'),
            );
          },
        );
      }

      const scaReading = SCA_READINGS[driver.op as ScaReadingOp];
      if (scaReading) {
        const { rule, message } = scaReading;
        test(
          `a ${message} without sca-token is answered as the profile reads §5.5`,
          details(driver, [rule, 'ROB-03']),
          async ({ api, verdicts, clients, seed, settledOriginals, profile }) => {
            const send = await driver.prepare({ api, verdicts, clients, seed, settledOriginals });
            driver.acceptTwin(verdicts, await send('valid twin'));
            const answer = await send('the same request without sca-token', () => ({ sca: ABSENT }));
            const reading = scaReadingOn(profile.expectations, driver.op)?.reading;
            verdicts.check('ROB-03', `a ${message} without sca-token never gets a 5xx`, neverServerError(answer));
            if (reading === 'required')
              verdicts.assume(rule, `a ${message} without sca-token is refused`, refusedAnswer(answer));
            // Verified when present: not required, so accepted without one (a token sent is judged by the SCA cases above).
            if (reading === 'notRequired' || reading === 'verifiedWhenPresent')
              verdicts.assume(rule, `a ${message} without sca-token is accepted`, acceptedAnswer(answer));
          },
        );
      }

      for (const variant of acceptedScaVariants) {
        test(
          on(driver, `accepted: SCA ${variant.name}`),
          details(driver, variant.rules),
          async ({ api, verdicts, clients, seed, settledOriginals }) => {
            verdicts.scaGoverns(driver.op);
            const send = await driver.prepare({ api, verdicts, clients, seed, settledOriginals });
            driver.acceptTwin(verdicts, await send('valid twin'));
            const answer = await send(`SCA ${variant.name}`, () => variant.options());
            for (const rule of variant.rules)
              verdicts.check(rule, `${driver.op} accepts SCA ${variant.name}`, acceptedAnswer(answer));
          },
        );
      }
    }

    for (const attack of jwtAttacks) {
      test(
        on(driver, `refuses: SCA ${attack.name}`),
        details(driver, [attack.rules.sca, 'SCA-15']),
        async ({ api, verdicts, clients, seed, settledOriginals, loopback }) => {
          const unreachable = outOfReach(attack, api.profile.target);
          if (unreachable) verdicts.skip({ kind: 'not-applicable', why: unreachable });
          verdicts.scaGoverns(driver.op);
          const send = await driver.prepare({ api, verdicts, clients, seed, settledOriginals });
          driver.acceptTwin(verdicts, await send('valid twin'));
          const actor = driver.actor(clients);
          const mutant = await send(`mutant: SCA ${attack.name}`, (body) =>
            scaAttackMutant(attack, actor, body, (name, doc, type) => loopback.host(name, doc, type)),
          );
          verdicts.check(
            attack.rules.sca,
            `${driver.op} refuses an SCA JWT with ${attack.name}`,
            scaRefusedOn(driver.op, mutant, 'sca'),
          );
        },
      );
    }
  });
}

// AT-05 on the beneficiary's operations, as on the payer's (tests/payments, tests/status,
// tests/cancellation): a client whose tokens live a few seconds is paid, then returns, refunds or
// reads the payment with one token before and after its expires_in (observation-catalogue.ts).
for (const op of ['returnPayment', 'refund', 'incomingPayment'] as const) {
  const driver = OPERATION_DRIVERS[op];
  test.describe(`${op}: an expired access token`, () => {
    test(`refuses: an access token used after expires_in — ${OPERATION_LABELS[op]}`, {
      tag: ['@AT-05', `@op:${op}`],
      ...takes({ observation: tokenExpiry[op] }),
    }, async ({ verdicts, observe, profile }) => {
      test.setTimeout(test.info().timeout + tokenLeewaySeconds(profile) * 1000);
      const seen = await observe(tokenExpiry[op]);
      driver.acceptTwin(verdicts, seen.before);
      verdicts.check(
        'AT-05',
        `the same token is refused after expires_in (${seen.waitedSeconds} s waited)`,
        refusedAs(seen.after, 'unauthenticated'),
      );
    });
  });
}
