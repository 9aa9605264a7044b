/**
 * One HTTP exchange with the target, recorded whole. undici rather than Playwright's request context:
 * the SCA hash covers the exact body bytes, negative cases send bytes that are not valid UTF-8, and the
 * concurrency tests need many requests in flight from one worker.
 */
import type { Dispatcher, request } from 'undici';
import { suiteEnvironment, type ProxySettings } from '../profile/run-settings';
import {
  AdaptiveRateLimit,
  DeclaredRateLimit,
  HELD_RETRY_MS,
  type Pace,
  type RateLimits,
  type RateLimitStore,
  type RequestClass,
  type SharedSends,
} from './rate-limit';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it is JSON, otherwise undefined. */
  json: unknown;
}

export interface Exchange {
  /** Business name of the step, e.g. "submit payment (twin)". */
  label: string;
  request: HttpRequest;
  response: HttpResponse;
  startedAt: string;
  durationMs: number;
  /**
   * Transient answers that were retried (429, 502, 503, 504 after Retry-After; a connection lost on a
   * repeatable request: status 0 with the error's code), kept so that no retry is hidden.
   */
  retries: Retry[];
  /** The id of the negative case's mutation this request carried (cases/mutations.ts), for its replay. */
  mutation?: string;
}

export interface Retry {
  status: number;
  waitedMs: number;
  /** The error code when no answer came (ECONNRESET, UND_ERR_HEADERS_TIMEOUT...). */
  error?: string;
}

/**
 * Answers a sandbox's infrastructure gives, not the API: a rate limit (429, RFC 6585 §4), a gateway
 * or a service briefly unavailable (502, 503, 504). Retried within the budget; still there after it,
 * the test that got one is inconclusive, never failed nor passed.
 */
export const TRANSIENT_STATUSES: readonly number[] = [429, 502, 503, 504];

export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUSES.includes(status);
}

/** Transient answers and lost connections are retried at most maxRetries times, waiting at most budgetMs in all. */
export interface RetryPolicy {
  maxRetries: number;
  budgetMs: number;
}

/** What every profile gets unless it declares concurrency.retry: a sandbox's conditions are not the target's fault. */
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 4, budgetMs: 30_000 };

/** The wait after a lost connection (no Retry-After to honour). */
const CONNECTION_RETRY_MS = 250;

/**
 * A request that got no answer (connection reset or closed, a timeout) after its retries: an
 * infrastructure failure, which the fixtures report as inconclusive.
 */
export class TransportFailure extends Error {
  override name = 'TransportFailure';
  constructor(
    readonly label: string,
    readonly request: HttpRequest,
    readonly code: string,
    readonly retries: readonly Retry[],
    cause: unknown,
  ) {
    super(
      `${label}: ${request.method} ${new URL(request.url).pathname} got no answer (${code})${retries.length ? ` after ${retries.length} retries` : ''}`,
      { cause },
    );
  }
}

/** Who sent a request, as the run's history names it (client/history-recorder.ts). */
export interface RequestOrigin {
  /** The test ("file › describe › title"), or "background: …" for work outside any test. */
  by?: string;
  /** The client the request is sent as, with its sort code when it has one (the history's beneficiaries). */
  client?: { clientId: string; memberId?: string; role?: string };
  /** The negative case's mutation it carries (cases/mutations.ts): a request a test altered on purpose. */
  mutation?: string;
}

/**
 * Sees every attempt a client sends, retries included, and its answer or the lack of one: the run's
 * history is built from it, so it holds every request the target saw, whoever sent it.
 */
export interface AttemptObserver {
  /** An attempt leaves (`attempt` 1 the first, then its retries); what it returns is given back to `answered`. */
  sent(request: HttpRequest, origin: RequestOrigin | undefined, attempt: number): number;
  /** Its answer, or none (`error`: the transport's code, e.g. ECONNRESET, or `unreachable`). */
  answered(ref: number, response: HttpResponse | undefined, error?: string): void;
}

