/**
 * Every path version the profile lists is the same operation: §4.2 "In the flow description the same
 * operation is named POST /pacs008/v08 (message pacs.008.001.08)", and §4.3 the same of GET
 * pacs002/v10. So every rule of the operation holds on each of its versions, and a server that checks
 * the access token, the SCA JWT, a field or the payer's ownership on one route of the operation only
 * breaks the rule on the other.
 *
 * The full catalogues run on each operation's first version (tests/access, tests/payments,
 * tests/status); here one case per rule runs on every further version the profile lists, each as
 * everywhere: its valid twin on the same version first, then one mutation. A profile that lists one
 * version of the operation has nothing further to check.
 */
import { randomUUID } from 'node:crypto';
import { test, takes } from '../../fixtures/test';
import { beneficiaryOf } from '../../client/flows/incoming';
import {
  atVersion,
  fieldTwinThenMutant,
  OPERATION_DRIVERS,
  twinThenMutant,
  twinThenReserialised,
  type OperationDriver,
} from '../../arrange/operations';
import {
  acceptedScaVariants,
  documentedRules,
  everyOperationCases,
  headerCases,
  onePerRuleAndKind,
  reserialisations,
} from '../../cases/sca-cases';
import { pacs008Cases } from '../../cases/pacs008-cases';
import { firstPerKey } from '../../cases/field-rows';
import { robustnessCases } from '../../cases/robustness-cases';
import { judgeUnusualBody, rulesOfCase, titleOfCase } from '../../checks/robustness-oracle';
import { RawBody } from '../../client/api';
import { OPERATION_LABELS } from '../../ledger/operations';
import { furtherVersions } from '../../profile/profile';
import { buildPacs008, paymentTransaction } from '../../messages/pacs008';
import {
  awaitFinalStatus,
  finalStatusAs,
  readStatus,
  StillNotFinal,
  submitPayment,
  type SettledPayment,
} from '../../client/flows/payment';
import { paymentToRead } from '../../client/flows/live-lane';
import { attempt, resultOf } from '../../arrange/observations';
import { incomingOnFurtherVersions } from '../../arrange/observation-catalogue';
import { acceptedAnswer, endsIn, holds, twinAccepted, hasStatus, noSecondPayment } from '../../checks/answers';
import type { Verdicts } from '../../checks/verdicts';
import { checkMonotonic, fieldCaseRefused, incomingTransaction, requireId } from '../../checks/payment-answers';
import { checkStatusReport, REPORT_RULES } from '../../checks/status-report';
import { refusedAs, scaRefusedOn } from '../../checks/refusals';

import type { Profile } from '../../profile/profile';
import type { Operation } from '../../ledger/operations';

type VersionedOp = Extract<Operation, 'submitPayment' | 'paymentStatus'>;

/**
 * Runs `body` once per further version of `op`, each in a step of its own; with none, the test is
 * not applicable to the profile.
 */
async function onEachFurtherVersion(
  profile: Profile,
  verdicts: Verdicts,
  op: VersionedOp,
  body: (version: string) => Promise<void>,
): Promise<void> {
  const versions = furtherVersions(profile, op);
  if (!versions.length)
    verdicts.skip({
      kind: 'not-applicable',
      why: `the profile lists one path version of ${OPERATION_LABELS[op]} (operations.${op}.versions)`,
    });
  for (const version of versions) await test.step(`${OPERATION_LABELS[op]} ${version}`, () => body(version));
}

/**
 * Discovery asks the first version only: a further version's route may refuse with its own status and
 * error body, which no profile field holds. Its refusals are held to what the spec documents, a 4xx.
 */
const ONLY = { documentedOnly: true } as const;

const on = (op: VersionedOp, title: string): string => `${title} — ${OPERATION_LABELS[op]}, every further version`;
/** A test's tags, and the second client a case that swaps two clients' headers needs (skipped without one). */
const tagsOf = (op: VersionedOp, rules: readonly string[], liveSafe = false, needsOtherClient = false) => ({
  tag: [...new Set(rules)].map((r) => `@${r}`).concat(`@op:${op}`, ...(liveSafe ? ['@live-safe'] : [])),
  ...(needsOtherClient ? takes({ needs: 'secondClient' }) : {}),
});

