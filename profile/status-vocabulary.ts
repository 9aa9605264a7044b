/**
 * Which class an ISO 20022 txSts belongs to, and which codes are final for a target: the one place
 * that reads the profile's status lists (a run-wide history checker reads finality here too).
 *
 * The spec documents two final codes, ACCC (accepted) and RJTC (rejected; RJCT in ISO's spelling),
 * and says "other ISO status codes may appear" and "Transitions: not shown" (§3). So only ACCC and
 * RJTC (RJCT) are final by rule: a change after either is a violation. Every other code is final or interim as the target uses it
 * (ACSC is "settlement completed" in ISO's table, yet a target may pass through it on its way to
 * ACCC): a code the profile lists as pending is interim for that target, whatever ISO's table says;
 * a code the profile lists in a final class is final by the profile's reading (an assumption); a code
 * the profile does not list falls back to ISO's table, and is final only tentatively: a poll waits to
 * see it hold (client/flows/payment.ts), and a change after it is a lesson about the target, never a
 * violation.
 */
import type { Expectations, StatusClass } from './profile';

/** What of a profile the vocabulary reads: its status code lists. */
export type Vocabulary = Pick<Expectations, 'statusCodes'>;

/** ISO 20022 ExternalPaymentTransactionStatus1Code, grouped by what they mean for a payer. */
const ISO_CLASSES: Record<StatusClass, readonly string[]> = {
  // ACPD, AcceptedClearingProcessed: handed to and accepted by the clearing system, not yet settled.
  pending: [
    'PEND',
    'PDNG',
    'ACSP',
    'ACTC',
    'ACCP',
    'ACWC',
    'ACWP',
    'RCVD',
    'PART',
    'PATC',
    'ACFC',
    'ACIS',
    'PRES',
    'ACPD',
  ],
  accepted: ['ACCC', 'ACSC'],
  rejected: ['RJCT', 'RJTC', 'BLCK'],
  // ACCR, AcceptedCancellationRequest: what a pacs.002 may say of a payment whose cancellation went through.
  cancelled: ['CANC', 'ACCR'],
};

/**
 * The codes §3 documents as final, with their class: nothing a target chooses makes them interim.
 * RJCT is ISO's own spelling of the rejection §3 writes RJTC (txSts is "an ISO status code", and
 * ExternalPaymentTransactionStatus1Code has RJCT, not RJTC; the service behind the spec answers RJCT).
 */
export const DOCUMENTED_FINAL_CODES: Readonly<Record<string, StatusClass>> = {
  ACCC: 'accepted',
  RJTC: 'rejected',
  RJCT: 'rejected',
};

/** ACCC, RJTC or RJCT: a change after it is a violation, never a lesson. */
export const isDocumentedFinal = (code: string | undefined): boolean =>
  code !== undefined && Object.hasOwn(DOCUMENTED_FINAL_CODES, code);

/** Every code above: STS-07 checks txSts against this set. */
export const ISO_STATUS_CODES: ReadonlySet<string> = new Set(Object.values(ISO_CLASSES).flat());

export const FINAL_CLASSES: ReadonlySet<StatusClass> = new Set(['accepted', 'rejected', 'cancelled']);

const CLASS_ORDER: readonly StatusClass[] = ['pending', 'accepted', 'rejected', 'cancelled'];

const isoClassOf = (code: string): StatusClass | undefined =>
  CLASS_ORDER.find((cls) => ISO_CLASSES[cls].includes(code));

/**
 * How final a code is for the target the profile describes:
 *   documented  ACCC or RJTC (§3): final by rule
 *   declared    listed in a final class of the profile: final by its reading (an assumption)
 *   iso         not listed by the profile, final in ISO's table: final until seen followed by another
 *   interim     listed as pending by the profile, or pending in ISO's table
 *   unknown     no status code the profile or ISO knows
 */
export type Finality = 'documented' | 'declared' | 'iso' | 'interim' | 'unknown';

export function finalityOf(code: string | undefined, expectations: Vocabulary): Finality {
  if (!code) return 'unknown';
  if (isDocumentedFinal(code)) return 'documented';
  const listed = profileClassOf(code, expectations);
  if (listed) return FINAL_CLASSES.has(listed) ? 'declared' : 'interim';
  const iso = isoClassOf(code);
  if (!iso) return 'unknown';
  return FINAL_CLASSES.has(iso) ? 'iso' : 'interim';
}

/** The class the profile lists a code in; pending first: a code seen followed by another is interim, whatever else is listed. */
function profileClassOf(code: string, expectations: Vocabulary): StatusClass | undefined {
  return CLASS_ORDER.find((cls) => expectations.statusCodes[cls].includes(code));
}

/** The class of a code: §3's final codes, then the profile's lists (a target may use a proprietary code), then ISO's. */
export function classifyStatus(code: string | undefined, expectations: Vocabulary): StatusClass | undefined {
  if (!code) return undefined;
  if (isDocumentedFinal(code)) return DOCUMENTED_FINAL_CODES[code];
  return profileClassOf(code, expectations) ?? isoClassOf(code);
}

/** Final for this target: documented, declared by the profile, or final in ISO's table (tentatively: see finalityOf). */
export function isFinalStatus(code: string | undefined, expectations: Vocabulary): boolean {
  const finality = finalityOf(code, expectations);
  return finality === 'documented' || finality === 'declared' || finality === 'iso';
}

/** Whether the profile lists this exact code for its class (the assumption STS-14 / STS-15 check). */
export function isProfileCode(code: string | undefined, cls: StatusClass, expectations: Vocabulary): boolean {
  return code !== undefined && expectations.statusCodes[cls].includes(code);
}

/**
 * What one status read after another says about the target:
 *   none       the same code, a move on from an interim one, or from ACCC or RJTC to another final
 *              code of the same class (ACCC, then ISO's ACSC): §3 names ACCC accepted and RJTC
 *              rejected and leaves transitions "not shown"
 *   violation  ACCC or RJTC followed by an interim code or one of the other class (STS-10)
 *   lesson     a change after a code the profile or ISO's table took as final: that code is interim
 *              for this target, which the profile's pending codes should list (STS-14)
 */
export type StatusChange = 'none' | 'violation' | 'lesson';

/**
 * The code a status read after `history` is judged against (statusChange): the first of §3's final
 * codes read, once one was, so that every later read answers to it (ACCC, ACSC, then an interim code
 * is still a violation); else the code read last.
 */
export function judgedAgainst(history: readonly string[], expectations: Vocabulary): string | undefined {
  return history.find((code) => finalityOf(code, expectations) === 'documented') ?? history.at(-1);
}

export function statusChange(before: string, after: string, expectations: Vocabulary): StatusChange {
  if (before === after) return 'none';
  const finality = finalityOf(before, expectations);
  if (finality === 'documented')
    return classifyStatus(after, expectations) === classifyStatus(before, expectations) &&
      isFinalStatus(after, expectations)
      ? 'none'
      : 'violation';
  return finality === 'declared' || finality === 'iso' ? 'lesson' : 'none';
}
