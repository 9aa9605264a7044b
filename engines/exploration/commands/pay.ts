import { minorToValue } from '../../../messages/money';
import { paymentTo } from '../../../client/flows/incoming';
import { withoutScheme } from '../../../messages/pacs008';
import { submitPayment } from '../../../client/flows/payment';
import { ORDINARY_MAX, type SequenceSystem } from '../executor';
import { judgePayment } from '../../../checks/exploration';
import type { SequenceModel } from '../model';
import { describeStep } from '../steps';
import { StepCommand, type StepOf } from './step-command';

/** The payer pays the beneficiary a new payment: created (P8-01), pending until a step reads it final. */
export class Pay extends StepCommand<StepOf<'pay'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    await real.step(describeStep(this.step), async (api) => {
      const amount = BigInt(this.step.cents);
      const label = model.nextPaymentLabel;
      // Any payment of the model may be cancelled later: it states no scheme, as every payment the suite cancels.
      const message = withoutScheme(
        paymentTo(real.clients.beneficiary, `${real.seed}|${label}`, { amount: minorToValue(amount) }),
      );
      const answer = await submitPayment(api, message, { client: real.clients.payer, label: `pay ${label}` });
      model.submitted++;
      real.record(
        judgePayment(label, amount, answer.exchange.response.status, amount <= ORDINARY_MAX),
        answer.exchange,
      );
      model.track(label, message, amount, answer.exchange.response.status, answer.paymentsServiceId);
    });
  }
}
