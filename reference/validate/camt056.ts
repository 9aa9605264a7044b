/** camt.056 cancellation request (README shape; spec §1 rules 1-5 say what it does, not its fields). */
import type { FieldError } from '../errors';
import type { FaultSet } from '../faults';
import { Checker, isObject, type AmountDialect, type Json } from './check';

/** The root of the default dialect; dialect cancellationRequestRoot may name the other spelling. */
export const CAMT056_ROOT = 'fitoFIPmtCxlReq';

export interface Camt056Fields {
  assignmentId: string;
  assignmentCreDtTm: string;
  /** assgnmt.assgnr.agt.finInstnId.bicfi, when the request names its assigner so. */
  assignerBic: string | null;
  cxlId: string | null;
  orgnlMsgId: string;
  orgnlMsgNmId: string | null;
  orgnlEndToEndId: string | null;
  orgnlTxId: string;
  orgnlAmountCents: number | null;
  /** The first reason's rsn.cd: null where it is given as prtry (or not at all). */
  reasonCode: string | null;
}

export type Camt056Result = { ok: true; fields: Camt056Fields } | { ok: false; errors: FieldError[] };

export function validateCamt056(
  body: Json,
  faults: FaultSet,
  dialect: AmountDialect,
  rootName: string = CAMT056_ROOT,
): Camt056Result {
  const c = new Checker(faults, dialect);
  const R = rootName;
  const root = c.object(body, R, R);
  const assgnmt = c.object(root, 'assgnmt', `${R}.assgnmt`);
  const assignmentId = c.string(assgnmt, 'id', `${R}.assgnmt.id`);
  const creDtTm = c.dateTime(assgnmt, 'creDtTm', `${R}.assgnmt.creDtTm`);
  const assigner = c.object(
    c.object(c.object(assgnmt, 'assgnr', `${R}.assgnmt.assgnr`, false), 'agt', `${R}.assgnmt.assgnr.agt`, false),
    'finInstnId',
    `${R}.assgnmt.assgnr.agt.finInstnId`,
    false,
  );
  const assignerBic = c.string(assigner, 'bicfi', `${R}.assgnmt.assgnr.agt.finInstnId.bicfi`, false);
  const undrlyg = c.array(root, 'undrlyg', `${R}.undrlyg`);
  if (undrlyg && undrlyg.length !== 1) c.fail(`${R}.undrlyg`, 'invalid_value', `${R}.undrlyg must hold one entry`);
  const u0 = undrlyg?.[0];
  const under = isObject(u0) ? u0 : null;
  if (undrlyg && undrlyg.length > 0 && !under)
    c.fail(`${R}.undrlyg[0]`, 'invalid_type', `${R}.undrlyg[0] must be an object`);
  const U = `${R}.undrlyg[0]`;
  const txInf = c.array(under, 'txInf', `${U}.txInf`);
  if (txInf && txInf.length !== 1) c.fail(`${U}.txInf`, 'invalid_value', `${U}.txInf must hold one transaction`);
  const t0 = txInf?.[0];
  const tx = isObject(t0) ? t0 : null;
  if (txInf && txInf.length > 0 && !tx) c.fail(`${U}.txInf[0]`, 'invalid_type', `${U}.txInf[0] must be an object`);
  const T = `${U}.txInf[0]`;
  const cxlId = c.string(tx, 'cxlId', `${T}.cxlId`, false);
  const grp = c.object(tx, 'orgnlGrpInf', `${T}.orgnlGrpInf`);
  const orgnlMsgId = c.string(grp, 'orgnlMsgId', `${T}.orgnlGrpInf.orgnlMsgId`);
  const orgnlMsgNmId = c.string(grp, 'orgnlMsgNmId', `${T}.orgnlGrpInf.orgnlMsgNmId`, false);
  const orgnlEndToEndId = c.string(tx, 'orgnlEndToEndId', `${T}.orgnlEndToEndId`, false);
  const orgnlTxId = c.string(tx, 'orgnlTxId', `${T}.orgnlTxId`);
  const orgnlAmountCents = c.amount(
    tx,
    'orgnlIntrBkSttlmAmt',
    `${T}.orgnlIntrBkSttlmAmt`,
    { ccy: 'GBP', positive: true },
    false,
  );
  const reasons = c.array(tx, 'cxlRsnInf', `${T}.cxlRsnInf`, false);
  const first = reasons?.[0];
  const firstRsn = isObject(first) && isObject(first.rsn) ? first.rsn : undefined;
  const reasonCode = typeof firstRsn?.cd === 'string' ? firstRsn.cd : null;
  reasons?.forEach((item, i) => {
    const p = `${T}.cxlRsnInf[${i}]`;
    if (!isObject(item)) return void c.fail(p, 'invalid_type', `${p} must be an object`);
    const rsn = c.object(item, 'rsn', `${p}.rsn`);
    if (rsn && typeof rsn.cd !== 'string' && typeof rsn.prtry !== 'string')
      c.fail(`${p}.rsn`, 'required', `${p}.rsn needs cd or prtry`);
  });
  if (!c.ok || !assignmentId || !creDtTm || !orgnlMsgId || !orgnlTxId) return { ok: false, errors: c.errors };
  return {
    ok: true,
    fields: {
      assignmentId,
      assignmentCreDtTm: creDtTm,
      assignerBic,
      cxlId,
      orgnlMsgId,
      orgnlMsgNmId,
      orgnlEndToEndId,
      orgnlTxId,
      orgnlAmountCents,
      reasonCode,
    },
  };
}
