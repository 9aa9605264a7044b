/** pacs.004.001.09 return (spec §2.5): field table, EUR amounts, EBA reason codes, IBAN/BIC/country checks. */
import type { FaultSet } from '../faults';
import type { FieldError } from '../errors';
import { Checker, isObject, type AmountDialect, type BicCheck, type AmountRule, type Json } from './check';
import { ISO3166_ALPHA2 } from './iso3166';
import type { Dialect } from '../dialects';

export const PACS004_ROOT = 'pmtRtr';
export const PACS004_NAME = 'pacs.004.001.09';

/** The 18 EBA return reason codes of spec §2.5. */
export const EBA_RETURN_CODES: ReadonlySet<string> = new Set([
  'AC01',
  'AC04',
  'AC06',
  'AG01',
  'AG02',
  'AM05',
  'BE04',
  'CNOR',
  'ERIN',
  'FOCR',
  'MD07',
  'MS02',
  'MS03',
  'RC01',
  'RR01',
  'RR02',
  'RR03',
  'RR04',
]);
export const ORIGINAL_MESSAGE_NAMES: ReadonlySet<string> = new Set(['pacs.008', 'pacs.008.001.08', 'pacs.008.001.02']);
const ADDRESS_FIELDS = [
  'dept',
  'subDept',
  'strNme',
  'bldgNb',
  'bldgNm',
  'Flr',
  'pstBx',
  'room',
  'pstCd',
  'twnNm',
  'twnLctnNm',
  'dstrctNm',
  'ctrySubDvsn',
] as const;

export interface Pacs004Fields {
  msgId: string;
  rtrId: string;
  orgnlMsgId: string;
  orgnlTxId: string;
  endToEndId: string;
  /** txInf.orgnlEndToEndId and orgnlIntrBkSttlmAmt (cents): tell apart payments sharing msgId and txId. */
  orgnlEndToEndId: string | null;
  orgnlAmountCents: number | null;
  returnedCents: number;
  hasRtrdInstdAmt: boolean;
  reasonCodes: string[];
  /** The first reason's addtlInf, when it is one string (a FOCR return's recall reference). */
  addtlInf: string | null;
}

export type Pacs004Result = { ok: true; fields: Pacs004Fields } | { ok: false; errors: FieldError[] };

function address(c: Checker, owner: Json | null, path: string, faults: FaultSet): void {
  const adr = c.object(owner, 'pstlAdr', `${path}.pstlAdr`, false);
  if (!adr) return;
  for (const field of ADDRESS_FIELDS) c.string(adr, field, `${path}.pstlAdr.${field}`, false);
  const lines = adr.adrLine;
  // adrLine: a string per the table, or the ISO array of strings.
  if (Array.isArray(lines)) c.stringArray(adr, 'adrLine', `${path}.pstlAdr.adrLine`);
  else c.string(adr, 'adrLine', `${path}.pstlAdr.adrLine`, false);
  const ctry = c.string(adr, 'ctry', `${path}.pstlAdr.ctry`, false);
  // return-dbtr-ctry-case-insensitive: the defect reads the debtor's country code in either case.
  const read =
    faults.has('return-dbtr-ctry-case-insensitive') && path.endsWith('.dbtr.pty') ? ctry?.toUpperCase() : ctry;
  if (ctry !== null && !ISO3166_ALPHA2.has(read ?? ctry) && !faults.has('return-ctry-unchecked')) {
    c.fail(`${path}.pstlAdr.ctry`, 'invalid_value', `${path}.pstlAdr.ctry must be an ISO 3166 alpha-2 code`);
  }
}

function optionalParty(c: Checker, ref: Json | null, key: string, path: string, checkBic: BicCheck): void {
  const outer = c.object(ref, key, `${path}.${key}`, false);
  const pty = c.object(outer, 'pty', `${path}.${key}.pty`, false);
  c.string(pty, 'nm', `${path}.${key}.pty.nm`, false);
  c.bic(
    c.object(c.object(pty, 'id', `${path}.${key}.pty.id`, false), 'orgId', `${path}.${key}.pty.id.orgId`, false),
    'anyBIC',
    `${path}.${key}.pty.id.orgId.anyBIC`,
    false,
    checkBic,
  );
}

function codeOrProprietary(c: Checker, parent: Json | null, key: string, path: string): void {
  const value = c.object(parent, key, path, false);
  if (value && typeof value.cd !== 'string' && typeof value.prtry !== 'string')
    c.fail(path, 'invalid_value', `${path} needs cd or prtry`);
}