const accessCases = onePerRuleAndKind(headerCases, 'AT-', { perNeed: true });
// With the cases a route gets wrong on its own (another client's whole JWT, HS256 keyed with the public key).
const scaCases = everyOperationCases(headerCases, 'SCA-').filter((c) => c.reading === undefined);
/**
 * Of each field of §2.2's table, the first case of each kind and rule: a missing field or a wrong type,
 * and where the field has one a value each of its rules excludes (another currency, a zero amount, a
 * total that is not the sum, a second transaction). Per field, not per rule alone: one rule may cover several fields (pmtId's endToEndId and
 * txId; rmtInf's ustrd and strd), and a route that checks a field the other route checks is a route
 * apart. And every required field removed.
 */
const removesOneField = (c: (typeof pacs008Cases)[number]): boolean => c.edits.length === 1 && 'remove' in c.edits[0]!;
const fieldOf = (c: (typeof pacs008Cases)[number]): string => c.edits[0]?.path ?? c.rules[0]!;
const firstOfEachField = new Set(firstPerKey(pacs008Cases, (c) => `${fieldOf(c)} ${c.breaks} ${c.rules[0]}`));
// And every value of the money rules (amounts, currencies, the total): a route that refuses a zero
// amount may take a negative one.
const fieldCases = pacs008Cases.filter((c) => removesOneField(c) || firstOfEachField.has(c) || c.oracle === 'business');

const versioned: readonly OperationDriver[] = [OPERATION_DRIVERS.submitPayment, OPERATION_DRIVERS.paymentStatus];

for (const driver of versioned) {
  const op = driver.op as VersionedOp;
  test.describe(`${OPERATION_LABELS[op]} on every further path version: access`, () => {
    for (const c of accessCases) {
      test(
        on(op, `refuses: ${c.name}`),
        tagsOf(op, [...c.rules], false, c.needsOtherClient),
        async ({ api, verdicts, clients, seed, settledOriginals, profile }) => {
          await onEachFurtherVersion(profile, verdicts, op, async (version) => {
            const ctx = { api, verdicts, clients, seed: `${seed}-${version}`, settledOriginals };
            const { mutant } = await twinThenMutant(atVersion(driver, version), c, ctx);
            for (const rule of documentedRules(c))
              verdicts.check(
                rule,
                `${OPERATION_LABELS[op]} ${version} refuses ${c.name}`,
                refusedAs(mutant, c.refusal, ONLY),
              );
          });
        },
      );
    }
  });
}

test.describe('POST pacs008 on every further path version: SCA', () => {
  const driver = OPERATION_DRIVERS.submitPayment;
  for (const c of scaCases) {
    test(
      on('submitPayment', `refuses: ${c.name}`),
      tagsOf('submitPayment', c.rules, false, c.needsOtherClient),
      async ({ api, verdicts, clients, seed, settledOriginals, profile }) => {
        await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
          const ctx = { api, verdicts, clients, seed: `${seed}-${version}`, settledOriginals };
          const { mutant } = await twinThenMutant(atVersion(driver, version), c, ctx);
          for (const rule of documentedRules(c))
            verdicts.check(
              rule,
              `POST pacs008 ${version} refuses ${c.name}`,
              scaRefusedOn('submitPayment', mutant, c.refusal, ONLY),
            );
        });
      },
    );
  }
});

// §5's optional claims are optional on each route: a route that knows only the required claims refuses them.
test.describe('POST pacs008 on every further path version: SCA optional claims', () => {
  const driver = OPERATION_DRIVERS.submitPayment;
  for (const variant of acceptedScaVariants) {
    test(
      on('submitPayment', `accepted: SCA ${variant.name}`),
      tagsOf('submitPayment', variant.rules),
      async ({ api, verdicts, clients, seed, settledOriginals, profile }) => {
        await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
          const ctx = { api, verdicts, clients, seed: `${seed}-${version}`, settledOriginals };
          const send = await atVersion(driver, version).prepare(ctx);
          const answer = await send(`SCA ${variant.name} (POST pacs008 ${version})`, () => variant.options());
          for (const rule of variant.rules)
            verdicts.check(
              rule,
              `POST pacs008 ${version} creates a submission with SCA ${variant.name}`,
              hasStatus(answer, [201]),
            );
        });
      },
    );
  }
});

