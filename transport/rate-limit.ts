/**
 * A target's rate limit, learned from its answers where no profile declares one (spec §8: "Rate
 * limits: not shown"), as the AWS SDKs' adaptive retry mode learns it: nothing is paced until the
 * target refuses a request with a 429; then the client's rate drops to BETA of the rate it was refused
 * at (what the bucket let through in the second before, `letThrough`) and grows back along a cubic
 * curve (CUBIC, RFC 9438 §4) that flattens at that rate and only then probes beyond it, up to twice
 * what the bucket lets through or twice the run's estimate of the limit (PROBE_CAP), so the pace
 * settles just under the limit and follows it if it moves; one refusal cuts it at most once a second
 * (RECOVERY_MS). A target that states its limit (RateLimit-Policy, or a limit header with its window)
 * is paced to what it states from the first answer that says so.
 *
 * Workers are separate processes that share one client's limit at the target. What one of them
 * learned is the client's state (`LearnedLimit`), kept in a store every worker reads: a file per
 * client in the run's folder (`FileRateLimitStore`). The curve is a function of that state and the
 * clock, so every worker follows it without writing; only a refusal writes, and only once for a
 * given state (a 429 to a request sent under an older state was already answered by the change).
 *
 * A limit counts a bucket of requests: each client's, unless the answers say otherwise. The token
 * endpoint's requests start in their client's bucket; its 429s show whether it has a bucket of its
 * own (`TokenScope`): refused while the client's other requests are not, it is its own; refused
 * while the client sent no other token request in the last second but other clients did, it counts
 * every client of the address together. What each worker sent and had refused lately, by request
 * class, is shared through a small file per worker (`SendRates`): the rate a bucket was refused at is
 * what it let through of the whole run's requests. Each bucket, learned or declared, is paced on one
 * schedule for the run (`SharedSchedule`): whichever worker has a request takes the next slot, so a
 * worker busy with another client's tests leaves the bucket to the others.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fingerprint } from './redact';

/**
 * The share of a stated (declared or announced) limit a run paces to: its workers share one schedule
 * per bucket, so the spacing is the schedule's, and what remains is the network's jitter, which a
 * limiter's burst (a token bucket's second's worth) takes in.
 */
export const RATE_HEADROOM = 0.95;

/** What a refusal leaves of the rate it was sent at (the AWS SDKs' and CUBIC's multiplicative decrease). */
export const BETA = 0.7;
/** How fast the curve grows back and beyond (the AWS SDKs' scale constant, requests/s per s³). */
export const SCALE = 0.4;
/** The slowest a refused client is paced (requests a second of the whole client). */
export const MIN_RATE = 0.5;

export interface LearnedLimit {
  /**
   * Requests a second of the whole client: the rate the target last refused it at (the curve flattens
   * there), or the rate the target states.
   */
  rate: number;
  /** Epoch milliseconds of the refusal the curve starts from (source refusals). */
  since: number;
  /** How many times the state changed: a refusal moves it only when its request was sent under the newest state. */
  epoch: number;
  /** refusals: learned from 429s; stated: the target's own RateLimit-Policy or limit header. */
  source: 'refusals' | 'stated';
  /** The rates of the last refusals (at most RECENT_REFUSALS): their median is the run's estimate of the limit. */
  refusedAt: number[];
  /** Which requests the bucket counts: a client's (its token requests too, unless the token endpoint has a bucket of its own), or the token endpoint's. */
  bucket?: BucketKind;
}

/** What a bucket counts: a client's requests, or the token endpoint's, of one client or of every client of the address. */
export type BucketKind =
  | { kind: 'client'; client: string }
  | { kind: 'token'; per: 'client'; client: string }
  | { kind: 'token'; per: 'address' };

/** A request as a rate limit counts it: its target, whether it asks the token endpoint, and whose it is. */
export interface RequestClass {
  origin: string;
  kind: 'api' | 'token';
  /** The client (its id, or its fingerprint in what workers share). */
  client: string;
}

/**
 * Where the token endpoint's requests count: their client's bucket (`client`), a token bucket of
 * each client (`own`), or one token bucket for every client of the address (`address`).
 */
export type TokenScope = 'client' | 'own' | 'address';

/** The bucket a request of this class counts in, the token endpoint's scope given. */
export function bucketKey(c: RequestClass, scope: TokenScope = 'client'): string {
  if (c.kind === 'api' || scope === 'client') return `${c.origin} ${c.client}`;
  return scope === 'own' ? `${c.origin} token ${c.client}` : `${c.origin} token`;
}

export function bucketKind(c: RequestClass, scope: TokenScope = 'client'): BucketKind {
  if (c.kind === 'api' || scope === 'client') return { kind: 'client', client: c.client };
  return scope === 'own' ? { kind: 'token', per: 'client', client: c.client } : { kind: 'token', per: 'address' };
}

/** What the run learned of the token endpoint's scope at one origin, and the refusals that argue for the next. */
export interface ScopeState {
  scope: TokenScope;
  /** Token refusals of a client while its other requests were not refused (argue for `own`). */
  own: number;
  /** Token refusals of a client that sent no other token request in the last second while others did (argue for `address`). */
  address: number;
}

/** Refusals it takes to move the token endpoint's scope: a client's bucket refuses a token request alone now and then. */
export const SCOPE_EVIDENCE = { own: 3, address: 2 } as const;

