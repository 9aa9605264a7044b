/**
 * Headers and SCA of a payment submission (spec §4.2, §5, §7). Every case goes through the payment's
 * operation driver (arrange/operations.ts), as the same rules do on every other operation
 * (tests/access/): its valid twin first (201), then one mutation with a fresh message, which must be
 * refused with a 4xx and leave nothing behind (the same message, every header valid, is then created); the refusal class (sca, missingHeader, unauthenticated, forbidden) sets the
 * status the profile assumes (SCA-15, ERR-01). A case may read its twin as it was sent (a reused
 * nonce). The full catalogue runs here; the other operations run one case per rule.
 */
import { tokenLeewaySeconds } from '../../profile/profile';
import { test, takes } from '../../fixtures/test';
import {
  acceptedScaVariants,
  caseTitle,
  documentedRules,
  headerCases,
  liveHeaderCases,
  repeatHeaderCases,
  reserialisations,
} from '../../cases/sca-cases';
import { REFUSAL_SLOTS, requireLiveSlots } from '../../client/flows/live-lane';
import { tokenExpiry } from '../../arrange/observation-catalogue';
import { noLetterIn } from '../../cases/credential-rows';
import { answeredAsRead, hasStatus } from '../../checks/answers';
import {
  mutantThenTwin,
  OPERATION_DRIVERS,
  repeatThenMutant,
  twinThenMutant,
  twinThenReserialised,
} from '../../arrange/operations';
import { refusalAssumptions, refusedAs } from '../../checks/refusals';
import { createdNothingUnderMsgId } from '../../checks/created-nothing';

const payment = OPERATION_DRIVERS.submitPayment;

/** One header refusal per documented rule runs in the live lane, at two payment slots each (liveHeaderCases). */
const inLiveLane = liveHeaderCases();

test.describe('payment headers and SCA: refusals', { tag: '@op:submitPayment' }, () => {
  for (const c of headerCases) {
    // A case the spec leaves open is answered as the profile reads it, never with a 5xx: not a refusal.
    const judged = c.reading ? ['ROB-03'] : refusalAssumptions();
    test(caseTitle(c), {
      tag: [...c.rules, ...judged, ...(inLiveLane.includes(c) ? ['live-safe'] : [])].map((r) => `@${r}`),
      ...takes(...(c.needsOtherClient ? [{ needs: 'secondClient' as const }] : [])),
    }, async ({ api, verdicts, seed, clients, settledOriginals }) => {
      const ctx = { api, verdicts, seed, clients, settledOriginals };
      const noLetter = c.needsLetterIn && noLetterIn(c.needsLetterIn, clients.primary);
      if (noLetter) verdicts.skip({ kind: 'not-applicable', why: noLetter });
      const what = `the submission is refused: ${c.name}`;
      if (api.profile.live) {
        // Live: the mutant first, then its valid twin with the same message (liveHeaderCases), within liveLimits.
        requireLiveSlots(api, verdicts, REFUSAL_SLOTS);
        const { mutant, twinAfter } = await mutantThenTwin(payment, c, ctx);
        const refused = documentedRules(c).filter((rule) => verdicts.check(rule, what, refusedAs(mutant, c.refusal)));
        const twin = await twinAfter('valid twin after the refusal: the same message, all headers valid');
        verdicts.require(
          'P8-01',
          'the valid twin is accepted (or the case proves nothing)',
          hasStatus(twin, [201, 200]),
        );
        for (const rule of refused) createdNothingUnderMsgId(verdicts, rule, { exchange: twin });
        return;
      }
      const { mutant, again } = await twinThenMutant(payment, c, ctx);
      if (c.reading)
        return answeredAsRead(verdicts, api.profile.expectations, {
          rule: c.reading,
          op: payment.op,
          exchange: mutant,
          what: `the submission with ${c.name}`,
        });
      const refused = documentedRules(c).filter((rule) => verdicts.check(rule, what, refusedAs(mutant, c.refusal)));
      // A refused request fails (§7): it stored nothing, so its message, sent again with every header
      // valid, is a new payment (201), not a repeat of one the refusal made (200).
      if (refused.length) {
        const after = await again('the refused message again, every header valid');
        for (const rule of refused) createdNothingUnderMsgId(verdicts, rule, { exchange: after });
      }
    });
  }

  test('refuses: an access token used after expires_in', {
    tag: ['@AT-05'],
    ...takes({ observation: tokenExpiry.submitPayment }),
  }, async ({ verdicts, observe, profile }) => {
    // A token taken after expires_in is used again until the leeway has passed (observation-catalogue.ts).
    test.setTimeout(test.info().timeout + tokenLeewaySeconds(profile) * 1000);
    const seen = await observe(tokenExpiry.submitPayment);
    verdicts.require('P8-01', 'the token works before it expires', hasStatus(seen.before, [201]));
    verdicts.check(
      'AT-05',
      `the same token is refused after expires_in (${seen.waitedSeconds} s waited)`,
      refusedAs(seen.after, 'unauthenticated'),
    );
  });
});

