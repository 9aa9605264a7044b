/**
 * The run as one history: properties no single test can see, judged over every request of a run
 * (record/history.ts; client/history-recorder.ts writes it), across tests, workers and background
 * work, in one pass in time order with per-resource indexes.
 *
 *   identity    one msgId of one client names one payment; two payments the service created never
 *               share an id (IDEM-02, P8-33; XCL-01 across clients); a status report of a payment,
 *               return or refund names the msgId of the request that created it (STS-03), whoever reads it
 *   lifecycle   every read of a resource's status follows one path: §3's final codes (ACCC, RJTC) are
 *               never followed by another code (STS-10); a change after any other code is the target's
 *               (profile/status-vocabulary.ts statusChange)
 *   money       per original payment, the returns and refunds that went back never exceed it (MNY-01)
 *   visibility  no client reads another client's resource unless the history shows it is that
 *               payment's beneficiary (STS-13, INC-03, CXL-07)
 *   repeats     the answer to a repeat names the payment of the first submission and is no 201,
 *               whichever test sent it (IDEM-01, IDEM-02; a return's names no other return, RTR-05)
 *   tokens     an access token the target refused (401) on a read before its expires_in passed, the
 *               same read then taken with a newer token of the same client, died early (AT-05)
 *   cancellation a payment whose cancellation the target confirmed (camt.029, the profile's codes)
 *               never reads accepted, nor is it returned or refunded: §1 rule 3 returns it to the
 *               payer before its batch is sent (CXL-02); read settled before the cancellation was
 *               asked, its batch was sent, and rule 4 rejects the cancellation (CXL-03); its only
 *               cancellation rejected, its batch was sent, and it is not cancelled (CXL-03)
 *
 * Right both ways. Order is real time: a read is "after" a final read only if it was sent after that
 * read was answered; concurrent requests are not ordered. A POST whose answer never came, or came as
 * a 5xx, is indeterminate (maybe applied) and is taken both ways: a violation is reported only when
 * every resolution of the indeterminate requests breaks the rule, otherwise the judgement is
 * undecided (never failed): it leaves the evidence of the test that sent those requests inconclusive,
 * and the property only when nothing else of it was decided. What the spec leaves open is not judged:
 * which codes are final comes from the profile's status vocabulary, a repeat's body may name no id,
 * a reader is another client's beneficiary when the history cannot tell otherwise. What a request's
 * body does not say, the target's own answers in the same history may: whose payment it is, as the
 * incoming view the target served names its creditor agent.
 */
import {
  RUNNER_WORKER,
  type EvidenceLine,
  type HistoryComplete,
  type HistoryInvoke,
  type HistoryLine,
  type HistoryMeta,
  type WorkerHistory,
} from '../record/history';
import type { StatusClass } from '../profile/profile';
import { classifyStatus, finalityOf, isFinalStatus } from '../profile/status-vocabulary';
import { formatMinor } from '../messages/money';
import { ruleOf } from '../ledger/rules';
import { forbiddenMove, money, moneyVerdict, type MoneyBack, type PaymentMoney } from './payment-model';

export type HistoryProperty = 'identity' | 'lifecycle' | 'money' | 'visibility' | 'repeats' | 'cancellation' | 'tokens';

export const HISTORY_PROPERTIES: readonly { property: HistoryProperty; title: string; rules: readonly string[] }[] = [
  {
    property: 'identity',
    title:
      'one msgId of one client names one payment; no two created payments share an id; each one’s status report names its msgId',
    rules: ['IDEM-02', 'P8-33', 'XCL-01', 'STS-03'],
  },
  {
    property: 'lifecycle',
    title:
      'every status read of a resource follows one path: a final status (ACCC, RJTC) stays final, and of its class',
    rules: ['STS-10'],
  },
  {
    property: 'money',
    title: 'per payment, returns and refunds together never send back more than was paid',
    rules: ['MNY-01'],
  },
  {
    property: 'visibility',
    title: 'no client reads another client’s resource unless it is that payment’s beneficiary',
    rules: ['STS-13', 'INC-03', 'CXL-07'],
  },
  {
    property: 'repeats',
    title: 'a repeat names the resource of the first submission, and a payment’s is answered 200',
    rules: ['IDEM-01', 'IDEM-02', 'RTR-05'],
  },
  {
    property: 'cancellation',
    title:
      'a payment whose cancellation the target confirmed never settles accepted, nor goes back again; one whose only cancellation it rejected is not cancelled',
    rules: ['CXL-02', 'CXL-03'],
  },
  {
    property: 'tokens',
    title: 'an access token is taken on a read until its expires_in has passed',
    rules: ['AT-05'],
  },
];

export interface HistoryViolation {
  property: HistoryProperty;
  rule: string;
  what: string;
  expected: string;
  received: string;
  /** The smallest sub-history that proves it, in order. */
  evidence: EvidenceLine[];
}

/** A property the history cannot decide here: only the indeterminate requests, or what it cannot see, would break it. */
export interface HistoryUndecided {
  property: HistoryProperty;
  rule: string;
  /** The test, or the background work, whose requests left it open: its evidence alone is inconclusive. */
  test: string;
  what: string;
  why: string;
  evidence: EvidenceLine[];
}

export type PropertyStatus = 'passed' | 'failed' | 'inconclusive' | 'not exercised';

export interface PropertyResult {
  property: HistoryProperty;
  title: string;
  rules: readonly string[];
  status: PropertyStatus;
  /** How many judgements the property made (pairs, reads, payments). */
  checked: number;
  violationCount: number;
  /** Every violation counted per rule (the listed ones are the first few). */
  violationsByRule: Record<string, number>;
  violations: HistoryViolation[];
  undecidedCount: number;
  undecided: HistoryUndecided[];
  /** Rules whose every judgement here was undecided: the history says nothing of them either way. */
  undecidedRules: string[];
  /** Rules the history judged at least once, held or broken: a property speaks only of these. */
  decidedRules: string[];
}

