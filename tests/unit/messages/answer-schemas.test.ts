/** messages/schemas: the answers' date-times are ISO 20022's, whose zone is optional (iso-dates.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { camt029Schema } from '../../../messages/schemas/camt029';
import { validateAgainst } from '../../../messages/schemas/validator';
import { returnOrRefundReportSchema } from '../../../messages/schemas/pacs002';

const camt029 = (creDtTm: string) => ({
  assgnmt: { id: 'A-1', creDtTm },
  sts: { conf: 'RJCR' },
  cxlDtls: [
    { txInfAndSts: [{ orgnlGrpInf: { orgnlMsgId: 'M-1' }, orgnlEndToEndId: 'E', orgnlTxId: 'T', txCxlSts: 'RJCR' }] },
  ],
});

test('camt.029 assgnmt.creDtTm: an ISODateTime with or without a zone, any fraction; never a date alone', () => {
  for (const time of ['2026-12-03T08:40:00', '2026-12-03T08:40:00.123456Z', '2026-12-03T08:40:00+01:00'])
    assert.deepEqual(validateAgainst(camt029Schema, camt029(time)).errors, [], time);
  for (const time of ['2026-12-03', '2026-12-03 08:40:00', 'yesterday'])
    assert.notDeepEqual(validateAgainst(camt029Schema, camt029(time)).errors, [], time);
});

test('a return’s or refund’s status report is held to §2.4’s field types, not to echoes a pacs.004 has no source for', () => {
  const report = (entry: Record<string, unknown>) => ({
    fitoFIPmtStsRpt: { grpHdr: { msgId: 'SR1', creDtTm: '2026-12-03T10:00:00' }, txInfAndSts: [entry] },
  });
  // No orgnlTxId, no orgnlEndToEndId: a pacs.004 carries no txId, and its endToEndId is not required.
  assert.deepEqual(validateAgainst(returnOrRefundReportSchema, report({ txSts: 'ACCC' })).errors, []);
  assert.notDeepEqual(
    validateAgainst(returnOrRefundReportSchema, report({ txSts: 'ACCC', accptncDtTm: '2026-12-03' })).errors,
    [],
    'accptncDtTm is a date-time (§2.4)',
  );
  assert.notDeepEqual(validateAgainst(returnOrRefundReportSchema, report({})).errors, [], 'a status is required');
});
