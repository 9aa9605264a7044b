/**
 * Every attachment, transcript and log line goes through the Redactor: a secret that survives it
 * ends up in a shared report. Each test plants real-looking secrets in the places they occur in
 * practice and checks that no raw value remains, while the JWT claims a reader needs stay visible.
 * Run: node --import tsx --test tests/unit/transport/redact.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { Redactor } from '../../../transport/redact';
import { signCompact } from '../../../transport/jws';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pkcs8Pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const pkcs1Pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
/** The base64 body of the PEM, line by line: no line of it may survive. */
const pemLines = (pem: string): string[] => pem.split('\n').filter((l) => l && !l.startsWith('-----'));

const clientId = 'client-unit-7f3a';
const clientSecret = randomBytes(24).toString('base64url');
const opaqueToken = `at_${randomBytes(20).toString('hex')}`;
const claims = { iss: 'https://primary.bank.example', sub: clientId, jti: 'jti-visible-1', hd: 'aGQ=' };
const jwt = signCompact({ alg: 'RS256', typ: 'JWT', kid: 'kid-visible-1' }, claims, { kind: 'rs256', key: privateKey });
const jwtSignature = jwt.split('.')[2]!;
const basic = Buffer.from(`${clientId}:${clientSecret}`).toString('base64');

function redactor(): Redactor {
  const r = new Redactor();
  r.addSecret(clientSecret, 'client secret');
  r.addSecret(opaqueToken, 'access token');
  return r;
}

/** No raw secret, nor any recognisable piece of one, in the output. */
function assertClean(out: string, extra: string[] = []): void {
  const raw: [string, string][] = [
    ['client secret', clientSecret],
    ['client secret (URL-encoded)', encodeURIComponent(clientSecret)],
    ['opaque access token', opaqueToken],
    ['JWT', jwt],
    ['JWT signature', jwtSignature],
    ['Basic credential', basic],
    ...pemLines(pkcs8Pem).map((l, i): [string, string] => [`PKCS#8 PEM line ${i}`, l]),
    ...pemLines(pkcs1Pem).map((l, i): [string, string] => [`PKCS#1 PEM line ${i}`, l]),
    ...extra.map((v, i): [string, string] => [`extra ${i}`, v]),
  ];
  for (const [what, value] of raw) assert.ok(!out.includes(value), `${what} survived redaction:\n${out}`);
}

/** The decoded header and claims stay readable: they explain most auth failures. */
function assertJwtDescribed(out: string): void {
  assert.match(out, /kid-visible-1/);
  assert.match(out, /jti-visible-1/);
  assert.match(out, /primary\.bank\.example/);
}

test('a registered client secret is removed from text, raw and URL-encoded', () => {
  const r = redactor();
  const out = r.text(
    `secret=${clientSecret} and encoded ${encodeURIComponent(clientSecret)} and {"x":"${clientSecret}"}`,
  );
  assertClean(out);
  assert.match(out, /REDACTED/);
});

test('a registered opaque access token is removed from text and headers', () => {
  const r = redactor();
  assertClean(r.text(`{"access_token":"${opaqueToken}","token_type":"bearer"}`));
  assertClean(r.text(`token was ${opaqueToken}.`));
  assertClean(JSON.stringify(r.headers({ authorization: `Bearer ${opaqueToken}`, 'x-echo': opaqueToken })));
});

test('secrets whose first characters share a lookup key are each removed, and only where they occur whole', () => {
  // "Aa" and "BB" have the same 31-based hash: so do the prefixes AaAaAa and BBBBBB.
  const r = new Redactor();
  r.addSecret('AaAaAa-first-secret', 'first');
  r.addSecret('BBBBBB-second-secret', 'second');
  assert.equal(
    r.text('one AaAaAa-first-secret, two BBBBBB-second-secret, and AaBBAa-first-secret stays'),
    'one [REDACTED first], two [REDACTED second], and AaBBAa-first-secret stays',
  );
});

test('short values are not registered (they would shred ordinary text)', () => {
  const r = new Redactor();
  r.addSecret('abc', 'short');
  assert.equal(r.text('abc abc'), 'abc abc');
  assert.deepEqual(
    r.secretValues().map((s) => s.label),
    ['fingerprint key'],
    'only the run key the fingerprints use',
  );
});

test('every registered secret is listed for the leak scan, JWTs and PEMs included', () => {
  const r = redactor();
  r.addSecret(jwt, 'sca-token');
  r.addSecret(pkcs8Pem, 'private key');
  const labels = r
    .secretValues()
    .map((s) => s.label)
    .sort();
  assert.deepEqual(labels, ['access token', 'client secret', 'fingerprint key', 'private key', 'sca-token']);
});

test('a JWT in free text: signature gone, header and claims visible', () => {
  const out = redactor().text(`sent ${jwt} at noon`);
  assertClean(out);
  assertJwtDescribed(out);
  assert.match(out, /at noon$/);
});

