/**
 * pacs.004.001.09 payment returns (spec §2.5, root pmtRtr), built from a seed and the pacs.008
 * payment they return. The full message carries every field of the §2.5 table that ISO 20022's
 * pacs.004.001.09 defines as the table writes it, at the placements of the spec's request example
 * (the debtor name at orgnlTxRef.dbtr.pty.nm, the debtor account with nm plus id.iban), so it is valid
 * by the spec and under the version's XSD (spec/iso20022/). Where the spec departs from ISO it takes
 * what both accept and leaves the rest out, each kept for a reading of its own (cases/pacs004-readings.ts):
 * charges information (ISO's Charges7 requires an agent beside §2.5's amt: only `withCharges` adds
 * both), the street as §2.5 spells it (strNme; ISO's is StrtNm), a purpose as a string (ISO's is a
 * code choice) and txInf.pmtId (not in pacs.004.001.09). The creditor name stands where the target
 * reads it (`creditorName`): at cdtr.pty.nm, the table's and ISO's place, by default, or at cdtr.nm,
 * the example's.
 *
 * Why EUR for a GBP payment: §2.5 and §8 make every pacs.004 amount EUR, while §2.2 makes every
 * pacs.008 amount GBP. The suite keeps the value and writes the currency each message demands.
 */
import { composeIBAN } from 'ibantools';
import { drawBic, newSeededFaker } from './seeded-faker';
import { uniqueId } from './ids';
import {
  isoDateTime,
  numericSeed,
  paymentAmount,
  paymentIds,
  paymentTransaction,
  type Pacs008Message,
} from './pacs008';

export interface EurAmount {
  value: number;
  ccy: string;
}

/** The 18 EBA return reason codes of §2.5: the only values allowed in rtrRsnInf[].rsn.cd. */
export const EBA_RETURN_CODES = [
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
] as const;

/** §2.5 / §9: "must begin with pacs.008; only pacs.008.001.08 or pacs.008.001.02 is allowed". */
export const ALLOWED_ORIGINAL_NAMES = ['pacs.008', 'pacs.008.001.08', 'pacs.008.001.02'] as const;

export interface PostalAddress {
  dept?: string;
  subDept?: string;
  strNme?: string;
  bldgNm?: string;
  bldgNb?: string;
  Flr?: string;
  pstBx?: string;
  room?: string;
  pstCd?: string;
  twnNm?: string;
  twnLctnNm?: string;
  dstrctNm?: string;
  ctrySubDvsn?: string;
  ctry?: string;
  adrLine?: string;
}

export interface OrgId {
  orgId: { anyBIC: string };
}

export interface FinInstn {
  finInstnId: { bicfi: string };
}

export type ReasonChoice = { cd: string } | { prtry: string };

export interface ReturnReason {
  orgtr: { nm: string; id: OrgId };
  rsn: ReasonChoice;
  /** §2.5: a string, only with FOCR (then mandatory, once). */
  addtlInf?: string;
}

export interface OriginalTxRef {
  intrBkSttlmDt?: string;
  sttlmInf?: { sttlmMtd: string };
  pmtTpInf?: { svcLvl?: { prtry: string }; lclInstrm?: ReasonChoice; ctgyPurp?: ReasonChoice };
  rmtInf?: { ustrd?: string[]; strd?: Array<{ cdtrRefInf: { ref: string } }> };
  ultmtDbtr?: { pty: { nm?: string; id?: OrgId } };
  dbtr: { pty: { nm: string; pstlAdr?: PostalAddress; id?: OrgId } };
  dbtrAcct: { nm?: string; id: { iban: string } };
  dbtrAgt: FinInstn;
  cdtrAgt: FinInstn;
  /** The name at cdtr.pty.nm (the table, ISO's Party40Choice) or, where the target reads the example, at cdtr.nm. */
  cdtr: { nm?: string; pty?: { nm?: string; pstlAdr?: PostalAddress; id?: OrgId } };
  cdtrAcct: { id: { iban: string } };
  ultmtCdtr?: { pty: { nm?: string; id?: OrgId } };
  purp?: string;
}

export interface ReturnTransaction {
  pmtId?: { endToEndId: string };
  rtrId: string;
  orgnlGrpInf: { orgnlMsgId: string; orgnlMsgNmId: string };
  orgnlInstrId?: string;
  orgnlEndToEndId: string;
  orgnlTxId: string;
  orgnlIntrBkSttlmAmt: EurAmount;
  rtrdIntrBkSttlmAmt: EurAmount;
  rtrdInstdAmt?: EurAmount;
  intrBkSttlmDt?: string;
  chrgBr: string;
  /** ISO's Charges7: the amount and the agent that took it (§2.5 shows only amt). */
  chrgsInf?: { amt: EurAmount; agt?: FinInstn };
  rtrRsnInf: ReturnReason[];
  orgnlTxRef: OriginalTxRef;
}

