/**
 * The run as one history (checks/history.ts), right both ways: each property fails on the smallest
 * history that breaks its rule, with that history as evidence, and passes on what the spec allows or
 * leaves open (concurrent reads, an empty repeat body, a beneficiary's read, a proprietary code the
 * profile calls pending); a request that may have been applied makes a property undecided, never failed.
 * Run: node --import tsx --test tests/unit/runner/run-history.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import RunFolderReporter from '../../../runner/reporters/run-record';
import {
  historyBlock,
  historyRecord,
  historyRuleOutcomes,
  judgeRunHistory,
  writeHistoryAllure,
} from '../../../runner/history';
import { checkHistory, type HistoryVerdict } from '../../../checks/history';
import {
  historiesByClientFaults,
  workerHistory,
  type HistoryLine,
  type HistoryMeta,
  type WorkerHistory,
} from '../../../record/history';
import { loadProfile } from '../../../profile/profile';
import type { ReportTest } from '../../../record/playwright-report';
import { reportTest } from '../support/report-tests';
import { faultCatalogue } from '../../../reference/faults';
import { buildMatrix } from '../../../scripts/lib/matrix';
import { verdictOf, withHistory } from '../../../scripts/lib/certification';

const expectations = loadProfile('local').expectations;

/** A worker's history written as a test reads: sends and answers in time order. */
class Worker {
  readonly lines: HistoryLine[] = [];
  private n = 0;
  private t: number;
  constructor(
    readonly index: number,
    start = 1_000,
  ) {
    this.t = start;
  }
  client(c: string, member?: string): this {
    this.lines.push({ k: 'client', c, ...(member ? { member } : {}) });
    return this;
  }
  /** Sends a request at `at` (default: 1 ms after the last line); returns its number. */
  send(fields: Omit<Extract<HistoryLine, { k: 'i' }>, 'k' | 'n' | 't' | 'p'> & { p?: string }, at?: number): number {
    this.t = at ?? this.t + 1;
    const n = ++this.n;
    this.lines.push({ k: 'i', n, t: this.t, p: `/payments/${fields.op}`, ...fields });
    return n;
  }
  answer(n: number, fields: Omit<Extract<HistoryLine, { k: 'c' }>, 'k' | 'n' | 't'>, at?: number): this {
    this.t = at ?? this.t + 1;
    this.lines.push({ k: 'c', n, t: this.t, ...fields });
    return this;
  }
  /** A request and its answer at once. */
  exchange(fields: Parameters<Worker['send']>[0], answer: Parameters<Worker['answer']>[1], at?: number): this {
    return this.answer(this.send(fields, at), answer);
  }
  history(exp = expectations): WorkerHistory {
    const meta: HistoryMeta = { k: 'meta', project: 'local', worker: this.index, profile: 'local', expectations: exp };
    return workerHistory(meta, this.lines, `w${this.index}.jsonl`);
  }
}

const property = (v: HistoryVerdict, name: string) => v.properties.find((p) => p.property === name)!;

/** A payment of 100.00 from A to the sort code 222222 (B's), created as P1, settled and read ACCC. */
function settledPayment(w: Worker, id = 'P1', key = 'M1'): Worker {
  return w
    .exchange(
      {
        op: 'submitPayment',
        m: 'POST',
        c: 'A',
        key,
        tx: `T-${key}`,
        e2e: `E-${key}`,
        bm: '222222',
        amt: '10000',
        h: `h-${key}`,
      },
      { s: 201, id },
    )
    .exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id }, { s: 200, st: 'ACCC' });
}

const refund = (w: Worker, key: string, amount: string, answer: Parameters<Worker['answer']>[1], original = 'M1') =>
  w.exchange(
    {
      op: 'refund',
      m: 'POST',
      c: 'B',
      key,
      om: original,
      ot: `T-${original}`,
      oe: `E-${original}`,
      amt: amount,
      h: `h-${key}`,
    },
    answer,
  );

test('a clean history passes every property it exercises', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  refund(w, 'F1', '4000', { s: 201, id: 'F1' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'F1' }, { s: 200, st: 'ACCC' });
  refund(w, 'F2', '6000', { s: 201, id: 'F2' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'F2' }, { s: 200, st: 'ACCC' });
  refund(w, 'F3', '1', { s: 400 }); // over what is left: refused
  w.exchange({ op: 'incomingPayment', m: 'GET', c: 'B', id: 'P1' }, { s: 200 }); // the beneficiary reads it
  const v = checkHistory([w.history()]);
  assert.equal(v.status, 'passed', JSON.stringify(v.properties, null, 1));
  assert.equal(property(v, 'money').checked, 1);
});

test('lifecycle: a final status read, then an earlier one sent after it was answered, is a violation with both reads as evidence', () => {
  const w = settledPayment(new Worker(0).client('A'));
  const pool = new Worker(1, 5_000).client('A');
  pool.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'PEND' });
  const v = checkHistory([w.history(), pool.history()]);
  const lifecycle = property(v, 'lifecycle');
  assert.equal(lifecycle.status, 'failed');
  assert.equal(lifecycle.violations[0]?.rule, 'STS-10');
  assert.deepEqual(
    lifecycle.violations[0]?.evidence.map((e) => [e.worker, e.answer]),
    [
      [0, '200 txSts ACCC'],
      [1, '200 txSts PEND'],
    ],
    'the smallest sub-history, in time order, across workers',
  );
  assert.equal(v.status, 'failed');
});

