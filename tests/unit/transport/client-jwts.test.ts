/**
 * The authentication JWT and the SCA JWT (spec §5) are the valid twins of every auth negative case:
 * each must carry every required claim with the right type, and each override (change, remove,
 * mistype) must reach the signed token, or a "mutated" case would send the valid token.
 * Run: node --import tsx --test tests/unit/transport/client-jwts.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { compactVerify } from 'jose';
import {
  authenticationJwt,
  nowSeconds,
  scaJwt,
  type ClientIdentity,
  type JwtOptions,
} from '../../../transport/client-jwts';
import { ABSENT, decodeCompact, type DecodedJws } from '../../../transport/jws';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const client: ClientIdentity = {
  role: 'primary',
  clientId: 'client-unit-1',
  clientSecret: 'secret-unit-1',
  kid: 'kid-unit-1',
  iss: 'https://primary.bank.example',
  privateKey,
  publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
};
const body = '{"fitoFICstmrCdtTrf":{"grpHdr":{"msgId":"M1"}}}';

function decode(token: string): DecodedJws {
  const decoded = decodeCompact(token);
  assert.ok(decoded, `not a decodable compact JWS: ${token}`);
  return decoded;
}

const isNumericDate = (v: unknown): boolean => typeof v === 'number' && Number.isInteger(v) && v > 1_600_000_000;

type Kind = 'authentication' | 'sca';
const make = (kind: Kind, options: JwtOptions = {}): string =>
  kind === 'authentication' ? authenticationJwt(client, options) : scaJwt(client, body, options);

/** Spec §5 tables: every required header field and claim, with the check of its type/value. */
const headerRules: Record<string, (v: unknown) => boolean> = {
  kid: (v) => v === client.kid,
  typ: (v) => v === 'JWT',
  alg: (v) => v === 'RS256',
};
const claimRules: Record<Kind, Record<string, (v: unknown) => boolean>> = {
  authentication: {
    sub: (v) => v === client.clientId,
    nbf: isNumericDate,
    iss: (v) => v === client.iss,
    exp: isNumericDate,
    iat: isNumericDate,
    jti: (v) => typeof v === 'string' && v.length > 0,
  },
  sca: {
    iss: (v) => v === client.iss,
    exp: isNumericDate,
    iat: isNumericDate,
    jti: (v) => typeof v === 'string' && v.length > 0,
    alg: (v) => v === 'SHA256',
    hd: (v) => typeof v === 'string' && /^[A-Za-z0-9+/]{43}=$/.test(v),
    nonce: (v) => typeof v === 'string' && v.length > 0,
  },
};

