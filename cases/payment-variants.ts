/**
 * Optional parts of a valid pacs.008 (§2.2): each may be used or left out, and the payment is created
 * (201) and settles as any valid payment does (§7 reports a rejection in txSts, "not as an HTTP
 * error"). A documented variant is paid and followed to its final status from the worker's start
 * (arrange/observation-catalogue.ts paymentVariantToFinal); an assumption's answer is the profile's.
 */
import { buildPacs008, clonePacs008, type Pacs008Message, type Pacs008Options } from '../messages/pacs008';
import type { Expectations } from '../profile/profile';

export interface PaymentVariant {
  name: string;
  rules: string[];
  options?: Partial<Pacs008Options>;
  edit?: (m: Pacs008Message) => unknown;
  /**
   * The serialised message rewritten as text, for what JSON.stringify never writes (a number's
   * trailing zeros): the variant is then sent as these exact bytes.
   */
  written?: (json: string) => string;
  /** Documented acceptance, or an assumption (P8-30) whose expected answer the profile holds. */
  level: 'documented' | 'assumption';
  expected?: (expectations: Expectations) => 'accept' | 'refuse' | 'either' | undefined;
}

const tx = (m: Pacs008Message) => m.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!;

/** Optional parts of §2.2: each may be used or left out. */
export const paymentVariants: PaymentVariant[] = [
  { name: 'with remittance details (ustrd and strd)', rules: ['P8-29', 'P8-31'], level: 'documented' },
  { name: 'without rmtInf', rules: ['P8-29'], level: 'documented', edit: (m) => void delete tx(m).rmtInf },
  {
    name: 'with only unstructured remittance',
    rules: ['P8-29', 'P8-31'],
    level: 'documented',
    edit: (m) => void delete tx(m).rmtInf!.strd,
  },
  {
    name: 'with only structured remittance',
    rules: ['P8-29', 'P8-31'],
    level: 'documented',
    edit: (m) => void delete tx(m).rmtInf!.ustrd,
  },
  { name: 'without uetr', rules: ['P8-20'], level: 'documented', edit: (m) => void delete tx(m).pmtId.uetr },
  { name: 'without pmtTpInf', rules: ['P8-21'], level: 'documented', edit: (m) => void delete tx(m).pmtTpInf },
  {
    name: 'with lclInstrm and ctgyPurp proprietary codes',
    rules: ['P8-21'],
    level: 'documented',
    edit: (m) =>
      void (tx(m).pmtTpInf = { svcLvl: [{ prtry: 'FP' }], lclInstrm: { prtry: 'SIP' }, ctgyPurp: { prtry: 'WEB' } }),
  },
  { name: 'without ttlIntrBkSttlmAmt', rules: ['P8-13'], level: 'documented' },
  {
    name: 'with ttlIntrBkSttlmAmt equal to the sum',
    rules: ['P8-13', 'P8-14', 'P8-15'],
    level: 'documented',
    options: { withTotal: true },
  },
  { name: 'with chrgBr SHAR', rules: ['P8-25'], level: 'documented', edit: (m) => void (tx(m).chrgBr = 'SHAR') },
  { name: 'with chrgBr SLEV', rules: ['P8-25'], level: 'documented', edit: (m) => void (tx(m).chrgBr = 'SLEV') },
  {
    // §2.2's shape table gives the parties' and accounts' members their types ("nm (string);
    // pstlAdr.adrLine (array of strings)"), not whether each may be left out; ISO 20022 makes both
    // optional. A server that demands the payer's address or the account names reads it otherwise:
    // no rule is judged here, only that the answer is no 5xx.
    name: 'without postal address and account names',
    rules: [],
    level: 'assumption',
    edit: (m) => {
      for (const p of [tx(m).dbtr, tx(m).cdtr]) delete (p as { pstlAdr?: unknown }).pstlAdr;
      for (const a of [tx(m).dbtrAcct, tx(m).cdtrAcct]) delete (a as { nm?: unknown }).nm;
    },
  },
  {
    // JSON (RFC 8259 §6) and ISO 20022's decimal amounts hold values, not their spelling: 10.50 is
    // 10.5, and a total written with its trailing zero still "equals the sum" (§2.2).
    name: 'with ttlIntrBkSttlmAmt written 10.50 beside an amount written 10.5',
    rules: ['P8-15'],
    level: 'documented',
    options: { amount: 10.5, withTotal: true },
    written: (json) => writtenOnce(json, '"ttlIntrBkSttlmAmt":{"value":10.5,', '"ttlIntrBkSttlmAmt":{"value":10.50,'),
  },
  {
    name: 'with a one-penny amount',
    rules: ['P8-24'],
    level: 'documented',
    options: { amount: 0.01, withTotal: true },
  },
  { name: 'with a whole-pound amount', rules: ['P8-24'], level: 'documented', options: { amount: 25 } },
  {
    name: 'with creDtTm carrying milliseconds and an offset',
    rules: ['P8-11'],
    level: 'documented',
    edit: (m) => void (m.fitoFICstmrCdtTrf.grpHdr.creDtTm = new Date().toISOString().replace('Z', '+00:00')),
  },
  {
    name: 'with nbOfTxs as the number 1',
    rules: ['P8-30'],
    level: 'assumption',
    expected: (e) => e.nbOfTxsNumber,
    edit: (m) => void ((m.fitoFICstmrCdtTrf.grpHdr as unknown as { nbOfTxs: number }).nbOfTxs = 1),
  },
];

/** `json` with its one `from` written as `to`: a variant whose text is not there is a defect of its own. */
function writtenOnce(json: string, from: string, to: string): string {
  const at = json.indexOf(from);
  if (at < 0 || json.indexOf(from, at + 1) >= 0) throw new Error(`the serialised payment holds ${from} not once`);
  return json.slice(0, at) + to + json.slice(at + from.length);
}

/** The variant's message for a seed: the valid payment with the variant's options and edit. */
export function variantMessage(variant: PaymentVariant, seed: string): Pacs008Message {
  const message = clonePacs008(buildPacs008({ seed, ...variant.options }));
  variant.edit?.(message);
  return message;
}
