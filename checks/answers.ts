/**
 * The named checks a test makes about an answer. Each one carries its rule — what passes, and the
 * words a reader of a failure sees — so a spec says which check it makes, under which ledger rule and
 * in which mode (verdicts.check, require or assume), and never spells a status range or an
 * expectation of its own. A check that one test alone makes stays in that test.
 *
 * Most return an Expectation for Verdicts to record; twinAccepted, the valid twin's precondition,
 * records itself: it is written one way for every case table. The refusals are refusals.ts's.
 */
import type { Exchange } from '../transport/http';
import { isJsonAnswer } from '../transport/http';
import { is2xx, is4xx, isServerError } from '../messages/http-status';
import { acceptanceStatusOf, type AcceptedOperation, type Expectations, type StatusClass } from '../profile/profile';
import { classifyStatus, finalityOf, isFinalStatus, isProfileCode } from '../profile/status-vocabulary';
import { LOCAL_DATE_TIME } from '../messages/schemas/submission-response';
import { TX_CANCELLATION_STATUS } from '../messages/schemas/camt029';
import { notificationCarries, servesMessage } from '../messages/answers';
import { answered, answerOf, type Check, type Expectation, notRefused, type Verdicts } from './verdicts';
import { readingOf, type Reading } from '../ledger/readings';
import { scaReadingGate } from './refusals';

// ── the answer's status ────────────────────────────────────────────────────────────────────────

/** A documented status code. */
export function hasStatus(exchange: Exchange, allowed: readonly number[]): Expectation {
  return {
    ok: allowed.includes(exchange.response.status),
    expected: `HTTP ${allowed.join(' or ')}`,
    ...answered(exchange),
  };
}

/**
 * Any 2xx: acceptance where the spec shows no status code. The exact code, where the profile reads
 * one (`assumed`), is that assumption's, judged once the answer is accepted.
 */
export const acceptedAnswer = (
  exchange: Exchange,
  assumed?: { rule: string; status: number | readonly number[] },
): Check => {
  const statuses = assumed ? ([] as number[]).concat(assumed.status) : [];
  return {
    ok: is2xx(exchange),
    expected: 'a 2xx',
    ...answered(exchange),
    ...(assumed
      ? {
          after: (verdicts: Verdicts) =>
            verdicts.assume(assumed.rule, `the answer is HTTP ${statuses.join(' or ')}`, {
              ok: statuses.includes(exchange.response.status),
              expected: `HTTP ${statuses.join(' or ')}`,
              received: `HTTP ${exchange.response.status}`,
            }),
        }
      : {}),
  };
};

/**
 * A valid message in a shape the profile declares (a message whose fields the spec does not show) is
 * accepted: a 2xx, or the documented `status`. A 4xx blocks the test by `assumption`, as the target
 * may spell the message otherwise, which that assumption's own test reports.
 */
export const acceptedInDeclaredShape = (exchange: Exchange, assumption: string, status?: readonly number[]): Check => ({
  ...(status ? hasStatus(exchange, status) : acceptedAnswer(exchange)),
  before: (verdicts, what) => verdicts.gate(assumption, what, notRefused(exchange)),
});

/**
 * The 2xx the profile says an accepted camt.056, pacs.004 or pacs.007 gets (§4.4 gives none; the
 * assumption of the operation's shape rule: CXL-06, RTR-37, RFD-07).
 */
export const acceptedAs = (
  exchange: Exchange,
  op: AcceptedOperation,
  expectations: Pick<Expectations, 'acceptanceStatus'>,
): Expectation => hasStatus(exchange, acceptanceStatusOf(expectations, op));

/**
 * A Location header, where the answer sends one, names the resource the answer names (RFC 9110
 * §10.2.2; a 202's status monitor, §15.3.3): its path ends in the id. No header, or no id to compare
 * with, holds.
 */
