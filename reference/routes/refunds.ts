/** POST pacs007/v08 (spec §1): partial refunds of a settled payment, together at most its amount. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceContext } from '../context';
import { createTransfer, localDateTime, storedMessage } from '../ledger-of-payments/store';
import { validatePacs007 } from '../validate/pacs007';
import { isObject } from '../validate/check';
import {
  peekString,
  prepareSubmission,
  repeatBeforeAuthentication,
  scaNotAsked,
  sendAccepted,
  validationError,
} from './submit';
import {
  businessOutcome,
  businessReasons,
  findOriginalPayment,
  MONEY_RACE_WINDOW_MS,
  replayOrConflict,
  type BusinessFailure,
} from './business';

export const PACS007_NAME = 'pacs.007.001.08';

async function submitRefund(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const early = repeatBeforeAuthentication(ctx, req, (client, body) => {
    const msgId = peekString(body, client.dialect.refundRoot, 'grpHdr', 'msgId');
    return msgId ? ctx.store.findByIdempotency('refund', client.clientId, msgId) : undefined;
  });
  if (early) return reply.code(200).send(early);
  // §5.5 asks the sca-token of requests that submit a payment: a dialect may read a refund as not one.
  const sub = prepareSubmission(ctx, req, (caller) => scaNotAsked(caller.dialect.scaOnRefund, req));
  const { client, faults } = sub.caller;
  // The root this caller's dialect accepts; the spec does not name pacs.007's root, and a dialect may
  // read a body's single root, whatever its name, as the message (refundUnknownRoot allow).
  const single = isObject(sub.body) && Object.keys(sub.body).length === 1 ? Object.keys(sub.body)[0] : undefined;
  const PACS007_ROOT =
    (sub.caller.dialect.refundUnknownRoot === 'allow' || faults.has('refund-accepts-any-root')) && single !== undefined
      ? single
      : sub.caller.dialect.refundRoot;
  const msgId = peekString(sub.body, PACS007_ROOT, 'grpHdr', 'msgId');
  const existing = msgId ? ctx.store.findByIdempotency('refund', client.clientId, msgId) : undefined;
  if (existing)
    return reply
      .code(200)
      .send(replayOrConflict(sub.caller.dialect, existing, sub.rawHash, `${PACS007_ROOT}.grpHdr.msgId`));

  const result = validatePacs007(sub.body, faults, sub.caller.dialect, PACS007_ROOT);
  if (!result.ok) throw validationError(ctx, result.errors);
  const fields = result.fields;
  const T = `${PACS007_ROOT}.txInf[0]`;
  const amountPath = `${T}.rvsdIntrBkSttlmAmt.value`;
  // The caller's incoming payment with that reference (the refunding institution is the beneficiary's).
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

  // From here to the booking below there is no await: the check and the booking are one step, so
  // concurrent refunds and returns of one original cannot together pass the check (MNY-01).
  let failure: BusinessFailure | null = null;
  if (ambiguous) {
    failure = {
      reason: businessReasons.unknownOriginal,
      message:
        'several payments you received match orgnlMsgId and orgnlTxId, and orgnlEndToEndId and orgnlIntrBkSttlmAmt do not single one out',
      path: `${T}.orgnlTxId`,
    };
  } else if (!original) {
    failure = {
      reason: businessReasons.unknownOriginal,
      message: 'the original payment is unknown',
      path: `${T}.orgnlGrpInf.orgnlMsgId`,
    };
  } else if (
    original.beneficiaryClientId !== client.clientId &&
    !faults.has('refund-by-any-institution') &&
    // refund-refuses-payer-only: the defect refuses the payer, not every institution but the beneficiary.
    !(faults.has('refund-refuses-payer-only') && original.clientId !== client.clientId) &&
    !(
      faults.has('refund-by-later-payer') &&
      original.clientId === client.clientId &&
      original.beneficiaryClientId !== null &&
      ctx.registry.registeredBefore(original.beneficiaryClientId, client.clientId)
    )
  ) {
    // §1: the merchant's (beneficiary's) institution refunds; nobody else holds the money to send back.
    failure = {
      reason: businessReasons.notTheBeneficiary,
      message: 'only the beneficiary institution of the original payment can refund it',
      path: `${T}.orgnlTxId`,
    };
  } else if (
    original.phase !== 'accepted' &&
    // refund-of-cancelled-accepted: the defect refuses a refund of a payment not yet settled, not of one cancelled.
    !(faults.has('refund-of-cancelled-accepted') && original.phase === 'cancelled')
  ) {
    failure = {
      reason: businessReasons.originalNotAccepted,
      state: true,
      message: 'the original payment is not settled as accepted',
      path: `${T}.orgnlTxId`,
    };
  } else if (original.returned && !faults.has('money-refund-after-return')) {
    // The return sent the whole original back: nothing is left to refund.
    failure = {
      reason: businessReasons.alreadyReturned,
      state: true,
      message: 'the original payment was already returned: nothing is left to refund',
      path: `${T}.orgnlTxId`,
    };
  } else {
    // refund-race-overrun: the defect skips the total for a refund close behind the previous one.
    const racing =
      faults.has('refund-race-overrun') &&
      original.lastRefundAtMs !== null &&
      sub.nowMs - original.lastRefundAtMs < MONEY_RACE_WINDOW_MS;
    // Integer cents: exact (amounts are at most 15 digits, validate/check.ts).
    const total = original.refundedCents + fields.refundCents;
    // refund-limit-from-message: the defect takes the limit from the refund's own orgnlIntrBkSttlmAmt.
    const limitCents =
      faults.has('refund-limit-from-message') && fields.orgnlAmountCents !== null
        ? fields.orgnlAmountCents
        : original.amountCents;
    // The defect: pounds as floating point, so near the amount bound the rounding of each sum can
    // make the total look smaller than it is. refundCents / 100 is the JSON value as parsed.
    const floatOver = !(original.refundedPounds + fields.refundCents / 100 <= limitCents / 100);
    // A single refund of the whole amount is a return, not a refund (spec §1).
    // refund-first-over-amount-accepted: the defect compares a single refund with the amount for
    // equality only, and checks the total only once something was refunded.
    const firstOver = faults.has('refund-first-over-amount-accepted');
    // refund-less-in-whole-pounds: the defect compares whole pounds, so a refund within the original's
    // last pound counts as the full amount.
    const wholePounds = (cents: number): number =>
      faults.has('refund-less-in-whole-pounds') ? Math.floor(cents / 100) : cents;
    const fullSingle =
      (firstOver ? fields.refundCents === limitCents : wholePounds(fields.refundCents) >= wholePounds(limitCents)) &&
      !faults.has('refund-full-amount-accepted');
    const overTotal = faults.has('refund-chain-cannot-reach-full')
      ? total >= limitCents
      : faults.has('refund-chain-exceeds-original') || racing || (firstOver && original.refundedCents === 0)
        ? false
        : faults.has('money-float-amounts')
          ? floatOver
          : total > limitCents;
    if (fullSingle)
      failure = {
        reason: businessReasons.wrongAmount,
        message: 'a refund must be less than the original amount (use a return for the full amount)',
        path: amountPath,
      };
    else if (overTotal)
      failure = {
        reason: businessReasons.wrongAmount,
        state: true,
        message: 'the refunds together would exceed the original amount',
        path: amountPath,
      };
  }
  if (original) original.lastRefundAtMs = sub.nowMs;
  // refund-refused-still-counts: the defect books a refund refused for its amount, as if it went back.
  if (original && failure && faults.has('refund-refused-still-counts')) {
    original.refundedCents += fields.refundCents;
    original.refundedPounds += fields.refundCents / 100;
  }
  // refund-rejected-later: the defect takes every valid refund with a 2xx and rejects it in pacs.002.
  const pendingRejection =
    !failure && faults.has('refund-rejected-later') ? 'AG01' : businessOutcome(sub.caller.dialect, failure);
  if (faults.has('money-check-then-act')) {
    await sleep(MONEY_RACE_WINDOW_MS); // the defect: a window between the check above and the booking below
    const repeat = ctx.store.findByIdempotency('refund', client.clientId, fields.msgId);
    if (repeat)
      return reply
        .code(200)
        .send(replayOrConflict(sub.caller.dialect, repeat, sub.rawHash, `${PACS007_ROOT}.grpHdr.msgId`));
  }

  const id = ctx.store.newId(sub.caller.dialect.paymentsServiceIdFormat);
  const response = {
    paymentsServiceId: id,
    [sub.caller.dialect.msgIdEchoName]: fields.msgId,
    status: 'PENDING',
    creationDateTime: localDateTime(sub.nowMs, sub.caller.dialect.localTimeForm),
  };
  const transfer = createTransfer({
    kind: 'refund',
    id,
    clientId: client.clientId,
    msgId: fields.msgId,
    endToEndId: fields.orgnlEndToEndId,
    txId: fields.rvslId,
    messageName: PACS007_NAME,
    amountCents: fields.refundCents,
    requestHash: sub.rawHash,
    message: storedMessage(sub.text, null),
    response,
    createdAtMs: sub.nowMs,
    original,
    pendingRejection,
  });
  ctx.store.add(transfer); // first: a full store (503) refuses it before anything is booked
  // Booked at submission so concurrent refunds cannot together exceed the original; a refund that
  // will settle as rejected (businessRejection: status) is not booked.
  if (original && pendingRejection === null) {
    original.refundedCents += fields.refundCents;
    original.refundedPounds += fields.refundCents / 100;
  }
  ctx.lifecycle.enqueue(transfer);
  if (faults.has('refund-answers-500')) return reply.code(500).send({ data: response });
  const statusPath = `/payments/pacs002/v12/${encodeURIComponent(id)}`;
  return sendAccepted(reply, sub.caller.dialect, statusPath, response, faults.has('refund-answers-202'));
}

export function registerRefundRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/payments/pacs007/v08', (req, reply) => submitRefund(ctx, req, reply));
}
