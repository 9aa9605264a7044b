/**
 * What the exploration generates, per lane: every step of steps.ts as its command (commands/),
 * with weights that favour what moves money (returns, refunds, bursts) and the amounts where money
 * goes wrong (a cent, the last cents of a payment, amounts near the top of a double's exact range).
 * A command targets a payment by position (shrinking moves it to the first); fast-check skips a
 * command whose precondition fails, and shrinks a failing sequence to the shortest that still fails.
 */
import fc from 'fast-check';
import { commandOf } from './commands';
import type { SequenceCommand } from './commands/step-command';
import type { RefundAmount, Step } from './steps';

/** What an exploration lane is about. */
export type Lane = 'payer and beneficiary' | 'three institutions';

/**
 * The settled payments every sequence starts with, in minor units: an ordinary one, the smallest that
 * can be split, and one near the top of what a double holds exactly to the cent (2^43 ≤ x < 2^44,
 * where a double's step is 1/512), inside ISO 20022's 18 digits.
 */
export const KIT_AMOUNTS: readonly bigint[] = [10_000n, 3n, 900_000_000_000_000n];

/**
 * Which payment a step targets: money goes wrong in what happens to one payment, so most steps of a
 * sequence take the first (their target shrinks to it too); the others now and then, payments the
 * sequence paid itself included.
 */
const payment = fc.oneof({ arbitrary: fc.constant(0), weight: 6 }, { arbitrary: fc.nat({ max: 5 }), weight: 3 });
/** A drain is about the last cents of a large payment, where a double's step is widest: the kit's third. */
const largePayment = fc.oneof({ arbitrary: fc.constant(2), weight: 6 }, { arbitrary: fc.nat({ max: 5 }), weight: 3 });

/** Ordinary amounts mostly; now and then one at the edges of a double's exact range. */
const payCents = fc.oneof(
  { arbitrary: fc.integer({ min: 2, max: 50_000 }), weight: 6 },
  { arbitrary: fc.constantFrom(3, 100, 10_000), weight: 2 },
  { arbitrary: fc.constantFrom(900_000_000_000_000, 999_999_999_999_999, 879_609_302_220_900), weight: 1 },
);

/** JSON numbers no reading of ISO 4217 (2 decimals) and ISO 20022 (18 digits) accepts as an amount. */
export const INVALID_AMOUNTS: readonly number[] = [10.005, 0.001, 99.999, 1e-7, 1e18, 1e308, 123456789012345680000];

const refundAmount: fc.Arbitrary<RefundAmount> = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 99 }).map((percent): RefundAmount => ({ of: 'part', percent })), weight: 4 },
  { arbitrary: fc.constant<RefundAmount>({ of: 'rest' }), weight: 2 },
  { arbitrary: fc.constant<RefundAmount>({ of: 'overRest' }), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 200 }).map((cents): RefundAmount => ({ of: 'allBut', cents })), weight: 2 },
  { arbitrary: fc.constant<RefundAmount>({ of: 'whole' }), weight: 1 },
  { arbitrary: fc.integer({ min: 1, max: 5_000 }).map((cents): RefundAmount => ({ of: 'cents', cents })), weight: 2 },
);

type Weighted = { arbitrary: fc.Arbitrary<Step>; weight: number };

