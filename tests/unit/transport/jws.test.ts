/**
 * transport/jws.ts builds every JWT the suite sends, including the deliberately broken ones. If it
 * produced a token a real verifier rejects, every positive test would fail for the wrong reason; if an
 * override silently did nothing, a negative test would send a valid token and prove nothing.
 * Run: node --import tsx --test tests/unit/transport/jws.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { compactVerify } from 'jose';
import { ABSENT, applyOverride, b64url, decodeCompact, signCompact } from '../../../transport/jws';

// One key for the file: RSA generation is slow.
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const header = { alg: 'RS256', typ: 'JWT', kid: 'kid-1' };
const payload = { iss: 'https://bank.example', sub: 'client-1', iat: 1_700_000_000, jti: 'j-1' };

test('applyOverride changes, adds and removes (ABSENT) fields without touching the base', () => {
  const base = { a: 1, b: 'two', c: true };
  const out = applyOverride(base, { a: 'one', b: ABSENT, d: null });
  assert.deepEqual(out, { a: 'one', c: true, d: null });
  assert.ok(!('b' in out), 'ABSENT removes the key, it does not set it to undefined');
  assert.deepEqual(base, { a: 1, b: 'two', c: true }, 'the base object is not mutated');
});

test('applyOverride keeps falsy and wrong-typed values as given (negative tests need them)', () => {
  const out = applyOverride({ exp: 123 }, { exp: '123', nbf: 0, x: undefined, y: false });
  assert.equal(out.exp, '123');
  assert.equal(out.nbf, 0);
  assert.ok('x' in out && out.x === undefined);
  assert.equal(out.y, false);
});

test('applyOverride with no override returns an equal copy', () => {
  const base = { a: 1 };
  const out = applyOverride(base);
  assert.deepEqual(out, base);
  assert.notEqual(out, base);
});

test('RS256 compact JWS verifies with jose and the public key', async () => {
  const token = signCompact(header, payload, { kind: 'rs256', key: privateKey });
  assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  const { payload: bytes, protectedHeader } = await compactVerify(token, publicKey);
  assert.deepEqual(protectedHeader, header);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(bytes)), payload);
});

test('RS256 signature does not verify with another key', async () => {
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey;
  const token = signCompact(header, payload, { kind: 'rs256', key: privateKey });
  await assert.rejects(compactVerify(token, other), /signature verification failed/i);
});

test('header and payload bytes are exactly the JSON given, in order', () => {
  const token = signCompact({ typ: 'JWT', alg: 'RS256' }, { b: 1, a: 2 }, { kind: 'none' });
  const [h, p] = token.split('.');
  assert.equal(Buffer.from(h!, 'base64url').toString(), '{"typ":"JWT","alg":"RS256"}');
  assert.equal(Buffer.from(p!, 'base64url').toString(), '{"b":1,"a":2}');
});

test('HS256 signature is the HMAC-SHA256 of the signing input and verifies with jose', async () => {
  const secret = 'a-shared-secret-of-sufficient-length-32b';
  const hsHeader = { alg: 'HS256', typ: 'JWT' };
  const token = signCompact(hsHeader, payload, { kind: 'hs256', secret });
  const [h, p, s] = token.split('.');
  assert.equal(s, createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url'));
  const { payload: bytes } = await compactVerify(token, new TextEncoder().encode(secret));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(bytes)), payload);
});

test('alg none gives an empty signature part', () => {
  const token = signCompact({ alg: 'none', typ: 'JWT' }, payload, { kind: 'none' });
  assert.ok(token.endsWith('.'));
  assert.equal(token.split('.').length, 3);
  assert.equal(token.split('.')[2], '');
});

test('decodeCompact round-trips what signCompact produced', () => {
  const token = signCompact(header, payload, { kind: 'rs256', key: privateKey });
  const decoded = decodeCompact(token);
  assert.ok(decoded);
  assert.deepEqual(decoded.header, header);
  assert.deepEqual(decoded.payload, payload);
  assert.equal(decoded.signature, token.split('.')[2]);
});

test('decodeCompact returns undefined on garbage, never throws', () => {
  const notObject = b64url('[1,2]');
  const obj = b64url('{"a":1}');
  const cases = [
    '',
    'garbage',
    'a.b',
    'a.b.c.d',
    '...',
    '!!!.???.***',
    `${b64url('not json')}.${obj}.sig`,
    `${obj}.${b64url('{"unterminated":')}.sig`,
    `${notObject}.${obj}.sig`,
    `${obj}.${b64url('null')}.sig`,
    `${obj}.${b64url('"a string"')}.sig`,
    `${obj}.${b64url('42')}.sig`,
  ];
  for (const token of cases) {
    assert.doesNotThrow(() => decodeCompact(token), `decodeCompact(${JSON.stringify(token)}) threw`);
    assert.equal(decodeCompact(token), undefined, `decodeCompact(${JSON.stringify(token)}) should be undefined`);
  }
});

test('b64url has no padding and uses the URL alphabet', () => {
  const encoded = b64url(Uint8Array.from([0xfb, 0xff, 0xfe]));
  assert.equal(encoded, '-__-');
  assert.equal(b64url('a'), 'YQ');
});
