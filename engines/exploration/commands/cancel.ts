import { buildCamt056 } from '../../../messages/camt056';
import { awaitCancellationOf, requestCancellation } from '../../../client/flows/cancellation';
import { servesMessage } from '../../../messages/answers';
import type { SequenceSystem } from '../executor';
import { judgeCancellation, judgeCancellationAnswer, judgeStrangerCancellation } from '../../../checks/exploration';
import { refOf, type SequenceModel } from '../model';
import { is2xx } from '../../../messages/http-status';
import { PaymentCommand, type StepOf } from './step-command';

/** A cancellation (camt.056) by the payer (CXL-01, CXL-03) or by another institution (CXL-01, XCL-01). */
export class Cancel extends PaymentCommand<StepOf<'cancel'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), async (api) => {
      const who = this.step.as;
      const client = real.client(who);
      const answer = await requestCancellation(
        api,
        buildCamt056({ seed: `${real.seed}|cancel`, original: p.message }),
        { client, label: `cancel ${p.label} (camt.056), as the ${who}` },
      );
      const status = answer.exchange.response.status;
      if (who === 'stranger') {
        // Accepted, the cancellation may still be rejected in its camt.029 (the flow table's channel).
        const resolution =
          is2xx(status) && answer.paymentsServiceId
            ? await awaitCancellationOf(
                api,
                { cancellation: answer.paymentsServiceId, payment: answer.paymentsServiceId },
                { client },
              )
            : undefined;
        if (is2xx(status) && resolution?.outcome !== 'rejected') p.strangerCancelled = true;
        const resolved = resolution && !servesMessage(resolution.exchange) ? 'unserved' : resolution?.outcome;
        return real.record(
          judgeStrangerCancellation(p, status, model.strangerRefs.has(refOf(p)), resolved),
          answer.exchange,
        );
      }
      const unanswered = judgeCancellationAnswer(p, status);
      if (unanswered) return real.record(unanswered, answer.exchange);
      if (!is2xx(status)) return;
      // Rejected means not cancelled only for a payment's first cancellation: after another, whose
      // outcome the model did not learn, a rejection may say the payment is cancelled already.
      const first = p.cancellation === 'none';
      if (p.cancellation !== 'confirmed') p.cancellation = 'asked';
      const resolution = await awaitCancellationOf(
        api,
        { ...(answer.paymentsServiceId ? { cancellation: answer.paymentsServiceId } : {}), payment: p.id },
        { client },
      );
      real.record(judgeCancellation(p, resolution.outcome));
      if (resolution.outcome === 'confirmed') p.cancellation = 'confirmed';
      else if (resolution.outcome === 'rejected' && first) p.cancellation = 'rejected';
    });
  }
}