test('lifecycle: each reader follows its own path; the beneficiary’s view (not shown by the spec) is not the payer’s', () => {
  const w = settledPayment(new Worker(0).client('A').client('B', '222222'));
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'P1' }, { s: 200, st: 'PDNG' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'P1' }, { s: 200, st: 'ACCC' });
  assert.equal(property(checkHistory([w.history()]), 'lifecycle').status, 'passed', 'B’s PDNG after A’s ACCC');
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'P1' }, { s: 200, st: 'PDNG' });
  const lifecycle = property(checkHistory([w.history()]), 'lifecycle');
  assert.equal(lifecycle.status, 'failed', 'B’s own ACCC, then PDNG');
  assert.deepEqual(
    lifecycle.violations[0]?.evidence.map((e) => e.answer),
    ['200 txSts ACCC', '200 txSts PDNG'],
  );
});

test('lifecycle: reads in flight together are not ordered, so a pending one beside a final one is no violation', () => {
  const w = new Worker(0).client('A');
  w.exchange({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '100' }, { s: 201, id: 'P1' });
  const final = w.send({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, 100);
  const pending = w.send({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, 101);
  w.answer(final, { s: 200, st: 'ACCC' }, 102).answer(pending, { s: 200, st: 'PEND' }, 103);
  assert.equal(property(checkHistory([w.history()]), 'lifecycle').status, 'passed');
});

test('lifecycle: one worker’s answer and another’s send stamped the same millisecond are concurrent, not ordered', () => {
  const w = new Worker(0).client('A');
  w.exchange({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '100' }, { s: 201, id: 'P1' });
  w.answer(w.send({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, 1_010), { s: 200, st: 'ACCC' }, 1_020);
  const other = new Worker(1).client('A');
  other.answer(other.send({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, 1_020), { s: 200, st: 'PEND' }, 1_021);
  // Worker 1's file first: a merge that broke ties by file order put its send after worker 0's answer.
  assert.equal(property(checkHistory([other.history(), w.history()]), 'lifecycle').status, 'passed');
  assert.equal(property(checkHistory([w.history(), other.history()]), 'lifecycle').status, 'passed');
  // One millisecond later, the read was sent after the final answer: a violation either way round.
  const later = new Worker(1).client('A');
  later.answer(later.send({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, 1_021), { s: 200, st: 'PEND' }, 1_022);
  assert.equal(property(checkHistory([later.history(), w.history()]), 'lifecycle').status, 'failed');
});

test('lifecycle: only ACCC and RJTC never change (§3), whatever the profile lists; other codes are the target’s', () => {
  const readsOf = (...codes: string[]): Worker => {
    const w = new Worker(0).client('A');
    for (const st of codes) w.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st });
    return w;
  };
  const lifecycle = (w: Worker, e = expectations): string => property(checkHistory([w.history(e)]), 'lifecycle').status;
  const acscFinal = { ...expectations, statusCodes: { ...expectations.statusCodes, accepted: ['ACSC'] } };
  const interim = { ...expectations, statusCodes: { ...expectations.statusCodes, pending: ['PEND', 'ACSC'] } };
  assert.equal(lifecycle(readsOf('ACSC', 'PEND')), 'passed', 'ISO’s table takes ACSC as final: a lesson, no violation');
  assert.equal(lifecycle(readsOf('ACSC', 'PEND'), acscFinal), 'passed', 'the profile’s reading: an assumption');
  assert.equal(lifecycle(readsOf('ACSP', 'ACSC', 'ACCC'), interim), 'passed', 'ACSC interim for this target');
  assert.equal(lifecycle(readsOf('ACSP', 'ACSC', 'ACCC')), 'passed');
  assert.equal(lifecycle(readsOf('ACCC', 'PEND')), 'failed');
  assert.equal(lifecycle(readsOf('ACCC', 'ACSC'), interim), 'failed', 'no profile makes ACCC interim');
  const pendingAccc = { ...expectations, statusCodes: { ...expectations.statusCodes, pending: ['PEND', 'ACCC'] } };
  assert.equal(lifecycle(readsOf('ACCC', 'PEND'), pendingAccc), 'failed');
  assert.equal(lifecycle(readsOf('RJTC', 'ACCC')), 'failed');
});

test('money: more refunded than paid, each refund settled accepted, is a violation (MNY-01) proven by the reads', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  refund(w, 'F1', '6000', { s: 201, id: 'F1' });
  refund(w, 'F2', '6000', { s: 201, id: 'F2' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'F1' }, { s: 200, st: 'ACCC' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'F2' }, { s: 200, st: 'ACCC' });
  const money = property(checkHistory([w.history()]), 'money');
  assert.equal(money.status, 'failed');
  assert.equal(money.violations[0]?.rule, 'MNY-01');
  assert.equal(money.violations[0]?.evidence.length, 5, 'the payment, both refunds and both accepted reads');
});

test('money: a refund that may have been applied is taken both ways: undecided, not failed; 2xx without a final status too', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  refund(w, 'F1', '6000', { s: 201, id: 'F1' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'F1' }, { s: 200, st: 'ACCC' });
  refund(w, 'F2', '6000', { s: 0, err: 'ECONNRESET' });
  const v = checkHistory([w.history()]);
  assert.equal(property(v, 'money').status, 'inconclusive');
  assert.equal(v.status, 'inconclusive');
  assert.equal(v.indeterminate.count, 1);
  assert.equal(v.indeterminate.shown[0]?.indeterminate, true);
  const w2 = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  refund(w2, 'F1', '6000', { s: 201, id: 'F1' });
  refund(w2, 'F2', '6000', { s: 201, id: 'F2' });
  assert.equal(
    property(checkHistory([w2.history()]), 'money').status,
    'inconclusive',
    'either may settle rejected (§7)',
  );
});

test('money: the repeats of one refund are one refund', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  refund(w, 'F1', '6000', { s: 201, id: 'F1' });
  refund(w, 'F1', '6000', { s: 200, id: 'F1' });
  refund(w, 'F1', '6000', { s: 200 });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'F1' }, { s: 200, st: 'ACCC' });
  assert.equal(property(checkHistory([w.history()]), 'money').status, 'passed');
});

