/**
 * In-memory ledger of transfers (payments, returns, refunds) and cancellations, with the indexes the
 * routes need: by id, by per-client idempotency key, and by original reference (msgId + txId).
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../errors';

export type TransferKind = 'payment' | 'return' | 'refund';
/** submitted -> sent -> accepted | rejected; submitted -> cancelled. Never backwards. */
export type Phase = 'submitted' | 'sent' | 'accepted' | 'rejected' | 'cancelled';

export interface Transfer {
  kind: TransferKind;
  id: string;
  /** Extra lookup key (only the payment-psid-not-string fault uses it). */
  alias: string | null;
  clientId: string;
  msgId: string;
  endToEndId: string;
  txId: string;
  /** ISO name of the submitted message, echoed in pacs.002 orgnlMsgNmId. */
  messageName: string;
  amountCents: number;
  /** SHA-256 (base64) of the raw request body: tells a true repeat from an idempotency conflict. */
  requestHash: string;
  /** The message as submitted (the incoming-payment read serves it); see StoredMessage. */
  message: StoredMessage;
  /** The data object of the submission response, replayed verbatim on repeats. */
  response: Record<string, unknown>;
  createdAtMs: number;
  phase: Phase;
  /** Set at submission for a business rejection reported by status (dialect businessRejection=status). */
  pendingRejection: string | null;
  rejectReason: string | null;
  acceptedAt: string | null;
  /** The client whose memberId is the creditor agent (payments only). */
  beneficiaryClientId: string | null;
  /** cdtTrfTxInf.pmtId.uetr of a payment, when it carried one. */
  uetr: string | null;
  creditorAccount: string;
  cancellationRequested: boolean;
  /** A return of this payment is booked (counted from its submission, unless it will settle as rejected). */
  returned: boolean;
  /** Sum of the booked refunds of this payment, in exact integer cents. */
  refundedCents: number;
  /** The same sum as floating-point pounds: only the money-float-amounts fault compares it. */
  refundedPounds: number;
  /** For returns and refunds: the payment they refer to, when known. */
  original: Transfer | null;
  /** Reads of a final status so far (status-regresses and rejection-reads-accepted faults). */
  finalReads: number;
  /** Reports of its rejection so far (status-reason-first-read-only fault). */
  rejectionReads: number;
  /** When a read first found it final (status-reverts-later fault; where a settling code's time starts). */
  finalReadAtMs: number | null;
  /** When the last refund of this payment arrived (refund-race-overrun fault). */
  lastRefundAtMs: number | null;
}

export interface Cancellation {
  id: string;
  assignmentId: string;
  assignmentCreDtTm: string;
  /** The BIC the camt.056 named its assigner by: the resolution's assignee. */
  assignerBic: string | null;
  clientId: string;
  cxlId: string | null;
  target: Transfer | null;
  orgnlMsgId: string;
  orgnlMsgNmId: string;
  orgnlEndToEndId: string;
  orgnlTxId: string;
  outcome: 'CNCL' | 'RJCR';
  /** Reads still to answer PDCR before the outcome (cancel-settled-pending-then-confirmed fault). */
  pendingReads?: number;
  rejectReason: string | null;
  requestHash: string;
  response: Record<string, unknown>;
  createdAtMs: number;
}

/**
 * A stored message is the request body's text (as decoded and accepted by parseJsonBody) plus the key
 * of the element to serve (null: the whole body), parsed again when read. Why not the parsed tree:
 * every stored payment would keep dozens of live objects on the JS heap, and under load each scavenge
 * would copy the trees of all payments stored since the last one; one flat string is a single cheap copy. (Not the
 * raw Buffer either: retained Buffers count as external memory and trigger extra full GCs.) Reads are rare.
 */
export interface StoredMessage {
  readonly text: string;
  readonly rootKey: string | null;
}

export function storedMessage(text: string, rootKey: string | null): StoredMessage {
  return { text, rootKey };
}

