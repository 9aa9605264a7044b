import { toMinor } from '../../../messages/money';
import { awaitIncoming, incomingMessage, readIncoming } from '../../../client/flows/incoming';
import type { SequenceSystem } from '../executor';
import { judgeIncoming, judgeOpenRead, judgeStrangerRead } from '../../../checks/exploration';
import type { SequenceModel } from '../model';
import { PaymentCommand, type StepOf } from './step-command';

/** A payment as an incoming payment, read by the beneficiary (INC-02), by its payer (a reading, INC-07) or by another (INC-03). */
export class ReadIncoming extends PaymentCommand<StepOf<'read incoming'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), async (api) => {
      const who = this.step.as;
      const options = { client: real.client(who), label: `${p.label} as an incoming payment, read by the ${who}` };
      // A settled payment's beneficiary reads again while not found, as INC-02's test does (awaitIncoming):
      // the spec does not say when the beneficiary's view appears.
      const read =
        who === 'beneficiary' && p.status === 'accepted'
          ? await awaitIncoming(api, p.id, options)
          : await readIncoming(api, p.id, options);
      const status = read.response.status;
      // The payer's own read of that view is a reading of the profile (INC-07): only a 5xx is a finding.
      if (who === 'payer')
        return real.record(judgeOpenRead(p, 'INC-02', 'the payer reads its incoming view (pacs.008)', status), read);
      if (who !== 'beneficiary') return real.record(judgeStrangerRead(p, 'incoming', status), read);
      // Its transaction where the declared shape puts it, or another shape (INC-05), as incomingTransaction reads it.
      const transaction = incomingMessage(api, read)?.cdtTrfTxInf?.[0];
      const value = transaction?.intrBkSttlmAmt?.value;
      real.record(
        judgeIncoming(
          p,
          status,
          transaction === undefined ? 'other shape' : typeof value === 'number' ? toMinor(value) : undefined,
        ),
        read,
      );
    });
  }
}