test('money: a msgId first refused, then sent with another body and created, counts the created body’s amount', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  refund(w, 'F1', '1', { s: 400 });
  w.exchange(
    { op: 'refund', m: 'POST', c: 'B', key: 'F1', om: 'M1', ot: 'T-M1', oe: 'E-M1', amt: '10001', h: 'h-F1-other' },
    { s: 201, id: 'F1' },
  );
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'F1' }, { s: 200, st: 'ACCC' });
  const money = property(checkHistory([w.history()]), 'money');
  assert.equal(money.status, 'failed', '100.01 refunded of 100.00');
  assert.equal(money.violations[0]?.rule, 'MNY-01');
});

test('money: another institution’s refund of a payment, accepted, counts against the payment', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222').client('C', '333333'));
  refund(w, 'F1', '6000', { s: 201, id: 'F1' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'F1' }, { s: 200, st: 'ACCC' });
  w.exchange(
    { op: 'refund', m: 'POST', c: 'C', key: 'F2', om: 'M1', ot: 'T-M1', oe: 'E-M1', amt: '6000', h: 'h-F2' },
    { s: 201, id: 'F2' },
  );
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'C', id: 'F2' }, { s: 200, st: 'ACCC' });
  assert.equal(property(checkHistory([w.history()]), 'money').status, 'failed');
});

test('identity: an id given to a second payment is a violation (P8-33); one client’s msgId answered with another’s payment, XCL-01', () => {
  const w = settledPayment(new Worker(0).client('A'));
  w.exchange({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M2', amt: '100' }, { s: 201, id: 'P1' });
  const identity = property(checkHistory([w.history()]), 'identity');
  assert.equal(identity.violations[0]?.rule, 'P8-33');
  const x = settledPayment(new Worker(0).client('A'));
  x.exchange({ op: 'submitPayment', m: 'POST', c: 'C', key: 'M1', amt: '100' }, { s: 200, id: 'P1' });
  assert.equal(property(checkHistory([x.history()]), 'identity').violations[0]?.rule, 'XCL-01');
});

test('identity: concurrent copies of one msgId naming two payments break IDEM-02', () => {
  const w = new Worker(0).client('A');
  const one = w.send({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '100', h: 'x' }, 10);
  const two = w.send({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '100', h: 'x' }, 11);
  w.answer(one, { s: 201, id: 'P1' }, 12).answer(two, { s: 201, id: 'P2' }, 13);
  assert.equal(property(checkHistory([w.history()]), 'identity').violations[0]?.rule, 'IDEM-02');
});

test('identity: a status report names the msgId of the request that created what it reports on, a refund’s its own (STS-03), whoever reads it', () => {
  const judged = (om: string, reader = 'B') => {
    const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
    refund(w, 'F1', '4000', { s: 201, id: 'F1' });
    w.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'ACCC', om: 'M1' });
    w.exchange({ op: 'paymentStatus', m: 'GET', c: reader, id: 'F1' }, { s: 200, st: 'ACCC', om });
    return property(checkHistory([w.history()]), 'identity');
  };
  assert.equal(judged('F1').violationCount, 0);
  assert.ok(judged('F1').decidedRules.includes('STS-03'));
  const named = judged('M1');
  assert.equal(named.violations[0]?.rule, 'STS-03');
  assert.equal(named.violations[0]?.expected, 'orgnlMsgId F1');
  assert.equal(named.violations[0]?.evidence.length, 2, 'the refund that created F1, and the read');
  assert.equal(judged('M1', 'A').violationCount, 1, 'the refunded payment’s payer reads it too');
});

