/**
 * Business-rule outcomes shared by returns and refunds. The dialect decides how a failed rule is
 * reported: http = refused at submission with validationStatus; status = accepted with 201 and
 * settled as rejected, the rule's ISO reason code in pacs.002 stsRsnInf.
 */
import type { ServiceContext } from '../context';
import type { Transfer } from '../ledger-of-payments/store';
import { validationError } from './submit';

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
export function businessOutcome(ctx: ServiceContext, failure: BusinessFailure | null): string | null {
  if (!failure) return null;
  if (ctx.dialect.businessRejection === 'http') {
    throw validationError(ctx, { code: 'business_rule', message: `${failure.message} (${failure.reason})`, path: failure.path });
  }
  return failure.reason;
}

/** A repeat of an idempotency key: the original response, or a conflict error per dialect. */
export function replayOrConflict(ctx: ServiceContext, existing: Transfer, rawHash: string, path: string): Record<string, unknown> {
  if (existing.requestHash !== rawHash && ctx.dialect.idempotencyConflict === 'reject') {
    throw validationError(ctx, { code: 'idempotency_conflict', message: 'the message id was already used for a different request', path });
  }
  return { data: existing.response };
}
