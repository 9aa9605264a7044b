/**
 * How fast the run's history is judged (checks/history.ts): a full local run's history, and a
 * synthetic history of a million events of the same shapes over many resources. Each is read and
 * checked in a process of its own (history-check.ts), whose time and peak memory are the measure.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { historyDir, historyFile, type HistoryLine } from '../../record/history';
import { loadProfile } from '../../profile/profile';
import { loadNow, mb, seconds, type Row } from './format';
import { measureSuite } from './suite-run';
import { TARGET_HISTORY_LOCAL_MS, TARGET_HISTORY_SYNTHETIC_S, SYNTHETIC_HISTORY_EVENTS, WORKERS } from './targets';

export interface HistoryTiming {
  ms: number;
  /** CPU time of the check (user and system): what it costs whatever else the machine runs. */
  cpuMs: number;
  requests: number;
  events: number;
  workers: number;
  /** Peak resident memory of the checking process. */
  maxRssBytes: number;
  status: string;
}

/** Reads and checks the history of a run folder in a process of its own. */
export function timeHistoryCheck(runDir: string): HistoryTiming {
  const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'history-check.ts'), runDir], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`history check of ${runDir} failed: ${child.stderr || child.stdout}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as HistoryTiming;
}

/**
 * A history of about `events` lines over `workers` workers, as a run of the suite writes it: per
 * payment a submission, two status reads (pending, then accepted), its beneficiary's incoming read,
 * a refund and its status, a refund over what is left (refused), a repeat of the payment, a
 * stranger’s refused read (18 lines), and a token request every 50 payments.
 */
export function writeSyntheticHistory(runDir: string, events: number, workers = 4): { payments: number } {
  mkdirSync(historyDir(runDir), { recursive: true });
  const expectations = loadProfile('local').expectations;
  const perPayment = 18;
  const payments = Math.ceil(events / perPayment);
  for (let w = 0; w < workers; w++) {
    const lines: string[] = [];
    const line = (l: HistoryLine): void => void lines.push(JSON.stringify(l));
    line({ k: 'meta', project: 'synthetic', worker: w, profile: 'local', expectations });
    const [a, b, c] = [`A${w}`, `B${w}`, `C${w}`];
    line({ k: 'client', c: a, role: 'primary', member: `1${w}0000` });
    line({ k: 'client', c: b, role: 'secondary', member: `2${w}0000` });
    line({ k: 'client', c: c, role: 'stranger', member: `3${w}0000` });
    line({ k: 'by', x: 0, by: 'synthetic test' });
    line({ k: 'by', x: 1, by: 'background: settled-payment pool' });
    let n = 0;
    let t = 1_800_000_000_000 + w;
    const exchange = (
      invoke: Omit<Extract<HistoryLine, { k: 'i' }>, 'k' | 'n' | 't'>,
      answer: Omit<Extract<HistoryLine, { k: 'c' }>, 'k' | 'n' | 't'>,
    ): void => {
      n++;
      t += 2;
      line({ k: 'i', n, t, ...invoke });
      line({ k: 'c', n, t: t + 1, ...answer });
    };
    for (let i = w; i < payments; i += workers) {
      const id = `P-${i}`;
      const key = `M-${i}`;
      const x = i % 3 === 0 ? 1 : 0;
      const refund = (refundKey: string, amt: string, answer: Parameters<typeof exchange>[1]): void =>
        exchange(
          {
            x,
            c: b,
            op: 'refund',
            m: 'POST',
            p: '/payments/pacs007/v08',
            key: refundKey,
            om: key,
            ot: `T-${i}`,
            oe: `E-${i}`,
            rid: `R${refundKey}`,
            amt,
            h: refundKey,
          },
          answer,
        );
      const pay = (answer: Parameters<typeof exchange>[1]): void =>
        exchange(
          {
            x,
            c: a,
            op: 'submitPayment',
            m: 'POST',
            p: '/payments/pacs008/v10',
            key,
            tx: `T-${i}`,
            e2e: `E-${i}`,
            bm: `2${w}0000`,
            amt: '10000',
            h: `h${i}`,
          },
          answer,
        );
      const read = (by: string, of: string, answer: Parameters<typeof exchange>[1]): void =>
        exchange({ x, c: by, op: 'paymentStatus', m: 'GET', p: `/payments/pacs002/v12/${of}`, id: of }, answer);
      if (i % 50 === w) exchange({ x, c: a, op: 'token', m: 'POST', p: '/oauth/token' }, { s: 200 });
      pay({ s: 201, id });
      read(a, id, { s: 200, st: 'PEND' });
      read(a, id, { s: 200, st: 'ACCC' });
      exchange({ x, c: b, op: 'incomingPayment', m: 'GET', p: `/payments/pacs008/v08/${id}`, id }, { s: 200 });
      refund(`F-${i}`, '4000', { s: 201, id: `F-${i}` });
      read(b, `F-${i}`, { s: 200, st: 'ACCC' });
      refund(`G-${i}`, '7000', { s: 400 });
      pay({ s: 200, id });
      read(c, id, { s: 404 });
    }
    writeFileSync(historyFile(runDir, w), `${lines.join('\n')}\n`);
  }
  return { payments };
}

export async function historyPart(localRun?: HistoryTiming): Promise<{ rows: Row[]; notes: string[] }> {
  const rows: Row[] = [];
  const notes: string[] = [];
  let local = localRun;
  if (!local) {
    let timing: HistoryTiming | undefined;
    await measureSuite(`full local run, ${WORKERS} workers (for its history)`, {
      project: 'local',
      workers: WORKERS,
      allure: false,
      inspect: (runDir) => (timing = timeHistoryCheck(runDir)),
    });
    local = timing;
  }
  if (local)
    rows.push({
      measure: `the history of the full local run (${local.requests} requests, ${local.events} events, ${local.workers} workers), read and checked`,
      value: `${local.ms} ms (${local.cpuMs} ms CPU), peak RSS ${mb(local.maxRssBytes)}`,
      target: `< ${TARGET_HISTORY_LOCAL_MS / 1000} s`,
      ok: local.ms < TARGET_HISTORY_LOCAL_MS,
    });
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'payments-bench-history-'));
  try {
    process.stdout.write(`bench: synthetic history of ${SYNTHETIC_HISTORY_EVENTS} events … `);
    const before = loadNow();
    const { payments } = writeSyntheticHistory(scratch, SYNTHETIC_HISTORY_EVENTS);
    const synthetic = timeHistoryCheck(scratch);
    const load = { before, after: loadNow() };
    console.log(
      `${seconds(synthetic.ms)} (${seconds(synthetic.cpuMs)} CPU), peak RSS ${mb(synthetic.maxRssBytes)}, ${synthetic.status}`,
    );
    rows.push({
      measure: `a synthetic history of ${synthetic.events.toLocaleString('en')} events (${payments.toLocaleString('en')} payments, their reads, refunds, repeats; ${synthetic.workers} workers), read and checked`,
      value: `${seconds(synthetic.ms)} (${seconds(synthetic.cpuMs)} CPU), peak RSS ${mb(synthetic.maxRssBytes)}`,
      target: `< ${TARGET_HISTORY_SYNTHETIC_S} s`,
      ok: synthetic.ms < TARGET_HISTORY_SYNTHETIC_S * 1000,
      load,
    });
    if (synthetic.status !== 'passed')
      notes.push(`the synthetic history was judged ${synthetic.status}: it is built to pass`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return { rows, notes };
}
