/**
 * Token endpoint (spec §4.1, §2.1, §5): the valid JWT-bearer exchange and a negative catalogue in
 * which every case sends its valid twin first, then one mutation.
 */
import { test, takes } from '../../fixtures/test';
import { timeClaimCases, tokenCases, tokenErrorCodes } from '../../cases/token-cases';
import { tokenResponseSchema } from '../../messages/schemas/token-response';
import { checkSchema } from '../../checks/schema-check';
import { answered } from '../../checks/verdicts';
import {
  hasStatus,
  jsonAnswer,
  neverServerError,
  nonEmptyString,
  refusedAnswer,
  twinAccepted,
  equals,
} from '../../checks/answers';
import { authenticationClaims, authenticationJwt, jwtHeader } from '../../transport/client-jwts';
import { ASSERTION_REUSED, assertionAttackMutant, tokenMutant, tokenTwin } from '../../cases/mutations';
import { noLetterIn, sameAsTwin, sharedWithOther } from '../../cases/credential-rows';
import { jwtAttacks, outOfReach, oversizedHeaderToken } from '../../cases/jwt-attacks';
import { refusedTokenGrantsNothing } from '../../checks/created-nothing';

test.describe('token endpoint: valid exchange', () => {
  // Each client's token: §2.1's answer is not the first client's alone.
  for (const who of [
    { title: 'a valid JWT-bearer request gets 200 and a bearer token for makePayments', other: false },
    { title: 'the other client’s valid JWT-bearer request gets 200 and a bearer token as well', other: true },
  ])
    test(who.title, {
      tag: ['@TOK-01', '@TOK-02', '@TOK-03', '@TOK-04', '@TOK-05', '@TOK-15', '@live-safe'],
      ...(who.other ? takes({ needs: 'secondClient' }) : {}),
    }, async ({ api, verdicts, clients }) => {
      const ex = await api.requestToken(who.other ? { client: clients.secondary! } : {});
      verdicts.checkOrStop('TOK-01', 'a valid token request gets 200', hasStatus(ex, [200]));
      const body = ex.response.json as Record<string, unknown>;
      checkSchema(verdicts, 'TOK-01', tokenResponseSchema, body, 'the token response has the fields of §2.1');
      verdicts.check('TOK-02', 'access_token is a non-empty string', nonEmptyString(body.access_token));
      verdicts.check(
        'TOK-03',
        'token_type is bearer (case-insensitive)',
        equals(String(body.token_type).toLowerCase(), 'bearer'),
      );
      const expiresIn = body.expires_in;
      verdicts.check('TOK-04', 'expires_in is a positive integer (a number or a string of digits)', {
        ok:
          (typeof expiresIn === 'number' && Number.isInteger(expiresIn) && expiresIn > 0) ||
          (typeof expiresIn === 'string' && /^[1-9]\d*$/.test(expiresIn)),
        expected: 'a positive integer',
        received: JSON.stringify(expiresIn),
      });
      verdicts.check('TOK-05', 'scope is makePayments', equals(body.scope, 'makePayments'));
      const type = api.profile.expectations.expiresIn ?? 'either';
      if (type !== 'either')
        verdicts.assume('TOK-15', `expires_in is a JSON ${type}`, {
          ok: typeof expiresIn === type,
          expected: type,
          received: typeof expiresIn,
        });
    });

  test('answers Accept: application/json with a JSON body', { tag: ['@AT-06', '@op:token', '@live-safe'] }, async ({
    api,
    verdicts,
  }) => {
    const ex = await api.requestToken({ label: 'a valid token request with Accept: application/json' });
    verdicts.require('TOK-01', 'a valid token request gets 200', hasStatus(ex, [200]));
    verdicts.check('AT-06', 'the token endpoint answers with a JSON body', jsonAnswer(ex));
  });

  test('extra optional claims in the authentication JWT are accepted', { tag: ['@AJWT-12', '@live-safe'] }, async ({
    api,
    verdicts,
  }) => {
    // Claims no RFC gives the service to judge: an aud that names another server must be refused
    // (RFC 7519 §4.1.3, RFC 7523 §3), so it is no extra claim to accept.
    const ex = await api.requestToken({ assertion: { claims: { purpose: 'conformance', amr: ['hwk'] } } });
    verdicts.check('AJWT-12', 'a token request whose assertion carries extra claims gets 200', hasStatus(ex, [200]));
  });

  test('a replayed authentication JWT is answered as the profile says', {
    tag: ['@TOK-14', '@TOK-01', '@live-safe'],
  }, async ({ api, verdicts, clients }) => {
    const assertion = authenticationJwt(clients.primary);
    const first = await api.requestToken({
      form: { assertion },
      label: 'request a token (first use of the assertion)',
    });
    verdicts.require('TOK-01', 'the first use of the assertion gets 200', hasStatus(first, [200]));
    const replay = await api.requestToken({
      form: { assertion },
      mutation: ASSERTION_REUSED,
      label: 'replay the same assertion',
    });
    verdicts.check('TOK-01', 'a replayed assertion gets an answer, never a 5xx', neverServerError(replay));
    const mode = api.profile.expectations.assertionReplay ?? 'either';
    if (mode === 'refuse' && verdicts.assume('TOK-14', 'a replayed assertion is refused', refusedAnswer(replay)))
      refusedTokenGrantsNothing(verdicts, 'TOK-14', replay);
    if (mode === 'allow') verdicts.assume('TOK-14', 'a replayed assertion is accepted', hasStatus(replay, [200]));
  });

  // Asked alone, or in a list beside makePayments (RFC 6749 §3.3: "a list of space-delimited" values):
  // a service that grants a list naming makePayments as asked grants adminEverything too.
  for (const asked of ['adminEverything', 'makePayments adminEverything'])
    test(`a scope other than makePayments is not granted (scope ${asked})`, {
      tag: ['@TOK-12', '@TOK-01', '@TOK-05', '@live-safe'],
    }, async ({ api, verdicts }) => {
      const twin = await api.requestToken({ label: 'valid twin' });
      twinAccepted(verdicts, twin, { rule: 'TOK-01', status: [200] });
      const ex = await api.requestToken({ form: { scope: asked }, label: `request scope ${asked}` });
      // A 200 without scope granted what was asked (RFC 6749 §5.1: scope is "OPTIONAL, if identical to
      // the scope requested by the client").
      const granted = (ex.response.json as { scope?: string } | undefined)?.scope ?? asked;
      verdicts.check('TOK-01', 'a request for another scope gets an answer, never a 5xx', neverServerError(ex));
      verdicts.check('TOK-05', 'a token is never granted for a scope that was not registered', {
        // A scope is a space-delimited list (RFC 6749 §3.3): "makePayments adminEverything" grants it too.
        ok: !(ex.response.status === 200 && String(granted).split(' ').includes('adminEverything')),
        expected: 'a refusal, or a token for makePayments',
        ...answered(ex),
      });
      const error = (ex.response.json as { error?: string } | undefined)?.error;
      if ((api.profile.expectations.tokenErrors ?? 'any') === 'rfc6749')
        // RFC 6749 §3.3 lets the server narrow the scope instead (TOK-05 judges what a 200 grants).
        verdicts.assume('TOK-12', 'the request is refused with 400 invalid_scope, or narrowed', {
          ok: ex.response.status === 200 || (ex.response.status === 400 && error === 'invalid_scope'),
          expected: '400 invalid_scope, or a token for makePayments',
          ...answered(ex),
        });
    });
});