test('an assertion in a form body: gone, claims visible, other keys intact', () => {
  const body = `grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=${jwt}&scope=makePayments`;
  const out = redactor().text(body);
  assertClean(out);
  assertJwtDescribed(out);
  assert.match(out, /^grant_type=urn%3Aietf/);
  assert.match(out, /&scope=makePayments$/);
});

test('an assertion that is not a JWT, and a client_secret, in a form body', () => {
  const other = `opaque-assertion-${randomBytes(8).toString('hex')}`;
  const out = new Redactor().text(`assertion=${other}&client_secret=${clientSecret}&scope=makePayments`);
  assertClean(out, [other]);
  assert.match(out, /&scope=makePayments$/);
});

test('secret fields in JSON: assertion, client_secret, access_token, private_key', () => {
  const other = `opaque-${randomBytes(8).toString('hex')}`;
  const json = JSON.stringify({
    assertion: jwt,
    client_secret: other,
    access_token: other,
    refresh_token: other,
    private_key: other,
    keep: 'me',
  });
  const out = new Redactor().text(json);
  assertClean(out, [other]);
  assert.match(out, /"keep":"me"/);
  assertJwtDescribed(out);
});

for (const [label, pem] of [
  ['PKCS#8', pkcs8Pem],
  ['PKCS#1', pkcs1Pem],
] as const) {
  test(`a ${label} PEM private key, as is and JSON-escaped (\\n)`, () => {
    const r = new Redactor();
    assertClean(r.text(`key:\n${pem}\nend`));
    const escaped = JSON.stringify({ key: pem });
    assert.ok(escaped.includes('\\n'));
    assertClean(r.text(escaped));
    assertClean(r.text(JSON.stringify(JSON.stringify({ key: pem })))); // escaped twice (\\n)
    assertClean(r.text(pem.replace(/\n/g, '\r\n')));
  });
}

test('a PEM cut short (truncated body, no END line) leaks nothing', () => {
  const cut = pkcs8Pem.slice(0, 400);
  const out = new Redactor().text(`{"publicKey":"${cut}`);
  for (const line of pemLines(cut).filter((l) => l.length > 20))
    assert.ok(!out.includes(line), `PEM line survived:\n${out}`);
});

test('Authorization headers: Basic and Bearer credentials gone, scheme kept', () => {
  const r = redactor();
  const out = r.headers({
    Authorization: `Basic ${basic}`,
    'proxy-authorization': `Bearer ${jwt}`,
    'X-Client-Id': clientId,
  });
  assertClean(JSON.stringify(out));
  assert.match(out.Authorization!, /^Basic \[REDACTED/);
  assert.match(out['proxy-authorization']!, /^Bearer \[REDACTED/);
  assert.equal(out['X-Client-Id'], clientId, 'the client id is not a secret and helps diagnosis');
});

test('Authorization and sca-token written into free text (logs, error messages)', () => {
  const r = redactor();
  const text = [
    `Authorization: Basic ${basic}`,
    `Authorization: Bearer ${jwt}`,
    `authorization: bearer ${opaqueToken}`,
    `sca-token: ${jwt}`,
  ].join('\n');
  assertClean(r.text(text));
});

test('sca-token header: signature gone, claims (hd, jti) visible', () => {
  const out = redactor().headers({ 'sca-token': jwt, 'content-type': 'application/json' });
  assertClean(JSON.stringify(out));
  assertJwtDescribed(out['sca-token']!);
  assert.match(out['sca-token']!, /aGQ=/);
  assert.equal(out['content-type'], 'application/json');
});

test('a malformed sca-token and a cookie are fingerprinted, not shown', () => {
  const junk = `not-a-jwt-${randomBytes(8).toString('hex')}`;
  const out = new Redactor().headers({
    'sca-token': junk,
    cookie: `session=${junk}`,
    'set-cookie': `sid=${junk}; HttpOnly`,
  });
  assertClean(JSON.stringify(out), [junk]);
});

test('everything at once, in a rendered exchange-like text', () => {
  const r = redactor();
  const text = [
    'POST /oauth/token HTTP/1.1',
    `Authorization: Basic ${basic}`,
    '',
    `grant_type=x&assertion=${jwt}&scope=makePayments`,
    '── response 200 ──',
    JSON.stringify({ access_token: opaqueToken, token_type: 'bearer', expires_in: 300 }),
    JSON.stringify({ clientSecret, publicKey: pkcs8Pem }),
  ].join('\n');
  const out = r.text(text);
  assertClean(out);
  assertJwtDescribed(out);
  assert.match(out, /"expires_in":300/);
});

test('ordinary prose and non-secret data pass through unchanged', () => {
  const text =
    'missing Bearer authentication; Basic validation failed for "token_type":"bearer" with msgId MSG-1 and amount 12.34 GBP; www-authenticate: Bearer realm=payments-api, error="invalid_token"';
  assert.equal(redactor().text(text), text);
  const pub = { publicKeyId: 'kid-1', status: 'PENDING', paymentsServiceId: '6f1c2a8e-1111-4222-8333-944455556666' };
  assert.equal(redactor().text(JSON.stringify(pub)), JSON.stringify(pub));
});