test.describe('POST pacs008 on every further path version: hd over the exact bytes', () => {
  const driver = OPERATION_DRIVERS.submitPayment;
  for (const r of reserialisations.filter((x) => x.everyOperation)) {
    test(
      on('submitPayment', `refuses: body ${r.name} after signing the compact bytes`),
      tagsOf('submitPayment', ['SCA-09', 'SCA-15']),
      async ({ api, verdicts, clients, seed, settledOriginals, profile }) => {
        await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
          const ctx = { api, verdicts, clients, seed: `${seed}-${version}`, settledOriginals };
          const mutant = await twinThenReserialised(atVersion(driver, version), r, ctx);
          verdicts.check(
            'SCA-09',
            `POST pacs008 ${version} refuses a body ${r.name} after signing`,
            scaRefusedOn('submitPayment', mutant, 'sca', ONLY),
          );
        });
      },
    );
  }
});

// §4.2 names POST pacs008/v08 the same operation: a payment made there reaches its beneficiary's
// institution as any does (§1's incoming flow), its amount as sent.
test.describe('POST pacs008 on every further path version: the beneficiary', () => {
  // Paid, settled and read from the worker's start, in the background (a settlement per version).
  test(on('submitPayment', 'a payment made there is read incoming by its beneficiary, its amount as sent'), {
    ...tagsOf('submitPayment', ['INC-02', 'INC-05', 'P8-01', 'STS-08']),
    ...takes({ observation: incomingOnFurtherVersions }),
  }, async ({ api, verdicts, profile, observe }) => {
    const made = await observe(incomingOnFurtherVersions);
    await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
      const { message, paid, final, read: attempted } = made[version]!;
      verdicts.require('P8-01', `the payment made on ${version} is created`, hasStatus(paid.exchange, [201]));
      requireId(api, verdicts, paid.exchange);
      verdicts.require(
        'STS-08',
        `the payment made on ${version} settles accepted`,
        endsIn(resultOf(final!), 'accepted'),
      );
      const read = resultOf(attempted!);
      verdicts.originalHeld(read);
      verdicts.check(
        'INC-02',
        `the beneficiary reads the payment made on ${version}`,
        acceptedAnswer(read, { rule: 'INC-05', status: 200 }),
      );
      const seen = incomingTransaction(api, verdicts, read);
      verdicts.check(
        'INC-02',
        `the amount A sent on ${version}`,
        holds(seen.intrBkSttlmAmt, paymentTransaction(message).intrBkSttlmAmt),
      );
    });
  });
});

test.describe('POST pacs008 on every further path version: the fields of §2.2', () => {
  for (const c of fieldCases) {
    test(
      on('submitPayment', `refuses: ${c.name}`),
      tagsOf('submitPayment', [...c.rules]),
      async ({ api, verdicts, seed, profile }) => {
        await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
          const mutant = await fieldTwinThenMutant(api, verdicts, `${seed}-${version}`, c, { version });
          await fieldCaseRefused(api, verdicts, c, mutant, finalStatusAs(api), ONLY);
        });
      },
    );
  }
});