/** The stored message as a fresh JSON object (the element under rootKey, or the whole body). */
export function readMessage(message: StoredMessage): Record<string, unknown> {
  const body = JSON.parse(message.text) as Record<string, unknown>;
  if (message.rootKey === null) return body;
  const root = body[message.rootKey];
  return typeof root === 'object' && root !== null && !Array.isArray(root) ? (root as Record<string, unknown>) : {};
}

/** Date-time without zone (spec §2.3 creationDateTime), to the second or to the minute (a dialect's localTimeForm). */
export function localDateTime(ms: number, form: 'seconds' | 'minutes' = 'seconds'): string {
  // Whole seconds: consecutive calls (every submission) mostly fall in the same second, so format once per second.
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastText = new Date(ms).toISOString().slice(0, 19);
    lastSecond = second;
  }
  return form === 'minutes' ? lastText.slice(0, 16) : lastText;
}
let lastSecond = Number.NaN;
let lastText = '';

/** Settled (accepted or rejected) or cancelled: the transfer will never change again. */
export function isFinal(transfer: Transfer): boolean {
  return transfer.phase === 'accepted' || transfer.phase === 'rejected' || transfer.phase === 'cancelled';
}

/** What a message says about the payment it refers to, beyond msgId and txId. */
export interface RefHints {
  endToEndId?: string | null;
  /** Compared by value (a return's EUR amount against the GBP original, README). */
  amountCents?: number | null;
}

export type RefLookup = { found: Transfer; ambiguous: false } | { found: null; ambiguous: boolean };

/**
 * One payment out of those sharing a reference: the only one, or else the only one that also
 * matches the endToEndId and the amount given. Several left (or none after narrowing): ambiguous.
 */
export function pickByHints(candidates: readonly Transfer[], hints: RefHints): RefLookup {
  if (candidates.length === 0) return { found: null, ambiguous: false };
  if (candidates.length === 1) return { found: candidates[0]!, ambiguous: false };
  let narrowed = candidates;
  if (hints.endToEndId) narrowed = narrowed.filter((p) => p.endToEndId === hints.endToEndId);
  if (hints.amountCents !== undefined && hints.amountCents !== null)
    narrowed = narrowed.filter((p) => p.amountCents === hints.amountCents);
  return narrowed.length === 1 ? { found: narrowed[0]!, ambiguous: false } : { found: null, ambiguous: true };
}

export class Store {
  private readonly transfers = new Map<string, Transfer>();
  private readonly idempotency = new Map<string, Transfer>();
  /** Per client, the rtrId of each of its returns (§2.5: "must uniquely identify each request"). */
  private readonly returnIds = new Map<string, Transfer>();
  /** (msgId, txId) -> every payment with that reference, oldest first: clients choose their ids
   *  independently, so several payments (of different clients) may share one. */
  private readonly paymentsByRef = new Map<string, Transfer | Transfer[]>();
  /** (client, UETR) -> the client's payment that carried it: ISO 20022 makes a UETR one payment's. */
  private readonly uetrs = new Map<string, Transfer>();
  private readonly cancellations = new Map<string, Cancellation>();
  private readonly cancellationsByAssignment = new Map<string, Cancellation>();
  /** Payment id -> its cancellations, oldest first (camt.029 by payment id reads the latest). */
  private readonly cancellationsByPayment = new Map<string, Cancellation[]>();
  private sequence = 0;
  /** Clients whose new payment already took an earlier payment's id (id-reused-after-final fault). */
  private readonly reusedIdBy = new Set<string>();
  /** Stored transfers in arrival order (in-flight ones moved back when passed over): eviction order. */
  private ageQueue: (Transfer | undefined)[] = [];
  private ageHead = 0;
  private stored = 0;

  /** `maxTransfers` (REF_MAX_TRANSFERS) bounds the transfers kept, and separately the cancellations. */
  constructor(
    private readonly idFormat: 'uuid' | 'prefixed',
    private readonly maxTransfers = Number.POSITIVE_INFINITY,
  ) {}

