import { minorToValue } from '../../../messages/money';
import { clonePacs008, type Pacs008Message } from '../../../messages/pacs008';
import { submitPayment } from '../../../client/flows/payment';
import { type SequenceSystem, checkNoSecondPayment } from '../executor';
import { judgeRepeat } from '../../../checks/exploration';
import type { SequenceModel } from '../model';
import { PaymentCommand, type StepOf } from './step-command';

/** The payer sends a payment's msgId again, the same body or another (IDEM-01, IDEM-02, IDEM-05). */
export class Repeat extends PaymentCommand<StepOf<'repeat'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), async (api) => {
      const { body } = this.step;
      let message: Pacs008Message = p.message;
      if (body === 'other') {
        message = clonePacs008(p.message);
        message.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.intrBkSttlmAmt.value = minorToValue(p.amount + 100n);
      }
      const answer = await submitPayment(api, message, {
        client: real.clients.payer,
        label: `${p.label}’s msgId again, ${body} body`,
      });
      for (const f of judgeRepeat(
        p,
        body,
        answer.exchange.response.status,
        answer.paymentsServiceId,
        real.profile.expectations,
      ))
        real.record(f, answer.exchange);
      await checkNoSecondPayment({ model, real, api });
    });
  }
}
