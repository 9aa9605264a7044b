/** pacs.002 status report (spec §2.4) built from a transfer's lifecycle phase. */
import { randomUUID } from 'node:crypto';
import type { Dialect } from './dialects';
import type { FaultSet } from './faults';
import type { Transfer } from './ledger-of-payments/store';

export const CANCELLED_STATUS = 'CANC';

export interface StatusTiming {
  settlingMs: number;
  revertAfterMs?: number;
  /** The report-renamed-later fault's delay, from the first read that served the final status. */
  renameAfterMs?: number;
}

/**
 * The txSts a transfer reads now. `settlingMs`: how long the dialect's settlingStatus shows, from the
 * first read of the transfer settled as accepted, before the accepted code. `revertAfterMs`: the status-reverts-later
 * fault's delay (config.ts lateFaultMs): once a read served the final status that long ago, reads serve
 * the interim status again.
 */
export function txStatus(
  transfer: Transfer,
  dialect: Dialect,
  faults: FaultSet,
  nowMs: number,
  { settlingMs, revertAfterMs = Number.POSITIVE_INFINITY }: StatusTiming,
): string {
  const interim = faults.has('status-non-iso-interim') ? 'PENDING' : dialect.interimStatus;
  const phase = transfer.phase;
  const final = phase === 'accepted' || phase === 'rejected' || phase === 'cancelled';
  if (final && faults.has('status-regresses') && ++transfer.finalReads > 1) return interim;
  if (phase === 'rejected' && faults.has('rejection-reads-accepted') && ++transfer.finalReads > 1)
    return dialect.acceptedStatus;
  // The read that first finds it final serves it final, even with no delay: the fault reverts a final
  // status a reader saw, never one no reader did (that would be a payment that never settles).
  if (
    final &&
    faults.has('status-reverts-later') &&
    transfer.finalReadAtMs != null &&
    nowMs - transfer.finalReadAtMs >= revertAfterMs
  )
    return interim;
  if (final) transfer.finalReadAtMs ??= nowMs;
  switch (phase) {
    case 'submitted':
    case 'sent':
      return interim;
    case 'accepted':
      if (faults.has('status-accepted-as-acsp')) return 'ACSP';
      // From the first read that finds it settled, so that a client following the status sees the
      // settling code however late its reads come, as a slow second leg would show it.
      if (dialect.settlingStatus !== 'none' && nowMs < transfer.finalReadAtMs! + settlingMs)
        return dialect.settlingStatus;
      // After the accepted code has shown for as long: another final code of its class.
      if (laterAccepted(dialect) && nowMs >= transfer.finalReadAtMs! + settlingMs) return dialect.laterAcceptedStatus;
      return dialect.acceptedStatus;
    case 'rejected':
      return dialect.rejectStatus;
    case 'cancelled':
      return CANCELLED_STATUS;
  }
}

/** The dialect's laterAcceptedStatus, where it follows ACCC and is not also its settling code. */
const laterAccepted = (dialect: Dialect): boolean =>
  dialect.laterAcceptedStatus !== 'none' &&
  dialect.acceptedStatus === 'ACCC' &&
  dialect.settlingStatus !== dialect.laterAcceptedStatus;

/** A status report's own grpHdr.msgId: an ISO 20022 Max35Text, so a UUID without its hyphens (32 characters). */
function reportMessageId(faults: FaultSet): string {
  const uuid = randomUUID();
  return faults.has('iso-answer-id-over-35') ? uuid : uuid.replaceAll('-', '');
}

