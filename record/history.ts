/**
 * The run's history on disk: every request a worker sent, as an invoke line when it left and a
 * complete line when its answer came (or did not), one JSONL file per worker in the run folder's
 * `history/` (client/history-recorder.ts writes them; checks/history.ts judges them). Lines are
 * appended in the order they happen, so each file is in time order and a run's history is the merge
 * of its files by time. Nothing secret is written: no header, no body, only the identifiers and
 * amounts a judgement needs, each passed through the run's redactor.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ProfileFile } from '../profile/profile-schema';

export const HISTORY_FOLDER = 'history';

export const historyDir = (runDir: string): string => path.join(runDir, HISTORY_FOLDER);

/** A worker's history file: worker indexes are unique within a run (a replaced worker gets a new one). */
export const historyFile = (runDir: string, workerIndex: number): string =>
  path.join(historyDir(runDir), `w${workerIndex}.jsonl`);

/** The runner's own requests for a profile (the credential preflight before any worker): worker -1. */
export const RUNNER_WORKER = -1;
export const runnerHistoryFile = (runDir: string, profile: string): string =>
  path.join(historyDir(runDir), `runner-${encodeURIComponent(profile)}.jsonl`);

/** The first line of a worker's file: whose history it is, and the profile's words for statuses. */
export interface HistoryMeta {
  k: 'meta';
  project: string;
  /** The worker's index; RUNNER_WORKER for the runner's own requests. */
  worker: number;
  profile: string;
  /** The profile's expectations: which txSts codes are pending or final on this target (checks/history.ts). */
  expectations: ProfileFile['expectations'];
  /** The profile's camt.029 codes (messages.resolution): which sts.conf confirms a cancellation, which rejects it. */
  resolution?: { confirmed: readonly string[]; rejected: readonly string[] };
}

/** A client the worker sent requests as, with its sort code when known (its incoming payments name it). */
export interface HistoryClient {
  k: 'client';
  c: string;
  role?: string;
  member?: string;
}

/**
 * The faults the reference applies to a client: written when a kill-matrix worker serves several
 * faults, each with clients of its own, so each fault's history can be judged apart.
 */
export interface HistoryClientFaults {
  k: 'faults';
  c: string;
  faults: readonly string[];
}

/** Who sent the requests that name this number: a test, or background work. */
export interface HistoryOrigin {
  k: 'by';
  x: number;
  by: string;
}

/** What the history keeps of the operations the spec defines; `other` is any other request the target saw. */
export type HistoryOperation =
  | 'token'
  | 'submitPayment'
  | 'paymentStatus'
  | 'incomingPayment'
  | 'cancel'
  | 'cancellationStatus'
  | 'returnPayment'
  | 'refund'
  | 'other';

/** A request leaves. */
export interface HistoryInvoke {
  k: 'i';
  /** The request's number in this worker's file. */
  n: number;
  /** Epoch milliseconds. */
  t: number;
  /** Its origin's number (HistoryOrigin); absent: worker setup, outside any test. */
  x?: number;
  /** The client it was sent as. */
  c?: string;
  op: HistoryOperation;
  m: string;
  /** The URL's path, without query. */
  p: string;
  /** The resource id a read names in its path. */
  id?: string;
  /** The idempotency key: grpHdr.msgId (pacs.008, pacs.004, pacs.007) or assgnmt.id (camt.056). */
  key?: string;
  /** pacs.008: txId, endToEndId, and the creditor agent's sort code (whose incoming payment it is). */
  tx?: string;
  e2e?: string;
  bm?: string;
  /** Returns, refunds, cancellations: the original's msgId, txId and endToEndId. */
  om?: string;
  ot?: string;
  oe?: string;
  /** A return's rtrId, a refund's rvslId. */
  rid?: string;
  /** The amount in minor units (a decimal string): pacs.008's, or what a return or refund sends back. */
  amt?: string;
  /** 12 hex digits of SHA-256 of the body: tells a repeat of the same message from another body. */
  h?: string;
  /** The attempt's number for one request (1 the first; retries follow). */
  a?: number;
  /** 12 hex digits of SHA-256 of the bearer access token it sent: which token answer issued it. */
  tk?: string;
  /** A negative case's mutant (cases/mutations.ts): its headers or credentials altered on purpose, so its refusal is the mutation's. */
  mu?: 1;
}

/** Its answer, or none. */
export interface HistoryComplete {
  k: 'c';
  n: number;
  t: number;
  /** HTTP status; 0 when no answer came. */
  s: number;
  /** No answer: the transport's error code (ECONNRESET, UND_ERR_HEADERS_TIMEOUT…, `unreachable`). */
  err?: string;
  /** The resource id the answer names (data.paymentsServiceId of a submission). */
  id?: string;
  /** txSts of a pacs.002 answer; sts.conf of a camt.029 answer. */
  st?: string;
  /** orgnlGrpInf.orgnlMsgId of a pacs.002 answer: the request it says it reports on. */
  om?: string;
  /** The creditor agent's sort code an incoming view names: whose incoming payment the target says it is. */
  bm?: string;
  /** A token answer: 12 hex digits of SHA-256 of the access_token it issued, and its expires_in in seconds. */
  tk?: string;
  ei?: number;
}

/** One request of a proving sub-history, as a person reads it (checks/history.ts makes them). */
export interface EvidenceLine {
  /** When it was sent (ISO). */
  at: string;
  /** The worker's index; RUNNER_WORKER for the runner's own requests. */
  worker: number;
  /** The test, or the background work, that sent it. */
  by: string;
  request: string;
  answer: string;
  /** No answer or a 5xx to a POST: maybe applied. */
  indeterminate?: true;
}

