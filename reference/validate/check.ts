/**
 * Small field checkers shared by the message validators. Each check records an error with the
 * JSON path of the field and returns the narrowed value (or null), so validators read top-down
 * like the spec's field tables and a fault can skip exactly one check.
 */
import { isValidBIC, isValidIBAN } from 'ibantools';
import type { FieldError } from '../errors';
import type { FaultSet } from '../faults';
import type { Dialect } from '../dialects';

/** The dialect's readings of amounts ISO does not allow (dialects.ts amountPrecision, amountDigits). */
export type AmountDialect = Pick<Dialect, 'amountPrecision' | 'amountDigits'>;

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Largest amount, in minor units, the service takes: 15 significant digits (9,999,999,999,999.99).
 * A JSON number is read as a double, and 15 significant digits is what a double is guaranteed to
 * hold exactly: any such decimal reads back as the same text, so the amount booked is the amount
 * written (with 16 digits, 90071992547409.91 already reads as ...409.9). Integer cents that size
 * stay far below 2^53, so every sum and comparison of cents is exact too. Well inside ISO 20022's
 * 18 total digits.
 */
export const MAX_AMOUNT_CENTS = 999_999_999_999_999;
/** MAX_AMOUNT_CENTS written as a decimal amount, for error messages. */
export const MAX_AMOUNT_TEXT = '9999999999999.99';
/** ISO 4217 minor units of GBP and EUR, the only currencies of the API. */
export const MINOR_UNIT_DIGITS = 2;

export interface AmountReading {
  /** Decimal places of the value as written (its shortest round-trip text), 0 for whole numbers. */
  decimals: number;
  /** Whether |cents| <= MAX_AMOUNT_CENTS. */
  inBound: boolean;
  /**
   * The value in cents: exact when decimals <= 2 and in bound; otherwise Math.round(value * 100),
   * which only the amount faults ever use.
   */
  cents: number;
}

const NUMBER_TEXT = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * Reads a finite JSON number as an amount. The decimal count comes from String(value), the shortest
 * text that reads back as the same number (so 1.005 has 3 decimals, 1e-7 has 7, 1e+21 none), never
 * from float arithmetic (1.005 * 100 is 100.49999999999999). The cents are then built from those
 * digits as an integer, so 0.29 is 29 cents exactly.
 */
export function readAmount(value: number): AmountReading {
  const sign = value < 0 ? -1 : 1;
  const m = NUMBER_TEXT.exec(String(Math.abs(value)));
  if (!m) return { decimals: Number.POSITIVE_INFINITY, inBound: false, cents: Math.round(value * 100) };
  const fraction = m[2] ?? '';
  const digits = `${m[1]}${fraction}`.replace(/^0+(?=\d)/, '');
  // value = digits x 10^scale
  const scale = Number(m[3] ?? '0') - fraction.length;
  const decimals = Math.max(0, -scale);
  if (decimals > MINOR_UNIT_DIGITS) {
    const cents = Math.round(value * 100);
    return { decimals, inBound: Math.abs(cents) <= MAX_AMOUNT_CENTS, cents };
  }
  const power = scale + MINOR_UNIT_DIGITS; // >= 0 here
  // More digits than MAX_AMOUNT_CENTS has is out of bound without building the number (1e308).
  if (digits !== '0' && digits.length + power > String(MAX_AMOUNT_CENTS).length)
    return { decimals, inBound: false, cents: Math.round(value * 100) };
  const exact = BigInt(digits) * 10n ** BigInt(power);
  if (exact > BigInt(MAX_AMOUNT_CENTS)) return { decimals, inBound: false, cents: Math.round(value * 100) };
  return { decimals, inBound: true, cents: sign * Number(exact) };
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function validDay(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

export function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, , zone] = m;
  if (!validDay(Number(y), Number(mo), Number(d))) return false;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60) return false;
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4, 6)) > 59)) return false;
  return true;
}

