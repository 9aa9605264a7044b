/**
 * pacs.008 payment submissions (spec §2.2) built from a seed. The business content (parties,
 * accounts, amount, remittance) comes from a private seeded faker, so a failing test is replayed
 * with exactly the same data; the identifiers come from uniqueId so that a replay, or a second run
 * against a service that remembers every msgId, never turns into an idempotent repeat. The uetr is
 * an identifier too: ISO 20022 defines it as universally unique, one per payment, so each message
 * gets a random one. Seeded, a test's valid twin and its mutant, or every payment of the pool, would
 * share one, and a target that refuses a UETR it has seen would refuse them for that.
 */
import { createHash, randomUUID } from 'node:crypto';
import { newSeededFaker } from './seeded-faker';
import { uniqueId } from './ids';

export interface Amount {
  value: number;
  ccy: string;
}

export interface PartyName {
  nm: string;
  pstlAdr: { adrLine: string[] };
}

export interface Account {
  id: { othr: { id: string } };
  nm: string;
}

export interface Agent {
  finInstnId: { clrSysMmbId: { mmbId: string } };
}

export interface Remittance {
  ustrd?: string[];
  strd?: Array<{ cdtrRefInf: { ref: string }; addtlRmtInf: string[] }>;
}

export interface CreditTransfer {
  pmtId: { endToEndId: string; txId: string; uetr?: string };
  pmtTpInf?: {
    svcLvl?: Array<{ prtry: string }>;
    lclInstrm?: { prtry: string };
    ctgyPurp?: { prtry: string };
  };
  intrBkSttlmAmt: Amount;
  chrgBr: 'SLEV' | 'SHAR';
  dbtr: PartyName;
  dbtrAcct: Account;
  dbtrAgt: Agent;
  cdtrAgt: Agent;
  cdtr: PartyName;
  cdtrAcct: Account;
  rmtInf?: Remittance;
}

export interface GroupHeader {
  msgId: string;
  creDtTm: string;
  /** §2.2: a number "sent as a digit string". */
  nbOfTxs: string;
  ttlIntrBkSttlmAmt?: Amount;
  sttlmInf: { sttlmMtd: 'CLRG' };
}

export type Pacs008Message = {
  fitoFICstmrCdtTrf: {
    grpHdr: GroupHeader;
    cdtTrfTxInf: CreditTransfer[];
  };
};

export interface Pacs008Ids {
  msgId: string;
  endToEndId: string;
  txId: string;
  /** cdtTrfTxInf.pmtId.uetr; when fixed ids leave it out, the seed draws it. */
  uetr?: string;
}

export interface Pacs008Options {
  seed: string;
  /** Pounds, rounded to pence; defaults to a seeded amount between 1.00 and 500.00. */
  amount?: number;
  /** Sort code of the beneficiary's institution (a client's memberId makes it an incoming payment). */
  creditorMemberId?: string;
  creditorAccount?: string;
  /** Adds grpHdr.ttlIntrBkSttlmAmt equal to the transaction amount. */
  withTotal?: boolean;
  /** Fixed identifiers (unit tests, replays); fresh unique ones otherwise. Give a uetr too when the message is sent. */
  ids?: Pacs008Ids;
  /** Creation time written to grpHdr.creDtTm; defaults to now. */
  now?: Date;
}

/** A 32-bit faker seed from any seed string, stable across platforms. */
export function numericSeed(seed: string): number {
  return createHash('sha256').update(seed).digest().readUInt32BE(0);
}

/** grpHdr.creDtTm: ISO 8601 in UTC, whole seconds (the form of the spec's request examples). */
export function isoDateTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function freshIds(): Pacs008Ids {
  return { msgId: uniqueId('MSG'), endToEndId: uniqueId('E2E'), txId: uniqueId('TX'), uetr: randomUUID() };
}

// One private instance, reseeded per message: the global faker is shared with other modules and
// its sequence would depend on what else ran first.
const faker = newSeededFaker();

/** Sort codes starting 0: the suite's generated clients use 100000-999999, so a random creditor
 *  agent never turns a payment into an incoming payment for some other test's client. */
const sortCode = (): string => `0${faker.string.numeric(5)}`;

