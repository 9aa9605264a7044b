import { type SequenceSystem, sendRefund } from '../executor';
import { refundAmountOf, type SequenceModel } from '../model';
import { money } from '../../../checks/payment-model';
import { PaymentCommand, type StepOf } from './step-command';

/** A refund of an amount relative to what the model counts as left (RFD-01…RFD-08, MNY-01). */
export class Refund extends PaymentCommand<StepOf<'refund'>> {
  override check(model: Readonly<SequenceModel>): boolean {
    return super.check(model) && refundAmountOf(this.target(model), this.step.amount) > 0n;
  }

  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), (api) =>
      sendRefund({ model, real, api }, p, this.step.as, refundAmountOf(p, this.step.amount), this.intention),
    );
  }

  protected override describe(model: Readonly<SequenceModel>): string {
    return `${super.describe(model)}${this.step.amount.of === 'cents' ? '' : `: ${money(refundAmountOf(this.target(model), this.step.amount))}`}`;
  }
}
