import { amountProblem } from '../../../messages/money';
import { paymentIds } from '../../../messages/pacs008';
import { paymentTo } from '../../../client/flows/incoming';
import { submitPayment } from '../../../client/flows/payment';
import type { SequenceSystem } from '../executor';
import { judgeAmount } from '../../../checks/exploration';
import type { SequenceModel } from '../model';
import { describeStep } from '../steps';
import { StepCommand, type StepOf } from './step-command';

/** The payer pays an amount ISO does not allow, judged by what the profile expects of it (MNY-04, MNY-05). */
export class PayInvalid extends StepCommand<StepOf<'pay invalid'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    await real.step(describeStep(this.step), async (api) => {
      const { value } = this.step;
      const message = paymentTo(real.clients.beneficiary, `${real.seed}|invalid`, { amount: 1 });
      message.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.intrBkSttlmAmt.value = value;
      const answer = await submitPayment(api, message, {
        client: real.clients.payer,
        label: `pay ${JSON.stringify(value)} GBP`,
        sentAs: 'mutant',
      });
      model.submitted++;
      real.record(
        judgeAmount(
          real.profile.expectations,
          value,
          `a payment of ${JSON.stringify(value)} GBP (${amountProblem(value)})`,
          answer.exchange.response.status,
        ),
        answer.exchange,
      );
      // Created anyway: a payment of the sequence, but of no amount the model can count with.
      if (answer.exchange.response.status === 201 && answer.paymentsServiceId)
        model.created.set(answer.paymentsServiceId, paymentIds(message).msgId);
    });
  }
}