export const locationNames = (exchange: Exchange, id: string | undefined): Expectation => {
  const location = exchange.response.headers.location;
  if (location === undefined || id === undefined) return { ok: true };
  let last: string | undefined;
  try {
    const segments = new URL(location, exchange.request.url).pathname.split('/').filter(Boolean);
    last = decodeURIComponent(segments.at(-1) ?? '');
  } catch {
    last = undefined;
  }
  return { ok: last === id, expected: `a Location whose path ends in /${id}`, received: `Location: ${location}` };
};

/** Any 4xx: a refusal whose code the spec does not show. */
export const refusedAnswer = (exchange: Exchange): Expectation => ({
  ok: is4xx(exchange),
  expected: 'a 4xx refusal',
  ...answered(exchange),
});

/** An answer of either kind, accepted (2xx) or refused (4xx), where the spec leaves which one open. */
export const acceptedOrRefused = (exchange: Exchange): Expectation => ({
  ok: is2xx(exchange) || is4xx(exchange),
  expected: 'a 2xx or a 4xx',
  ...answered(exchange),
});

/** Whatever the answer, never a 5xx (§7: the service answers what it does not expect, it does not fail on it). */
export const neverServerError = (exchange: Exchange): Expectation => ({
  ok: !isServerError(exchange),
  expected: 'a 2xx or a 4xx, never a 5xx',
  ...answered(exchange),
});

/** A JSON answer (§4): Content-Type application/json (or +json) and a body that parsed. */
/**
 * The answer is JSON (Content-Type application/json or +json, a JSON body). `bodyOptional`: an answer
 * the spec does not show may carry no body at all, and an empty answer is no answer in another type.
 */
export const jsonAnswer = (exchange: Exchange, { bodyOptional = false } = {}): Expectation => {
  const type = exchange.response.headers['content-type'] ?? '';
  const empty = exchange.response.text === '';
  return {
    ok: (bodyOptional && empty) || isJsonAnswer(exchange),
    expected: `Content-Type application/json (or +json) and a JSON body${bodyOptional ? ', or no body' : ''}`,
    received: `${type || 'no Content-Type'} ${answerOf(exchange)}`,
    answer: exchange,
  };
};

// ── what the answer says ───────────────────────────────────────────────────────────────────────

/** An answer (a repeat's, a submission's) names `id`: the paymentsServiceId it carries is that one. */
export const namesId = (
  answer: { paymentsServiceId?: string | undefined; exchange: Exchange },
  id: string | undefined,
): Expectation => ({
  ok: answer.paymentsServiceId === id,
  expected: String(id),
  ...answered(answer.exchange),
});

/** A repeat names no other resource than the first: the first's id, or none at all. */
export const namesNoOther = (
  repeat: { paymentsServiceId?: string | undefined; exchange: Exchange },
  id: string | undefined,
): Expectation => ({
  ok: repeat.paymentsServiceId === undefined || repeat.paymentsServiceId === id,
  expected: `${id}, or no id`,
  ...answered(repeat.exchange),
});

/**
 * A value is the one expected, compared as JSON (a member, an object, an array) and shown so. An
 * object's members are unordered (RFC 8259 §4): a server that writes {"ccy","value"} sends the same amount.
 */
export const equals = (received: unknown, expected: unknown): Expectation => ({
  ok: sameJson(received, expected),
  expected: show(expected),
  received: show(received),
});

/**
 * The received value holds everything expected: an object each expected member (and may add members
 * of its own), an array each expected element in its place and no other, anything else the same value.
 * For what the spec names in a part of a message (the sender a payment named), not the whole of it.
 */
export const holds = (received: unknown, expected: unknown): Expectation => ({
  ok: contains(received, expected),
  expected: `${show(expected)} (members of its own allowed)`,
  received: show(received),
});

function sameJson(a: unknown, b: unknown): boolean {
  return contains(a, b) && contains(b, a);
}

