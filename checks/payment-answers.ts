/**
 * The named checks on a payment's answers that the flows and specs share: the msgId echo, the id a
 * test goes on with, a status history that never moves back, a business refusal (either way the
 * spec allows), and the incoming view in its declared shape. The client sends and reads; these judge.
 */
import type { Exchange } from '../transport/http';
import { is2xx, is4xx, isServerError } from '../messages/http-status';
import {
  dataOf,
  type IdFields,
  createdIdOf,
  idOf,
  idRemedy,
  incomingMessage,
  type MsgIdEchoName,
  msgIdEchoes,
} from '../messages/answers';
import type { Pacs008Message } from '../messages/pacs008';
import type { Profile, RefusalClass, StatusClass } from '../profile/profile';
import { judgedAgainst, statusChange } from '../profile/status-vocabulary';
import { answered, answerOf, brief, type Verdicts } from './verdicts';
import { refusedAs, type RefusalOptions } from './refusals';
import { namesAnId, neverServerError, statusPath } from './answers';
import { readingOf } from '../ledger/readings';

/** What these checks read of the client (client/api.ts Api has it): the profile, and the fields that name a payment. */
export interface AnswerContext extends IdFields {
  readonly profile: Profile;
}

/** A final status a flow reached (client/flows/payment.ts FinalStatus), seen structurally: checks sit below the client. */
interface Final {
  txSts: string;
  statusClass: StatusClass;
  history: string[];
  reasonCodes?: readonly string[];
}

/**
 * The named check of a msgId echo: every echo member the data object carries equals `msgId`, and it
 * carries at least one (`judge`: P8-03 checks it, RTR-37 and RFD-07 assume it of answers the spec does
 * not show). Its name is the profile's assumption (P8-32) only where the echo itself is documented.
 */
export function echoesMsgId(
  verdicts: Verdicts,
  api: AnswerContext,
  exchange: Exchange,
  msgId: string,
  judge: { rule: string; assumed?: boolean },
): boolean {
  const echoes = msgIdEchoes(dataOf(exchange));
  const names = Object.keys(echoes) as MsgIdEchoName[];
  const expectation = {
    ok: names.length > 0 && names.every((name) => echoes[name] === msgId),
    expected: `paymentId or paymentsId = ${JSON.stringify(msgId)}`,
    received: JSON.stringify(dataOf(exchange) ?? null),
  };
  const what = 'the data object echoes grpHdr.msgId (paymentId or paymentsId)';
  const ok = judge.assumed
    ? verdicts.assume(judge.rule, what, expectation)
    : verdicts.check(judge.rule, what, expectation);
  const declared = api.profile.expectations.msgIdEcho ?? 'either';
  if (ok && !judge.assumed && declared !== 'either') {
    verdicts.assume('P8-32', `the echo is named ${declared}`, {
      ok: names.includes(declared),
      expected: declared,
      received: names.join(' and '),
    });
  }
  return ok;
}

/**
 * The id of a submission a test needs to go on. When the answer names none, the test is blocked by
 * P8-02 (its own test reports it), with what to declare if the server uses another name.
 */
export function requireId(
  api: AnswerContext,
  verdicts: Verdicts,
  exchange: Exchange,
  what = 'the answer names the payment',
): string {
  const id = idOf(api, exchange);
  if (id !== undefined) return id;
  verdicts.gate(
    'P8-02',
    `${what} (data.paymentsServiceId)`,
    { ok: false, ...answered(exchange) },
    idRemedy(api, exchange),
  );
  throw new Error('unreachable');
}

/**
 * STS-10 on a status history: after §3's final codes (ACCC, RJTC) only a final code of the same class
 * comes (ACCC, then ISO's ACSC; §3 shows no transitions). A change after a code only
 * the profile or ISO's table took as final is no violation: it shows that code is interim for this
 * target, which the profile's pending codes should list (STS-14, an assumption).
 */