/** The msgId a report echoes: the request's own, unless a fault names another (the refunded or returned payment's). */
function reportedMsgId(transfer: Transfer, faults: FaultSet, nowMs: number, timing: StatusTiming): string {
  // report-renamed-later: the defect reports on another msgId once the transfer was read final that long ago.
  const renameAfterMs = timing.renameAfterMs ?? Number.POSITIVE_INFINITY;
  if (
    faults.has('report-renamed-later') &&
    transfer.finalReadAtMs !== null &&
    nowMs - transfer.finalReadAtMs >= renameAfterMs
  )
    return `${transfer.msgId}-R`;
  const namesPayment =
    (transfer.kind === 'refund' && faults.has('refund-report-names-payment')) ||
    (transfer.kind === 'return' && faults.has('return-report-names-payment'));
  return namesPayment && transfer.original ? transfer.original.msgId : transfer.msgId;
}

/** The message name a report gives: the request's, unless a fault names the payment's for a return or refund. */
const reportedMessageName = (transfer: Transfer, faults: FaultSet): string =>
  transfer.kind !== 'payment' && faults.has('back-report-names-pacs008') ? 'pacs.008.001.08' : transfer.messageName;

export function statusReport(
  transfer: Transfer,
  dialect: Dialect,
  faults: FaultSet,
  nowMs: number,
  timing: StatusTiming,
): Record<string, unknown> {
  const txSts = txStatus(transfer, dialect, faults, nowMs, timing);
  const entry: Record<string, unknown> = {
    orgnlGrpInf: {
      orgnlMsgId: faults.has('status-wrong-orgnl-msgid')
        ? `${transfer.msgId}-X`
        : reportedMsgId(transfer, faults, nowMs, timing),
      ...(faults.has('status-no-orgnl-msgnmid') ? {} : { orgnlMsgNmId: reportedMessageName(transfer, faults) }),
    },
    orgnlEndToEndId: faults.has('status-wrong-orgnl-e2e') ? `${transfer.endToEndId}-X` : transfer.endToEndId,
    orgnlTxId:
      faults.has('status-wrong-orgnl-txid') ||
      (faults.has('status-final-wrong-orgnl-txid') && transfer.phase !== 'submitted' && transfer.phase !== 'sent')
        ? `${transfer.txId}-X`
        : transfer.txId,
    txSts,
  };
  if (txSts === dialect.rejectStatus && transfer.rejectReason && !faults.has('status-reject-without-reason')) {
    // status-reason-first-read-only: the defect gives the reason on the first read of the rejection only.
    if (++transfer.rejectionReads === 1 || !faults.has('status-reason-first-read-only'))
      entry.stsRsnInf = [{ rsn: { cd: transfer.rejectReason } }];
  }
  // status-cancelled-reason-text: the defect gives a cancelled payment a reason whose addtlInf is one
  // string (camt.029's form), not §2.4's array of strings.
  if (transfer.phase === 'cancelled' && faults.has('status-cancelled-reason-text'))
    entry.stsRsnInf = [{ rsn: { cd: 'CUST' }, addtlInf: 'cancelled at the payer’s request before its batch was sent' }];
  // status-acceptance-in-future: the defect writes the acceptance time an hour on (a time zone applied twice).
  if (txSts === dialect.acceptedStatus && transfer.acceptedAt)
    entry.accptncDtTm = faults.has('status-acceptance-in-future')
      ? new Date(Date.parse(transfer.acceptedAt) + 3_600_000).toISOString()
      : transfer.acceptedAt;
  if (transfer.kind === 'payment') {
    entry.orgnlTxRef = {
      ...(transfer.acceptedAt ? { intrBkSttlmDt: transfer.acceptedAt.slice(0, 10) } : {}),
      sttlmInf: { sttlmMtd: 'CLRG' },
      pmtTpInf: { svcLvl: [{ prtry: 'FP' }] },
    };
  }
  return {
    fitoFIPmtStsRpt: {
      grpHdr: {
        ...(faults.has('status-no-grphdr-msgid') ? {} : { msgId: reportMessageId(faults) }),
        // status-created-an-hour-ahead: the defect writes its local (UTC+1) wall clock, labelled Z.
        creDtTm: new Date(nowMs + (faults.has('status-created-an-hour-ahead') ? 3_600_000 : 0)).toISOString(),
      },
      txInfAndSts: [entry],
    },
  };
}