  /** Transfers held now (for tests and diagnostics). */
  get size(): number {
    return this.stored;
  }

  /** `format`: the submitting client's dialect paymentsServiceIdFormat (default: the process dialect's). */
  newId(format: 'uuid' | 'prefixed' = this.idFormat): string {
    if (format === 'uuid') return randomUUID();
    // PSI + 20 digits: millisecond clock (13) + per-process counter (7) keeps them unique and sortable.
    this.sequence = (this.sequence + 1) % 10_000_000;
    return `PSI${String(Date.now()).padStart(13, '0')}${String(this.sequence).padStart(7, '0')}`;
  }

  nextSequence(): number {
    return ++this.sequence;
  }

  static idemKey(kind: string, clientId: string, key: string): string {
    return `${kind}\u0000${clientId}\u0000${key}`;
  }

  static refKey(msgId: string, txId: string): string {
    return `${msgId}\u0000${txId}`;
  }

  findByIdempotency(kind: TransferKind, clientId: string, msgId: string): Transfer | undefined {
    return this.idempotency.get(Store.idemKey(kind, clientId, msgId));
  }

  /** Any client's transfer of `kind` under this idempotency key (only the msgid-idempotency-across-clients fault asks). */
  findByIdempotencyOfAnyClient(kind: TransferKind, msgId: string): Transfer | undefined {
    for (const [key, transfer] of this.idempotency)
      if (key.startsWith(`${kind}\u0000`) && key.endsWith(`\u0000${msgId}`)) return transfer;
    return undefined;
  }

  /** The client's payment that carried this UETR. */
  findPaymentByUetr(clientId: string, uetr: string): Transfer | undefined {
    return this.uetrs.get(Store.idemKey('uetr', clientId, uetr));
  }

  /** The caller's earlier return carrying this rtrId (a return's txId is its rtrId). */
  findReturnById(clientId: string, rtrId: string): Transfer | undefined {
    return this.returnIds.get(Store.idemKey('return', clientId, rtrId));
  }

  /** Adds a transfer; `indexIdempotency` false lets the idempotency fault create an unindexed twin. */
  add(transfer: Transfer, indexIdempotency = true): void {
    // First, before anything changes: a full store refuses the transfer (503) without side effects.
    if (this.stored >= this.maxTransfers) this.makeRoom();
    this.ageQueue.push(transfer);
    this.stored++;
    this.transfers.set(transfer.id, transfer);
    if (transfer.alias) this.transfers.set(transfer.alias, transfer);
    if (indexIdempotency)
      this.idempotency.set(Store.idemKey(transfer.kind, transfer.clientId, transfer.msgId), transfer);
    if (transfer.kind === 'return' && transfer.txId)
      this.returnIds.set(Store.idemKey('return', transfer.clientId, transfer.txId), transfer);
    if (transfer.kind === 'payment') {
      if (indexIdempotency && transfer.uetr)
        this.uetrs.set(Store.idemKey('uetr', transfer.clientId, transfer.uetr), transfer);
      // One transfer per reference is the rule, so the common case stores no array.
      const key = Store.refKey(transfer.msgId, transfer.txId);
      const previous = this.paymentsByRef.get(key);
      if (previous === undefined) this.paymentsByRef.set(key, transfer);
      else if (Array.isArray(previous)) previous.push(transfer);
      else this.paymentsByRef.set(key, [previous, transfer]);
    }
  }

  /**
   * The defect of id-reused-after-final, once per client: the id of one of the client's payments that
   * is final and was created at least `olderThanMs` ago, to be given to its next payment.
   */
  reusableId(clientId: string, nowMs: number, olderThanMs: number): string | undefined {
    if (this.reusedIdBy.has(clientId)) return undefined;
    for (const transfer of this.transfers.values()) {
      if (nowMs - transfer.createdAtMs < olderThanMs) return undefined; // in arrival order: the rest are younger
      if (transfer.kind !== 'payment' || transfer.clientId !== clientId || !isFinal(transfer)) continue;
      this.reusedIdBy.add(clientId);
      return transfer.id;
    }
    return undefined;
  }

