/** pacs.008 submission (spec §2.2, §8): field rules of the table plus the party-structure shapes. */
import type { FaultSet } from '../faults';
import type { Dialect } from '../dialects';
import type { FieldError } from '../errors';
import { Checker, isObject, isUuid, readAmount, type AmountDialect, type Json } from './check';

/** payment-credttm-ranges-only: a date-time whose fields are in range, whatever the month's length. */
const RANGES_ONLY_DATE_TIME =
  /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
/** payment-uetr-contains-uuid: a UUID anywhere in the text. */
const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

export const PACS008_ROOT = 'fitoFICstmrCdtTrf';

export interface Pacs008Fields {
  msgId: string;
  endToEndId: string;
  txId: string;
  amountCents: number;
  creditorAccount: string;
  creditorMemberId: string;
  /** cdtTrfTxInf.dbtrAgt.finInstnId.clrSysMmbId.mmbId, '' when absent. */
  debtorMemberId: string;
  /** cdtTrfTxInf.pmtId.uetr, '' when absent. */
  uetr: string;
}

export type Pacs008Result = { ok: true; fields: Pacs008Fields } | { ok: false; errors: FieldError[] };

/** The root element's content; P8-06 wants exactly one root, named fitoFICstmrCdtTrf. */
export function pacs008Root(
  body: Json,
  faults: FaultSet,
): { root: Json | null; rootKey: string; error: FieldError | null } {
  const keys = Object.keys(body);
  const root = body[PACS008_ROOT];
  if (isObject(root) && keys.length === 1) return { root, rootKey: PACS008_ROOT, error: null };
  if (faults.has('payment-accepts-any-root')) {
    if (isObject(root)) return { root, rootKey: PACS008_ROOT, error: null };
    for (const key of keys) {
      const candidate = body[key];
      if (isObject(candidate)) return { root: candidate, rootKey: key, error: null };
    }
  }
  if (!isObject(root))
    return {
      root: null,
      rootKey: PACS008_ROOT,
      error: { code: 'required', message: `the body must have the root element ${PACS008_ROOT}`, path: PACS008_ROOT },
    };
  return {
    root: null,
    rootKey: PACS008_ROOT,
    error: {
      code: 'invalid_value',
      message: `the body must have the single root element ${PACS008_ROOT}`,
      path: keys.find((k) => k !== PACS008_ROOT) ?? '',
    },
  };
}

/** §2.2's party shape: nm a string (present, unless the dialect reads it optional as ISO does), adrLine an array of strings. */
function party(c: Checker, value: Json | null, path: string, nameRequired: boolean, nameTyped: boolean): void {
  if (!value) return;
  if (nameTyped) c.string(value, 'nm', `${path}.nm`, nameRequired);
  const adr = c.object(value, 'pstlAdr', `${path}.pstlAdr`, false);
  c.stringArray(adr, 'adrLine', `${path}.pstlAdr.adrLine`, false);
}

function account(c: Checker, value: Json | null, path: string): string | null {
  if (!value) return null;
  const id = c.object(value, 'id', `${path}.id`);
  const othr = c.object(id, 'othr', `${path}.id.othr`);
  const accountId = c.string(othr, 'id', `${path}.id.othr.id`);
  c.string(value, 'nm', `${path}.nm`, false);
  return accountId;
}

function agent(c: Checker, value: Json | null, path: string): string | null {
  if (!value) return null;
  const fin = c.object(value, 'finInstnId', `${path}.finInstnId`);
  const clr = c.object(fin, 'clrSysMmbId', `${path}.finInstnId.clrSysMmbId`);
  return c.string(clr, 'mmbId', `${path}.finInstnId.clrSysMmbId.mmbId`);
}

/** Reads a nested string without recording errors (for fields whose checks a fault switched off). */
function peek(value: unknown, ...keys: string[]): string {
  let current: unknown = value;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  return typeof current === 'string' ? current : '';
}