/** How one request may be sent again. */
export interface SendOptions {
  /**
   * The request may be sent again after an answer that might mean it was processed (502, 503, 504, a
   * lost connection): a read, a token request, the repeat of a message the target accepted already.
   * Default: GET and HEAD. A 429 is always retried: the limiter refused the request unprocessed.
   */
  repeatable?: boolean;
  /** Builds each next attempt: fresh single-use values (an assertion's jti, an SCA nonce) over the same body. */
  renew?: () => HttpRequest;
  /** Who sends it, for the run's history. */
  origin?: RequestOrigin;
  /** A token request, whatever its headers (a test's may carry no Basic credentials): the token endpoint's bucket. */
  kind?: 'api' | 'token';
  /**
   * Called when the request's turn in its bucket comes, just before it is sent: what must be valid at
   * that moment, not when the request joined the queue (an access token a paced request can outlive).
   */
  atTurn?: (request: HttpRequest) => Promise<HttpRequest>;
}

/** A JSON answer (spec §4): Content-Type application/json or a +json type, and a body that parsed. */
export function isJsonAnswer(exchange: Exchange): boolean {
  return (
    /^application\/([\w.+-]+\+)?json\b/i.test(exchange.response.headers['content-type'] ?? '') &&
    exchange.response.json !== undefined
  );
}

export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
}

export interface HttpClientOptions {
  /** Transient answers are retried within this (default DEFAULT_RETRY). */
  retry?: RetryPolicy;
  /** Former name of `retry` (it retried 429 only), still read. */
  retry429?: RetryPolicy;
  /** Requests are paced to at most this many a second per client (X-Client-Id, else the Basic user): this worker's fixed share of the target's rate limit. */
  requestsPerSecond?: number;
  /**
   * The target's declared rate limit (the profile's concurrency.rateLimit): each client's requests,
   * and the token endpoint's in their client's bucket or in one of their own, paced to it, on the
   * run's shared schedule of each bucket (`shared`), else at this worker's share of `sharedBy` (the
   * workers sending as one client).
   */
  declaredRate?: {
    requestsPerSecond: number;
    tokenEndpoint?: { requestsPerSecond: number; per: 'client' | 'address' };
    sharedBy?: number;
    shared?: SharedSends;
  };
  /**
   * Without a declared rate, each bucket's rate limit is learned from the target's answers (its 429s,
   * its rate-limit headers; transport/rate-limit.ts) and its requests paced to it: `store` is where the
   * workers of a run share what they learned (default: this HttpClient alone), `sharedBy` how many
   * workers send as the same client (default 1), `shared` the run's send counts and the schedule of
   * each bucket. Absent: nothing is learned, nothing paced.
   */
  learnedRate?: { store?: RateLimitStore; sharedBy?: number; shared?: SharedSends };
  timeoutMs?: number;
  onExchange?: (exchange: Exchange) => void;
  /** Sees every attempt and its answer (the run's history). */
  observer?: AttemptObserver;
  /** Proxy settings of this client alone (tests); default: the environment's, one transport per process. */
  proxy?: ProxySettings;
}

/** undici's request and the dispatcher every request to a target goes through. */
export interface Transport {
  request: typeof request;
  agent: Dispatcher;
}

/** Hosts that are the runner itself: a proxy elsewhere cannot reach them (NO_PROXY matches names, not ranges). */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

export const proxied = (proxy: ProxySettings): boolean => Boolean(proxy.httpsProxy || proxy.httpProxy);

/** NO_PROXY as undici applies it: the user's list, plus loopback unless PAYMENTS_PROXY_LOOPBACK=1. */
export function noProxyList(proxy: ProxySettings): string {
  // undici reads `*` (nothing proxied) only as the whole value: a list with `*` in it would proxy all.
  if (proxy.noProxy?.trim() === '*') return '*';
  return [...(proxy.noProxy ? [proxy.noProxy] : []), ...(proxy.loopback ? [] : LOOPBACK_HOSTS)].join(',');
}