/** The reject trigger account of the reference (and perhaps of a sandbox) must never come out by chance. */
const accountNumber = (): string => {
  const n = faker.finance.accountNumber(8);
  return /^9{8}$/.test(n) ? '12345678' : n;
};

function party(): PartyName {
  const lines = [faker.location.streetAddress(), faker.location.city(), faker.location.zipCode()];
  return { nm: faker.person.fullName(), pstlAdr: { adrLine: lines } };
}

function account(holder: string): Account {
  return { id: { othr: { id: accountNumber() } }, nm: holder };
}

const agent = (mmbId: string): Agent => ({ finInstnId: { clrSysMmbId: { mmbId } } });

/** Pounds with exactly two decimals, as a JSON number (no 0.1 + 0.2 artefacts). */
const pounds = (value: number): number => Math.round(value * 100) / 100;

/**
 * The whole message for a seed and a set of ids: the same (seed, ids, now) gives byte-identical
 * JSON. The order of faker calls is part of the contract: append new fields at the end only.
 */
export function buildPacs008Content(
  seed: string,
  ids: Pacs008Ids,
  options: Omit<Pacs008Options, 'seed' | 'ids'> = {},
): Pacs008Message {
  faker.seed(numericSeed(seed));
  const dbtr = party();
  const cdtr = party();
  const dbtrAcct = account(dbtr.nm);
  const cdtrAcct = account(cdtr.nm);
  const dbtrMmbId = sortCode();
  const cdtrMmbId = sortCode();
  const seededAmount = faker.number.float({ min: 1, max: 500, fractionDigits: 2 });
  const seededUetr = faker.string.uuid();
  const chrgBr = faker.helpers.arrayElement(['SLEV', 'SHAR'] as const);
  const ustrd = [faker.lorem.sentence({ min: 2, max: 5 }).slice(0, 140)];
  const ref = `INV-${faker.string.alphanumeric({ length: 10, casing: 'upper' })}`;
  const addtl = [faker.commerce.productName()];

  if (options.creditorAccount !== undefined) cdtrAcct.id.othr.id = options.creditorAccount;
  const value = pounds(options.amount ?? seededAmount);
  const amount: Amount = { value, ccy: 'GBP' };

  const grpHdr: GroupHeader = {
    msgId: ids.msgId,
    creDtTm: isoDateTime(options.now ?? new Date()),
    nbOfTxs: '1',
    ...(options.withTotal ? { ttlIntrBkSttlmAmt: { ...amount } } : {}),
    sttlmInf: { sttlmMtd: 'CLRG' },
  };
  const tx: CreditTransfer = {
    pmtId: { endToEndId: ids.endToEndId, txId: ids.txId, uetr: ids.uetr ?? seededUetr },
    pmtTpInf: { svcLvl: [{ prtry: 'FP' }] },
    intrBkSttlmAmt: amount,
    chrgBr,
    dbtr,
    dbtrAcct,
    dbtrAgt: agent(dbtrMmbId),
    cdtrAgt: agent(options.creditorMemberId ?? cdtrMmbId),
    cdtr,
    cdtrAcct,
    rmtInf: { ustrd, strd: [{ cdtrRefInf: { ref }, addtlRmtInf: addtl }] },
  };
  return { fitoFICstmrCdtTrf: { grpHdr, cdtTrfTxInf: [tx] } };
}

/** The form of the sort codes the builder draws for both agents (`sortCode`). */
const DRAWN_SORT_CODE = /^0\d{5}$/;

/**
 * The message as `payer` sends it: §1's main payment is "Started by | payer's institution", so the
 * debtor agent is the payer's own sort code where the profile gives one (a service may check it). Only
 * a sort code the builder drew is replaced: a case that changed the debtor agent keeps its change.
 * Anything that is not a pacs.008 object is returned as is.
 */
export function sentByPayer(message: unknown, payerMemberId: string | undefined): unknown {
  if (!payerMemberId) return message;
  return withDrawnTransaction(message, 'dbtrAgt', (tx) => ({
    ...tx,
    dbtrAgt: { ...tx.dbtrAgt, finInstnId: { ...tx.dbtrAgt.finInstnId, clrSysMmbId: { mmbId: payerMemberId } } },
  }));
}