function remittance(c: Checker, tx: Json, path: string, faults: FaultSet): void {
  if (tx.rmtInf === undefined) return;
  if (faults.has('payment-rejects-rmtinf')) {
    c.fail(path, 'invalid_value', `${path} is not accepted`);
    return;
  }
  const rmt = c.object(tx, 'rmtInf', path, false);
  if (!rmt || faults.has('payment-rmtinf-shape-unchecked')) return;
  // payment-ustrd-first-line-only: the defect looks at ustrd's first line only.
  if (faults.has('payment-ustrd-first-line-only')) {
    const lines = c.array(rmt, 'ustrd', `${path}.ustrd`, faults.has('payment-rmtinf-requires-ustrd'));
    if (lines?.length && typeof lines[0] !== 'string')
      c.fail(`${path}.ustrd[0]`, 'invalid_type', `${path}.ustrd[0] must be a string`);
  } else c.stringArray(rmt, 'ustrd', `${path}.ustrd`, faults.has('payment-rmtinf-requires-ustrd'));
  // payment-strd-unchecked: the defect checks ustrd only.
  if (faults.has('payment-strd-unchecked')) return;
  const strd = c.array(rmt, 'strd', `${path}.strd`, false);
  strd?.forEach((item, i) => {
    const p = `${path}.strd[${i}]`;
    if (!isObject(item)) return void c.fail(p, 'invalid_type', `${p} must be an object`);
    const ref = c.object(item, 'cdtrRefInf', `${p}.cdtrRefInf`, false);
    c.string(ref, 'ref', `${p}.cdtrRefInf.ref`, false);
    c.stringArray(item, 'addtlRmtInf', `${p}.addtlRmtInf`, false);
  });
}