export function validatePacs004(
  body: Json,
  faults: FaultSet,
  dialect: AmountDialect & Pick<Dialect, 'returnCreditorName' | 'isoValidation' | 'bareOriginalName'>,
): Pacs004Result {
  // A hub that validates against the XSD reads ISO's one place: the example's cdtr.nm never reaches it.
  const creditorNamePlacement =
    dialect.isoValidation === 'xsd' && dialect.returnCreditorName === 'direct' ? 'party' : dialect.returnCreditorName;
  const c = new Checker(faults, dialect);
  const R = PACS004_ROOT;
  // return-bic-length-only: the defect checks a BIC's length and characters, not ISO 9362's form.
  const checkBic: BicCheck = faults.has('return-bic-unchecked')
    ? false
    : faults.has('return-bic-length-only')
      ? 'length'
      : faults.has('return-bic-case-insensitive')
        ? 'caseless'
        : true;
  const money: AmountRule = {
    ccy: faults.has('return-accepts-non-eur') ? null : 'EUR',
    positive: !faults.has('return-accepts-non-positive'),
  };
  const root = c.object(body, R, R);

  const grpHdr = c.object(root, 'grpHdr', `${R}.grpHdr`);
  const G = `${R}.grpHdr`;
  const msgId = c.string(grpHdr, 'msgId', `${G}.msgId`, !faults.has('return-msgid-optional'));
  c.dateTime(grpHdr, 'creDtTm', `${G}.creDtTm`, !faults.has('return-credttm-optional'));
  if (!faults.has('return-nboftxs-unchecked')) c.one(grpHdr, 'nbOfTxs', `${G}.nbOfTxs`);
  c.amount(
    grpHdr,
    'ttlRtrdIntrBkSttlmAmt',
    `${G}.ttlRtrdIntrBkSttlmAmt`,
    money,
    faults.has('return-requires-ttl-amount'),
  );
  // return-sttlmdt-ranges-only: the defect checks each field's range, not the calendar (30 February passes).
  if (faults.has('return-sttlmdt-ranges-only')) {
    const date = c.string(grpHdr, 'intrBkSttlmDt', `${G}.intrBkSttlmDt`);
    if (date !== null && !/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(date))
      c.fail(`${G}.intrBkSttlmDt`, 'invalid_format', `${G}.intrBkSttlmDt must be an ISO 8601 date (YYYY-MM-DD)`);
  } else if (!faults.has('return-sttlmdt-unchecked')) c.date(grpHdr, 'intrBkSttlmDt', `${G}.intrBkSttlmDt`);
  const sttlmInf = c.object(grpHdr, 'sttlmInf', `${G}.sttlmInf`, !faults.has('return-sttlmmtd-optional'));
  c.string(sttlmInf, 'sttlmMtd', `${G}.sttlmInf.sttlmMtd`, !faults.has('return-sttlmmtd-optional'));
  c.string(c.object(sttlmInf, 'clrSys', `${G}.sttlmInf.clrSys`, false), 'prtry', `${G}.sttlmInf.clrSys.prtry`, false);
  for (const agentKey of ['instgAgt', 'instdAgt']) {
    const fin = c.object(
      c.object(grpHdr, agentKey, `${G}.${agentKey}`, false),
      'finInstnId',
      `${G}.${agentKey}.finInstnId`,
      false,
    );
    c.bic(fin, 'bicfi', `${G}.${agentKey}.finInstnId.bicfi`, false, checkBic);
  }

  const txInf = c.array(root, 'txInf', `${R}.txInf`);
  if (txInf && txInf.length !== 1)
    c.fail(`${R}.txInf`, 'invalid_value', `${R}.txInf must hold exactly one transaction (nbOfTxs is 1)`);
  const t0 = txInf?.[0];
  const tx = isObject(t0) ? t0 : null;
  if (txInf && txInf.length > 0 && !tx) c.fail(`${R}.txInf[0]`, 'invalid_type', `${R}.txInf[0] must be an object`);
  const T = `${R}.txInf[0]`;
  const endToEndId = c.string(c.object(tx, 'pmtId', `${T}.pmtId`, false), 'endToEndId', `${T}.pmtId.endToEndId`, false);
  const rtrId = c.string(tx, 'rtrId', `${T}.rtrId`, !faults.has('return-rtrid-optional'));
  const grp = c.object(tx, 'orgnlGrpInf', `${T}.orgnlGrpInf`);
  const orgnlMsgId = c.string(
    grp,
    'orgnlMsgId',
    `${T}.orgnlGrpInf.orgnlMsgId`,
    !faults.has('return-orgnl-msgid-optional'),
  );
  if (!faults.has('return-accepts-any-msgnmid')) {
    const name = c.string(grp, 'orgnlMsgNmId', `${T}.orgnlGrpInf.orgnlMsgNmId`);
    if (
      name !== null &&
      (faults.has('return-msgnmid-prefix-only')
        ? !name.startsWith('pacs.008')
        : faults.has('return-msgnmid-any-variant')
          ? !/^pacs\.008(\.\d{3}\.(08|02))?$/.test(name)
          : !ORIGINAL_MESSAGE_NAMES.has(name) || (name === 'pacs.008' && dialect.bareOriginalName === 'refuse'))
    )
      c.fail(
        `${T}.orgnlGrpInf.orgnlMsgNmId`,
        'invalid_value',
        `${T}.orgnlGrpInf.orgnlMsgNmId must be pacs.008, pacs.008.001.08 or pacs.008.001.02`,
      );
  }
  c.string(tx, 'orgnlInstrId', `${T}.orgnlInstrId`, false);
  const orgnlEndToEndId = c.string(
    tx,
    'orgnlEndToEndId',
    `${T}.orgnlEndToEndId`,
    !faults.has('return-orgnl-e2e-optional'),
  );
  const orgnlTxId = c.string(tx, 'orgnlTxId', `${T}.orgnlTxId`, !faults.has('return-orgnl-txid-optional'));
  const orgnlAmountCents = c.amount(
    tx,
    'orgnlIntrBkSttlmAmt',
    `${T}.orgnlIntrBkSttlmAmt`,
    money,
    !faults.has('return-orgnl-amount-optional'),
  );
  const returnedCents = c.amount(
    tx,
    'rtrdIntrBkSttlmAmt',
    `${T}.rtrdIntrBkSttlmAmt`,
    money,
    !faults.has('return-rtrd-amount-optional'),
  );
  c.amount(tx, 'rtrdInstdAmt', `${T}.rtrdInstdAmt`, money, false);
  // return-tx-dates-unchecked: the defect checks the group header's date alone.
  if (!faults.has('return-tx-dates-unchecked')) c.date(tx, 'intrBkSttlmDt', `${T}.intrBkSttlmDt`, false);
  if (!faults.has('return-accepts-shar')) c.oneOf(tx, 'chrgBr', `${T}.chrgBr`, ['SLEV']);
  c.amount(c.object(tx, 'chrgsInf', `${T}.chrgsInf`, false), 'amt', `${T}.chrgsInf.amt`, money, false);

  const reasonCodes: string[] = [];
  let addtlInf: string | null = null;
  const reasons = c.array(tx, 'rtrRsnInf', `${T}.rtrRsnInf`);
  if (reasons && reasons.length === 0) c.fail(`${T}.rtrRsnInf`, 'required', `${T}.rtrRsnInf must hold a reason`);
  // return-first-reason-only: the defect validates the first reason and skips the others.
  reasons?.slice(0, faults.has('return-first-reason-only') ? 1 : undefined).forEach((item, i) => {
    const p = `${T}.rtrRsnInf[${i}]`;
    if (!isObject(item)) return void c.fail(p, 'invalid_type', `${p} must be an object`);
    // return-orgtr-first-only: the defect requires the originator of the first reason only.
    const orgtr = c.object(item, 'orgtr', `${p}.orgtr`, !(faults.has('return-orgtr-first-only') && i > 0));
    c.string(orgtr, 'nm', `${p}.orgtr.nm`, !faults.has('return-orgtr-nm-optional'));
    const orgId = c.object(
      c.object(orgtr, 'id', `${p}.orgtr.id`, !faults.has('return-orgtr-bic-optional')),
      'orgId',
      `${p}.orgtr.id.orgId`,
      !faults.has('return-orgtr-bic-optional'),
    );
    c.bic(orgId, 'anyBIC', `${p}.orgtr.id.orgId.anyBIC`, !faults.has('return-orgtr-bic-optional'), checkBic);
    const rsn = c.object(item, 'rsn', `${p}.rsn`);
    let code: string | null = null;
    if (rsn) {
      code = c.string(rsn, 'cd', `${p}.rsn.cd`, false);
      const prtry = c.string(rsn, 'prtry', `${p}.rsn.prtry`, false);
      if (code === null && prtry === null && rsn.cd === undefined && rsn.prtry === undefined)
        c.fail(`${p}.rsn`, 'required', `${p}.rsn needs cd or prtry`);
      // ISO 20022's ReturnReason5Choice: one of the two. return-rsn-both-taken: the defect reads cd and lets prtry be.
      if (code !== null && prtry !== null && !faults.has('return-rsn-both-taken'))
        c.fail(`${p}.rsn`, 'invalid_value', `${p}.rsn holds cd or prtry, not both`);
      // return-accepts-md06: the defect's list holds MD06 too (an EBA code of direct debits).
      const listed = EBA_RETURN_CODES.has(code ?? '') || (faults.has('return-accepts-md06') && code === 'MD06');
      if (code !== null && !listed && !faults.has('return-accepts-non-eba-code'))
        c.fail(`${p}.rsn.cd`, 'invalid_value', `${p}.rsn.cd must be one of the EBA return reason codes`);
      if (code !== null) reasonCodes.push(code);
    }
    const info = item.addtlInf;
    if (addtlInf === null)
      addtlInf = typeof info === 'string' ? info : Array.isArray(info) && typeof info[0] === 'string' ? info[0] : null;
    // return-addtlinf-first-only: the defect judges the first reason's addtlInf only.
    if (!faults.has('return-addtlinf-unchecked') && !(faults.has('return-addtlinf-first-only') && i > 0)) {
      if (code === 'FOCR') {
        // FOCR: addtlInf is mandatory and single (a string, or an array of exactly one string).
        const single =
          typeof info === 'string'
            ? info.trim() !== ''
            : Array.isArray(info) && info.length === 1 && typeof info[0] === 'string' && info[0].trim() !== '';
        if (!single)
          c.fail(
            `${p}.addtlInf`,
            info === undefined || info === null ? 'required' : 'invalid_value',
            `${p}.addtlInf is mandatory with reason FOCR and occurs once`,
          );
      } else if (info !== undefined && info !== null) {
        c.fail(`${p}.addtlInf`, 'invalid_value', `${p}.addtlInf is allowed only with reason FOCR`);
      }
    }
  });

  const ref = c.object(tx, 'orgnlTxRef', `${T}.orgnlTxRef`);
  const O = `${T}.orgnlTxRef`;
  if (!faults.has('return-tx-dates-unchecked')) c.date(ref, 'intrBkSttlmDt', `${O}.intrBkSttlmDt`, false);
  const refSttlm = c.object(ref, 'sttlmInf', `${O}.sttlmInf`, false);
  const pmtTpInf = c.object(ref, 'pmtTpInf', `${O}.pmtTpInf`, false);
  if (!faults.has('return-orgnl-sttlm-unchecked')) {
    c.oneOf(refSttlm, 'sttlmMtd', `${O}.sttlmInf.sttlmMtd`, ['CLRG'], false);
    const svc = pmtTpInf?.svcLvl;
    const levels: unknown[] = Array.isArray(svc) ? svc : svc === undefined || svc === null ? [] : [svc];
    levels.forEach((level, i) => {
      const p = Array.isArray(svc) ? `${O}.pmtTpInf.svcLvl[${i}]` : `${O}.pmtTpInf.svcLvl`;
      if (!isObject(level)) return void c.fail(p, 'invalid_type', `${p} must be an object`);
      // return-svclvl-fp: the defect takes pacs.008's value (FP) too.
      c.oneOf(level, 'prtry', `${p}.prtry`, faults.has('return-svclvl-fp') ? ['SEPA', 'FP'] : ['SEPA'], false);
    });
  }
  codeOrProprietary(c, pmtTpInf, 'lclInstrm', `${O}.pmtTpInf.lclInstrm`);
  codeOrProprietary(c, pmtTpInf, 'ctgyPurp', `${O}.pmtTpInf.ctgyPurp`);
  const rmtInf = c.object(ref, 'rmtInf', `${O}.rmtInf`, false);
  if (rmtInf && rmtInf.strd === undefined && rmtInf.ustrd === undefined)
    c.fail(`${O}.rmtInf`, 'invalid_value', `${O}.rmtInf needs strd or ustrd`);
  optionalParty(c, ref, 'ultmtDbtr', O, checkBic);
  optionalParty(c, ref, 'ultmtCdtr', O, checkBic);

  const dbtr = c.object(ref, 'dbtr', `${O}.dbtr`, !faults.has('return-dbtr-nm-optional'));
  const dbtrPty = c.object(dbtr, 'pty', `${O}.dbtr.pty`, !faults.has('return-dbtr-nm-optional'));
  c.string(dbtrPty, 'nm', `${O}.dbtr.pty.nm`, !faults.has('return-dbtr-nm-optional'));
  address(c, dbtrPty, `${O}.dbtr.pty`, faults);
  c.bic(
    c.object(c.object(dbtrPty, 'id', `${O}.dbtr.pty.id`, false), 'orgId', `${O}.dbtr.pty.id.orgId`, false),
    'anyBIC',
    `${O}.dbtr.pty.id.orgId.anyBIC`,
    false,
    checkBic,
  );
  if (!faults.has('return-dbtr-iban-unchecked')) {
    c.iban(
      c.object(c.object(ref, 'dbtrAcct', `${O}.dbtrAcct`), 'id', `${O}.dbtrAcct.id`),
      'iban',
      `${O}.dbtrAcct.id.iban`,
      true,
      faults.has('return-iban-print-format'),
    );
  }
  const dbtrAgtRequired = !faults.has('return-dbtragt-bic-optional');
  c.bic(
    c.object(
      c.object(ref, 'dbtrAgt', `${O}.dbtrAgt`, dbtrAgtRequired),
      'finInstnId',
      `${O}.dbtrAgt.finInstnId`,
      dbtrAgtRequired,
    ),
    'bicfi',
    `${O}.dbtrAgt.finInstnId.bicfi`,
    dbtrAgtRequired,
    checkBic,
  );
  const cdtrAgtRequired = !faults.has('return-cdtragt-bic-optional');
  c.bic(
    c.object(
      c.object(ref, 'cdtrAgt', `${O}.cdtrAgt`, cdtrAgtRequired),
      'finInstnId',
      `${O}.cdtrAgt.finInstnId`,
      cdtrAgtRequired,
    ),
    'bicfi',
    `${O}.cdtrAgt.finInstnId.bicfi`,
    cdtrAgtRequired,
    checkBic,
  );

  // Creditor name: at cdtr.nm (request example) or cdtr.pty.nm (field table), as the dialect reads §2.5.
  const cdtrRequired = !faults.has('return-cdtr-nm-optional');
  const cdtr = c.object(ref, 'cdtr', `${O}.cdtr`, cdtrRequired);
  const cdtrPty = c.object(cdtr, 'pty', `${O}.cdtr.pty`, false);
  const directName = c.string(cdtr, 'nm', `${O}.cdtr.nm`, false);
  const partyName = c.string(cdtrPty, 'nm', `${O}.cdtr.pty.nm`, false);
  const where = creditorNamePlacement;
  if (cdtr && cdtrRequired) {
    if (where === 'party' && cdtrPty?.nm === undefined)
      c.fail(`${O}.cdtr.pty.nm`, 'required', `the creditor name is required at ${O}.cdtr.pty.nm`);
    else if (where === 'direct' && cdtr.nm === undefined)
      c.fail(`${O}.cdtr.nm`, 'required', `the creditor name is required at ${O}.cdtr.nm`);
    else if (directName === null && partyName === null && cdtr.nm === undefined && cdtrPty?.nm === undefined)
      c.fail(`${O}.cdtr.nm`, 'required', `the creditor name is required (${O}.cdtr.nm or ${O}.cdtr.pty.nm)`);
  }
  address(c, cdtrPty, `${O}.cdtr.pty`, faults);
  address(c, cdtr, `${O}.cdtr`, faults);
  c.bic(
    c.object(c.object(cdtrPty, 'id', `${O}.cdtr.pty.id`, false), 'orgId', `${O}.cdtr.pty.id.orgId`, false),
    'anyBIC',
    `${O}.cdtr.pty.id.orgId.anyBIC`,
    false,
    checkBic,
  );
  if (!faults.has('return-cdtr-iban-unchecked')) {
    c.iban(
      c.object(c.object(ref, 'cdtrAcct', `${O}.cdtrAcct`), 'id', `${O}.cdtrAcct.id`),
      'iban',
      `${O}.cdtrAcct.id.iban`,
      true,
      faults.has('return-iban-print-format'),
    );
  }
  const purp = ref?.purp;
  if (purp !== undefined && purp !== null && typeof purp !== 'string' && !isObject(purp))
    c.fail(`${O}.purp`, 'invalid_type', `${O}.purp must be a string`);

  if (!c.ok) return { ok: false, errors: c.errors };
  return {
    ok: true,
    fields: {
      msgId: msgId ?? '',
      rtrId: rtrId ?? '',
      orgnlMsgId: orgnlMsgId ?? '',
      orgnlTxId: orgnlTxId ?? '',
      endToEndId: endToEndId ?? orgnlEndToEndId ?? '',
      orgnlEndToEndId,
      orgnlAmountCents,
      returnedCents: returnedCents ?? 0,
      hasRtrdInstdAmt: tx?.rtrdInstdAmt !== undefined && tx?.rtrdInstdAmt !== null,
      reasonCodes,
      addtlInf,
    },
  };
}
