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