function contains(received: unknown, expected: unknown): boolean {
  if (Array.isArray(expected))
    return (
      Array.isArray(received) &&
      received.length === expected.length &&
      expected.every((item, i) => contains(received[i], item))
    );
  if (expected !== null && typeof expected === 'object') {
    if (received === null || typeof received !== 'object' || Array.isArray(received)) return false;
    return Object.entries(expected).every(
      ([key, item]) =>
        item === undefined ||
        (Object.hasOwn(received, key) && contains((received as Record<string, unknown>)[key], item)),
    );
  }
  return received === expected;
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing (absent)';
  return JSON.stringify(value) ?? String(value);
}

/** A non-empty string (an id, a token). */
export const nonEmptyString = (value: unknown): Expectation => ({
  ok: typeof value === 'string' && value !== '',
  expected: 'a non-empty string',
  received: typeof value === 'string' ? JSON.stringify(value) : typeof value,
});

/** A local date-time (§2.3 creationDateTime): YYYY-MM-DD(T| )hh:mm[:ss[.fff]], without a zone. */
export const localDateTime = (value: unknown): Expectation => ({
  ok: typeof value === 'string' && new RegExp(LOCAL_DATE_TIME).test(value),
  expected: 'YYYY-MM-DDThh:mm[:ss[.fff]] (or a space for T) without a zone',
  received: String(value),
});

/** A notification arrived within the polling timeout. */
export const notificationArrived = (notification: unknown, timeoutMs: number): Expectation => ({
  ok: notification !== undefined,
  expected: `a notification within ${timeoutMs} ms`,
  received: 'none',
});

// The schema checks (conformsTo, dataObjectLikeSubmission) are schema-check.ts's: they load ajv, which
// the operation drivers importing this module must not pay for at a worker's start (a short-lived token
// of the worker's first test could expire meanwhile).

// ── statuses a flow reaches ────────────────────────────────────────────────────────────────────

/** A final status of a poll (client/flows/payment.ts FinalStatus), seen structurally: checks sit below the client. */
interface Final {
  txSts: string;
  statusClass: StatusClass;
  history: string[];
  /** stsRsnInf[].rsn.cd of the final read. */
  reasonCodes?: readonly string[];
}

/** "ACSP → RJTC (AM09)": the statuses a transaction went through, with the final one's reason codes. */
export const statusPath = (final: Pick<Final, 'history' | 'reasonCodes'>): string =>
  `${final.history.join(' → ')}${final.reasonCodes?.length ? ` (${final.reasonCodes.join(', ')})` : ''}`;

/** A notification carries the identifier to query its payment (INC-01), wherever its payload puts it. */
export const carriesId = (body: unknown, id: string | undefined): Expectation => ({
  ok: id !== undefined && notificationCarries(body, id),
  expected: `the identifier ${id ?? '(none named)'}`,
  received: (typeof body === 'string' ? body : (JSON.stringify(body) ?? 'no body')).slice(0, 300),
});

/**
 * The beneficiary is notified of no payment but those named (IDEM-02): a second payment shows as a
 * notification naming another id. How many notifications one payment gets (received, then settled; a
 * redelivery) §6 does not show, so no count is judged.
 */
export function notifiesOnly(bodies: readonly unknown[], ids: readonly string[]): Expectation {
  const others = bodies.filter((body) => !ids.some((id) => notificationCarries(body, id)));
  return {
    ok: others.length === 0,
    expected: `notifications naming ${ids.join(' or ')} only`,
    received: `${others.length} naming neither: ${others.map((b) => JSON.stringify(b)).join(', ')}`.slice(0, 600),
  };
}

/** A status was read at all (the answer named an id, its status was served or reached a final one); `answer` shows why not. */
/**
 * A submission's answer names the id the work goes on with (data.paymentsServiceId). For a return, a
 * refund or a cancellation the answer is not shown: its absence blocks what needs the id (RTR-37,
 * RFD-07), it breaks no rule.
 */
export const namesAnId = (answer: { paymentsServiceId?: string | undefined; exchange: Exchange }): Expectation => ({
  ok: answer.paymentsServiceId !== undefined,
  expected: 'data.paymentsServiceId',
  ...answered(answer.exchange),
});

