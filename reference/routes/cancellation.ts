/**
 * POST camt056/v08 and GET camt029/v09 (spec §1 cancellation rules 1-5, README shapes).
 * Decided at request time: batch not yet sent -> the payment is cancelled (CANC) and camt.029 says
 * CNCL; batch already sent -> camt.029 RJCR with reason BATCH_ALREADY_SENT.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import type { Dialect } from '../dialects';
import type { FaultSet } from '../faults';
import { type Cancellation, localDateTime, type Transfer } from '../ledger-of-payments/store';
import { authenticate, checkAccept } from '../headers';
import { ApiError, errorsOf } from '../errors';
import { type Camt056Fields, validateCamt056 } from '../validate/camt056';
import {
  peekString,
  prepareSubmission,
  repeatBeforeAuthentication,
  repeatBody,
  scaNotAsked,
  sendAccepted,
  validationError,
} from './submit';
import { idempotencyConflict } from './business';
import { submittedOnVersion } from './payments';

export const BATCH_ALREADY_SENT = 'BATCH_ALREADY_SENT';
/** The reason of a cancellation rejected because the caller has no such payment (causeStatus.cancelUnknown camt029). */
const NO_SUCH_PAYMENT = 'NO_SUCH_PAYMENT';

function decide(
  ctx: ServiceContext,
  target: Transfer,
  faultsHas: (
    name:
      | 'cancel-before-batch-still-settles'
      | 'cancel-after-batch-succeeds'
      | 'cancel-rejected-yet-cancels'
      | 'cancel-again-after-batch-succeeds'
      | 'cancel-v08-still-settles'
      | 'cancel-returned-confirmed'
      | 'cancel-backdated-confirmed'
      | 'cancel-prtry-still-settles'
      | 'cancel-refunded-confirmed'
      | 'cancel-grace-after-settlement'
      | 'cancel-rejected-acted-on-later',
  ) => boolean,
  asked: Pick<Camt056Fields, 'assignmentCreDtTm' | 'reasonCode'>,
): 'CNCL' | 'RJCR' {
  const askedBefore = target.cancellationRequested;
  target.cancellationRequested = true;
  if (target.phase === 'cancelled') return 'CNCL';
  if (target.phase === 'submitted') {
    // cancel-v08-still-settles: the defect leaves a payment submitted on pacs008/v08 in its batch.
    const stays =
      faultsHas('cancel-before-batch-still-settles') ||
      (faultsHas('cancel-v08-still-settles') && submittedOnVersion(target) === 'v08') ||
      // cancel-prtry-still-settles: the defect takes the payment out of its batch for a reason code only.
      (faultsHas('cancel-prtry-still-settles') && asked.reasonCode === null);
    if (!stays) ctx.lifecycle.cancel(target);
    // cancel-rejected-yet-cancels: the defect cancels the payment and reports the cancellation rejected.
    return faultsHas('cancel-rejected-yet-cancels') ? 'RJCR' : 'CNCL';
  }
  if (faultsHas('cancel-after-batch-succeeds')) {
    if (target.phase === 'sent') target.phase = 'cancelled';
    return 'CNCL';
  }
  // cancel-backdated-confirmed: the defect dates the request by the creDtTm its camt.056 gives itself.
  if (
    faultsHas('cancel-backdated-confirmed') &&
    target.phase === 'accepted' &&
    target.acceptedAt !== null &&
    Date.parse(asked.assignmentCreDtTm) < Date.parse(target.acceptedAt)
  ) {
    target.phase = 'cancelled';
    return 'CNCL';
  }
  // cancel-returned-confirmed: the defect confirms the cancellation of a payment already returned (its money is back).
  if (target.returned && faultsHas('cancel-returned-confirmed')) return 'CNCL';
  // cancel-refunded-confirmed: the defect takes a payment partly refunded for one still open, and cancels it.
  // cancel-grace-after-settlement: the defect still cancels a payment settled less than 2 s ago.
  if (
    target.phase === 'accepted' &&
    ((target.refundedCents > 0 && faultsHas('cancel-refunded-confirmed')) ||
      (faultsHas('cancel-grace-after-settlement') &&
        target.acceptedAt !== null &&
        Date.now() - Date.parse(target.acceptedAt) < 2_000))
  ) {
    target.phase = 'cancelled';
    return 'CNCL';
  }
  // cancel-again-after-batch-succeeds: the defect rejects a late cancellation once, then confirms the
  // next one and cancels the payment, settled or not.
  if (askedBefore && faultsHas('cancel-again-after-batch-succeeds')) {
    target.phase = 'cancelled';
    return 'CNCL';
  }
  // cancel-rejected-acted-on-later: the defect rejects the request, leaves it flagged, and a later run cancels the payment all the same.
  if (faultsHas('cancel-rejected-acted-on-later'))
    setTimeout(() => {
      if (target.phase === 'accepted') target.phase = 'cancelled';
    }, 200).unref();
  return 'RJCR';
}

