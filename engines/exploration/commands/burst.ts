import type { Pacs004Message } from '../../../messages/pacs004';
import type { Pacs007Message } from '../../../messages/pacs007';
import { submitRefund } from '../../../client/flows/refunds';
import { submitReturn } from '../../../client/flows/returns';
import { BURST_LIMIT, type SequenceSystem, checkMoney, refundMessage, returnMessage, type Turn } from '../executor';
import { judgeAnswer, judgeSameRefundCopies } from '../../../checks/exploration';
import { burstPlan, maxOf, type SequenceModel, type TrackedPayment } from '../model';
import { money, restOf } from '../../../checks/payment-model';
import { is2xx } from '../../../messages/http-status';
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
            // One return alone keeps its seed (the sequences found with it replay); each of several its own.
            message: returnMessage(
              real.profile,
              kind === 'returns' ? `${real.seed}|burst${i}` : `${real.seed}|burst`,
              p,
              s.amount,
            ),
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
    // Copies of one msgId: one answered with an id an earlier copy named is a repeat, whatever its 2xx
    // (a server may answer every copy 201 with the one refund's id); one naming no id, only a 200 says so.
    const named = new Set<string>();
    answers.forEach((a, i) => {
      const s = sends[i]!;
      const http = a.exchange.response.status;
      const id = a.paymentsServiceId;
      const repeat = same !== undefined && (id !== undefined && is2xx(http) ? named.has(id) : http === 200);
      if (same && id !== undefined && is2xx(http)) named.add(id);
      if (!repeat) model.sentBack(p, s.label, s.kind, 'beneficiary', s.amount, http, id);
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
    if (same)
      real.record(
        judgeSameRefundCopies(answers.map((a) => ({ http: a.exchange.response.status, id: a.paymentsServiceId }))),
      );
    await checkMoney(turn, p);
  }

  protected override describe(model: Readonly<SequenceModel>): string {
    const p = this.target(model);
    return `burst on ${labelOf(p)}, at once: ${burstPlan(p, this.step.kind, this.copies)
      .map((s) => `${s.kind} ${money(s.amount)}`)
      .join(', ')}`;
  }
}