/** The proxy settings in words, for an error message: the proxies' origins (never their credentials) and NO_PROXY. */
export function describeProxy(proxy: ProxySettings): string {
  const origin = (url: string): string => {
    try {
      return new URL(url).origin;
    } catch {
      return '(not a URL)';
    }
  };
  const parts = [
    ...(proxy.httpsProxy ? [`HTTPS_PROXY ${origin(proxy.httpsProxy)}`] : []),
    ...(proxy.httpProxy ? [`HTTP_PROXY ${origin(proxy.httpProxy)}`] : []),
    `NO_PROXY ${JSON.stringify(noProxyList(proxy))}`,
  ];
  return parts.join(', ');
}

const POOL = { connections: 64, pipelining: 1, keepAliveTimeout: 10_000 };

/**
 * A transport honouring the proxy settings: undici's EnvHttpProxyAgent, given the values read in
 * profile/run-settings.ts (never left to read the environment itself) when a proxy is set, else a
 * plain Agent. An http:// target is requested from the proxy by absolute URI (proxyTunnel: false: a
 * corporate proxy usually allows CONNECT to port 443 only); an https:// one through a CONNECT tunnel.
 * A custom CA (NODE_EXTRA_CA_CERTS) reaches both, being Node's own trust store.
 */
export function makeTransport(proxy: ProxySettings): Promise<Transport> {
  return import('undici').then((m) => ({
    request: m.request,
    agent: proxied(proxy)
      ? new m.EnvHttpProxyAgent({
          ...POOL,
          httpProxy: proxy.httpProxy ?? '',
          httpsProxy: proxy.httpsProxy ?? '',
          noProxy: noProxyList(proxy),
          proxyTunnel: false,
        })
      : new m.Agent(POOL),
  }));
}

/**
 * undici is loaded on the first request, not when this module loads: the Playwright runner imports
 * every spec (and so this module) only to list the tests, and undici compiles its WebAssembly HTTP
 * parser on load (memory the runner would carry for nothing).
 */
let transport: Promise<Transport> | undefined;
/** The process's transport to targets, made on first use from the environment's proxy settings. */
export function targetTransport(): Promise<Transport> {
  return (transport ??= makeTransport(suiteEnvironment().proxy));
}

/** A fixed pace per client: `requestsPerSecond` of HttpClientOptions. */
class FixedPace implements RateLimits {
  constructor(private readonly requestsPerSecond: number) {}
  classOf(origin: string, kind: RequestClass['kind'], client: string): RequestClass {
    return { origin, kind, client };
  }
  bucketOf(cls: RequestClass): string {
    return `${cls.origin} ${cls.client}`;
  }
  pace(): Pace {
    return { intervalMs: 1000 / this.requestsPerSecond };
  }
  sending(): void {}
  intervalMs(): number {
    return 1000 / this.requestsPerSecond;
  }
  epochOf(): number {
    return 0;
  }
  answered(): void {}
  flush(): void {}
}

/** Requests of one class a worker sent and the target did not refuse with 429 (what a run's floor counts per bucket). */
export interface ClassTally {
  origin: string;
  kind: RequestClass['kind'];
  client: string;
  /** The client's role when the sender named it (primary, secondary…). */
  role?: string;
  sent: number;
  refused: number;
}

export class HttpClient {
  private readonly transport: () => Promise<Transport>;
  private readonly pacer: Pacer;
  /** The rate limits the requests are paced to: declared, or learned from the target's answers. */
  readonly limits: RateLimits | undefined;
  /** Requests sent, retries included (a run's floor counts them: record/run-floor.ts). */
  requestsSent = 0;
  private readonly tallies = new Map<string, ClassTally>();

  constructor(private readonly options: HttpClientOptions = {}) {
    let own: Promise<Transport> | undefined;
    const proxy = options.proxy;
    this.transport = proxy ? () => (own ??= makeTransport(proxy)) : targetTransport;
    const declared = options.declaredRate;
    this.limits = options.requestsPerSecond
      ? new FixedPace(options.requestsPerSecond)
      : declared
        ? new DeclaredRateLimit(declared, declared.sharedBy, declared.shared)
        : options.learnedRate
          ? new AdaptiveRateLimit(
              options.learnedRate.store,
              options.learnedRate.sharedBy,
              Date.now,
              options.learnedRate.shared,
            )
          : undefined;
    const limits = this.limits;
    this.pacer = new Pacer((key) => limits?.pace(key));
  }