test.describe('POST pacs008 on every further path version: idempotency', () => {
  test(
    on('submitPayment', 'a repeat of a used msgId gets 200'),
    tagsOf('submitPayment', ['IDEM-01']),
    async ({ api, verdicts, seed, profile }) => {
      await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
        const message = buildPacs008({ seed: `${seed}-${version}` });
        const first = await submitPayment(api, message, { label: 'first submission', version });
        verdicts.require('P8-01', 'the first submission is created', hasStatus(first.exchange, [201]));
        const repeat = await submitPayment(api, message, { label: 'the same message again (fresh SCA)', version });
        verdicts.check('IDEM-01', `the repeat on ${version} gets 200`, hasStatus(repeat.exchange, [200]));
      });
    },
  );

  // §4.2: POST /pacs008/v08 is "the same operation" as v10, and msgId is "used for idempotency":
  // a message paid on one path is not paid again on the other. Whether the repeat is answered 200 or
  // refused (another message version) the spec does not say; a second payment it rules out.
  test(
    on('submitPayment', 'a message paid on the first version is not paid again on another'),
    tagsOf('submitPayment', ['IDEM-02']),
    async ({ api, verdicts, seed, profile }) => {
      const message = buildPacs008({ seed });
      const first = await submitPayment(api, message, { label: 'first submission, on the first version' });
      verdicts.require('P8-01', 'the first submission is created', hasStatus(first.exchange, [201]));
      await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
        const repeat = await submitPayment(api, message, { label: `the same message on ${version}`, version });
        verdicts.check(
          'IDEM-02',
          `the same msgId on ${version} creates no second payment (no 201)`,
          noSecondPayment(repeat.exchange, repeat.paymentsServiceId, first.paymentsServiceId),
        );
      });
    },
  );
});

test.describe('GET pacs002 on every further path version: who reads what', () => {
  test(
    on('paymentStatus', "a client cannot read another client's payment status"),
    tagsOf('paymentStatus', ['STS-13']),
    async ({ api, verdicts, seed, clients, profile }) => {
      await onEachFurtherVersion(profile, verdicts, 'paymentStatus', async (version) => {
        const { id } = await paymentToRead(api, verdicts, `${seed}-${version}`);
        const own = await readStatus(api, id, { label: 'valid twin: the submitting client reads it', version });
        twinAccepted(verdicts, own.exchange, { rule: 'STS-01', status: [200] });
        const foreign = await readStatus(api, id, {
          client: clients.secondary!,
          label: 'the secondary client reads it',
          version,
        });
        verdicts.check(
          'STS-13',
          `another client is refused the status on ${version}`,
          refusedAs(foreign.exchange, 'notFound', ONLY),
        );
      });
    },
  );

  test(
    on('paymentStatus', 'an unknown paymentsServiceId is not served'),
    tagsOf('paymentStatus', ['STS-12'], true),
    async ({ api, verdicts, seed, profile }) => {
      await onEachFurtherVersion(profile, verdicts, 'paymentStatus', async (version) => {
        const { id } = await paymentToRead(api, verdicts, `${seed}-${version}`);
        const own = await readStatus(api, id, { label: 'valid twin: a known id', version });
        twinAccepted(verdicts, own.exchange, { rule: 'STS-01', status: [200] });
        const unknown = randomUUID();
        const read = await readStatus(api, unknown, { label: `unknown id ${unknown}`, version });
        verdicts.check(
          'STS-12',
          `an unknown id is not served on ${version}`,
          refusedAs(read.exchange, 'notFound', ONLY),
        );
      });
    },
  );
});

/**
 * A route parses its own body: the bodies that are not the message (ROB-01) and the message declared
 * text/plain (AT-07), each after the version's valid twin. An answer that takes one breaks the rule
 * however it is shaped.
 */
const bodyCases = robustnessCases.filter((c) => c.kind === 'malformed' || c.contentType === 'text/plain');

test.describe('POST pacs008 on every further path version: bodies that are not the message', () => {
  for (const c of bodyCases) {
    test(
      on('submitPayment', titleOfCase(c)),
      tagsOf('submitPayment', rulesOfCase(c)),
      async ({ api, verdicts, seed, profile }) => {
        await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
          const twin = await submitPayment(api, buildPacs008({ seed: `${seed}-${version}` }), {
            label: `valid twin on ${version}`,
            version,
          });
          twinAccepted(verdicts, twin.exchange, { rule: 'P8-01', status: [201] });
          const message = api.asSent('submitPayment', buildPacs008({ seed: `${seed}-${version}` }));
          const bytes = c.body(JSON.stringify(message), 'fitoFICstmrCdtTrf');
          const { exchange } = await submitPayment(api, new RawBody(bytes), {
            ...(c.contentType ? { headers: { 'content-type': c.contentType } } : {}),
            label: `unusual body: ${c.name}`,
            sentAs: 'mutant',
            version,
          });
          judgeUnusualBody(verdicts, api.profile, c, exchange, `POST pacs008 ${version}`);
        });
      },
    );
  }
});

