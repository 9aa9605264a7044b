/**
 * What lets read tests and refusals run in the live lane (tests tagged @live-safe): the payment a read
 * test reads, and the budget a refusal needs. The named checks that prove a refusal created nothing
 * are checks/created-nothing.ts's.
 *
 * In a live run every read test reads ONE real low-value payment per worker (within liveLimits),
 * instead of paying one per test: a read's valid twin needs a payment that exists, not a new one.
 * Elsewhere each test pays its own, as before.
 */
import { buildPacs008, type Pacs008Message } from '../../messages/pacs008';
import { liveBudgetUse, livePaymentAmount } from '../live-budget';
import type { Api } from '../api';
import type { Verdicts } from '../../checks/verdicts';
import { requireId } from '../../checks/payment-answers';
import { submitPayment, type SubmitResult } from './payment';
import { hasStatus } from '../../checks/answers';

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
  verdicts.require('P8-01', 'the payment to read is created', hasStatus(paid.submission.exchange, [201]));
  return { ...paid, id: requireId(api, verdicts, paid.submission.exchange) };
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