export const statusServed = (read: unknown, answer?: Exchange): Expectation => ({
  ok: read !== undefined,
  ...(answer ? answered(answer) : {}),
});

/**
 * A txSts is one of the codes the profile lists for its class (the assumptions STS-14, STS-15,
 * STS-16). A final code the profile lists nowhere was taken as final on ISO's table once it held:
 * the words say so, since a later read may still show it interim.
 */
export const profileCode = (
  code: string | undefined,
  cls: StatusClass,
  expectations: Pick<Expectations, 'statusCodes'>,
): Expectation => ({
  ok: isProfileCode(code, cls, expectations),
  expected: expectations.statusCodes[cls].join(' or '),
  received:
    finalityOf(code, expectations) === 'iso'
      ? `${code}, which no status list of the profile names (final in ISO's table, it held while polled)`
      : String(code),
});

/** A txSts read of the class `cls`, final or not (a payment cancelled before its batch reads cancelled). */
export const readsAs = (
  code: string | undefined,
  cls: StatusClass,
  expectations: Pick<Expectations, 'statusCodes'>,
): Expectation => ({
  ok: classifyStatus(code, expectations) === cls,
  expected: `a ${cls} txSts`,
  received: String(code),
});

/** A txSts read of any class but `cls` (a payment whose cancellation was confirmed never reads accepted). */
export const notReadAs = (
  code: string | undefined,
  cls: StatusClass,
  expectations: Pick<Expectations, 'statusCodes'>,
): Expectation => ({
  ok: classifyStatus(code, expectations) !== cls,
  expected: `no ${cls} txSts`,
  received: String(code),
});

/**
 * The most of `exchanges` in flight at one moment, from when each was sent and how long its answer
 * took: a race the test means to run (IDEM-03's concurrent duplicates) ran only if this is 2 or more.
 */
export function mostInFlight(exchanges: readonly Pick<Exchange, 'startedAt' | 'durationMs'>[]): number {
  const edges = exchanges.flatMap((e) => {
    const start = Date.parse(e.startedAt);
    return [
      { at: start, step: 1 },
      { at: start + e.durationMs, step: -1 },
    ];
  });
  // An answer that came as another request left is not in flight with it: ends before starts.
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let most = 0;
  for (const edge of edges) {
    now += edge.step;
    most = Math.max(most, now);
  }
  return most;
}

/**
 * A duplicate refused because its first is still being processed (IDEM-03): §4.2 names no answer for
 * it, so any 4xx (409 in the IETF Idempotency-Key draft, 422, 423, 425), or a 503 asking to come back.
 * It counts only if the same duplicate, sent again once the first is done, gets the repeat's 200.
 */
export const refusedInFlight = (status: number): boolean => is4xx(status) || status === 503;

/** GET camt029 served the cancellation's camt.029 (rule 5): a 2xx with a body, not a 202 or 204 that says "not yet". */
export const camt029Served = (exchange: Exchange | undefined): Expectation => ({
  ok: exchange !== undefined && servesMessage(exchange),
  expected: 'a 2xx answer with the camt.029',
  received: exchange ? answerOf(exchange) : 'no read',
});

/**
 * A submission with a used msgId creates no second payment (IDEM-02): it is no 201, or one naming the
 * first payment (then IDEM-01's repeat answer is what it gets wrong). A 5xx proves nothing either way.
 */
export const noSecondPayment = (
  exchange: Exchange,
  namedId: string | undefined,
  firstId: string | undefined,
): Expectation => ({
  ok: exchange.response.status !== 201 || (namedId !== undefined && namedId === firstId),
  expected: '200 naming the first payment, or a refusal; no 201 for another',
  ...answered(exchange),
});

/**
 * Another client pays with a used msgId and txId (XCL-01): a payment of its own (201 naming another
 * id), or refused (a 4xx: whether a msgId is unique per client or across them, §2.2's "must uniquely
 * identify each request" does not say); never a repeat of the first client's payment (200, or naming it).
 */
