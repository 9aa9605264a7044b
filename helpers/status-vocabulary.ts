/**
 * Which class an ISO 20022 txSts belongs to. The spec names ACCC and RJTC and says "other ISO status
 * codes may appear" (§3); deployments differ (PEND vs PDNG, RJCT vs RJTC). The class comes from the
 * broad ISO sets so a remote target is never misread; the profile's narrower lists say which codes
 * this target is expected to use, and that is an assumption checked separately.
 */
import type { Expectations, StatusClass } from './profile';

/** ISO 20022 ExternalPaymentTransactionStatus1Code, grouped by what they mean for a payer. */
const ISO_CLASSES: Record<StatusClass, readonly string[]> = {
  pending: ['PEND', 'PDNG', 'ACSP', 'ACTC', 'ACCP', 'ACWC', 'ACWP', 'RCVD', 'PART', 'PATC', 'ACFC', 'ACIS', 'PRES'],
  accepted: ['ACCC', 'ACSC', 'ACCR'],
  rejected: ['RJCT', 'RJTC', 'BLCK'],
  cancelled: ['CANC'],
};

/** Every code above: STS-07 checks txSts against this set. */
export const ISO_STATUS_CODES: ReadonlySet<string> = new Set(Object.values(ISO_CLASSES).flat());

export const FINAL_CLASSES: ReadonlySet<StatusClass> = new Set(['accepted', 'rejected', 'cancelled']);

/** The class of a code: the profile's lists first (a target may use a proprietary code), then ISO's. */
export function classifyStatus(
  code: string | undefined,
  expectations: Pick<Expectations, 'statusCodes'>,
): StatusClass | undefined {
  if (!code) return undefined;
  for (const [cls, codes] of Object.entries(expectations.statusCodes) as [StatusClass, string[]][])
    if (codes.includes(code)) return cls;
  for (const [cls, codes] of Object.entries(ISO_CLASSES) as [StatusClass, readonly string[]][])
    if (codes.includes(code)) return cls;
  return undefined;
}

export function isFinalStatus(code: string | undefined, expectations: Pick<Expectations, 'statusCodes'>): boolean {
  const cls = classifyStatus(code, expectations);
  return cls !== undefined && FINAL_CLASSES.has(cls);
}

/** Whether the profile lists this exact code for its class (the assumption STS-14 / STS-15 check). */
export function isProfileCode(
  code: string | undefined,
  cls: StatusClass,
  expectations: Pick<Expectations, 'statusCodes'>,
): boolean {
  return code !== undefined && expectations.statusCodes[cls].includes(code);
}

/** Position in the lifecycle: a status history must never go down (pending 0 → final 1). */
export function statusRank(code: string | undefined, expectations: Pick<Expectations, 'statusCodes'>): number {
  const cls = classifyStatus(code, expectations);
  if (cls === undefined) return -1;
  return FINAL_CLASSES.has(cls) ? 1 : 0;
}
