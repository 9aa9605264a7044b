/**
 * §2.4's status report of a payment, judged rule by rule (STS-01 to STS-07): its root and shape, its
 * group header, each echo of the payment it reports on, its status code.
 */
import type { Exchange } from '../transport/http';
import { firstStatusEntry } from '../messages/answers';
import { paymentIds, type Pacs008Message } from '../messages/pacs008';
import { pacs002Schema } from '../messages/schemas/pacs002';
import { ISO_STATUS_CODES } from '../profile/status-vocabulary';
import { equals } from './answers';
import { checkSchema, reportShaped } from './schema-check';
import { answered, type Verdicts } from './verdicts';

/** The rules checkStatusReport judges: a test that calls it cites them. */
export const REPORT_RULES = ['STS-01', 'STS-02', 'STS-03', 'STS-04', 'STS-05', 'STS-06', 'STS-07', 'STS-17'] as const;

/**
 * A pacs.002 answer (200) checked rule by rule against the payment it reports on: each echo is its own
 * rule, so one wrong echo fails only itself. `when` names the read in each check's title (a report
 * right after submission, or the final one, which a target may build elsewhere).
 */
export function checkStatusReport(verdicts: Verdicts, exchange: Exchange, message: Pacs008Message, when = ''): void {
  const body = exchange.response.json as { fitoFIPmtStsRpt?: { grpHdr?: Record<string, unknown> } } | undefined;
  verdicts.check('STS-01', `the report${when} has the root fitoFIPmtStsRpt`, {
    ok: typeof body?.fitoFIPmtStsRpt === 'object',
    expected: 'root fitoFIPmtStsRpt',
    ...answered(exchange),
  });
  checkSchema(
    verdicts,
    'STS-01',
    pacs002Schema,
    exchange.response.json,
    `the report${when} has the documented shape of §2.4`,
  );
  const grpHdr = body?.fitoFIPmtStsRpt?.grpHdr;
  verdicts.check('STS-02', `grpHdr.msgId and grpHdr.creDtTm are present${when}`, {
    ok: typeof grpHdr?.msgId === 'string' && typeof grpHdr?.creDtTm === 'string',
    expected: 'both strings',
    received: JSON.stringify(grpHdr ?? null),
  });
  const entry = firstStatusEntry(exchange.response.json);
  const orgnlGrpInf = entry?.orgnlGrpInf as Record<string, unknown> | undefined;
  const ids = paymentIds(message);
  verdicts.check(
    'STS-03',
    `orgnlGrpInf.orgnlMsgId echoes grpHdr.msgId${when}`,
    equals(orgnlGrpInf?.orgnlMsgId, ids.msgId),
  );
  verdicts.check('STS-04', `orgnlEndToEndId echoes endToEndId${when}`, equals(entry?.orgnlEndToEndId, ids.endToEndId));
  verdicts.check('STS-05', `orgnlTxId echoes txId${when}`, equals(entry?.orgnlTxId, ids.txId));
  verdicts.check('STS-06', `orgnlGrpInf.orgnlMsgNmId names a pacs.008 message${when}`, {
    ok: /^pacs\.008(\.\d{3}\.\d{2})?$/.test(String(orgnlGrpInf?.orgnlMsgNmId)),
    expected: 'pacs.008 or pacs.008.001.NN',
    received: String(orgnlGrpInf?.orgnlMsgNmId),
  });
  verdicts.check('STS-07', `txSts is an ISO 20022 status code${when}`, {
    ok: ISO_STATUS_CODES.has(String(entry?.txSts)),
    expected: 'an ISO 20022 ExternalPaymentTransactionStatus code',
    received: String(entry?.txSts),
  });
  checkAcceptanceTime(verdicts, exchange, when);
  checkCreationTime(verdicts, exchange, when);
}

/** A date-time written to the minute, as ISO 8601 allows: a creation time read up to a minute early. */
const MINUTE_MS = 60_000;
const hasOffset = (time: string): boolean => /(?:Z|[+-]\d{2}:?\d{2})$/i.test(time);

/**
 * STS-17 on one report: the acceptance it tells of happened before the report was made, both times
 * by the target's one clock. Judged where it gives both and both read alike (each with an offset,
 * or neither): a date alone, or one time local and the other not, is not compared.
 */
