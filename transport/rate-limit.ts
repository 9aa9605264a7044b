/**
 * A target's rate limit, learned from its answers where no profile declares one (spec §8: "Rate
 * limits: not shown"), as the AWS SDKs' adaptive retry mode learns it: nothing is paced until the
 * target refuses a request with a 429; then the client's rate drops to BETA of the rate it was refused
 * at and grows back along a cubic curve (CUBIC, RFC 9438 §4) that flattens at that rate and only
 * then probes beyond it, so the pace settles just under the limit and follows it if it moves. A
 * target that states its limit (RateLimit-Policy, or a limit header with its window) is paced to what
 * it states from the first answer that says so.
 *
 * Workers are separate processes that share one client's limit at the target. What one of them
 * learned is the client's state (`LearnedLimit`), kept in a store every worker reads: a file per
 * client in the run's folder (`FileRateLimitStore`). The curve is a function of that state and the
 * clock, so every worker follows it without writing; only a refusal writes, and only once for a
 * given state (a 429 to a request sent under an older state was already answered by the change).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fingerprint } from './redact';

/** The share of a stated (declared or announced) limit a run paces to: clocks and the network do not keep the spacing exact. */
export const RATE_HEADROOM = 0.9;

/** What a refusal leaves of the rate it was sent at (the AWS SDKs' and CUBIC's multiplicative decrease). */
export const BETA = 0.7;
/** How fast the curve grows back and beyond (the AWS SDKs' scale constant, requests/s per s³). */
export const SCALE = 0.4;
/** The slowest a refused client is paced (requests a second of the whole client). */
export const MIN_RATE = 0.5;
/** The window the client's own sending rate is measured over when a refusal comes. */
const MEASURE_MS = 1_000;

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
}

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

/** The client's rate (requests a second, the whole client) the state allows at `now`. */
export function learnedRate(limit: LearnedLimit, now: number): number {
  if (limit.source === 'stated') return limit.rate * RATE_HEADROOM;
  const t = (now - limit.since) / 1000;
  const k = Math.cbrt((limit.rate * (1 - BETA)) / SCALE);
  return Math.max(MIN_RATE, SCALE * (t - k) ** 3 + limit.rate);
}

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

/** Where the workers of a run keep what each learned, by client. */
export interface RateLimitStore {
  /** The client's state; `fresh` reads past any cache (a refusal decides on the newest state). */
  read(key: string, fresh?: boolean): LearnedLimit | undefined;
  write(key: string, limit: LearnedLimit): void;
}

/** One process's store: discovery, scripts, a unit test. */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly limits = new Map<string, LearnedLimit>();
  read(key: string): LearnedLimit | undefined {
    return this.limits.get(key);
  }
  write(key: string, limit: LearnedLimit): void {
    this.limits.set(key, limit);
  }
}

/** The file of one client's state: named by the client's fingerprint (transport/redact.ts), never by its id. */
export const learnedLimitFile = (key: string): string => `rate-limit-${fingerprint(key)}.json`;
const LEARNED_FILE = /^rate-limit-[0-9a-f]+\.json$/;

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
    mkdirSync(this.dir, { recursive: true });
    const file = path.join(this.dir, learnedLimitFile(key));
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(limit)}\n`);
    renameSync(temporary, file);
    this.cache.set(key, { limit, readAt: this.now() });
  }
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

/** The learned limits in one line, busiest client first, clients learned alike counted once: what a run found. */
export function describeLearnedLimits(limits: readonly LearnedLimit[]): string | undefined {
  if (!limits.length) return undefined;
  const each = new Map<string, number>();
  for (const l of [...limits].sort((a, b) => b.epoch - a.epoch)) {
    const said =
      l.source === 'stated'
        ? `${l.rate} (stated in its headers)`
        : l.epoch < MIN_REFUSALS_TO_ESTIMATE
          ? `paced after ${l.epoch} refusal${l.epoch === 1 ? '' : 's'}, too few to estimate`
          : `≈ ${estimatedLimit(l).toFixed(1)} (${l.epoch} refusals moved the pace)`;
    each.set(said, (each.get(said) ?? 0) + 1);
  }
  const clients = [...each].map(([said, n]) => (n > 1 ? `${said} × ${n} clients` : said));
  return `rate limit learned from the target (the profile declares none), requests/s per client: ${clients.join('; ')}`;
}

/**
 * One worker's side of the learned limits: how far apart to send each client's requests, and what
 * each answer teaches. `sharedBy` workers send as the same client (the profile's declared clients),
 * so each takes that share of the client's rate; a client a worker registered is its own (1).
 */
export class AdaptiveRateLimit {
  /** This worker's recent answers by client, for the rate it was sending at when refused. */
  private readonly answers = new Map<string, number[]>();
  private readonly firstAnswer = new Map<string, number>();

  constructor(
    private readonly store: RateLimitStore = new MemoryRateLimitStore(),
    private readonly sharedBy = 1,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds between this worker's requests of the client now, or undefined: no limit met, not paced. */
  intervalMs(key: string): number | undefined {
    const limit = this.store.read(key);
    return limit ? (1000 * this.sharedBy) / learnedRate(limit, this.now()) : undefined;
  }

  /** The state a request is sent under: its refusal moves the state only if no other refusal did since. */
  epochOf(key: string): number {
    return this.store.read(key)?.epoch ?? 0;
  }

  /** What the client's answer teaches (every answer: a stated limit may come with a 200). */
  answered(key: string, status: number, headers: Readonly<Record<string, string>>, sentEpoch: number): void {
    const now = this.now();
    const recent = this.answers.get(key) ?? [];
    if (!this.firstAnswer.has(key)) this.firstAnswer.set(key, now);
    recent.push(now);
    while (recent.length && recent[0]! <= now - MEASURE_MS) recent.shift();
    this.answers.set(key, recent);
    const stated = statedRateLimit(headers);
    if (status !== 429) {
      if (stated === undefined) return;
      const known = this.store.read(key);
      if (known?.source === 'stated' && known.rate === stated) return;
      if (known?.source === 'refusals') return;
      this.store.write(key, {
        rate: stated,
        since: now,
        epoch: (known?.epoch ?? 0) + 1,
        source: 'stated',
        refusedAt: [],
      });
      return;
    }
    const known = this.store.read(key, true);
    if (known && known.epoch !== sentEpoch) return;
    // The rate the client was refused at: what it was sending (this worker's answers of the last
    // second, or since its first, times the workers sharing the client), no more than the curve
    // allowed, nor than what the target states.
    const window = Math.max(100, Math.min(MEASURE_MS, now - (this.firstAnswer.get(key) ?? now)));
    const sending = (recent.length * 1000 * this.sharedBy) / window;
    const rate = Math.max(
      MIN_RATE,
      Math.min(known ? learnedRate(known, now) : Number.POSITIVE_INFINITY, sending, stated ?? Number.POSITIVE_INFINITY),
    );
    this.store.write(key, {
      rate,
      since: now,
      epoch: (known?.epoch ?? 0) + 1,
      source: 'refusals',
      refusedAt: [...(known?.source === 'refusals' ? known.refusedAt : []), rate].slice(-RECENT_REFUSALS),
    });
  }

  /** The clients' states this worker knows of. */
  learned(keys: Iterable<string> = this.answers.keys()): LearnedLimit[] {
    return [...keys].flatMap((k) => this.store.read(k, true) ?? []);
  }
}