/** What run.json keeps of the history's verdict (runner/history.ts; the whole verdict is history.json). */
export interface HistoryRecord {
  status: 'passed' | 'failed' | 'inconclusive';
  /** history.json, relative to the run folder. */
  file: string;
  requests: number;
  indeterminate: number;
  violations: number;
  undecided: number;
  checkedInMs: number;
  projects: {
    project: string;
    status: 'passed' | 'failed' | 'inconclusive';
    requests: number;
    indeterminate: number;
    properties: Record<string, string>;
    /** What the history could not decide, each in the test (or background work) whose requests left it open. */
    undecided?: { property: string; rule: string; test: string; what: string; why: string }[];
    violations: {
      property: string;
      rule: string;
      what: string;
      expected: string;
      received: string;
      evidence: EvidenceLine[];
    }[];
  }[];
}

export type HistoryLine =
  | HistoryMeta
  | HistoryClient
  | HistoryClientFaults
  | HistoryOrigin
  | HistoryInvoke
  | HistoryComplete;

/**
 * One worker's history as read back: its first line, and its other lines in order, parsed as they
 * are read (a run's million lines are never all held as objects at once).
 */
export interface WorkerHistory {
  file: string;
  meta: HistoryMeta | undefined;
  lines(): Iterator<HistoryLine>;
}

/** A worker's history made of lines already parsed (tests, tools). */
export const workerHistory = (
  meta: HistoryMeta | undefined,
  lines: readonly HistoryLine[],
  file = '',
): WorkerHistory => ({
  file,
  meta,
  lines: () => lines[Symbol.iterator](),
});

/** The lines of a worker file from `start`, each parsed when reached; a line cut short (a worker killed mid-write) is left out. */
function* linesOf(text: string, start: number): Generator<HistoryLine> {
  let at = start;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    if (end > at) {
      let line: HistoryLine | undefined;
      try {
        line = JSON.parse(text.slice(at, end)) as HistoryLine;
      } catch {
        // an unfinished last line
      }
      if (line && line.k !== 'meta') yield line;
    }
    at = end + 1;
  }
}

/** Every worker file of a run's history (none: the run kept no history). */
export function historyFiles(runDir: string): string[] {
  const dir = historyDir(runDir);
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir);
  return [
    ...files.filter((f) => /^runner-.+\.jsonl$/.test(f)).sort(),
    ...files.filter((f) => /^w\d+\.jsonl$/.test(f)).sort((a, b) => Number(a.slice(1, -6)) - Number(b.slice(1, -6))),
  ].map((f) => path.join(dir, f));
}

/** One worker file: its meta line read now, the rest as it is reached. */
export function parseHistory(text: string, file = ''): WorkerHistory {
  const first = text.indexOf('\n');
  let meta: HistoryMeta | undefined;
  try {
    const line = JSON.parse(first === -1 ? text : text.slice(0, first)) as HistoryLine;
    if (line.k === 'meta') meta = line;
  } catch {
    // no complete first line: a worker that wrote nothing more
  }
  return { file, meta, lines: () => linesOf(text, 0) };
}

export function readWorkerHistory(file: string): WorkerHistory {
  return parseHistory(readFileSync(file, 'utf8'), file);
}

/** The run's history, grouped by project (each project's workers judged together: one target, one profile). */
export function readRunHistory(runDir: string): Map<string, WorkerHistory[]> {
  const byProject = new Map<string, WorkerHistory[]>();
  for (const file of historyFiles(runDir)) {
    const worker = readWorkerHistory(file);
    const project = worker.meta?.project ?? '(unknown project)';
    byProject.set(project, [...(byProject.get(project) ?? []), worker]);
  }
  return byProject;
}

export function ensureHistoryDir(runDir: string): void {
  mkdirSync(historyDir(runDir), { recursive: true });
}

/** The requests of some clients only: their invokes, answers, client lines and every origin line. */
function ofClients(worker: WorkerHistory, keep: (client: string) => boolean): WorkerHistory {
  return {
    ...worker,
    lines: function* (): Generator<HistoryLine> {
      const kept = new Set<number>();
      const lines = worker.lines();
      for (let next = lines.next(); !next.done; next = lines.next()) {
        const line = next.value;
        if (line.k === 'i') {
          if (line.c === undefined || !keep(line.c)) continue;
          kept.add(line.n);
        } else if (line.k === 'c') {
          if (!kept.has(line.n)) continue;
        } else if ((line.k === 'client' || line.k === 'faults') && !keep(line.c)) continue;
        yield line;
      }
    },
  };
}

/**
 * A project's history split by the faults the reference applied to its clients (HistoryClientFaults
 * lines, written when a kill-matrix worker serves several faults): per set of faults (joined by
 * commas), its workers holding the requests of that set's clients only. Empty when no line names
 * faults: the project's history is one.
 */
export function historiesByClientFaults(workers: readonly WorkerHistory[]): Map<string, WorkerHistory[]> {
  const faultsOf = new Map<string, string>();
  for (const worker of workers) {
    const lines = worker.lines();
    for (let next = lines.next(); !next.done; next = lines.next())
      if (next.value.k === 'faults') faultsOf.set(next.value.c, next.value.faults.join(','));
  }
  return new Map(
    [...new Set(faultsOf.values())].map((faults) => [
      faults,
      workers.map((worker) => ofClients(worker, (client) => faultsOf.get(client) === faults)),
    ]),
  );
}
