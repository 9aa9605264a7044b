/** POST pacs008 v10 and v08 (spec §2.2, §2.3, §4.2): submit a payment, idempotent on grpHdr.msgId. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ServiceContext } from '../context';
import type { FaultName } from '../faults';
import { createTransfer, localDateTime, readMessage, storedMessage, type Transfer } from '../ledger-of-payments/store';
import { PACS008_ROOT, pacs008Root, validatePacs008, type Pacs008Fields } from '../validate/pacs008';
import {
  namedFaults,
  peekString,
  prepareSubmission,
  repeatBeforeAuthentication,
  repeatBody,
  routeGone,
  validationError,
  type Submission,
} from './submit';
import { businessOutcome, idempotencyConflict } from './business';
import { lateFaultMs } from '../config';
import { deliveredToBeneficiary } from './incoming';

export const PACS008_NAME = 'pacs.008.001.08';
/** Width of the check-then-insert gap the idempotency-race fault opens (wide enough for concurrent duplicates). */
const RACE_WINDOW_MS = 50;

function createPayment(
  ctx: ServiceContext,
  sub: Submission,
  rootKey: string,
  fields: Pacs008Fields,
  index: boolean,
  pendingRejection: string | null = null,
): Transfer {
  const { client, faults } = sub.caller;
  // id-reused-after-final: the defect gives an earlier, final payment's id to this one.
  const reused =
    index && faults.has('id-reused-after-final')
      ? ctx.store.reusableId(client.clientId, sub.nowMs, lateFaultMs(ctx.config, 'id-reused-after-final'))
      : undefined;
  const id = reused ?? ctx.store.newId(sub.caller.dialect.paymentsServiceIdFormat);
  // payment-psid-not-string: the response carries a number, which also works as a lookup key.
  const numericAlias = faults.has('payment-psid-not-string') ? ctx.store.nextSequence() : null;
  const response: Record<string, unknown> = {
    // payment-id-field-renamed: the production service's name for the id; the id itself is unchanged.
    [faults.has('payment-id-field-renamed') ? 'paymentsHubId' : 'paymentsServiceId']: numericAlias ?? id,
    // payment-echo-cut-30: the defect echoes as much of the msgId as a 30-character column holds.
    [sub.caller.dialect.msgIdEchoName]: faults.has('payment-id-not-echoed')
      ? id
      : faults.has('payment-echo-cut-30')
        ? fields.msgId.slice(0, 30)
        : fields.msgId,
    status: faults.has('payment-status-received') ? 'RECEIVED' : 'PENDING',
    creationDateTime: faults.has('payment-creation-time-zoned')
      ? new Date(sub.nowMs).toISOString()
      : localDateTime(sub.nowMs, sub.caller.dialect.localTimeForm),
  };
  const creditor = fields.creditorMemberId ? ctx.registry.byMemberId(fields.creditorMemberId) : undefined;
  // On-us (the payer's own sort code): its beneficiary only where the payer's dialect reads it as incoming.
  const beneficiary =
    creditor?.clientId === client.clientId && sub.caller.dialect.onUs === 'notIncoming' ? undefined : creditor;
  const transfer = createTransfer({
    kind: 'payment',
    id,
    alias: numericAlias === null ? null : String(numericAlias),
    clientId: client.clientId,
    msgId: fields.msgId || `generated-${id}`,
    endToEndId: fields.endToEndId,
    txId: fields.txId,
    messageName: PACS008_NAME,
    amountCents: fields.amountCents,
    requestHash: sub.rawHash,
    message: storedMessage(sub.text, rootKey),
    response,
    createdAtMs: sub.nowMs,
    // payment-no-beneficiary: the defect books the payment without its beneficiary's institution.
    beneficiaryClientId: sub.caller.faults.has('payment-no-beneficiary') ? null : (beneficiary?.clientId ?? null),
    creditorAccount: fields.creditorAccount,
    uetr: fields.uetr || null,
    pendingRejection,
  });
  // pacs008-v08-stores-nothing: the defect answers the flow description's path without booking.
  if (faults.has('pacs008-v08-stores-nothing') && sub.caller.version === 'v08') return transfer;
  ctx.store.add(transfer, index);
  ctx.lifecycle.enqueue(transfer);
  pathVersionOfPayment.set(transfer, sub.caller.version);
  return transfer;
}

/** The path version each payment was submitted on (only faults read it: idempotency-per-path-version, cancel-v08-still-settles). */
const pathVersionOfPayment = new WeakMap<Transfer, string | undefined>();

/** Whether the body spells the total's value otherwise than the transaction's (10.50 beside 10.5): a fault's comparison. */
function writtenAmountsDiffer(text: string): boolean {
  const spelled = (member: string) =>
    new RegExp(`"${member}"\\s*:\\s*\\{[^}]*"value"\\s*:\\s*([-+.0-9eE]+)`).exec(text)?.[1];
  const total = spelled('ttlIntrBkSttlmAmt');
  const amount = spelled('intrBkSttlmAmt');
  return total !== undefined && amount !== undefined && total !== amount;
}