export function checkMonotonic(verdicts: Verdicts, api: AnswerContext, history: readonly string[]): boolean {
  const expectations = api.profile.expectations;
  for (let i = 1; i < history.length; i++) {
    const before = judgedAgainst(history.slice(0, i), expectations)!;
    const change = statusChange(before, history[i]!, expectations);
    if (change === 'lesson')
      verdicts.assume('STS-14', `${before} is followed by another code: it is one of the profile’s pending codes`, {
        ok: false,
        expected: `${before} among ${expectations.statusCodes.pending.join(', ')}`,
        received: history.slice(0, i + 1).join(' → '),
      });
    if (change === 'violation')
      return verdicts.check('STS-10', 'a final status (ACCC, RJTC) stays final, and of its class', {
        ok: false,
        expected: `after ${before}: ${before}, or another final code of its class`,
        received: history.join(' → '),
      });
  }
  return verdicts.check('STS-10', 'a final status (ACCC, RJTC) stays final, and of its class', { ok: true });
}

export interface BusinessRefusalOptions {
  field?: string;
  /** Follows an accepted message to its final status (client/flows/payment.ts awaitFinalStatus, as the client that sent it). */
  settle: (id: string) => Promise<Final>;
  /** What must be refused, for the check's title. */
  what?: string;
  /**
   * A value ISO 20022 allows and only the spec excludes (cases/pacs008-cases.ts, oracle either): a
   * target may refuse it as invalid or as a business rule, so a 4xx of either class passes, and the
   * way it comes asks nothing of the profile (no ERR-01).
   */
  either?: true;
  /** Only the documented refusal (RefusalOptions.documentedOnly): not the profile's status, error body or way. */
  documentedOnly?: true;
  /**
   * The assumption that blocks the test when a 2xx names no id, in data or a Location header, whose
   * status could show the rejection (RTR-37, RFD-07): POST pacs004 and pacs007, whose answer the spec
   * does not show. Absent: §2.3 documents data.paymentsServiceId, and an answer naming none fails `rule`.
   */
  unnamedBy?: 'RTR-37' | 'RFD-07';
}

/** A pacs.008 field case (cases/pacs008-cases.ts), as its judge reads it. */
export interface FieldCase {
  name: string;
  rules: readonly string[];
  field: string;
  oracle: 'validation' | 'business' | 'either';
}

/**
 * A field case's mutant refused as its oracle says, under each of its rules: a 4xx for a schema row;
 * for an amount or currency row a business refusal, a 4xx or a 2xx whose pacs.002 ends rejected;
 * either class for a value ISO allows and only the spec excludes.
 */
export async function fieldCaseRefused(
  api: AnswerContext,
  verdicts: Verdicts,
  c: FieldCase,
  mutant: Exchange,
  settle: BusinessRefusalOptions['settle'],
  { documentedOnly }: Pick<RefusalOptions, 'documentedOnly'> = {},
): Promise<void> {
  const what = `a submission with ${c.name} is refused`;
  const only = documentedOnly ? { documentedOnly } : {};
  for (const rule of c.rules) {
    if (c.oracle === 'validation')
      verdicts.check(rule, what, refusedAs(mutant, 'validation', { field: c.field, ...only }));
    else
      await expectBusinessRefusal(api, verdicts, rule, mutant, {
        field: c.field,
        settle,
        what,
        ...(c.oracle === 'either' ? { either: true as const } : {}),
        ...only,
      });
  }
}

/**
 * A business-rule refusal may come two ways (the spec shows neither for this case): a 4xx at
 * submission, or 2xx and then a pacs.002 that ends rejected (§7: "rejection ... reported in txSts").
 * Either passes `rule`; which one the target uses is the profile's assumption (ERR-01 via
 * expectations.businessRejection). Evidence beats assumption: a 2xx whose status settles accepted is
 * a documented violation, whatever the profile expected.
 */
