import { type SequenceSystem, sendReturn } from '../executor';
import { returnAmountOf, type SequenceModel } from '../model';
import { PaymentCommand, type StepOf } from './step-command';

/** A return of the whole payment, or of part of it or the rest (RTR-33), by the beneficiary or another institution (RTR-39). */
export class Return extends PaymentCommand<StepOf<'return'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), (api) =>
      sendReturn({ model, real, api }, p, this.step.as, returnAmountOf(p, this.step.amount), this.intention),
    );
  }
}