const RECENT_REFUSALS = 9;
/** A client refused fewer times was barely measured: its first refusal's rate is a rough count. */
export const MIN_REFUSALS_TO_ESTIMATE = 3;

/** The run's estimate of a client's limit: what the target states, else the median rate of its recent refusals. */
export function estimatedLimit(limit: LearnedLimit): number {
  if (limit.source === 'stated' || !limit.refusedAt.length) return limit.rate;
  const sorted = [...limit.refusedAt].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * How far the curve probes (as the AWS SDKs' adaptive mode bounds it by twice the rate it measured):
 * twice what the bucket let through in the last second, or twice the run's estimate of the limit
 * when that is more. The cube alone grows without bound: 30 s after a refusal it allows thousands of
 * requests a second, and workers back from a quiet spell with queued background work sent a hundred
 * at once, most of them refused and each then waiting out its Retry-After; refused four times
 * running, a request ends its test inconclusive. Bounded by what the bucket lets through, the probe
 * still finds a limit that rises: paced at the bound with work waiting, the bucket lets twice as
 * much through, and the bound doubles. Without the run's counts (one process), the bound is twice
 * the estimate once three refusals measured it.
 */
export const PROBE_CAP = 2;

/**
 * The client's rate (requests a second, the whole client) the state allows at `now`; `passing`:
 * the requests a second the bucket let through lately, when the run counts them.
 */
export function learnedRate(limit: LearnedLimit, now: number, passing?: number): number {
  if (limit.source === 'stated') return limit.rate * RATE_HEADROOM;
  const t = (now - limit.since) / 1000;
  const k = Math.cbrt((limit.rate * (1 - BETA)) / SCALE);
  const curve = SCALE * (t - k) ** 3 + limit.rate;
  const cap =
    passing !== undefined
      ? PROBE_CAP * Math.max(estimatedLimit(limit), passing)
      : limit.refusedAt.length >= MIN_REFUSALS_TO_ESTIMATE
        ? PROBE_CAP * estimatedLimit(limit)
        : Number.POSITIVE_INFINITY;
  return Math.max(MIN_RATE, Math.min(curve, cap));
}

/**
 * How long after a refusal moved the pace another refusal is the same excess, not news: requests the
 * bucket refused while it was still overdrawn. Each such refusal moving the pace again cut it by BETA
 * each time: six cuts in 0.8 s took a 40/s client from 56 to 12 requests a second, and back to the
 * limit took ten seconds. TCP cuts its window once per loss event, not once per segment lost, for the
 * same reason.
 */
export const RECOVERY_MS = 1_000;

/** Reads a number of a structured-field parameter list (`q=40;w=1`), or undefined. */
const param = (item: string, name: string): number | undefined => {
  const match = new RegExp(`(?:^|;)\\s*${name}=([0-9.]+)`).exec(item);
  const value = match ? Number(match[1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

/** Requests a second a list of quota policies allows: the strictest. */
function strictest(rates: readonly (number | undefined)[]): number | undefined {
  const known = rates.filter((r): r is number => r !== undefined && Number.isFinite(r) && r > 0);
  return known.length ? Math.min(...known) : undefined;
}

const KONG_WINDOWS: Readonly<Record<string, number>> = { second: 1, minute: 60, hour: 3600, day: 86400 };

/**
 * The rate limit a target states in its answer's headers, in requests a second, or undefined:
 * - `RateLimit-Policy` (draft-ietf-httpapi-ratelimit-headers): `"default";q=40;w=1` (quota q per w
 *   seconds), or the earlier drafts' `40;w=1` and `10, 40;w=1`;
 * - `RateLimit-Limit` or `X-RateLimit-Limit` only when they carry the window (`40;w=1`): a bare number
 *   is a quota over a window the header does not give (GitHub's is an hour);
 * - Kong's `X-RateLimit-Limit-Second` (`-Minute`, `-Hour`, `-Day`).
 * Several policies: the strictest.
 */
export function statedRateLimit(headers: Readonly<Record<string, string>>): number | undefined {
  const rates: (number | undefined)[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'ratelimit-policy' || lower === 'x-ratelimit-policy') {
      for (const item of value.split(',')) {
        const q =
          param(item, 'q') ?? (/^\s*([0-9.]+)\s*(;|$)/.exec(item) ? Number(/^\s*([0-9.]+)/.exec(item)![1]) : undefined);
        const w = param(item, 'w');
        if (q !== undefined && w !== undefined) rates.push(q / w);
      }
    } else if (lower === 'ratelimit-limit' || lower === 'x-ratelimit-limit') {
      for (const item of value.split(',')) {
        const q = /^\s*([0-9.]+)/.exec(item);
        const w = param(item, 'w');
        if (q && w !== undefined) rates.push(Number(q[1]) / w);
      }
    } else {
      const kong = /^x-ratelimit-limit-(second|minute|hour|day)$/.exec(lower);
      if (kong && Number(value) > 0) rates.push(Number(value) / KONG_WINDOWS[kong[1]!]!);
    }
  }
  return strictest(rates);
}

/** Where the workers of a run keep what each learned, by bucket, and the token endpoint's scope, by origin. */
export interface RateLimitStore {
  /** The bucket's state; `fresh` reads past any cache (a refusal decides on the newest state). */
  read(key: string, fresh?: boolean): LearnedLimit | undefined;
  write(key: string, limit: LearnedLimit): void;
  readScope(origin: string, fresh?: boolean): ScopeState | undefined;
  writeScope(origin: string, state: ScopeState): void;
}

/** One process's store: discovery, scripts, a unit test. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly limits = new Map<string, LearnedLimit>();
  private readonly scopes = new Map<string, ScopeState>();
  read(key: string): LearnedLimit | undefined {
    return this.limits.get(key);
  }
  write(key: string, limit: LearnedLimit): void {
    this.limits.set(key, limit);
  }
  readScope(origin: string): ScopeState | undefined {
    return this.scopes.get(origin);
  }
  writeScope(origin: string, state: ScopeState): void {
    this.scopes.set(origin, state);
  }
}

/** The file of one bucket's state: named by the fingerprint (transport/redact.ts) of its key, never by a client's id. */
export const learnedLimitFile = (key: string): string => `rate-limit-${fingerprint(key)}.json`;
const LEARNED_FILE = /^rate-limit-[0-9a-f]+\.json$/;
/** The file of the token endpoint's scope at one origin. */
export const tokenScopeFile = (origin: string): string => `token-scope-${fingerprint(origin)}.json`;

/** A JSON file written whole: a temporary file renamed over it, so no reader sees half of one. */
function writeWhole(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(value)}\n`);
  renameSync(temporary, file);
}

function readJson<T>(file: string): T | undefined {
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The run's store: one file per client in a folder every worker of the run shares, written whole
 * (a temporary file renamed over it, so no reader sees half of one). A worker reads a client's file
 * again at most every `maxAgeMs`: how late it may follow another worker's lesson.
 */
export class FileRateLimitStore implements RateLimitStore {
  private readonly cache = new Map<string, { limit: LearnedLimit | undefined; readAt: number }>();
  constructor(
    private readonly dir: string,
    private readonly maxAgeMs = 200,
    private readonly now: () => number = Date.now,
  ) {}

  read(key: string, fresh = false): LearnedLimit | undefined {
    const now = this.now();
    const cached = this.cache.get(key);
    if (!fresh && cached && now - cached.readAt < this.maxAgeMs) return cached.limit;
    const file = path.join(this.dir, learnedLimitFile(key));
    let limit: LearnedLimit | undefined;
    try {
      limit = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LearnedLimit) : undefined;
    } catch {
      limit = cached?.limit;
    }
    this.cache.set(key, { limit, readAt: now });
    return limit;
  }

  write(key: string, limit: LearnedLimit): void {
    writeWhole(path.join(this.dir, learnedLimitFile(key)), limit);
    this.cache.set(key, { limit, readAt: this.now() });
  }

  private readonly scopes = new Map<string, { state: ScopeState | undefined; readAt: number }>();

  readScope(origin: string, fresh = false): ScopeState | undefined {
    const now = this.now();
    const cached = this.scopes.get(origin);
    if (!fresh && cached && now - cached.readAt < this.maxAgeMs) return cached.state;
    const state = readJson<ScopeState>(path.join(this.dir, tokenScopeFile(origin))) ?? cached?.state;
    this.scopes.set(origin, { state, readAt: now });
    return state;
  }

  writeScope(origin: string, state: ScopeState): void {
    writeWhole(path.join(this.dir, tokenScopeFile(origin)), state);
    this.scopes.set(origin, { state, readAt: this.now() });
  }
}

/** Every token scope the workers of a run learned in `dir`. */
export function readTokenScopes(dir: string): ScopeState[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /^token-scope-[0-9a-f]+\.json$/.test(f));
  } catch {
    return [];
  }
  return files.flatMap((f) => readJson<ScopeState>(path.join(dir, f)) ?? []);
}

/** Every client's state the workers of a run left in `dir`. */
export function readLearnedLimits(dir: string): LearnedLimit[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => LEARNED_FILE.test(f));
  } catch {
    return [];
  }
  return files.flatMap((f) => {
    try {
      return [JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as LearnedLimit];
    } catch {
      return [];
    }
  });
}

/** What the line of learned limits may say beyond the workers' own state. */
export interface LearnedLimitWords {
  /** A bucket's rate measured over the run's history (record/bucket-rates.ts), said instead of the workers' estimate. */
  measured?: (limit: LearnedLimit) => number | undefined;
  /** Whose bucket it is, as the floor lines name it ("primary"). */
  name?: (limit: LearnedLimit) => string | undefined;
}

/**
 * The learned limits in one line, busiest bucket first, each named when `words.name` knows it;
 * buckets learned alike are counted once ("40 (stated in its headers) × 3 clients").
 */
export function describeLearnedLimits(
  limits: readonly LearnedLimit[],
  scopes: readonly ScopeState[] = [],
  words: LearnedLimitWords = {},
): string | undefined {
  if (!limits.length) return undefined;
  const said = (l: LearnedLimit): string => {
    if (l.source === 'stated') return `${l.rate} (stated in its headers)`;
    const moved = `${l.epoch} refusal${l.epoch === 1 ? '' : 's'} moved the pace`;
    const rate = words.measured?.(l);
    if (rate !== undefined) return `≈ ${rate.toFixed(1)}, let through between its refusals (${moved})`;
    return l.epoch < MIN_REFUSALS_TO_ESTIMATE
      ? `paced after ${l.epoch} refusal${l.epoch === 1 ? '' : 's'}, too few to estimate`
      : `≈ ${estimatedLimit(l).toFixed(1)} (${moved})`;
  };
  const group = (of: readonly LearnedLimit[], noun: string): string => {
    const each = new Map<string, LearnedLimit[]>();
    for (const l of [...of].sort((a, b) => b.epoch - a.epoch)) each.set(said(l), [...(each.get(said(l)) ?? []), l]);
    return [...each]
      .map(([text, alike]) => {
        const name = alike.length === 1 ? words.name?.(alike[0]!) : undefined;
        return alike.length > 1 ? `${text} × ${alike.length} ${noun}` : name ? `${name} ${text}` : text;
      })
      .join('; ');
  };
  const clients = limits.filter((l) => l.bucket?.kind !== 'token');
  const tokens = limits.filter((l) => l.bucket?.kind === 'token');
  const scope =
    scopes.map((s) => s.scope).find((s) => s === 'address') ?? scopes.map((s) => s.scope).find((s) => s === 'own');
  const parts = [
    ...(clients.length ? [`requests/s per client: ${group(clients, 'clients')}`] : []),
    ...(tokens.length || scope
      ? [
          `the token endpoint a bucket of its own${scope === 'address' ? ' for every client of the address' : scope === 'own' ? ' per client' : ''}${tokens.length ? `, requests/s: ${group(tokens, 'buckets')}` : ''}`,
        ]
      : []),
  ];
  return `rate limit learned from the target (the profile declares none), ${parts.join('; ')}`;
}

/**
 * The window a worker's sends, refusals and passed answers count in, and a refusal's rate is measured
 * over: what the bucket let through in the second before it refused. A bucket that refuses is empty,
 * so that second holds at least its rate, and at most that and the burst it had saved up: a pace a
 * little high, which the next refusal a second later brings down. Measured over two seconds (to halve
 * the burst's weight), a bucket quiet for a second then drained by a burst read as half its rate: a
 * 40/s client was paced at 11 requests a second, and the curve took ten seconds to climb back.
 */
const WINDOW_MS = 1_000;
/** How often a worker shares its counts (at most), and reads the others' (at most). */
const SHARE_MS = 100;
const SEND_RATES_FILE = /^send-rates-w(\d+)\.json$/;

interface SharedCounts {
  at: number;
  classes: {
    origin: string;
    kind: RequestClass['kind'];
    client: string;
    sent: number;
    refused: number;
    /** Answered, not refused, in the last second: what the bucket let through. */
    passed: number;
  }[];
}

/** A class's requests in the last second, the whole run's: sent, refused with 429, and by which workers. */
export interface ClassCount {
  cls: RequestClass;
  sent: number;
  refused: number;
  /** Answered, not refused, in the last second. */
  passed: number;
  workers: Set<number>;
}

/** A class's times of the last second: requests sent, refused, answered and not refused. */
interface Entry {
  cls: RequestClass;
  sent: number[];
  refused: number[];
  passed: number[];
}

/** Drops an entry's times older than the last second. */
function trim(entry: Entry, now: number): void {
  for (const times of [entry.sent, entry.refused, entry.passed])
    while (times.length && times[0]! <= now - WINDOW_MS) times.shift();
}

const classId = (c: RequestClass): string => `${c.origin}\n${c.kind}\n${c.client}`;

/**
 * What this worker sent, had refused and had let through in the last second, by request class
 * (fingerprinted: no client id or URL leaves the process), and the same of every worker of the run: a
 * file per worker in the run's folder, written at most every SHARE_MS while it sends and at once on a
 * refusal.
 * Without a folder (one process), the counts are this worker's alone.
 */
export class SendRates {
  private readonly own = new Map<string, Entry>();
  private sharedAt = Number.NEGATIVE_INFINITY;
  private changed = false;
  /** A share put off by SHARE_MS: without it, a worker's answers that came soon after its send were never shared at a low rate. */
  private trailing: NodeJS.Timeout | undefined;
  private others: { worker: number; counts: SharedCounts }[] = [];
  private othersAt = Number.NEGATIVE_INFINITY;
  /** Sharing starts when a limit is first met or declared: a run that meets none writes nothing. */
  private sharing = false;

  constructor(
    private readonly dir?: string,
    private readonly worker = 0,
    private readonly now: () => number = Date.now,
  ) {}

  /** Shares from now on (a limit was met or is declared). */
  startSharing(): void {
    this.sharing = true;
  }

  /** A request of the class leaves now: it counts in the run's last second at once. */
  sent(cls: RequestClass): void {
    const entry = this.entry(cls);
    entry.sent.push(this.now());
    this.changed = true;
    this.share(cls.kind === 'token');
  }

  /**
   * Its answer came: what passed counts in the bucket's rate, shared within SHARE_MS; a refusal (429)
   * is shared at once, a refused token request's scope decided on it.
   */
  answered(cls: RequestClass, refused: boolean): void {
    this.changed = true;
    if (!refused) {
      this.entry(cls).passed.push(this.now());
      this.share();
      return;
    }
    this.entry(cls).refused.push(this.now());
    this.sharing = true;
    this.share(true);
  }

  /** A request sent and answered at once (a caller that paces nothing). */
  record(cls: RequestClass, refused: boolean): void {
    this.sent(cls);
    this.answered(cls, refused);
  }

  private entry(cls: RequestClass): Entry {
    const id = classId(cls);
    let entry = this.own.get(id);
    if (!entry) this.own.set(id, (entry = { cls, sent: [], refused: [], passed: [] }));
    // Kept to the last second as it grows: a run that meets no limit shares nothing, and never prunes.
    trim(entry, this.now());
    return entry;
  }

  private prune(now: number): void {
    for (const [id, entry] of this.own) {
      trim(entry, now);
      if (!entry.sent.length && !entry.refused.length && !entry.passed.length) this.own.delete(id);
    }
  }

  /** An entry's counts of the last second (pruned to it). */
  private tally(entry: Entry): { sent: number; refused: number; passed: number } {
    return { sent: entry.sent.length, refused: entry.refused.length, passed: entry.passed.length };
  }

  /** Writes this worker's counts, when sharing, at most every SHARE_MS unless `now` is asked. */
  share(now = false): void {
    if (!this.dir || !this.sharing || !this.changed) return;
    const at = this.now();
    if (!now && at - this.sharedAt < SHARE_MS) {
      this.trailing ??= setTimeout(
        () => {
          this.trailing = undefined;
          // Not into a folder the run has removed meanwhile (writeWhole would make it again).
          if (existsSync(this.dir!)) this.share();
        },
        SHARE_MS - (at - this.sharedAt),
      ).unref();
      return;
    }
    this.prune(at);
    const counts: SharedCounts = {
      at,
      classes: [...this.own.values()].map((e) => ({ ...e.cls, ...this.tally(e) })),
    };
    try {
      writeWhole(path.join(this.dir, `send-rates-w${this.worker}.json`), counts);
    } catch {
      return;
    }
    this.sharedAt = at;
    this.changed = false;
    // Written now: a share put off meanwhile has nothing left to write.
    if (this.trailing) clearTimeout(this.trailing);
    this.trailing = undefined;
  }

  private readOthers(fresh: boolean): void {
    const at = this.now();
    if (!this.dir || (!fresh && at - this.othersAt < SHARE_MS)) return;
    this.othersAt = at;
    let files: string[];
    try {
      files = readdirSync(this.dir);
    } catch {
      this.others = [];
      return;
    }
    this.others = files.flatMap((f) => {
      const worker = Number(SEND_RATES_FILE.exec(f)?.[1] ?? Number.NaN);
      if (!Number.isFinite(worker) || worker === this.worker) return [];
      const counts = readJson<SharedCounts>(path.join(this.dir!, f));
      // A worker that stopped sending a while ago sends nothing now.
      return counts && at - counts.at < WINDOW_MS ? [{ worker, counts }] : [];
    });
  }

  /** The run's counts of the last second by class: this worker's as they are, the others' as they last shared them. */
  counts(fresh = false): Map<string, ClassCount> {
    const now = this.now();
    this.prune(now);
    this.readOthers(fresh);
    const out = new Map<string, ClassCount>();
    const add = (
      cls: RequestClass,
      counts: { sent: number; refused: number; passed: number },
      worker: number,
    ): void => {
      const id = classId(cls);
      const entry = out.get(id) ?? { cls, sent: 0, refused: 0, passed: 0, workers: new Set<number>() };
      entry.sent += counts.sent;
      entry.refused += counts.refused;
      entry.passed += counts.passed ?? 0;
      if (counts.sent >= 0.5) entry.workers.add(worker);
      out.set(id, entry);
    };
    for (const e of this.own.values()) add(e.cls, this.tally(e), this.worker);
    for (const { worker, counts } of this.others) {
      // Shared a while ago (a worker that stopped sending writes no more): of a window that ended
      // then, only the part still in the window now counts, as if its requests were spread evenly.
      const age = Math.max(0, now - counts.at);
      const inSecond = Math.max(0, 1 - age / WINDOW_MS);
      for (const c of counts.classes)
        add(
          { origin: c.origin, kind: c.kind, client: c.client },
          { sent: c.sent * inSecond, refused: c.refused * inSecond, passed: (c.passed ?? 0) * inSecond },
          worker,
        );
    }
    return out;
  }

  /** This worker's own sends of a class in the last second. */
  ownSent(cls: RequestClass): number {
    const now = this.now();
    this.prune(now);
    const entry = this.own.get(classId(cls));
    return entry ? this.tally(entry).sent : 0;
  }
}

/**
 * What a bucket let through in the last second, as a refusal measures it: the answers that passed,
 * or, when more, the requests sent and not refused. The first is short by the requests still in
 * flight: a refusal skips the work an acceptance does and is answered sooner, and the run's first
 * refusal, in a burst's first hundred milliseconds, read 2.7 requests a second of a 40/s client, which
 * was then paced at 5 a second for 30 s. The second counts a burst's requests in flight as let
 * through: too high, which the next refusal corrects a second later, where too low costs the curve's
 * climb.
 */
export function letThrough(counts: { sent: number; refused: number; passed: number }): number {
  return Math.max(counts.passed, counts.sent - counts.refused);
}

/** The run's counts of the classes that count in one bucket in the last second: requests sent, answers that passed, and the workers sending them. */
function bucketCounts(
  counts: ReadonlyMap<string, ClassCount>,
  key: string,
  scopeOf: (origin: string) => TokenScope,
): { sent: number; refused: number; passed: number; workers: Set<number> } {
  let sent = 0;
  let refused = 0;
  let passed = 0;
  const workers = new Set<number>();
  for (const c of counts.values()) {
    if (bucketKey(c.cls, scopeOf(c.cls.origin)) !== key) continue;
    sent += c.sent;
    refused += c.refused;
    passed += c.passed;
    for (const w of c.workers) workers.add(w);
  }
  return { sent, refused, passed, workers };
}

/** How a worker paces one bucket now. */
export interface Pace {
  /** Milliseconds between this worker's requests into the bucket. */
  intervalMs: number;
  /**
   * With the run's shared schedule: reserves the bucket's next slot for the request at the head of
   * the queue and gives the milliseconds until it (0: now), or undefined when the schedule is held
   * this instant (ask again). A worker then sends as fast as the bucket allows whatever the other
   * workers send, rather than its fixed share of it.
   */
  reserve?: () => number | undefined;
}

/** How soon a worker asks again for a schedule another worker held. */
export const HELD_RETRY_MS = 1;

/** The pacing side of a rate limit, declared or learned: which bucket a request counts in, how to pace it, what an answer teaches. */
export interface RateLimits {
  /** The class of a request (its client fingerprinted where workers share counts). */
  classOf(origin: string, kind: RequestClass['kind'], client: string): RequestClass;
  bucketOf(cls: RequestClass): string;
  /** How to pace the bucket now, or undefined: not paced. */
  pace(bucket: string): Pace | undefined;
  /** A request of the class leaves now. */
  sending(cls: RequestClass): void;
  /** Milliseconds between this worker's requests into the bucket now at its fixed share (no shared schedule), or undefined: not paced. */
  intervalMs(bucket: string): number | undefined;
  /** The state a request is sent under (a refusal moves a learned state only if no other refusal did since). */
  epochOf(bucket: string): number;
  /** What an answer teaches; `sentAt`: when its request left (epoch milliseconds), by default when the answer came. */
  answered(
    cls: RequestClass,
    status: number,
    headers: Readonly<Record<string, string>>,
    sentEpoch: number,
    sentAt?: number,
  ): void;
  /** Shares this worker's counts now (its last answers of a run). */
  flush(): void;
}

/** How a worker shares buckets with the run's other workers: their send counts, its index, how many there are. */
export interface SharedSends {
  rates: SendRates;
  worker: number;
  workers: number;
  /** The run's schedule of each bucket; without it each worker paces its share alone. */
  schedule?: SharedSchedule;
}

/** Whether a bucket's key is the address's token bucket (every client of every worker). */
const isAddressBucket = (key: string): boolean => key.endsWith(' token');

/**
 * The run's schedule of each bucket, one its workers share (GCRA, the generic cell rate algorithm):
 * a file per bucket in the run's folder holds the time its next request may leave; a worker reserves
 * that slot for its request and moves the time on by one interval at the bucket's rate, under a lock
 * (a directory made atomically, taken back from a worker that died holding it), then sends when the
 * slot comes. Whichever worker has a request for the bucket gets the next slot, so the bucket's rate
 * goes to the workers that need it, never past it; each worker reserves for one request of a bucket at
 * a time (the head of its queue), so no slot is reserved far ahead at a rate that may change meanwhile.
 */
export class SharedSchedule {
  constructor(
    private readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Reserves the bucket's next slot at `rate` requests a second: the milliseconds until it (0: now),
   * or undefined when another worker holds the schedule this instant (ask again).
   */
  reserve(key: string, rate: number): number | undefined {
    const file = path.join(this.dir, `schedule-${fingerprint(key)}`);
    const lock = `${file}.lock`;
    try {
      mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        mkdirSync(this.dir, { recursive: true });
        return this.reserve(key, rate);
      }
      // Held: by a worker that died holding it when it is old, else by one reserving now.
      try {
        if (this.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmdirSync(lock);
      } catch {
        /* released meanwhile */
      }
      return undefined;
    }
    try {
      const now = this.now();
      const interval = 1000 / rate;
      let next = 0;
      try {
        next = Number(readFileSync(file, 'utf8')) || 0;
      } catch {
        /* the bucket's first request */
      }
      // A slot left unused a moment ago is taken now (a timer that fired late costs the schedule
      // nothing); one left longer ago saves up no burst.
      const slot = Math.max(next, now - interval);
      writeFileSync(file, String(slot + interval));
      return Math.max(0, Math.ceil(slot - now));
    } finally {
      rmdirSync(lock);
    }
  }
}

/** A lock older than this was left by a worker that died holding it. */
const STALE_LOCK_MS = 1_000;

/**
 * A bucket paced at `rate` requests a second: with the run's shared schedule, in the slot a worker
 * reserves on it (SharedSchedule); alone, at this worker's fixed share of `most` workers.
 */
function paceAt(rate: number, key: string, most: number, shared: SharedSends | undefined): Pace {
  const schedule = shared?.schedule;
  if (!schedule) return { intervalMs: (1000 * most) / rate };
  return { intervalMs: 0, reserve: () => schedule.reserve(key, rate) };
}

/** Fingerprints of the clients and origins a worker shares counts of, made once each. */
function fingerprinter(shared: boolean): (value: string) => string {
  if (!shared) return (value) => value;
  const made = new Map<string, string>();
  return (value) => {
    let fp = made.get(value);
    if (fp === undefined) made.set(value, (fp = fingerprint(value)));
    return fp;
  };
}

/**
 * A declared limit (the profile's concurrency.rateLimit): each client's requests paced to
 * RATE_HEADROOM of it, the token endpoint's in their client's bucket or, declared, in one of their
 * own (per client or for every client of the address); each bucket's rate shared by the workers
 * sending into it now (`sharedBy` at most).
 */
export class DeclaredRateLimit implements RateLimits {
  private readonly fp: (value: string) => string;

  constructor(
    private readonly declared: {
      requestsPerSecond: number;
      tokenEndpoint?: { requestsPerSecond: number; per: 'client' | 'address' };
    },
    private readonly sharedBy = 1,
    private readonly shared?: SharedSends,
  ) {
    this.fp = fingerprinter(shared !== undefined);
    shared?.rates.startSharing();
  }

  private readonly scope = (): TokenScope =>
    this.declared.tokenEndpoint ? (this.declared.tokenEndpoint.per === 'client' ? 'own' : 'address') : 'client';

  classOf(origin: string, kind: RequestClass['kind'], client: string): RequestClass {
    return { origin: this.fp(origin), kind, client: this.fp(client) };
  }

  bucketOf(cls: RequestClass): string {
    return bucketKey(cls, this.scope());
  }

  private rateOf(bucket: string): number {
    const token = this.declared.tokenEndpoint;
    const rate = token && bucket.includes(' token') ? token.requestsPerSecond : this.declared.requestsPerSecond;
    return rate * RATE_HEADROOM;
  }

  private most(bucket: string): number {
    return isAddressBucket(bucket) ? (this.shared?.workers ?? this.sharedBy) : this.sharedBy;
  }

  pace(bucket: string): Pace {
    return paceAt(this.rateOf(bucket), bucket, this.most(bucket), this.shared);
  }

  sending(cls: RequestClass): void {
    this.shared?.rates.sent(cls);
  }

  intervalMs(bucket: string): number {
    return (1000 * this.most(bucket)) / this.rateOf(bucket);
  }

  epochOf(): number {
    return 0;
  }

  answered(cls: RequestClass, status: number): void {
    this.shared?.rates.answered(cls, status === 429);
  }

  flush(): void {
    this.shared?.rates.share(true);
  }
}

/**
 * One worker's side of the learned limits: how far apart to send into each bucket, and what each
 * answer teaches. `sharedBy` workers send as the same client (the profile's declared clients), so
 * each takes its share of the bucket's rate (with the run's send counts: the share of the workers
 * sending into it now); a client a worker registered is its own (1).
 */
export class AdaptiveRateLimit implements RateLimits {
  /** This worker's recent answers by bucket, for the rate it was sending at when refused (without the run's counts). */
  private readonly answers = new Map<string, number[]>();
  private readonly firstAnswer = new Map<string, number>();
  /** What each bucket let through lately, by the run's counts, read at most every SHARE_MS. */
  private readonly passing = new Map<string, { at: number; rate: number }>();
  private readonly fp: (value: string) => string;

  private readonly rates: SendRates | undefined;

  constructor(
    private readonly store: RateLimitStore = new MemoryRateLimitStore(),
    private readonly sharedBy = 1,
    private readonly now: () => number = Date.now,
    private readonly shared?: SharedSends,
  ) {
    this.rates = shared?.rates;
    this.fp = fingerprinter(shared !== undefined);
    // Workers sending as one client count its requests together from the first: its first refusal
    // is then measured against what the whole run sent.
    if (sharedBy > 1) this.rates?.startSharing();
  }

  private readonly scopeOf = (origin: string): TokenScope => this.store.readScope(origin)?.scope ?? 'client';

  classOf(origin: string, kind: RequestClass['kind'], client: string): RequestClass {
    return { origin: this.fp(origin), kind, client: this.fp(client) };
  }

  bucketOf(cls: RequestClass): string {
    return bucketKey(cls, this.scopeOf(cls.origin));
  }

  /** Milliseconds between this worker's requests into the bucket now, or undefined: no limit met, not paced. */
  intervalMs(key: string): number | undefined {
    const limit = this.store.read(key);
    if (!limit) return undefined;
    this.rates?.startSharing();
    const most = isAddressBucket(key) ? (this.shared?.workers ?? this.sharedBy) : this.sharedBy;
    return (1000 * most) / this.rateNow(key, limit);
  }

  /** The bucket's rate now: the curve, bounded by what the run's counts say it let through lately. */
  private rateNow(key: string, limit: LearnedLimit): number {
    const now = this.now();
    if (!this.rates || limit.source === 'stated') return learnedRate(limit, now);
    let seen = this.passing.get(key);
    if (!seen || now - seen.at >= SHARE_MS) {
      seen = { at: now, rate: bucketCounts(this.rates.counts(), key, this.scopeOf).passed };
      this.passing.set(key, seen);
    }
    return learnedRate(limit, now, seen.rate);
  }

  /** How to pace the bucket now (its learned rate), or undefined: no limit met, not paced. */
  pace(key: string): Pace | undefined {
    const limit = this.store.read(key);
    if (!limit) return undefined;
    this.rates?.startSharing();
    const most = isAddressBucket(key) ? (this.shared?.workers ?? this.sharedBy) : this.sharedBy;
    return paceAt(this.rateNow(key, limit), key, most, this.shared);
  }

  sending(cls: RequestClass): void {
    this.rates?.sent(cls);
  }

  /** The state a request is sent under: its refusal moves the state only if no other refusal did since. */
  epochOf(key: string): number {
    return this.store.read(key)?.epoch ?? 0;
  }

  flush(): void {
    this.rates?.share(true);
  }

  /**
   * What an answer teaches (every answer: a stated limit may come with a 200). `request` is the
   * request's class, or a bucket's key alone (a client of one process, no token endpoint apart).
   */
  answered(
    request: RequestClass | string,
    status: number,
    headers: Readonly<Record<string, string>>,
    sentEpoch: number,
    sentAt?: number,
  ): void {
    const now = this.now();
    const cls = typeof request === 'string' ? undefined : request;
    if (cls) this.rates?.answered(cls, status === 429);
    if (cls && status === 429) this.weighTokenScope(cls);
    const key = cls ? this.bucketOf(cls) : (request as string);
    const recent = this.answers.get(key) ?? [];
    if (!this.firstAnswer.has(key)) this.firstAnswer.set(key, now);
    recent.push(now);
    while (recent.length && recent[0]! <= now - WINDOW_MS) recent.shift();
    this.answers.set(key, recent);
    const stated = statedRateLimit(headers);
    const bucket = cls ? bucketKind(cls, this.scopeOf(cls.origin)) : undefined;
    if (status !== 429) {
      if (stated === undefined) return;
      const known = this.store.read(key);
      if (known?.source === 'stated' && known.rate === stated) return;
      if (known?.source === 'refusals') return;
      this.rates?.startSharing();
      this.store.write(key, {
        rate: stated,
        since: now,
        epoch: (known?.epoch ?? 0) + 1,
        source: 'stated',
        refusedAt: [],
        ...(bucket ? { bucket } : {}),
      });
      return;
    }
    const known = this.store.read(key, true);
    if (known && known.epoch !== sentEpoch) return;
    // Sent within RECOVERY_MS of the last cut (by when it left: a slow target answers after it).
    if (known?.source === 'refusals' && (sentAt ?? now) - known.since < RECOVERY_MS) return;
    // The rate the bucket was refused at: what it let through of the whole run's requests in the last
    // second (letThrough, the workers' shared counts), or, alone, this worker's answers of the last
    // second (or since its first) times the workers sharing the client; no more than the pace allowed
    // (the curve, bounded as pace() bounds it), nor than what the target states.
    const window = Math.max(100, Math.min(WINDOW_MS, now - (this.firstAnswer.get(key) ?? now)));
    const sending =
      this.rates && cls
        ? Math.max(MIN_RATE, letThrough(bucketCounts(this.rates.counts(true), key, this.scopeOf)))
        : (recent.length * 1000 * this.sharedBy) / window;
    const rate = Math.max(
      MIN_RATE,
      Math.min(
        known ? this.rateNow(key, known) : Number.POSITIVE_INFINITY,
        sending,
        stated ?? Number.POSITIVE_INFINITY,
      ),
    );
    this.store.write(key, {
      rate,
      since: now,
      epoch: (known?.epoch ?? 0) + 1,
      source: 'refusals',
      refusedAt: [...(known?.source === 'refusals' ? known.refusedAt : []), rate].slice(-RECENT_REFUSALS),
      ...(bucket ? { bucket } : {}),
    });
  }

  /**
   * A request refused: what it says of the token endpoint's bucket (TokenScope). In the client's
   * bucket, a refusal is as likely to meet any of the client's requests: token requests refused
   * again and again (SCOPE_EVIDENCE.own times, none of the client's other requests refused in
   * between nor in the same second) argue for a bucket of their own. In a bucket of the client's own, a refusal needs the client's own token
   * requests to have filled it: one refused when the client sent no other token request that second,
   * while other clients did, argues for one bucket for every client of the address.
   */
  private weighTokenScope(cls: RequestClass): void {
    if (!this.rates) return;
    if (cls.kind === 'api') {
      // The client's own request refused: what token refusals argued since started over.
      const state = this.store.readScope(cls.origin);
      if (state?.scope === 'client' && state.own > 0) this.store.writeScope(cls.origin, { ...state, own: 0 });
      return;
    }
    const state = this.store.readScope(cls.origin, true) ?? { scope: 'client', own: 0, address: 0 };
    if (state.scope === 'address') return;
    const counts = this.rates.counts(true);
    const of = (kind: RequestClass['kind'], client?: string) =>
      [...counts.values()]
        .filter(
          (c) =>
            c.cls.origin === cls.origin && c.cls.kind === kind && (client === undefined || c.cls.client === client),
        )
        .reduce((sum, c) => ({ sent: sum.sent + c.sent, refused: sum.refused + c.refused }), { sent: 0, refused: 0 });
    if (state.scope === 'client') {
      const api = of('api', cls.client);
      if (api.sent === 0 || api.refused > 0) return;
      const next = { ...state, own: state.own + 1 };
      if (next.own >= SCOPE_EVIDENCE.own) next.scope = 'own';
      this.store.writeScope(cls.origin, next);
      return;
    }
    const mine = of('token', cls.client);
    const all = of('token');
    if (mine.sent > 1 || all.sent - mine.sent < 1) return;
    const next = { ...state, address: state.address + 1 };
    if (next.address >= SCOPE_EVIDENCE.address) next.scope = 'address';
    this.store.writeScope(cls.origin, next);
  }

  /** The buckets' states this worker knows of. */
  learned(keys: Iterable<string> = this.answers.keys()): LearnedLimit[] {
    return [...keys].flatMap((k) => this.store.read(k, true) ?? []);
  }
}
