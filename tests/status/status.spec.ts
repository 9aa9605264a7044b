/**
 * Payment status (spec §2.4, §3, §4.3, §5, §9): the pacs.002 report echoes the original identifiers,
 * the status moves from pending to a final state and never back, and only the submitting client may
 * read it, with no sca-token.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { tokenLeewaySeconds } from '../../profile/profile';
import { test, takes } from '../../fixtures/test';
import { readStatus, type FinalStatus, type StatusRead } from '../../client/flows/payment';
import { paymentToRead } from '../../client/flows/live-lane';
import {
  paymentToAcceptance,
  paymentToFinalForRereads,
  paymentToRejection,
  paymentToRejectionForRereads,
  tokenExpiry,
} from '../../arrange/observation-catalogue';
import type { Api } from '../../client/api';
import { answered, type Verdicts } from '../../checks/verdicts';
import { classifyStatus } from '../../profile/status-vocabulary';
import { endsIn, profileCode, statusServed, twinAccepted, hasStatus } from '../../checks/answers';
import { checkMonotonic, requireId } from '../../checks/payment-answers';
import { checkStatusReport, REPORT_RULES } from '../../checks/status-report';
import { unknownIdStillUnknown } from '../../checks/created-nothing';
import { refusedAs } from '../../checks/refusals';

/** One pacs.002 read, checked rule by rule: each echo is its own rule, so one wrong echo fails only itself. */
async function checkReport(
  api: Api,
  verdicts: Verdicts,
  seed: string,
  servedBy: string,
  version?: string,
): Promise<void> {
  const { message, id } = await paymentToRead(api, verdicts, seed);
  const read = await readStatus(api, id, version ? { version } : {});
  verdicts.checkOrStop(
    servedBy,
    `the status is served on pacs002 ${version ?? '(default version)'} (200)`,
    hasStatus(read.exchange, [200]),
  );
  checkStatusReport(verdicts, read.exchange, message);
}

/**
 * STS-10 on reads after a final status: four at once, and one later, as a client polling would read
 * it (at least two of the profile's longest polling intervals after the final status was answered).
 * After §3's final codes only a final code of their class comes (ACCC, then ISO's ACSC); a change after
 * any other code is a lesson about the target (STS-14).
 */
async function checkRereads(api: Api, verdicts: Verdicts, id: string, final: FinalStatus): Promise<void> {
  const later: StatusRead[] = [];
  const reread = async (label: string): Promise<void> => {
    later.push(await readStatus(api, id, { label }));
  };
  // A dozen at once: a cache or replica that answers an old code now and then shows on some read, not the first.
  for (let i = 0; i < 12; i++) await reread(`read ${i + 1} after the final status`);
  const answeredAt = Date.parse(final.last.startedAt) + final.last.durationMs;
  const laterAt = answeredAt + 2 * api.profile.polling.maxIntervalMs;
  if (laterAt > Date.now()) await sleep(laterAt - Date.now());
  await reread('read 13, two polling intervals after the final status');
  checkMonotonic(verdicts, api, [...final.history, ...later.map((read) => read.txSts ?? '(none)')]);
  // §7: a rejection is reported "in txSts and stsRsnInf[].rsn.cd": on every read that reports it, not the first only.
  if (final.statusClass === 'rejected')
    for (const [i, read] of later.entries())
      if (read.txSts === final.txSts)
        verdicts.check('STS-09', `read ${i + 1} after the rejection still carries its reason in stsRsnInf[].rsn.cd`, {
          ok: read.reasonCodes.length > 0,
          expected: 'at least one reason code',
          ...answered(read.exchange),
        });
}

const REPORT_TAGS = REPORT_RULES.map((r) => `@${r}`);