test('repeats: a repeat sent after the first was answered names its payment or nothing, and is not created again', () => {
  const base = () => settledPayment(new Worker(0).client('A'));
  const ok = base()
    .exchange({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '10000', h: 'h-M1' }, { s: 200, id: 'P1' })
    .exchange({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '10000', h: 'h-M1' }, { s: 200 });
  assert.equal(
    property(checkHistory([ok.history()]), 'repeats').status,
    'passed',
    'an empty repeat body names nothing',
  );
  const later = new Worker(1, 60_000).client('A');
  later.exchange({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '10000', h: 'h-M1' }, { s: 201, id: 'P9' });
  const v = checkHistory([base().history(), later.history()]);
  const repeats = property(v, 'repeats');
  assert.equal(
    repeats.violations[0]?.rule,
    'IDEM-02',
    'a repeat, whichever test sent it, that created another payment',
  );
  assert.deepEqual(
    repeats.violations[0]?.evidence.map((e) => e.answer),
    ['201 naming P1', '201 naming P9'],
  );
  const again = base().exchange(
    { op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '10000', h: 'h-M1' },
    { s: 201, id: 'P1' },
  );
  assert.equal(property(checkHistory([again.history()]), 'repeats').violations[0]?.rule, 'IDEM-01');
  const refused = base().exchange({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', h: 'other' }, { s: 409 });
  assert.equal(property(checkHistory([refused.history()]), 'repeats').status, 'not exercised', 'a conflict refused');
});

test('visibility: a stranger reading a payment is a violation; its beneficiary may; an unknown sort code is undecided', () => {
  const stranger = settledPayment(new Worker(0).client('A', '111111').client('C', '333333'));
  stranger.exchange({ op: 'paymentStatus', m: 'GET', c: 'C', id: 'P1' }, { s: 200, st: 'ACCC' });
  stranger.exchange({ op: 'incomingPayment', m: 'GET', c: 'C', id: 'P1' }, { s: 404 });
  const visibility = property(checkHistory([stranger.history()]), 'visibility');
  assert.equal(visibility.violationCount, 1);
  assert.equal(visibility.violations[0]?.rule, 'STS-13');
  const beneficiary = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  beneficiary.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'P1' }, { s: 200, st: 'ACCC' });
  assert.equal(property(checkHistory([beneficiary.history()]), 'visibility').status, 'passed');
  const unknown = settledPayment(new Worker(0).client('A', '111111').client('D'));
  unknown.exchange({ op: 'incomingPayment', m: 'GET', c: 'D', id: 'P1' }, { s: 200 });
  const undecided = property(checkHistory([unknown.history()]), 'visibility');
  assert.deepEqual([undecided.undecidedCount, undecided.violationCount], [1, 0]);
  // Any 2xx that may carry the resource is a read of it; a 204 serves nothing.
  const partial = settledPayment(new Worker(0).client('A', '111111').client('C', '333333'));
  partial.exchange({ op: 'incomingPayment', m: 'GET', c: 'C', id: 'P1' }, { s: 203 });
  partial.exchange({ op: 'incomingPayment', m: 'GET', c: 'C', id: 'P1' }, { s: 204 });
  assert.equal(property(checkHistory([partial.history()]), 'visibility').violationCount, 1);
});

test('visibility from the target’s answers: a body the history could not read (UTF-16) leaves whose payment it is to the incoming view the target served', () => {
  /** A payment whose body said nothing the recorder could read: no msgId, sort code or amount. */
  const unreadable = (w: Worker): Worker =>
    w
      .exchange({ op: 'submitPayment', m: 'POST', c: 'A', h: 'utf16' }, { s: 201, id: 'P1' })
      .exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'PEND' });
  const before = unreadable(new Worker(0).client('A', '111111').client('B', '222222'));
  before.exchange({ op: 'incomingPayment', m: 'GET', c: 'B', id: 'P1' }, { s: 200 });
  assert.equal(
    property(checkHistory([before.history()]), 'visibility').undecidedCount,
    1,
    'an incoming view that names no creditor agent decides nothing',
  );
  // B reads the status first, then its incoming view names B's sort code: both reads are decided.
  const told = unreadable(new Worker(0).client('A', '111111').client('B', '222222'));
  told.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'P1' }, { s: 200, st: 'PEND' });
  told.exchange({ op: 'incomingPayment', m: 'GET', c: 'B', id: 'P1' }, { s: 200, bm: '222222' });
  const v = checkHistory([told.history()]);
  assert.equal(property(v, 'visibility').status, 'passed', JSON.stringify(property(v, 'visibility').undecided));
  assert.equal(property(v, 'visibility').undecidedCount, 0);
  assert.equal(v.status, 'passed');
  // The target’s own view says whose payment it is: a stranger it served is a violation, that view its evidence.
  const stranger = unreadable(new Worker(0).client('A', '111111').client('B', '222222').client('C', '333333'));
  stranger.exchange({ op: 'incomingPayment', m: 'GET', c: 'B', id: 'P1' }, { s: 200, bm: '222222' });
  stranger.exchange({ op: 'paymentStatus', m: 'GET', c: 'C', id: 'P1' }, { s: 200, st: 'PEND' });
  const seen = property(checkHistory([stranger.history()]), 'visibility');
  assert.equal(seen.status, 'failed');
  assert.equal(seen.violations[0]?.rule, 'STS-13');
  assert.deepEqual(
    seen.violations[0]?.evidence.map((e) => e.answer),
    ['201 naming P1', '200 naming creditor agent 222222', '200 txSts PEND'],
    'the payment, the incoming view that named its beneficiary, the stranger’s read',
  );
  const served = unreadable(new Worker(0).client('A', '111111').client('C', '333333'));
  served.exchange({ op: 'incomingPayment', m: 'GET', c: 'C', id: 'P1' }, { s: 200, bm: '222222' });
  assert.equal(
    property(checkHistory([served.history()]), 'visibility').violations[0]?.rule,
    'INC-03',
    'an incoming view served to a client it does not name',
  );
});