  /** What this client sent, by request class (its clients' fingerprints, never their ids, when `fp` is given). */
  sentByClass(fp: (value: string) => string = (v) => v): ClassTally[] {
    return [...this.tallies.values()].map((t) => ({ ...t, origin: fp(t.origin), client: fp(t.client) }));
  }

  private tally(
    origin: string,
    kind: RequestClass['kind'],
    client: string,
    role: string | undefined,
    status: number,
  ): void {
    const id = `${origin}\n${kind}\n${client}`;
    let t = this.tallies.get(id);
    if (!t) this.tallies.set(id, (t = { origin, kind, client, ...(role ? { role } : {}), sent: 0, refused: 0 }));
    t.sent++;
    if (status === 429) t.refused++;
  }

  async send(label: string, req: HttpRequest, sendOptions: SendOptions = {}): Promise<Exchange> {
    const started = Date.now();
    const retries: Retry[] = [];
    const retry = this.options.retry ?? this.options.retry429 ?? DEFAULT_RETRY;
    const repeatable = sendOptions.repeatable ?? (req.method === 'GET' || req.method === 'HEAD');
    let budget = retry.budgetMs;
    let attempt = req;
    // undici loads on the first request: loaded before pacing, or every request paced while it loads
    // would leave at once when it is there (a burst the target's rate limit answers with 429s).
    if (this.options.requestsPerSecond || this.options.declaredRate) await this.transport();
    const limits = this.limits;
    for (;;) {
      // One limit per bucket at one target: two targets of a run may know the same client id.
      const origin = new URL(attempt.url).origin;
      const client = clientKey(attempt) || sendOptions.origin?.client?.clientId || '';
      const kind = sendOptions.kind ?? (isTokenRequest(attempt) ? 'token' : 'api');
      const cls = limits?.classOf(origin, kind, client);
      const key = cls ? limits!.bucketOf(cls) : '';
      const background = sendOptions.origin?.by?.startsWith('background:') === true;
      const rank = kind === 'token' ? 'token' : background ? 'background' : 'test';
      const turn = cls ? this.pacer.turn(key, () => limits!.sending(cls), rank) : undefined;
      if (turn) await turn;
      else if (cls) limits!.sending(cls);
      if (sendOptions.atTurn) attempt = await sendOptions.atTurn(attempt);
      const epoch = cls ? limits!.epochOf(key) : 0;
      const sentAt = Date.now();
      let response: HttpResponse;
      this.requestsSent++;
      const observer = this.options.observer;
      const ref = observer?.sent(attempt, sendOptions.origin, retries.length + 1);
      try {
        response = await this.once(attempt);
      } catch (error) {
        const code = transportErrorCode(error);
        if (ref !== undefined)
          observer!.answered(
            ref,
            undefined,
            code ?? (error instanceof TargetUnreachableError ? 'unreachable' : 'error'),
          );
        this.tally(origin, kind, client, sendOptions.origin?.client?.role, 0);
        if (code === undefined) throw error;
        if (repeatable && retries.length < retry.maxRetries && CONNECTION_RETRY_MS <= budget) {
          budget -= CONNECTION_RETRY_MS;
          retries.push({ status: 0, waitedMs: CONNECTION_RETRY_MS, error: code });
          await sleep(CONNECTION_RETRY_MS);
          attempt = sendOptions.renew?.() ?? attempt;
          continue;
        }
        throw new TransportFailure(label, attempt, code, retries, error);
      }
      if (cls) limits!.answered(cls, response.status, response.headers, epoch, sentAt);
      this.tally(origin, kind, client, sendOptions.origin?.client?.role, response.status);
      if (ref !== undefined) observer!.answered(ref, response);
      if (retryable(response.status, repeatable) && retries.length < retry.maxRetries) {
        const wait = retryAfterMs(response.headers['retry-after'], response.headers.date);
        if (wait <= budget) {
          budget -= wait;
          retries.push({ status: response.status, waitedMs: wait });
          await sleep(wait);
          attempt = sendOptions.renew?.() ?? attempt;
          continue;
        }
      }
      const exchange: Exchange = {
        label,
        request: attempt,
        response,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        retries,
      };
      this.options.onExchange?.(exchange);
      return exchange;
    }
  }