export function checkAcceptanceTime(verdicts: Verdicts, exchange: Exchange, when = ''): void {
  const created = (exchange.response.json as { fitoFIPmtStsRpt?: { grpHdr?: { creDtTm?: unknown } } } | undefined)
    ?.fitoFIPmtStsRpt?.grpHdr?.creDtTm;
  const accepted = firstStatusEntry(exchange.response.json)?.accptncDtTm;
  if (typeof created !== 'string' || typeof accepted !== 'string' || hasOffset(created) !== hasOffset(accepted)) return;
  const [createdMs, acceptedMs] = [Date.parse(created), Date.parse(accepted)];
  if (Number.isNaN(createdMs) || Number.isNaN(acceptedMs) || !accepted.includes('T')) return;
  verdicts.check('STS-17', `accptncDtTm is no later than the report’s creDtTm${when}`, {
    ok: acceptedMs <= createdMs + MINUTE_MS,
    expected: `no later than ${created} (a minute's slack for a time written to the minute)`,
    received: accepted,
  });
}

/**
 * STS-02's "creation time" on one report: made no later than the answer that carries it, by the
 * target's one clock (its Date header, RFC 9110 §6.6.1: "the date and time at which the message was
 * originated"). Judged where the answer has a Date and the creation time an offset; any earlier time
 * passes (a report may be made once and served again). A second of slack for Date's whole seconds,
 * a minute for a time written to the minute.
 */
export function checkCreationTime(verdicts: Verdicts, exchange: Exchange, when = ''): void {
  const created = (exchange.response.json as { fitoFIPmtStsRpt?: { grpHdr?: { creDtTm?: unknown } } } | undefined)
    ?.fitoFIPmtStsRpt?.grpHdr?.creDtTm;
  const sentAt = exchange.response.headers.date;
  if (typeof created !== 'string' || !created.includes('T') || !hasOffset(created) || sentAt === undefined) return;
  const [createdMs, sentMs] = [Date.parse(created), Date.parse(sentAt)];
  if (Number.isNaN(createdMs) || Number.isNaN(sentMs)) return;
  verdicts.check('STS-02', `grpHdr.creDtTm is no later than the answer that carries it${when}`, {
    ok: createdMs <= sentMs + 1000 + MINUTE_MS,
    expected: `no later than the answer's Date, ${sentAt} (a minute's slack for a time written to the minute)`,
    received: created,
  });
}

/** The message a return or a refund is sent as, whose name its report gives (STS-06). */
const BACK_MESSAGES = {
  return: { name: 'pacs.004', pattern: /^pacs\.004(\.\d{3}\.\d{2})?$/ },
  refund: { name: 'pacs.007', pattern: /^pacs\.007(\.\d{3}\.\d{2})?$/ },
} as const;

/**
 * The report of a return or a refund (§4.3: the same operation "serves the status of payments, returns
 * and refunds"): §2.4's field types (STS-01); orgnlMsgId, "grpHdr.msgId of the original request", the
 * msgId of the pacs.004 or pacs.007 it reports on (STS-03); orgnlMsgNmId, "name of the original message
 * type", that message's (STS-06). Not its endToEndId and txId: neither message has both of its own
 * (§2.5 gives a return an rtrId; pacs.007's fields are not shown).
 */
export function checkReturnOrRefundReport(
  verdicts: Verdicts,
  exchange: Exchange,
  sent: { kind: keyof typeof BACK_MESSAGES; msgId: string | undefined },
  what: string,
): void {
  reportShaped(verdicts, exchange, what);
  if (exchange.response.status !== 200) return;
  const orgnlGrpInf = firstStatusEntry(exchange.response.json)?.orgnlGrpInf as Record<string, unknown> | undefined;
  if (sent.msgId !== undefined)
    verdicts.check(
      'STS-03',
      `${what}: orgnlGrpInf.orgnlMsgId echoes the grpHdr.msgId it was sent with`,
      equals(orgnlGrpInf?.orgnlMsgId, sent.msgId),
    );
  checkAcceptanceTime(verdicts, exchange, ` (${what})`);
  checkCreationTime(verdicts, exchange, ` (${what})`);
  const { name, pattern } = BACK_MESSAGES[sent.kind];
  verdicts.check('STS-06', `${what}: orgnlGrpInf.orgnlMsgNmId names a ${name} message`, {
    ok: pattern.test(String(orgnlGrpInf?.orgnlMsgNmId)),
    expected: `${name} or ${name}.001.NN`,
    received: String(orgnlGrpInf?.orgnlMsgNmId),
  });
}

/** Every read of a payment answered 200, each §2.4's report of it (checkStatusReport): its echoes stay the payment's own. */
export function checkStatusReports(
  verdicts: Verdicts,
  reads: readonly { exchange: Exchange }[],
  message: Pacs008Message,
  when: string,
): void {
  for (const read of reads)
    if (read.exchange.response.status === 200) checkStatusReport(verdicts, read.exchange, message, when);
}