test('an undecided judgement leaves its own test’s evidence inconclusive, not the property, unless it is all the property has', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222').client('D'));
  w.lines.push({ k: 'by', x: 0, by: 'robustness › a UTF-16 encoded body' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'P1' }, { s: 200, st: 'ACCC' });
  w.exchange({ op: 'incomingPayment', m: 'GET', c: 'D', id: 'P1', x: 0 }, { s: 200 });
  const v = checkHistory([w.history()]);
  const visibility = property(v, 'visibility');
  assert.equal(visibility.status, 'passed', 'the beneficiary’s decided read stands');
  assert.equal(visibility.undecidedCount, 1);
  assert.equal(visibility.undecided[0]?.test, 'robustness › a UTF-16 encoded body');
  assert.deepEqual(visibility.undecidedRules, ['INC-03'], 'INC-03 had no other evidence');
  assert.equal(v.status, 'passed');
  const outcomes = historyRuleOutcomes(v).find((o) => o.test.includes('visibility'))!.outcomes;
  assert.deepEqual(
    outcomes.map((o) => o.rule),
    ['STS-13'],
    'a rule judged only undecided is not said to pass, nor one never judged (CXL-07: no cancellation read)',
  );
  const record = historyRecord([v]);
  assert.equal(record.status, 'passed');
  assert.equal(record.projects[0]?.undecided?.[0]?.test, 'robustness › a UTF-16 encoded body');
  assert.match(
    historyBlock([v]).join('\n'),
    /visibility +passed, 2 checked \(1 undecided, inconclusive for their tests alone\)/,
  );
  const only = new Worker(0).client('A', '111111').client('D');
  only.exchange({ op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', amt: '100' }, { s: 201, id: 'P1' });
  only.exchange({ op: 'incomingPayment', m: 'GET', c: 'D', id: 'P1' }, { s: 200 });
  assert.equal(checkHistory([only.history()]).status, 'inconclusive', 'its only evidence');
});

test('cancellation: a payment whose cancellation the target confirmed never settles accepted (CXL-02); settled first, the confirmation breaks CXL-03; rejected, it is not cancelled (CXL-03)', () => {
  const resolution = { confirmed: ['CNCL'], rejected: ['RJCR'] };
  const history = (w: Worker) => ({ ...w.history(), meta: { ...w.history().meta!, resolution } });
  /** A pays B, cancels at once, and reads the camt.029 by the id the camt.056 answer named. */
  const cancelled = (conf: string): Worker =>
    new Worker(0)
      .client('A', '111111')
      .client('B', '222222')
      .exchange(
        { op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', tx: 'T-M1', e2e: 'E-M1', bm: '222222', amt: '10000' },
        { s: 201, id: 'P1' },
      )
      .exchange({ op: 'cancel', m: 'POST', c: 'A', key: 'X1', om: 'M1', ot: 'T-M1', oe: 'E-M1' }, { s: 201, id: 'C1' })
      .exchange({ op: 'cancellationStatus', m: 'GET', c: 'A', id: 'C1' }, { s: 200, st: conf });
  const kept = cancelled('CNCL').exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'CANC' });
  const clean = property(checkHistory([history(kept)]), 'cancellation');
  assert.deepEqual([clean.status, clean.checked], ['passed', 1]);
  // The target said cancelled, then the money moved all the same (a read later, by the pool).
  const settles = cancelled('CNCL').exchange(
    { op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' },
    { s: 200, st: 'CANC' },
  );
  const later = new Worker(1, 60_000).client('A');
  later.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'ACCC' });
  const broken = property(checkHistory([history(settles), history(later)]), 'cancellation');
  assert.equal(broken.status, 'failed');
  assert.equal(broken.violations[0]?.rule, 'CXL-02');
  assert.deepEqual(
    broken.violations[0]?.evidence.map((e) => e.answer),
    ['201 naming P1', '201 naming C1', '200 sts.conf CNCL', '200 txSts ACCC'],
    'the payment, its cancellation, the confirmation and the settled read',
  );
  // A return of it accepted: the money went back twice.
  const returned = cancelled('CNCL')
    .exchange(
      { op: 'returnPayment', m: 'POST', c: 'B', key: 'R1', om: 'M1', ot: 'T-M1', oe: 'E-M1', amt: '10000' },
      { s: 201, id: 'R1' },
    )
    .exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'R1' }, { s: 200, st: 'ACCC' });
  assert.equal(property(checkHistory([history(returned)]), 'cancellation').violations[0]?.rule, 'CXL-02');
  // One whose answer the profile's codes do not name proves nothing; a rejected one, the payment goes on.
  const pending = cancelled('PDCR').exchange(
    { op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' },
    { s: 200, st: 'ACCC' },
  );
  assert.equal(property(checkHistory([history(pending)]), 'cancellation').status, 'not exercised');
  const goesOn = cancelled('RJCR').exchange(
    { op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' },
    { s: 200, st: 'ACCC' },
  );
  assert.equal(property(checkHistory([history(goesOn)]), 'cancellation').status, 'passed');
  // Rejected, yet the payment reads cancelled (rule 4 rejects it because the batch was sent): CXL-03.
  const rejectedYetCancelled = cancelled('RJCR').exchange(
    { op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' },
    { s: 200, st: 'CANC' },
  );
  const contradicted = property(checkHistory([history(rejectedYetCancelled)]), 'cancellation');
  assert.equal(contradicted.violations[0]?.rule, 'CXL-03');
  assert.deepEqual(
    contradicted.violations[0]?.evidence.map((e) => e.answer),
    ['201 naming P1', '201 naming C1', '200 sts.conf RJCR', '200 txSts CANC'],
  );
  // A second cancellation of it may be rejected because the first (its camt.029 never read) cancelled it.
  const second = cancelled('RJCR');
  second.exchange(
    { op: 'cancel', m: 'POST', c: 'A', key: 'X0', om: 'M1', ot: 'T-M1', oe: 'E-M1' },
    { s: 201, id: 'C0' },
  );
  second.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'CANC' });
  assert.equal(property(checkHistory([history(second)]), 'cancellation').status, 'not exercised');
  // Read settled before the cancellation was asked, then confirmed: its batch was sent, rule 4 (CXL-03).
  const first = new Worker(0)
    .client('A', '111111')
    .exchange(
      { op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', tx: 'T-M1', e2e: 'E-M1', amt: '10000' },
      { s: 201, id: 'P1' },
    )
    .exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'ACCC' })
    .exchange({ op: 'cancel', m: 'POST', c: 'A', key: 'X1', om: 'M1', ot: 'T-M1' }, { s: 201, id: 'C1' })
    // Read by the payment's own id (GET camt029/{paymentsServiceId} of §1 rule 5).
    .exchange({ op: 'cancellationStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'CNCL' });
  assert.equal(property(checkHistory([history(first)]), 'cancellation').violations[0]?.rule, 'CXL-03');
  // A camt.056 whose answer never came may have been applied: the confirmation read by the payment's id shows it was.
  const unanswered = new Worker(0)
    .client('A', '111111')
    .exchange(
      { op: 'submitPayment', m: 'POST', c: 'A', key: 'M1', tx: 'T-M1', e2e: 'E-M1', amt: '10000' },
      { s: 201, id: 'P1' },
    )
    .exchange({ op: 'cancel', m: 'POST', c: 'A', key: 'X1', om: 'M1', ot: 'T-M1' }, { s: 0, err: 'ECONNRESET' })
    .exchange({ op: 'cancellationStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'CNCL' })
    .exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'ACCC' });
  assert.equal(property(checkHistory([history(unanswered)]), 'cancellation').violations[0]?.rule, 'CXL-02');
  // Another client's camt.056 naming the same references cancels nothing of A's.
  const stranger = cancelled('CNCL');
  stranger.lines.forEach((l) => {
    if (l.k === 'i' && l.op === 'cancel') l.c = 'C';
  });
  stranger.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'ACCC' });
  assert.equal(property(checkHistory([history(stranger)]), 'cancellation').status, 'not exercised');
});

