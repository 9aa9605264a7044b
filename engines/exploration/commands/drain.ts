import { submitRefund } from '../../../client/flows/refunds';
import {
  BURST_LIMIT,
  type SequenceSystem,
  checkMoney,
  contestPending,
  refundMessage,
  sendRefund,
  type Turn,
} from '../executor';
import { is2xx } from '../../../messages/http-status';
import { judgeAnswer } from '../../../checks/exploration';
import { drainPlan, type SequenceModel, type TrackedPayment } from '../model';
import { money } from '../../../checks/payment-model';
import { labelOf, PaymentCommand, type StepOf } from './step-command';

/**
 * Refund all but a few pieces, then one piece too many at once. A total kept in floating point
 * loses a little on every piece near the top of a double's range and lets the extra one through;
 * exact minor units never do (MNY-01).
 */
export class Drain extends PaymentCommand<StepOf<'drain'>> {
  async run(model: SequenceModel, real: SequenceSystem): Promise<void> {
    const p = this.target(model);
    await real.step(this.describe(model), (api) => this.drain({ model, real, api }, p));
  }

  private plan(p: TrackedPayment): ReturnType<typeof drainPlan> {
    return drainPlan(p, BigInt(this.step.pieceCents), this.step.pieces, BURST_LIMIT);
  }

  private async drain(turn: Turn, p: TrackedPayment): Promise<void> {
    const { model, real, api } = turn;
    const piece = BigInt(this.step.pieceCents);
    const { first } = this.plan(p);
    if (first > 0n) await sendRefund(turn, p, 'beneficiary', first);
    // Planned again: what is left depends on whether that refund was accepted.
    const { count } = this.plan(p);
    const beneficiary = real.clients.beneficiary;
    await api.accessToken(beneficiary);
    const labels = Array.from({ length: count }, () => `refund F${++model.refunds}`);
    const answers = await Promise.all(
      labels.map((label, i) =>
        submitRefund(api, refundMessage(`${real.seed}|drain${i}`, p, piece), {
          client: beneficiary,
          label: `${label}: ${money(piece)} of ${p.label}, ${count} at once`,
        }),
      ),
    );
    answers.forEach((a, i) => {
      model.sentBack(p, labels[i]!, 'refund', 'beneficiary', piece, a.exchange.response.status, a.paymentsServiceId);
      if (is2xx(a.exchange.response.status)) contestPending(model, p);
      real.recordAnswer(
        judgeAnswer(
          { answer: 'either', why: 'sent at once with others' },
          a.exchange.response.status,
          `${labels[i]} of ${p.label}`,
          'RFD-01',
        ),
        a.exchange,
      );
    });
    await checkMoney(turn, p);
  }

  protected override describe(model: Readonly<SequenceModel>): string {
    const p = this.target(model);
    const plan = this.plan(p);
    const piece = money(BigInt(this.step.pieceCents));
    return `drain ${labelOf(p)}: ${plan.first > 0n ? `refund ${money(plan.first)}, then ` : ''}${plan.count} refund${plan.count === 1 ? '' : 's'} of ${piece} at once (${money(plan.left)} left: one too many)`;
  }
}
