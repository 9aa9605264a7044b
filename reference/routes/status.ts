/** GET pacs002 v12 and v10 (spec §2.4, §4.3): status of payments, returns and refunds. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { authenticate, checkAccept, headerValue } from '../headers';
import { errorsOf } from '../errors';
import { createTransfer, storedMessage } from '../ledger-of-payments/store';
import { statusReport } from '../status-report';
import { lateFaultMs } from '../config';
import { namedFaults, routeGone } from './submit';
import { submittedOnVersion } from './payments';
import type { Transfer } from '../ledger-of-payments/store';
import type { FaultSet } from '../faults';
import type { Dialect } from '../dialects';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

async function readStatus(
  ctx: ServiceContext,
  req: IdRequest,
  reply: FastifyReply,
  version: 'v12' | 'v10',
): Promise<FastifyReply> {
  const { client, faults, dialect } = authenticate(ctx, req, 'paymentStatus');
  checkAccept(req);
  if (faults.has('status-requires-sca') && !headerValue(req, 'sca-token')) throw errorsOf.missingHeader('sca-token');
  const transfer = ctx.store.get(req.params.id);
  const nowMs = Date.now();
  if (!transfer) {
    if (!faults.has('status-unknown-id-200')) throw errorsOf.notFound('unknown paymentsServiceId');
    const invented = createTransfer({
      kind: 'payment',
      id: req.params.id,
      clientId: client.clientId,
      msgId: req.params.id,
      endToEndId: req.params.id,
      txId: req.params.id,
      messageName: 'pacs.008.001.08',
      amountCents: 0,
      requestHash: '',
      message: storedMessage('{}', null),
      response: {},
      createdAtMs: nowMs,
    });
    return reply.code(200).send(statusReport(invented, dialect, faults, nowMs, { settlingMs: ctx.config.settlingMs }));
  }
  // Only the submitting client reads a status (README: another client's resource is 404); the
  // beneficiary reads an incoming payment with GET pacs008/v08 instead.
  // back-status-readable-by-any-client: the defect checks whose payment it is, not whose return or refund.
  const mayRead =
    transfer.clientId === client.clientId ||
    faults.has('status-cross-client-readable') ||
    (transfer.kind !== 'payment' && faults.has('back-status-readable-by-any-client')) ||
    staleToBeneficiary(transfer, client.clientId, faults) ||
    swappedToBeneficiary(transfer, client.clientId, faults);
  if (!mayRead) throw errorsOf.notFound('unknown paymentsServiceId');
  const v10 = version === 'v10';
  if (
    transfer.kind === 'return' &&
    (faults.has('return-status-not-served') || (v10 && faults.has('return-status-not-served-v10')))
  )
    throw errorsOf.notFound('unknown paymentsServiceId');
  if (
    transfer.kind === 'refund' &&
    (faults.has('refund-status-not-served') || (v10 && faults.has('refund-status-not-served-v10')))
  )
    throw errorsOf.notFound('unknown paymentsServiceId');
  // Status codes follow the dialect of the client that submitted the transfer (it is the caller unless
  // status-cross-client-readable lets another client read it).
  const submitterDialect = ctx.registry.get(transfer.clientId)?.dialect ?? dialect;
  const report = statusReport(transfer, submitterDialect, faults, nowMs, {
    settlingMs: ctx.config.settlingMs,
    revertAfterMs: lateFaultMs(ctx.config, 'status-reverts-later'),
    renameAfterMs: lateFaultMs(ctx.config, 'report-renamed-later'),
  });
  const body = withReportFaults(report, transfer, faults, nowMs, submitterDialect, client.clientId);
  // status-v10-first-answer: the defect's v10 route serves, per client and id, the first report it built.
  if (v10 && faults.has('status-v10-first-answer')) {
    const key = `${client.clientId}|${transfer.id}`;
    if (!firstV10Answer.has(key)) firstV10Answer.set(key, body);
    return reply.code(200).send(firstV10Answer.get(key));
  }
  return reply.code(faults.has('status-answers-203') ? 203 : 200).send(body);
}

/** status-v10-first-answer: per client and id, the first report GET pacs002/v10 served. */
const firstV10Answer = new Map<string, unknown>();

/** status-stale-to-beneficiary: the defect serves the beneficiary's institution a payment's status it never updates. */
const staleToBeneficiary = (transfer: Transfer, callerId: string, faults: FaultSet): boolean =>
  faults.has('status-stale-to-beneficiary') && readByBeneficiary(transfer, callerId);

/** status-beneficiary-swaps-ids: the defect serves the beneficiary's institution a report built from its received copy, two echoes swapped. */
const swappedToBeneficiary = (transfer: Transfer, callerId: string, faults: FaultSet): boolean =>
  faults.has('status-beneficiary-swaps-ids') && readByBeneficiary(transfer, callerId);

const readByBeneficiary = (transfer: Transfer, callerId: string): boolean =>
  transfer.kind === 'payment' && transfer.beneficiaryClientId === callerId && transfer.clientId !== callerId;

/** How long the refund-reopens-payment fault shows a refunded payment pending again, from the refund's arrival. */
const REOPENED_MS = 2_000;

/** Faults of a report that turn on what statusReport does not know: the path version a payment was made on, a refund's arrival. */
function withReportFaults(
  report: Record<string, unknown>,
  transfer: Transfer,
  faults: FaultSet,
  nowMs: number,
  dialect: Dialect,
  callerId: string,
): Record<string, unknown> {
  const entry = (report.fitoFIPmtStsRpt as { txInfAndSts: Record<string, unknown>[] }).txInfAndSts[0]!;
  if (staleToBeneficiary(transfer, callerId, faults)) {
    entry.txSts = dialect.interimStatus;
    delete entry.accptncDtTm;
  }
  if (
    faults.has('refund-reopens-payment') &&
    transfer.phase === 'accepted' &&
    transfer.lastRefundAtMs !== null &&
    nowMs - transfer.lastRefundAtMs < REOPENED_MS
  )
    entry.txSts = dialect.interimStatus;
  if (
    faults.has('refund-report-acceptance-date-only') &&
    transfer.kind === 'refund' &&
    typeof entry.accptncDtTm === 'string'
  )
    entry.accptncDtTm = entry.accptncDtTm.slice(0, 10);
  if (swappedToBeneficiary(transfer, callerId, faults))
    [entry.orgnlEndToEndId, entry.orgnlTxId] = [entry.orgnlTxId, entry.orgnlEndToEndId];
  // status-txid-after-money-back: the defect echoes the latest refund's or return's record once money went back.
  if (
    faults.has('status-txid-after-money-back') &&
    transfer.kind === 'payment' &&
    (transfer.refundedCents > 0 || transfer.returned)
  )
    entry.orgnlTxId = `${String(entry.orgnlTxId)}-BACK`;
  if (faults.has('status-v08-names-pacs002') && transfer.kind === 'payment' && submittedOnVersion(transfer) === 'v08')
    (entry.orgnlGrpInf as Record<string, unknown>).orgnlMsgNmId = 'pacs.002.001.10';
  return report;
}

export function registerStatusRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  app.get<{ Params: { id: string } }>('/payments/pacs002/v12/:id', (req, reply) => readStatus(ctx, req, reply, 'v12'));
  app.get<{ Params: { id: string } }>('/payments/pacs002/v10/:id', (req, reply) => {
    if (namedFaults(ctx, req).has('pacs002-v10-missing')) throw routeGone();
    return readStatus(ctx, req, reply, 'v10');
  });
}