export interface ReturnGroupHeader {
  msgId: string;
  creDtTm: string;
  /** §2.5 types it "number" (unlike pacs.008's digit string). */
  nbOfTxs: number;
  ttlRtrdIntrBkSttlmAmt?: EurAmount;
  intrBkSttlmDt: string;
  sttlmInf: { sttlmMtd: string; clrSys?: { prtry: string } };
  instgAgt?: FinInstn;
  instdAgt?: FinInstn;
}

export type Pacs004Message = { pmtRtr: { grpHdr: ReturnGroupHeader; txInf: ReturnTransaction[] } };

export interface Pacs004Ids {
  msgId: string;
  rtrId: string;
}

export interface Pacs004Options {
  seed: string;
  /** The payment being returned: every orgnl* field and the amounts come from it. */
  original: Pacs008Message;
  /** Defaults to a seeded EBA code other than FOCR (FOCR needs a cancellation and an addtlInf). */
  reason?: ReasonChoice;
  /** Defaults to the recall's reference when the reason is FOCR; never set otherwise unless given. */
  addtlInf?: string;
  /**
   * The reference of the recall a FOCR return answers (messages/camt056.ts recallReference): its
   * addtlInf. Without one a seeded reference stands in (a message built for a unit test, a case that
   * is refused before any recall is looked at).
   */
  recall?: string;
  /** Adds txInf.rtrdInstdAmt: only allowed when the return answers a cancellation request (§2.5). */
  withInstructedAmount?: boolean;
  /** orgnlGrpInf.orgnlMsgNmId; defaults to pacs.008.001.08. */
  originalMessageName?: string;
  /** Fixed identifiers (unit tests, replays); fresh unique ones otherwise. */
  ids?: Pacs004Ids;
  /** Creation time (grpHdr.creDtTm and the settlement dates); defaults to now. */
  now?: Date;
  /** Where the creditor name stands (profile expectations.returnCreditorName); cdtr.pty.nm by default. */
  creditorName?: CreditorNamePlacement;
  /** Adds txInf.chrgsInf in ISO 20022's form: the charges amount (EUR) and the agent that took it. */
  withCharges?: boolean;
}

/** party: orgnlTxRef.cdtr.pty.nm (§2.5's table, ISO 20022); direct: orgnlTxRef.cdtr.nm (§2.5's request example). */
export type CreditorNamePlacement = 'party' | 'direct';

export function freshReturnIds(): Pacs004Ids {
  return { msgId: uniqueId('RTRMSG'), rtrId: uniqueId('RTR') };
}

// A private instance reseeded per message: the global faker's sequence depends on what ran before.
const faker = newSeededFaker();

const isoDate = (date: Date): string => date.toISOString().slice(0, 10);
/**
 * The GB IBAN of an account the original payment names: four bank letters, its sort code (the agent's
 * mmbId) and its account number, with ISO 13616 check digits. A server that checks the returned
 * accounts against the original finds them; a random IBAN it would not.
 */
const ibanOf = (bank: string, sortCode: string, accountNumber: string): string =>
  composeIBAN({ countryCode: 'GB', bban: `${bank}${sortCode}${accountNumber}` }) ??
  faker.finance.iban({ formatted: false, countryCode: 'GB' });
const bic = (): string => drawBic(faker);
const orgId = (): OrgId => ({ orgId: { anyBIC: bic() } });
const finInstn = (): FinInstn => ({ finInstnId: { bicfi: bic() } });

/** A drawn text cut to the length its ISO 20022 type allows (Max16Text, Max35Text): faker's towns reach 40. */
const upTo = (length: number, text: string): string => text.slice(0, length).trim();

/** The sub-fields §2.5 and ISO 20022 spell alike (the street is drawn, not sent: §2.5's strNme is ISO's StrtNm). */
function postalAddress(): PostalAddress {
  const dept = faker.commerce.department();
  faker.location.street();
  return {
    dept,
    subDept: 'Payments',
    bldgNm: upTo(35, `${faker.person.lastName()} House`),
    bldgNb: upTo(16, faker.location.buildingNumber()),
    Flr: String(faker.number.int({ min: 1, max: 20 })),
    pstBx: `PO Box ${faker.number.int({ min: 1, max: 9999 })}`,
    room: String(faker.number.int({ min: 1, max: 400 })),
    pstCd: upTo(16, faker.location.zipCode()),
    twnNm: upTo(35, faker.location.city()),
    twnLctnNm: upTo(35, faker.location.city()),
    dstrctNm: upTo(35, faker.location.county()),
    ctrySubDvsn: 'England',
    ctry: 'GB',
    adrLine: faker.location.secondaryAddress(),
  };
}