test('tokens: a read refused 401 before its token’s expires_in passed, then taken with a newer token, breaks AT-05; after expires_in, or another path, it does not', () => {
  const w = settledPayment(new Worker(0).client('A'));
  const token = (tk: string, at: number) =>
    w.exchange({ op: 'token', m: 'POST', c: 'A', p: '/oauth/token' }, { s: 200, tk, ei: 60 }, at);
  const read = (tk: string, s: number, at: number) =>
    w.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1', tk }, { s, st: s === 200 ? 'ACCC' : undefined }, at);
  // Refused 40 s into a 60 s life, then the same read with a newer token is taken.
  token('T1', 10_000);
  read('T1', 200, 20_000);
  read('T1', 401, 50_000);
  token('T2', 50_010);
  read('T2', 200, 50_020);
  const v = checkHistory([w.history()]);
  const tokens = property(v, 'tokens');
  assert.equal(tokens.status, 'failed');
  assert.equal(tokens.violations[0]!.rule, 'AT-05');
  assert.match(
    tokens.violations[0]!.received,
    /HTTP 401 40\.0 s after the token's request; the same read with a newer token: HTTP 200/,
  );
  assert.equal(tokens.violations[0]!.evidence.length, 3);

  // Refused within the last tenth of its life (the margin), or after it: the target's to decide, or AT-05's other half.
  const late = settledPayment(new Worker(0).client('A'));
  late.exchange({ op: 'token', m: 'POST', c: 'A', p: '/oauth/token' }, { s: 200, tk: 'T1', ei: 60 }, 10_000);
  late.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1', tk: 'T1' }, { s: 401 }, 65_500);
  late.exchange({ op: 'token', m: 'POST', c: 'A', p: '/oauth/token' }, { s: 200, tk: 'T2', ei: 60 }, 65_510);
  late.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1', tk: 'T2' }, { s: 200, st: 'ACCC' }, 65_520);
  assert.equal(property(checkHistory([late.history()]), 'tokens').violationCount, 0);

  // A 401 whose repeat with a newer token is refused too says nothing of the token; nor does another client's token.
  const other = settledPayment(new Worker(0).client('A').client('B'));
  other.exchange({ op: 'token', m: 'POST', c: 'A', p: '/oauth/token' }, { s: 200, tk: 'T1', ei: 60 }, 10_000);
  other.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1', tk: 'T1' }, { s: 401 }, 20_000);
  other.exchange({ op: 'token', m: 'POST', c: 'A', p: '/oauth/token' }, { s: 200, tk: 'T2', ei: 60 }, 20_010);
  other.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1', tk: 'T2' }, { s: 401 }, 20_020);
  other.exchange({ op: 'paymentStatus', m: 'GET', c: 'B', id: 'P1', tk: 'T2' }, { s: 401 }, 20_030);
  const judged = property(checkHistory([other.history()]), 'tokens');
  assert.equal(judged.status, 'passed');
  // Uses within a life are counted, never decided: the rule's other half needs tokenLifetimeControl.
  assert.deepEqual(judged.decidedRules, []);

  // A negative case's mutant (a read without X-Client-Id) refused 401, then its valid twin taken after
  // the client renewed its token: the refusal was the mutation's (ci120, dialect-05's report lane).
  const mutant = settledPayment(new Worker(0).client('A'));
  mutant.exchange({ op: 'token', m: 'POST', c: 'A', p: '/oauth/token' }, { s: 200, tk: 'T1', ei: 300 }, 10_000);
  mutant.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1', tk: 'T1', mu: 1 }, { s: 401 }, 13_400);
  mutant.exchange({ op: 'token', m: 'POST', c: 'A', p: '/oauth/token' }, { s: 200, tk: 'T2', ei: 300 }, 13_500);
  mutant.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1', tk: 'T2' }, { s: 200, st: 'ACCC' }, 13_600);
  assert.equal(property(checkHistory([mutant.history()]), 'tokens').violationCount, 0);
});