async function requestCancellation(
  ctx: ServiceContext,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const early = repeatBeforeAuthentication(ctx, req, (client, body) => {
    const assignmentId = peekString(body, client.dialect.cancellationRequestRoot, 'assgnmt', 'id');
    return assignmentId ? ctx.store.findCancellation(client.clientId, assignmentId) : undefined;
  });
  if (early) return reply.code(200).send(early);
  // §5.5 asks the sca-token of requests that submit a payment: a dialect may read camt.056 as not one,
  // and then check a token sent all the same (verifiedWhenPresent) or not at all (notRequired).
  const sub = prepareSubmission(ctx, req, (caller) => scaNotAsked(caller.dialect.scaOnCancellation, req));
  const { client, faults, dialect } = sub.caller;
  const root = dialect.cancellationRequestRoot;
  const assignmentId = peekString(sub.body, root, 'assgnmt', 'id');
  const existing = assignmentId ? ctx.store.findCancellation(client.clientId, assignmentId) : undefined;
  if (existing) {
    if (existing.requestHash !== sub.rawHash && dialect.idempotencyConflict === 'reject') {
      throw idempotencyConflict('assgnmt.id was already used for a different request', `${root}.assgnmt.id`);
    }
    return reply.code(200).send(repeatBody(dialect, existing.response, 'notShown'));
  }
  const result = validateCamt056(sub.body, faults, dialect, root);
  if (!result.ok) throw validationError(ctx, result.errors);
  const fields = result.fields;

  // Spec §1 rule 1: only the caller's own earlier payment can be cancelled.
  // Another client's payment with the same msgId and txId is never a candidate (XCL-01).
  let target: Transfer | null =
    ctx.store.findOwnPayment(client.clientId, fields.orgnlMsgId, fields.orgnlTxId, {
      endToEndId: fields.orgnlEndToEndId,
      amountCents: fields.orgnlAmountCents,
    }) ?? null;
  // cancel-finds-by-msgid: the defect takes the newest payment with these ids, whoever made it.
  if (target && faults.has('cancel-finds-by-msgid'))
    target = ctx.store.paymentsWithRef(fields.orgnlMsgId, fields.orgnlTxId).at(-1) ?? target;
  // cancel-accepts-foreign-payment takes another client's payment too and cancels it, confirmed;
  // cancel-foreign-pending-cancels cancels it behind a camt.029 that never leaves PDCR. Either cancels
  // it whatever its phase, so that the defect shows however soon the payment settled.
  const foreignPending = !target && faults.has('cancel-foreign-pending-cancels');
  // cancel-refuses-beneficiary-only: the defect refuses the payment's beneficiary, and takes anyone else's.
  const found = target ? undefined : ctx.store.paymentsWithRef(fields.orgnlMsgId, fields.orgnlTxId).at(-1);
  const strangerTaken =
    faults.has('cancel-refuses-beneficiary-only') &&
    found !== undefined &&
    found.beneficiaryClientId !== client.clientId;
  const foreignTaken = !target && (faults.has('cancel-accepts-foreign-payment') || foreignPending || strangerTaken);
  if (foreignTaken) target = ctx.store.paymentsWithRef(fields.orgnlMsgId, fields.orgnlTxId).at(-1) ?? null;
  if (foreignTaken && target) target.phase = 'cancelled';
  // Not found, a business refusal, or accepted and rejected in its camt.029 (causeStatus.cancelUnknown):
  // three readings of the same refusal.
  const rejectedLater = dialect.causeStatus.cancelUnknown === 'camt029';
  if (!target && !faults.has('cancel-accepts-foreign-payment') && !foreignPending && !rejectedLater)
    throw new ApiError(
      'notFound',
      { code: 'not_found', message: 'no payment of this client matches orgnlMsgId and orgnlTxId' },
      {},
      'cancelUnknown',
    );

  // cancel-settled-pending-then-confirmed: the defect answers the first read of a settled payment's
  // cancellation PDCR (pending), then confirms it (CNCL) although its batch was long sent.
  const pendingThenConfirmed = faults.has('cancel-settled-pending-then-confirmed') && target?.phase === 'accepted';
  // cancel-settled-stays-pending: a settled payment's cancellation is never decided, PDCR on every read.
  const staysPending = faults.has('cancel-settled-stays-pending') && target?.phase === 'accepted';
  const outcome = pendingThenConfirmed
    ? 'CNCL'
    : target
      ? decide(ctx, target, (name) => faults.has(name), fields)
      : 'RJCR';
  const id = ctx.store.newId(dialect.paymentsServiceIdFormat);
  const cancellation: Cancellation = {
    id,
    assignmentId: fields.assignmentId,
    assignmentCreDtTm: fields.assignmentCreDtTm,
    assignerBic: fields.assignerBic,
    clientId: client.clientId,
    cxlId: fields.cxlId,
    target,
    orgnlMsgId: fields.orgnlMsgId,
    orgnlMsgNmId: fields.orgnlMsgNmId ?? target?.messageName ?? 'pacs.008.001.08',
    orgnlEndToEndId: fields.orgnlEndToEndId ?? target?.endToEndId ?? '',
    orgnlTxId: fields.orgnlTxId,
    outcome,
    ...(pendingThenConfirmed
      ? { pendingReads: 1 }
      : (foreignPending && target) || staysPending
        ? { pendingReads: Infinity }
        : {}),
    rejectReason: outcome !== 'RJCR' ? null : target ? BATCH_ALREADY_SENT : NO_SUCH_PAYMENT,
    requestHash: sub.rawHash,
    // §4.4 does not show the answer: the dialect shapes it.
    response:
      dialect.cancelAnswer === 'id-only'
        ? { paymentsServiceId: id }
        : {
            paymentsServiceId: id,
            cancellationId: fields.assignmentId,
            status: dialect.cancelAnswer === 'received' ? 'RECEIVED' : 'PENDING',
            creationDateTime: localDateTime(sub.nowMs, sub.caller.dialect.localTimeForm),
          },
    createdAtMs: sub.nowMs,
  };
  ctx.store.addCancellation(cancellation);
  return sendAccepted(reply, dialect, `/payments/camt029/v09/${encodeURIComponent(id)}`, cancellation.response);
}