const eur = (value: number): EurAmount => ({ value, ccy: 'EUR' });
const cents = (value: number): number => Math.round(value * 100) / 100;

/**
 * The full message for a seed, an original payment and a set of ids: the same inputs give
 * byte-identical JSON. The order of faker calls is part of that contract: append new draws only.
 */
export function buildPacs004Content(
  seed: string,
  original: Pacs008Message,
  ids: Pacs004Ids,
  options: Omit<Pacs004Options, 'seed' | 'original' | 'ids'> = {},
): Pacs004Message {
  faker.seed(numericSeed(`pacs004|${seed}`));
  const now = options.now ?? new Date();
  const tx = paymentTransaction(original);
  const orgnl = paymentIds(original);
  const value = cents(paymentAmount(original).value);
  const originalDate = original.fitoFICstmrCdtTrf.grpHdr.creDtTm.slice(0, 10);

  const seededCode = faker.helpers.arrayElement(EBA_RETURN_CODES.filter((c) => c !== 'FOCR'));
  const reason: ReasonChoice = options.reason ?? { cd: seededCode };
  const focrReference = `RCL-${faker.string.alphanumeric({ length: 12, casing: 'upper' })}`;
  const addtlInf =
    options.addtlInf ?? ('cd' in reason && reason.cd === 'FOCR' ? (options.recall ?? focrReference) : undefined);
  const originatorName = faker.company.name();
  const [instg, instd, originator, dbtrAgt, cdtrAgt] = [finInstn(), finInstn(), orgId(), finInstn(), finInstn()];
  const bank = faker.string.alpha({ length: 4, casing: 'upper' });
  const [dbtrIban, cdtrIban] = [
    ibanOf(bank, tx.dbtrAgt.finInstnId.clrSysMmbId.mmbId, tx.dbtrAcct.id.othr.id),
    ibanOf(bank, tx.cdtrAgt.finInstnId.clrSysMmbId.mmbId, tx.cdtrAcct.id.othr.id),
  ];
  const [ultmtDbtrId, dbtrId, cdtrId, ultmtCdtrId] = [orgId(), orgId(), orgId(), orgId()];
  const dbtrAdr = postalAddress();
  const cdtrAdr = postalAddress();
  const ultmtDbtrName = faker.company.name();
  const ultmtCdtrName = faker.company.name();
  const clearing = faker.helpers.arrayElement(['STEP2', 'TARGET2', 'RT1']);
  const charges = cents(faker.number.float({ min: 0.01, max: 5, fractionDigits: 2 }));
  // Drawn, not sent: §2.5 types purp as a string, ISO 20022 as a code choice (a reading of its own).
  faker.helpers.arrayElement(['GDDS', 'SUPP', 'SALA', 'OTHR']);

  const reasonInfo: ReturnReason = {
    orgtr: { nm: originatorName, id: originator },
    rsn: reason,
    ...(addtlInf !== undefined ? { addtlInf } : {}),
  };
  const creditor = { nm: tx.cdtr.nm, pstlAdr: cdtrAdr, id: cdtrId };
  const returned: ReturnTransaction = {
    rtrId: ids.rtrId,
    orgnlGrpInf: { orgnlMsgId: orgnl.msgId, orgnlMsgNmId: options.originalMessageName ?? 'pacs.008.001.08' },
    orgnlEndToEndId: orgnl.endToEndId,
    orgnlTxId: orgnl.txId,
    orgnlIntrBkSttlmAmt: eur(value),
    rtrdIntrBkSttlmAmt: eur(value),
    ...(options.withInstructedAmount ? { rtrdInstdAmt: eur(value) } : {}),
    intrBkSttlmDt: isoDate(now),
    chrgBr: 'SLEV',
    ...(options.withCharges ? { chrgsInf: { amt: eur(charges), agt: finInstn() } } : {}),
    rtrRsnInf: [reasonInfo],
    orgnlTxRef: {
      intrBkSttlmDt: originalDate,
      sttlmInf: { sttlmMtd: 'CLRG' },
      // The original's own local instrument and category purpose, where it had them; §2.5's svcLvl value.
      pmtTpInf: {
        svcLvl: { prtry: 'SEPA' },
        ...(tx.pmtTpInf?.lclInstrm ? { lclInstrm: { prtry: tx.pmtTpInf.lclInstrm.prtry } } : {}),
        ...(tx.pmtTpInf?.ctgyPurp ? { ctgyPurp: { prtry: tx.pmtTpInf.ctgyPurp.prtry } } : {}),
      },
      rmtInf: { ustrd: tx.rmtInf?.ustrd ?? ['returned payment'] },
      ultmtDbtr: { pty: { nm: ultmtDbtrName, id: ultmtDbtrId } },
      dbtr: { pty: { nm: tx.dbtr.nm, pstlAdr: dbtrAdr, id: dbtrId } },
      dbtrAcct: { nm: tx.dbtrAcct.nm, id: { iban: dbtrIban } },
      dbtrAgt,
      cdtrAgt,
      // The example's place moves the name only: the creditor's address and BIC stay where the table has them.
      cdtr:
        options.creditorName === 'direct'
          ? { nm: creditor.nm, pty: { pstlAdr: cdtrAdr, id: cdtrId } }
          : { pty: creditor },
      cdtrAcct: { id: { iban: cdtrIban } },
      ultmtCdtr: { pty: { nm: ultmtCdtrName, id: ultmtCdtrId } },
    },
  };
  return {
    pmtRtr: {
      grpHdr: {
        msgId: ids.msgId,
        creDtTm: isoDateTime(now),
        nbOfTxs: 1,
        ttlRtrdIntrBkSttlmAmt: eur(value),
        intrBkSttlmDt: isoDate(now),
        sttlmInf: { sttlmMtd: 'CLRG', clrSys: { prtry: clearing } },
        instgAgt: instg,
        instdAgt: instd,
      },
      txInf: [returned],
    },
  };
}