export interface HistoryVerdict {
  project: string;
  profile: string;
  workers: number;
  /** Requests the target saw (every attempt), and history lines read (invoke and complete). */
  requests: number;
  events: number;
  /** POSTs whose answer never came or came as a 5xx: maybe applied. */
  indeterminate: { count: number; shown: EvidenceLine[] };
  status: 'passed' | 'failed' | 'inconclusive';
  properties: PropertyResult[];
  checkedInMs: number;
}

/** How many violations and undecided cases a property lists in full (all are counted). */
const LISTED = 10;

// ── the operations of the history ──────────────────────────────────────────────────────────────

interface Op {
  worker: number;
  by: string;
  client: string | undefined;
  inv: HistoryInvoke;
  done: HistoryComplete | undefined;
  /** A read of a status: the first read of a code that never changes (ACCC, RJTC), answered before it was sent. */
  finalBefore?: FinalRead;
  /** A submission: the earlier one of its key that was answered 2xx before it was sent. */
  firstOfKey?: Op;
}

interface FinalRead {
  cls: StatusClass;
  code: string;
  op: Op;
}

interface ClientInfo {
  role?: string;
  member?: string;
}

const SUBMISSIONS = new Set(['submitPayment', 'returnPayment', 'refund', 'cancel']);
const READS = new Set(['paymentStatus', 'incomingPayment', 'cancellationStatus']);

const is2xx = (s: number): boolean => s >= 200 && s < 300;

/** No answer, or a 5xx to a POST: the request may have been applied. */
function indeterminate(op: Op): boolean {
  if (op.inv.m !== 'POST') return false;
  if (!op.done) return true;
  if (op.done.s === 0) return op.done.err !== 'unreachable';
  return op.done.s >= 500;
}

/** A resource id the service gave a created transfer (payment, return, refund), or a cancellation. */
interface Resource {
  id: string;
  kind: 'payment' | 'return' | 'refund' | 'cancellation';
  /** The first answer naming it. */
  creator: Op;
  client: string | undefined;
  key: string | undefined;
}

interface Payment extends PaymentMoney<HistoryBack> {
  resource: Resource;
  tx: string | undefined;
  e2e: string | undefined;
  /** The creditor agent's sort code: whose incoming payment it is. */
  beneficiary: string | undefined;
}

interface HistoryBack extends MoneyBack {
  op: Op;
  /** The payment it sends money back for. */
  original: Payment;
  /** The status read that made it final. */
  finalRead?: Op;
}

// ── rendering evidence ─────────────────────────────────────────────────────────────────────────

class Renderer {
  constructor(private readonly clients: ReadonlyMap<string, ClientInfo>) {}

  client(c: string | undefined): string {
    if (c === undefined) return 'no client';
    const role = this.clients.get(c)?.role;
    return role ? `${role} client ${c}` : `client ${c}`;
  }

  /** `tokens`: which access token each request sent, and each token answer's expires_in (AT-05's evidence). */
  line(op: Op, tokens = false): EvidenceLine {
    const inv = op.inv;
    const parts = [`${inv.m} ${inv.p}`, `as ${this.client(op.client)}`];
    if (tokens && inv.tk) parts.push(`access token #${inv.tk}`);
    if (inv.key) parts.push(`${inv.op === 'cancel' ? 'assgnmt.id' : 'msgId'} ${inv.key}`);
    if (inv.om) parts.push(`original ${inv.om} / ${inv.ot ?? '?'}`);
    if (inv.amt) parts.push(`amount ${money(BigInt(inv.amt))}`);
    if (inv.a) parts.push(`attempt ${inv.a}`);
    const done = op.done;
    let answer: string;
    if (!done) answer = 'no answer recorded (the worker stopped)';
    else if (done.s === 0) answer = `no answer (${done.err ?? 'error'})`;
    else {
      answer = `${done.s}`;
      if (done.id) answer += ` naming ${done.id}`;
      if (done.st) answer += ` ${inv.op === 'cancellationStatus' ? 'sts.conf' : 'txSts'} ${done.st}`;
      if (done.bm) answer += ` naming creditor agent ${done.bm}`;
      if (tokens && done.tk) answer += ` issuing access token #${done.tk}, expires_in ${done.ei} s`;
    }
    return {
      at: new Date(inv.t).toISOString(),
      worker: op.worker,
      by: op.by,
      request: parts.join(', '),
      answer,
      ...(indeterminate(op) ? { indeterminate: true as const } : {}),
    };
  }

  /** The ops in the order they were sent. */
  lines(ops: readonly (Op | undefined)[], tokens = false): EvidenceLine[] {
    const unique = [...new Set(ops.filter((o): o is Op => o !== undefined))];
    unique.sort((a, b) => a.inv.t - b.inv.t);
    return unique.map((o) => this.line(o, tokens));
  }
}

// ── merging the workers' files ─────────────────────────────────────────────────────────────────

/**
 * The workers' lines merged in time order (each file already is), handed to `invoked` and
 * `completed` as they come: a k-way merge, linear in the lines for the few workers of a run, each
 * line parsed when reached. A complete line and its invoke are one Op.
 */