test.describe('payment status report', () => {
  test('a status read gets 200 and a pacs.002 that echoes the payment', {
    tag: [...REPORT_TAGS, '@live-safe'],
  }, async ({ api, verdicts, seed }) => {
    await checkReport(api, verdicts, seed, 'STS-01');
  });

  test('every pacs002 version the profile lists serves the status', {
    tag: ['@VER-02', ...REPORT_TAGS, '@live-safe'],
  }, async ({ api, verdicts, seed, profile }) => {
    for (const version of profile.operations.paymentStatus.versions)
      await test.step(`pacs002 ${version}`, () => checkReport(api, verdicts, `${seed}-${version}`, 'VER-02', version));
  });

  test('the status query needs no sca-token, even right after submission', { tag: ['@STS-11', '@live-safe'] }, async ({
    api,
    verdicts,
    seed,
  }) => {
    const { id } = await paymentToRead(api, verdicts, seed);
    const read = await readStatus(api, id, { label: 'read status with Authorization and X-Client-Id only' });
    verdicts.checkOrStop('STS-11', 'the read carries no sca-token', {
      ok: !Object.keys(read.exchange.request.headers).some((h) => h.toLowerCase() === 'sca-token'),
    });
    verdicts.check('STS-11', 'a status read without sca-token gets 200', hasStatus(read.exchange, [200]));
  });
});

test.describe('payment status lifecycle', () => {
  // The payment of each test here was submitted when the worker started and followed to its final
  // status in the background (arrange/observation-catalogue.ts): the settlement waits overlap.
  test('a valid payment goes from pending to accepted, with the profile interim code', {
    tag: ['@STS-08', '@STS-10', '@STS-14', '@STS-16', '@STS-18', ...REPORT_TAGS],
    ...takes({ observation: paymentToAcceptance }),
  }, async ({ api, verdicts, observe }) => {
    const { message, submission, firstRead, final } = await observe(paymentToAcceptance);
    verdicts.require('P8-01', 'the payment is created', hasStatus(submission.exchange, [201]));
    verdicts.require('P8-02', 'the answer names the payment', statusServed(firstRead, submission.exchange));
    verdicts.require('STS-01', 'the status right after submission is served', hasStatus(firstRead!.exchange, [200]));
    const expectations = api.profile.expectations;
    if (classifyStatus(firstRead!.txSts, expectations) === 'pending') {
      verdicts.assume(
        'STS-14',
        'the interim txSts is one of the profile’s pending codes',
        profileCode(firstRead!.txSts, 'pending', expectations),
      );
    } else {
      test.info().annotations.push({
        type: 'note',
        description: `the payment was already ${firstRead!.txSts} on the first read: the interim code was not observed`,
      });
    }
    verdicts.checkOrStop('STS-08', 'the payment reaches a final status', statusServed(final));
    checkMonotonic(verdicts, api, [firstRead!.txSts ?? '(none)', ...final!.history]);
    verdicts.check('STS-08', 'a valid payment ends accepted', endsIn(final, 'accepted'));
    checkStatusReport(verdicts, final!.last, message, ' once final');
    verdicts.assume(
      'STS-16',
      'the accepted code is one of the profile’s',
      profileCode(final!.txSts, 'accepted', expectations),
    );
  });

  test('a rejected payment is reported in txSts with a reason code, not as an HTTP error', {
    tag: ['@STS-09', '@STS-15', ...REPORT_TAGS],
    ...takes({ observation: paymentToRejection }),
  }, async ({ api, verdicts, profile, observe }) => {
    const trigger = profile.expectations.rejectTrigger;
    if (!trigger) verdicts.skip({ kind: 'capability', capability: 'rejectTrigger', profile: profile.name });
    const { message, submission, final } = (await observe(paymentToRejection))!;
    verdicts.check(
      'STS-09',
      'a payment that will be rejected is still created (201): a rejection is not an HTTP error',
      hasStatus(submission.exchange, [201]),
    );
    requireId(api, verdicts, submission.exchange);
    verdicts.checkOrStop('STS-09', 'the payment reaches a final status', statusServed(final, submission.exchange));
    verdicts.check('STS-09', 'the payment ends rejected', endsIn(final, 'rejected'));
    verdicts.check('STS-09', 'stsRsnInf[].rsn.cd carries a reason', {
      ok: final!.reasonCodes.length > 0,
      expected: 'at least one reason code',
      ...answered(final!.last),
    });
    checkStatusReport(verdicts, final!.last, message, ' once final');
    verdicts.assume(
      'STS-15',
      'the rejection code is one of the profile’s',
      profileCode(final!.txSts, 'rejected', profile.expectations),
    );
    verdicts.assume('STS-15', `the reason is the trigger’s ${trigger!.reasonCode}`, {
      ok: final!.reasonCodes.includes(trigger!.reasonCode),
      expected: trigger!.reasonCode,
      received: final!.reasonCodes.join(', ') || 'none',
    });
  });

  test('a final status never moves and never changes on later reads', {
    tag: ['@STS-10'],
    ...takes({ observation: paymentToFinalForRereads }),
  }, async ({ api, verdicts, observe }) => {
    const { submission, final } = await observe(paymentToFinalForRereads);
    verdicts.require('P8-01', 'the payment is created', hasStatus(submission.exchange, [201]));
    verdicts.require('STS-08', 'the payment reaches a final status', statusServed(final, submission.exchange));
    await checkRereads(api, verdicts, submission.paymentsServiceId!, final!);
  });

  test('a rejected payment’s final status and its reason never change on later reads', {
    tag: ['@STS-10', '@STS-09'],
    ...takes({ observation: paymentToRejectionForRereads }),
  }, async ({ api, verdicts, profile, observe }) => {
    if (!profile.expectations.rejectTrigger)
      verdicts.skip({ kind: 'capability', capability: 'rejectTrigger', profile: profile.name });
    const { submission, final } = (await observe(paymentToRejectionForRereads))!;
    verdicts.require('P8-01', 'the payment is created', hasStatus(submission.exchange, [201]));
    verdicts.require('STS-09', 'the payment reaches a final status', statusServed(final, submission.exchange));
    verdicts.require('STS-09', 'the payment ends rejected', endsIn(final, 'rejected'));
    await checkRereads(api, verdicts, submission.paymentsServiceId!, final!);
  });
});

