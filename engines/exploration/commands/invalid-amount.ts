import { toMinor } from '../../../messages/money';
import { type SequenceSystem, sendRefund, sendReturn } from '../executor';
import type { SequenceModel } from '../model';
import { PaymentCommand, type StepOf } from './step-command';

/** A return or refund carrying an amount ISO does not allow (MNY-04, MNY-05). */
export class InvalidAmount extends PaymentCommand<StepOf<'invalid amount'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    const { on, value } = this.step;
    // What goes back if it is accepted anyway: the whole (a return), the value rounded up (a refund).
    await real.step(this.describe(model), (api) =>
      on === 'return'
        ? sendReturn({ model, real, api }, p, 'beneficiary', p.amount, undefined, value)
        : sendRefund(
            { model, real, api },
            p,
            'beneficiary',
            toMinor(value) ?? BigInt(Math.ceil(value * 100)),
            undefined,
            value,
          ),
    );
  }
}