function mergeEvents(
  workers: readonly WorkerHistory[],
  clients: Map<string, ClientInfo>,
  invoked: (op: Op) => void,
  completed: (op: Op) => void,
): void {
  interface Cursor {
    worker: number;
    lines: Iterator<HistoryLine>;
    /** The next line with a time, not yet handed on. */
    head: HistoryInvoke | HistoryComplete | undefined;
    origins: Map<number, string>;
    open: Map<number, Op>;
  }
  /** Declaration lines carry no time: read as they come, up to the next timed line. */
  const advance = (cursor: Cursor): void => {
    cursor.head = undefined;
    for (let next = cursor.lines.next(); !next.done; next = cursor.lines.next()) {
      const line = next.value;
      if (line.k === 'i' || line.k === 'c') {
        cursor.head = line;
        return;
      }
      if (line.k === 'client') {
        const known = clients.get(line.c) ?? {};
        clients.set(line.c, {
          ...known,
          ...(line.role ? { role: line.role } : {}),
          ...(line.member ? { member: line.member } : {}),
        });
      } else if (line.k === 'by') cursor.origins.set(line.x, line.by);
    }
  };
  const cursors: Cursor[] = workers.map((w, i) => ({
    worker: w.meta?.worker ?? i,
    lines: w.lines(),
    head: undefined,
    origins: new Map(),
    open: new Map(),
  }));
  for (const cursor of cursors) advance(cursor);
  // Two workers' events stamped the same millisecond are not ordered: an invoke goes before the other's
  // completion, so the two requests count as concurrent and neither is said to have seen the other.
  const earlier = (a: HistoryInvoke | HistoryComplete, b: HistoryInvoke | HistoryComplete): boolean =>
    a.t < b.t || (a.t === b.t && a.k === 'i' && b.k === 'c');
  // Cursors still reading: a run whose workers were replaced after failures has a file per replacement.
  const reading = cursors.filter((cursor) => cursor.head);
  for (;;) {
    let at = -1;
    for (let i = 0; i < reading.length; i++) if (at < 0 || earlier(reading[i]!.head!, reading[at]!.head!)) at = i;
    if (at < 0) break;
    const next = reading[at]!;
    const line = next.head!;
    advance(next);
    if (!next.head) reading.splice(at, 1);
    if (line.k === 'i') {
      const op: Op = {
        worker: next.worker,
        by: line.x === undefined ? 'worker setup' : (next.origins.get(line.x) ?? 'worker setup'),
        client: line.c,
        inv: line,
        done: undefined,
      };
      next.open.set(line.n, op);
      invoked(op);
    } else {
      const op = next.open.get(line.n);
      if (op) {
        next.open.delete(line.n);
        op.done = line;
        completed(op);
      }
    }
  }
  // Requests never answered (the worker stopped first): maybe applied.
  for (const cursor of cursors) for (const op of cursor.open.values()) completed(op);
}

/** Adds `op` to the list under `id`: in place, so a payment polled k times costs O(k), not O(k²). */
function appendTo(lists: Map<string, Op[]>, id: string, op: Op): void {
  const list = lists.get(id);
  if (list) list.push(op);
  else lists.set(id, [op]);
}

// ── the checker ────────────────────────────────────────────────────────────────────────────────

class Property {
  checked = 0;
  violationCount = 0;
  undecidedCount = 0;
  readonly violations: HistoryViolation[] = [];
  readonly undecided: HistoryUndecided[] = [];
  constructor(readonly property: HistoryProperty) {}

  readonly byRule = new Map<string, number>();
  /** Per rule, the judgements decided either way, and the undecided ones. */
  private readonly decidedByRule = new Map<string, number>();
  private readonly undecidedByRule = new Map<string, number>();

  /** A judgement of `rule` the history decided (held, or a violation follows). */
  decided(rule: string): void {
    this.decidedByRule.set(rule, (this.decidedByRule.get(rule) ?? 0) + 1);
  }

  violation(v: Omit<HistoryViolation, 'property'>): void {
    this.violationCount++;
    this.byRule.set(v.rule, (this.byRule.get(v.rule) ?? 0) + 1);
    this.decided(v.rule);
    if (this.violations.length < LISTED) this.violations.push({ property: this.property, ...v });
  }

  undecide(u: Omit<HistoryUndecided, 'property'>): void {
    this.undecidedCount++;
    this.undecidedByRule.set(u.rule, (this.undecidedByRule.get(u.rule) ?? 0) + 1);
    if (this.undecided.length < LISTED) this.undecided.push({ property: this.property, ...u });
  }

  /**
   * An undecided judgement leaves its own test's evidence inconclusive, not the property: the property
   * is inconclusive only when nothing else of it was decided (the undecided cases are its only evidence).
   */
  result(): PropertyResult {
    const { title, rules } = HISTORY_PROPERTIES.find((p) => p.property === this.property)!;
    const status: PropertyStatus = this.violationCount
      ? 'failed'
      : this.undecidedCount && this.undecidedCount >= this.checked
        ? 'inconclusive'
        : this.checked
          ? 'passed'
          : 'not exercised';
    return {
      property: this.property,
      title,
      rules,
      status,
      checked: this.checked,
      violationCount: this.violationCount,
      violationsByRule: Object.fromEntries(this.byRule),
      violations: this.violations,
      undecidedCount: this.undecidedCount,
      undecided: this.undecided,
      undecidedRules: [...this.undecidedByRule.keys()].filter((rule) => !this.decidedByRule.has(rule)),
      decidedRules: [...this.decidedByRule.keys()],
    };
  }
}

// ── tokens: AT-05 ──────────────────────────────────────────────────────────────────────────────

/**
 * A client's token the target refused before its expires_in passed: a read answered 401 before the
 * token's request was expires_in seconds old (less a margin, the slow lane's: a tenth of it, at most
 * 5 s), then the same read (worker, client, path) with a newer token answered 2xx. The target issued
 * the token no earlier than it was requested, so its life had not run out. Reads only: a read carries
 * no sca-token, whose refusal a target may answer 401 too (toolchain: "any invalid JWT"); and no
 * negative case's mutant (a read without X-Client-Id, with another client's): the mutation's refusal
 * may be a 401, and the next read of that path is its valid twin. The newer token's 2xx says the
 * first 401 was the token's. A use within its life that was taken is counted,
 * never decided: the rule's other half (refused after) needs tokenLifetimeControl or the @slow lane.
 */