export const ownPaymentOrRefused = (exchange: Exchange, namedId: string | undefined, firstId: string): Expectation => ({
  ok: (exchange.response.status === 201 && namedId !== firstId) || is4xx(exchange),
  expected: `HTTP 201 naming a payment of its own (not ${firstId}), or a 4xx`,
  ...answered(exchange),
});

/** A final status of the class `cls` (accepted, rejected...), with the history that led there. */
export const endsIn = (final: Final | undefined, cls: StatusClass): Expectation => ({
  ok: final?.statusClass === cls,
  expected: `an ${cls} txSts`,
  received: final ? statusPath(final) : 'no final status',
});

/**
 * The status of a return or refund is served until it is final, whichever way it ends (RTR-35, RFD-05:
 * "Status of a payment, a return or a refund is read with the pacs.002 status operation"): whether it
 * ends accepted is the submission's own rule (RTR-01, RFD-01).
 */
/**
 * A status read on a further path version is served (§4.3 names GET pacs002/v10 the same operation:
 * "It serves the status of payments, returns and refunds"): HTTP 200 with a txSts. What it reads,
 * the run's history judges as every later read of a final status (STS-10).
 */
export const statusServedOn = (version: string, read: { exchange: Exchange; txSts?: string }): Expectation => ({
  ok: read.exchange.response.status === 200 && read.txSts !== undefined,
  expected: `HTTP 200 with a txSts, read on ${version}`,
  ...answered(read.exchange),
});

export const servedUntilFinal = (final: Final | undefined): Expectation => ({
  ok: final?.statusClass === 'accepted' || final?.statusClass === 'rejected',
  expected: 'a final txSts, read with pacs.002',
  received: final ? statusPath(final) : 'no final status',
});

/**
 * A settled payment read again still reads settled (CXL-03): the same code; after ACCC another final
 * accepted code (ISO's ACSC: §3 shows no transitions); after a code §3 does not document as final
 * (ACSC, or one the profile took as final), another accepted code: the target moved on within
 * acceptance, which says that code was interim (STS-10's test reports it).
 */
export const staysSettled = (
  final: string,
  later: string | undefined,
  expectations: Pick<Expectations, 'statusCodes'>,
): Expectation => {
  const documented = finalityOf(final, expectations) === 'documented';
  return {
    ok:
      later === final ||
      (classifyStatus(later, expectations) === 'accepted' && (!documented || isFinalStatus(later, expectations))),
    expected: documented ? `${final}, or another final accepted txSts` : `${final}, or another accepted txSts`,
    received: String(later),
  };
};

// ── a cancellation's outcome (camt.029) ────────────────────────────────────────────────────────

/** A camt.029 read (client/flows/cancellation.ts Resolution), seen structurally. */
interface Resolved {
  outcome: 'confirmed' | 'rejected' | 'other';
  conf?: string;
  txCxlSts?: string;
}

/** camt.029's sts.conf is one of `codes`, the profile's for `outcome`. */
export const resolvedAs = (
  resolution: Resolved,
  outcome: 'confirmed' | 'rejected',
  codes: readonly string[],
): Expectation => ({
  ok: resolution.outcome === outcome,
  expected: codes.join(' or '),
  received: String(resolution.conf),
});

/**
 * camt.029 does not say `outcome` (or there was no camt.029): its sts.conf is none of `codes`, the
 * profile's, and its transaction's txCxlSts is neither ISO's code for that outcome (ACCR, RJCR) nor
 * one of `codes` given there.
 */
export const notResolvedAs = (
  resolution: Resolved | undefined,
  outcome: 'confirmed' | 'rejected',
  codes: readonly string[],
): Expectation => {
  const tx = resolution?.txCxlSts;
  return {
    ok: resolution?.outcome !== outcome && tx !== TX_CANCELLATION_STATUS[outcome] && !codes.includes(String(tx)),
    expected: `not ${[...codes, TX_CANCELLATION_STATUS[outcome]].join('/')}`,
    received: `sts.conf ${resolution?.conf}, txCxlSts ${tx}`,
  };
};

