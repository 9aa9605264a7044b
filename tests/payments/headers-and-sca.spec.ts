/**
 * Headers and SCA of a payment submission (spec §4.2, §5, §7). Every case sends its valid twin first
 * (201), then one mutation with a fresh message, which must be refused with a 4xx; the refusal class
 * (sca, missingHeader, unauthenticated, forbidden) sets the status the profile assumes (SCA-15...).
 */
import { randomUUID } from 'node:crypto';
import { test, expect } from '../../fixtures/test';
import { RawBody } from '../../fixtures/api';
import { acceptedScaVariants, headerCases, reserialisations } from '../../fixtures/catalogues/sca-cases';
import { submitPayment } from '../../fixtures/flows';
import { generatedClient, registerClient } from '../../fixtures/target';
import { ensureRunContext } from '../../fixtures/run-context';
import { bodyHash } from '../../helpers/body-hash';
import { buildPacs008 } from '../../helpers/messages/pacs008';

test.describe('payment headers and SCA: refusals', () => {
  for (const c of headerCases) {
    test(`refuses: ${c.name}`, { tag: c.rules.map((r) => `@${r}`) }, async ({ api, verdicts, seed, clients }) => {
      test.skip(Boolean(c.needsOtherClient && !clients.secondary), 'needs a second client (profile clients.secondary)');
      const twin = await submitPayment(api, buildPacs008({ seed }), { label: 'valid twin' });
      verdicts.expectStatus(twin.exchange, [201], 'the valid twin must be accepted, or the case proves nothing');
      const body = JSON.stringify(buildPacs008({ seed }));
      const options = c.mutate({
        client: clients.primary,
        other: clients.secondary,
        accessToken: await api.accessToken(clients.primary),
        otherAccessToken: c.needsOtherClient && clients.secondary ? await api.accessToken(clients.secondary) : undefined,
        body,
      });
      const mutant = await submitPayment(api, new RawBody(body), { ...options, label: `mutant: ${c.name}` });
      verdicts.expectRefused(mutant.exchange, c.refusal);
    });
  }

  test('refuses: SCA nonce reused for a second payment', { tag: ['@SCA-11', '@SCA-15'] }, async ({ api, verdicts, seed }) => {
    const nonce = `nonce-${randomUUID()}`;
    const first = await submitPayment(api, buildPacs008({ seed }), { sca: { claims: { nonce } }, label: 'valid twin carrying the nonce' });
    verdicts.expectStatus(first.exchange, [201], 'the first use of the nonce must be accepted');
    const second = await submitPayment(api, buildPacs008({ seed }), { sca: { claims: { nonce } }, label: 'another payment reusing the nonce' });
    verdicts.expectRefused(second.exchange, 'sca');
  });

  test('refuses: an access token used after expires_in', { tag: ['@AT-05'] }, async ({ api, verdicts, seed, http, target }, testInfo) => {
    // A client of its own whose tokens live one second, so the wait stays short.
    const client = generatedClient('shortlived', ensureRunContext().runId, testInfo.workerIndex);
    await registerClient(http, target, client, { tokenTtlSeconds: 1 });
    const tokenExchange = await api.requestToken({ client, label: 'token for a client with a 1 s token lifetime' });
    verdicts.expectStatus(tokenExchange, [200], 'token request');
    const body = tokenExchange.response.json as { access_token: string; expires_in: number | string };
    expect(Number(body.expires_in), 'expires_in of the short-lived client').toBeLessThanOrEqual(1);
    const twin = await submitPayment(api, buildPacs008({ seed }), { client, accessToken: body.access_token, label: 'valid twin within the lifetime' });
    verdicts.expectStatus(twin.exchange, [201], 'the token must work before it expires');
    await new Promise((r) => setTimeout(r, 2100));
    const late = await submitPayment(api, buildPacs008({ seed }), { client, accessToken: body.access_token, label: 'the same token after expires_in' });
    verdicts.expectRefused(late.exchange, 'unauthenticated');
  });
});

test.describe('payment SCA: optional claims', () => {
  for (const variant of acceptedScaVariants) {
    test(`accepted: SCA ${variant.name}`, { tag: variant.rules.map((r) => `@${r}`) }, async ({ api, verdicts, seed }) => {
      const { exchange } = await submitPayment(api, buildPacs008({ seed }), variant.options());
      verdicts.expectStatus(exchange, [201], `submission with SCA ${variant.name}`);
    });
  }
});

test.describe('payment SCA: hd is over the exact bytes', () => {
  for (const r of reserialisations) {
    test(`accepted: body ${r.name}, with the hd of those bytes`, { tag: ['@SCA-09'] }, async ({ api, verdicts, seed }) => {
      const compact = JSON.stringify(buildPacs008({ seed }));
      const bytes = r.apply(compact);
      expect(bytes, 'the re-serialisation changes the bytes').not.toBe(compact);
      const { exchange } = await submitPayment(api, new RawBody(bytes));
      verdicts.expectStatus(exchange, [201], `the same message ${r.name}, hashed as sent`);
    });

    test(`refuses: body ${r.name} after signing the compact bytes`, { tag: ['@SCA-09', '@SCA-15'] }, async ({ api, verdicts, seed }) => {
      const twin = await submitPayment(api, buildPacs008({ seed }), { label: 'valid twin' });
      verdicts.expectStatus(twin.exchange, [201], 'the valid twin must be accepted');
      const compact = JSON.stringify(buildPacs008({ seed }));
      const bytes = r.apply(compact);
      const { exchange } = await submitPayment(api, new RawBody(bytes), { sca: { claims: { hd: bodyHash(compact) } }, label: `mutant: ${r.name}, hd of the original bytes` });
      verdicts.expectRefused(exchange, 'sca');
    });
  }
});