test.describe('token endpoint: refusals', () => {
  for (const c of tokenCases) {
    test(`refuses: ${c.name}`, {
      tag: [...c.rules.map((r) => `@${r}`), '@TOK-13', '@live-safe'],
      ...takes(...(c.needsOtherClient ? [{ needs: 'secondClient' as const }] : [])),
    }, async ({ api, verdicts, clients }) => {
      const why = c.needsOtherClient
        ? sameAsTwin(sharedWithOther(c.change, clients.primary, clients.secondary))
        : c.needsLetterIn && noLetterIn(c.needsLetterIn, clients.primary);
      if (why) verdicts.skip({ kind: 'not-applicable', why });
      const twin = await api.requestToken({ ...tokenTwin(c), label: 'valid twin' });
      twinAccepted(verdicts, twin, { rule: 'TOK-01', status: [200] });
      const mutant = await api.requestToken({
        ...tokenMutant(c, { client: clients.primary, other: clients.secondary, twin }),
        label: `mutant: ${c.name}`,
      });
      const status = mutant.response.status;
      for (const rule of c.rules)
        verdicts.check(rule, `the token request is refused: ${c.name}`, refusedAnswer(mutant));
      for (const rule of c.rules) refusedTokenGrantsNothing(verdicts, rule, mutant);
      if ((api.profile.expectations.tokenErrors ?? 'any') === 'rfc6749') {
        const error = (mutant.response.json as { error?: unknown } | undefined)?.error;
        const codes = tokenErrorCodes(c, api.profile.expectations.tokenErrorCodes ?? 'either');
        verdicts.assume('TOK-13', `the refusal is RFC 6749 §5.2 ${c.rfc.status.join(' or ')} ${codes.join(' or ')}`, {
          ok: (c.rfc.status as readonly number[]).includes(status) && (codes as string[]).includes(String(error)),
          expected: `${c.rfc.status.join(' or ')} ${codes.join(' or ')}`,
          received: `${status} ${String(error)}`,
        });
        if (status === 401)
          verdicts.assume('TOK-13', 'a 401 carries WWW-Authenticate (RFC 6749 §5.2)', {
            ok: Boolean(mutant.response.headers['www-authenticate']),
            expected: 'a WWW-Authenticate header',
            received: 'none',
          });
      }
    });
  }
});

