/**
 * Business-rule outcomes shared by returns and refunds. The caller's dialect decides how a failed rule
 * is reported: http = refused at submission with refusalStatus.business; status = accepted with 201
 * and settled as rejected, the rule's ISO reason code in pacs.002 stsRsnInf.
 */
import type { Dialect } from '../dialects';
import type { ServiceContext } from '../context';
import type { FaultSet } from '../faults';
import { pickByHints, type RefHints, type Transfer } from '../ledger-of-payments/store';
import { ApiError } from '../errors';
import { repeatBody } from './submit';

export interface BusinessFailure {
  /** ISO reason code reported in pacs.002 when the dialect reports by status. */
  reason: 'NOOR' | 'AG01' | 'AG02' | 'AM09' | 'DUPL' | 'RC01';
  message: string;
  path: string;
  /**
   * The request conflicts with the state of what it acts on (the original not settled yet, already
   * returned or refunded, an rtrId already used, refunds past what remains): a dialect may answer that
   * cause otherwise than the class (causeStatus.businessState, 409 Conflict).
   */
  state?: true;
}

export const businessReasons = {
  unknownOriginal: 'NOOR',
  originalNotAccepted: 'AG01',
  wrongAmount: 'AM09',
  alreadyReturned: 'DUPL',
  /** A new return carrying the rtrId of an earlier one (§2.5: rtrId identifies each request). */
  duplicateReturnId: 'DUPL',
  /** A return after a refund: the full amount no longer remains to be sent back. */
  alreadyRefunded: 'AM09',
  notTheBeneficiary: 'AG02',
  /** A FOCR return of a payment with no cancellation request of that reference on record (dialect focrRecall onRecord). */
  noRecallOnRecord: 'AG01',
} as const;

/** Width of the check-then-book gap the money-check-then-act fault opens (like idempotency-race). */
export const MONEY_RACE_WINDOW_MS = 50;

/** Throws for dialect http; for dialect status returns the reason to settle the transfer as rejected. */
export function businessOutcome(dialect: Dialect, failure: BusinessFailure | null): string | null {
  if (!failure) return null;
  if (dialect.businessRejection === 'http') {
    throw new ApiError(
      'business',
      { code: 'business_rule', message: `${failure.message} (${failure.reason})`, path: failure.path },
      {},
      failure.state ? 'businessState' : undefined,
    );
  }
  return failure.reason;
}

/** An idempotency key reused for a different body, under idempotencyConflict reject. */
export function idempotencyConflict(message: string, path: string): ApiError {
  return new ApiError('conflict', { code: 'idempotency_conflict', message, path });
}

/** A repeat of an idempotency key: the repeat body (dialect repeatBody; undefined = none), or a conflict error per dialect. */
export function replayOrConflict(
  dialect: Dialect,
  existing: Transfer,
  rawHash: string,
  path: string,
): Record<string, unknown> | undefined {
  if (existing.requestHash !== rawHash && dialect.idempotencyConflict === 'reject') {
    throw idempotencyConflict('the message id was already used for a different request', path);
  }
  // Only returns and refunds replay here: answers §4.4 does not show.
  return repeatBody(dialect, existing.response, 'notShown');
}

export interface OriginalLookup {
  original: Transfer | null;
  /** Several of the caller's incoming payments match even with endToEndId and amount: refused as unknown. */
  ambiguous: boolean;
}

/**
 * The original payment of a return or refund. Those flows are started by the beneficiary's
 * institution (spec §1), so the caller's incoming payments are searched first: another client's
 * payment reusing the same msgId and txId never hides the caller's (XCL-01). Only when the caller
 * received no payment with that reference is another institution's payment returned, so that the
 * beneficiary rule can refuse it (AG02) rather than call it unknown.
 */
export function findOriginalPayment(
  ctx: ServiceContext,
  clientId: string,
  faults: FaultSet,
  msgId: string,
  txId: string,
  hints: RefHints,
): OriginalLookup {
  const all = ctx.store.paymentsWithRef(msgId, txId);
  // The defect: one global (msgId, txId) entry, the latest payment overwriting the earlier ones.
  if (faults.has('payment-refs-global')) return { original: all.at(-1) ?? null, ambiguous: false };
  const mine = ctx.store.findIncomingPayment(clientId, msgId, txId, hints);
  if (mine.found || mine.ambiguous) return { original: mine.found, ambiguous: mine.ambiguous };
  return { original: pickByHints(all, hints).found ?? all.at(-1) ?? null, ambiguous: false };
}