test.describe('payment status: refusals', () => {
  test('refuses: an access token used after expires_in', {
    tag: ['@AT-05', '@op:paymentStatus'],
    ...takes({ observation: tokenExpiry.paymentStatus }),
  }, async ({ verdicts, observe, profile }) => {
    // A token taken after expires_in is used again until the leeway has passed (observation-catalogue.ts).
    test.setTimeout(test.info().timeout + tokenLeewaySeconds(profile) * 1000);
    const seen = await observe(tokenExpiry.paymentStatus);
    verdicts.require('STS-01', 'the token reads the status before it expires', hasStatus(seen.before, [200]));
    verdicts.check(
      'AT-05',
      `the same token is refused after expires_in (${seen.waitedSeconds} s waited)`,
      refusedAs(seen.after, 'unauthenticated'),
    );
  });

  test('an unknown paymentsServiceId is not served', { tag: ['@STS-12', '@live-safe'] }, async ({
    api,
    verdicts,
    seed,
  }) => {
    const { id } = await paymentToRead(api, verdicts, seed);
    const twin = await readStatus(api, id, { label: 'valid twin: a known id' });
    twinAccepted(verdicts, twin.exchange, { rule: 'STS-01', status: [200] });
    // A real id with a tail no id format could end in: `${id}0` would be another payment where ids
    // are sequential integers (7 → 70), which the spec's "string" allows.
    for (const unknown of [randomUUID(), `PSI${Date.now()}00000000`, `${id}x${randomUUID().slice(0, 8)}`]) {
      const read = await readStatus(api, unknown, { label: `unknown id ${unknown}` });
      if (verdicts.check('STS-12', `an unknown id (${unknown}) is not served`, refusedAs(read.exchange, 'notFound'))) {
        const again = await readStatus(api, unknown, { label: `after the refusal: read ${unknown} again` });
        unknownIdStillUnknown(verdicts, 'STS-12', unknown, again.exchange);
      }
    }
  });

  test("a client cannot read another client's payment status", { tag: ['@STS-13'] }, async ({
    api,
    verdicts,
    seed,
    clients,
  }) => {
    const { id } = await paymentToRead(api, verdicts, seed);
    const own = await readStatus(api, id, { label: 'valid twin: the submitting client reads it' });
    twinAccepted(verdicts, own.exchange, { rule: 'STS-01', status: [200] });
    const foreign = await readStatus(api, id, { client: clients.secondary!, label: 'the secondary client reads it' });
    verdicts.check('STS-13', 'another client is refused the status', refusedAs(foreign.exchange, 'notFound'));
  });
});
