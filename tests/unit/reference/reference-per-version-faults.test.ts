/**
 * Per-version faults of the reference (reference/faults.ts `perVersionFaults`, `base@op:version`):
 * each must change the answer of its operation at its path version and at no other version of the
 * same operation; `pacs008-v08-stores-nothing` books nothing on v08 only.
 * Run: node --import tsx --test tests/unit/reference/reference-per-version-faults.test.ts
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { faultCatalogue, perVersionFaults } from '../../../reference/faults';
import { Harness, b64url, jwt, pacs008, sha256b64, type Reply, type TestClient } from '../support/reference-harness';

let h: Harness;

before(async () => {
  h = await Harness.start();
});
after(() => h.close());

/** The other path version of each versioned operation: where the fault must not act. */
const paths: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  submitPayment: { v10: 'pacs008/v10', v08: 'pacs008/v08' },
  paymentStatus: { v12: 'pacs002/v12', v10: 'pacs002/v10' },
};

const dataId = (r: Reply): string => (r.json as { data: { paymentsServiceId: string } }).data.paymentsServiceId;

interface Caller {
  c: TestClient;
  token: string;
}

/**
 * What each fault's base is probed with on one path; true when the answer shows the fault. `other` is
 * a second client with the same faults: a read is judged by the reader's.
 */
const probes: Readonly<
  Record<string, (c: TestClient, token: string, path: string, other: Caller) => Promise<boolean>>