// A repeat of a used msgId is a payments request like any other (arrange/operations.ts repeatThenMutant);
// the other submitting operations' are in tests/access/cross-cutting.spec.ts.
test.describe('payment headers and SCA: a repeat of a used msgId', { tag: '@op:submitPayment' }, () => {
  for (const c of repeatHeaderCases) {
    test(`refuses: a repeat of a used msgId with ${c.name}`, {
      tag: [...c.rules, ...refusalAssumptions()].map((r) => `@${r}`),
    }, async ({ api, verdicts, seed, clients, settledOriginals }) => {
      const { mutant } = await repeatThenMutant(payment, c, { api, verdicts, seed, clients, settledOriginals });
      for (const rule of documentedRules(c))
        verdicts.check(rule, `a repeat of a used msgId is refused: ${c.name}`, refusedAs(mutant, c.refusal));
    });
  }
});

test.describe('payment SCA: optional claims', { tag: '@op:submitPayment' }, () => {
  for (const variant of acceptedScaVariants) {
    test(`accepted: SCA ${variant.name}`, { tag: variant.rules.map((r) => `@${r}`) }, async ({
      api,
      verdicts,
      seed,
      clients,
      settledOriginals,
    }) => {
      const send = await payment.prepare({ api, verdicts, seed, clients, settledOriginals });
      const exchange = await send('submit payment (pacs.008)', () => variant.options());
      for (const rule of variant.rules)
        verdicts.check(rule, `a submission with SCA ${variant.name} is created`, hasStatus(exchange, [201]));
    });
  }
});

test.describe('payment SCA: hd is over the exact bytes', { tag: '@op:submitPayment' }, () => {
  for (const r of reserialisations) {
    test(`accepted: body ${r.name}, with the hd of those bytes`, { tag: ['@SCA-09'] }, async ({
      api,
      verdicts,
      seed,
      clients,
      settledOriginals,
    }) => {
      const send = await payment.prepare({ api, verdicts, seed, clients, settledOriginals, amount: r.amount });
      const exchange = await send('submit payment (pacs.008)', undefined, (compact) => {
        const bytes = r.apply(compact);
        verdicts.checkOrStop('SCA-09', 'the re-serialisation changes the bytes', { ok: bytes !== compact });
        return bytes;
      });
      verdicts.check('SCA-09', `the same message ${r.name}, hashed as sent, is created`, hasStatus(exchange, [201]));
    });

    test(`refuses: body ${r.name} after signing the compact bytes`, { tag: ['@SCA-09', '@SCA-15'] }, async ({
      api,
      verdicts,
      seed,
      clients,
      settledOriginals,
    }) => {
      const exchange = await twinThenReserialised(payment, r, { api, verdicts, seed, clients, settledOriginals });
      verdicts.check('SCA-09', `a body ${r.name} after signing is refused`, refusedAs(exchange, 'sca'));
    });
  }
});