test('a request whose answer never came (its worker stopped) is indeterminate', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  w.send({ op: 'refund', m: 'POST', c: 'B', key: 'F1', om: 'M1', ot: 'T-M1', amt: '100' });
  const v = checkHistory([w.history()]);
  assert.equal(v.indeterminate.count, 1);
  assert.match(v.indeterminate.shown[0]!.answer, /no answer recorded/);
});

test('a property reports only the rules it judged: no cross-client msgId, no XCL-01; no repeat, no IDEM-01', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  const judged = (v: HistoryVerdict) => historyRuleOutcomes(v).flatMap((o) => o.outcomes.map((x) => x.rule));
  const alone = judged(checkHistory([w.history()]));
  assert.ok(alone.includes('P8-33'));
  for (const rule of ['XCL-01', 'IDEM-01', 'IDEM-02', 'RTR-05', 'STS-10', 'CXL-02', 'CXL-03'])
    assert.ok(!alone.includes(rule), `${rule} was never judged`);
  // B uses A's msgId for a payment of its own, A repeats its own, A's status is read again after final.
  w.exchange({ op: 'submitPayment', m: 'POST', c: 'B', key: 'M1', amt: '100', h: 'h-B' }, { s: 201, id: 'P2' });
  w.exchange(
    {
      op: 'submitPayment',
      m: 'POST',
      c: 'A',
      key: 'M1',
      tx: 'T-M1',
      e2e: 'E-M1',
      bm: '222222',
      amt: '10000',
      h: 'h-M1',
    },
    { s: 200, id: 'P1' },
  );
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'ACCC' });
  const more = judged(checkHistory([w.history()]));
  for (const rule of ['XCL-01', 'IDEM-01', 'IDEM-02', 'STS-10']) assert.ok(more.includes(rule), `${rule} was judged`);
});