function tokenLifetimes(render: Renderer) {
  const property = new Property('tokens');
  /** Token digest → the answer that issued it: to which client, and until when it is surely alive. */
  const issued = new Map<string, { op: Op; until: number; expiresIn: number }>();
  /** Worker, client and path → a read refused 401 within its token's life, awaiting its repeat. */
  const refused = new Map<string, { op: Op; expiresIn: number }>();
  /** A repeat's invoke → the refused read it repeats with a newer token. */
  const repeats = new Map<Op, { op: Op; expiresIn: number }>();
  const readKey = (op: Op): string => `${op.worker}\u0000${op.client ?? ''}\u0000${op.inv.p}`;
  return {
    property,
    invoked(op: Op): void {
      if (!READS.has(op.inv.op) || op.inv.tk === undefined || op.inv.mu) return;
      const key = readKey(op);
      const early = refused.get(key);
      if (!early || early.op.inv.tk === op.inv.tk) return;
      refused.delete(key);
      repeats.set(op, early);
    },
    completed(op: Op): void {
      const { inv, done } = op;
      if (!done) return;
      if (inv.op === 'token' && done.s === 200 && done.tk !== undefined && done.ei !== undefined) {
        const margin = Math.min(5_000, (done.ei * 1000) / 10);
        issued.set(done.tk, { op, until: inv.t + done.ei * 1000 - margin, expiresIn: done.ei });
        return;
      }
      if (!READS.has(inv.op) || inv.tk === undefined || inv.mu) return;
      const repeated = repeats.get(op);
      if (repeated) {
        repeats.delete(op);
        if (is2xx(done.s)) {
          const early = repeated.op;
          const token = issued.get(early.inv.tk!)!;
          const after = ((early.done!.t - token.op.inv.t) / 1000).toFixed(1);
          property.violation({
            rule: 'AT-05',
            what: `the access token of ${render.client(early.client)}, issued with expires_in ${repeated.expiresIn} s, is refused ${after} s after it was requested, and the same read with a newer token is taken`,
            expected: `the token taken until ${repeated.expiresIn} s after its request (§2.1: "seconds until the token expires")`,
            received: `HTTP 401 ${after} s after the token's request; the same read with a newer token: HTTP ${done.s}`,
            evidence: render.lines([token.op, early, op], true),
          });
        }
      }
      const token = issued.get(inv.tk);
      if (!token || token.op.client !== op.client || done.s === 0 || done.t >= token.until) return;
      property.checked++;
      if (done.s === 401) refused.set(readKey(op), { op, expiresIn: token.expiresIn });
    },
  };
}