for (const kind of ['authentication', 'sca'] as const) {
  test(`${kind} JWT carries every §5 header field and claim with the right type`, () => {
    const { header, payload } = decode(make(kind));
    for (const [name, ok] of Object.entries(headerRules))
      assert.ok(ok(header[name]), `header.${name} = ${JSON.stringify(header[name])}`);
    for (const [name, ok] of Object.entries(claimRules[kind]))
      assert.ok(ok(payload[name]), `claim ${name} = ${JSON.stringify(payload[name])}`);
  });

  test(`${kind} JWT is RS256-signed with the client's key and verifies with its registered public key`, async () => {
    const { protectedHeader } = await compactVerify(make(kind), publicKey);
    assert.equal(protectedHeader.alg, 'RS256');
  });

  test(`${kind} JWT times: iat = now, exp after iat by the lifetime, nbf not before iat`, () => {
    const now = 1_750_000_000;
    const { payload } = decode(make(kind, { now, lifetimeSeconds: 120 }));
    assert.equal(payload.iat, now);
    assert.equal(payload.exp, now + 120);
    if ('nbf' in payload) assert.equal(payload.nbf, now);
    const fresh = decode(make(kind)).payload;
    assert.ok(Math.abs((fresh.iat as number) - nowSeconds()) <= 1);
    assert.ok((fresh.exp as number) > (fresh.iat as number));
  });

  test(`${kind} JWT jti (and nonce) are unique per token`, () => {
    const a = decode(make(kind)).payload;
    const b = decode(make(kind)).payload;
    assert.notEqual(a.jti, b.jti);
    if (kind === 'sca') assert.notEqual(a.nonce, b.nonce);
  });

  for (const name of Object.keys(headerRules)) {
    test(`${kind} JWT header override of ${name}: change, remove, wrong type`, () => {
      assert.equal(decode(make(kind, { header: { [name]: 'changed' } })).header[name], 'changed');
      const removed = decode(make(kind, { header: { [name]: ABSENT } })).header;
      assert.ok(!(name in removed), `header.${name} still present`);
      assert.equal(decode(make(kind, { header: { [name]: 42 } })).header[name], 42);
      // The other header fields are untouched.
      for (const other of Object.keys(headerRules).filter((n) => n !== name))
        assert.ok(headerRules[other]!(removed[other]));
    });
  }

  for (const name of Object.keys(claimRules[kind])) {
    test(`${kind} JWT claim override of ${name}: change, remove, wrong type`, () => {
      assert.equal(decode(make(kind, { claims: { [name]: 'changed' } })).payload[name], 'changed');
      const removed = decode(make(kind, { claims: { [name]: ABSENT } })).payload;
      assert.ok(!(name in removed), `claim ${name} still present`);
      // Wrong type: a string claim gets a number, a number claim gets its digits as a string.
      const original = decode(make(kind)).payload[name];
      const wrong = typeof original === 'number' ? String(original) : 12345;
      assert.deepEqual(decode(make(kind, { claims: { [name]: wrong } })).payload[name], wrong);
      assert.deepEqual(decode(make(kind, { claims: { [name]: null } })).payload[name], null);
      for (const [other, ok] of Object.entries(claimRules[kind]).filter(([n]) => n !== name))
        assert.ok(ok(removed[other]), `claim ${other} damaged`);
    });
  }

  test(`${kind} JWT accepts extra claims and a different signer`, async () => {
    const token = make(kind, { claims: { extra: 'x' }, header: { alg: 'none' }, signer: { kind: 'none' } });
    const { header, payload, signature } = decode(token);
    assert.equal(payload.extra, 'x');
    assert.equal(header.alg, 'none');
    assert.equal(signature, '');
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    await assert.rejects(compactVerify(make(kind, { signer: { kind: 'rs256', key: other.privateKey } }), publicKey));
  });
}

test('scaJwt hd is the Base64 SHA-256 of the given bytes (string or Uint8Array)', () => {
  const expected = createHash('sha256').update(Buffer.from(body, 'utf8')).digest('base64');
  assert.equal(decode(scaJwt(client, body)).payload.hd, expected);
  assert.equal(decode(scaJwt(client, new TextEncoder().encode(body))).payload.hd, expected);
  const bytes = Uint8Array.from([0xff, 0x00, 0xfe, 0x80]); // not valid UTF-8: hashed as bytes, not re-encoded
  assert.equal(decode(scaJwt(client, bytes)).payload.hd, createHash('sha256').update(bytes).digest('base64'));
  assert.equal(decode(scaJwt(client, '')).payload.hd, '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
});

test('authentication JWT has no hd and the SCA JWT has no sub (the two are not interchangeable by accident)', () => {
  assert.ok(!('hd' in decode(authenticationJwt(client)).payload));
  assert.ok(!('sub' in decode(scaJwt(client, body)).payload));
});

test('the authentication JWT carries aud only for a client with an audience (the profile’s assertionAudience); the SCA JWT never', () => {
  assert.equal(decode(authenticationJwt(client)).payload.aud, undefined, 'the spec’s claim table has no aud');
  const audience = 'https://auth.bank.example/oauth/token';
  const withAudience = { ...client, audience };
  assert.equal(decode(authenticationJwt(withAudience)).payload.aud, audience);
  assert.equal(decode(scaJwt(withAudience, body)).payload.aud, undefined);
  assert.equal(
    decode(authenticationJwt(withAudience, { claims: { aud: ABSENT } })).payload.aud,
    undefined,
    'a case can still remove it',
  );
});