  private async once(req: HttpRequest): Promise<HttpResponse> {
    const { request, agent } = await this.transport();
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body === undefined ? undefined : Buffer.from(req.body),
        dispatcher: agent,
        headersTimeout: this.options.timeoutMs ?? 30_000,
        bodyTimeout: this.options.timeoutMs ?? 30_000,
      });
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      // A proxy that could not open the tunnel answers CONNECT with its own status (502, 403, 407...).
      const tunnelRefused = /^Proxy (response|Authentication)/.test((error as Error).message ?? '');
      if (
        tunnelRefused ||
        ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].includes(code)
      ) {
        const proxy = this.options.proxy ?? suiteEnvironment().proxy;
        const through = proxied(proxy)
          ? ` (proxy settings: ${describeProxy(proxy)}: is the proxy up, and should this host be in NO_PROXY?)`
          : '';
        throw new TargetUnreachableError(
          `cannot reach ${new URL(req.url).origin} (${tunnelRefused ? (error as Error).message : code}): is the target up and the profile's URL right?${through}`,
        );
      }
      throw error;
    }
    const text = await res.body.text();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers, text, json: parseJson(text, headers['content-type']) };
  }
}

/** A 429 is retried on any request (refused before it was processed); 502, 503, 504 only on a repeatable one. */
function retryable(status: number, repeatable: boolean): boolean {
  return status === 429 || (repeatable && isTransientStatus(status));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Connection lost or timed out: no answer at all (a refused connection is TargetUnreachableError, not this). */
const TRANSPORT_ERRORS = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

function transportErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && TRANSPORT_ERRORS.has(code) ? code : undefined;
}

