/** POST pacs007/v08 (spec §1): partial refunds of a settled payment, together at most its amount. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { createTransfer, localDateTime, storedMessage } from '../ledger-of-payments/store';
import { PACS007_ROOT, validatePacs007 } from '../validate/pacs007';
import { peekString, prepareSubmission, validationError } from './submit';
import { businessOutcome, businessReasons, findOriginalPayment, replayOrConflict, type BusinessFailure } from './business';

export const PACS007_NAME = 'pacs.007.001.08';

async function submitRefund(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const sub = prepareSubmission(ctx, req);
  const { client, faults } = sub.caller;
  const msgId = peekString(sub.body, PACS007_ROOT, 'grpHdr', 'msgId');
  const existing = msgId ? ctx.store.findByIdempotency('refund', client.clientId, msgId) : undefined;
  if (existing) return reply.code(200).send(replayOrConflict(ctx, existing, sub.rawHash, `${PACS007_ROOT}.grpHdr.msgId`));

  const result = validatePacs007(sub.body, faults);
  if (!result.ok) throw validationError(ctx, result.errors);
  const fields = result.fields;
  const T = `${PACS007_ROOT}.txInf[0]`;
  const amountPath = `${T}.rvsdIntrBkSttlmAmt.value`;
  // The caller's incoming payment with that reference (the refunding institution is the beneficiary's).
  const { original, ambiguous } = findOriginalPayment(ctx, client.clientId, faults, fields.orgnlMsgId, fields.orgnlTxId, {
    endToEndId: fields.orgnlEndToEndId,
    amountCents: fields.orgnlAmountCents,
  });

  let failure: BusinessFailure | null = null;
  if (ambiguous) {
    failure = { reason: businessReasons.unknownOriginal, message: 'several payments you received match orgnlMsgId and orgnlTxId, and orgnlEndToEndId and orgnlIntrBkSttlmAmt do not single one out', path: `${T}.orgnlTxId` };
  } else if (!original) {
    failure = { reason: businessReasons.unknownOriginal, message: 'the original payment is unknown', path: `${T}.orgnlGrpInf.orgnlMsgId` };
  } else if (original.beneficiaryClientId !== client.clientId && !faults.has('refund-by-any-institution')) {
    // §1: the merchant's (beneficiary's) institution refunds; nobody else holds the money to send back.
    failure = { reason: businessReasons.notTheBeneficiary, message: 'only the beneficiary institution of the original payment can refund it', path: `${T}.orgnlTxId` };
  } else if (original.phase !== 'accepted') {
    failure = { reason: businessReasons.originalNotAccepted, message: 'the original payment is not settled as accepted', path: `${T}.orgnlTxId` };
  } else {
    const total = original.refundedCents + fields.refundCents;
    // A single refund of the whole amount is a return, not a refund (spec §1).
    const fullSingle = fields.refundCents >= original.amountCents && !faults.has('refund-full-amount-accepted');
    const overTotal = faults.has('refund-chain-cannot-reach-full') ? total >= original.amountCents : total > original.amountCents && !faults.has('refund-chain-exceeds-original');
    if (fullSingle) failure = { reason: businessReasons.wrongAmount, message: 'a refund must be less than the original amount (use a return for the full amount)', path: amountPath };
    else if (overTotal) failure = { reason: businessReasons.wrongAmount, message: 'the refunds together would exceed the original amount', path: amountPath };
  }
  const pendingRejection = businessOutcome(ctx, failure);

  const id = ctx.store.newId();
  const response = { paymentsServiceId: id, paymentId: fields.msgId, status: 'PENDING', creationDateTime: localDateTime(sub.nowMs) };
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
  // Reserved at submission so concurrent refunds cannot together exceed the original.
  if (original && pendingRejection === null) original.refundedCents += fields.refundCents;
  ctx.store.add(transfer);
  ctx.lifecycle.enqueue(transfer);
  return reply.code(faults.has('refund-answers-500') ? 500 : faults.has('refund-answers-202') ? 202 : 201).send({ data: response });
}

export function registerRefundRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/payments/pacs007/v08', (req, reply) => submitRefund(ctx, req, reply));
}
