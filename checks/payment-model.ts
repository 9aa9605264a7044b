/**
 * The money and lifecycle of one payment, as evidence shows them: what went back for it (returns and
 * refunds) and how its status may move. Two judges use it, so each rule is written once here:
 * exploration (checks/exploration.ts), which follows one sequence as it plays it, and the run's
 * history (checks/history.ts), which reads every exchange of a run after it ended.
 *
 * Money is counted from evidence only. A 2xx answer to a return or refund is "maybe" until its own
 * pacs.002 status is read final: a target may accept at submission and reject later (§7). An answer
 * that never came or came as a 5xx is "maybe" too: the request may have been applied. "No" is a 4xx,
 * or a final status other than accepted. The invariant is judged pessimistically first (every maybe
 * counts); only when that would break it must the maybes be resolved: a judge that can still read
 * their status follows them (exploration), one that cannot calls it undecidable (the history).
 */
import type { StatusClass } from '../profile/profile';
import { showMinor, sumMinor } from '../messages/money';
import { is2xx, is4xx } from '../messages/http-status';
import { statusChange, type Vocabulary } from '../profile/status-vocabulary';

/** One judged fact: a rule, whether it held, and the evidence in words. */
export interface Finding {
  rule: string;
  ok: boolean;
  what: string;
  expected?: string;
  received?: string;
}

export const money = (minor: bigint): string => showMinor(minor);

export const ok = (rule: string, what: string): Finding => ({ rule, ok: true, what });
export const broken = (rule: string, what: string, expected: string, received: string): Finding => ({
  rule,
  ok: false,
  what,
  expected,
  received,
});

// ── money that went back ─────────────────────────────────────────────────────────────────────

/** A return or a refund sent for a payment. */
export interface MoneyBack {
  /** How a reader names it: "return R1", "refund F2". */
  label: string;
  kind: 'return' | 'refund';
  amount: bigint;
  /** HTTP status of the answer; undefined when none came (a lost connection, a timeout). */
  http: number | undefined;
  /** The paymentsServiceId the answer named: where its final status is read. */
  id?: string;
  /** Its final status class, once read. */
  final?: StatusClass;
  /** Its answer (a 2xx naming no id, or none at all) gives no id to read a status by: it stays a maybe. */
  unreadable?: true;
}

/** What money-back judgements need of a payment. */
export interface PaymentMoney<B extends MoneyBack = MoneyBack> {
  label: string;
  amount: bigint;
  /** The class of the last status read; undefined until one was read. */
  status?: StatusClass;
  back: B[];
}

export type Counted = 'yes' | 'no' | 'maybe';

/**
 * Whether a return or refund sent money back: yes (settled accepted), no (refused with a 4xx, or
 * settled otherwise), maybe (2xx not final yet, or no answer or a 5xx: maybe applied).
 */
export function counted(b: MoneyBack): Counted {
  if (b.final !== undefined) return b.final === 'accepted' ? 'yes' : 'no';
  if (b.http === undefined || is2xx(b.http)) return 'maybe';
  return is4xx(b.http) ? 'no' : 'maybe';
}

export interface MoneyBackTotals<B extends MoneyBack = MoneyBack> {
  yes: bigint;
  maybe: bigint;
  /** The maybes: resolving them settles the question. */
  open: B[];
}

export function moneyBack<B extends MoneyBack>(p: PaymentMoney<B>): MoneyBackTotals<B> {
  const open = p.back.filter((b) => counted(b) === 'maybe');
  return {
    yes: sumMinor(p.back.filter((b) => counted(b) === 'yes').map((b) => b.amount)),
    maybe: sumMinor(open.map((b) => b.amount)),
    open,
  };
}

/** What may still go back, counting every maybe as gone (never negative). */
export function restOf(p: PaymentMoney): bigint {
  const { yes, maybe } = moneyBack(p);
  const rest = p.amount - yes - maybe;
  return rest > 0n ? rest : 0n;
}

const describeBack = (b: MoneyBack): string => {
  const how = b.final
    ? ` (${b.final})`
    : b.http === undefined
      ? ' (no answer)'
      : is2xx(b.http) || !is4xx(b.http)
        ? ` (HTTP ${b.http})`
        : '';
  return `${b.label} ${money(b.amount)}${how}`;
};

/** The returns and refunds of a payment counted as `which`, in words. */
export const listing = (p: PaymentMoney, which: readonly Counted[]): string =>
  p.back
    .filter((b) => which.includes(counted(b)))
    .map(describeBack)
    .join(' + ') || 'nothing';

export type MoneyVerdict<B extends MoneyBack = MoneyBack> =
  | { verdict: 'holds' }
  | { verdict: 'follow'; open: B[] }
  | { verdict: 'broken'; finding: Finding };

/**
 * MNY-01: for one payment, what went back (return plus refunds) never exceeds what was paid, and
 * nothing goes back for a payment that never settled accepted. Pessimistic first; `follow` says only
 * the maybes would break it: resolved as not applied, it holds; as applied, it breaks.
 */
export function moneyVerdict<B extends MoneyBack>(p: PaymentMoney<B>): MoneyVerdict<B> {
  const { yes, maybe, open } = moneyBack(p);
  const what = `what went back for ${p.label} (${money(p.amount)}) never exceeds it`;
  if ((p.status === 'rejected' || p.status === 'cancelled') && yes + maybe > 0n) {
    if (yes === 0n) return { verdict: 'follow', open };
    return {
      verdict: 'broken',
      finding: broken(
        'MNY-01',
        `nothing goes back for ${p.label}: it ended ${p.status}, nothing was received`,
        'nothing sent back',
        `${money(yes)}: ${listing(p, ['yes'])}`,
      ),
    };
  }
  if (yes + maybe <= p.amount) return { verdict: 'holds' };
  if (yes <= p.amount) return { verdict: 'follow', open };
  return {
    verdict: 'broken',
    finding: broken('MNY-01', what, `at most ${money(p.amount)}`, `${money(yes)}: ${listing(p, ['yes'])}`),
  };
}

// ── how a status may move ────────────────────────────────────────────────────────────────────

/**
 * STS-10: whether a status read after `before` may be `next`, as the status vocabulary says
 * (profile/status-vocabulary.ts statusChange): after §3's final codes, ACCC and RJTC, only a final
 * code of the same class may come; a change after any other code says that code is interim for the
 * target, never a violation. Undefined when the move is allowed, else what was allowed.
 */
export function forbiddenMove(before: string | undefined, next: string, expectations: Vocabulary): string | undefined {
  if (before === undefined) return undefined;
  return statusChange(before, next, expectations) === 'violation' ? before : undefined;
}
