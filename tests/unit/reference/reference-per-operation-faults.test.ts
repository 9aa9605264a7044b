/**
 * Per-operation faults of the reference (reference/faults.ts `perOperationFaults`): each `base@op`
 * must change the answer of its own operation and of no other. For every catalogue entry the test
 * sends the probe of its family to its operation (the answer must change) and to another operation
 * of the family (the answer must stay the clean one); a client without faults gives the clean answer
 * everywhere.
 * Run: node --import tsx --test tests/unit/reference/reference-per-operation-faults.test.ts
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomUUID, sign } from 'node:crypto';
import { faultCatalogue, perOperationFaults, operations, type Operation } from '../../../reference/faults';
import {
  Harness,
  b64url,
  camt056,
  jwt,
  pacs004,
  pacs007,
  pacs008,
  sha256b64,
  type Reply,
  type TestClient,
} from '../support/reference-harness';

let h: Harness;
let payer: TestClient;
let payerToken: string;

before(async () => {
  h = await Harness.start();
  payer = await h.client();
  payerToken = await h.token(payer);
});
after(() => h.close());

/** A client with everything each operation needs: an incoming settled payment, an own pending one, a cancellation. */
interface Env {
  c: TestClient;
  token: string;
  incoming: Record<string, unknown>;
  incomingId: string;
  pending: Record<string, unknown>;
  pendingId: string;
  cxlId: string;
}