test('kill matrix: a fault is killed by a violation of its rule in its project’s history; the clean history must show none', () => {
  const passed = (project: string): ReportTest => ({ ...reportTest(['@STS-10'], 'passed'), project });
  const fault = faultCatalogue.find((f) => f.name === 'status-reverts-later')!;
  const profile = loadProfile('local');
  const tests = [passed('local'), passed('local~status-reverts-later')];
  const judged = (history: Map<string, Map<string, number>>) =>
    buildMatrix({ exitCode: 1, tests, errors: [], history }, [fault], profile, {
      command: 'npm run mutation',
      scope: 'cited',
      workers: 1,
      maxKills: 3,
      wallMs: 1,
    });
  const killed = judged(new Map([['local~status-reverts-later', new Map([['STS-10', 2]])]]));
  assert.equal(killed.faults[0]?.verdict, 'killed');
  assert.match(killed.faults[0]!.reason, /history shows 2 violation\(s\) of STS-10/);
  assert.equal(killed.clean.historyViolations, 0);
  const otherRule = judged(new Map([['local~status-reverts-later', new Map([['MNY-01', 1]])]]));
  assert.equal(otherRule.faults[0]?.verdict, 'survived', 'another rule’s violation does not kill');
  const dirty = judged(new Map([['local', new Map([['STS-10', 1]])]]));
  assert.equal(dirty.clean.historyViolations, 1);
});

test('kill matrix: a batch’s history is split by the faults of its clients, so a violation is the fault’s whose clients made it', () => {
  const w = settledPayment(new Worker(0).client('A').client('C'));
  w.lines.push({ k: 'faults', c: 'A', faults: ['status-reverts-later'] }, { k: 'faults', c: 'C', faults: ['other'] });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'C', id: 'Q1' }, { s: 404 });
  const pool = new Worker(1, 5_000).client('A');
  pool.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'PEND' });
  assert.equal(property(checkHistory([w.history(), pool.history()]), 'lifecycle').status, 'failed');
  const split = historiesByClientFaults([w.history(), pool.history()]);
  assert.deepEqual([...split.keys()].sort(), ['other', 'status-reverts-later']);
  const own = checkHistory(split.get('status-reverts-later')!);
  assert.equal(property(own, 'lifecycle').status, 'failed');
  assert.equal(own.requests, 3);
  const other = checkHistory(split.get('other')!);
  assert.equal(other.status, 'passed');
  assert.equal(other.requests, 1, 'only the requests of its own clients');
  assert.equal(historiesByClientFaults([new Worker(0).client('A').history()]).size, 0, 'a run outside the kill matrix');
});

test('a refund whose answer names the original payment (POST pacs007’s answer is not shown) shares no id and reads none of its statuses', () => {
  const w = settledPayment(new Worker(0).client('A', '111111').client('B', '222222'));
  refund(w, 'F1', '6000', { s: 201, id: 'P1' });
  refund(w, 'F2', '6000', { s: 201, id: 'P1' });
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'ACCC' });
  const v = checkHistory([w.history()]);
  assert.equal(property(v, 'identity').status, 'passed');
  assert.equal(
    property(v, 'money').status,
    'inconclusive',
    'neither refund is known settled: the payment’s ACCC is not theirs',
  );
});

test('a history violation fails a run whose tests passed; run.json and history.json keep the evidence', () => {
  const runDir = mkdtempSync(path.join(os.tmpdir(), 'payments-history-run-'));
  const w = settledPayment(new Worker(0).client('A'));
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'PEND' });
  const { meta } = w.history();
  mkdirSync(path.join(runDir, 'history'));
  writeFileSync(path.join(runDir, 'history', 'w0.jsonl'), [meta, ...w.lines].map((l) => JSON.stringify(l)).join('\n'));
  const saved = process.env.PAYMENTS_RUN_DIR;
  process.env.PAYMENTS_RUN_DIR = runDir;
  try {
    const reporter = new RunFolderReporter();
    assert.equal(reporter.endStatus('passed'), 'failed');
    const verdicts = judgeRunHistory(runDir);
    const record = historyRecord(verdicts);
    assert.equal(record.status, 'failed');
    assert.equal(record.projects[0]?.violations[0]?.rule, 'STS-10');
    assert.equal(record.projects[0]?.violations[0]?.evidence.length, 2);
    assert.match(historyBlock(verdicts).join('\n'), /^History: FAILED, 1 violation/);
    assert.equal(
      writeHistoryAllure(path.join(runDir, 'allure-results'), verdicts),
      2,
      'identity and lifecycle (one client reading its own payment exercises no visibility)',
    );
  } finally {
    if (saved === undefined) delete process.env.PAYMENTS_RUN_DIR;
    else process.env.PAYMENTS_RUN_DIR = saved;
    rmSync(runDir, { recursive: true, force: true });
  }
});

test('certification: a rule the run’s history shows violated is failed, whatever its tests said', () => {
  const passed = {
    id: 'STS-10',
    level: 'documented' as const,
    statement: 's',
    applies: true,
    status: 'passed' as const,
    tests: { passed: 2, failed: 0, skipped: 0 },
  };
  const other = { ...passed, id: 'STS-08' };
  const w = settledPayment(new Worker(0).client('A'));
  w.exchange({ op: 'paymentStatus', m: 'GET', c: 'A', id: 'P1' }, { s: 200, st: 'PEND' });
  const results = withHistory([passed, other], historyRecord([checkHistory([w.history()])]));
  assert.equal(results[0]?.status, 'failed');
  assert.match(results[0]!.failures![0]!.test, /the run's history \(lifecycle\)/);
  assert.equal(results[1]?.status, 'passed');
  assert.equal(verdictOf(results).certified, false);
});
