/**
 * Readings: assumption rules about a request the spec leaves open, whose profile field says whether
 * the target refuses it, allows it, or either (a reused SCA jti). A case row that rests on one names
 * the rule (cases/sca-cases.ts `reading`); its test, discovery's probe and the dialect matrix's switch
 * all follow from the rule's `profileField`, so such a case costs its rule, its row and its field.
 */
import type { Expectations } from '../profile/profile';
import { ruleOf } from './rules';

export type Reading = 'refuse' | 'allow' | 'either';

/** The expectation fields that hold a reading: exactly refuse, allow or either. */
export type ReadingField = {
  [K in keyof Expectations]-?: [NonNullable<Expectations[K]>] extends [Reading]
    ? [Reading] extends [NonNullable<Expectations[K]>]
      ? K
      : never
    : never;
}[keyof Expectations];

/** The field of `rule`'s reading (its ledger profileField, `expectations.<field>`); a rule that is no reading is the author's mistake. */
export function readingFieldOf(rule: string): ReadingField {
  const { level, profileField } = ruleOf(rule);
  const field = /^expectations\.(\w+)$/.exec(profileField ?? '')?.[1];
  if (level !== 'assumption' || !field)
    throw new Error(
      `${rule} is no reading: a reading is an assumption rule whose profileField is one expectations field`,
    );
  return field as ReadingField;
}

/** How the profile reads the request `rule` is about; a field the profile leaves out reads either way. */
export const readingOf = (expectations: Expectations, rule: string): Reading =>
  expectations[readingFieldOf(rule)] ?? 'either';

/** How a target reads the sca-token on an operation §5.5 may not cover: required (and checked), not required (nor checked), or verified when present. */
export type ScaReading = 'required' | 'notRequired' | 'verifiedWhenPresent' | 'either';

/**
 * The POSTs whose sca-token is a reading, with its rule and profile field. §5.5 asks the token of
 * "every request that submits a payment" and §4.4 gives pacs.004 the headers of §4.2; a camt.056
 * submits no payment, and a pacs.007 is the "Payment refund" flow §1 names apart from a payment, its
 * headers not shown. POST pacs008 and pacs004 are not here: their sca-token is documented.
 */
export const SCA_READINGS = {
  cancel: { rule: 'SCA-18', field: 'scaOnCancellation', message: 'camt.056' },
  refund: { rule: 'SCA-20', field: 'scaOnRefund', message: 'pacs.007' },
} as const satisfies Partial<Record<string, { rule: string; field: keyof Expectations; message: string }>>;

export type ScaReadingOp = keyof typeof SCA_READINGS;

/** The sca-token reading of `op`, or undefined where §5.5 and §4.4 make the token documented. */
export function scaReadingOn(
  expectations: Expectations,
  op: string,
): ((typeof SCA_READINGS)[ScaReadingOp] & { reading: ScaReading }) | undefined {
  const entry = (SCA_READINGS as Partial<Record<string, (typeof SCA_READINGS)[ScaReadingOp]>>)[op];
  return entry && { ...entry, reading: expectations[entry.field] ?? 'either' };
}

/** Whether the profile reads `op`'s sca-token as checked when sent: documented, required, or verified when present. */
export function scaCheckedOn(expectations: Expectations, op: string): boolean {
  const sca = scaReadingOn(expectations, op);
  return !sca || sca.reading === 'required' || sca.reading === 'verifiedWhenPresent';
}