/**
 * The message paid to `beneficiary` (a live profile's liveLimits.beneficiary): a creditor the builder
 * drew gets that account's sort code, number and holder. A creditor a test chose stays.
 */
export function paidTo(
  message: unknown,
  beneficiary: { memberId: string; account: string; name: string } | undefined,
): unknown {
  if (!beneficiary) return message;
  return withDrawnTransaction(message, 'cdtrAgt', (tx) =>
    // Only a creditor as the builder made it: a case that removed or retyped part of it keeps its change.
    typeof tx.cdtr?.nm !== 'string' || typeof tx.cdtrAcct?.id?.othr?.id !== 'string'
      ? tx
      : {
          ...tx,
          cdtrAgt: { finInstnId: { clrSysMmbId: { mmbId: beneficiary.memberId } } },
          cdtr: { ...tx.cdtr, nm: beneficiary.name },
          cdtrAcct: { ...tx.cdtrAcct, id: { othr: { id: beneficiary.account } }, nm: beneficiary.name },
        },
  );
}

/**
 * `message` with its first transaction rewritten, where it is a pacs.008 whose `agent` holds a sort code
 * the builder drew (a case that changed the agent keeps its change); anything else as is. A copy: the
 * given message is left as built.
 */
function withDrawnTransaction(
  message: unknown,
  agent: 'dbtrAgt' | 'cdtrAgt',
  rewrite: (tx: CreditTransfer) => CreditTransfer,
): unknown {
  const txs = (message as Partial<Pacs008Message> | null)?.fitoFICstmrCdtTrf?.cdtTrfTxInf;
  // A case may make cdtTrfTxInf an object or anything else: only an array holds a transaction to rewrite.
  if (!Array.isArray(txs)) return message;
  const [first, ...rest] = txs;
  const mmbId = first?.[agent]?.finInstnId?.clrSysMmbId?.mmbId;
  if (!first || typeof mmbId !== 'string' || !DRAWN_SORT_CODE.test(mmbId)) return message;
  const whole = message as Pacs008Message;
  const tx = rewrite(first);
  return tx === first
    ? message
    : { ...whole, fitoFICstmrCdtTrf: { ...whole.fitoFICstmrCdtTrf, cdtTrfTxInf: [tx, ...rest] } };
}

/** A valid submission with fresh identifiers (or the given ones). */
export function buildPacs008(options: Pacs008Options): Pacs008Message {
  const { seed, ids, ...rest } = options;
  return buildPacs008Content(seed, ids ?? freshIds(), rest);
}

/**
 * `m` stating no payment scheme: its first transaction without `pmtTpInf`, which §2.2 marks optional
 * ("| cdtTrfTxInf.pmtTpInf.svcLvl[].prtry | string | optional | payment scheme type; value: FP |").
 * The payments the suite means to cancel are sent so. §1 says cancellation "works only for
 * non-immediate payment schemes", and FP, the one scheme §2.2 names, is Faster Payments, an immediate
 * scheme. A target may therefore refuse to cancel a payment that states FP, and a suite that cancels
 * only FP payments would learn nothing about cancellation on that target. A copy: `m` is left as built.
 */
export function withoutScheme(m: Pacs008Message): Pacs008Message {
  const { pmtTpInf: _stated, ...tx } = paymentTransaction(m);
  return { fitoFICstmrCdtTrf: { ...m.fitoFICstmrCdtTrf, cdtTrfTxInf: [tx] } };
}

export function paymentTransaction(m: Pacs008Message): CreditTransfer {
  const tx = m.fitoFICstmrCdtTrf.cdtTrfTxInf[0];
  if (!tx) throw new Error('pacs.008 message without a transaction');
  return tx;
}

export function paymentAmount(m: Pacs008Message): Amount {
  return paymentTransaction(m).intrBkSttlmAmt;
}

export function paymentIds(m: Pacs008Message): Pacs008Ids {
  const { endToEndId, txId } = paymentTransaction(m).pmtId;
  return { msgId: m.fitoFICstmrCdtTrf.grpHdr.msgId, endToEndId, txId };
}

/** A deep copy to mutate freely (negative cases, optional-part variants). */
export function clonePacs008(m: Pacs008Message): Pacs008Message {
  return structuredClone(m);
}
