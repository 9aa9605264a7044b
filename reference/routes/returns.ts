/** POST pacs004/v08 (spec §2.5, §1): return the full amount of a settled payment, once. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceContext } from '../context';
import { createTransfer, localDateTime, storedMessage } from '../ledger-of-payments/store';
import { PACS004_NAME, PACS004_ROOT, validatePacs004 } from '../validate/pacs004';
import { peekString, prepareSubmission, repeatBeforeAuthentication, sendAccepted, validationError } from './submit';
import {
  businessOutcome,
  businessReasons,
  findOriginalPayment,
  MONEY_RACE_WINDOW_MS,
  replayOrConflict,
  type BusinessFailure,
} from './business';

async function submitReturn(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const early = repeatBeforeAuthentication(ctx, req, (client, body) => {
    const msgId = peekString(body, PACS004_ROOT, 'grpHdr', 'msgId');
    return msgId ? ctx.store.findByIdempotency('return', client.clientId, msgId) : undefined;
  });
  if (early) return reply.code(200).send(early);
  const sub = prepareSubmission(ctx, req, (caller) => caller.faults.has('return-without-sca'));
  const { client, faults } = sub.caller;
  const msgId = peekString(sub.body, PACS004_ROOT, 'grpHdr', 'msgId');
  const found =
    msgId && !faults.has('return-repeat-not-idempotent')
      ? ctx.store.findByIdempotency('return', client.clientId, msgId)
      : undefined;
  // return-idempotency-forgets-final: the defect drops a return's msgId once the return is final.
  // return-idempotency-keyed-with-body: the defect keys a return on its msgId and its body together.
  const existing =
    found &&
    !(faults.has('return-idempotency-forgets-final') && (found.phase === 'accepted' || found.phase === 'rejected')) &&
    !(faults.has('return-idempotency-keyed-with-body') && found.requestHash !== sub.rawHash)
      ? found
      : undefined;
  if (existing)
    return reply
      .code(200)
      .send(replayOrConflict(sub.caller.dialect, existing, sub.rawHash, `${PACS004_ROOT}.grpHdr.msgId`));

  const result = validatePacs004(sub.body, faults, sub.caller.dialect);
  if (!result.ok) throw validationError(ctx, result.errors);
  const fields = result.fields;
  const T = `${PACS004_ROOT}.txInf[0]`;
  // The caller's incoming payment with that reference (the returning institution is the beneficiary's).
  const { original, ambiguous } = findOriginalPayment(
    ctx,
    client.clientId,
    faults,
    fields.orgnlMsgId,
    fields.orgnlTxId,
    {
      endToEndId: fields.orgnlEndToEndId,
      amountCents: fields.orgnlAmountCents,
    },
  );

  // rtrdInstdAmt answers a cancellation request: allowed when one is on record for the original,
  // or, for an original unknown here, when the reason says so (FOCR).
  const answersCancellation = original ? original.cancellationRequested : fields.reasonCodes.includes('FOCR');
  if (fields.hasRtrdInstdAmt && !answersCancellation && !faults.has('return-accepts-rtrdinstdamt-always')) {
    throw validationError(ctx, {
      code: 'invalid_value',
      message: `${T}.rtrdInstdAmt is allowed only for a return answering a cancellation request`,
      path: `${T}.rtrdInstdAmt`,
    });
  }

  // From here to the booking below there is no await: the check and the booking are one step, so
  // concurrent returns and refunds of one original cannot all pass the check (MNY-01).
  let failure: BusinessFailure | null = null;
  // §2.5: rtrId "must uniquely identify each request", the client's duty. A repeat of the same request
  // came back above by its msgId; a new request (another msgId) under an rtrId the caller already used is
  // a duplicate where the dialect refuses one (the spec names no result of it).
  const rtrIdReused =
    sub.caller.dialect.rtrIdReuse === 'refuse' &&
    fields.rtrId !== '' &&
    !faults.has('return-rtrid-reuse-accepted') &&
    ctx.store.findReturnById(client.clientId, fields.rtrId) !== undefined;
  if (rtrIdReused) {
    failure = {
      reason: businessReasons.duplicateReturnId,
      state: true,
      message: 'txInf.rtrId was already used by an earlier return: it must identify each request',
      path: `${T}.rtrId`,
    };
  } else if (ambiguous) {
    failure = {
      reason: businessReasons.unknownOriginal,
      message:
        'several payments you received match orgnlMsgId and orgnlTxId, and orgnlEndToEndId and orgnlIntrBkSttlmAmt do not single one out',
      path: `${T}.orgnlTxId`,
    };
  } else if (!original) {
    if (sub.caller.dialect.returnUnknownOriginal === 'refuse')
      failure = {
        reason: businessReasons.unknownOriginal,
        message: 'the original payment is unknown',
        path: `${T}.orgnlGrpInf.orgnlMsgId`,
      };
  } else if (
    original.beneficiaryClientId !== client.clientId &&
    !faults.has('return-by-any-institution') &&
    // return-refuses-payer-only: the defect refuses the payer, not every institution but the beneficiary.
    !(faults.has('return-refuses-payer-only') && original.clientId !== client.clientId) &&
    !(
      faults.has('return-by-later-payer') &&
      original.clientId === client.clientId &&
      original.beneficiaryClientId !== null &&
      ctx.registry.registeredBefore(original.beneficiaryClientId, client.clientId)
    )
  ) {
    // §1: the return flow is started by the beneficiary's institution, the only one that received the money.
    failure = {
      reason: businessReasons.notTheBeneficiary,
      message: 'only the beneficiary institution of the original payment can return it',
      path: `${T}.orgnlTxId`,
    };
  } else if (
    sub.caller.dialect.focrRecall === 'onRecord' &&
    fields.reasonCodes.includes('FOCR') &&
    !ctx.store.cancellationsOf(original.id).some((c) => c.cxlId !== null && c.cxlId === fields.addtlInf)
  ) {
    failure = {
      reason: businessReasons.noRecallOnRecord,
      message:
        'a FOCR return answers a cancellation request: none on record for this payment has the cxlId addtlInf names',
      path: `${T}.rtrRsnInf[0].addtlInf`,
    };
  } else if (original.phase !== 'accepted') {
    failure = {
      reason: businessReasons.originalNotAccepted,
      state: true,
      message: 'the original payment is not settled as accepted',
      path: `${T}.orgnlTxId`,
    };
  } else if (original.returned && !faults.has('return-twice-accepted')) {
    failure = {
      reason: businessReasons.alreadyReturned,
      state: true,
      message: 'the original payment was already returned',
      path: `${T}.orgnlTxId`,
    };
  } else if (
    original.refundedCents > 0 &&
    !faults.has('money-return-after-refund') &&
    // return-remainder-after-refund: the defect takes, after refunds, a return of what is left.
    !(
      faults.has('return-remainder-after-refund') &&
      fields.returnedCents === original.amountCents - original.refundedCents
    )
  ) {
    // A return sends back the whole original; after a refund, that would be more than was paid.
    failure = {
      reason: businessReasons.alreadyRefunded,
      state: true,
      message:
        'part of the original payment was already refunded: a return of the full amount would send back more than the original',
      path: `${T}.rtrdIntrBkSttlmAmt.value`,
    };
  } else if (
    // return-amount-checked-in-message: the defect compares the message's two amounts, not the payment held.
    fields.returnedCents !==
      (faults.has('return-amount-checked-in-message')
        ? (fields.orgnlAmountCents ?? 0)
        : original.amountCents - (faults.has('return-remainder-after-refund') ? original.refundedCents : 0)) &&
    !faults.has('return-partial-amount-accepted')
  ) {
    // Values only: the original pacs.008 is in GBP and every pacs.004 amount is in EUR by spec, so
    // "the full original amount" can only mean the same value.
    failure = {
      reason: businessReasons.wrongAmount,
      message: 'rtrdIntrBkSttlmAmt must equal the original amount',
      path: `${T}.rtrdIntrBkSttlmAmt.value`,
    };
  }
  // return-refused-still-counts: the defect marks the original returned by a return it refuses for its amount.
  if (original && failure?.reason === businessReasons.wrongAmount && faults.has('return-refused-still-counts'))
    original.returned = true;
  // return-reason-rejected-later: the defect takes a return whose reason is AM05 (an EBA code §2.5
  // allows) with a 2xx, and rejects it in pacs.002 whatever the dialect's business rejection.
  const pendingRejection =
    !failure && faults.has('return-reason-rejected-later') && fields.reasonCodes.includes('AM05')
      ? 'MS03'
      : businessOutcome(sub.caller.dialect, failure);
  if (faults.has('money-check-then-act')) {
    await sleep(MONEY_RACE_WINDOW_MS); // the defect: a window between the check above and the booking below
    const repeat = msgId ? ctx.store.findByIdempotency('return', client.clientId, msgId) : undefined;
    if (repeat && !faults.has('return-repeat-not-idempotent'))
      return reply
        .code(200)
        .send(replayOrConflict(sub.caller.dialect, repeat, sub.rawHash, `${PACS004_ROOT}.grpHdr.msgId`));
  }

  const id = ctx.store.newId(sub.caller.dialect.paymentsServiceIdFormat);
  // §4.4: "The response body of POST pacs004: not shown".
  const response =
    sub.caller.dialect.returnAnswer === 'id-only'
      ? { paymentsServiceId: id }
      : {
          paymentsServiceId: id,
          [sub.caller.dialect.msgIdEchoName]: fields.msgId,
          status: 'PENDING',
          creationDateTime: localDateTime(sub.nowMs, sub.caller.dialect.localTimeForm),
        };
  const transfer = createTransfer({
    kind: 'return',
    id,
    clientId: client.clientId,
    msgId: fields.msgId || `generated-${id}`,
    endToEndId: fields.endToEndId,
    txId: fields.rtrId,
    messageName: PACS004_NAME,
    amountCents: fields.returnedCents,
    requestHash: sub.rawHash,
    message: storedMessage(sub.text, null),
    response,
    createdAtMs: sub.nowMs,
    original,
    pendingRejection,
  });
  ctx.store.add(transfer); // first: a full store (503) refuses it before anything is booked
  // Booked at submission; a return that will settle as rejected (businessRejection: status) is not.
  if (original && pendingRejection === null) original.returned = true;
  ctx.lifecycle.enqueue(transfer);
  if (faults.has('return-answers-500')) return reply.code(500).send({ data: response });
  const statusPath = `/payments/pacs002/v12/${encodeURIComponent(id)}`;
  const body = sub.caller.dialect.returnAnswer === 'empty' ? undefined : response;
  return sendAccepted(reply, sub.caller.dialect, statusPath, body, faults.has('return-answers-202'));
}

export function registerReturnRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/payments/pacs004/v08', (req, reply) => submitReturn(ctx, req, reply));
}