export function isDate(text: string): boolean {
  const m = DATE.exec(text);
  return m !== null && validDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/**
 * How a BIC is checked: its format (ISO 9362), not at all, or (the return-bic-length-only fault) its
 * length and characters alone, or (return-bic-case-insensitive) its format in either case.
 */
export type BicCheck = boolean | 'length' | 'caseless';
const BIC_LENGTH = /^[A-Za-z0-9]{8}([A-Za-z0-9]{3})?$/;

/** ISO 9362's form in capitals, as ISO 20022's BIC patterns take it ([A-Z0-9]): ibantools alone takes any case. */
export function isBic(text: string): boolean {
  return /^[A-Z0-9]+$/.test(text) && isValidBIC(text);
}

export function isIban(text: string): boolean {
  return isValidIBAN(text);
}

export interface AmountRule {
  /** null: any currency (only when a fault switches the currency rule off). */
  ccy: string | null;
  positive: boolean;
}

export class Checker {
  readonly errors: FieldError[] = [];

  /**
   * Faults of the caller and its dialect: only the amount checks below read them (MNY-04, MNY-05). A
   * fault accepts what the profile says is refused; a dialect accepts as a conforming server may.
   */
  constructor(
    private readonly faults: FaultSet,
    private readonly dialect: AmountDialect,
  ) {}

  private accepts(
    reading: 'amountPrecision' | 'amountDigits',
    fault: 'amount-sub-minor-units' | 'amount-unbounded',
  ): boolean {
    return this.dialect[reading] === 'accept' || this.faults.has(fault);
  }

  fail(path: string, code: string, message: string): null {
    this.errors.push({ code, message, path });
    return null;
  }

  get ok(): boolean {
    return this.errors.length === 0;
  }

  /** Required (or optional) object member. */
  object(parent: Json | null, key: string, path: string, required = true): Json | null {
    if (!parent) return null;
    const value = parent[key];
    if (value === undefined || value === null)
      return required ? this.fail(path, 'required', `${path} is required`) : null;
    if (!isObject(value)) return this.fail(path, 'invalid_type', `${path} must be an object`);
    return value;
  }

  string(parent: Json | null, key: string, path: string, required = true): string | null {
    if (!parent) return null;
    const value = parent[key];
    if (value === undefined || value === null)
      return required ? this.fail(path, 'required', `${path} is required`) : null;
    if (typeof value !== 'string') return this.fail(path, 'invalid_type', `${path} must be a string`);
    if (value.trim() === '')
      return this.fail(path, required ? 'required' : 'invalid_value', `${path} must not be empty`);
    return value;
  }

  array(parent: Json | null, key: string, path: string, required = true): unknown[] | null {
    if (!parent) return null;
    const value = parent[key];
    if (value === undefined || value === null)
      return required ? this.fail(path, 'required', `${path} is required`) : null;
    if (!Array.isArray(value)) return this.fail(path, 'invalid_type', `${path} must be an array`);
    return value;
  }

  stringArray(parent: Json | null, key: string, path: string, required = false): string[] | null {
    const list = this.array(parent, key, path, required);
    if (!list) return null;
    list.forEach((item, i) => {
      if (typeof item !== 'string') this.fail(`${path}[${i}]`, 'invalid_type', `${path}[${i}] must be a string`);
    });
    return list as string[];
  }

  oneOf<T extends string>(
    parent: Json | null,
    key: string,
    path: string,
    allowed: readonly T[],
    required = true,
  ): T | null {
    const value = this.string(parent, key, path, required);
    if (value === null) return null;
    if (!(allowed as readonly string[]).includes(value))
      return this.fail(path, 'invalid_value', `${path} must be ${allowed.join(' or ')}`);
    return value as T;
  }

  dateTime(parent: Json | null, key: string, path: string, required = true): string | null {
    const value = this.string(parent, key, path, required);
    if (value !== null && !isDateTime(value))
      return this.fail(path, 'invalid_format', `${path} must be an ISO 8601 date-time`);
    return value;
  }

  date(parent: Json | null, key: string, path: string, required = true): string | null {
    const value = this.string(parent, key, path, required);
    if (value !== null && !isDate(value))
      return this.fail(path, 'invalid_format', `${path} must be an ISO 8601 date (YYYY-MM-DD)`);
    return value;
  }

  bic(parent: Json | null, key: string, path: string, required: boolean, checkFormat: BicCheck = true): string | null {
    const value = this.string(parent, key, path, required);
    const valid =
      checkFormat === 'length'
        ? BIC_LENGTH.test(value ?? '')
        : isBic(checkFormat === 'caseless' ? (value ?? '').toUpperCase() : (value ?? ''));
    if (value !== null && checkFormat && !valid)
      return this.fail(path, 'invalid_format', `${path} must be a valid BIC`);
    return value;
  }

  /** `printFormat`: the return-iban-print-format fault, which takes an IBAN's spaces out before checking it. */
  iban(parent: Json | null, key: string, path: string, required = true, printFormat = false): string | null {
    const value = this.string(parent, key, path, required);
    if (value !== null && !isIban(printFormat ? value.replaceAll(' ', '') : value))
      return this.fail(path, 'invalid_format', `${path} must be a valid IBAN`);
    return value;
  }

  /** nbOfTxs: the digit string "1" (as documented) or the number 1 (accepted, README). */
  one(parent: Json | null, key: string, path: string, required = true): boolean {
    if (!parent) return false;
    const value = parent[key];
    if (value === undefined || value === null) {
      if (!required) return true;
      this.fail(path, 'required', `${path} is required`);
      return false;
    }
    if (value === '1' || value === 1) return true;
    this.fail(path, 'invalid_value', `${path} must be 1`);
    return false;
  }

  /** Amount object {value: number, ccy}; returns the value in cents. */
  amount(parent: Json | null, key: string, path: string, rule: AmountRule, required = true): number | null {
    const amount = this.object(parent, key, path, required);
    if (!amount) return null;
    const value = amount.value;
    let cents: number | null = null;
    if (value === undefined || value === null) this.fail(`${path}.value`, 'required', `${path}.value is required`);
    else if (typeof value !== 'number' || !Number.isFinite(value))
      this.fail(`${path}.value`, 'invalid_type', `${path}.value must be a number`);
    else if (rule.positive && value <= 0) this.fail(`${path}.value`, 'invalid_value', `${path}.value must be positive`);
    else {
      const reading = readAmount(value);
      if (reading.decimals > MINOR_UNIT_DIGITS && !this.accepts('amountPrecision', 'amount-sub-minor-units')) {
        this.fail(
          `${path}.value`,
          'invalid_value',
          `${path}.value must have at most ${MINOR_UNIT_DIGITS} decimal places (minor units of the currency)`,
        );
      } else if (!reading.inBound && !this.accepts('amountDigits', 'amount-unbounded')) {
        this.fail(`${path}.value`, 'invalid_value', `${path}.value must be at most ${MAX_AMOUNT_TEXT}`);
      } else cents = reading.cents;
    }
    const ccy = amount.ccy;
    if (ccy === undefined || ccy === null) this.fail(`${path}.ccy`, 'required', `${path}.ccy is required`);
    else if (typeof ccy !== 'string') this.fail(`${path}.ccy`, 'invalid_type', `${path}.ccy must be a string`);
    else if (rule.ccy !== null && ccy !== rule.ccy)
      this.fail(`${path}.ccy`, 'invalid_value', `${path}.ccy must be ${rule.ccy}`);
    return cents;
  }
}
