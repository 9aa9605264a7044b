/**
 * Token endpoint (spec §4.1, §2.1, §5): the valid JWT-bearer exchange and a negative catalogue in
 * which every case sends its valid twin first, then one mutation.
 */
import { test, expect } from '../../fixtures/test';
import { tokenCases } from '../../fixtures/catalogues/token-cases';
import { tokenResponseSchema } from '../../helpers/schemas/token-response';
import { expectSchema } from '../../fixtures/schema-check';
import { brief } from '../../fixtures/verdicts';

test.describe('token endpoint: valid exchange', () => {
  test('a valid JWT-bearer request gets 200 and a bearer token for makePayments', { tag: ['@TOK-01', '@TOK-02', '@TOK-03', '@TOK-04', '@TOK-05', '@live-safe'] }, async ({ api, verdicts }) => {
    const ex = await api.requestToken();
    verdicts.expectStatus(ex, [200], 'token request');
    const body = ex.response.json as Record<string, unknown>;
    expectSchema(tokenResponseSchema, body, 'token response');
    expect(String(body.token_type).toLowerCase(), 'token_type').toBe('bearer');
    expect(body.scope, 'scope').toBe('makePayments');
    const expected = api.profile.expectations.expiresIn ?? 'either';
    if (expected !== 'either') verdicts.assume(typeof body.expires_in === expected, `expires_in is a ${expected} (got ${JSON.stringify(body.expires_in)})`);
  });

  test('extra optional claims in the authentication JWT are accepted', { tag: ['@AJWT-12'] }, async ({ api, verdicts }) => {
    const ex = await api.requestToken({ assertion: { claims: { aud: 'https://auth.example', purpose: 'conformance', amr: ['hwk'] } } });
    verdicts.expectStatus(ex, [200], 'token request with extra claims');
  });

  test('a replayed authentication JWT is refused', { tag: ['@TOK-14'] }, async ({ api, verdicts, clients }) => {
    const { authenticationJwt } = await import('../../helpers/client-jwts');
    const assertion = authenticationJwt(clients.primary);
    const first = await api.requestToken({ form: { assertion }, label: 'request a token (first use of the assertion)' });
    verdicts.expectStatus(first, [200], 'first use');
    const replay = await api.requestToken({ form: { assertion }, label: 'replay the same assertion' });
    const mode = api.profile.expectations.assertionReplay ?? 'either';
    if (mode === 'refuse') verdicts.assume(replay.response.status >= 400 && replay.response.status < 500, `a replayed assertion is refused (got ${replay.response.status})`);
    if (mode === 'allow') verdicts.assume(replay.response.status === 200, `a replayed assertion is accepted (got ${replay.response.status})`);
    expect(replay.response.status, 'never a 5xx').toBeLessThan(500);
  });

  test('a scope other than makePayments is not granted', { tag: ['@TOK-12'] }, async ({ api, verdicts }) => {
    const twin = await api.requestToken({ label: 'valid twin' });
    verdicts.expectStatus(twin, [200], 'valid twin');
    const ex = await api.requestToken({ form: { scope: 'adminEverything' }, label: 'request scope adminEverything' });
    expect(ex.response.status, 'never a 5xx').toBeLessThan(500);
    const granted = (ex.response.json as { scope?: string } | undefined)?.scope;
    expect(ex.response.status === 200 ? granted : undefined, 'a token is never granted for a scope that was not registered').not.toBe('adminEverything');
    verdicts.assume(ex.response.status === 400 && (ex.response.json as { error?: string })?.error === 'invalid_scope', `refused with 400 invalid_scope (got ${ex.response.status} ${brief(ex)})`);
  });
});

test.describe('token endpoint: refusals', () => {
  for (const c of tokenCases) {
    test(`refuses: ${c.name}`, { tag: [...c.rules.map((r) => `@${r}`), '@TOK-13'] }, async ({ api, verdicts, clients }) => {
      test.skip(Boolean(c.needsOtherClient && !clients.secondary), 'needs a second client (profile clients.secondary)');
      const twin = await api.requestToken({ label: 'valid twin' });
      verdicts.expectStatus(twin, [200], 'the valid twin must succeed, or the case proves nothing');
      const mutant = await api.requestToken({ ...c.mutate({ client: clients.primary, other: clients.secondary }), label: `mutant: ${c.name}` });
      const status = mutant.response.status;
      expect(status >= 400 && status < 500, `expected a 4xx refusal, got ${status} ${brief(mutant)}`).toBe(true);
      if ((api.profile.expectations.tokenErrors ?? 'any') === 'rfc6749') {
        const error = (mutant.response.json as { error?: unknown } | undefined)?.error;
        verdicts.assume(status === c.rfc.status && error === c.rfc.error, `RFC 6749 §5.2 answer ${c.rfc.status} ${c.rfc.error} (got ${status} ${String(error)})`);
        if (status === 401) verdicts.assume(Boolean(mutant.response.headers['www-authenticate']), '401 carries WWW-Authenticate (RFC 6749 §5.2)');
      }
    });
  }

});
