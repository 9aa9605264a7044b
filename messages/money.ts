/**
 * Exact money. An amount's `value` is a JSON number (§2: {value: number, ccy}); the suite reads it
 * from its shortest round-trip text (what JSON.stringify writes, what a server parses), never by
 * float arithmetic, and counts money in integer minor units (bigint), so 0.1 + 0.2 is 0.30 and a sum
 * of a thousand refunds is exact at any size.
 *
 * Two limits the spec leaves to the standards it names (rules MNY-04, MNY-05):
 *  - ISO 4217 minor units: GBP and EUR have 2 decimals, so 10.005 GBP is no amount;
 *  - ISO 20022 ActiveCurrencyAndAmount: at most 18 digits in all (totalDigits 18).
 */

/** ISO 4217 decimals of the currencies the spec uses (§2.2 GBP, §2.5 EUR). */
export const MINOR_UNIT_DIGITS = 2;

/** ISO 20022 ActiveCurrencyAndAmount_SimpleType: totalDigits 18. */
export const ISO20022_TOTAL_DIGITS = 18;

/** A decimal read from a number's text: value = (negative ? -1 : 1) × digits × 10^exponent. */
export interface Decimal {
  negative: boolean;
  /** The significant digits, without leading or trailing zeros ("0" for zero). */
  digits: string;
  exponent: number;
}

/** The decimal a JSON number stands for, read from its shortest round-trip text; undefined for NaN and ±Infinity. */
export function readDecimal(value: number): Decimal | undefined {
  if (!Number.isFinite(value)) return undefined;
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(value));
  if (!m) return undefined;
  const [, sign, whole, fraction = '', power = '0'] = m;
  let digits = `${whole}${fraction}`.replace(/^0+/, '');
  let exponent = Number(power) - fraction.length;
  const trailing = /0*$/.exec(digits)![0].length;
  if (digits.length === 0) return { negative: false, digits: '0', exponent: 0 };
  digits = digits.slice(0, digits.length - trailing);
  exponent += trailing;
  return { negative: sign === '-', digits, exponent };
}

/** Decimal places the value needs (10.005 → 3, 1e-7 → 7, 100 → 0). */
export function fractionDigits(value: number): number {
  const d = readDecimal(value);
  return d ? Math.max(0, -d.exponent) : Number.POSITIVE_INFINITY;
}

/** Digits the value needs in all, integer part and decimals (XML Schema totalDigits): 1e18 → 19, 0.001 → 3. */
export function totalDigits(value: number): number {
  const d = readDecimal(value);
  if (!d) return Number.POSITIVE_INFINITY;
  if (d.digits === '0') return 1;
  return d.exponent >= 0 ? d.digits.length + d.exponent : Math.max(d.digits.length, -d.exponent);
}

export type AmountProblem = 'not a finite number' | 'more decimals than the currency has' | 'more than 18 digits';

/** Why no reading of ISO 4217 and ISO 20022 accepts this value as an amount, or undefined when one does. */
export function amountProblem(value: number, minorDigits = MINOR_UNIT_DIGITS): AmountProblem | undefined {
  if (!Number.isFinite(value)) return 'not a finite number';
  if (fractionDigits(value) > minorDigits) return 'more decimals than the currency has';
  if (totalDigits(value) > ISO20022_TOTAL_DIGITS) return 'more than 18 digits';
  return undefined;
}

/** The value in minor units, exactly; undefined when it has more decimals than the currency. */
export function toMinor(value: number, minorDigits = MINOR_UNIT_DIGITS): bigint | undefined {
  const d = readDecimal(value);
  if (!d || -d.exponent > minorDigits) return undefined;
  const minor = BigInt(d.digits) * 10n ** BigInt(d.exponent + minorDigits);
  return d.negative ? -minor : minor;
}

/** "1234.56" for 123456n: the amount as a decimal text with exactly the currency's decimals. */
export function formatMinor(minor: bigint, minorDigits = MINOR_UNIT_DIGITS): string {
  const negative = minor < 0n;
  const text = (negative ? -minor : minor).toString().padStart(minorDigits + 1, '0');
  const whole = text.slice(0, text.length - minorDigits);
  return `${negative ? '-' : ''}${whole}${minorDigits ? `.${text.slice(-minorDigits)}` : ''}`;
}

/** "9,000,000,000,000.00": for people reading a report. */
export function showMinor(minor: bigint, minorDigits = MINOR_UNIT_DIGITS): string {
  const [whole, fraction] = formatMinor(minor, minorDigits).split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction !== undefined ? `.${fraction}` : ''}`;
}

/**
 * The JSON number that writes exactly this amount. Throws when no double does: a message must say
 * what the suite means, and beyond 15 significant digits a double may not (90071992547409.91 reads
 * as 90071992547409.9).
 */
export function minorToValue(minor: bigint, minorDigits = MINOR_UNIT_DIGITS): number {
  const text = formatMinor(minor, minorDigits);
  const value = Number(text);
  if (toMinor(value, minorDigits) !== minor)
    throw new Error(`${text} has no exact JSON number (more than 15 significant digits)`);
  return value;
}

/** The sum of minor-unit amounts. */
export const sumMinor = (amounts: Iterable<bigint>): bigint => {
  let total = 0n;
  for (const a of amounts) total += a;
  return total;
};
