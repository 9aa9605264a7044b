/**
 * RFC 8725 / jwt_tool attack faults of the reference (README "JWT attack faults"): for the
 * authentication JWT (token endpoint) and the SCA JWT (payment submission), each crafted token is
 * accepted with its fault on and refused by the clean reference; a fault of one JWT never opens the
 * other. The recipes here are the ones the README gives the suite.
 * Run: node --import tsx --test tests/unit/reference/reference-jwt-attacks.test.ts
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { constants, sign, type KeyObject } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import {
  Harness,
  b64url,
  compact,
  jwt,
  pacs008,
  rsaKeys,
  send,
  type Keys,
  type TestClient,
} from '../support/reference-harness';
import { certificatePem, selfSignedCertificate } from '../../../transport/x509';
import { isFetchableKeyUrl } from '../../../reference/remote-keys';

let h: Harness;
let evil: Keys;
let keyServer: Server;
let keyBase: string;
/** What the attacker's key server serves: path -> body. */
const served = new Map<string, string>();

before(async () => {
  h = await Harness.start();
  evil = rsaKeys();
  keyServer = createServer((req, res) => {
    const body = served.get(req.url ?? '');
    res.writeHead(body === undefined ? 404 : 200, {
      'content-type': req.url?.endsWith('.json') ? 'application/json' : 'application/x-pem-file',
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => keyServer.listen(0, '127.0.0.1', resolve));
  keyBase = `http://127.0.0.1:${(keyServer.address() as AddressInfo).port}`;
  const cert = selfSignedCertificate(evil.publicKey, evil.privateKey);
  served.set('/cert.pem', certificatePem(cert));
});
after(async () => {
  await h.close();
  await new Promise((r) => keyServer.close(r));
});

type Claims = Record<string, unknown>;
/** An attack: builds the token from the client and the claims it must carry. */
type Build = (c: TestClient, claims: Claims) => string;

const rs = (c: TestClient): Record<string, unknown> => ({ alg: 'RS256', typ: 'JWT', kid: c.kid });
const evilJwk = (): Record<string, unknown> => evil.publicKey.export({ format: 'jwk' }) as Record<string, unknown>;

function signedWith(alg: string, key: KeyObject): Build {
  return (c, claims) => {
    const input = `${b64url(JSON.stringify({ ...rs(c), alg }))}.${b64url(JSON.stringify(claims))}`;
    const bits = alg.slice(2);
    const signature = alg.startsWith('PS')
      ? sign(`sha${bits}`, Buffer.from(input), {
          key,
          padding: constants.RSA_PKCS1_PSS_PADDING,
          saltLength: Number(bits) / 8,
        })
      : sign(`sha${bits}`, Buffer.from(input), key);
    return `${input}.${b64url(signature)}`;
  };
}

const attacks: Array<{ name: string; token: string; sca: string; build: Build }> = [
  {
    name: 'x5c with the attacker’s certificate',
    token: 'token-trusts-x5c',
    sca: 'sca-trusts-x5c',
    build: (c, claims) =>
      jwt(
        { ...rs(c), x5c: [selfSignedCertificate(evil.publicKey, evil.privateKey).toString('base64')] },
        claims,
        evil.privateKey,
      ),
  },
  {
    name: 'x5u pointing at the attacker’s certificate',
    token: 'token-trusts-x5u',
    sca: 'sca-trusts-x5u',
    build: (c, claims) => jwt({ ...rs(c), x5u: `${keyBase}/cert.pem` }, claims, evil.privateKey),
  },
  {
    name: 'jwk embedding the attacker’s key',
    token: 'token-trusts-embedded-jwk',
    sca: 'sca-trusts-embedded-jwk',
    build: (c, claims) => jwt({ ...rs(c), jwk: evilJwk() }, claims, evil.privateKey),
  },
  {
    name: 'jku pointing at the attacker’s JWK Set',
    token: 'token-trusts-jku',
    sca: 'sca-trusts-jku',
    build: (c, claims) => {
      served.set(`/${c.kid}.json`, JSON.stringify({ keys: [{ ...evilJwk(), kid: c.kid, use: 'sig', alg: 'RS256' }] }));
      return jwt({ ...rs(c), jku: `${keyBase}/${c.kid}.json` }, claims, evil.privateKey);
    },
  },
  {
    name: 'crit naming an unknown extension',
    token: 'token-ignores-crit',
    sca: 'sca-ignores-crit',
    build: (c, claims) =>
      jwt({ ...rs(c), crit: ['urn:example:unknown'], 'urn:example:unknown': true }, claims, c.keys.privateKey),
  },
  {
    name: 'b64 false (RFC 7797), payload unencoded between the dots',
    token: 'token-honours-b64-false',
    sca: 'sca-honours-b64-false',
    build: (c, claims) => {
      const header = b64url(JSON.stringify({ ...rs(c), b64: false, crit: ['b64'] }));
      const payload = JSON.stringify(claims);
      return `${header}.${payload}.${b64url(sign('sha256', Buffer.from(`${header}.${payload}`), c.keys.privateKey))}`;
    },
  },
  {
    name: 'duplicate alg members, RS256 first and none last, no signature',
    token: 'token-alg-first-member',
    sca: 'sca-alg-first-member',
    build: (c, claims) =>
      compact(`{"alg":"RS256","typ":"JWT","kid":${JSON.stringify(c.kid)},"alg":"none"}`, JSON.stringify(claims), null),
  },
  {
    name: 'PS256 with the registered key',
    token: 'token-accepts-rsa-family-alg',
    sca: 'sca-accepts-rsa-family-alg',
    build: (c, claims) => signedWith('PS256', c.keys.privateKey)(c, claims),
  },
  {
    name: 'RS384 with the registered key',
    token: 'token-accepts-rsa-family-alg',
    sca: 'sca-accepts-rsa-family-alg',
    build: (c, claims) => signedWith('RS384', c.keys.privateKey)(c, claims),
  },
  {
    name: 'ES256 with the zero signature (psychic signature)',
    token: 'token-accepts-psychic-signature',
    sca: 'sca-accepts-psychic-signature',
    build: (c, claims) =>
      compact(JSON.stringify({ ...rs(c), alg: 'ES256' }), JSON.stringify(claims), null, Buffer.alloc(64)),
  },
];

async function assertionStatus(c: TestClient, build: Build): Promise<number> {
  return (await h.tokenRequest(c, build(c, h.assertionClaims(c)))).status;
}

async function scaStatus(c: TestClient, build: Build): Promise<number> {
  const token = await h.token(c);
  const body = JSON.stringify(pacs008());
  return (await h.post('pacs008/v10', c, token, body, { 'sca-token': build(c, h.scaClaims(c, body)) })).status;
}

for (const attack of attacks) {
  test(`${attack.name}: ${attack.token} / ${attack.sca} accept it, the clean reference refuses it`, async () => {
    const clean = await h.client();
    assert.equal(await assertionStatus(clean, attack.build), 400, 'clean: assertion refused (invalid_grant)');
    assert.equal(await scaStatus(clean, attack.build), 401, 'clean: SCA refused');

    const tokenFault = await h.client({ faults: [attack.token] });
    assert.equal(await assertionStatus(tokenFault, attack.build), 200, `${attack.token}: assertion accepted`);
    assert.equal(await scaStatus(tokenFault, attack.build), 401, `${attack.token} does not open the SCA JWT`);

    const scaFault = await h.client({ faults: [attack.sca] });
    assert.equal(await scaStatus(scaFault, attack.build), 201, `${attack.sca}: SCA accepted`);
    assert.equal(await assertionStatus(scaFault, attack.build), 400, `${attack.sca} does not open the assertion`);
  });
}

test('the faulty fetch: loopback http(s) only; an unreachable, foreign or non-certificate URL leaves the token refused', async () => {
  assert.ok(
    isFetchableKeyUrl('http://127.0.0.1:1/x') &&
      isFetchableKeyUrl('https://localhost/x') &&
      isFetchableKeyUrl('http://[::1]:8/x'),
  );
  for (const url of [
    'http://example.com/cert.pem',
    'file:///etc/passwd',
    'http://10.0.0.1/x',
    'http://127.0.0.1.nip.io/x',
    'not a url',
  ])
    assert.ok(!isFetchableKeyUrl(url), url);
  const c = await h.client({ faults: ['token-trusts-x5u', 'sca-trusts-jku'] });
  for (const x5u of [`${keyBase}/missing.pem`, 'http://example.invalid/cert.pem', `${keyBase}/`]) {
    assert.equal(await assertionStatus(c, (cl, claims) => jwt({ ...rs(cl), x5u }, claims, evil.privateKey)), 400, x5u);
  }
  assert.equal(
    await scaStatus(c, (cl, claims) => jwt({ ...rs(cl), jku: `${keyBase}/cert.pem` }, claims, evil.privateKey)),
    401,
  );
  // Under the faults a token signed with the registered key and no key header still passes.
  assert.equal(await assertionStatus(c, (cl, claims) => jwt(rs(cl), claims, cl.keys.privateKey)), 200);
});

test('the zero signature is refused by the fault too when the alg is RS256; a real ES256 signature with an RSA key is refused', async () => {
  const c = await h.client({ faults: ['token-accepts-psychic-signature'] });
  assert.equal(
    await assertionStatus(c, (cl, claims) =>
      compact(JSON.stringify(rs(cl)), JSON.stringify(claims), null, Buffer.alloc(64)),
    ),
    400,
  );
  assert.equal(
    await assertionStatus(c, (cl, claims) =>
      compact(JSON.stringify({ ...rs(cl), alg: 'ES256' }), JSON.stringify(claims), null, Buffer.alloc(64, 1)),
    ),
    400,
  );
});

test('oversized headers never get a 5xx: a 100 KB JWT header in the assertion, a 100 KB sca-token header (431 from Node)', async () => {
  const c = await h.client();
  const big = (cl: TestClient, claims: Claims): string =>
    jwt({ ...rs(cl), pad: 'x'.repeat(100 * 1024) }, claims, cl.keys.privateKey);
  const status = await assertionStatus(c, big);
  assert.ok(status < 500, String(status));
  const unsigned = (cl: TestClient, claims: Claims): string =>
    jwt({ ...rs(cl), pad: 'x'.repeat(100 * 1024) }, claims, evil.privateKey);
  assert.equal(await assertionStatus(c, unsigned), 400);
  const token = await h.token(c);
  const body = JSON.stringify(pacs008());
  const res = await h.post('pacs008/v10', c, token, body, { 'sca-token': big(c, h.scaClaims(c, body)) });
  assert.equal(res.status, 431);
  // The server is fine afterwards.
  assert.equal((await send(`${h.url}/_admin/info`)).status, 200);
});

test('b64 false: claims containing dots still read (everything between the first and the last dot is the payload)', async () => {
  const c = await h.client({
    faults: ['token-honours-b64-false', 'sca-honours-b64-false'],
    iss: 'https://bank.example.co.uk',
  });
  c.iss = 'https://bank.example.co.uk';
  const b64 = attacks.find((a) => a.token === 'token-honours-b64-false')!.build;
  assert.equal(await assertionStatus(c, b64), 200);
  assert.equal(await scaStatus(c, b64), 201);
});
