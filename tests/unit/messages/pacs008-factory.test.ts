/**
 * The pacs.008 factory is the root of every positive test: if it drifts from §2.2, every "valid twin"
 * is invalid and the negative catalogue proves nothing. Run: node --import tsx --test tests/unit/messages/pacs008-factory.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  buildPacs008,
  buildPacs008Content,
  paymentAmount,
  paymentIds,
  sentByPayer,
  withoutScheme,
} from '../../../messages/pacs008';
import { uniqueId } from '../../../messages/ids';
import { pacs008RequestSchema } from '../../../messages/schemas/pacs008-request';
import { validateAgainst } from '../../../messages/schemas/validator';

const ids = { msgId: 'MSG-unit-1', endToEndId: 'E2E-unit-1', txId: 'TX-unit-1' };
const now = new Date('2025-03-04T05:06:07Z');

test('the same seed, ids and time give byte-identical JSON', () => {
  const a = JSON.stringify(buildPacs008Content('seed-a', ids, { now }));
  buildPacs008Content('something else in between', ids, { now });
  const b = JSON.stringify(buildPacs008({ seed: 'seed-a', ids, now }));
  assert.equal(a, b);
});

test('different seeds give different content', () => {
  const a = JSON.stringify(buildPacs008Content('seed-a', ids, { now }));
  const b = JSON.stringify(buildPacs008Content('seed-b', ids, { now }));
  assert.notEqual(a, b);
});

test('identifiers are fresh per build and Max35Text', () => {
  const a = paymentIds(buildPacs008({ seed: 's' }));
  const b = paymentIds(buildPacs008({ seed: 's' }));
  assert.notEqual(a.msgId, b.msgId);
  assert.notEqual(a.txId, b.txId);
  // ISO 20022's UETR is one per payment: the same seed's twin and mutant never share one.
  const uetr = (seed: string) => buildPacs008({ seed }).fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.pmtId.uetr;
  assert.notEqual(uetr('s'), uetr('s'));
  assert.match(uetr('s')!, /^[a-f0-9]{8}-[a-f0-9]{4}-4[a-f0-9]{3}-[89ab][a-f0-9]{3}-[a-f0-9]{12}$/);
  for (let i = 0; i < 1000; i++) assert.match(uniqueId('A-very-long-prefix'), /^[A-Za-z0-9-]{1,35}$/);
});

test('options override amount, creditor and add a matching total', () => {
  const m = buildPacs008({
    seed: 's',
    amount: 12.345,
    creditorMemberId: '123456',
    creditorAccount: '99999999',
    withTotal: true,
  });
  assert.deepEqual(paymentAmount(m), { value: 12.35, ccy: 'GBP' });
  assert.deepEqual(m.fitoFICstmrCdtTrf.grpHdr.ttlIntrBkSttlmAmt, { value: 12.35, ccy: 'GBP' });
  const tx = m.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!;
  assert.equal(tx.cdtrAgt.finInstnId.clrSysMmbId.mmbId, '123456');
  assert.equal(tx.cdtrAcct.id.othr.id, '99999999');
});

test('1,000 seeds all give messages valid against the §2.2 request schema, with nothing undocumented', () => {
  for (let i = 0; i < 1000; i++) {
    const m = buildPacs008({ seed: `seed-${i}`, withTotal: i % 2 === 0 });
    const verdict = validateAgainst(pacs008RequestSchema, m);
    assert.deepEqual(verdict.errors, [], `seed-${i}: ${JSON.stringify(m)}`);
    assert.deepEqual(verdict.unknownFields, [], `seed-${i}`);
    const acct = m.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.cdtrAcct.id.othr.id;
    assert.match(acct, /^\d{8}$/);
    assert.notEqual(acct, '99999999');
    // Pounds and pence: at most two decimals once serialised (ajv's multipleOf is float-unsafe).
    assert.match(JSON.stringify(paymentAmount(m).value), /^\d+(\.\d{1,2})?$/);
  }
});

test('sentByPayer: the drawn debtor agent becomes the payer’s sort code; a changed one, or no sort code, stays', () => {
  const m = buildPacs008Content('payer', ids, { now });
  const sent = sentByPayer(m, '123456') as typeof m;
  assert.equal(sent.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.dbtrAgt.finInstnId.clrSysMmbId.mmbId, '123456');
  assert.match(
    m.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.dbtrAgt.finInstnId.clrSysMmbId.mmbId,
    /^0\d{5}$/,
    'the given message is left as built',
  );
  assert.deepEqual(
    { ...sent, fitoFICstmrCdtTrf: { ...sent.fitoFICstmrCdtTrf, cdtTrfTxInf: [] } },
    { ...m, fitoFICstmrCdtTrf: { ...m.fitoFICstmrCdtTrf, cdtTrfTxInf: [] } },
  );
  assert.equal(sentByPayer(m, undefined), m);
  const changed = structuredClone(m);
  changed.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.dbtrAgt.finInstnId.clrSysMmbId.mmbId = 'NOT-A-SORT-CODE';
  assert.equal(sentByPayer(changed, '123456'), changed);
  assert.equal(sentByPayer('raw', '123456'), 'raw');
  // A case's mutant: cdtTrfTxInf an object, not an array.
  const objectTxs = { fitoFICstmrCdtTrf: { ...m.fitoFICstmrCdtTrf, cdtTrfTxInf: m.fitoFICstmrCdtTrf.cdtTrfTxInf[0] } };
  assert.equal(sentByPayer(objectTxs, '123456'), objectTxs);
});

test('withoutScheme: the same payment with no pmtTpInf, still valid against §2.2; the built message is left as built', () => {
  const built = buildPacs008({ seed: 'scheme' });
  const unstated = withoutScheme(built);
  const { pmtTpInf, ...rest } = built.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!;
  assert.deepEqual(pmtTpInf, { svcLvl: [{ prtry: 'FP' }] });
  assert.deepEqual(unstated.fitoFICstmrCdtTrf.cdtTrfTxInf, [rest]);
  assert.deepEqual(unstated.fitoFICstmrCdtTrf.grpHdr, built.fitoFICstmrCdtTrf.grpHdr);
  assert.ok('pmtTpInf' in built.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!);
  const verdict = validateAgainst(pacs008RequestSchema, unstated);
  assert.deepEqual([verdict.errors, verdict.unknownFields], [[], []]);
});
