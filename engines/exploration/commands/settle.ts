import { awaitFinalStatus } from '../../../client/flows/payment';
import { type SequenceSystem, checkMoney, observeStatus } from '../executor';
import type { SequenceModel } from '../model';
import { describeStep } from '../steps';
import { StepCommand, type StepOf } from './step-command';

/** Wait until every payment of the sequence is final, then judge the money of each (MNY-01). */
export class Settle extends StepCommand<StepOf<'settle'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    await real.step(describeStep(this.step), async (api) => {
      for (const p of model.payments.filter((q) => q.status === undefined || q.status === 'pending')) {
        const final = await awaitFinalStatus(api, p.id, {
          client: real.clients.payer,
          label: `${p.label} status until final`,
        });
        for (const code of final.history) observeStatus({ model, real }, p, code);
      }
      for (const p of model.payments) await checkMoney({ model, real, api }, p);
    });
  }
}
