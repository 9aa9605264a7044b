/**
 * The named checks of a documented refusal: any 4xx, never a 2xx nor a 5xx. Which 4xx (ERR-01,
 * SCA-15), the error body's shape (ERR-02) and whether it names the mutated field (ERR-03) are the
 * profile's assumptions, judged once the refusal holds. Every answer to a refusal case of the payments
 * API (the token endpoint is an API of its own) is counted for the run's verdict on the target.
 */
import type { Exchange } from '../transport/http';
import { is2xx, is4xx } from '../messages/http-status';
import type { Profile, RefusalClass } from '../profile/profile';
import { answerClass } from '../record/target-tally';
import { answered, answerOf, type Check, type Verdicts } from './verdicts';
import { scaCheckedOn, scaReadingOn } from '../ledger/readings';

/**
 * Whether an error text names a field: its JSON name anywhere, or the name as a whole word in any
 * case, as a schema validator writes the ISO 20022 tag (libxml2: "Expected is ( MsgId )",
 * "( FIToFICstmrCdtTrf )" for fitoFICstmrCdtTrf).
 */
export function namesField(text: string, leaf: string): boolean {
  if (text.includes(leaf)) return true;
  const word = leaf.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^A-Za-z0-9])${word}([^A-Za-z0-9]|$)`, 'i').test(text);
}

/** The assumption rule that says which status a refusal class gets. */
const REFUSAL_STATUS_RULE: Partial<Record<RefusalClass, string>> = { sca: 'SCA-15' };

/** The assumptions a refusal's answer is also judged by (see refusedAs): the tags a refusing test cites besides its rule. */
export const refusalAssumptions = (field?: string): string[] => ['ERR-01', 'ERR-02', ...(field ? ['ERR-03'] : [])];

export interface RefusalOptions {
  /** The field the mutation touched: an error body naming it shows the refusal has the right cause (ERR-03). */
  field?: string;
  /**
   * Only the documented refusal, a 4xx: not the profile's status and error body for the class. For an
   * answer no discovery asked for (a further path version, whose route may answer its own way).
   */
  documentedOnly?: true;
}

/**
 * A refusal of the class `refusal` (or of any of them, where the class is itself a reading:
 * expectations.cancelUnknownPayment admits the statuses of each class it may be).
 */
export function refusedAs(
  exchange: Exchange,
  refusal: RefusalClass | readonly RefusalClass[],
  options: RefusalOptions = {},
): Check {
  return {
    ok: is4xx(exchange),
    expected: 'a 4xx refusal',
    ...answered(exchange),
    before: (verdicts) => {
      const answer = answerClass(exchange.response.status);
      if (answer && !isTokenRequest(verdicts.profile, exchange)) verdicts.refusalCase(answer);
    },
    after: (verdicts) => {
      if (options.documentedOnly) return;
      const status = exchange.response.status;
      const classes: readonly RefusalClass[] = typeof refusal === 'string' ? [refusal] : refusal;
      const allowed = [...new Set(classes.flatMap((c) => verdicts.profile.expectations.refusalStatus[c]))];
      const statusRule = (classes.length === 1 ? REFUSAL_STATUS_RULE[classes[0]!] : undefined) ?? 'ERR-01';
      verdicts.assume(statusRule, `a ${classes.join(' or ')} refusal is answered HTTP ${allowed.join(' or ')}`, {
        ok: allowed.includes(status),
        expected: `HTTP ${allowed.join(' or ')}`,
        received: `HTTP ${status}`,
      });
      errorBody(verdicts, exchange, options.field);
    },
  };
}

/**
 * An SCA refusal on `op` (Verdicts.scaGoverns). On an operation whose sca-token is a reading
 * (ledger/readings.ts SCA_READINGS: camt.056, pacs.007), an acceptance shows the target does not check
 * the token there: that fails the rule only where the profile enforces the reading that it must
 * (required, or verified when present); otherwise the test is blocked by the reading's rule, whose own
 * test reports the reading. A refusal is evidence for the rule either way.
 */
export function scaRefusedOn(
  op: string,
  exchange: Exchange,
  refusal: RefusalClass,
  options: RefusalOptions = {},
): Check {
  const refused = refusedAs(exchange, refusal, options);
  return {
    ...refused,
    before: (verdicts, what) => {
      scaReadingGate(verdicts, op, exchange);
      refused.before?.(verdicts, what);
    },
  };
}

/**
 * Blocks by the reading's rule when `op`'s sca-token is a reading the profile does not enforce as
 * checked and the target accepted a token it should have refused: the token may simply not be read there.
 */
export function scaReadingGate(verdicts: Verdicts, op: string, exchange: Exchange): void {
  const sca = scaReadingOn(verdicts.profile.expectations, op);
  if (!sca || (scaCheckedOn(verdicts.profile.expectations, op) && verdicts.enforcing)) return;
  verdicts.gate(sca.rule, `${sca.message} is checked by its sca-token`, {
    ok: !is2xx(exchange),
    received: `the target accepted it: ${answerOf(exchange)}`,
  });
}

function isTokenRequest(profile: Profile, exchange: Exchange): boolean {
  return new URL(exchange.request.url).pathname.endsWith(profile.tokenPath ?? '/oauth/token');
}

function errorBody(verdicts: Verdicts, exchange: Exchange, field: string | undefined): void {
  const shape = verdicts.profile.expectations.errorBody ?? 'any';
  if (shape === 'any' || isTokenRequest(verdicts.profile, exchange)) return;
  const body = exchange.response.json as Record<string, unknown> | undefined;
  const contentType = exchange.response.headers['content-type'] ?? '';
  const shapes: Record<Exclude<typeof shape, 'any'>, { ok: boolean; expected: string }> = {
    errors: {
      ok: Array.isArray(body?.errors) && (body.errors as unknown[]).length > 0,
      expected: 'a JSON body with a non-empty "errors" array',
    },
    problem: {
      ok: /application\/problem\+json/.test(contentType) && typeof body?.title === 'string',
      expected: 'application/problem+json with a title',
    },
    message: {
      ok: typeof body?.message === 'string' || typeof body?.code === 'string',
      expected: 'a JSON body with "code" and "message"',
    },
  };
  const chosen = shapes[shape];
  verdicts.assume('ERR-02', 'the error body has the profile’s shape', {
    ok: chosen.ok,
    expected: chosen.expected,
    ...answered(exchange),
  });
  // A single {code, message} carries one error, not necessarily the one the test provoked: ERR-03 is
  // assumed only of shapes that list every error (errors, problem).
  if (field && shape !== 'message' && verdicts.profile.expectations.errorNamesField !== 'unchecked') {
    const leaf =
      field
        .split('.')
        .filter((s) => !/^\d+$/.test(s))
        .pop() ?? field;
    verdicts.assume('ERR-03', `the error names the mutated field "${leaf}"`, {
      ok: namesField(exchange.response.text, leaf),
      expected: `an error mentioning ${leaf} (in any case, as a schema validator names its element)`,
      ...answered(exchange),
    });
  }
}
