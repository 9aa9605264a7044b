/**
 * What every command of a money-flow sequence has, as fast-check's model-based testing has it: its
 * step as data, which fast-check prints (`toString`) and replays; `check(model)`, whether it can run
 * now (fast-check skips it otherwise); `run(model, real)`, which sends its requests through the
 * system under test (executor.ts SequenceSystem), asks the judges (checks/exploration.ts) what each
 * answer must be, and tells the model (model.ts) what was answered.
 */
import type fc from 'fast-check';
import type { SequenceSystem } from '../executor';
import type { SequenceModel, TrackedPayment } from '../model';
import { money } from '../../../checks/payment-model';
import { describeStep, type Intention, type Step } from '../steps';

/** A command of a money-flow sequence: the model is SequenceModel, the real system SequenceSystem. */
export type SequenceCommand = fc.AsyncCommand<SequenceModel, SequenceSystem>;

export type StepOf<K extends Step['do']> = Extract<Step, { do: K }>;
export type PaymentStep = Extract<Step, { payment: number }>;

/** What every command has: its step as data, which fast-check prints (`toString`) and replays. */
export abstract class StepCommand<S extends Step> implements SequenceCommand {
  constructor(
    readonly step: S,
    /** A directed sequence's intended outcome (returns and refunds only). */
    readonly intention?: Intention,
  ) {}

  /** Its institutions, room in the payment budget, a payment to target: what every step needs (model.ts fits). */
  check(model: Readonly<SequenceModel>): boolean {
    return model.fits(this.step);
  }

  abstract run(model: SequenceModel, real: SequenceSystem): Promise<void>;

  toString(): string {
    return describeStep(this.step);
  }
}

/** A command on one of the sequence's payments (`step.payment`, counted round them). */
export abstract class PaymentCommand<S extends PaymentStep> extends StepCommand<S> {
  /** The payment it targets; `check` made sure there is one. */
  protected target(model: Readonly<SequenceModel>): TrackedPayment {
    return model.target(this.step.payment)!;
  }

  /** The step in words with what it resolved to now: the payment it targets (and, for some, the amounts). */
  protected describe(model: Readonly<SequenceModel>): string {
    return describeStep(this.step).replace(`P${this.step.payment}`, labelOf(this.target(model)));
  }
}

/** A payment as the steps name it: its label and amount. */
export const labelOf = (p: TrackedPayment): string => `${p.label} (${money(p.amount)})`;
