/** pacs.007 refund request (README shape): one transaction, GBP positive amounts. */
import type { FieldError } from '../errors';
import type { FaultSet } from '../faults';
import { Checker, isObject, type AmountDialect, type Json } from './check';

/** The root of the default dialect; dialect refundRoot may name the other spelling. */
export const PACS007_ROOT = 'fIToFIPmtRvsl';

export interface Pacs007Fields {
  msgId: string;
  rvslId: string;
  orgnlMsgId: string;
  orgnlTxId: string;
  orgnlEndToEndId: string;
  /** orgnlIntrBkSttlmAmt in cents when given: tells apart payments sharing msgId and txId. */
  orgnlAmountCents: number | null;
  refundCents: number;
}

export type Pacs007Result = { ok: true; fields: Pacs007Fields } | { ok: false; errors: FieldError[] };

export function validatePacs007(
  body: Json,
  faults: FaultSet,
  dialect: AmountDialect,
  rootName: string = PACS007_ROOT,
): Pacs007Result {
  const c = new Checker(faults, dialect);
  const R = rootName;
  const root = c.object(body, R, R);
  const grpHdr = c.object(root, 'grpHdr', `${R}.grpHdr`);
  const msgId = c.string(grpHdr, 'msgId', `${R}.grpHdr.msgId`);
  c.dateTime(grpHdr, 'creDtTm', `${R}.grpHdr.creDtTm`);
  c.one(grpHdr, 'nbOfTxs', `${R}.grpHdr.nbOfTxs`);
  const txInf = c.array(root, 'txInf', `${R}.txInf`);
  if (txInf && txInf.length !== 1)
    c.fail(`${R}.txInf`, 'invalid_value', `${R}.txInf must hold exactly one transaction`);
  const t0 = txInf?.[0];
  const tx = isObject(t0) ? t0 : null;
  if (txInf && txInf.length > 0 && !tx) c.fail(`${R}.txInf[0]`, 'invalid_type', `${R}.txInf[0] must be an object`);
  const T = `${R}.txInf[0]`;
  const rvslId = c.string(tx, 'rvslId', `${T}.rvslId`);
  const grp = c.object(tx, 'orgnlGrpInf', `${T}.orgnlGrpInf`);
  const orgnlMsgId = c.string(grp, 'orgnlMsgId', `${T}.orgnlGrpInf.orgnlMsgId`);
  c.string(grp, 'orgnlMsgNmId', `${T}.orgnlGrpInf.orgnlMsgNmId`, false);
  const orgnlEndToEndId = c.string(tx, 'orgnlEndToEndId', `${T}.orgnlEndToEndId`, false);
  const orgnlTxId = c.string(tx, 'orgnlTxId', `${T}.orgnlTxId`);
  const orgnlAmountCents = c.amount(
    tx,
    'orgnlIntrBkSttlmAmt',
    `${T}.orgnlIntrBkSttlmAmt`,
    { ccy: 'GBP', positive: true },
    false,
  );
  const refundCents = c.amount(tx, 'rvsdIntrBkSttlmAmt', `${T}.rvsdIntrBkSttlmAmt`, {
    ccy: 'GBP',
    positive: !faults.has('refund-accepts-negative'),
  });
  const reasons = c.array(tx, 'rvslRsnInf', `${T}.rvslRsnInf`, false);
  reasons?.forEach((item, i) => {
    const p = `${T}.rvslRsnInf[${i}]`;
    if (!isObject(item)) return void c.fail(p, 'invalid_type', `${p} must be an object`);
    c.object(item, 'rsn', `${p}.rsn`, false);
  });
  if (!c.ok || !msgId || !rvslId || !orgnlMsgId || !orgnlTxId || refundCents === null)
    return { ok: false, errors: c.errors };
  return {
    ok: true,
    fields: {
      msgId,
      rvslId,
      orgnlMsgId,
      orgnlTxId,
      orgnlEndToEndId: orgnlEndToEndId ?? '',
      orgnlAmountCents,
      refundCents,
    },
  };
}