/** The service's own BIC: the assigner of every resolution it sends. */
const SERVICE_BIC = 'REFSGB2LXXX';

/**
 * The camt.029.001.09 of a cancellation, valid under its XSD: the assignment names its assigner (the
 * service) and assignee (the institution that asked, by the BIC its camt.056 gave itself), the status
 * id is a Max35Text, and the transaction's status is CancellationIndividualStatus1Code's: ACCR for an
 * accepted cancellation, RJCR for a rejected one (sts.conf, another code list, says CNCL or RJCR).
 */
function resolution(
  cancellation: Cancellation,
  root: Dialect['resolutionRoot'],
  faults: FaultSet,
): Record<string, unknown> {
  // cancel-late-accepted-per-transaction: the defect contradicts its own rejection of a late one.
  const lateAccepted =
    faults.has('cancel-late-accepted-per-transaction') && cancellation.rejectReason === BATCH_ALREADY_SENT;
  const accepted = cancellation.outcome === 'CNCL';
  const entry: Record<string, unknown> = {
    cxlStsId: cancellation.id.replaceAll('-', '').slice(0, 35),
    orgnlGrpInf: { orgnlMsgId: cancellation.orgnlMsgId, orgnlMsgNmId: cancellation.orgnlMsgNmId },
    orgnlEndToEndId: cancellation.orgnlEndToEndId,
    orgnlTxId: cancellation.orgnlTxId,
    txCxlSts: faults.has('iso-answer-code-outside-list')
      ? accepted
        ? 'CNCL'
        : 'RJCT'
      : accepted || lateAccepted
        ? 'ACCR'
        : 'RJCR',
  };
  if (cancellation.outcome === 'RJCR' && cancellation.rejectReason)
    entry.cxlStsRsnInf = [{ rsn: { prtry: cancellation.rejectReason } }];
  const agent = (bic: string) => ({ agt: { finInstnId: { bicfi: bic } } });
  return {
    [root]: {
      assgnmt: {
        id: cancellation.assignmentId,
        ...(faults.has('iso-answer-required-missing')
          ? {}
          : { assgnr: agent(SERVICE_BIC), assgne: agent(cancellation.assignerBic ?? SERVICE_BIC) }),
        creDtTm: new Date(cancellation.createdAtMs).toISOString(),
      },
      sts: { conf: cancellation.outcome },
      cxlDtls: [{ txInfAndSts: [entry] }],
    },
  };
}

async function readResolution(
  ctx: ServiceContext,
  req: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { client, faults, dialect } = authenticate(ctx, req, 'cancellationStatus');
  checkAccept(req);
  if (faults.has('camt029-not-served')) throw errorsOf.notFound('unknown cancellation');
  const cancellation = ctx.store.getCancellation(req.params.id);
  // camt029-by-payment-id-readable-by-any: the defect checks the caller on the cancellation's id only.
  const byPaymentId = cancellation !== undefined && cancellation.id !== req.params.id;
  const anyMayRead =
    faults.has('camt029-readable-by-any-client') ||
    (byPaymentId && faults.has('camt029-by-payment-id-readable-by-any'));
  if (!cancellation || (cancellation.clientId !== client.clientId && !anyMayRead))
    throw errorsOf.notFound('unknown cancellation');
  // camt029-rejection-never-served: the defect answers a rejection's read 202, no body, as if not there yet.
  if (faults.has('camt029-rejection-never-served') && cancellation.outcome === 'RJCR') return reply.code(202).send();
  const body = resolution(cancellation, dialect.resolutionRoot, faults);
  if (cancellation.pendingReads) {
    cancellation.pendingReads--;
    (body[dialect.resolutionRoot] as { sts: { conf: string } }).sts.conf = 'PDCR';
  }
  return reply.code(200).send(body);
}

export function registerCancellationRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/payments/camt056/v08', (req, reply) => requestCancellation(ctx, req, reply));
  app.get<{ Params: { id: string } }>('/payments/camt029/v09/:id', (req, reply) => readResolution(ctx, req, reply));
}