/** The path version `payment` was submitted on, for a fault that treats one version otherwise. */
export const submittedOnVersion = (payment: Transfer): string | undefined => pathVersionOfPayment.get(payment);

async function submitPayment(ctx: ServiceContext, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const early = repeatBeforeAuthentication(ctx, req, (client, body) => {
    const msgId = peekString(body, PACS008_ROOT, 'grpHdr', 'msgId');
    return msgId ? ctx.store.findByIdempotency('payment', client.clientId, msgId) : undefined;
  });
  if (early) return reply.code(200).send(early);
  const sub = prepareSubmission(ctx, req, undefined, (refused) => {
    // payment-stored-before-sca: the defect books the payment, then lets the SCA refusal answer.
    if (!refused.caller.faults.has('payment-stored-before-sca')) return;
    const { root, rootKey } = pacs008Root(refused.body, refused.caller.faults);
    const valid = root ? validatePacs008(root, refused.caller.faults, refused.caller.dialect) : undefined;
    if (valid?.ok) createPayment(ctx, refused, rootKey, valid.fields, true);
  });
  const { client, faults } = sub.caller;
  const { root, rootKey, error } = pacs008Root(sub.body, faults);
  const msgId = peekString(root, 'grpHdr', 'msgId');

  // No await between this lookup and store.add below: concurrent duplicates cannot both miss it.
  // msgid-idempotency-across-clients: the defect keys idempotency on the msgId alone, whoever sent it.
  const found = msgId
    ? (ctx.store.findByIdempotency('payment', client.clientId, msgId) ??
      (faults.has('msgid-idempotency-across-clients')
        ? ctx.store.findByIdempotencyOfAnyClient('payment', msgId)
        : undefined))
    : undefined;
  // late-repeat-new-payment: the defect forgets a msgId that old, and the repeat becomes a new payment.
  // idempotency-per-path-version: the defect keeps each path version's msgIds apart (v08 and v10 are one operation).
  const forgotten =
    found !== undefined &&
    ((faults.has('late-repeat-new-payment') &&
      sub.nowMs - found.createdAtMs >= lateFaultMs(ctx.config, 'late-repeat-new-payment')) ||
      (faults.has('idempotency-per-path-version') && pathVersionOfPayment.get(found) !== sub.caller.version) ||
      // idempotency-forgets-cancelled: the defect drops a msgId once its payment was cancelled, and pays it again.
      (faults.has('idempotency-forgets-cancelled') && found.phase === 'cancelled') ||
      // idempotency-forgets-returned: the same, once its beneficiary returned it.
      (faults.has('idempotency-forgets-returned') && found.returned) ||
      // idempotency-forgets-rejected: the same, once its payment was rejected ("it never happened").
      (faults.has('idempotency-forgets-rejected') && found.phase === 'rejected') ||
      // idempotency-forgets-delivered: the same, once its beneficiary read it (archived as delivered).
      (faults.has('idempotency-forgets-delivered') && deliveredToBeneficiary.has(found)) ||
      // idempotency-keyed-with-credttm: the defect keys a payment on its msgId and its creation time.
      (faults.has('idempotency-keyed-with-credttm') &&
        peekString(readMessage(found.message), 'grpHdr', 'creDtTm') !== peekString(root, 'grpHdr', 'creDtTm')));
  const existing = forgotten ? undefined : found;
  if (existing) {
    if (existing.requestHash !== sub.rawHash && sub.caller.dialect.idempotencyConflict === 'reject') {
      throw idempotencyConflict(
        'grpHdr.msgId was already used for a different request',
        `${PACS008_ROOT}.grpHdr.msgId`,
      );
    }
    // idempotency-repeat-overwrites-ids: the defect stores a repeat's endToEndId over the payment's (an upsert).
    // idempotency-repeat-overwrites-message: the defect stores a repeat's body over the payment's (the incoming view serves it).
    if (faults.has('idempotency-repeat-overwrites-message') && root)
      existing.message = storedMessage(sub.text, rootKey);
    if (faults.has('idempotency-repeat-overwrites-ids') && root) {
      const repeated = validatePacs008(root, faults, sub.caller.dialect);
      if (repeated.ok) existing.endToEndId = repeated.fields.endToEndId;
    }
    // Both faults: a repeat silently books a twin (unindexed) that settles and notifies like any payment;
    // the second one only once the original has settled (before that, repeats are handled correctly).
    const settled = existing.phase === 'accepted' || existing.phase === 'rejected';
    if (
      (faults.has('idempotency-creates-second-payment') ||
        (faults.has('idempotency-second-payment-after-settlement') && settled)) &&
      root
    ) {
      const twin = validatePacs008(root, faults, sub.caller.dialect);
      if (twin.ok) createPayment(ctx, sub, rootKey, twin.fields, false);
    }
    // The second payment named in the 200 itself: a server that books every request and only swaps the status code.
    if (faults.has('idempotency-repeat-names-new-payment') && root) {
      const twin = validatePacs008(root, faults, sub.caller.dialect);
      if (twin.ok)
        return reply
          .code(200)
          .send(repeatBody(sub.caller.dialect, createPayment(ctx, sub, rootKey, twin.fields, false).response));
    }
    return reply
      .code(faults.has('idempotent-repeat-201') ? 201 : 200)
      .send(repeatBody(sub.caller.dialect, existing.response));
  }
  if (faults.has('idempotency-race')) await sleep(RACE_WINDOW_MS); // the defect: a window between check and insert

  if (!root)
    throw validationError(
      ctx,
      error ?? { code: 'required', message: `root ${PACS008_ROOT} is required`, path: PACS008_ROOT },
    );
  // payment-ccy-first-client-only and payment-chrgbr-first-client-only: the defect holds only the first
  // client registered with it to the rule (a legacy client profile); every later one's value passes, as
  // accepts-eur and payment-chrgbr-unchecked let every client's.
  const laterClient = (fault: FaultName) => faults.has(fault) && ctx.registry.firstWith(fault) !== client.clientId;
  const lenient: FaultName[] = [
    ...(laterClient('payment-ccy-first-client-only') ? (['accepts-eur'] as const) : []),
    ...(laterClient('payment-chrgbr-first-client-only') ? (['payment-chrgbr-unchecked'] as const) : []),
  ];
  const result = validatePacs008(root, lenient.length ? new Set([...faults, ...lenient]) : faults, sub.caller.dialect);
  if (!result.ok) throw validationError(ctx, result.errors);
  // payment-ttl-compared-as-written: the defect compares the total with the amount as the body spells them.
  if (faults.has('payment-ttl-compared-as-written') && writtenAmountsDiffer(sub.text))
    throw validationError(ctx, {
      code: 'invalid_value',
      message: `${PACS008_ROOT}.grpHdr.ttlIntrBkSttlmAmt must equal the sum of the transactions`,
      path: `${PACS008_ROOT}.grpHdr.ttlIntrBkSttlmAmt.value`,
    });
  // The defect: members the spec does not define are mapped onto the payment, which then differs from what its documented fields say.
  const extraMember = Object.keys(root).some((key) => key !== 'grpHdr' && key !== 'cdtTrfTxInf');
  const fields =
    faults.has('extra-member-alters-payment') && extraMember
      ? { ...result.fields, txId: `${result.fields.txId}-X` }
      : result.fields;
  // ISO 20022 makes a UETR one payment's (the spec is silent): a new payment carrying a UETR of one
  // of the client's payments is refused as a duplicate, as the dialect reports business refusals.
  // Strict on purpose: a suite that ever reused one would fail here. Per client, so that a replay's
  // fresh client may send a failed test's body again. The same msgId's payment is this request's own
  // (a repeat the idempotency-race fault let through), which the idempotency rules judge.
  const seen = fields.uetr ? ctx.store.findPaymentByUetr(client.clientId, fields.uetr) : undefined;
  const duplicate = seen !== undefined && seen.msgId !== fields.msgId;
  // Under debtorAgent caller, a payer with a sort code pays only from it (§1: "Started by | payer's institution").
  const foreignDebtor =
    sub.caller.dialect.debtorAgent === 'caller' &&
    client.memberId !== null &&
    fields.debtorMemberId !== client.memberId;
  const pendingRejection = businessOutcome(
    sub.caller.dialect,
    duplicate
      ? {
          reason: 'DUPL',
          message: `${PACS008_ROOT}.cdtTrfTxInf[0].pmtId.uetr was already used by another payment: a UETR identifies one payment`,
          path: `${PACS008_ROOT}.cdtTrfTxInf[0].pmtId.uetr`,
        }
      : foreignDebtor
        ? {
            reason: 'RC01',
            message: `${PACS008_ROOT}.cdtTrfTxInf[0].dbtrAgt names another institution than the payer's`,
            path: `${PACS008_ROOT}.cdtTrfTxInf[0].dbtrAgt.finInstnId.clrSysMmbId.mmbId`,
          }
        : null,
  );
  // payment-shar-rejected-later: the defect takes a SHAR payment with 201 and rejects it in pacs.002.
  const shar =
    faults.has('payment-shar-rejected-later') &&
    (root.cdtTrfTxInf as Array<{ chrgBr?: unknown }> | undefined)?.[0]?.chrgBr === 'SHAR';
  const payment = createPayment(ctx, sub, rootKey, fields, true, shar ? 'AG01' : pendingRejection);
  return reply.code(faults.has('payment-answers-200') ? 200 : 201).send({ data: payment.response });
}

export function registerPaymentRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.post('/payments/pacs008/v10', (req, reply) => submitPayment(ctx, req, reply));
  app.post('/payments/pacs008/v08', (req, reply) => {
    if (namedFaults(ctx, req).has('pacs008-v08-missing')) throw routeGone();
    return submitPayment(ctx, req, reply);
  });
}
