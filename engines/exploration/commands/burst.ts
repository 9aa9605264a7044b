import type { Pacs004Message } from '../../../messages/pacs004';
import type { Pacs007Message } from '../../../messages/pacs007';
import { submitRefund } from '../../../client/flows/refunds';
import { submitReturn } from '../../../client/flows/returns';
import { BURST_LIMIT, type SequenceSystem, checkMoney, refundMessage, returnMessage, type Turn } from '../executor';
import { judgeAnswer, judgeSameRefundCopies } from '../../../checks/exploration';
import { burstPlan, maxOf, type SequenceModel, type TrackedPayment } from '../model';
import { money, restOf } from '../../../checks/payment-model';
import { labelOf, PaymentCommand, type StepOf } from './step-command';

/** N requests for one payment at once: which of them wins is open; what goes back in all is not (MNY-01, RFD-06). */
export class Burst extends PaymentCommand<StepOf<'burst'>> {
  // Applicable once nothing is left too: what then must all be refused is the point.
  override check(model: Readonly<SequenceModel>): boolean {
    return super.check(model) && this.step.copies >= 2;
  }

  private get copies(): number {
    return Math.min(this.step.copies, BURST_LIMIT);
  }

  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), (api) => this.fire({ model, real, api }, p));
  }

  private async fire(turn: Turn, p: TrackedPayment): Promise<void> {
    const { model, real, api } = turn;
    const { kind } = this.step;
    const copies = this.copies;
    const beneficiary = real.clients.beneficiary;
    await api.accessToken(beneficiary);
    // 'same refund': one message, one msgId, sent N times.
    const same = kind === 'same refund' ? refundMessage(`${real.seed}|same`, p, maxOf(1n, restOf(p) / 2n)) : undefined;
    const sameLabel = same ? `refund F${++model.refunds}` : '';
    const sends = burstPlan(p, kind, copies).map((s, i) =>
      s.kind === 'return'
        ? {
            ...s,
            message: returnMessage(real.profile, `${real.seed}|burst`, p, s.amount),
            label: `return R${++model.returns}`,
          }
        : {
            ...s,
            message: same ?? refundMessage(`${real.seed}|burst${i}`, p, s.amount),
            label: same ? `${sameLabel} (copy ${i + 1})` : `refund F${++model.refunds}`,
          },
    );
    const answers = await Promise.all(
      sends.map((s) =>
        s.kind === 'return'
          ? submitReturn(api, s.message as Pacs004Message, {
              client: beneficiary,
              label: `${s.label}: ${money(s.amount)} of ${p.label}, at once with the others`,
            })
          : submitRefund(api, s.message as Pacs007Message, {
              client: beneficiary,
              label: `${s.label}: ${money(s.amount)} of ${p.label}, at once with the others`,
            }),
      ),
    );
    answers.forEach((a, i) => {
      const s = sends[i]!;
      const http = a.exchange.response.status;
      // A 200 to a copy of one msgId is a repeat: it books nothing new.
      if (!(same && http === 200))
        model.sentBack(p, s.label, s.kind, 'beneficiary', s.amount, http, a.paymentsServiceId);
      real.recordAnswer(
        judgeAnswer(
          { answer: 'either', why: 'sent at once with others' },
          http,
          `${s.label} of ${p.label}`,
          s.kind === 'return' ? 'RTR-01' : 'RFD-01',
        ),
        a.exchange,
      );
    });
    if (same) real.record(judgeSameRefundCopies(answers.map((a) => a.exchange.response.status)));
    await checkMoney(turn, p);
  }

  protected override describe(model: Readonly<SequenceModel>): string {
    const p = this.target(model);
    return `burst on ${labelOf(p)}, at once: ${burstPlan(p, this.step.kind, this.copies)
      .map((s) => `${s.kind} ${money(s.amount)}`)
      .join(', ')}`;
  }
}