  get(id: string): Transfer | undefined {
    return this.transfers.get(id);
  }

  /** Every payment with this original reference, oldest first, whoever sent or received it. */
  paymentsWithRef(msgId: string, txId: string): readonly Transfer[] {
    const entry = this.paymentsByRef.get(Store.refKey(msgId, txId));
    return entry === undefined ? [] : Array.isArray(entry) ? entry : [entry];
  }

  /**
   * The caller's own payment by original reference (cancellations). A client's msgIds are unique
   * among its payments (idempotency), so the idempotency index names it; the reference index only
   * serves payments that index does not hold (the idempotency faults' unindexed twins).
   */
  findOwnPayment(clientId: string, msgId: string, txId: string, hints: RefHints = {}): Transfer | undefined {
    const indexed = this.idempotency.get(Store.idemKey('payment', clientId, msgId));
    if (indexed && indexed.txId === txId) return indexed;
    return (
      pickByHints(
        this.paymentsWithRef(msgId, txId).filter((p) => p.clientId === clientId),
        hints,
      ).found ?? undefined
    );
  }

  /** A payment the caller received (it is the beneficiary) by original reference (returns, refunds). */
  findIncomingPayment(beneficiaryClientId: string, msgId: string, txId: string, hints: RefHints = {}): RefLookup {
    return pickByHints(
      this.paymentsWithRef(msgId, txId).filter((p) => p.beneficiaryClientId === beneficiaryClientId),
      hints,
    );
  }

  findCancellation(clientId: string, assignmentId: string): Cancellation | undefined {
    return this.cancellationsByAssignment.get(Store.idemKey('camt056', clientId, assignmentId));
  }

  /**
   * Evicts the oldest final transfer (settled, rejected or cancelled) with every index entry that
   * names it. Transfers still in flight are never evicted: they are passed over (and looked at
   * again after the newer ones); when nothing is final, the new transfer is refused with 503.
   */
  private makeRoom(): void {
    const candidates = this.ageQueue.length - this.ageHead;
    for (let looked = 0; looked < candidates; looked++) {
      const oldest = this.ageQueue[this.ageHead]!;
      this.ageQueue[this.ageHead++] = undefined;
      if (isFinal(oldest)) {
        this.evict(oldest);
        this.compactAgeQueue();
        return;
      }
      this.ageQueue.push(oldest);
    }
    this.compactAgeQueue();
    throw new ApiError(
      503,
      {
        code: 'service_unavailable',
        message: `the service holds ${this.stored} transfers still in flight (REF_MAX_TRANSFERS); retry once some have settled`,
      },
      { 'Retry-After': '1' },
    );
  }

  private compactAgeQueue(): void {
    if (this.ageHead > 1024 && this.ageHead * 2 > this.ageQueue.length) {
      this.ageQueue = this.ageQueue.slice(this.ageHead);
      this.ageHead = 0;
    }
  }

  private evict(transfer: Transfer): void {
    this.stored--;
    if (this.transfers.get(transfer.id) === transfer) this.transfers.delete(transfer.id);
    if (transfer.alias && this.transfers.get(transfer.alias) === transfer) this.transfers.delete(transfer.alias);
    const idem = Store.idemKey(transfer.kind, transfer.clientId, transfer.msgId);
    if (this.idempotency.get(idem) === transfer) this.idempotency.delete(idem);
    const returnId = Store.idemKey('return', transfer.clientId, transfer.txId);
    if (transfer.kind === 'return' && this.returnIds.get(returnId) === transfer) this.returnIds.delete(returnId);
    if (transfer.kind !== 'payment') return;
    const uetr = transfer.uetr ? Store.idemKey('uetr', transfer.clientId, transfer.uetr) : undefined;
    if (uetr && this.uetrs.get(uetr) === transfer) this.uetrs.delete(uetr);
    const ref = Store.refKey(transfer.msgId, transfer.txId);
    const entry = this.paymentsByRef.get(ref);
    if (entry === transfer) this.paymentsByRef.delete(ref);
    else if (Array.isArray(entry)) {
      const rest = entry.filter((p) => p !== transfer);
      if (rest.length === 0) this.paymentsByRef.delete(ref);
      else this.paymentsByRef.set(ref, rest.length === 1 ? rest[0]! : rest);
    }
    for (const cancellation of this.cancellationsByPayment.get(transfer.id) ?? [])
      this.removeCancellation(cancellation);
  }

