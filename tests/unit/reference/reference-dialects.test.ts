/**
 * The reference's dialects (reference/dialects.ts, README "Dialects"): the grammar, the presets, the
 * per-client dialect of the registration, and what each field changes on the wire.
 * Run: node --import tsx --test tests/unit/reference/reference-dialects.test.ts
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  defaultDialect,
  dialectChoices,
  dialects,
  refusalStatusIn,
  resolveDialect,
  type Dialect,
} from '../../../reference/dialects';
import {
  Harness,
  JWT_BEARER,
  camt056,
  ids,
  jwt,
  pacs004,
  pacs007,
  pacs008,
  send,
  sha256b64,
  type TestClient,
} from '../support/reference-harness';

let h: Harness;
before(async () => {
  h = await Harness.start();
});
after(() => h.close());

/** A payment from payer to payee, settled as accepted (`accepted`: the payer's acceptedStatus). */
async function paid(payer: TestClient, payee: TestClient, accepted = 'ACCC'): Promise<Record<string, unknown>> {
  const token = await h.token(payer);
  const p = pacs008(payee.memberId);
  const res = await h.post('pacs008/v10', payer, token, JSON.stringify(p));
  assert.equal(res.status, 201, res.text);
  const id = (res.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;
  for (let i = 0; i < 100; i++) {
    const st = await h.get(`pacs002/v12/${id}`, payer, token);
    const sts = (st.json as { fitoFIPmtStsRpt: { txInfAndSts: Array<{ txSts: string }> } }).fitoFIPmtStsRpt
      .txInfAndSts[0]!.txSts;
    if (sts === accepted) return p;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('payment did not settle');
}

test('grammar: presets, JSON text, object, base, dotted and nested refusal statuses, legacy names', () => {
  assert.equal(resolveDialect(undefined), defaultDialect);
  assert.equal(resolveDialect('strict-422'), dialects['strict-422']);
  const custom = resolveDialect(
    '{"base":"strict-422","repeatBody":"empty","refusalStatus":{"business":409},"refusalStatus.forbidden":404}',
  );
  assert.equal(custom.name, 'custom');
  assert.equal(custom.repeatBody, 'empty');
  assert.equal(custom.errorBody, 'problem', 'base fields kept');
  assert.deepEqual(
    [custom.refusalStatus.business, custom.refusalStatus.forbidden, custom.refusalStatus.validation],
    [409, 404, 422],
  );
  const legacy = resolveDialect({ validationStatus: 422, scaFailureStatus: 403 });
  assert.deepEqual(
    [
      legacy.refusalStatus.validation,
      legacy.refusalStatus.business,
      legacy.refusalStatus.conflict,
      legacy.refusalStatus.sca,
    ],
    [422, 422, 422, 403],
  );
  for (const bad of [
    'nope',
    '{"nope":1}',
    '{"errorBody":"xml"}',
    '{"refusalStatus":{"notFound":400}}',
    '{"refusalStatus.bogus":400}',
    '{"base":"x"}',
    '[1]',
    '{"refusalStatus":3}',
  ]) {
    assert.throws(() => resolveDialect(bad), Error, bad);
  }
  assert.equal(defaultDialect.refusalStatus, resolveDialect('').refusalStatus);
});

test('presets keep their observable statuses (strict-422: 422 validation/business/conflict, SCA 403; lenient as default)', () => {
  const strict = dialects['strict-422']!.refusalStatus;
  assert.deepEqual(
    { ...strict },
    {
      validation: 422,
      malformed: 400,
      unauthenticated: 401,
      forbidden: 403,
      sca: 403,
      notFound: 404,
      business: 422,
      mediaType: 415,
      tooLarge: 413,
      missingHeader: 400,
      notAcceptable: 406,
      conflict: 422,
    },
  );
  assert.deepEqual({ ...dialects.lenient!.refusalStatus }, { ...defaultDialect.refusalStatus });
  assert.equal(defaultDialect.refusalStatus.validation, 400);
  assert.equal(defaultDialect.refusalStatus.sca, 401);
});

test('dialectChoices lists every field once, default first, and every preset uses listed values', () => {
  const fields = dialectChoices.map((c) => c.field);
  assert.equal(new Set(fields).size, fields.length);
  const expected = [
    ...Object.keys(defaultDialect.refusalStatus).map((k) => `refusalStatus.${k}`),
    ...Object.keys(defaultDialect.causeStatus).map((k) => `causeStatus.${k}`),
    ...Object.keys(defaultDialect).filter((k) => !['name', 'refusalStatus', 'causeStatus'].includes(k)),
  ].sort();
  assert.deepEqual([...fields].sort(), expected);
  const read = (d: Dialect, field: string): unknown =>
    field.startsWith('refusalStatus.')
      ? d.refusalStatus[field.slice(14) as keyof Dialect['refusalStatus']]
      : field.startsWith('causeStatus.')
        ? d.causeStatus[field.slice(12) as keyof Dialect['causeStatus']]
        : d[field as keyof Dialect];
  for (const c of dialectChoices) {
    assert.equal(c.values[0], c.default, `${c.field}: default first`);
    assert.equal(read(defaultDialect, c.field), c.default, c.field);
    for (const preset of Object.values(dialects))
      assert.ok(c.values.includes(read(preset, c.field) as never), `${preset.name}.${c.field}`);
    // Every listed value is accepted by the grammar.
    for (const v of c.values) assert.equal(read(resolveDialect({ [c.field]: v }), c.field), v);
  }
});

test('GET /_admin/info serves dialectChoices and the presets', async () => {
  const info = (await send(`${h.url}/_admin/info`)).json as {
    dialectChoices: unknown[];
    dialectPresets: Record<string, unknown>;
  };
  assert.deepEqual(info.dialectChoices, JSON.parse(JSON.stringify(dialectChoices)));
  assert.deepEqual(Object.keys(info.dialectPresets), Object.keys(dialects));
});

test('registration: dialect is a preset name or an object; unknown fields or values are 400', async () => {
  for (const dialect of ['nope', { errorBody: 'xml' }, { bogus: 1 }, 42, ['default']]) {
    const res = await h.register({
      clientId: 'x',
      clientSecret: 'y',
      kid: 'k',
      iss: 'i',
      publicKey: h.keys.publicPem,
      dialect,
    });
    assert.equal(res.status, 400, JSON.stringify(dialect));
    assert.equal((res.json as { errors: Array<{ code: string }> }).errors[0]!.code, 'invalid_registration');
  }
  await h.client({ dialect: 'strict-422' });
  await h.client({ dialect: { base: 'lenient', refusalStatus: { sca: 400 } } });
});

test('per-client dialect: refusals, token response and ids follow the client, others keep the process dialect', async () => {
  const plain = await h.client();
  const strict = await h.client({ dialect: 'strict-422' });
  const tokStrict = await h.tokenRequest(strict, h.assertion(strict));
  assert.equal(typeof (tokStrict.json as { expires_in: unknown }).expires_in, 'string');
  assert.ok(!(tokStrict.json as { access_token: string }).access_token.includes('.'), 'opaque token');
  const tokPlain = await h.tokenRequest(plain, h.assertion(plain));
  assert.equal(typeof (tokPlain.json as { expires_in: unknown }).expires_in, 'number');

  const ts = (tokStrict.json as { access_token: string }).access_token;
  const tp = (tokPlain.json as { access_token: string }).access_token;
  const invalid = JSON.stringify({ fitoFICstmrCdtTrf: { grpHdr: { msgId: 'only' } } });
  const rs = await h.post('pacs008/v10', strict, ts, invalid);
  assert.equal(rs.status, 422);
  assert.match(rs.headers.get('content-type') ?? '', /application\/problem\+json/);
  const rp = await h.post('pacs008/v10', plain, tp, invalid);
  assert.equal(rp.status, 400);
  assert.ok(Array.isArray((rp.json as { errors: unknown[] }).errors));

  const ok = await h.post('pacs008/v10', strict, ts, JSON.stringify(pacs008()));
  assert.match((ok.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId, /^PSI\d{20}$/);

  // Before authentication: the X-Client-Id client's dialect (problem body), else the process dialect.
  const noBearer = await h.post('pacs008/v10', strict, ts, invalid, { authorization: null });
  assert.equal(noBearer.status, 401);
  assert.match(noBearer.headers.get('content-type') ?? '', /problem\+json/);
  const unknownPath = await send(`${h.url}/payments/nope`, { headers: { 'x-client-id': strict.clientId } });
  assert.match(unknownPath.headers.get('content-type') ?? '', /problem\+json/);
  const anon = await send(`${h.url}/payments/nope`);
  assert.ok(Array.isArray((anon.json as { errors: unknown[] }).errors));
  // A valid token of the strict client with X-Client-Id naming the plain one: the token's owner answers (403, problem).
  const mismatch = await h.post('pacs008/v10', strict, ts, invalid, { 'x-client-id': plain.clientId });
  assert.equal(mismatch.status, 403);
  assert.match(mismatch.headers.get('content-type') ?? '', /problem\+json/);
});

test('refusalStatus: every class answers its dialect status', async () => {
  const c = await h.client({
    dialect: {
      refusalStatus: {
        validation: 422,
        malformed: 422,
        forbidden: 404,
        sca: 400,
        business: 409,
        mediaType: 400,
        tooLarge: 400,
        missingHeader: 401,
        notAcceptable: 400,
        conflict: 409,
      },
      idempotencyConflict: 'reject',
    },
  });
  const other = await h.client();
  const t = await h.token(c);
  const body = JSON.stringify(pacs008());
  assert.equal((await h.post('pacs008/v10', c, t, '{"fitoFICstmrCdtTrf":{}}')).status, 422, 'validation');
  assert.equal((await h.post('pacs008/v10', c, t, '{nope')).status, 422, 'malformed');
  assert.equal((await h.post('pacs008/v10', c, t, body, { 'x-client-id': other.clientId })).status, 404, 'forbidden');
  assert.equal((await h.post('pacs008/v10', c, t, body, { 'sca-token': 'a.b.c' })).status, 400, 'sca');
  assert.equal((await h.post('pacs008/v10', c, t, body, { 'content-type': 'text/plain' })).status, 400, 'mediaType');
  assert.equal((await h.post('pacs008/v10', c, t, body, { 'x-client-id': null })).status, 401, 'missingHeader');
  assert.equal((await h.post('pacs008/v10', c, t, body, { 'sca-token': null })).status, 401, 'missingHeader sca-token');
  assert.equal((await h.post('pacs008/v10', c, t, body, { accept: 'text/html' })).status, 400, 'notAcceptable');
  assert.equal(
    (await h.post('pacs008/v10', c, t, body, { authorization: 'Bearer nope' })).status,
    401,
    'unauthenticated',
  );
  assert.equal((await h.get('pacs002/v12/nope', c, t)).status, 404, 'notFound');
  const big = 'x'.repeat(1_100_000);
  assert.equal((await h.post('pacs008/v10', c, t, big, { 'sca-token': 'x' })).status, 400, 'tooLarge');
  const p = pacs008();
  assert.equal((await h.post('pacs008/v10', c, t, JSON.stringify(p))).status, 201);
  assert.equal((await h.post('pacs008/v10', c, t, `${JSON.stringify(p)} `)).status, 409, 'conflict');
  // business: a refund of an unknown original
  assert.equal((await h.post('pacs007/v08', c, t, JSON.stringify(pacs007(pacs008())))).status, 409, 'business');
});

test('errorBody message: one {code, message} object, application/json', async () => {
  const c = await h.client({ dialect: { errorBody: 'message' } });
  const t = await h.token(c);
  const res = await h.post('pacs008/v10', c, t, '{"fitoFICstmrCdtTrf":{}}');
  assert.equal(res.status, 400);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(res.json as object).sort(), ['code', 'message']);
  assert.equal((res.json as { code: string }).code, 'required');
});

test('status codes follow the submitter (interimStatus ACTC, acceptedStatus ACSC)', async () => {
  const payer = await h.client({ dialect: { interimStatus: 'ACTC', acceptedStatus: 'ACSC' }, batching: 'manual' });
  const t = await h.token(payer);
  const res = await h.post('pacs008/v10', payer, t, JSON.stringify(pacs008()));
  const id = (res.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;
  const read = async (): Promise<string> =>
    (
      (await h.get(`pacs002/v12/${id}`, payer, t)).json as {
        fitoFIPmtStsRpt: { txInfAndSts: Array<{ txSts: string }> };
      }
    ).fitoFIPmtStsRpt.txInfAndSts[0]!.txSts;
  assert.equal(await read(), 'ACTC');
  await h.settle(payer);
  assert.equal(await read(), 'ACSC');
});

test('settlingStatus ACSC: a settled payment reads ACSC for REF_SETTLING_MS, then its acceptedStatus', async () => {
  const slow = await Harness.start({ settlingMs: 150 });
  try {
    const payer = await slow.client({ dialect: 'settles-via-acsc', batching: 'manual' });
    const t = await slow.token(payer);
    const res = await slow.post('pacs008/v10', payer, t, JSON.stringify(pacs008()));
    const id = (res.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;
    const seen: string[] = [];
    for (let i = 0; i < 200 && seen.at(-1) !== 'ACCC'; i++) {
      if (i === 1) await send(`${slow.url}/_admin/clients/${payer.clientId}/send-batch`, { method: 'POST' });
      const report = (await slow.get(`pacs002/v12/${id}`, payer, t)).json as {
        fitoFIPmtStsRpt: { txInfAndSts: Array<{ txSts: string; accptncDtTm?: string }> };
      };
      const entry = report.fitoFIPmtStsRpt.txInfAndSts[0]!;
      if (entry.txSts !== seen.at(-1)) seen.push(entry.txSts);
      assert.equal(entry.accptncDtTm !== undefined, entry.txSts === 'ACCC', 'accptncDtTm with the accepted code only');
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.deepEqual(seen, ['ACSP', 'ACSC', 'ACCC']);
  } finally {
    await slow.close();
  }
});

test('laterAcceptedStatus ACSC: a settled payment reads ACCC for REF_SETTLING_MS, then ACSC; localTimeForm minutes writes hh:mm', async () => {
  const slow = await Harness.start({ settlingMs: 150 });
  try {
    const payer = await slow.client({
      dialect: { laterAcceptedStatus: 'ACSC', localTimeForm: 'minutes' },
      batching: 'manual',
    });
    const t = await slow.token(payer);
    const res = await slow.post('pacs008/v10', payer, t, JSON.stringify(pacs008()));
    const data = (res.json as { data: { paymentsServiceId: string; creationDateTime: string } }).data;
    assert.match(data.creationDateTime, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    const seen: string[] = [];
    for (let i = 0; i < 200 && seen.at(-1) !== 'ACSC'; i++) {
      if (i === 1) await send(`${slow.url}/_admin/clients/${payer.clientId}/send-batch`, { method: 'POST' });
      const report = (await slow.get(`pacs002/v12/${data.paymentsServiceId}`, payer, t)).json as {
        fitoFIPmtStsRpt: { txInfAndSts: Array<{ txSts: string }> };
      };
      const txSts = report.fitoFIPmtStsRpt.txInfAndSts[0]!.txSts;
      if (txSts !== seen.at(-1)) seen.push(txSts);
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.deepEqual(seen, ['PEND', 'ACCC', 'ACSC']);
  } finally {
    await slow.close();
  }
});

test('acceptanceStatus 202: camt.056, pacs.004 and pacs.007 are accepted with 202 and a Location naming the resource', async () => {
  const location = (reply: { headers: Headers }) => reply.headers.get('location');
  const payee = await h.client({ dialect: 'accepts-202' });
  const payer = await h.client({ dialect: 'accepts-202', batching: 'manual' });
  const tp = await h.token(payer);
  const tb = await h.token(payee);
  const idOf = (reply: { json: unknown }) =>
    (reply.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;
  const pending = pacs008();
  assert.equal((await h.post('pacs008/v10', payer, tp, JSON.stringify(pending))).status, 201, 'a payment stays 201');
  const cancellation = await h.post('camt056/v08', payer, tp, JSON.stringify(camt056(pending)));
  assert.equal(cancellation.status, 202, cancellation.text);
  assert.equal(location(cancellation), `/payments/camt029/v09/${idOf(cancellation)}`);
  assert.equal((await h.get(`camt029/v09/${idOf(cancellation)}`, payer, tp)).status, 200);
  const sender = await h.client();
  const settled = await paid(sender, payee);
  const refund = await h.post('pacs007/v08', payee, tb, JSON.stringify(pacs007(settled, 1)));
  assert.equal(refund.status, 202, refund.text);
  assert.equal(location(refund), `/payments/pacs002/v12/${idOf(refund)}`);
  const returned = await h.post('pacs004/v08', payee, tb, JSON.stringify(pacs004(await paid(sender, payee))));
  assert.equal(returned.status, 202, returned.text);
  assert.equal(location(returned), `/payments/pacs002/v12/${idOf(returned)}`);
  assert.equal((await h.get(`pacs002/v12/${idOf(returned)}`, payee, tb)).status, 200);
  // The kill matrix's fault answers the other status; a 201 carries no Location in the default dialect.
  const faulty = await h.client({ dialect: 'accepts-202', faults: ['return-answers-202'] });
  const tf = await h.token(faulty);
  const other = await h.post('pacs004/v08', faulty, tf, JSON.stringify(pacs004(await paid(sender, faulty))));
  assert.equal(other.status, 201, other.text);
  const plain = await h.client();
  const tl = await h.token(plain);
  const created = await h.post('pacs004/v08', plain, tl, JSON.stringify(pacs004(await paid(sender, plain))));
  assert.equal(created.status, 201, created.text);
  assert.equal(location(created), null);
});

test('returnAnswer empty: an accepted pacs.004 has no body, its Location names the return whatever the status', async () => {
  const sender = await h.client();
  for (const dialect of [{ returnAnswer: 'empty' }, { returnAnswer: 'empty', acceptanceStatus: 202 }]) {
    const payee = await h.client({ dialect });
    const tb = await h.token(payee);
    const returned = await h.post('pacs004/v08', payee, tb, JSON.stringify(pacs004(await paid(sender, payee))));
    assert.equal(returned.status, dialect.acceptanceStatus ?? 201, returned.text);
    assert.equal(returned.text, '', 'no body');
    const location = returned.headers.get('location') ?? '';
    assert.match(location, /^\/payments\/pacs002\/v12\/[^/]+$/);
    assert.equal((await h.get(location.slice('/payments/'.length), payee, tb)).status, 200);
  }
});

test('roots: cancellationRequestRoot, resolutionRoot and refundRoot; the other spelling is refused like a missing root', async () => {
  const payer = await h.client({
    dialect: { cancellationRequestRoot: 'FIToFIPmtCxlReq', resolutionRoot: 'RsltnOfInvstgtn' },
    batching: 'manual',
  });
  const t = await h.token(payer);
  const p = pacs008();
  await h.post('pacs008/v10', payer, t, JSON.stringify(p));
  const wrong = await h.post('camt056/v08', payer, t, JSON.stringify(camt056(p)));
  assert.equal(wrong.status, 400);
  assert.equal((wrong.json as { errors: Array<{ path: string }> }).errors[0]!.path, 'FIToFIPmtCxlReq');
  const right = await h.post('camt056/v08', payer, t, JSON.stringify(camt056(p, 'FIToFIPmtCxlReq')));
  assert.equal(right.status, 201, right.text);
  const cxl = (right.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;
  const r029 = await h.get(`camt029/v09/${cxl}`, payer, t);
  assert.deepEqual(Object.keys(r029.json as object), ['RsltnOfInvstgtn']);

  // Default client: the documented spellings.
  const plain = await h.client({ batching: 'manual' });
  const tp = await h.token(plain);
  const q = pacs008();
  await h.post('pacs008/v10', plain, tp, JSON.stringify(q));
  const c2 = await h.post('camt056/v08', plain, tp, JSON.stringify(camt056(q)));
  assert.equal(c2.status, 201);
  const r2 = await h.get(
    `camt029/v09/${(c2.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId}`,
    plain,
    tp,
  );
  assert.deepEqual(Object.keys(r2.json as object), ['rsltnOfInvstgtn']);

  // refundRoot: the beneficiary refunds part of a settled payment.
  const payee = await h.client({ dialect: { refundRoot: 'fitoFIPmtRvsl' } });
  const sender = await h.client();
  const settled = await paid(sender, payee);
  const tb = await h.token(payee);
  const refused = await h.post('pacs007/v08', payee, tb, JSON.stringify(pacs007(settled, 1)));
  assert.equal(refused.status, 400);
  assert.equal((refused.json as { errors: Array<{ path: string }> }).errors[0]!.path, 'fitoFIPmtRvsl');
  const accepted = await h.post('pacs007/v08', payee, tb, JSON.stringify(pacs007(settled, 1, 'fitoFIPmtRvsl')));
  assert.equal(accepted.status, 201, accepted.text);
});

test('repeatBody: original, empty and id-only on pacs.008, camt.056, pacs.004 and pacs.007 repeats', async () => {
  for (const repeatBody of ['original', 'empty', 'id-only'] as const) {
    const payee = await h.client({ dialect: { repeatBody } });
    const payer = await h.client({ dialect: { repeatBody } });
    const tp = await h.token(payer);
    const tb = await h.token(payee);
    const check = async (label: string, who: TestClient, token: string, path: string, body: string): Promise<void> => {
      const first = await h.post(path, who, token, body);
      assert.equal(first.status, 201, `${label} ${first.text}`);
      const again = await h.post(path, who, token, body);
      assert.equal(again.status, 200, label);
      const data = (first.json as { data: Record<string, unknown> }).data;
      if (repeatBody === 'original') assert.deepEqual(again.json, { data }, label);
      if (repeatBody === 'empty') assert.equal(again.text, '', label);
      if (repeatBody === 'id-only')
        assert.deepEqual(again.json, { data: { paymentsServiceId: data.paymentsServiceId } }, label);
    };
    const settled = await paid(payer, payee);
    await check(`${repeatBody} pacs008`, payer, tp, 'pacs008/v10', JSON.stringify(pacs008()));
    const pending = pacs008();
    await h.post('pacs008/v10', payer, tp, JSON.stringify(pending));
    await check(`${repeatBody} camt056`, payer, tp, 'camt056/v08', JSON.stringify(camt056(pending)));
    await check(`${repeatBody} pacs007`, payee, tb, 'pacs007/v08', JSON.stringify(pacs007(settled, 1)));
    // A payment of its own: after a refund, a return of the full amount is refused (MNY-01).
    await check(`${repeatBody} pacs004`, payee, tb, 'pacs004/v08', JSON.stringify(pacs004(await paid(payer, payee))));
  }
});

test('extraInput refuse (default): nesting over 64 and __proto__ are malformed; other unknown members are ignored', async () => {
  const c = await h.client();
  const t = await h.token(c);
  const deep = JSON.stringify(pacs008('400000', 10.5, { x: JSON.parse(`${'{"a":'.repeat(70)}1${'}'.repeat(70)}`) }));
  const r1 = await h.post('pacs008/v10', c, t, deep);
  assert.equal(r1.status, 400);
  assert.equal((r1.json as { errors: Array<{ code: string }> }).errors[0]!.code, 'malformed_body');
  const proto = JSON.stringify(pacs008()).replace('"chrgBr"', '"__proto__":{"polluted":1},"chrgBr"');
  assert.equal((await h.post('pacs008/v10', c, t, proto)).status, 400);
  const extra = pacs008('400000', 10.5, {
    someUnknownMember: { nested: [1, 2, { deeper: true }] },
    constructor: 'kept',
  });
  (extra.fitoFICstmrCdtTrf as Record<string, unknown>).grpHdr = {
    ...(extra.fitoFICstmrCdtTrf as Record<string, Record<string, unknown>>).grpHdr,
    extraHeaderField: 'x',
  };
  assert.equal((await h.post('pacs008/v10', c, t, JSON.stringify(extra))).status, 201);
});

test('extraInput accept: 10,000-deep unknown members and __proto__/constructor keys are accepted and dropped, nothing crashes', async () => {
  const payee = await h.client({ dialect: { extraInput: 'accept' } });
  const c = await h.client({ dialect: { extraInput: 'accept' } });
  const t = await h.token(c);
  const deepText = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
  const arrays = '['.repeat(100_000) + ']'.repeat(100_000);
  const p = pacs008(payee.memberId);
  const text = JSON.stringify(p).replace(
    '"chrgBr"',
    `"deepUnknown":${deepText},"arrays":${arrays},"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"chrgBr"`,
  );
  const res = await h.post('pacs008/v10', c, t, text);
  assert.equal(res.status, 201, res.text);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  const id = (res.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;
  // The beneficiary reads it back: the dropped members are gone, the rest is as sent.
  const tb = await h.token(payee);
  const incoming = await h.get(`pacs008/v08/${id}`, payee, tb);
  assert.equal(incoming.status, 200, incoming.text);
  const tx = (incoming.json as { fitoFICstmrCdtTrf: { cdtTrfTxInf: Array<Record<string, unknown>> } }).fitoFICstmrCdtTrf
    .cdtTrfTxInf[0]!;
  assert.ok(!Object.hasOwn(tx, '__proto__') && !Object.hasOwn(tx, 'constructor'));
  assert.equal(tx.chrgBr, 'SLEV');
  assert.equal(ids(p).txId, (tx.pmtId as { txId: string }).txId);
  // A broken document is still malformed, and a body without the root still fails validation.
  assert.equal((await h.post('pacs008/v10', c, t, deepText.slice(0, -1))).status, 400);
  assert.equal((await h.post('pacs008/v10', c, t, JSON.stringify({ other: {} }))).status, 400);
});

test('utf8: strict refuses invalid UTF-8 as malformed; lenient decodes it with U+FFFD', async () => {
  const strict = await h.client();
  const lenient = await h.client({ dialect: { utf8: 'lenient' } });
  const text = JSON.stringify(pacs008()).replace('"Alice"', '"Al\u0001ice"');
  const bytes = Buffer.from(text, 'utf8');
  bytes[bytes.indexOf(0x01)] = 0xff; // a lone 0xFF byte inside a string
  const ts = await h.token(strict);
  const rs = await h.post('pacs008/v10', strict, ts, bytes);
  assert.equal(rs.status, 400);
  assert.equal((rs.json as { errors: Array<{ code: string }> }).errors[0]!.code, 'malformed_body');
  const tl = await h.token(lenient);
  assert.equal((await h.post('pacs008/v10', lenient, tl, bytes)).status, 201);
});

test('utf8 detect: a body in UTF-16 or UTF-32 is read in its own encoding (as json.loads reads bytes); invalid UTF-8 stays malformed', async () => {
  const strict = await h.client();
  const detect = await h.client({ dialect: { utf8: 'detect' } });
  const text = JSON.stringify(pacs008());
  const utf16 = Buffer.from(`\ufeff${text}`, 'utf16le');
  const utf32 = Buffer.alloc(text.length * 4);
  for (let i = 0; i < text.length; i++) utf32.writeUInt32BE(text.charCodeAt(i), i * 4);
  const ts = await h.token(strict);
  assert.equal((await h.post('pacs008/v10', strict, ts, utf16)).status, 400);
  const td = await h.token(detect);
  assert.equal((await h.post('pacs008/v10', detect, td, utf16)).status, 201);
  // The same message in other encodings: its msgId read, so a repeat.
  assert.equal((await h.post('pacs008/v10', detect, td, Buffer.from(text, 'utf16le').swap16())).status, 200);
  assert.equal((await h.post('pacs008/v10', detect, td, utf32)).status, 200);
  const bytes = Buffer.from(text.replace('"Alice"', '"Al\u0001ice"'), 'utf8');
  bytes[bytes.indexOf(0x01)] = 0xff;
  assert.equal((await h.post('pacs008/v10', detect, td, bytes)).status, 400);
});

test('every 401 carries WWW-Authenticate, also when a dialect maps forbidden or missingHeader to 401', async () => {
  const c = await h.client({ dialect: { refusalStatus: { forbidden: 401, missingHeader: 401 } } });
  const other = await h.client();
  const t = await h.token(c);
  const variants: Array<Record<string, string | null>> = [
    { 'x-client-id': other.clientId },
    { 'x-client-id': null },
    { authorization: null },
  ];
  for (const headers of variants) {
    const res = await h.post('pacs008/v10', c, t, JSON.stringify(pacs008()), headers);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer /);
  }
});

test('causeStatus.scaHd splits SCA by cause, tokenErrorCodes names a missing parameter; the dialect matrix varies both', async () => {
  const fields = dialectChoices.map((c) => c.field);
  for (const field of ['causeStatus.scaHd', 'tokenErrorCodes'])
    assert.ok(fields.includes(field), `${field} is in dialectChoices`);
  assert.deepEqual(defaultDialect.causeStatus, { scaHd: 'class', cancelUnknown: 'class', businessState: 'class' });
  assert.equal(defaultDialect.tokenErrorCodes, 'generic');
  const split = resolveDialect({ 'causeStatus.scaHd': 400, tokenErrorCodes: 'specific' });
  assert.deepEqual(
    [
      refusalStatusIn(split, 'sca', 'scaHd'),
      refusalStatusIn(split, 'sca'),
      refusalStatusIn(defaultDialect, 'sca', 'scaHd'),
    ],
    [400, 401, 401],
  );
  assert.equal(resolveDialect({ causeStatus: { scaHd: 403 }, 'refusalStatus.sca': 400 }).causeStatus.scaHd, 403);
  assert.throws(
    () => resolveDialect({ 'causeStatus.scaHd': 418 }),
    /causeStatus\.scaHd must be one of "class", 400, 401, 403/,
  );
  assert.throws(() => resolveDialect({ 'causeStatus.other': 400 }), /unknown dialect field "causeStatus\.other"/);

  // On the wire: an hd mismatch gets 400, every other SCA failure the class's 401.
  const c = await h.client({ dialect: { 'causeStatus.scaHd': 400, tokenErrorCodes: 'specific' } });
  const t = await h.token(c);
  const body = JSON.stringify(pacs008());
  const otherHd = h.sca(c, `${body} `);
  assert.equal((await h.post('pacs008/v10', c, t, body, { 'sca-token': otherHd })).status, 400, 'hd of another body');
  assert.equal(
    (await h.post('pacs008/v10', c, t, body, { 'sca-token': 'a.b.c' })).status,
    401,
    'an sca-token that is not a JWS',
  );
  assert.notEqual(sha256b64(body), sha256b64(`${body} `));

  // A missing parameter: the parameter's own code in this dialect, invalid_request in the default one.
  const form = (c2: TestClient, omit: string): Promise<{ status: number; json: unknown }> => {
    const params = new URLSearchParams({ grant_type: JWT_BEARER, assertion: h.assertion(c2), scope: 'makePayments' });
    params.delete(omit);
    return send(`${h.url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${c2.clientId}:${c2.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: params.toString(),
    });
  };
  const plain = await h.client();
  for (const [omit, specific] of [
    ['grant_type', 'unsupported_grant_type'],
    ['scope', 'invalid_scope'],
    ['assertion', 'invalid_grant'],
  ] as const) {
    const a = await form(c, omit);
    assert.deepEqual([a.status, (a.json as { error: string }).error], [400, specific], `${omit} missing, specific`);
    const b = await form(plain, omit);
    assert.deepEqual(
      [b.status, (b.json as { error: string }).error],
      [400, 'invalid_request'],
      `${omit} missing, generic`,
    );
  }
});

test('causeStatus.cancelUnknown: a cancellation of a payment the caller does not have is 404, or 422 (a business refusal), or accepted and rejected in its camt.029', async () => {
  assert.ok(
    dialectChoices.some((c) => c.field === 'causeStatus.cancelUnknown'),
    'the dialect matrix varies it',
  );
  assert.throws(
    () => resolveDialect({ 'causeStatus.cancelUnknown': 409 }),
    /causeStatus\.cancelUnknown must be one of "class", 422, "camt029"/,
  );
  const business = await h.client({ dialect: { 'causeStatus.cancelUnknown': 422 } });
  const plain = await h.client();
  for (const [c, status] of [
    [business, 422],
    [plain, 404],
  ] as const) {
    const t = await h.token(c);
    const neverMade = await h.post('camt056/v08', c, t, JSON.stringify(camt056(pacs008())));
    assert.equal(neverMade.status, status, `${c.clientId}: a payment never made`);
    // Only this cause: an unknown status read stays the class's 404.
    assert.equal((await h.get('pacs002/v12/NOSUCHID', c, t)).status, 404);
  }
  const later = await h.client({ dialect: { 'causeStatus.cancelUnknown': 'camt029' } });
  const t = await h.token(later);
  const accepted = await h.post('camt056/v08', later, t, JSON.stringify(camt056(pacs008())));
  assert.equal(accepted.status, 201, accepted.text);
  const read = await h.get(`camt029/v09/${idIn(accepted)}`, later, t);
  assert.equal(read.status, 200, read.text);
  assert.match(read.text, /"conf":"RJCR"/);
  assert.match(read.text, /NO_SUCH_PAYMENT/);
});

test('onUs: a payment to the payer’s own sort code is its incoming payment, or (notIncoming) nobody’s', async () => {
  assert.ok(
    dialectChoices.some((c) => c.field === 'onUs' && c.default === 'incoming'),
    'the dialect matrix varies it',
  );
  for (const onUs of ['incoming', 'notIncoming'] as const) {
    const c = await h.client({ dialect: { onUs } });
    const t = await h.token(c);
    const own = await paid(c, c);
    const submitted = await h.post('pacs008/v10', c, t, JSON.stringify(pacs008(c.memberId)));
    const psi = (submitted.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;
    const read = await h.get(`pacs008/v08/${psi}`, c, t);
    assert.equal(read.status, onUs === 'incoming' ? 200 : 404, `${onUs}: the payer's incoming read`);
    const refund = await h.post('pacs007/v08', c, t, JSON.stringify(pacs007(own, 1)));
    const returned = await h.post('pacs004/v08', c, t, JSON.stringify(pacs004(own)));
    if (onUs === 'incoming') {
      assert.equal(refund.status, 201, `${onUs}: refund ${refund.text}`);
      // A return after a refund is refused for the amount (MNY-01): a second payment of its own.
      const other = await h.post('pacs004/v08', c, t, JSON.stringify(pacs004(await paid(c, c))));
      assert.equal(other.status, 201, `${onUs}: return ${other.text}`);
    } else {
      for (const [what, answer] of [
        ['refund', refund],
        ['return', returned],
      ] as const) {
        assert.equal(answer.status, 400, `${onUs}: ${what} ${answer.text}`);
        assert.match(answer.text, /only the beneficiary institution of the original payment can/);
      }
    }
  }
  // Another client's payment to that sort code stays incoming for it, whatever its dialect.
  const payee = await h.client({ dialect: { onUs: 'notIncoming' } });
  const payer = await h.client();
  const theirs = await paid(payer, payee);
  const t = await h.token(payee);
  assert.equal((await h.post('pacs004/v08', payee, t, JSON.stringify(pacs004(theirs)))).status, 201);
});

/** The id a payments POST's answer names. */
const idIn = (reply: { json: unknown }): string =>
  (reply.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;

test('readings the spec leaves open, each a dialect field: a reused SCA nonce, the payer’s incoming read, a reused rtrId, a pacs.007 under another root', async () => {
  for (const reading of ['refuse', 'allow'] as const) {
    const dialect = {
      scaNonceReplay: reading,
      payerIncomingRead: reading,
      rtrIdReuse: reading,
      refundUnknownRoot: reading,
    };
    const payer = await h.client({ dialect });
    const payee = await h.client({ dialect });
    const stranger = await h.client({ dialect });
    const t = await h.token(payer);
    // A new SCA JWT over another message carrying the first one's nonce.
    const first = JSON.stringify(pacs008(payee.memberId));
    const claims = h.scaClaims(payer, first);
    assert.equal(
      (
        await h.post('pacs008/v10', payer, t, first, {
          'sca-token': jwt({ alg: 'RS256', typ: 'JWT', kid: payer.kid }, claims, payer.keys.privateKey),
        })
      ).status,
      201,
    );
    const second = JSON.stringify(pacs008(payee.memberId));
    const reused = { ...h.scaClaims(payer, second), nonce: claims.nonce };
    const again = await h.post('pacs008/v10', payer, t, second, {
      'sca-token': jwt({ alg: 'RS256', typ: 'JWT', kid: payer.kid }, reused, payer.keys.privateKey),
    });
    assert.equal(again.status, reading === 'refuse' ? 401 : 201, `scaNonceReplay ${reading}: ${again.text}`);
    // The payer reads its own payment through the incoming endpoint; an institution with no part never does.
    const id = idIn(again.status === 201 ? again : await h.post('pacs008/v10', payer, t, second));
    assert.equal(
      (await h.get(`pacs008/v08/${id}`, payer, t)).status,
      reading === 'refuse' ? 404 : 200,
      `payerIncomingRead ${reading}`,
    );
    assert.equal((await h.get(`pacs008/v08/${id}`, stranger, await h.token(stranger))).status, 404, 'a stranger');
    // A new return (its own msgId) under the rtrId of an earlier one, for another payment.
    const tp = await h.token(payee);
    const [a, b] = await Promise.all([paid(payer, payee), paid(payer, payee)]);
    const ra = pacs004(a) as { pmtRtr: { txInf: { rtrId: string }[] } };
    assert.equal((await h.post('pacs004/v08', payee, tp, JSON.stringify(ra))).status, 201);
    const rb = pacs004(b) as { pmtRtr: { txInf: { rtrId: string }[] } };
    rb.pmtRtr.txInf[0]!.rtrId = ra.pmtRtr.txInf[0]!.rtrId;
    const reuse = await h.post('pacs004/v08', payee, tp, JSON.stringify(rb));
    assert.equal(reuse.status, reading === 'refuse' ? 400 : 201, `rtrIdReuse ${reading}: ${reuse.text}`);
    // A pacs.007 under a root nobody declared.
    const c = await paid(payer, payee);
    const unknownRoot = { suiteUnknownRoot: (pacs007(c, 1) as { fIToFIPmtRvsl: unknown }).fIToFIPmtRvsl };
    const refund = await h.post('pacs007/v08', payee, tp, JSON.stringify(unknownRoot));
    assert.equal(refund.status, reading === 'refuse' ? 400 : 201, `refundUnknownRoot ${reading}: ${refund.text}`);
  }
});

test('a UETR is one payment’s (ISO 20022): the client’s next payment carrying it is refused as the dialect reports business refusals; its own repeat is still a repeat, another client’s payment is its own', async () => {
  const uetr = randomUUID();
  const withUetr = (): Record<string, unknown> => {
    const p = pacs008() as { fitoFICstmrCdtTrf: { cdtTrfTxInf: { pmtId: Record<string, string> }[] } };
    p.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId.uetr = uetr;
    return p;
  };
  const payer = await h.client();
  const t = await h.token(payer);
  const first = JSON.stringify(withUetr());
  assert.equal((await h.post('pacs008/v10', payer, t, first)).status, 201);
  assert.equal((await h.post('pacs008/v10', payer, t, first)).status, 200, 'the same msgId: an idempotent repeat');
  const again = await h.post('pacs008/v10', payer, t, JSON.stringify(withUetr()));
  assert.equal(again.status, 400, again.text);
  assert.match(again.text, /uetr was already used/);
  // Another client, reporting by status: the first payment with that UETR is its own (201); its
  // second is 201, then rejected as a duplicate.
  const other = await h.client({ dialect: { businessRejection: 'status' } });
  const to = await h.token(other);
  assert.equal((await h.post('pacs008/v10', other, to, JSON.stringify(withUetr()))).status, 201);
  const late = await h.post('pacs008/v10', other, to, JSON.stringify(withUetr()));
  assert.equal(late.status, 201, late.text);
  let report: { txSts: string; stsRsnInf?: { rsn: { cd: string } }[] } | undefined;
  for (let i = 0; i < 100 && report?.txSts !== 'RJCT'; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const st = await h.get(`pacs002/v12/${idIn(late)}`, other, to);
    report = (st.json as { fitoFIPmtStsRpt: { txInfAndSts: (typeof report & object)[] } }).fitoFIPmtStsRpt
      .txInfAndSts[0];
  }
  assert.equal(report?.txSts, 'RJCT');
  assert.equal(report?.stsRsnInf?.[0]?.rsn.cd, 'DUPL');
});

test('SCA on pacs.007 as the dialect reads it: required, not required (nor checked), verified when present', async () => {
  for (const [reading, withoutToken, withBadToken] of [
    ['required', 400, 401],
    ['notRequired', 201, 201],
    ['verifiedWhenPresent', 201, 401],
  ] as const) {
    const payee = await h.client({ dialect: { scaOnRefund: reading } });
    const settled = await paid(await h.client(), payee);
    const tb = await h.token(payee);
    const refund = (sca: string | null) =>
      h.post('pacs007/v08', payee, tb, JSON.stringify(pacs007(settled, 1)), { 'sca-token': sca });
    const none = await refund(null);
    assert.equal(none.status, withoutToken, `${reading}, no sca-token: ${none.text}`);
    const bad = await refund('a.b.c');
    assert.equal(bad.status, withBadToken, `${reading}, an sca-token that is no JWT: ${bad.text}`);
  }
});

test('answerEnvelope none: the answers §4.4 does not show carry their members at the top level, accepted and repeated; a payment’s stays in data', async () => {
  const payer = await h.client({ dialect: { answerEnvelope: 'none' } });
  const payee = await h.client({ dialect: { answerEnvelope: 'none' } });
  const [tp, tb] = [await h.token(payer), await h.token(payee)];
  const payment = pacs008();
  const created = await h.post('pacs008/v10', payer, tp, JSON.stringify(payment));
  assert.ok('data' in (created.json as object), '§2.3 shows the payment answer: data');
  const cancel = JSON.stringify(camt056(payment));
  for (const answer of [await h.post('camt056/v08', payer, tp, cancel), await h.post('camt056/v08', payer, tp, cancel)])
    assert.equal(typeof (answer.json as { paymentsServiceId?: unknown }).paymentsServiceId, 'string', answer.text);
  const settled = await paid(await h.client(), payee);
  const refund = JSON.stringify(pacs007(settled, 1));
  for (const answer of [await h.post('pacs007/v08', payee, tb, refund), await h.post('pacs007/v08', payee, tb, refund)])
    assert.equal(typeof (answer.json as { paymentsServiceId?: unknown }).paymentsServiceId, 'string', answer.text);
  const returned = JSON.stringify(pacs004(await paid(await h.client(), payee)));
  for (const answer of [
    await h.post('pacs004/v08', payee, tb, returned),
    await h.post('pacs004/v08', payee, tb, returned),
  ])
    assert.equal(typeof (answer.json as { paymentsServiceId?: unknown }).paymentsServiceId, 'string', answer.text);
});

test('answers the spec does not show: SCA on camt.056 verified when present, the camt.056 answer, 409 for a business refusal that conflicts with a state', async () => {
  const c = await h.client({ dialect: { scaOnCancellation: 'verifiedWhenPresent', cancelAnswer: 'received' } });
  const t = await h.token(c);
  const pay = async (): Promise<Record<string, unknown>> => {
    const p = pacs008();
    assert.equal((await h.post('pacs008/v10', c, t, JSON.stringify(p))).status, 201);
    return p;
  };
  const noToken = await h.post('camt056/v08', c, t, JSON.stringify(camt056(await pay())), { 'sca-token': null });
  assert.equal(noToken.status, 201, `no sca-token: ${noToken.text}`);
  assert.equal((noToken.json as { data: { status: string } }).data.status, 'RECEIVED');
  const badToken = await h.post('camt056/v08', c, t, JSON.stringify(camt056(await pay())), { 'sca-token': 'a.b.c' });
  assert.equal(badToken.status, 401, 'an sca-token sent is checked');
  const idOnly = await h.client({ dialect: { cancelAnswer: 'id-only' } });
  const ti = await h.token(idOnly);
  const p = pacs008();
  await h.post('pacs008/v10', idOnly, ti, JSON.stringify(p));
  const answer = await h.post('camt056/v08', idOnly, ti, JSON.stringify(camt056(p)));
  assert.deepEqual(Object.keys((answer.json as { data: object }).data), ['paymentsServiceId']);

  // A second return conflicts with the payment's state: 409 where the dialect says so, the class's status otherwise.
  for (const [state, status] of [
    ['class', 422],
    [409, 409],
  ] as const) {
    const dialect = { 'refusalStatus.business': 422, 'causeStatus.businessState': state };
    const payer = await h.client({ dialect });
    const payee = await h.client({ dialect });
    const tp = await h.token(payee);
    const original = await paid(payer, payee);
    assert.equal((await h.post('pacs004/v08', payee, tp, JSON.stringify(pacs004(original)))).status, 201);
    assert.equal(
      (await h.post('pacs004/v08', payee, tp, JSON.stringify(pacs004(original)))).status,
      status,
      `businessState ${state}`,
    );
    // Not a state: a payment the caller does not have the part to return keeps the class.
    assert.equal(
      (await h.post('pacs004/v08', payer, await h.token(payer), JSON.stringify(pacs004(await paid(payer, payee)))))
        .status,
      422,
    );
  }
});

test('focrRecall onRecord: a FOCR return answers a recall on record, by its cxlId; bareOriginalName refuse: orgnlMsgNmId pacs.008 is refused', async () => {
  type Return = {
    pmtRtr: { txInf: Array<{ orgnlGrpInf: { orgnlMsgNmId: string }; rtrRsnInf: Array<Record<string, unknown>> }> };
  };
  const focr = (p: Record<string, unknown>, addtlInf: string): Return => {
    const r = pacs004(p) as Return;
    r.pmtRtr.txInf[0]!.rtrRsnInf[0] = { ...r.pmtRtr.txInf[0]!.rtrRsnInf[0], rsn: { cd: 'FOCR' }, addtlInf };
    return r;
  };
  const bare = (p: Record<string, unknown>): Return => {
    const r = pacs004(p) as Return;
    r.pmtRtr.txInf[0]!.orgnlGrpInf.orgnlMsgNmId = 'pacs.008';
    return r;
  };
  for (const [focrRecall, bareOriginalName] of [
    ['onRecord', 'refuse'],
    ['any', 'accept'],
  ] as const) {
    const dialect = { focrRecall, bareOriginalName };
    const payer = await h.client({ dialect });
    const payee = await h.client({ dialect });
    const [tp, tq] = [await h.token(payer), await h.token(payee)];
    const [a, b, c] = await Promise.all([paid(payer, payee), paid(payer, payee), paid(payer, payee)]);
    const strict = focrRecall === 'onRecord';
    const noRecall = await h.post('pacs004/v08', payee, tq, JSON.stringify(focr(a, 'CXL-NONE')));
    assert.equal(noRecall.status, strict ? 400 : 201, `${focrRecall}, no recall on record: ${noRecall.text}`);
    const recall = camt056(b) as { fitoFIPmtCxlReq: { undrlyg: Array<{ txInf: Array<{ cxlId?: string }> }> } };
    recall.fitoFIPmtCxlReq.undrlyg[0]!.txInf[0]!.cxlId = `CXL-${randomUUID().slice(0, 8)}`;
    assert.equal((await h.post('camt056/v08', payer, tp, JSON.stringify(recall))).status, 201);
    const other = await h.post('pacs004/v08', payee, tq, JSON.stringify(focr(b, 'CXL-OTHER')));
    assert.equal(other.status, strict ? 400 : 201, `${focrRecall}, another reference: ${other.text}`);
    if (strict) {
      const own = focr(b, recall.fitoFIPmtCxlReq.undrlyg[0]!.txInf[0]!.cxlId!);
      const answered = await h.post('pacs004/v08', payee, tq, JSON.stringify(own));
      assert.equal(answered.status, 201, `the recall's own reference: ${answered.text}`);
    }
    const bareName = await h.post('pacs004/v08', payee, tq, JSON.stringify(bare(c)));
    assert.equal(
      bareName.status,
      bareOriginalName === 'refuse' ? 400 : 201,
      `bareOriginalName ${bareOriginalName}: ${bareName.text}`,
    );
  }
});