/** Steps between the payer and the beneficiary. */
function twoInstitutions(scale: number): Weighted[] {
  const w = (weight: number, arbitrary: fc.Arbitrary<Step>): Weighted => ({ arbitrary, weight: weight * scale });
  return [
    w(
      3,
      payCents.map((cents): Step => ({ do: 'pay', cents })),
    ),
    w(
      1,
      fc.constantFrom(...INVALID_AMOUNTS).map((value): Step => ({ do: 'pay invalid', value })),
    ),
    w(
      1,
      fc.integer({ min: 2, max: 8 }).map((copies): Step => ({ do: 'pay duplicates', copies })),
    ),
    w(2, fc.constant<Step>({ do: 'settle' })),
    w(
      3,
      fc
        .record({ payment, body: fc.constantFrom('same' as const, 'same' as const, 'other' as const) })
        .map((s): Step => ({ do: 'repeat', ...s })),
    ),
    w(
      2,
      fc
        .record({ payment, as: fc.constantFrom('payer' as const, 'beneficiary' as const) })
        .map((s): Step => ({ do: 'read status', ...s })),
    ),
    w(
      2,
      fc
        .record({ payment, as: fc.constantFrom('beneficiary' as const, 'payer' as const) })
        .map((s): Step => ({ do: 'read incoming', ...s })),
    ),
    w(
      1,
      payment.map((p): Step => ({ do: 'cancel', payment: p, as: 'payer' })),
    ),
    w(
      5,
      fc
        .record({
          payment,
          amount: fc.constantFrom('whole' as const, 'whole' as const, 'whole' as const, 'partial' as const),
        })
        .map((s): Step => ({ do: 'return', ...s, as: 'beneficiary' })),
    ),
    w(
      7,
      fc.record({ payment, amount: refundAmount }).map((s): Step => ({ do: 'refund', ...s, as: 'beneficiary' })),
    ),
    w(
      1,
      fc
        .record({
          payment,
          on: fc.constantFrom('return' as const, 'refund' as const),
          value: fc.constantFrom(...INVALID_AMOUNTS),
        })
        .map((s): Step => ({ do: 'invalid amount', ...s })),
    ),
    w(
      3,
      fc
        .record({
          payment,
          kind: fc.constantFrom(
            'return+refunds' as const,
            'refunds' as const,
            'same refund' as const,
            'returns' as const,
          ),
          copies: fc.integer({ min: 2, max: 12 }),
        })
        .map((s): Step => ({ do: 'burst', ...s })),
    ),
    w(
      3,
      fc
        .record({
          payment: largePayment,
          pieceCents: fc.integer({ min: 2, max: 4 }),
          pieces: fc.integer({ min: 20, max: 40 }),
        })
        .map((s): Step => ({ do: 'drain', ...s })),
    ),
  ];
}

/** Steps of an institution that is neither payer nor beneficiary. */
function stranger(): Weighted[] {
  const w = (weight: number, arbitrary: fc.Arbitrary<Step>): Weighted => ({ arbitrary, weight });
  return [
    w(
      12,
      payment.map((p): Step => ({ do: 'shadow', payment: p })),
    ),
    w(
      2,
      fc
        .record({ payment, what: fc.constantFrom('read status' as const, 'read incoming' as const) })
        .map(({ payment: p, what }): Step => ({ do: what, payment: p, as: 'stranger' })),
    ),
    w(
      2,
      payment.map((p): Step => ({ do: 'cancel', payment: p, as: 'stranger' })),
    ),
    w(
      2,
      payment.map((p): Step => ({ do: 'return', payment: p, amount: 'whole', as: 'stranger' })),
    ),
    w(
      2,
      fc.record({ payment, amount: refundAmount }).map((s): Step => ({ do: 'refund', ...s, as: 'stranger' })),
    ),
  ];
}

/** The steps a lane draws from, weighted. */
export function laneSteps(lane: Lane): fc.Arbitrary<Step> {
  return fc.oneof(...(lane === 'payer and beneficiary' ? twoInstitutions(1) : [...twoInstitutions(1), ...stranger()]));
}

/**
 * A sequence of at most `maxCommands` commands of the lane; `replayPath` replays a counterexample
 * exactly. One arbitrary of steps, each made its command: what a seed generates depends on the steps
 * alone, not on how the commands are written, so a recorded seed keeps replaying the same sequence.
 */
export function laneCommands(
  lane: Lane,
  maxCommands: number,
  replayPath?: string,
): fc.Arbitrary<Iterable<SequenceCommand>> {
  return fc.commands([laneSteps(lane).map((step) => commandOf(step))], {
    maxCommands,
    size: 'max',
    ...(replayPath ? { replayPath } : {}),
  });
}