/** A valid full return of `original` with fresh identifiers (or the given ones). */
export function buildPacs004(options: Pacs004Options): Pacs004Message {
  const { seed, original, ids, ...rest } = options;
  return buildPacs004Content(seed, original, ids ?? freshReturnIds(), rest);
}

/**
 * Only what §2.5 requires ("required" in the table): every optional field left out, including
 * grpHdr.ttlRtrdIntrBkSttlmAmt, the BICs of the group header and the whole optional part of
 * orgnlTxRef. txInf.intrBkSttlmDt stays: its Required cell says "shown in the request example", not
 * optional, and a server may read that as required. The creditor name stays where the full message
 * has it.
 */
export function minimalPacs004(full: Pacs004Message): Pacs004Message {
  const { grpHdr, txInf } = full.pmtRtr;
  const tx = returnTransaction(full);
  const ref = tx.orgnlTxRef;
  const reason = tx.rtrRsnInf[0]!;
  return {
    pmtRtr: {
      grpHdr: {
        msgId: grpHdr.msgId,
        creDtTm: grpHdr.creDtTm,
        nbOfTxs: grpHdr.nbOfTxs,
        intrBkSttlmDt: grpHdr.intrBkSttlmDt,
        sttlmInf: { sttlmMtd: grpHdr.sttlmInf.sttlmMtd },
      },
      txInf: [
        {
          rtrId: tx.rtrId,
          orgnlGrpInf: { ...tx.orgnlGrpInf },
          orgnlEndToEndId: tx.orgnlEndToEndId,
          orgnlTxId: tx.orgnlTxId,
          orgnlIntrBkSttlmAmt: { ...tx.orgnlIntrBkSttlmAmt },
          rtrdIntrBkSttlmAmt: { ...tx.rtrdIntrBkSttlmAmt },
          ...(tx.intrBkSttlmDt !== undefined ? { intrBkSttlmDt: tx.intrBkSttlmDt } : {}),
          chrgBr: tx.chrgBr,
          rtrRsnInf: [
            {
              orgtr: structuredClone(reason.orgtr),
              rsn: { ...reason.rsn },
              ...(reason.addtlInf !== undefined ? { addtlInf: reason.addtlInf } : {}),
            },
          ],
          orgnlTxRef: {
            dbtr: { pty: { nm: ref.dbtr.pty.nm } },
            dbtrAcct: { id: { iban: ref.dbtrAcct.id.iban } },
            dbtrAgt: structuredClone(ref.dbtrAgt),
            cdtrAgt: structuredClone(ref.cdtrAgt),
            cdtr: ref.cdtr.nm !== undefined ? { nm: ref.cdtr.nm } : { pty: { nm: ref.cdtr.pty?.nm } },
            cdtrAcct: { id: { iban: ref.cdtrAcct.id.iban } },
          },
        },
        ...txInf.slice(1),
      ],
    },
  };
}

export function returnTransaction(m: Pacs004Message): ReturnTransaction {
  const tx = m.pmtRtr.txInf[0];
  if (!tx) throw new Error('pacs.004 message without a transaction');
  return tx;
}
