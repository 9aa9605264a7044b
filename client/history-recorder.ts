/**
 * Writes a worker's part of the run's history (record/history.ts): every attempt the worker's HTTP
 * client sends, whoever sends it (a test, the settled-payment pool, an observation, an exploration
 * kit, the worker's own setup), retries and requests that got no answer included. It sees them where
 * they leave (transport/http.ts AttemptObserver), so nothing the target saw is missing, and keeps only
 * what the history's judgements need: the operation, the client, the identifiers, the amount, the
 * status read, the sort code an incoming view names, a cancellation's outcome; every value passed
 * through the run's redactor.
 */
import { appendFileSync, rmdirSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { AttemptObserver, HttpRequest, HttpResponse, RequestOrigin } from '../transport/http';
import {
  ensureHistoryDir,
  historyDir,
  historyFile,
  type HistoryComplete,
  type HistoryInvoke,
  type HistoryLine,
  type HistoryOperation,
} from '../record/history';
import type { OperationName, Profile } from '../profile/profile';
import type { Redactor } from '../transport/redact';
import { toMinor } from '../messages/money';
import { fromDeclared } from '../profile/message-shape';
import { createdCancellationIdIn, createdIdIn } from '../messages/answers';

export interface HistoryRecorderOptions {
  runDir: string;
  /** The worker's index, or RUNNER_WORKER (record/history.ts) for the runner's own requests. */
  workerIndex: number;
  /** The file, when not the worker's (the runner's: runnerHistoryFile). */
  file?: string;
  project: string;
  profile: Profile;
  redactor: Redactor;
  /** Where a submission answer names its id (the documented paymentsServiceId, then declared renames). */
  idFields: readonly string[];
}

/** Lines kept in memory before they are appended: a worker's requests cost no file write each. */
const FLUSH_LINES = 512;
const FLUSH_MS = 1_000;

const READS: ReadonlySet<OperationName> = new Set(['paymentStatus', 'incomingPayment', 'cancellationStatus']);

interface Route {
  op: HistoryOperation;
  method: string;
  path: RegExp;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every operation path the profile names, per version, as a pattern on a URL's path (its id captured). */
function routesOf(profile: Profile): Route[] {
  const routes: Route[] = [
    { op: 'token', method: 'POST', path: new RegExp(`${escapeRegExp(profile.tokenPath ?? '/oauth/token')}$`) },
  ];
  for (const [op, operation] of Object.entries(profile.operations) as [
    OperationName,
    { path: string; versions: string[] },
  ][])
    for (const version of operation.versions) {
      const template = escapeRegExp(profile.pathPrefix + operation.path.replace('{version}', version)).replace(
        escapeRegExp('{id}'),
        '([^/]+)',
      );
      routes.push({ op, method: READS.has(op) ? 'GET' : 'POST', path: new RegExp(`${template}$`) });
    }
  return routes;
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** A nested member, or undefined (arrays by index). */
function at(value: unknown, ...keys: (string | number)[]): unknown {
  let current = value;
  for (const key of keys) {
    if (typeof key === 'number') current = Array.isArray(current) ? current[key] : undefined;
    else current = asObject(current)?.[key];
  }
  return current;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

const minor = (value: unknown): string | undefined => {
  if (typeof value !== 'number') return undefined;
  return toMinor(value)?.toString();
};

/**
 * The message under a JSON object's root element, whatever the root is named (the dialects spell some
 * otherwise): the member holding a group header or an assignment, else the first object member (a
 * robustness probe may put another member, __proto__ included, before the root).
 */
function rootOf(json: unknown): Record<string, unknown> | undefined {
  const members = Object.values(asObject(json) ?? {})
    .map(asObject)
    .filter((m) => m !== undefined);
  return members.find((m) => asObject(m.grpHdr) ?? asObject(m.assgnmt)) ?? members[0];
}

/** The message a request body carries (undefined when it is not JSON the recorder can read). */
function messageOf(body: HttpRequest['body']): Record<string, unknown> | undefined {
  if (body === undefined) return undefined;
  try {
    return rootOf(JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8')));
  } catch {
    // not JSON: a robustness case; nothing to keep but the request itself
  }
  return undefined;
}

/** What a submission carries that the history's judgements need. */
function submissionFields(op: HistoryOperation, body: HttpRequest['body']): Partial<HistoryInvoke> {
  const m = messageOf(body);
  if (!m) return {};
  switch (op) {
    case 'submitPayment': {
      const tx = at(m, 'cdtTrfTxInf', 0);
      return {
        key: text(at(m, 'grpHdr', 'msgId')),
        tx: text(at(tx, 'pmtId', 'txId')),
        e2e: text(at(tx, 'pmtId', 'endToEndId')),
        bm: text(at(tx, 'cdtrAgt', 'finInstnId', 'clrSysMmbId', 'mmbId')),
        amt: minor(at(tx, 'intrBkSttlmAmt', 'value')),
      };
    }
    case 'returnPayment':
    case 'refund': {
      const tx = at(m, 'txInf', 0);
      return {
        key: text(at(m, 'grpHdr', 'msgId')),
        rid: text(at(tx, op === 'returnPayment' ? 'rtrId' : 'rvslId')),
        om: text(at(tx, 'orgnlGrpInf', 'orgnlMsgId')),
        ot: text(at(tx, 'orgnlTxId')),
        oe: text(at(tx, 'orgnlEndToEndId')),
        amt: minor(at(tx, op === 'returnPayment' ? 'rtrdIntrBkSttlmAmt' : 'rvsdIntrBkSttlmAmt', 'value')),
      };
    }
    case 'cancel': {
      const tx = at(m, 'undrlyg', 0, 'txInf', 0);
      return {
        key: text(at(m, 'assgnmt', 'id')),
        om: text(at(tx, 'orgnlGrpInf', 'orgnlMsgId')),
        ot: text(at(tx, 'orgnlTxId')),
        oe: text(at(tx, 'orgnlEndToEndId')),
      };
    }
    default:
      return {};
  }
}

/** 12 hex digits of SHA-256: the history tells tokens and bodies apart by it, and keeps neither. */
const digest12 = (value: string | Uint8Array): string => createHash('sha256').update(value).digest('hex').slice(0, 12);

/** The bearer access token a request sends, when it sends one. */
function bearerOf(headers: Record<string, string>): string | undefined {
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'authorization' && /^bearer /i.test(value)) return value.slice(7).trim() || undefined;
  return undefined;
}

/** §2.1's expires_in: "integer (may be rendered as a string of digits)"; undefined for anything else. */
function expiresInOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : undefined;
  return typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Whom a request is sent as when its sender did not say: X-Client-Id, else the Basic credentials' user. */
function clientOfHeaders(headers: Record<string, string>): string | undefined {
  let basic: string | undefined;
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-client-id' && value) return value;
    if (lower === 'authorization' && /^basic /i.test(value))
      basic = Buffer.from(value.slice(6).trim(), 'base64').toString('utf8').split(':')[0] || undefined;
  }
  return basic;
}

export class HistoryRecorder implements AttemptObserver {
  private readonly file: string;
  private readonly routes: Route[];
  private buffer: string[] = [];
  private madeDir = false;
  private sequence = 0;
  private readonly clients = new Set<string>();
  private readonly origins = new Map<string, number>();
  /** Requests sent and not answered yet: what their answer is read for. */
  private readonly inFlight = new Map<number, HistoryOperation>();
  private readonly timer: NodeJS.Timeout;
  private readonly onExit = (): void => this.flush();

  constructor(private readonly options: HistoryRecorderOptions) {
    this.file = options.file ?? historyFile(options.runDir, options.workerIndex);
    this.routes = routesOf(options.profile);
    this.write({
      k: 'meta',
      project: options.project,
      worker: options.workerIndex,
      profile: options.profile.name,
      expectations: options.profile.expectations,
      resolution: {
        confirmed: options.profile.messages.resolution.confirmed,
        rejected: options.profile.messages.resolution.rejected,
      },
    });
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
    process.once('exit', this.onExit);
  }

  private write(line: HistoryLine): void {
    this.buffer.push(`${JSON.stringify(line)}\n`);
    if (this.buffer.length >= FLUSH_LINES) this.flush();
  }

  private redact(value: string | undefined): string | undefined {
    return value === undefined ? undefined : this.options.redactor.text(value);
  }

  private route(method: string, pathname: string): { op: HistoryOperation; id?: string } {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const match = route.path.exec(pathname);
      if (!match) continue;
      if (match[1] === undefined) return { op: route.op };
      try {
        return { op: route.op, id: decodeURIComponent(match[1]) };
      } catch {
        return { op: route.op, id: match[1] };
      }
    }
    return { op: 'other' };
  }

  private clientOf(request: HttpRequest, origin: RequestOrigin | undefined): string | undefined {
    const given = origin?.client;
    const id = this.redact(given?.clientId ?? clientOfHeaders(request.headers));
    if (id !== undefined && !this.clients.has(id)) {
      this.clients.add(id);
      const member = this.redact(given?.memberId);
      this.write({ k: 'client', c: id, ...(given?.role ? { role: given.role } : {}), ...(member ? { member } : {}) });
    }
    return id;
  }

  /** The faults the reference applies to this client (a kill-matrix batch: fixtures/worker.ts). */
  clientFaults(clientId: string, faults: readonly string[]): void {
    this.write({ k: 'faults', c: this.redact(clientId)!, faults });
  }

  private originOf(origin: RequestOrigin | undefined): number | undefined {
    if (!origin?.by) return undefined;
    let x = this.origins.get(origin.by);
    if (x === undefined) {
      x = this.origins.size;
      this.origins.set(origin.by, x);
      this.write({ k: 'by', x, by: this.options.redactor.text(origin.by) });
    }
    return x;
  }

  sent(request: HttpRequest, origin: RequestOrigin | undefined, attempt: number): number {
    const n = ++this.sequence;
    const url = new URL(request.url);
    const { op, id } = this.route(request.method, url.pathname);
    const c = this.clientOf(request, origin);
    const x = this.originOf(origin);
    const fields = request.method === 'POST' ? submissionFields(op, request.body) : {};
    const h = request.body === undefined ? undefined : digest12(request.body);
    const bearer = bearerOf(request.headers);
    const line: HistoryInvoke = { k: 'i', n, t: Date.now(), op, m: request.method, p: this.redact(url.pathname)! };
    if (x !== undefined) line.x = x;
    if (c !== undefined) line.c = c;
    if (id !== undefined) line.id = this.redact(id)!;
    for (const name of ['key', 'tx', 'e2e', 'bm', 'om', 'ot', 'oe', 'rid'] as const) {
      const value = this.redact(fields[name]);
      if (value !== undefined) line[name] = value;
    }
    if (fields.amt !== undefined) line.amt = fields.amt;
    if (h !== undefined) line.h = h;
    if (attempt > 1) line.a = attempt;
    if (bearer !== undefined) line.tk = digest12(bearer);
    if (origin?.mutation) line.mu = 1;
    this.inFlight.set(n, op);
    this.write(line);
    return n;
  }

  answered(ref: number, response: HttpResponse | undefined, error?: string): void {
    const op = this.inFlight.get(ref);
    this.inFlight.delete(ref);
    const line: HistoryComplete = { k: 'c', n: ref, t: Date.now(), s: response?.status ?? 0 };
    if (!response) {
      line.err = error ?? 'error';
      this.write(line);
      return;
    }
    const json = response.json;
    if (op === 'token') {
      const token = at(json, 'access_token');
      const ei = expiresInOf(at(json, 'expires_in'));
      if (typeof token === 'string' && token !== '' && ei !== undefined) {
        line.tk = digest12(token);
        line.ei = ei;
      }
    } else if (op === 'paymentStatus') {
      const st = text(at(json, 'fitoFIPmtStsRpt', 'txInfAndSts', 0, 'txSts'));
      if (st !== undefined) line.st = this.redact(st)!;
      const om = text(at(json, 'fitoFIPmtStsRpt', 'txInfAndSts', 0, 'orgnlGrpInf', 'orgnlMsgId'));
      if (om !== undefined) line.om = this.redact(om)!;
    } else if (op === 'incomingPayment') {
      // The target's own word on whose payment it is: it decides a read where the request's body could not be read.
      // Under the declared root, else under whichever root the target chose (the profile may not know it yet).
      const view = fromDeclared(json, this.options.profile.messages.incomingPayment) ?? rootOf(json);
      const bm = text(at(view, 'cdtTrfTxInf', 0, 'cdtrAgt', 'finInstnId', 'clrSysMmbId', 'mmbId'));
      if (bm !== undefined) line.bm = this.redact(bm)!;
    } else if (op === 'cancellationStatus') {
      const conf = text(at(fromDeclared(json, this.options.profile.messages.resolution), 'sts', 'conf'));
      if (conf !== undefined) line.st = this.redact(conf)!;
    } else if (op === 'submitPayment' || op === 'returnPayment' || op === 'refund' || op === 'cancel') {
      const data = asObject(at(json, 'data'));
      // §2.3: "The body holds a data object"; the answer to the others is not shown (§4.4), so an
      // acceptance is read as the tests read it: at the body's top level, or by its Location header.
      const id =
        this.options.idFields.map((field) => text(data?.[field])).find((named) => named !== undefined) ??
        (op === 'submitPayment' || response.status < 200 || response.status >= 300
          ? undefined
          : op === 'cancel'
            ? createdCancellationIdIn(this.options.idFields, response)
            : createdIdIn(this.options.idFields, response));
      if (id !== undefined) line.id = this.redact(id)!;
    }
    this.write(line);
  }

  /** Appends what is buffered; the run's end reads the files (and a worker that exits flushes first). */
  flush(): void {
    if (!this.buffer.length) return;
    const lines = this.buffer.join('');
    this.buffer = [];
    if (!this.madeDir) ensureHistoryDir(this.options.runDir);
    this.madeDir = true;
    appendFileSync(this.file, lines);
  }

  close(): void {
    clearInterval(this.timer);
    process.off('exit', this.onExit);
    this.flush();
  }

  /**
   * Writes nothing more, and keeps nothing of what it recorded: a run refused before it began keeps no
   * folder. What the timer already flushed (a slow answer) goes too, with the folders it made, when empty.
   */
  discard(): void {
    this.buffer = [];
    this.close();
    if (!this.madeDir) return;
    rmSync(this.file, { force: true });
    for (const dir of [historyDir(this.options.runDir), this.options.runDir])
      try {
        rmdirSync(dir);
      } catch {
        // Not empty: another recorder's or the run's own files are there.
      }
  }
}