export async function expectBusinessRefusal(
  api: AnswerContext,
  verdicts: Verdicts,
  rule: string,
  exchange: Exchange,
  options: BusinessRefusalOptions,
): Promise<'http' | 'status' | 'failed'> {
  const what = options.what ?? 'the request is refused';
  const expected = api.profile.expectations.businessRejection ?? 'either';
  const status = exchange.response.status;
  if (is4xx(status)) {
    verdicts.check(rule, what, refusedAs(exchange, options.either ? ['validation', 'business'] : 'business', options));
    if (options.either || options.documentedOnly) return 'http';
    verdicts.assume('ERR-01', 'a business refusal comes the way the profile expects', {
      ok: expected !== 'status',
      expected: '2xx, then a rejected pacs.002',
      received: `HTTP ${status} at submission`,
    });
    return 'http';
  }
  if (isServerError(status)) verdicts.refusalCase('serverError');
  if (
    !verdicts.check(rule, what, {
      ok: is2xx(status),
      expected: 'a 4xx refusal, or a 2xx whose status ends rejected',
      ...answered(exchange),
    })
  )
    return 'failed';
  const id = createdIdOf(api, exchange);
  const named = namesAnId({ paymentsServiceId: id, exchange });
  const namesId = `${what}: the accepted message names an id whose status can show the rejection`;
  if (options.unnamedBy) verdicts.require(options.unnamedBy, namesId, named);
  else if (!verdicts.check(rule, namesId, named)) return 'failed';
  let final: Awaited<ReturnType<BusinessRefusalOptions['settle']>>;
  try {
    final = await options.settle(id!);
  } catch (error) {
    // Accepted, and no status that shows it rejected: for the target's tally an acceptance (a mock
    // that takes everything and serves no status of it validates nothing a test can see).
    verdicts.refusalCase('accepted');
    throw error;
  }
  // Accepted at submission and refused by its status: counted once its status is known.
  if (final.statusClass === 'rejected' || final.statusClass === 'accepted')
    verdicts.refusalCase(final.statusClass === 'rejected' ? 'refused' : 'accepted');
  verdicts.check(rule, `${what}: accepted at submission, it ends rejected`, {
    ok: final.statusClass === 'rejected',
    expected: 'a rejected txSts',
    received: statusPath(final),
  });
  if (options.either || options.documentedOnly) return 'status';
  verdicts.assume('ERR-01', 'a business refusal comes the way the profile expects', {
    ok: expected !== 'http',
    expected: 'a 4xx at submission',
    received: `2xx, then pacs.002 ${final.txSts}`,
  });
  return 'status';
}

/** A read of a cancellation's camt.029 (client/flows/cancellation.ts Resolution), seen structurally: checks sit below the client. */
export interface CancellationRead {
  exchange: Exchange;
  /** What its status means in the profile's vocabulary (messages.resolution.confirmed / rejected). */
  outcome: 'confirmed' | 'rejected' | 'other';
}

/**
 * A cancellation that must not go through (a payment the caller does not have) may be refused two
 * ways: a 4xx at once, or accepted and rejected in its camt.029, the flow table's own channel
 * ("camt.029.001.09 for a rejection"), once the scheme's service answers (§1 rules 2 and 4).
 * `resolve` reads the camt.029 of the id the accepted answer names, else of the payment's own, until
 * it is served. A confirmed one, or none served, fails `rule`; a status the profile's vocabulary does
 * not know, or an answer naming no id where the payment has none either, is CXL-06's.
 */