export function validatePacs008(
  root: Json,
  faults: FaultSet,
  dialect: AmountDialect & Pick<Dialect, 'partyName'>,
): Pacs008Result {
  const c = new Checker(faults, dialect);
  const R = PACS008_ROOT;
  const grpHdr = c.object(root, 'grpHdr', `${R}.grpHdr`);
  const msgId = faults.has('payment-msgid-optional')
    ? peek(grpHdr, 'msgId')
    : c.string(grpHdr, 'msgId', `${R}.grpHdr.msgId`);
  // payment-credttm-ranges-only: the defect checks each field's range (month 1-12, day 1-31), not the calendar.
  if (faults.has('payment-credttm-ranges-only')) {
    const given = c.string(grpHdr, 'creDtTm', `${R}.grpHdr.creDtTm`);
    if (given !== null && !RANGES_ONLY_DATE_TIME.test(given))
      c.fail(`${R}.grpHdr.creDtTm`, 'invalid_format', `${R}.grpHdr.creDtTm must be an ISO 8601 date-time`);
  } else if (!faults.has('payment-credttm-unchecked')) c.dateTime(grpHdr, 'creDtTm', `${R}.grpHdr.creDtTm`);
  if (!faults.has('payment-nboftxs-unchecked')) c.one(grpHdr, 'nbOfTxs', `${R}.grpHdr.nbOfTxs`);
  const total = c.amount(
    grpHdr,
    'ttlIntrBkSttlmAmt',
    `${R}.grpHdr.ttlIntrBkSttlmAmt`,
    { ccy: faults.has('payment-ttl-any-ccy') ? null : 'GBP', positive: !faults.has('payment-ttl-non-positive') },
    false,
  );
  if (!faults.has('payment-sttlmmtd-unchecked')) {
    const sttlmInf = c.object(grpHdr, 'sttlmInf', `${R}.grpHdr.sttlmInf`);
    c.oneOf(sttlmInf, 'sttlmMtd', `${R}.grpHdr.sttlmInf.sttlmMtd`, ['CLRG']);
  }

  const listed = c.array(root, 'cdtTrfTxInf', `${R}.cdtTrfTxInf`);
  // payment-identical-transactions-collapsed: the defect reads a transaction written out twice as one.
  const txs =
    listed && faults.has('payment-identical-transactions-collapsed')
      ? listed.filter((tx, i) => listed.findIndex((other) => JSON.stringify(other) === JSON.stringify(tx)) === i)
      : listed;
  if (txs && (txs.length === 0 || (txs.length > 1 && !faults.has('payment-accepts-several-transactions')))) {
    c.fail(`${R}.cdtTrfTxInf`, 'invalid_value', `${R}.cdtTrfTxInf must hold exactly one transaction (nbOfTxs is 1)`);
  }
  const first = txs?.[0];
  let tx: Json | null = null;
  if (txs && txs.length > 0) {
    if (isObject(first)) tx = first;
    else c.fail(`${R}.cdtTrfTxInf[0]`, 'invalid_type', `${R}.cdtTrfTxInf[0] must be an object`);
  }
  const T = `${R}.cdtTrfTxInf[0]`;
  let endToEndId: string | null = null;
  let txId: string | null = null;
  let amountCents: number | null = null;
  let creditorAccount = '';
  let creditorMemberId = '';
  let debtorMemberId = '';
  let uetr = '';
  if (tx) {
    const pmtId = c.object(tx, 'pmtId', `${T}.pmtId`);
    // payment-blank-ids-taken: the defect counts an empty endToEndId or txId as given.
    const blank = (key: string) => faults.has('payment-blank-ids-taken') && isObject(pmtId) && pmtId[key] === '';
    endToEndId =
      faults.has('payment-e2e-optional') || blank('endToEndId')
        ? peek(pmtId, 'endToEndId')
        : c.string(pmtId, 'endToEndId', `${T}.pmtId.endToEndId`);
    txId =
      faults.has('payment-txid-optional') || blank('txId')
        ? peek(pmtId, 'txId')
        : c.string(pmtId, 'txId', `${T}.pmtId.txId`);
    const given = c.string(pmtId, 'uetr', `${T}.pmtId.uetr`, false);
    // payment-uetr-contains-uuid: the defect searches the value for a UUID instead of matching it whole.
    const uuidFound = faults.has('payment-uetr-contains-uuid') && given !== null && UUID_ANYWHERE.test(given);
    if (given !== null && !isUuid(given) && !uuidFound && !faults.has('payment-uetr-unchecked'))
      c.fail(`${T}.pmtId.uetr`, 'invalid_format', `${T}.pmtId.uetr must be a UUID`);
    uetr = given ?? '';

    const pmtTpInf = c.object(tx, 'pmtTpInf', `${T}.pmtTpInf`, false);
    const svcLvlRaw = pmtTpInf?.svcLvl;
    const svcLvls: unknown[] = Array.isArray(svcLvlRaw)
      ? svcLvlRaw
      : svcLvlRaw === undefined || svcLvlRaw === null
        ? []
        : [svcLvlRaw];
    svcLvls.forEach((level, i) => {
      const p = Array.isArray(svcLvlRaw) ? `${T}.pmtTpInf.svcLvl[${i}]` : `${T}.pmtTpInf.svcLvl`;
      if (!isObject(level)) return void c.fail(p, 'invalid_type', `${p} must be an object`);
      if (faults.has('payment-svclvl-unchecked') || (faults.has('payment-svclvl-first-only') && i > 0)) return;
      c.oneOf(level, 'prtry', `${p}.prtry`, ['FP'], false);
    });
    c.string(
      c.object(pmtTpInf, 'lclInstrm', `${T}.pmtTpInf.lclInstrm`, false),
      'prtry',
      `${T}.pmtTpInf.lclInstrm.prtry`,
      false,
    );
    c.string(
      c.object(pmtTpInf, 'ctgyPurp', `${T}.pmtTpInf.ctgyPurp`, false),
      'prtry',
      `${T}.pmtTpInf.ctgyPurp.prtry`,
      false,
    );

    // payment-accepts-gbx: the defect takes GBX (pence sterling, a market quote) for pounds.
    const gbx = faults.has('payment-accepts-gbx') && isObject(tx.intrBkSttlmAmt) && tx.intrBkSttlmAmt.ccy === 'GBX';
    // payment-negative-amount-as-positive: the defect reads a negative amount as its size (zero is still refused).
    const amount = tx.intrBkSttlmAmt;
    const negated =
      faults.has('payment-negative-amount-as-positive') &&
      isObject(amount) &&
      typeof amount.value === 'number' &&
      amount.value < 0;
    amountCents = c.amount(
      negated ? { ...tx, intrBkSttlmAmt: { ...amount, value: -(amount.value as number) } } : tx,
      'intrBkSttlmAmt',
      `${T}.intrBkSttlmAmt`,
      { ccy: faults.has('accepts-eur') || gbx ? null : 'GBP', positive: !faults.has('payment-accepts-zero-amount') },
      !faults.has('payment-amount-optional'),
    );
    if (!faults.has('payment-chrgbr-unchecked')) c.oneOf(tx, 'chrgBr', `${T}.chrgBr`, ['SLEV', 'SHAR']);

    const debtorRequired = !faults.has('payment-debtor-parties-optional');
    const creditorRequired = !faults.has('payment-creditor-parties-optional');
    const dbtr = c.object(tx, 'dbtr', `${T}.dbtr`, debtorRequired);
    const dbtrAcct = c.object(tx, 'dbtrAcct', `${T}.dbtrAcct`, debtorRequired);
    const dbtrAgt = c.object(tx, 'dbtrAgt', `${T}.dbtrAgt`, debtorRequired);
    const cdtrAgt = c.object(tx, 'cdtrAgt', `${T}.cdtrAgt`, creditorRequired);
    const cdtr = c.object(tx, 'cdtr', `${T}.cdtr`, creditorRequired);
    const cdtrAcct = c.object(tx, 'cdtrAcct', `${T}.cdtrAcct`, creditorRequired);
    const nameRequired = dialect.partyName === 'required';
    const nameTyped = !faults.has('payment-party-name-type-unchecked');
    if (!faults.has('payment-party-shapes-unchecked')) {
      party(c, dbtr, `${T}.dbtr`, nameRequired, nameTyped);
      account(c, dbtrAcct, `${T}.dbtrAcct`);
      agent(c, dbtrAgt, `${T}.dbtrAgt`);
      party(c, cdtr, `${T}.cdtr`, nameRequired, nameTyped);
      account(c, cdtrAcct, `${T}.cdtrAcct`);
      agent(c, cdtrAgt, `${T}.cdtrAgt`);
    }
    creditorAccount = peek(cdtrAcct, 'id', 'othr', 'id');
    creditorMemberId = peek(cdtrAgt, 'finInstnId', 'clrSysMmbId', 'mmbId');
    debtorMemberId = peek(dbtrAgt, 'finInstnId', 'clrSysMmbId', 'mmbId');
    remittance(c, tx, `${T}.rmtInf`, faults);
  }

  // The group total must equal the sum of all transactions (one, or several under a fault).
  if (total !== null && txs && !faults.has('payment-ttl-sum-unchecked')) {
    let sum = 0;
    for (const item of txs) {
      const amt = isObject(item) && isObject(item.intrBkSttlmAmt) ? item.intrBkSttlmAmt.value : undefined;
      if (typeof amt === 'number' && Number.isFinite(amt)) sum += readAmount(amt).cents;
    }
    // payment-ttl-whole-pounds: the pence of both sides are dropped before they are compared.
    const pounds = (cents: number) => Math.trunc(cents / 100);
    // payment-ttl-float32: the defect compares both sides as single-precision floats (7 digits or so).
    const float32 = (cents: number) => Math.fround(cents / 100);
    if (
      faults.has('payment-ttl-whole-pounds')
        ? pounds(sum) !== pounds(total)
        : faults.has('payment-ttl-float32')
          ? float32(sum) !== float32(total)
          : sum !== total
    )
      c.fail(
        `${R}.grpHdr.ttlIntrBkSttlmAmt.value`,
        'invalid_value',
        `${R}.grpHdr.ttlIntrBkSttlmAmt must equal the sum of the transactions`,
      );
  }

  if (!c.ok) return { ok: false, errors: c.errors };
  return {
    ok: true,
    fields: {
      msgId: msgId ?? '',
      endToEndId: endToEndId ?? '',
      txId: txId ?? '',
      amountCents: amountCents ?? 0,
      creditorAccount,
      creditorMemberId,
      debtorMemberId,
      uetr,
    },
  };
}
