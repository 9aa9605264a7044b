import { paymentIds } from '../../../messages/pacs008';
import { paymentTo } from '../../../client/flows/incoming';
import { submitPayment } from '../../../client/flows/payment';
import { type SequenceSystem, checkNoSecondPayment } from '../executor';
import { judgeDuplicates } from '../../../checks/exploration';
import { refusedInFlight } from '../../../checks/answers';
import type { SequenceModel } from '../model';
import { describeStep } from '../steps';
import { StepCommand, type StepOf } from './step-command';

/** N copies of one new payment at once: one 201, the rest 200 (IDEM-03; or refused in flight, then 200), never a second payment (IDEM-02). */
export class PayDuplicates extends StepCommand<StepOf<'pay duplicates'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    await real.step(describeStep(this.step), async (api) => {
      const { copies } = this.step;
      const label = model.nextPaymentLabel;
      const message = paymentTo(real.clients.beneficiary, `${real.seed}|${label}`, { amount: 10 });
      await api.accessToken(real.clients.payer); // one token for all: the race is on the submission only
      const answers = await Promise.all(
        Array.from({ length: copies }, (_, i) =>
          submitPayment(api, message, { client: real.clients.payer, label: `${label}, copy ${i + 1} of ${copies}` }),
        ),
      );
      model.submitted++;
      // A copy refused while the first was in flight is sent again once it is done.
      const again = await Promise.all(
        answers
          .filter((a) => refusedInFlight(a.exchange.response.status))
          .map((_, i) =>
            submitPayment(api, message, {
              client: real.clients.payer,
              label: `${label}, copy refused in flight, again (${i + 1})`,
            }),
          ),
      );
      const told = (a: (typeof answers)[number]) => ({ http: a.exchange.response.status, id: a.paymentsServiceId });
      real.record(judgeDuplicates(label, answers.map(told), again.map(told)));
      const created = [...answers, ...again].filter((a) => a.exchange.response.status === 201);
      for (const a of created.slice(1))
        if (a.paymentsServiceId) model.created.set(a.paymentsServiceId, paymentIds(message).msgId);
      if (created[0]) model.track(label, message, 1000n, 201, created[0].paymentsServiceId);
      await checkNoSecondPayment({ model, real, api });
    });
  }
}