/** Judges one project's history (its workers' files): one target, one profile. */
export function checkHistory(workers: readonly WorkerHistory[]): HistoryVerdict {
  const started = performance.now();
  const meta: HistoryMeta | undefined = workers.find((w) => w.meta)?.meta;
  const expectations = meta?.expectations ?? {
    statusCodes: { pending: [], accepted: [], rejected: [], cancelled: [] },
  };
  const clients = new Map<string, ClientInfo>();
  const render = new Renderer(clients);
  const classes = new Map<string, StatusClass | undefined>();
  const classOf = (code: string): StatusClass | undefined => {
    if (!classes.has(code)) classes.set(code, classifyStatus(code, expectations));
    return classes.get(code);
  };
  const identity = new Property('identity');
  const lifecycle = new Property('lifecycle');
  const moneyProperty = new Property('money');
  const visibility = new Property('visibility');
  const repeats = new Property('repeats');
  const cancellation = new Property('cancellation');
  const tokens = tokenLifetimes(render);
  const resolution = meta?.resolution;

  /** `${op}\0${client}\0${key}` → the first submission answered 2xx, and the resource it named. */
  const keys = new Map<string, { first: Op; id: string | undefined; idOp: Op | undefined }>();
  /** Resource ids: payments (§2.3's), returns and refunds (their answers not shown), cancellations, apart. */
  const paymentIds = new Map<string, Resource>();
  const backIds = new Map<string, Resource>();
  const cancellations = new Map<string, Resource>();
  const collisions = new Set<string>();
  /** A payment msgId → the client that first had a payment created under it (XCL-01's judgements). */
  const clientOfMsgId = new Map<string, string | undefined>();
  const payments = new Map<string, Payment>();
  /** msgId\0txId → payments with that reference (several clients may choose the same). */
  const byReference = new Map<string, Payment[]>();
  /** Returns and refunds by their own id (their final status is read under it), and by their msgId. */
  const backsById = new Map<string, HistoryBack>();
  const backsByKey = new Map<string, HistoryBack>();
  /**
   * Reader and id (readerKey) → the first final status read of it by that reader (final as the
   * profile's vocabulary says: money counts the creator's). Per reader: the spec shows the status only
   * as its sender reads it, and a beneficiary's view of the same id may follow a path of its own (its
   * credit posted later).
   */
  const finals = new Map<string, FinalRead>();
  /** Reader and id → the first read of it by that reader whose code never changes (ACCC, RJTC: the lifecycle judges that reader's reads after it). */
  const fixed = new Map<string, FinalRead>();
  const readerKey = (id: string, client: string | undefined): string => `${client ?? ''}\u0000${id}`;
  /**
   * Payment id → its beneficiary's sort code: as its body named it, else as the target's own incoming
   * view of it did (`told`: that read), for a body the history could not read (another encoding).
   */
  const beneficiaries = new Map<string, { member: string; told?: Op }>();
  /** Reads whose reader the history could not place when they were answered: judged once every answer is in. */
  const openReads: { op: Op; resource: Resource; rule: string }[] = [];
  /** Status reports answered 200 that name the request they report on: judged once every id is known. */
  const echoes: Op[] = [];
  /** Payment id → the camt.056 of its payer that named it (answered 2xx), in order. */
  const cancelsOf = new Map<string, Op[]>();
  /** Payment id → the first camt.029 read that confirmed its cancellation, and the camt.056 it answers. */
  const confirmed = new Map<string, { read: Op; cancel: Op }>();
  /** Payment id → the first camt.029 read that rejected its cancellation, and the camt.056 it answers. */
  const rejected = new Map<string, { read: Op; cancel: Op }>();
  /** Payment id → its status reads that showed an accepted code. */
  const acceptedReads = new Map<string, Op[]>();
  /** Payment id → its payer's status reads that showed a cancelled code. */
  const cancelledReads = new Map<string, Op[]>();
  let requests = 0;
  let events = 0;
  let indeterminateCount = 0;
  const indeterminateShown: EvidenceLine[] = [];
  let backLabels = 0;

  const keyOf = (op: Op): string | undefined =>
    op.inv.key === undefined ? undefined : `${op.inv.op}\u0000${op.client ?? ''}\u0000${op.inv.key}`;

  const onInvoke = (op: Op): void => {
    requests++;
    const inv = op.inv;
    if (inv.op === 'paymentStatus' && inv.id !== undefined) {
      const known = fixed.get(readerKey(inv.id, op.client));
      if (known) op.finalBefore = known;
    }
    if (SUBMISSIONS.has(inv.op)) {
      const key = keyOf(op);
      const known = key === undefined ? undefined : keys.get(key);
      if (known) op.firstOfKey = known.first;
    }
  };

  /** The original payment a return or refund names, from its sender's view: its incoming payments first. */
  const originalOf = (op: Op): Payment | undefined => {
    const { om, ot, oe } = op.inv;
    if (om === undefined || ot === undefined) return undefined;
    const candidates = byReference.get(`${om}\u0000${ot}`);
    if (!candidates?.length) return undefined;
    const member = op.client === undefined ? undefined : clients.get(op.client)?.member;
    let narrowed = member === undefined ? candidates : candidates.filter((p) => p.beneficiary === member);
    // None of them the sender's: another institution's return or refund of them still moves their money.
    if (!narrowed.length) narrowed = candidates;
    if (narrowed.length > 1 && oe !== undefined) narrowed = narrowed.filter((p) => p.e2e === oe);
    return narrowed.length === 1 ? narrowed[0] : undefined;
  };

  /** The payment a camt.056 names: one of its sender's own, by msgId and txId (endToEndId where several share them). */
  const cancelledBy = (op: Op): Payment | undefined => {
    const { om, ot, oe } = op.inv;
    if (om === undefined || ot === undefined) return undefined;
    let own = (byReference.get(`${om}\u0000${ot}`) ?? []).filter((p) => p.resource.client === op.client);
    if (own.length > 1 && oe !== undefined) own = own.filter((p) => p.e2e === oe);
    return own.length === 1 ? own[0] : undefined;
  };

  /**
   * A return or refund, whatever its answer, for money: the attempts and repeats of one msgId are one
   * request, unless an answer names another resource. Its id is where its final status is read, unless
   * it names a payment (the answer to POST pacs004 and pacs007 is not shown: it may name the original).
   */
  const recordBack = (op: Op, kind: 'returnPayment' | 'refund'): void => {
    const { inv, done } = op;
    const id = done?.id !== undefined && is2xx(done.s) && !paymentIds.has(done.id) ? done.id : undefined;
    const key = keyOf(op);
    const earlier = key === undefined ? undefined : backsByKey.get(key);
    if (earlier && !(earlier.id !== undefined && id !== undefined && id !== earlier.id)) {
      if (done && is2xx(done.s) && !(earlier.http !== undefined && is2xx(earlier.http))) {
        // The first was refused or unanswered, and this one created it: its own body's amount counts.
        if (inv.h !== earlier.op.inv.h && inv.amt !== undefined) earlier.amount = BigInt(inv.amt);
        earlier.http = done.s;
        earlier.op = op;
        if (id !== undefined) {
          earlier.id = id;
          backsById.set(id, earlier);
        }
      }
      return;
    }
    const original = originalOf(op);
    if (!original || inv.amt === undefined) return;
    const back: HistoryBack = {
      label: `${kind === 'returnPayment' ? 'return' : 'refund'} #${++backLabels}`,
      kind: kind === 'returnPayment' ? 'return' : 'refund',
      amount: BigInt(inv.amt),
      http: !done || done.s === 0 ? undefined : done.s,
      op,
      original,
      ...(id !== undefined ? { id } : {}),
    };
    original.back.push(back);
    if (key !== undefined) backsByKey.set(key, back);
    if (id !== undefined) {
      backsById.set(id, back);
      if (!backIds.has(id)) backIds.set(id, { id, kind: back.kind, creator: op, client: op.client, key: inv.key });
    }
  };

  /** A payment the service created: its id must name it alone (P8-33; XCL-01 across clients). */
  const recordPayment = (op: Op, id: string): void => {
    const { inv, done } = op;
    identity.checked++;
    identity.decided('P8-33');
    // XCL-01 is judged where another client already used the msgId.
    if (inv.key !== undefined) {
      const first = clientOfMsgId.get(inv.key);
      if (first === undefined) clientOfMsgId.set(inv.key, op.client);
      else if (first !== op.client) identity.decided('XCL-01');
    }
    const existing = paymentIds.get(id);
    if (existing) {
      if (existing.key === inv.key && existing.client === op.client) return; // its repeat
      // One violation per payment and submission key: a repeat of the offending submission proves nothing more.
      const pair = `${id}\u0000${keyOf(op) ?? ''}`;
      if (collisions.has(pair)) return;
      collisions.add(pair);
      const crossClient = existing.client !== op.client && existing.key === inv.key;
      identity.violation({
        rule: crossClient ? 'XCL-01' : 'P8-33',
        what: crossClient
          ? `another client’s payment with the same msgId ${inv.key} is a payment of its own`
          : `the id ${id} names one created payment: no other payment is given it`,
        expected: `a payment of its own, not payment ${id} (msgId ${existing.key ?? '?'})`,
        received: `HTTP ${done!.s} naming ${id}`,
        evidence: render.lines([existing.creator, op]),
      });
      return;
    }
    const resource: Resource = { id, kind: 'payment', creator: op, client: op.client, key: inv.key };
    paymentIds.set(id, resource);
    if (inv.bm !== undefined) beneficiaries.set(id, { member: inv.bm });
    if (inv.amt === undefined) return;
    const payment: Payment = {
      label: `payment ${id}`,
      amount: BigInt(inv.amt),
      back: [],
      resource,
      tx: inv.tx,
      e2e: inv.e2e,
      beneficiary: inv.bm,
    };
    payments.set(id, payment);
    if (inv.key !== undefined && inv.tx !== undefined) {
      const ref = `${inv.key}\u0000${inv.tx}`;
      const list = byReference.get(ref);
      if (list) list.push(payment);
      else byReference.set(ref, [payment]);
    }
  };

  const onSubmission = (op: Op): void => {
    const { inv, done } = op;
    const kind = inv.op as 'submitPayment' | 'returnPayment' | 'refund' | 'cancel';
    if (kind === 'returnPayment' || kind === 'refund') recordBack(op, kind);
    // A camt.056 with no answer or a 5xx may have been applied: a confirmation read later shows it was.
    if (kind === 'cancel' && (!done || done.s === 0 || done.s >= 500 || is2xx(done.s))) {
      const payment = cancelledBy(op);
      if (payment) appendTo(cancelsOf, payment.resource.id, op);
    }
    if (!done || !is2xx(done.s)) return;
    const key = keyOf(op);
    const keyState = key === undefined ? undefined : keys.get(key);

    // Repeats, sent after a submission of their msgId was answered 2xx: a payment's names its
    // payment (§2.3, §4.2) and is no 201 with the same body (§4.2); a return's with the same body names
    // no other return (§2.5: the msgId is used for idempotency; how a repeat is answered is not shown).
    if (op.firstOfKey && keyState && (kind === 'submitPayment' || kind === 'returnPayment')) {
      repeats.checked++;
      const sameBody = op.inv.h !== undefined && op.inv.h === op.firstOfKey.inv.h;
      const namesAnother = done.id !== undefined && keyState.id !== undefined && done.id !== keyState.id;
      if (kind === 'returnPayment') {
        if (sameBody) repeats.decided('RTR-05');
      } else {
        if (done.id !== undefined && keyState.id !== undefined) repeats.decided('IDEM-02');
        if (sameBody) repeats.decided('IDEM-01');
      }
      if (kind === 'returnPayment') {
        if (sameBody && namesAnother)
          repeats.violation({
            rule: 'RTR-05',
            what: `a repeat of ${inv.key} with the same body names the return of the first submission (a repeat never creates another)`,
            expected: `${keyState.id}, or no id`,
            received: `HTTP ${done.s} naming ${done.id}`,
            evidence: render.lines([keyState.idOp ?? keyState.first, op]),
          });
      } else if (namesAnother)
        repeats.violation({
          rule: 'IDEM-02',
          what: `a repeat of ${inv.key} names the payment of the first submission (a repeat never creates another)`,
          expected: `${keyState.id}, or no id`,
          received: `HTTP ${done.s} naming ${done.id}`,
          evidence: render.lines([keyState.idOp ?? keyState.first, op]),
        });
      else if (done.s === 201 && sameBody)
        repeats.violation({
          rule: 'IDEM-01',
          what: `a repeat of ${inv.key} with the same body is answered 200, not created again`,
          expected: 'HTTP 200',
          received: `HTTP 201${done.id ? ` naming ${done.id}` : ''}`,
          evidence: render.lines([op.firstOfKey, op]),
        });
    }

    // Identity: one payment per msgId of a client, for submissions in flight together too.
    if (key !== undefined) {
      if (!keyState) keys.set(key, { first: op, id: done.id, idOp: done.id ? op : undefined });
      else if (keyState.id === undefined && done.id !== undefined) {
        keyState.id = done.id;
        keyState.idOp = op;
      } else if (!op.firstOfKey && kind === 'submitPayment' && done.id !== undefined && keyState.id !== undefined) {
        identity.decided('IDEM-02');
        if (done.id !== keyState.id)
          identity.violation({
            rule: 'IDEM-02',
            what: `one msgId ${inv.key} of one client names one payment`,
            expected: keyState.id,
            received: `another one, ${done.id}`,
            evidence: render.lines([keyState.idOp, op]),
          });
      }
    }
    if (done.id === undefined) return;
    if (kind === 'submitPayment') recordPayment(op, done.id);
    else if (kind === 'cancel' && !cancellations.has(done.id))
      cancellations.set(done.id, { id: done.id, kind: 'cancellation', creator: op, client: op.client, key: inv.key });
  };

  const onStatusRead = (op: Op): void => {
    const { inv, done } = op;
    if (done?.s === 200 && inv.id !== undefined && done.om !== undefined) echoes.push(op);
    if (done?.s !== 200 || inv.id === undefined || done.st === undefined) return;
    const cls = classOf(done.st);
    if (cls === undefined) return;
    if (payments.get(inv.id)?.resource.client === op.client) {
      if (cls === 'accepted') appendTo(acceptedReads, inv.id, op);
      if (cls === 'cancelled') appendTo(cancelledReads, inv.id, op);
    }
    lifecycle.checked++;
    const before = op.finalBefore;
    if (before) {
      lifecycle.decided('STS-10');
      const allowed = forbiddenMove(before.code, done.st, expectations);
      if (allowed !== undefined)
        lifecycle.violation({
          rule: 'STS-10',
          what: `the status of ${inv.id} stays final once ACCC or RJTC, and of its class`,
          expected: allowed,
          received: `${before.code} → ${done.st} (${cls})`,
          evidence: render.lines([before.op, op]),
        });
    }
    const key = readerKey(inv.id, op.client);
    if (finalityOf(done.st, expectations) === 'documented' && !fixed.has(key))
      fixed.set(key, { cls, code: done.st, op });
    if (isFinalStatus(done.st, expectations) && !finals.has(key)) {
      finals.set(key, { cls, code: done.st, op });
      const back = backsById.get(inv.id);
      if (back && back.final === undefined && back.op.client === op.client) {
        back.final = cls;
        back.finalRead = op;
      }
    }
  };

  /**
   * Whether `reader` may read `resource`: its sender, a payment's beneficiary (its sort code, as the
   * payment's body or the target's incoming view names it), a return's or refund's original payer.
   * Undecided when the history cannot tell.
   */
  const readable = (reader: string | undefined, resource: Resource): { ok: boolean; undecided?: string; told?: Op } => {
    if (reader === resource.client) return { ok: true };
    if (resource.kind === 'payment') {
      const beneficiary = beneficiaries.get(resource.id);
      const readerMember = reader === undefined ? undefined : clients.get(reader)?.member;
      if (beneficiary === undefined || readerMember === undefined)
        return {
          ok: false,
          undecided: `the history does not show whether ${render.client(reader)} is the payment’s beneficiary (no sort code known${beneficiary === undefined ? ': neither its body nor an incoming view the target served names it' : ''})`,
        };
      return { ok: beneficiary.member === readerMember, ...(beneficiary.told ? { told: beneficiary.told } : {}) };
    }
    if (resource.kind === 'return' || resource.kind === 'refund') {
      // The money goes back to the original payer: it may be shown what comes back.
      const original = backsById.get(resource.id)?.original;
      if (!original) return { ok: false, undecided: 'the history does not show the original payment' };
      return { ok: original.resource.client === reader };
    }
    return { ok: false };
  };

  /** A 2xx that may have served the resource: not 202 or 204, which serve nothing. */
  const served = (status: number): boolean => is2xx(status) && status !== 202 && status !== 204;

  const onRead = (op: Op): void => {
    const { inv, done } = op;
    if (!done || !served(done.s) || inv.id === undefined) return;
    const resource =
      inv.op === 'cancellationStatus'
        ? (cancellations.get(inv.id) ?? paymentIds.get(inv.id))
        : (paymentIds.get(inv.id) ?? backIds.get(inv.id));
    if (!resource) return;
    if (resource.kind === 'payment' && inv.op === 'incomingPayment' && done.bm !== undefined)
      if (!beneficiaries.has(resource.id)) beneficiaries.set(resource.id, { member: done.bm, told: op });
    // The sender's own reads exercise nothing of who else may read (a one-client run checks none).
    if (op.client !== resource.client) visibility.checked++;
    const rule = inv.op === 'incomingPayment' ? 'INC-03' : inv.op === 'cancellationStatus' ? 'CXL-07' : 'STS-13';
    const verdict = readable(op.client, resource);
    // A later answer of the target (an incoming view) may still tell whose payment it is.
    if (verdict.undecided) openReads.push({ op, resource, rule });
    else judgeRead(op, resource, rule, verdict);
  };

  /** A camt.029 read the target answered with a code the profile says confirms: the cancellation of which payment. */
  const onResolution = (op: Op): void => {
    const { inv, done } = op;
    if (done?.s !== 200 || inv.id === undefined || done.st === undefined) return;
    // A code the profile does not name proves nothing either way.
    const outcomes = resolution?.confirmed.includes(done.st)
      ? confirmed
      : resolution?.rejected.includes(done.st)
        ? rejected
        : undefined;
    if (!outcomes) return;
    const byCancellation = cancellations.get(inv.id);
    const payment = byCancellation ? cancelledBy(byCancellation.creator) : payments.get(inv.id);
    if (!payment || outcomes.has(payment.resource.id)) return;
    const cancel = byCancellation?.creator ?? cancelsOf.get(payment.resource.id)?.[0];
    if (cancel) outcomes.set(payment.resource.id, { read: op, cancel });
  };

  const judgeRead = (op: Op, resource: Resource, rule: string, verdict: ReturnType<typeof readable>): void => {
    const what = `${render.client(op.client)} cannot read ${resource.kind} ${resource.id} of ${render.client(resource.client)}`;
    if (verdict.undecided)
      visibility.undecide({
        rule,
        test: op.by,
        what,
        why: verdict.undecided,
        evidence: render.lines([resource.creator, op]),
      });
    // A read by the resource's own sender is no evidence about anyone else's: only another client's
    // read, served to a party, counts the rule as assessed (a one-client run assesses none of them).
    else if (verdict.ok) {
      if (op.client !== resource.client) visibility.decided(rule);
    } else
      visibility.violation({
        rule,
        what,
        expected: verdict.told
          ? 'a refusal (the target’s own incoming view names another beneficiary)'
          : 'a refusal (it is neither its sender nor, as far as the history shows, its beneficiary)',
        received: `HTTP ${op.done?.s}`,
        evidence: render.lines([resource.creator, verdict.told, op]),
      });
  };

  mergeEvents(
    workers,
    clients,
    (op) => {
      events++;
      onInvoke(op);
      tokens.invoked(op);
    },
    (op) => {
      if (op.done) events++;
      if (indeterminate(op)) {
        indeterminateCount++;
        if (indeterminateShown.length < LISTED) indeterminateShown.push(render.line(op));
      }
      tokens.completed(op);
      if (SUBMISSIONS.has(op.inv.op)) onSubmission(op);
      else if (op.inv.op === 'paymentStatus') {
        onStatusRead(op);
        onRead(op);
      } else if (op.inv.op === 'incomingPayment') onRead(op);
      else if (op.inv.op === 'cancellationStatus') {
        onRead(op);
        onResolution(op);
      }
    },
  );
  for (const { op, resource, rule } of openReads) judgeRead(op, resource, rule, readable(op.client, resource));
  // §2.4: orgnlMsgId is "grpHdr.msgId of the original request", the one whose answer gave the id read.
  for (const op of echoes) {
    const id = op.inv.id!;
    const resource = paymentIds.get(id) ?? backIds.get(id);
    if (resource?.key === undefined) continue;
    identity.checked++;
    identity.decided('STS-03');
    if (op.done!.om !== resource.key)
      identity.violation({
        rule: 'STS-03',
        what: `the status report of ${resource.kind} ${id} names the msgId of the request that created it`,
        expected: `orgnlMsgId ${resource.key}`,
        received: `orgnlMsgId ${op.done!.om}`,
        evidence: render.lines([resource.creator, op]),
      });
  }
  // Money, per payment, once every status read is in.
  for (const payment of payments.values()) {
    if (!payment.back.length) continue;
    moneyProperty.checked++;
    const final = finals.get(readerKey(payment.resource.id, payment.resource.client));
    if (final) payment.status = final.cls;
    const verdict = moneyVerdict(payment);
    if (verdict.verdict === 'holds') {
      moneyProperty.decided('MNY-01');
      continue;
    }
    if (verdict.verdict === 'broken') {
      // The fewest accepted returns and refunds that already exceed the payment (one is enough when it never settled accepted).
      const accepted = payment.back
        .filter((b) => b.final === 'accepted')
        .sort((x, y) => (y.amount > x.amount ? 1 : -1));
      const counted: HistoryBack[] = [];
      let total = 0n;
      for (const b of accepted) {
        counted.push(b);
        total += b.amount;
        if (payment.status === 'rejected' || payment.status === 'cancelled' || total > payment.amount) break;
      }
      moneyProperty.violation({
        rule: verdict.finding.rule,
        what: verdict.finding.what,
        expected: verdict.finding.expected ?? '',
        received: verdict.finding.received ?? '',
        evidence: render.lines([
          payment.resource.creator,
          ...(payment.status === 'rejected' || payment.status === 'cancelled' ? [final?.op] : []),
          ...counted.flatMap((b) => [b.op, b.finalRead]),
        ]),
      });
    } else
      moneyProperty.undecide({
        rule: 'MNY-01',
        test: verdict.open[0]?.op.by ?? payment.resource.creator.by,
        what: `what went back for ${payment.label} (${formatMinor(payment.amount)}) never exceeds it`,
        why: `only if the returns or refunds not known final (${verdict.open.map((b) => b.label).join(', ')}) went back would it exceed ${money(payment.amount)}`,
        evidence: render.lines([
          payment.resource.creator,
          ...payment.back.filter((b) => b.final === 'accepted').flatMap((b) => [b.op, b.finalRead]),
          ...verdict.open.map((b) => b.op),
        ]),
      });
  }

  // Cancellations the target confirmed, once every read is in: the payment never settles, nothing of it goes back.
  for (const [id, { read, cancel }] of confirmed) {
    const payment = payments.get(id)!;
    cancellation.checked++;
    cancellation.decided('CXL-03');
    const reads = acceptedReads.get(id) ?? [];
    // Read settled before the cancellation was asked: its batch was sent, and rule 4 rejects it.
    const after = reads.find((r) => (r.done?.t ?? r.inv.t) >= cancel.inv.t);
    const settled = after ?? reads[0];
    const back = payment.back.find((b) => b.final === 'accepted');
    if (settled)
      cancellation.violation({
        rule: after ? 'CXL-02' : 'CXL-03',
        what: after
          ? `payment ${id}, whose cancellation the target confirmed, is returned to its payer: it never settles accepted`
          : `payment ${id}, read settled before its cancellation was asked, was in a sent batch: the cancellation is rejected`,
        expected: after ? 'no accepted txSts after the cancellation' : 'a camt.029 that rejects the cancellation',
        received: after
          ? `camt.029 ${read.done?.st}, then txSts ${settled.done?.st}`
          : `txSts ${settled.done?.st}, then camt.029 ${read.done?.st}`,
        evidence: render.lines([payment.resource.creator, settled, cancel, read]),
      });
    else if (back)
      cancellation.violation({
        rule: 'CXL-02',
        what: `payment ${id}, whose cancellation the target confirmed, went back to its payer: no ${back.kind} of it settles accepted`,
        expected: `no accepted ${back.kind}`,
        received: `camt.029 ${read.done?.st}, and ${back.label} read accepted`,
        evidence: render.lines([payment.resource.creator, cancel, read, back.op, back.finalRead]),
      });
    else cancellation.decided('CXL-02');
  }

  // Cancellations the target rejected: rule 4 rejects one whose batch was sent, and the payment goes
  // on. Judged only where it is the payment's one cancellation (by its assgnmt.id): a second one may be
  // rejected because the first cancelled the payment.
  for (const [id, { read, cancel }] of rejected) {
    if (confirmed.has(id) || new Set((cancelsOf.get(id) ?? []).map((c) => c.inv.key)).size !== 1) continue;
    cancellation.checked++;
    const cancelled = cancelledReads.get(id)?.[0];
    if (cancelled)
      cancellation.violation({
        rule: 'CXL-03',
        what: `payment ${id}, whose only cancellation the target rejected, is not cancelled`,
        expected: 'no cancelled txSts',
        received: `camt.029 ${read.done?.st}, and txSts ${cancelled.done?.st}`,
        evidence: render.lines([payments.get(id)!.resource.creator, cancel, read, cancelled]),
      });
    else cancellation.decided('CXL-03');
  }

  const properties = [identity, lifecycle, moneyProperty, visibility, repeats, cancellation, tokens.property].map((p) =>
    p.result(),
  );
  for (const p of properties) for (const rule of p.rules) ruleOf(rule);
  return {
    project: meta?.project ?? '(unknown project)',
    profile: meta?.profile ?? '(unknown profile)',
    workers: workers.filter((w) => w.meta?.worker !== RUNNER_WORKER).length,
    requests,
    events,
    indeterminate: { count: indeterminateCount, shown: indeterminateShown },
    status: properties.some((p) => p.status === 'failed')
      ? 'failed'
      : properties.some((p) => p.status === 'inconclusive')
        ? 'inconclusive'
        : 'passed',
    properties,
    checkedInMs: Math.round(performance.now() - started),
  };
}
