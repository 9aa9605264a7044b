/**
 * Headers and SCA of a payment submission (spec §4.2, §5, §7). Every case sends its valid twin first
 * (201), then one mutation with a fresh message, which must be refused with a 4xx; the refusal class
 * (sca, missingHeader, unauthenticated, forbidden) sets the status the profile assumes (SCA-15,
 * ERR-01). tests/access/ runs the same rules on every other operation they govern.
 */
import { randomUUID } from 'node:crypto';
import { test, takes } from '../../fixtures/test';
import { RawBody } from '../../client/api';
import {
  acceptedScaVariants,
  documentedRules,
  headerCases,
  liveHeaderCases,
  reserialisations,
  type ScaCase,
} from '../../cases/sca-cases';
import { REFUSAL_SLOTS, requireLiveSlots } from '../../client/flows/live-lane';
import { livePaymentAmount } from '../../client/live-budget';
import type { Api } from '../../client/api';
import type { Verdicts } from '../../checks/verdicts';
import type { Clients } from '../../client/target';
import { submitPayment } from '../../client/flows/payment';
import { tokenExpiry } from '../../fixtures/observation-catalogue';
import { headerMutant, reserialisedMutant, SCA_NONCE_REUSED } from '../../cases/mutations';
import { buildPacs008 } from '../../helpers/messages/pacs008';
import { twinAccepted, hasStatus } from '../../checks/answers';
import { createdNothingUnderMsgId } from '../../checks/created-nothing';
import { refusalAssumptions, refusedAs } from '../../checks/refusals';

/**
 * The live lane's order of a header refusal: the mutant first, then its valid twin with the same
 * message (the same msgId), both within liveLimits (two slots, checked before anything is sent). The
 * twin's 201 is the valid control and proves the refusal created nothing under that msgId; elsewhere
 * the twin comes first with a message of its own, as every negative case of the suite.
 */
async function refusedThenTwin(
  api: Api,
  verdicts: Verdicts,
  seed: string,
  clients: Clients,
  c: ScaCase,
): Promise<void> {
  requireLiveSlots(api, verdicts, REFUSAL_SLOTS);
  const message = buildPacs008({ seed, amount: livePaymentAmount(api.profile) });
  const body = JSON.stringify(message);
  const options = headerMutant(c, {
    client: clients.primary,
    other: clients.secondary,
    accessToken: await api.accessToken(clients.primary),
    otherAccessToken: undefined,
    body,
  });
  const mutant = await submitPayment(api, new RawBody(body), { ...options, label: `mutant: ${c.name}` });
  const refused = documentedRules(c).filter((rule) =>
    verdicts.check(rule, `the submission is refused: ${c.name}`, refusedAs(mutant.exchange, c.refusal)),
  );
  const twin = await submitPayment(api, message, {
    label: 'valid twin after the refusal: the same message, all headers valid',
  });
  verdicts.require(
    'P8-01',
    'the valid twin is accepted (or the case proves nothing)',
    hasStatus(twin.exchange, [201, 200]),
  );
  for (const rule of refused) createdNothingUnderMsgId(verdicts, rule, twin);
}

/** One header refusal per documented rule runs in the live lane, at two payment slots each (liveHeaderCases). */
const inLiveLane = liveHeaderCases();

test.describe('payment headers and SCA: refusals', { tag: '@op:submitPayment' }, () => {
  for (const c of headerCases) {
    test(`refuses: ${c.name}`, {
      tag: [...c.rules, ...refusalAssumptions(), ...(inLiveLane.includes(c) ? ['live-safe'] : [])].map((r) => `@${r}`),
      ...takes(...(c.needsOtherClient ? [{ needs: 'secondClient' as const }] : [])),
    }, async ({ api, verdicts, seed, clients }) => {
      if (api.profile.live) return refusedThenTwin(api, verdicts, seed, clients, c);
      const twin = await submitPayment(api, buildPacs008({ seed }), { label: 'valid twin' });
      twinAccepted(verdicts, twin.exchange, { rule: 'P8-01', status: [201] });
      const body = JSON.stringify(buildPacs008({ seed }));
      const options = headerMutant(c, {
        client: clients.primary,
        other: clients.secondary,
        accessToken: await api.accessToken(clients.primary),
        otherAccessToken:
          c.needsOtherClient && clients.secondary ? await api.accessToken(clients.secondary) : undefined,
        body,
      });
      const mutant = await submitPayment(api, new RawBody(body), { ...options, label: `mutant: ${c.name}` });
      for (const rule of documentedRules(c))
        verdicts.check(rule, `the submission is refused: ${c.name}`, refusedAs(mutant.exchange, c.refusal));
    });
  }

  test('refuses: SCA nonce reused for a second payment', { tag: ['@SCA-11', '@SCA-15'] }, async ({
    api,
    verdicts,
    seed,
  }) => {
    const nonce = `nonce-${randomUUID()}`;
    const first = await submitPayment(api, buildPacs008({ seed }), {
      sca: { claims: { nonce } },
      label: 'valid twin carrying the nonce',
    });
    verdicts.require('P8-01', 'the first use of the nonce is accepted', hasStatus(first.exchange, [201]));
    const second = await submitPayment(api, buildPacs008({ seed }), {
      sca: { claims: { nonce } },
      mutation: SCA_NONCE_REUSED,
      label: 'another payment reusing the nonce',
    });
    verdicts.check('SCA-11', 'a second payment reusing the nonce is refused', refusedAs(second.exchange, 'sca'));
  });

  test('refuses: an access token used after expires_in', {
    tag: ['@AT-05'],
    ...takes({ observation: tokenExpiry.submitPayment }),
  }, async ({ verdicts, observe }) => {
    const seen = await observe(tokenExpiry.submitPayment);
    verdicts.require('P8-01', 'the token works before it expires', hasStatus(seen.before, [201]));
    verdicts.check(
      'AT-05',
      `the same token is refused after expires_in (${seen.waitedSeconds} s waited)`,
      refusedAs(seen.after, 'unauthenticated'),
    );
  });
});

test.describe('payment SCA: optional claims', { tag: '@op:submitPayment' }, () => {
  for (const variant of acceptedScaVariants) {
    test(`accepted: SCA ${variant.name}`, { tag: variant.rules.map((r) => `@${r}`) }, async ({
      api,
      verdicts,
      seed,
    }) => {
      const { exchange } = await submitPayment(api, buildPacs008({ seed }), variant.options());
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
    }) => {
      const compact = JSON.stringify(buildPacs008({ seed }));
      const bytes = r.apply(compact);
      verdicts.checkOrStop('SCA-09', 'the re-serialisation changes the bytes', { ok: bytes !== compact });
      const { exchange } = await submitPayment(api, new RawBody(bytes));
      verdicts.check('SCA-09', `the same message ${r.name}, hashed as sent, is created`, hasStatus(exchange, [201]));
    });

    test(`refuses: body ${r.name} after signing the compact bytes`, { tag: ['@SCA-09', '@SCA-15'] }, async ({
      api,
      verdicts,
      seed,
    }) => {
      const twin = await submitPayment(api, buildPacs008({ seed }), { label: 'valid twin' });
      twinAccepted(verdicts, twin.exchange, { rule: 'P8-01', status: [201] });
      const compact = JSON.stringify(buildPacs008({ seed }));
      const { exchange } = await submitPayment(api, new RawBody(r.apply(compact)), {
        ...reserialisedMutant(r, compact),
        label: `mutant: ${r.name}, hd of the original bytes`,
      });
      verdicts.check('SCA-09', `a body ${r.name} after signing is refused`, refusedAs(exchange, 'sca'));
    });
  }
});