const dataId = (r: Reply): string => (r.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;

/**
 * Token lives a few seconds for the expiry family: the client's token is taken after the incoming
 * payment settled, serves the setup, and has expired when env returns; its probe is a plain request.
 */
const SHORT_TOKEN_TTL_S = 2;
const shortLived: ReadonlySet<string> = new Set(['bearer-never-expires']);

async function env(faults: string[], options: { shortLivedToken?: boolean } = {}): Promise<Env> {
  const c = await h.client({
    faults,
    batching: 'manual',
    ...(options.shortLivedToken ? { tokenTtlSeconds: SHORT_TOKEN_TTL_S } : {}),
  });
  let token = await h.token(c);
  const incoming = pacs008(c.memberId);
  const sent = await h.post('pacs008/v10', payer, payerToken, JSON.stringify(incoming));
  assert.equal(sent.status, 201, sent.text);
  const incomingId = dataId(sent);
  for (let i = 0; ; i++) {
    const st = await h.get(`pacs002/v12/${incomingId}`, payer, payerToken);
    if (
      (st.json as { fitoFIPmtStsRpt: { txInfAndSts: Array<{ txSts: string }> } }).fitoFIPmtStsRpt.txInfAndSts[0]!
        .txSts === 'ACCC'
    )
      break;
    if (i > 200) throw new Error('incoming payment did not settle');
    await new Promise((r) => setTimeout(r, 10));
  }
  // Issued between these two instants: valid until at least the first + TTL, expired by the second + TTL.
  const asked = Date.now();
  if (options.shortLivedToken) token = await h.token(c);
  const issued = Date.now();
  const pending = pacs008();
  const own = await h.post('pacs008/v10', c, token, JSON.stringify(pending));
  assert.equal(own.status, 201, own.text);
  const cxl = await h.post('camt056/v08', c, token, JSON.stringify(camt056(pending)));
  assert.equal(cxl.status, 201, cxl.text);
  if (options.shortLivedToken) {
    assert.ok(Date.now() < asked + SHORT_TOKEN_TTL_S * 1000, `the setup outlived the ${SHORT_TOKEN_TTL_S} s token`);
    await new Promise((r) => setTimeout(r, issued + SHORT_TOKEN_TTL_S * 1000 + 50 - Date.now()));
  }
  return { c, token, incoming, incomingId, pending, pendingId: dataId(own), cxlId: dataId(cxl) };
}

type Probe =
  | 'plain'
  | 'expiredBearer'
  | 'noBearer'
  | 'forgedBearer'
  | 'flippedBearer'
  | 'noClientId'
  | 'otherClientId'
  | 'textPlain'
  | 'noSca'
  | 'badScaSignature'
  | 'otherClientSca'
  | 'hs256Sca'
  | 'otherHd'
  | 'noHd'
  | 'reusedNonce'
  | 'malformedJson'
  | 'deepNesting'
  | 'repeatNoBearer'
  | 'prettyBody'
  | 'newlineBody'
  | 'otherKid'
  | 'otherKidAndKey'
  | 'noContentType'
  | 'kidOtherCase'
  | 'issOtherCase'
  | 'hdOtherCase'
  | 'hdHex';

const probeOf: Readonly<Record<string, Probe>> = {
  'bearer-optional': 'noBearer',
  'bearer-accepts-unknown': 'forgedBearer',
  'bearer-signature-unchecked': 'flippedBearer',
  'bearer-never-expires': 'expiredBearer',
  'client-id-header-optional': 'noClientId',
  'client-id-mismatch-ignored': 'otherClientId',
  'answers-non-json': 'plain',
  'content-type-unchecked': 'textPlain',
  'sca-optional': 'noSca',
  'sca-skips-signature': 'badScaSignature',
  'sca-key-of-any-client': 'otherClientSca',
  'sca-accepts-hs256-public-key': 'hs256Sca',
  'sca-hd-unchecked': 'otherHd',
  'sca-hd-optional': 'noHd',
  'sca-allows-nonce-reuse': 'reusedNonce',
  'malformed-json-500': 'malformedJson',
  'deep-nesting-500': 'deepNesting',
  'repeat-before-authentication': 'repeatNoBearer',
  'sca-hd-over-reserialised-json': 'prettyBody',
  'sca-hd-over-trimmed-body': 'newlineBody',
  'sca-kid-any-registered': 'otherKid',
  'sca-key-by-kid': 'otherKidAndKey',
  'content-type-absent-taken': 'noContentType',
  'sca-kid-casefold': 'kidOtherCase',
  'sca-iss-casefold': 'issOtherCase',
  'sca-hd-ignore-case': 'hdOtherCase',
  'sca-hd-hex-taken': 'hdHex',
};

/** Each letter in the other case (a value with no letter would not change). */
const otherCase = (text: string): string =>
  [...text].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');

/** The robustness families: the fault turns a refusal into a 500, so the outcome is read from the status class. */
const crashFamilies: ReadonlySet<string> = new Set(['malformed-json-500', 'deep-nesting-500']);

function postBody(e: Env, op: Operation): string {
  switch (op) {
    case 'submitPayment':
      return JSON.stringify(pacs008());
    case 'cancel':
      return JSON.stringify(camt056(e.pending));
    case 'returnPayment':
      return JSON.stringify(pacs004(pacs008())); // an unknown original: accepted in the default dialect
    case 'refund':
      return JSON.stringify(pacs007(e.incoming, 0.5));
    default:
      throw new Error(`${op} is not a POST`);
  }
}

const postPath: Partial<Record<Operation, string>> = {
  submitPayment: 'pacs008/v10',
  cancel: 'camt056/v08',
  returnPayment: 'pacs004/v08',
  refund: 'pacs007/v08',
};

async function call(e: Env, op: Operation, probe: Probe): Promise<Reply> {
  if (op === 'token') return h.tokenRequest(e.c, h.assertion(e.c));
  const headers: Record<string, string | null> = {};
  if (probe === 'noBearer') headers.authorization = null;
  if (probe === 'forgedBearer') headers.authorization = `Bearer ${b64url(randomUUID())}`;
  if (probe === 'flippedBearer') {
    const [h64, p64, s64] = e.token.split('.');
    const signature = Buffer.from(s64 ?? '', 'base64url');
    signature[signature.length - 1]! ^= 0x01;
    headers.authorization = `Bearer ${h64}.${p64}.${b64url(signature)}`;
  }
  if (probe === 'noClientId') headers['x-client-id'] = null;
  if (probe === 'otherClientId') headers['x-client-id'] = payer.clientId;
  const path = postPath[op];
  if (!path) {
    const get = {
      paymentStatus: `pacs002/v12/${e.pendingId}`,
      incomingPayment: `pacs008/v08/${e.incomingId}`,
      cancellationStatus: `camt029/v09/${e.cxlId}`,
    }[op as 'paymentStatus'];
    return h.get(get, e.c, e.token, headers);
  }
  const valid = postBody(e, op);
  const body =
    probe === 'malformedJson'
      ? valid.slice(0, -1)
      : probe === 'deepNesting'
        ? `${valid.slice(0, -1)},"x":${'['.repeat(100)}${']'.repeat(100)}}`
        : probe === 'prettyBody'
          ? JSON.stringify(JSON.parse(valid), null, 2)
          : probe === 'newlineBody'
            ? `${valid}\n`
            : valid;
  if (probe === 'repeatNoBearer') {
    // The same body twice: every header valid (a new resource), then without Authorization (a repeat).
    const first = await h.post(path, e.c, e.token, body);
    assert.ok(first.status < 300, `first request on ${op}: ${first.status} ${first.text}`);
    headers.authorization = null;
  }
  const header = { alg: 'RS256', typ: 'JWT', kid: e.c.kid };
  if (probe === 'textPlain') headers['content-type'] = 'text/plain';
  if (probe === 'noContentType') headers['content-type'] = null;
  if (probe === 'kidOtherCase')
    headers['sca-token'] = jwt({ ...header, kid: otherCase(e.c.kid) }, h.scaClaims(e.c, body), e.c.keys.privateKey);
  if (probe === 'issOtherCase')
    headers['sca-token'] = jwt(header, { ...h.scaClaims(e.c, body), iss: otherCase(e.c.iss) }, e.c.keys.privateKey);
  if (probe === 'hdOtherCase')
    headers['sca-token'] = jwt(
      header,
      { ...h.scaClaims(e.c, body), hd: otherCase(sha256b64(body)) },
      e.c.keys.privateKey,
    );
  if (probe === 'hdHex')
    headers['sca-token'] = jwt(
      header,
      { ...h.scaClaims(e.c, body), hd: Buffer.from(sha256b64(body), 'base64').toString('hex') },
      e.c.keys.privateKey,
    );
  if (probe === 'noSca') headers['sca-token'] = null;
  if (probe === 'badScaSignature') {
    const token = jwt(header, h.scaClaims(e.c, body), e.c.keys.privateKey).split('.');
    headers['sca-token'] =
      `${token[0]}.${token[1]}.${b64url(sign('sha256', Buffer.from('something else'), e.c.keys.privateKey))}`;
  }
  // Another client's whole SCA JWT: its kid, its iss, its key.
  if (probe === 'otherClientSca')
    headers['sca-token'] = jwt(
      { ...header, kid: payer.kid },
      { ...h.scaClaims(e.c, body), iss: payer.iss },
      payer.keys.privateKey,
    );
  if (probe === 'hs256Sca') {
    const input = `${b64url(JSON.stringify({ ...header, alg: 'HS256' }))}.${b64url(JSON.stringify(h.scaClaims(e.c, body)))}`;
    headers['sca-token'] = `${input}.${b64url(createHmac('sha256', e.c.keys.publicPem).update(input).digest())}`;
  }
  if (probe === 'otherHd')
    headers['sca-token'] = jwt(
      header,
      { ...h.scaClaims(e.c, body), hd: sha256b64('another body') },
      e.c.keys.privateKey,
    );
  // The same message written otherwise after its hd hashed the compact bytes.
  if (probe === 'prettyBody' || probe === 'newlineBody')
    headers['sca-token'] = jwt(header, h.scaClaims(e.c, valid), e.c.keys.privateKey);
  // Another client's kid, signed with the caller's key; then with that client's key too (the iss the caller's).
  if (probe === 'otherKid')
    headers['sca-token'] = jwt({ ...header, kid: payer.kid }, h.scaClaims(e.c, body), e.c.keys.privateKey);
  if (probe === 'otherKidAndKey')
    headers['sca-token'] = jwt({ ...header, kid: payer.kid }, h.scaClaims(e.c, body), payer.keys.privateKey);
  if (probe === 'noHd') {
    const { hd: _, ...claims } = h.scaClaims(e.c, body);
    headers['sca-token'] = jwt(header, claims, e.c.keys.privateKey);
  }
  if (probe === 'reusedNonce') {
    const nonce = randomUUID();
    const firstBody = postBody(e, op);
    const first = await h.post(path, e.c, e.token, firstBody, {
      'sca-token': jwt(header, { ...h.scaClaims(e.c, firstBody), nonce }, e.c.keys.privateKey),
    });
    assert.ok(first.status < 300, `first use of the nonce on ${op}: ${first.status} ${first.text}`);
    headers['sca-token'] = jwt(header, { ...h.scaClaims(e.c, body), nonce }, e.c.keys.privateKey);
  }
  // As bytes: fetch declares a string body text/plain itself.
  return h.post(path, e.c, e.token, probe === 'noContentType' ? Buffer.from(body) : body, headers);
}

/** What the probe observes: for answers-non-json the media type of a success, for the others accepted or refused. */
function outcome(base: string, r: Reply): string {
  if (base === 'answers-non-json') {
    assert.ok(r.status < 300, `${r.status} ${r.text}`);
    return /json/.test(r.headers.get('content-type') ?? '') ? 'clean' : 'fault';
  }
  if (crashFamilies.has(base)) return r.status >= 500 ? 'fault' : 'clean';
  if (r.status >= 500) throw new Error(`5xx: ${r.text}`);
  return r.status < 300 ? 'fault' : 'clean';
}

const families = new Map<string, Operation[]>();
for (const f of perOperationFaults) {
  const [base, op] = f.name.split('@') as [string, Operation];
  families.set(base, [...(families.get(base) ?? []), op]);
}

test('the per-operation catalogue: every base is a global fault, every op is known, every family has a probe', () => {
  const names = new Set(faultCatalogue.map((f) => f.name));
  for (const [base, ops] of families) {
    assert.ok(names.has(base as never), `${base} is also a global fault`);
    assert.ok(probeOf[base], `${base} has a probe`);
    for (const op of ops) assert.ok(operations.includes(op));
    const rules = new Set(perOperationFaults.filter((f) => f.name.startsWith(`${base}@`)).map((f) => f.rule));
    assert.deepEqual(
      [...rules],
      [faultCatalogue.find((f) => f.name === base)!.rule],
      `${base}: one rule, the global fault's`,
    );
  }
  // + 4: repeat-before-authentication on each POST; + 7 + 4: bearer-signature-unchecked and sca-hd-optional;
  // + 4 + 4: sca-key-of-any-client and sca-accepts-hs256-public-key; − 2: AT-07 governs pacs008 and pacs004 only;
  // + 4 + 3: bearer-never-expires on the seven operations AT-05 governs; + 4 × 4: the hd over the
  // body parsed or trimmed, another client's kid, the key found by the kid, on each POST; + 2: a body
  // with no Content-Type on AT-07's two; + 4 × 4: kid and iss ignoring case, hd ignoring case or in hex.
  assert.equal(perOperationFaults.length, 7 * 4 + 8 + 4 + 6 * 4 + 4 + 7 + 4 + 4 + 4 - 2 + 4 + 3 + 4 * 4 + 2 + 4 * 4);
});

test('a client without faults gets the clean answer to every probe on every operation', async () => {
  const e = await env([]);
  const expiring = await env([], { shortLivedToken: true });
  for (const [base, ops] of families)
    for (const op of ops)
      assert.equal(
        outcome(base, await call(shortLived.has(base) ? expiring : e, op, probeOf[base]!)),
        'clean',
        `${base} probe on ${op}`,
      );
});

for (const [base, ops] of families) {
  test(`${base}@<op> breaks ${base} on that operation only (${ops.join(', ')})`, async () => {
    for (const [i, op] of ops.entries()) {
      const e = await env([`${base}@${op}`], { shortLivedToken: shortLived.has(base) });
      assert.equal(outcome(base, await call(e, op, probeOf[base]!)), 'fault', `${base}@${op} on ${op}`);
      const other = ops[(i + 1) % ops.length]!;
      assert.equal(outcome(base, await call(e, other, probeOf[base]!)), 'clean', `${base}@${op} on ${other}`);
    }
  });
}

test('a global base fault still applies to every operation of its family', async () => {
  const e = await env(['bearer-optional', 'answers-non-json']);
  for (const op of families.get('bearer-optional')!)
    assert.equal(outcome('bearer-optional', await call(e, op, 'noBearer')), 'fault', op);
  for (const op of families.get('answers-non-json')!)
    assert.equal(outcome('answers-non-json', await call(e, op, 'plain')), 'fault', op);
});

test('REF_FAULTS-style validation: per-operation names are known, a bad operation is not', async () => {
  const ok = await h.register({
    clientId: 'x1',
    clientSecret: 's',
    kid: 'k',
    iss: 'i',
    publicKey: h.keys.publicPem,
    faults: ['sca-optional@refund'],
  });
  assert.equal(ok.status, 201);
  for (const bad of ['sca-optional@paymentStatus', 'bearer-optional@token', 'bearer-optional@nope']) {
    const res = await h.register({
      clientId: 'x2',
      clientSecret: 's',
      kid: 'k',
      iss: 'i',
      publicKey: h.keys.publicPem,
      faults: [bad],
    });
    assert.equal(res.status, 400, bad);
  }
});
