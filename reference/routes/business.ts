/**
 * Business-rule outcomes shared by returns and refunds. The caller's dialect decides how a failed rule
 * is reported: http = refused at submission with refusalStatus.business; status = accepted with 201
 * and settled as rejected, the rule's ISO reason code in pacs.002 stsRsnInf.
 */
import type { Dialect } from '../dialects';
import type { Transfer } from '../ledger-of-payments/store';
import { ApiError } from '../errors';
import { repeatBody } from './submit';

export interface BusinessFailure {
  /** ISO reason code reported in pacs.002 when the dialect reports by status. */
  reason: 'NOOR' | 'AG01' | 'AG02' | 'AM09' | 'DUPL';
  message: string;
  path: string;
}

export const businessReasons = {
  unknownOriginal: 'NOOR',
  originalNotAccepted: 'AG01',
  wrongAmount: 'AM09',
  alreadyReturned: 'DUPL',
  notTheBeneficiary: 'AG02',
} as const;

/** Throws for dialect http; for dialect status returns the reason to settle the transfer as rejected. */
export function businessOutcome(dialect: Dialect, failure: BusinessFailure | null): string | null {
  if (!failure) return null;
  if (dialect.businessRejection === 'http') {
    throw new ApiError('business', { code: 'business_rule', message: `${failure.message} (${failure.reason})`, path: failure.path });
  }
  return failure.reason;
}

/** An idempotency key reused for a different body, under idempotencyConflict reject. */
export function idempotencyConflict(message: string, path: string): ApiError {
  return new ApiError('conflict', { code: 'idempotency_conflict', message, path });
}

/** A repeat of an idempotency key: the repeat body (dialect repeatBody; undefined = none), or a conflict error per dialect. */
export function replayOrConflict(dialect: Dialect, existing: Transfer, rawHash: string, path: string): Record<string, unknown> | undefined {
  if (existing.requestHash !== rawHash && dialect.idempotencyConflict === 'reject') {
    throw idempotencyConflict('the message id was already used for a different request', path);
  }
  return repeatBody(dialect, existing.response);
}