  private removeCancellation(cancellation: Cancellation): void {
    this.cancellations.delete(cancellation.id);
    const key = Store.idemKey('camt056', cancellation.clientId, cancellation.assignmentId);
    if (this.cancellationsByAssignment.get(key) === cancellation) this.cancellationsByAssignment.delete(key);
    if (!cancellation.target) return;
    const list = this.cancellationsByPayment.get(cancellation.target.id);
    const rest = list?.filter((c) => c !== cancellation) ?? [];
    if (rest.length === 0) this.cancellationsByPayment.delete(cancellation.target.id);
    else this.cancellationsByPayment.set(cancellation.target.id, rest);
  }

  addCancellation(cancellation: Cancellation): void {
    // Cancellations are final when stored (decided on arrival): the oldest one goes first.
    if (this.cancellations.size >= this.maxTransfers) {
      const oldest = this.cancellations.values().next().value;
      if (oldest) this.removeCancellation(oldest);
    }
    this.cancellations.set(cancellation.id, cancellation);
    this.cancellationsByAssignment.set(
      Store.idemKey('camt056', cancellation.clientId, cancellation.assignmentId),
      cancellation,
    );
    if (cancellation.target) {
      const list = this.cancellationsByPayment.get(cancellation.target.id);
      if (list) list.push(cancellation);
      else this.cancellationsByPayment.set(cancellation.target.id, [cancellation]);
    }
  }

  /** The cancellation requests on record for a payment, oldest first. */
  cancellationsOf(paymentId: string): readonly Cancellation[] {
    return this.cancellationsByPayment.get(paymentId) ?? [];
  }

  /** camt.029 lookup: by the cancellation's own id or by the cancelled payment's id. */
  getCancellation(id: string): Cancellation | undefined {
    return this.cancellations.get(id) ?? this.cancellationsByPayment.get(id)?.at(-1);
  }
}

/** What a route supplies; everything else of a Transfer starts at its initial value. */
export type NewTransfer = Pick<
  Transfer,
  | 'kind'
  | 'id'
  | 'clientId'
  | 'msgId'
  | 'endToEndId'
  | 'txId'
  | 'messageName'
  | 'amountCents'
  | 'requestHash'
  | 'message'
  | 'response'
  | 'createdAtMs'
> &
  Partial<
    Pick<Transfer, 'beneficiaryClientId' | 'creditorAccount' | 'original' | 'pendingRejection' | 'alias' | 'uetr'>
  >;

export function createTransfer(input: NewTransfer): Transfer {
  return {
    kind: input.kind,
    id: input.id,
    alias: input.alias ?? null,
    clientId: input.clientId,
    msgId: input.msgId,
    endToEndId: input.endToEndId,
    txId: input.txId,
    messageName: input.messageName,
    amountCents: input.amountCents,
    requestHash: input.requestHash,
    message: input.message,
    response: input.response,
    createdAtMs: input.createdAtMs,
    phase: 'submitted',
    pendingRejection: input.pendingRejection ?? null,
    rejectReason: null,
    acceptedAt: null,
    beneficiaryClientId: input.beneficiaryClientId ?? null,
    uetr: input.uetr ?? null,
    creditorAccount: input.creditorAccount ?? '',
    cancellationRequested: false,
    returned: false,
    refundedCents: 0,
    refundedPounds: 0,
    original: input.original ?? null,
    finalReads: 0,
    rejectionReads: 0,
    finalReadAtMs: null,
    lastRefundAtMs: null,
  };
}