/** A request to the token endpoint, as a rate limit tells it apart: Basic client credentials and no X-Client-Id (spec §4.1, §4.2). */
export function isTokenRequest(req: HttpRequest): boolean {
  let basic = false;
  for (const [name, value] of Object.entries(req.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-client-id' && value) return false;
    if (lower === 'authorization' && /^basic /i.test(value)) basic = true;
  }
  return basic;
}

/** Whom a target's rate limit counts a request against: its X-Client-Id, else the Basic credentials' client (token requests). */
export function clientKey(req: HttpRequest): string {
  for (const [name, value] of Object.entries(req.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-client-id' && value) return value;
    if (lower === 'authorization' && /^basic /i.test(value))
      return Buffer.from(value.slice(6).trim(), 'base64').toString('utf8').split(':')[0] ?? '';
  }
  return '';
}

interface Waiting {
  since: number;
  go: () => void;
  leaving?: () => void;
}

interface Lane {
  /** When the lane last let a request go (its nominal slot). */
  last: number;
  /**
   * The requests waiting for their turn, each with when it came and what to do as it goes: token
   * requests first, then a test's, then background work's.
   */
  tokens: Waiting[];
  waiting: Waiting[];
  background: Waiting[];
  timer?: NodeJS.Timeout;
}

/** Which queue of its bucket a request waits in: the token endpoint's, a test's, or background work's. */
export type PacerRank = 'token' | 'test' | 'background';

const queued = (lane: Lane): boolean => lane.tokens.length + lane.waiting.length + lane.background.length > 0;

/** How often the head of a client's queue asks for its pace again while it waits. */
const PACER_RECHECK_MS = 250;

/**
 * Spaces the requests of each bucket: a request waits in its bucket's queue until the bucket's
 * interval has passed since the one before it and, with the run's shared schedule, until the
 * slot it reserved on it comes. A test's requests go before background work's (the pool refilling,
 * observations started with the worker): against a limit the background's requests would otherwise
 * hold every test's behind them, and a test waits on round trips it could make while the background
 * takes the rest of the bucket. A token request goes before both: every request of its client that
 * reaches its turn meanwhile waits for that token (`atTurn`), having taken a slot it does not use;
 * behind a queue of them, a refreshed token came seconds late, and the requests that had waited for it
 * then left at once, most of them refused (measured: a sandbox's 20 s tokens, six workers each silent
 * for 1 to 6 s, then sending 70 requests in 250 ms). The head of the queue asks for its pace again at
 * least every PACER_RECHECK_MS, so a rate that changes
 * while requests wait (a learned one) applies to them at once, rather than to slots they reserved at
 * the old rate. A bucket not paced costs nothing.
 */
export class Pacer {
  private readonly lanes = new Map<string, Lane>();
  constructor(
    private readonly paceOf: (key: string) => Pace | number | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private pace(key: string): Pace | undefined {
    const pace = this.paceOf(key);
    return typeof pace === 'number' ? { intervalMs: pace } : pace;
  }

  /**
   * Resolves when the caller's request may go (`leaving` runs as it is let go, before anything else
   * is: what the run counts as sent); undefined when it may go now (a bucket not paced).
   * `rank`: a token request goes before every other, background work's behind every test's.
   */
  turn(key: string, leaving?: () => void, rank: PacerRank = 'test'): Promise<void> | undefined {
    let lane = this.lanes.get(key);
    if ((!lane || !queued(lane)) && this.pace(key) === undefined) return undefined;
    if (!lane)
      this.lanes.set(key, (lane = { last: Number.NEGATIVE_INFINITY, tokens: [], waiting: [], background: [] }));
    const into = rank === 'token' ? lane.tokens : rank === 'background' ? lane.background : lane.waiting;
    const own = lane;
    return new Promise<void>((resolve) => {
      into.push({
        since: this.now(),
        go: resolve,
        ...(leaving ? { leaving } : {}),
      });
      if (!own.timer) this.release(key, own);
    });
  }

  private release(key: string, lane: Lane): void {
    lane.timer = undefined;
    while (queued(lane)) {
      const now = this.now();
      const pace = this.pace(key);
      const due = lane.last + (pace?.intervalMs ?? 0);
      if (due > now) {
        lane.timer = setTimeout(() => this.release(key, lane), Math.min(PACER_RECHECK_MS, Math.ceil(due - now)));
        return;
      }
      // On a shared schedule the head reserves its slot, and goes when it comes.
      const wait = pace?.reserve ? pace.reserve() : 0;
      if (wait === undefined) {
        lane.timer = setTimeout(() => this.release(key, lane), HELD_RETRY_MS);
        return;
      }
      const head = (lane.tokens.length ? lane.tokens : lane.waiting.length ? lane.waiting : lane.background).shift()!;
      // Its slot: the one due after the last, when it was already waiting then (a timer that fires
      // late, a busy event loop, leave the schedule as it was); when it came after, the time it came:
      // a client idle for a while saves up no burst.
      lane.last = Math.max(due, head.since) + wait;
      if (wait > 0) {
        lane.timer = setTimeout(() => {
          head.leaving?.();
          head.go();
          this.release(key, lane);
        }, wait);
        return;
      }
      head.leaving?.();
      head.go();
    }
  }
}

function parseJson(text: string, contentType: string | undefined): unknown {
  if (!text || !/json/i.test(contentType ?? 'json')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Retry-After is delta-seconds or an HTTP-date (RFC 9110 §10.2.3); absent or unreadable means one
 * second. A date is measured against the answer's own Date header, the server's clock that wrote it
 * (a server whose clock is off from the runner's means the same wait), and against the runner's
 * clock only when the answer has no readable Date.
 */
export function retryAfterMs(value: string | undefined, answeredAt?: string): number {
  if (!value) return 1000;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  if (!Number.isFinite(date)) return 1000;
  const serverNow = answeredAt === undefined ? Number.NaN : Date.parse(answeredAt);
  return Math.max(0, date - (Number.isFinite(serverNow) ? serverNow : Date.now()));
}