/** A served camt.029 whose body is under the declared root (`root`, messages.resolution.root): only then can its outcome be read (CXL-06). */
export const readableResolution = (resolution: { exchange: Exchange; body: unknown }, root: string): Expectation => ({
  ok: resolution.body !== undefined,
  expected: `a body under ${root}`,
  received: answerOf(resolution.exchange),
});

/**
 * §1 rule 4: the scheme's service "reports the cancellation as rejected": the camt.029 read last,
 * once the profile's polling ended, has decided it; its sts.conf is not ISO's pending code (PDCR).
 */
export const decidedWithin = (resolution: Resolved, timeoutMs: number): Expectation => ({
  ok: resolution.conf !== TX_CANCELLATION_STATUS.pending,
  expected: `a decided sts.conf (not ${TX_CANCELLATION_STATUS.pending}) within polling.timeoutMs (${timeoutMs} ms)`,
  received: String(resolution.conf),
});

// ── the valid twin ─────────────────────────────────────────────────────────────────────────────

/** How an operation's valid twin shows it was accepted. */
export interface TwinAcceptance {
  /** The rule the acceptance rests on (P8-01, RTR-01, TOK-01...). */
  rule: string;
  /** The documented status code(s); absent: any 2xx (the spec shows none). */
  status?: readonly number[];
  /**
   * The assumption a 4xx blocks the test by: where the twin's shape is the profile's (a declared
   * camt.056 or pacs.007 root, a return of a payment the service never saw), the target may spell it
   * otherwise, which that assumption's own test reports.
   */
  refusalBlockedBy?: string;
}

/**
 * The valid twin's precondition: it is accepted, or the case proves nothing. A rule the test cites
 * fails; one it does not cite blocks it (Verdicts.require); a refusal of a declared shape blocks it by
 * that shape's assumption.
 */
export function twinAccepted(verdicts: Verdicts, exchange: Exchange, acceptance: TwinAcceptance): void {
  verdicts.require(
    acceptance.rule,
    'the valid twin is accepted (or the case proves nothing)',
    acceptance.refusalBlockedBy
      ? acceptedInDeclaredShape(exchange, acceptance.refusalBlockedBy, acceptance.status)
      : acceptance.status
        ? hasStatus(exchange, acceptance.status)
        : acceptedAnswer(exchange),
  );
}

// ── a request the spec leaves open ─────────────────────────────────────────────────────────────

/**
 * A request the spec leaves open (a reading, ledger/readings.ts), answered as the profile reads it:
 * never a 5xx (ROB-03, documented), then refused or accepted as the reading's field says, or as
 * `reading` says where the field is no refuse/allow/either (the assumption `rule`; `either` asks
 * nothing more). On a camt.056 or a pacs.007 the sca-token is a reading of its own (SCA-18, SCA-20):
 * an acceptance there blocks the test unless the profile enforces that the token is checked, as
 * checks/refusals.ts scaRefusedOn does for a documented SCA refusal.
 */
export function answeredAsRead(
  verdicts: Verdicts,
  expectations: Expectations,
  answer: { rule: string; op: string; exchange: Exchange; what: string; reading?: Reading },
): void {
  const { rule, op, exchange, what } = answer;
  verdicts.check('ROB-03', `${what}: never a 5xx`, neverServerError(exchange));
  const reading = answer.reading ?? readingOf(expectations, rule);
  if (reading === 'either') return;
  if (reading === 'refuse') scaReadingGate(verdicts, op, exchange);
  verdicts.assume(
    rule,
    `${what}: ${reading === 'refuse' ? 'refused' : 'accepted'}, as the profile reads it`,
    reading === 'refuse' ? refusedAnswer(exchange) : acceptedAnswer(exchange),
  );
}