> = {
  'bearer-optional': async (c, token, path) => {
    if (path.startsWith('pacs002')) {
      const sent = await h.post('pacs008/v10', c, token, JSON.stringify(pacs008()));
      return (await h.get(`${path}/${dataId(sent)}`, c, token, { authorization: null })).status === 200;
    }
    return (await h.post(path, c, token, JSON.stringify(pacs008()), { authorization: null })).status < 300;
  },
  'sca-optional': async (c, token, path) =>
    (await h.post(path, c, token, JSON.stringify(pacs008()), { 'sca-token': null })).status < 300,
  'sca-hd-unchecked': async (c, token, path) => {
    const body = JSON.stringify(pacs008());
    const sca = jwt(
      { alg: 'RS256', typ: 'JWT', kid: c.kid },
      { ...h.scaClaims(c, body), hd: sha256b64('another body') },
      c.keys.privateKey,
    );
    return (await h.post(path, c, token, body, { 'sca-token': sca })).status < 300;
  },
  'sca-rejects-payment-id': async (c, token, path) => {
    const body = JSON.stringify(pacs008());
    const sca = jwt(
      { alg: 'RS256', typ: 'JWT', kid: c.kid },
      { ...h.scaClaims(c, body), payment_id: 'PAY-1' },
      c.keys.privateKey,
    );
    return (await h.post(path, c, token, body, { 'sca-token': sca })).status >= 400;
  },
  'sca-accepts-hs256-public-key': async (c, token, path) => {
    const body = JSON.stringify(pacs008());
    const input = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: c.kid }))}.${b64url(JSON.stringify(h.scaClaims(c, body)))}`;
    const sca = `${input}.${b64url(createHmac('sha256', c.keys.publicPem).update(input).digest())}`;
    return (await h.post(path, c, token, body, { 'sca-token': sca })).status < 300;
  },
  // The same message written otherwise after its hd hashed the compact bytes.
  'sca-hd-over-reserialised-json': async (c, token, path) => {
    const body = JSON.stringify(pacs008());
    const sca = jwt({ alg: 'RS256', typ: 'JWT', kid: c.kid }, h.scaClaims(c, body), c.keys.privateKey);
    return (await h.post(path, c, token, JSON.stringify(JSON.parse(body), null, 2), { 'sca-token': sca })).status < 300;
  },
  'sca-hd-over-trimmed-body': async (c, token, path) => {
    const body = JSON.stringify(pacs008());
    const sca = jwt({ alg: 'RS256', typ: 'JWT', kid: c.kid }, h.scaClaims(c, body), c.keys.privateKey);
    return (await h.post(path, c, token, `${body}\n`, { 'sca-token': sca })).status < 300;
  },
  'payment-strd-unchecked': async (c, token, path) => {
    const body = pacs008() as { fitoFICstmrCdtTrf: { cdtTrfTxInf: { rmtInf?: unknown }[] } };
    body.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.rmtInf = { strd: [{ cdtrRefInf: { ref: { text: 'x' } } }] };
    return (await h.post(path, c, token, JSON.stringify(body))).status < 300;
  },
  // Paid to the other client on the path, settled, then read by it as incoming: refused, the fault.
  'payment-no-beneficiary': async (c, token, path, other) => {
    const id = dataId(await h.post(path, c, token, JSON.stringify(pacs008(other.c.memberId))));
    for (let i = 0; i < 200; i++) {
      const report = (await h.get(`pacs002/v12/${id}`, c, token)).json as {
        fitoFIPmtStsRpt: { txInfAndSts: { txSts: string }[] };
      };
      if (report.fitoFIPmtStsRpt.txInfAndSts[0]!.txSts === 'ACCC') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    return (await h.get(`pacs008/v08/${id}`, other.c, other.token)).status !== 200;
  },
  'malformed-json-500': async (c, token, path) =>
    (await h.post(path, c, token, JSON.stringify(pacs008()).slice(0, -1))).status >= 500,
  'accepts-eur': async (c, token, path) => {
    const body = pacs008() as { fitoFICstmrCdtTrf: { cdtTrfTxInf: { intrBkSttlmAmt: { ccy: string } }[] } };
    body.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.intrBkSttlmAmt.ccy = 'EUR';
    return (await h.post(path, c, token, JSON.stringify(body))).status < 300;
  },
  'payment-negative-amount-as-positive': async (c, token, path) =>
    (await h.post(path, c, token, JSON.stringify(pacs008('400000', -10.5)))).status < 300,
  'payment-ttl-sum-unchecked': async (c, token, path) => {
    const body = pacs008() as { fitoFICstmrCdtTrf: { grpHdr: Record<string, unknown> } };
    body.fitoFICstmrCdtTrf.grpHdr.ttlIntrBkSttlmAmt = { value: 11.5, ccy: 'GBP' };
    return (await h.post(path, c, token, JSON.stringify(body))).status < 300;
  },
  'payment-e2e-optional': async (c, token, path) => {
    const body = pacs008() as { fitoFICstmrCdtTrf: { cdtTrfTxInf: { pmtId: { endToEndId?: string } }[] } };
    delete body.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId.endToEndId;
    return (await h.post(path, c, token, JSON.stringify(body))).status < 300;
  },
  'idempotent-repeat-201': async (c, token, path) => {
    const body = JSON.stringify(pacs008());
    assert.equal((await h.post(path, c, token, body)).status, 201);
    return (await h.post(path, c, token, body)).status === 201;
  },
  // Settled as read on v12 (no fault there), then read twice on the path: the second read is interim.
  'status-regresses': async (c, token, path) => {
    const id = dataId(await h.post('pacs008/v10', c, token, JSON.stringify(pacs008())));
    const txSts = async (p: string): Promise<string> => {
      const report = (await h.get(`${p}/${id}`, c, token)).json as {
        fitoFIPmtStsRpt: { txInfAndSts: { txSts: string }[] };
      };
      return report.fitoFIPmtStsRpt.txInfAndSts[0]!.txSts;
    };
    for (let i = 0; i < 200 && (await txSts('pacs002/v12')) !== 'ACCC'; i++)
      await new Promise((r) => setTimeout(r, 10));
    await txSts(path);
    return (await txSts(path)) !== 'ACCC';
  },
  'status-cross-client-readable': async (c, token, path, other) => {
    const sent = await h.post('pacs008/v10', c, token, JSON.stringify(pacs008()));
    return (await h.get(`${path}/${dataId(sent)}`, other.c, other.token)).status === 200;
  },
};

test('the per-version catalogue: every base is a global fault of the same rule, every version a path of its operation', () => {
  for (const f of perVersionFaults) {
    const [base, scope] = f.name.split('@') as [string, string];
    const [op, version] = scope.split(':') as [string, string];
    assert.equal(faultCatalogue.find((g) => g.name === base)?.rule, f.rule, `${f.name}: the rule of ${base}`);
    assert.ok(paths[op]?.[version], `${f.name}: ${op} has a path at ${version}`);
    assert.ok(probes[base], `${base} has a probe`);
  }
});

for (const f of perVersionFaults) {
  test(`${f.name} acts at its version and at no other version of the operation`, async () => {
    const [base, scope] = f.name.split('@') as [string, string];
    const [op, version] = scope.split(':') as [string, string];
    const c = await h.client({ faults: [f.name] });
    const token = await h.token(c);
    const d = await h.client({ faults: [f.name] });
    const other = { c: d, token: await h.token(d) };
    for (const [v, path] of Object.entries(paths[op]!))
      assert.equal(await probes[base]!(c, token, path, other), v === version, `${f.name} probed at ${v}`);
  });
}

test('pacs008-v08-stores-nothing: a payment made on v08 reads as unknown, one made on v10 reads back', async () => {
  const c = await h.client({ faults: ['pacs008-v08-stores-nothing'] });
  const token = await h.token(c);
  for (const [version, expected] of [
    ['v08', 404],
    ['v10', 200],
  ] as const) {
    const sent = await h.post(`pacs008/${version}`, c, token, JSON.stringify(pacs008()));
    assert.equal(sent.status, 201, sent.text);
    assert.equal((await h.get(`pacs002/v12/${dataId(sent)}`, c, token)).status, expected, version);
  }
});