test.describe('GET pacs002 on every further path version: a final status', () => {
  // A settled payment of the pool, followed to its final status on the default version before the
  // test, then read twice on each further one: §3's final codes stay final and of their class, whichever path reads them.
  test(on('paymentStatus', 'a final status reads final'), {
    ...tagsOf('paymentStatus', ['STS-10']),
    ...takes({ pool: 'settled', count: 1 }),
  }, async ({ api, verdicts, clients, profile, settledOriginals }) => {
    let payment: SettledPayment | undefined;
    await onEachFurtherVersion(profile, verdicts, 'paymentStatus', async (version) => {
      payment ??= (await settledOriginals({ payer: clients.primary, beneficiary: beneficiaryOf(clients) }, 1))[0]!;
      const { paymentsServiceId: id, final } = payment;
      const later: string[] = [];
      for (const n of [1, 2])
        later.push(
          (await readStatus(api, id, { label: `read ${n} on ${version} after the final status`, version })).txSts ??
            '(none)',
        );
      checkMonotonic(verdicts, api, [...final.history, ...later]);
    });
  });
});

// A payment read on a further version from its submission on: that route serves the status as it
// moves (§4.3 names GET pacs002/v10 the same operation), not the first answer it gave. The default
// version reads it settled first; followed on the further one, it ends accepted there too.
test.describe('GET pacs002 on every further path version: a status that moves', () => {
  test(on('paymentStatus', 'a payment read there while pending is read there settled once it settled'), {
    ...tagsOf('paymentStatus', ['STS-08', 'P8-01']),
  }, async ({ api, verdicts, seed, profile }) => {
    await onEachFurtherVersion(profile, verdicts, 'paymentStatus', async (version) => {
      const paid = await submitPayment(api, buildPacs008({ seed: `${seed}-${version}` }), { label: 'pay' });
      verdicts.require('P8-01', 'the payment is created', hasStatus(paid.exchange, [201]));
      const id = requireId(api, verdicts, paid.exchange);
      await readStatus(api, id, { label: `read on ${version} right after submission`, version });
      const settled = await awaitFinalStatus(api, id, { label: 'follow on the default version until final' });
      verdicts.require('STS-08', 'the payment settles', endsIn(settled, 'accepted'));
      const followed = await attempt(
        awaitFinalStatus(api, id, { label: `follow on ${version} until final`, version, stillPending: 'answer' }),
      );
      if (!followed.ok && !(followed.error instanceof StillNotFinal)) throw followed.error;
      verdicts.check(
        'STS-08',
        `read on ${version}, the payment settled on the default version ends accepted`,
        followed.ok
          ? endsIn(followed.value, 'accepted')
          : { ok: false, expected: 'an accepted txSts', received: (followed.error as Error).message },
      );
    });
  });
});

test.describe('POST pacs008 on every further path version: its status report', () => {
  // §2.4's report names the original: a payment made on v08 is reported as one, echoes and all,
  // whatever path version it was made on (§9 names the two the same operation).
  test(on('submitPayment', 'the status report of a payment echoes it'), {
    ...tagsOf('submitPayment', REPORT_RULES),
  }, async ({ api, verdicts, seed, profile }) => {
    await onEachFurtherVersion(profile, verdicts, 'submitPayment', async (version) => {
      const message = buildPacs008({ seed: `${seed}-${version}` });
      const paid = await submitPayment(api, message, {
        version,
        label: `pay: the payment to read (pacs008 ${version})`,
      });
      verdicts.require('P8-01', `the payment made on ${version} is created`, hasStatus(paid.exchange, [201]));
      const id = requireId(api, verdicts, paid.exchange);
      const read = await readStatus(api, id, { label: `read the status of the payment made on ${version}` });
      verdicts.checkOrStop('STS-01', `its status is served (200)`, hasStatus(read.exchange, [200]));
      checkStatusReport(verdicts, read.exchange, message, ` of a payment made on ${version}`);
    });
  });
});
