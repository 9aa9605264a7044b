import { randomUUID } from 'node:crypto';
import { uniqueId } from '../../../messages/ids';
import { buildPacs008 } from '../../../messages/pacs008';
import { submitPayment } from '../../../client/flows/payment';
import type { SequenceSystem } from '../executor';
import { judgeShadow } from '../../../checks/exploration';
import { refOf, type SequenceModel } from '../model';
import { PaymentCommand, type StepOf } from './step-command';

/** Another institution pays with a payment's msgId and txId: a payment of its own (XCL-01). */
export class Shadow extends PaymentCommand<StepOf<'shadow'>> {
  // A second shadow would be the stranger repeating its own msgId: its own idempotent repeat.
  override check(model: Readonly<SequenceModel>): boolean {
    return super.check(model) && !model.strangerRefs.has(refOf(this.target(model)));
  }

  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), async (api) => {
      // To an institution that is not the beneficiary: the beneficiary then holds one payment with
      // that reference, and nothing in the spec lets another client's choice of ids change that.
      // A UETR of its own: ISO 20022 makes one a payment's, and every sequence's shadow shares a seed.
      const ids = { msgId: p.msgId, txId: p.txId, endToEndId: uniqueId('E2E'), uetr: randomUUID() };
      const message = buildPacs008({ seed: `${real.seed}|shadow`, ids, amount: 5 });
      const answer = await submitPayment(api, message, {
        client: real.client('stranger'),
        label: `another institution pays with ${p.label}’s msgId and txId`,
      });
      model.submitted++;
      const status = answer.exchange.response.status;
      real.record(judgeShadow(p, status, answer.paymentsServiceId), answer.exchange);
      if (status === 201) {
        p.shadowed = true;
        model.strangerRefs.add(refOf(p));
      }
    });
  }
}
