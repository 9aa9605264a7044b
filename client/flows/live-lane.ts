/**
 * What lets read tests and refusals run in the live lane (tests tagged @live-safe): the payment a read
 * test reads, and the named checks that prove a refusal created nothing.
 *
 * In a live run every read test reads ONE real low-value payment per worker (within liveLimits),
 * instead of paying one per test: a read's valid twin needs a payment that exists, not a new one.
 * Elsewhere each test pays its own, as before.
 */
import type { Exchange } from '../../helpers/http';
import { buildPacs008, type Pacs008Message } from '../../helpers/messages/pacs008';
import { liveBudgetUse, livePaymentAmount } from '../live-budget';
import type { Api } from '../api';
import { answered, type Verdicts } from '../../checks/verdicts';
import { firstStatusEntry, readStatus, requireId, submitPayment, type SubmitResult } from './payment';

export interface PaymentToRead {
  message: Pacs008Message;
  submission: SubmitResult;
  id: string;
}

/** The live run's payment to read, per worker and profile: a promise, so concurrent tests of a worker share one submission. */
const livePayments = new Map<string, Promise<{ message: Pacs008Message; submission: SubmitResult }>>();
/** Budget slots this worker's lane has taken so far (its payment, its repeat): refusals keep only the rest in reserve. */
let laneSlotsTaken = 0;

/**
 * A created payment the test can read (P8-01, P8-02 are its precondition). Live: the worker's one
 * payment, of livePaymentAmount, paid by the first test that needs it (a skip for an exhausted
 * budget is that test's own; the next test tries again).
 */
export async function paymentToRead(api: Api, verdicts: Verdicts, seed: string): Promise<PaymentToRead> {
  const pay = async () => {
    const message = buildPacs008({ seed, ...(api.profile.live ? { amount: livePaymentAmount(api.profile) } : {}) });
    const submission = await submitPayment(api, message, { label: 'pay: the payment to read' });
    laneSlotsTaken++;
    return { message, submission };
  };
  let paid: { message: Pacs008Message; submission: SubmitResult };
  if (api.profile.live) {
    const key = api.profile.name;
    let shared = livePayments.get(key);
    if (!shared) {
      shared = pay();
      livePayments.set(key, shared);
      shared.catch(() => livePayments.delete(key));
    }
    paid = await shared;
  } else paid = await pay();
  verdicts.requireStatus('P8-01', 'the payment to read is created', paid.submission.exchange, [201]);
  return { ...paid, id: requireId(api, verdicts, paid.submission.exchange) };
}

/**
 * Created nothing, on the token endpoint: the refused answer carries no access token. The token
 * endpoint keeps no resource a client could read back (§4.1), so the token is all it could have made.
 */
export function refusedTokenGrantsNothing(verdicts: Verdicts, rule: string, refusal: Exchange): boolean {
  const body = refusal.response.json as { access_token?: unknown } | undefined;
  return verdicts.check(rule, 'created nothing: the refused token request grants no access_token', {
    ok: body?.access_token === undefined,
    expected: 'no access_token in the refusal',
    ...answered(refusal),
  });
}

/**
 * Created nothing, on a read: after the refused read, the valid read is answered as before it (the
 * same status code, the same payment by its echoed endToEndId). A read never creates; this proves the
 * refusal did not alter the resource either.
 */
export function readChangedNothing(verdicts: Verdicts, rule: string, twin: Exchange, again: Exchange): boolean {
  const echo = (exchange: Exchange): unknown => firstStatusEntry(exchange.response.json)?.orgnlEndToEndId;
  const ok = again.response.status === twin.response.status && echo(again) === echo(twin);
  return verdicts.check(
    rule,
    'created nothing: after the refusal the valid read answers as before (same status, same payment)',
    { ok, expected: `HTTP ${twin.response.status}, orgnlEndToEndId ${String(echo(twin))}`, ...answered(again) },
  );
}

/** Created nothing, on an unknown id: a second read of the refused id is refused too (nothing exists under it now). */
export async function unknownIdStillUnknown(api: Api, verdicts: Verdicts, rule: string, id: string): Promise<boolean> {
  const again = await readStatus(api, id, { label: `after the refusal: read ${id} again` });
  const status = again.exchange.response.status;
  return verdicts.check(rule, `created nothing: ${id} is still not served on a second read`, {
    ok: status >= 400 && status < 500,
    expected: 'a 4xx, as the first read',
    ...answered(again.exchange),
  });
}

/**
 * A live refusal on a payments POST runs only when the budget still holds `slots` submissions: its
 * mutant (a target that wrongly accepts it pays) and its valid twin, sent after it. Checked before the
 * mutant is sent, so a test that could not afford its twin sends nothing.
 */
export function requireLiveSlots(api: Api, verdicts: Verdicts, slots: number): void {
  const limits = api.profile.liveLimits;
  if (!api.profile.live) return;
  const left = (limits?.maxPayments ?? 0) - liveBudgetUse().claimed - Math.max(0, LANE_SLOTS - laneSlotsTaken);
  if (left < slots)
    verdicts.skip({
      kind: 'not-applicable',
      why: `a live refusal on a payments POST needs ${slots} budget slots (its mutant, then its valid twin) beyond the ${LANE_SLOTS} kept for the lane's payment; ${Math.max(0, left)} of liveLimits.maxPayments ${limits?.maxPayments ?? 0} are left for refusals`,
    });
}

/** The lane's idempotent repeat of its payment: one of the slots refusals leave for the lane. */
export async function repeatLanePayment(api: Api, payment: PaymentToRead): Promise<SubmitResult> {
  const repeat = await submitPayment(api, payment.message, {
    label: 'the same message again (idempotent repeat, fresh SCA)',
  });
  laneSlotsTaken++;
  return repeat;
}

/** Slots refusals always leave (less what the lane took already): the worker's payment that the reads read, and its idempotent repeat. */
export const LANE_SLOTS = 2;
/** Slots one refusal of a payment submission takes: its mutant, then its valid twin. */
export const REFUSAL_SLOTS = 2;

/**
 * Created nothing, on a payments POST: the valid twin sent AFTER the refusal, with the refused
 * message's own msgId, is created (201), not answered as a repeat (200). Had the refusal created a
 * payment, §4.2's idempotency would answer the twin 200 with it.
 */
export function createdNothingUnderMsgId(verdicts: Verdicts, rule: string, twinAfter: SubmitResult): boolean {
  const status = twinAfter.exchange.response.status;
  return verdicts.check(
    rule,
    "created nothing: the valid twin with the refused message's msgId, sent after the refusal, is created (201), not a repeat (200)",
    {
      ok: status === 201,
      expected: 'HTTP 201 (nothing existed under that msgId)',
      ...answered(twinAfter.exchange),
    },
  );
}
