/**
 * cases/credential-rows.ts: the one format of credential cases (headers, access token, SCA JWT, token
 * request), whose values are named reads of the request, resolved when the case is applied.
 * Run: node --import tsx --test tests/unit/cases/credential-rows.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  basicOf,
  body,
  clock,
  client,
  jsonOf,
  other,
  reads,
  resolveRequest,
  sentCredentials,
  stranger,
  twin,
} from '../../../cases/credential-rows';
import { headerCases } from '../../../cases/sca-cases';
import { tokenCases } from '../../../cases/token-cases';
import { generatedClient } from '../../../client/target';
import { generateRsaKeyPair } from '../../../transport/keys';
import { ABSENT, decodeCompact, signCompact } from '../../../transport/jws';
import { nowSeconds, scaJwt } from '../../../transport/client-jwts';
import type { Exchange } from '../../../transport/http';
import { strangerKey } from '../../../cases/jwt-attacks';

const primary = generatedClient('primary', 'rows', 0, generateRsaKeyPair());
const secondary = generatedClient('secondary', 'rows', 1, generateRsaKeyPair());

const sent = (headers: Record<string, string>, requestBody = ''): Exchange => ({
  label: 'valid twin',
  request: { method: 'POST', url: 'http://x/payments/pacs008/v10', headers, body: requestBody },
  response: { status: 201, headers: {}, text: '', json: undefined },
  startedAt: '',
  durationMs: 0,
  retries: [],
});

test('named values are read from the clients, the body and the clock, and transformed', () => {
  const out = resolveRequest(
    {
      headers: { 'x-client-id': client('clientId', { prefix: 'unknown-' }), authorization: other('basic') },
      accessToken: client('accessToken', { signatureBitFlipped: true }),
      sca: {
        header: { kid: other('kid'), typ: ABSENT },
        claims: {
          iss: client('iss', { suffix: '.evil' }),
          hd: body({ suffix: ' ', sha256: 'base64' }),
          nbf: clock({ plus: 600 }),
        },
        signer: { kind: 'rs256', key: stranger('privateKey') },
      },
    },
    { client: primary, other: secondary, accessToken: 'aaa.bbb.AAAA', body: '{}' },
  );
  assert.equal(out.headers?.['x-client-id'], `unknown-${primary.clientId}`);
  assert.match(String(out.headers?.authorization), /^Basic /);
  assert.equal(out.accessToken, 'aaa.bbb.AAAB');
  const sca = out.sca as { header: Record<string, unknown>; claims: Record<string, unknown>; signer: unknown };
  assert.equal(sca.header.kid, secondary.kid);
  assert.equal(sca.header.typ, ABSENT, 'ABSENT stays the marker it is');
  assert.equal(sca.claims.iss, `${primary.iss}.evil`);
  assert.equal(sca.claims.hd, createHash('sha256').update('{} ').digest('base64'));
  assert.ok(Math.abs((sca.claims.nbf as number) - (nowSeconds() + 600)) <= 1);
  assert.deepEqual(sca.signer, { kind: 'rs256', key: strangerKey().privateKey });
});

test('the valid twin is read as it was sent: its SCA claims, its headers, its form and assertion', () => {
  const token = scaJwt(primary, '{}', { claims: { nonce: 'N-1', jti: 'J-1' } });
  const twinExchange = sent({ 'X-Client-Id': primary.clientId, 'sca-token': token });
  assert.deepEqual(
    resolveRequest(
      { sca: { claims: { nonce: twin('sca.claims.nonce'), jti: twin('sca.claims.jti') } } },
      {
        client: primary,
        twin: twinExchange,
      },
    ),
    { sca: { claims: { nonce: 'N-1', jti: 'J-1' } } },
  );
  assert.equal(sentCredentials(twinExchange).headers['x-client-id'], primary.clientId);
  const assertion = signCompact({ alg: 'none' }, { jti: 'A-1' }, { kind: 'none' });
  const tokenTwin = sent(
    { 'content-type': 'application/x-www-form-urlencoded' },
    new URLSearchParams({ assertion, scope: 'makePayments' }).toString(),
  );
  assert.equal(resolveRequest(twin('assertion.claims.jti'), { client: primary, twin: tokenTwin }), 'A-1');
  assert.equal(resolveRequest(twin('form.scope'), { client: primary, twin: tokenTwin }), 'makePayments');
  assert.throws(() => resolveRequest(twin('sca.claims.nonce'), { client: primary }), /valid twin, which was not given/);
  assert.throws(
    () => resolveRequest(twin('sca.claims.nope'), { client: primary, twin: twinExchange }),
    /absent from the valid twin/,
  );
});

test('composed values: Basic credentials of two values, the JSON text of an object', () => {
  const out = resolveRequest(
    { a: basicOf(client('clientId'), client('clientSecret', { suffix: 'x' })), b: jsonOf({ id: client('kid') }) },
    { client: primary },
  );
  assert.equal(out.a, `Basic ${Buffer.from(`${primary.clientId}:${primary.clientSecret}x`).toString('base64')}`);
  assert.deepEqual(JSON.parse(String(out.b)), { id: primary.kid });
});

test('a JWS changed after signing keeps its signature; one signed again by a stranger keeps its claims under another signature', () => {
  const jws = signCompact({ alg: 'RS256' }, { exp: 1 }, { kind: 'rs256', key: primary.privateKey! });
  const edited = resolveRequest<string>(client('accessToken', { payloadEdited: { exp: 2 } }), {
    client: primary,
    accessToken: jws,
  });
  assert.equal(decodeCompact(edited)?.payload.exp, 2);
  assert.equal(edited.split('.')[2], jws.split('.')[2]);
  const resigned = resolveRequest<string>(client('accessToken', { resignedByStranger: true }), {
    client: primary,
    accessToken: jws,
  });
  assert.deepEqual(decodeCompact(resigned)?.payload, { exp: 1 });
  assert.notEqual(resigned.split('.')[2], jws.split('.')[2]);
  assert.equal(
    resolveRequest(client('accessToken', { parts: 2 }), { client: primary, accessToken: jws }),
    jws.split('.').slice(0, 2).join('.'),
  );
});

test('every row says what it reads: a case needs a second client exactly when it reads the other client', () => {
  for (const c of [...headerCases, ...tokenCases])
    assert.equal(Boolean(c.needsOtherClient), reads(c.change, 'other'), `${c.name}: needsOtherClient`);
  assert.ok(reads({ sca: { claims: { nonce: twin('sca.claims.nonce') } } }, 'twin'));
  assert.ok(!reads({ sca: { claims: { nonce: 'n' } } }, 'twin'));
});
