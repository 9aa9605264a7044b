/**
 * Settlement lifecycle (README "Lifecycle"): unsent transfers wait per client until their batch is
 * cut (automatically every REF_BATCH_INTERVAL_MS, or by the admin send-batch call for manual
 * clients), then settle REF_SETTLEMENT_DELAY_MS later. One interval timer drives everything; no
 * per-payment timers, so load does not multiply timers.
 */
import type { Config } from './config';
import type { Registry } from './registry';
import type { Transfer } from './ledger-of-payments/store';
import { localDateTime } from './ledger-of-payments/store';
import { sendNotification } from './notifications';

export const REJECT_REASON_CLOSED_ACCOUNT = 'AC04';
/** Housekeeping (expired tokens, jti and nonce memory) runs this often: each run then has about a second's worth to forget. */
const HOUSEKEEPING_MS = 1_000;

interface InFlight {
  transfer: Transfer;
  settleAtMs: number;
}

export class Lifecycle {
  private readonly unsent = new Map<string, Transfer[]>();
  /** FIFO: the delay is constant, so settle times are non-decreasing in insertion order. */
  private inFlight: InFlight[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | null = null;
  private nextCutAtMs = 0;
  private nextPruneAtMs = 0;

  constructor(
    private readonly config: Config,
    private readonly registry: Registry,
    private readonly housekeeping: (nowMs: number) => void,
  ) {}

  start(): void {
    const base = Math.min(
      this.config.batchIntervalMs,
      this.config.settlementDelayMs > 0 ? this.config.settlementDelayMs : this.config.batchIntervalMs,
    );
    const tickMs = Math.min(50, Math.max(5, Math.floor(base / 2)));
    const now = Date.now();
    this.nextCutAtMs = now + this.config.batchIntervalMs;
    this.nextPruneAtMs = now + HOUSEKEEPING_MS;
    this.timer = setInterval(() => this.tick(Date.now()), tickMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  enqueue(transfer: Transfer): void {
    let queue = this.unsent.get(transfer.clientId);
    if (!queue) {
      queue = [];
      this.unsent.set(transfer.clientId, queue);
    }
    queue.push(transfer);
  }

  /** Cuts and sends the client's batch now; returns the ids sent. */
  sendBatch(clientId: string, nowMs = Date.now()): string[] {
    const queue = this.unsent.get(clientId);
    if (!queue || queue.length === 0) return [];
    if (this.registry.get(clientId)?.faults.has('settlement-never')) return [];
    this.unsent.delete(clientId);
    const sent: string[] = [];
    const settleAtMs = nowMs + this.config.settlementDelayMs;
    for (const transfer of queue) {
      // Cancelled while waiting: left out of the batch (the fault sends it all the same).
      if (
        transfer.phase === 'cancelled' &&
        this.registry.get(transfer.clientId)?.faults.has('cancel-confirmed-yet-settles')
      )
        transfer.phase = 'submitted';
      // cancel-confirmed-stays-pending: the defect leaves a cancelled payment out of the batch but never
      // marks it cancelled: it reads pending for ever, the money neither sent nor back with the payer.
      if (
        transfer.phase === 'cancelled' &&
        this.registry.get(transfer.clientId)?.faults.has('cancel-confirmed-stays-pending')
      ) {
        transfer.phase = 'submitted';
        continue;
      }
      if (transfer.phase !== 'submitted') continue;
      transfer.phase = 'sent';
      this.inFlight.push({ transfer, settleAtMs });
      sent.push(transfer.id);
    }
    if (this.config.settlementDelayMs === 0) this.settleDue(nowMs);
    return sent;
  }

  /** Cancels a transfer whose batch has not been sent; false when it is too late. */
  cancel(transfer: Transfer): boolean {
    if (transfer.phase !== 'submitted') return false;
    transfer.phase = 'cancelled';
    return true;
  }

  private tick(nowMs: number): void {
    if (nowMs >= this.nextCutAtMs) {
      this.nextCutAtMs = nowMs + this.config.batchIntervalMs;
      for (const clientId of [...this.unsent.keys()]) {
        const client = this.registry.get(clientId);
        if (!client || client.batching === 'auto') this.sendBatch(clientId, nowMs);
      }
    }
    this.settleDue(nowMs);
    if (nowMs >= this.nextPruneAtMs) {
      this.nextPruneAtMs = nowMs + HOUSEKEEPING_MS;
      this.housekeeping(nowMs);
    }
  }

  private settleDue(nowMs: number): void {
    // One acceptance time for everything settled in this pass (formatted once, not per transfer).
    let acceptedAt: string | null = null;
    while (this.head < this.inFlight.length) {
      const next = this.inFlight[this.head]!;
      if (next.settleAtMs > nowMs) break;
      this.head++;
      this.settle(next.transfer, (acceptedAt ??= new Date(nowMs).toISOString()));
    }
    if (this.head > 1024 && this.head * 2 > this.inFlight.length) {
      this.inFlight = this.inFlight.slice(this.head);
      this.head = 0;
    }
  }

  private settle(transfer: Transfer, acceptedAt: string): void {
    if (transfer.phase !== 'sent') return; // statuses never move backwards
    if (transfer.pendingRejection) {
      transfer.phase = 'rejected';
      transfer.rejectReason = transfer.pendingRejection;
      return;
    }
    if (transfer.kind === 'payment' && transfer.creditorAccount === this.config.rejectAccount) {
      transfer.phase = 'rejected';
      transfer.rejectReason = REJECT_REASON_CLOSED_ACCOUNT;
      return;
    }
    transfer.phase = 'accepted';
    transfer.acceptedAt = acceptedAt;
    this.notifyBeneficiary(transfer);
  }

  private notifyBeneficiary(transfer: Transfer): void {
    if (transfer.kind !== 'payment' || !transfer.beneficiaryClientId) return;
    const beneficiary = this.registry.get(transfer.beneficiaryClientId);
    if (!beneficiary?.notificationUrl) return;
    // The fault is the payer's or the beneficiary's: either switches notifications off.
    const payer = this.registry.get(transfer.clientId);
    if (beneficiary.faults.has('notification-not-sent') || payer?.faults.has('notification-not-sent')) return;
    sendNotification(beneficiary.notificationUrl, {
      event: 'payment.incoming',
      paymentsServiceId: String(transfer.response.paymentsServiceId ?? transfer.id),
      creationDateTime: localDateTime(transfer.createdAtMs, payer?.dialect.localTimeForm),
    });
  }
}
