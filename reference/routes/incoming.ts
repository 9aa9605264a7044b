/** GET pacs008/v08/{id} (spec §1 incoming flow, §4.4): the beneficiary reads an incoming payment. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { authenticate, checkAccept } from '../headers';
import { errorsOf } from '../errors';
import { isObject } from '../validate/check';
import { readMessage, type Transfer } from '../ledger-of-payments/store';
import { isoPrunedContent } from '../iso-schema';

/** The message with each transaction changed by `change` (the faults below). */
function eachTransaction(
  message: Record<string, unknown>,
  change: (tx: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> {
  const txs = message.cdtTrfTxInf;
  if (!Array.isArray(txs)) return message;
  return { ...message, cdtTrfTxInf: txs.map((tx: unknown) => (isObject(tx) ? change(tx) : tx)) };
}

/** incoming-omits-debtor: no dbtr. */
const withoutDebtor = (message: Record<string, unknown>) =>
  eachTransaction(message, (tx) => Object.fromEntries(Object.entries(tx).filter(([k]) => k !== 'dbtr')));

/** incoming-masks-large-sender: the debtor's name replaced. */
const withDebtorMasked = (message: Record<string, unknown>) =>
  eachTransaction(message, (tx) => (isObject(tx.dbtr) ? { ...tx, dbtr: { ...tx.dbtr, nm: 'XXXXXXXX' } } : tx));

/** The sort code of a payment's creditor agent, as its first transaction names it. */
function creditorMemberId(message: Record<string, unknown>): string | undefined {
  const tx = Array.isArray(message.cdtTrfTxInf) ? message.cdtTrfTxInf[0] : undefined;
  const id =
    (isObject(tx) && isObject(tx.cdtrAgt) && isObject(tx.cdtrAgt.finInstnId) && tx.cdtrAgt.finInstnId.clrSysMmbId) ||
    undefined;
  return isObject(id) && typeof id.mmbId === 'string' ? id.mmbId : undefined;
}

/** incoming-serves-first-read: per beneficiary, the first incoming payment it read. */
const firstRead = new Map<string, Record<string, unknown>>();
/** Payments their beneficiary has read: only idempotency-forgets-delivered, in routes/payments.ts, asks. */
export const deliveredToBeneficiary = new WeakSet<Transfer>();

async function readIncoming(
  ctx: ServiceContext,
  req: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { client, faults, dialect } = authenticate(ctx, req, 'incomingPayment');
  checkAccept(req);
  const transfer = ctx.store.get(req.params.id);
  // The beneficiary (memberId = creditor agent) reads it; its payer where the dialect lets it (the spec
  // gives this view to the beneficiary and does not say the payer is refused it); anyone else gets 404.
  if (transfer?.kind !== 'payment') throw errorsOf.notFound('unknown incoming payment');
  // incoming-gone-after-refund: the defect drops the beneficiary's view once part of the payment went back.
  if (faults.has('incoming-gone-after-refund') && transfer.refundedCents > 0)
    throw errorsOf.notFound('unknown incoming payment');
  const payerReads =
    transfer.clientId === client.clientId &&
    (dialect.payerIncomingRead === 'allow' || faults.has('incoming-readable-by-payer'));
  // incoming-readable-by-bank: the defect takes a sort code's first two digits for the institution.
  const sameBank =
    faults.has('incoming-readable-by-bank') &&
    client.memberId !== null &&
    client.memberId.slice(0, 2) === creditorMemberId(readMessage(transfer.message))?.slice(0, 2);
  if (
    transfer.beneficiaryClientId !== client.clientId &&
    !payerReads &&
    !sameBank &&
    !faults.has('incoming-readable-by-any-client')
  )
    throw errorsOf.notFound('unknown incoming payment');
  if (transfer.beneficiaryClientId === client.clientId) deliveredToBeneficiary.add(transfer);
  // The payment as ISO 20022's pacs.008.001.08 defines it: members no definition knows were never part of it.
  let stored = isoPrunedContent('pacs.008.001.08', readMessage(transfer.message));
  if (faults.has('incoming-serves-first-read') && transfer.beneficiaryClientId === client.clientId) {
    stored = firstRead.get(client.clientId) ?? stored;
    firstRead.set(client.clientId, stored);
  }
  const masked =
    faults.has('incoming-masks-large-sender') && transfer.amountCents > 100_000 ? withDebtorMasked(stored) : stored;
  const message = faults.has('incoming-omits-debtor') ? withoutDebtor(masked) : masked;
  // §4.4 names the message (pacs.008.001.08), not its JSON root: the dialect spells it.
  return reply.code(200).send({ [dialect.incomingRoot]: message });
}

export function registerIncomingRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get<{ Params: { id: string } }>('/payments/pacs008/v08/:id', (req, reply) => readIncoming(ctx, req, reply));
}