export async function expectCancellationRefused(
  api: AnswerContext,
  verdicts: Verdicts,
  rule: string,
  exchange: Exchange,
  options: {
    refusal: RefusalClass | readonly RefusalClass[];
    what: string;
    /** The camt.029 by the id the answer named, else by the payment's own; undefined when there is neither. */
    resolve: (id: string | undefined) => Promise<CancellationRead | undefined>;
  },
): Promise<void> {
  const { what } = options;
  if (!is2xx(exchange)) {
    verdicts.check(rule, what, refusedAs(exchange, options.refusal));
    return;
  }
  const read = await options.resolve(createdIdOf(api, exchange));
  // The camt.056 answer's payload is "not shown": one naming no id, of a payment with none to read by,
  // is the declared answer shape's miss (CXL-06), not a cancellation proven to go through.
  if (!read) {
    verdicts.assume(
      'CXL-06',
      `${what}: the accepted camt.056 answer names the cancellation whose camt.029 shows the rejection`,
      {
        ok: false,
        expected: 'a 4xx refusal, or data.paymentsServiceId',
        received: brief(exchange),
      },
    );
    return;
  }
  if (read.outcome === 'other' && is2xx(read.exchange)) {
    verdicts.assume('CXL-06', 'the camt.029 status is one of the profile’s (messages.resolution)', {
      ok: false,
      expected: `one of ${[...api.profile.messages.resolution.confirmed, ...api.profile.messages.resolution.rejected].join(', ')}`,
      ...answered(read.exchange),
    });
    return;
  }
  verdicts.check(rule, `${what}: accepted at submission, its camt.029 rejects it`, {
    ok: read.outcome === 'rejected',
    expected: 'a 4xx refusal, or a served camt.029 that rejects the cancellation',
    ...answered(read.exchange),
    // The camt.029's verdict first: a long one's status sits past the body's excerpt.
    ...(read.outcome === 'confirmed'
      ? { received: `a camt.029 that confirms the cancellation: ${answerOf(read.exchange)}` }
      : {}),
  });
}

/**
 * A request the spec leaves open whose refusal, where a target refuses it, is a business refusal (a
 * reused rtrId, RTR-40): answered as the profile reads it (ledger/readings.ts). Never a 5xx (ROB-03,
 * documented); then, as the reading's field says, refused (a 4xx at submission, or a 2xx whose status
 * ends rejected) or taken (a 2xx that does not end rejected); `either` asks nothing more.
 */
export async function businessAnsweredAsRead(
  api: AnswerContext,
  verdicts: Verdicts,
  rule: string,
  exchange: Exchange,
  options: Omit<BusinessRefusalOptions, 'field'>,
): Promise<void> {
  const what = options.what ?? 'the request';
  verdicts.check('ROB-03', `${what}: never a 5xx`, neverServerError(exchange));
  const reading = readingOf(api.profile.expectations, rule);
  if (reading === 'either' || isServerError(exchange.response.status)) return;
  const id = is2xx(exchange) ? createdIdOf(api, exchange) : undefined;
  const final = id === undefined ? undefined : await options.settle(id);
  const refused = is4xx(exchange) || final?.statusClass === 'rejected';
  const answer = `HTTP ${exchange.response.status}${final ? `, then pacs.002 ${statusPath(final)}` : ''}`;
  verdicts.assume(rule, `${what}: ${reading === 'refuse' ? 'refused' : 'accepted'}, as the profile reads it`, {
    ok: reading === 'refuse' ? refused : !refused,
    expected:
      reading === 'refuse' ? 'a 4xx, or a 2xx whose status ends rejected' : 'a 2xx whose status does not end rejected',
    received: answer,
    answer: exchange,
  });
}

/**
 * The named gate of every check that reaches a documented rule through an incoming read: a 2xx in
 * another shape than the declared one blocks the test by INC-05, never fails the rule behind it.
 */
export function incomingTransaction(
  api: AnswerContext,
  verdicts: Verdicts,
  read: Exchange,
): Pacs008Message['fitoFICstmrCdtTrf']['cdtTrfTxInf'][number] {
  const seen = incomingMessage(api, read)?.cdtTrfTxInf?.[0];
  verdicts.gate(
    'INC-05',
    `the incoming view is the pacs.008 under its root ${api.profile.messages.incomingPayment.root}`,
    { ok: seen !== undefined, ...answered(read) },
  );
  return seen!;
}
