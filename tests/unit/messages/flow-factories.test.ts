/**
 * The flow factories (pacs.004, camt.056, pacs.007) are deterministic and valid: the same seed,
 * original and identifiers give byte-identical JSON, and 200 seeds all pass the request schemas
 * (plus the IBAN/BIC checks a schema cannot express). Run: node --import tsx --test tests/unit/messages/flow-factories.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isValidBIC, isValidIBAN } from 'ibantools';
import { buildPacs008 } from '../../../messages/pacs008';
import { buildPacs004, minimalPacs004, returnTransaction, EBA_RETURN_CODES } from '../../../messages/pacs004';
import { buildCamt056 } from '../../../messages/camt056';
import { buildPacs007, refundAmount } from '../../../messages/pacs007';
import { validateAgainst } from '../../../messages/schemas/validator';
import { pacs004RequestSchema } from '../../../messages/schemas/pacs004-request';
import { camt056RequestSchema } from '../../../messages/schemas/camt056-request';
import { pacs007RequestSchema } from '../../../messages/schemas/pacs007-request';

const NOW = new Date('2025-03-04T10:11:12Z');
const original = (seed: string) =>
  buildPacs008({ seed, ids: { msgId: `MSG-${seed}`, endToEndId: `E2E-${seed}`, txId: `TX-${seed}` }, now: NOW });

function build(seed: string) {
  const orig = original(seed);
  return {
    pacs004: buildPacs004({ seed, original: orig, ids: { msgId: 'RTRMSG-1', rtrId: 'RTR-1' }, now: NOW }),
    camt056: buildCamt056({ seed, original: orig, ids: { assignmentId: 'ASG-1', cxlId: 'CXL-1' }, now: NOW }),
    pacs007: buildPacs007({ seed, original: orig, ids: { msgId: 'RFDMSG-1', rvslId: 'RVSL-1' }, now: NOW }),
  };
}

const valid = (schema: { $id: string }, value: unknown, what: string): void => {
  const verdict = validateAgainst(schema, value);
  assert.deepEqual(verdict.errors, [], `${what} breaks ${schema.$id}`);
  assert.deepEqual(verdict.unknownFields, [], `${what} has fields ${schema.$id} does not describe`);
};

test('the same seed gives byte-identical messages', () => {
  for (const seed of ['a', 'seed-42', 'ffffffffffffffff']) {
    const first = build(seed);
    const again = build(seed);
    assert.equal(JSON.stringify(again.pacs004), JSON.stringify(first.pacs004), `pacs.004 for ${seed}`);
    assert.equal(JSON.stringify(again.camt056), JSON.stringify(first.camt056), `camt.056 for ${seed}`);
    assert.equal(JSON.stringify(again.pacs007), JSON.stringify(first.pacs007), `pacs.007 for ${seed}`);
  }
});

test('different seeds give different business content', () => {
  assert.notEqual(JSON.stringify(build('one').pacs004), JSON.stringify(build('two').pacs004));
});

test('fresh identifiers never repeat', () => {
  const orig = original('ids');
  const a = buildPacs004({ seed: 'ids', original: orig });
  const b = buildPacs004({ seed: 'ids', original: orig });
  assert.notEqual(a.pmtRtr.grpHdr.msgId, b.pmtRtr.grpHdr.msgId);
  assert.notEqual(returnTransaction(a).rtrId, returnTransaction(b).rtrId);
});

test('200 seeds: every message is valid against its request schema', () => {
  for (let i = 0; i < 200; i++) {
    const seed = `unit-${i}`;
    const { pacs004, camt056, pacs007 } = build(seed);
    valid(pacs004RequestSchema, pacs004, `pacs.004 (seed ${seed})`);
    assert.deepEqual(
      validateAgainst(pacs004RequestSchema, minimalPacs004(pacs004)).errors,
      [],
      `minimal pacs.004 (seed ${seed})`,
    );
    valid(camt056RequestSchema, camt056, `camt.056 (seed ${seed})`);
    valid(pacs007RequestSchema, pacs007, `pacs.007 (seed ${seed})`);

    const tx = returnTransaction(pacs004);
    const ref = tx.orgnlTxRef;
    for (const iban of [ref.dbtrAcct.id.iban, ref.cdtrAcct.id.iban])
      assert.ok(isValidIBAN(iban), `IBAN ${iban} (seed ${seed})`);
    const bics = [
      pacs004.pmtRtr.grpHdr.instgAgt?.finInstnId.bicfi,
      pacs004.pmtRtr.grpHdr.instdAgt?.finInstnId.bicfi,
      tx.rtrRsnInf[0]?.orgtr.id.orgId.anyBIC,
      ref.dbtrAgt.finInstnId.bicfi,
      ref.cdtrAgt.finInstnId.bicfi,
      ref.dbtr.pty.id?.orgId.anyBIC,
      ref.cdtr.pty?.id?.orgId.anyBIC,
      ref.ultmtDbtr?.pty.id?.orgId.anyBIC,
      ref.ultmtCdtr?.pty.id?.orgId.anyBIC,
    ];
    for (const bic of bics) assert.ok(bic && isValidBIC(bic), `BIC ${bic} (seed ${seed})`);
    // ISO 20022's older BICIdentifier pattern (pacs.008.001.02's, which many validators still use), and no X branch but XXX.
    const assignment = camt056.fitoFIPmtCxlReq.assgnmt;
    for (const bic of [...bics, assignment.assgnr.agt.finInstnId.bicfi, assignment.assgne.agt.finInstnId.bicfi])
      assert.match(bic ?? '', /^[A-Z]{6}[A-Z2-9][A-NP-Z0-9](XXX|[A-WYZ0-9][A-Z0-9]{2})?$/, `BIC ${bic} (seed ${seed})`);

    // A return is for the full original amount (§1), in EUR (§2.5).
    const orig = original(seed).fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.intrBkSttlmAmt.value;
    assert.equal(tx.rtrdIntrBkSttlmAmt.value, orig);
    // The default refund is a part, never all, of the original (§1).
    const refund = refundAmount(pacs007).value;
    assert.ok(refund > 0 && refund < orig, `refund ${refund} of ${orig} (seed ${seed})`);
  }
});

test('every EBA code and a FOCR return with its addtlInf are schema-valid; FOCR without addtlInf is not', () => {
  const orig = original('codes');
  for (const cd of EBA_RETURN_CODES)
    valid(pacs004RequestSchema, buildPacs004({ seed: 'codes', original: orig, reason: { cd } }), `reason ${cd}`);
  const focr = buildPacs004({ seed: 'codes', original: orig, reason: { cd: 'FOCR' } });
  assert.ok(returnTransaction(focr).rtrRsnInf[0]?.addtlInf, 'FOCR gets an addtlInf by default');
  delete returnTransaction(focr).rtrRsnInf[0]!.addtlInf;
  assert.notDeepEqual(validateAgainst(pacs004RequestSchema, focr).errors, []);
});