test.describe('token endpoint: refusals of the other client’s assertion', () => {
  // §5's exp and nbf hold for every client's assertion, not only the first client's.
  for (const c of timeClaimCases) {
    test(`refuses as the other client: ${c.name}`, {
      tag: [...c.rules.map((r) => `@${r}`), '@live-safe'],
      ...takes({ needs: 'secondClient' }),
    }, async ({ api, verdicts, clients }) => {
      const other = clients.secondary!;
      const twin = await api.requestToken({ ...tokenTwin(c), client: other, label: 'valid twin (the other client)' });
      twinAccepted(verdicts, twin, { rule: 'TOK-01', status: [200] });
      const mutant = await api.requestToken({
        ...tokenMutant(c, { client: other, other: clients.primary, twin }),
        client: other,
        label: `mutant: ${c.name} (the other client)`,
      });
      for (const rule of c.rules) {
        verdicts.check(rule, `the other client's token request is refused: ${c.name}`, refusedAnswer(mutant));
        refusedTokenGrantsNothing(verdicts, rule, mutant);
      }
    });
  }
});

test.describe('token endpoint: attacks on the assertion (RFC 8725)', () => {
  for (const attack of jwtAttacks) {
    test(`refuses: ${attack.name}`, { tag: [`@${attack.rules.assertion}`, '@live-safe'] }, async ({
      api,
      verdicts,
      clients,
      loopback,
    }) => {
      const unreachable = outOfReach(attack, api.profile.target);
      if (unreachable) verdicts.skip({ kind: 'not-applicable', why: unreachable });
      const twin = await api.requestToken({ label: 'valid twin' });
      twinAccepted(verdicts, twin, { rule: 'TOK-01', status: [200] });
      const client = clients.primary;
      const mutant = await api.requestToken({
        ...assertionAttackMutant(attack, client, (name, body, type) => loopback.host(name, body, type)),
        label: `mutant: ${attack.name}`,
      });
      verdicts.check(attack.rules.assertion, `the token request is refused: ${attack.name}`, refusedAnswer(mutant));
      refusedTokenGrantsNothing(verdicts, attack.rules.assertion, mutant);
    });
  }

  test('never a 5xx: an assertion whose header is 100 KB', { tag: ['@ROB-03', '@op:token', '@live-safe'] }, async ({
    api,
    verdicts,
    clients,
  }) => {
    const client = clients.primary;
    const assertion = oversizedHeaderToken({ client, header: jwtHeader(client), claims: authenticationClaims(client) });
    const answer = await api.requestToken({ form: { assertion }, label: 'an assertion with a 100 KB header' });
    verdicts.check('ROB-03', 'an oversized assertion header gets an answer, never a 5xx', neverServerError(answer));
  });
});
