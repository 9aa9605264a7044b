import { readStatus } from '../../../client/flows/payment';
import { type SequenceSystem, checkMoney, observeStatus } from '../executor';
import { judgeOpenRead, judgeStatusRead, judgeStrangerRead } from '../../../checks/exploration';
import type { SequenceModel } from '../model';
import { PaymentCommand, type StepOf } from './step-command';

/** A payment's status, read by the payer (STS-01, STS-10, MNY-01), the beneficiary (open) or a stranger (STS-13). */
export class ReadStatus extends PaymentCommand<StepOf<'read status'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), async (api) => {
      const who = this.step.as;
      const read = await readStatus(api, p.id, {
        client: real.client(who),
        label: `${p.label}’s status, read by the ${who}`,
      });
      const status = read.exchange.response.status;
      if (who === 'stranger') return real.record(judgeStrangerRead(p, 'status', status), read.exchange);
      if (who === 'beneficiary')
        return real.record(
          judgeOpenRead(p, 'STS-01', 'the beneficiary reads the status (pacs.002)', status),
          read.exchange,
        );
      const unread = judgeStatusRead(p, status, read.txSts);
      if (unread) return real.record(unread, read.exchange);
      observeStatus({ model, real }, p, read.txSts!); // a read judgeStatusRead passes has a txSts
      await checkMoney({ model, real, api }, p);
    });
  }
}
