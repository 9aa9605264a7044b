/** Service configuration: the REF_* knobs of README.md, parsed once and checked. */
import { type Dialect, resolveDialect } from './dialects';
import { type FaultName, parseFaultList } from './faults';

/** The broken payments APIs REF_BROKEN plays (broken.ts). */
export const BROKEN_MODES = ['answers-500', 'refuses-400', 'mock'] as const;
export type BrokenMode = (typeof BROKEN_MODES)[number];

export function parseBrokenMode(raw: string | undefined): BrokenMode | undefined {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'none') return undefined;
  if ((BROKEN_MODES as readonly string[]).includes(value)) return value as BrokenMode;
  throw new Error(`REF_BROKEN must be one of ${BROKEN_MODES.join(', ')} (or empty), got "${raw}"`);
}

export interface Config {
  host: string;
  port: number;
  admin: boolean;
  batchIntervalMs: number;
  settlementDelayMs: number;
  /** How long a transfer settled as accepted reads the dialect's settlingStatus (REF_SETTLING_MS), when it has one. */
  settlingMs: number;
  latencyMs: number;
  /** Requests a second each client may send (REF_RATE_LIMIT_RPS); more get 429 with Retry-After. 0: no limit. */
  rateLimitRps: number;
  /**
   * Requests a second the token endpoint allows (REF_TOKEN_RATE_LIMIT_RPS), a bucket of its own: its
   * requests then count there, not in their client's REF_RATE_LIMIT_RPS. 0: they count in the client's.
   */
  tokenRateLimitRps: number;
  /** Whom that bucket counts against (REF_TOKEN_RATE_LIMIT_PER): every client from one address together, or each client. */
  tokenRateLimitPer: 'address' | 'client';
  /** How a 429 or 503 says when to come back (REF_RETRY_AFTER): delta-seconds, or an HTTP-date (RFC 9110 §10.2.3). */
  retryAfter: 'seconds' | 'date';
  /** Every rate-limited answer states the limit in RateLimit-Policy and RateLimit (REF_RATE_LIMIT_HEADERS=1). */
  rateLimitHeaders: boolean;
  /** Share of pacs.002/camt.029 reads answered 503 with Retry-After (REF_STATUS_503_PERCENT), 0 to 100. */
  status503Percent: number;
  /** Seed of which status reads get that 503 (REF_TRANSIENT_SEED): the same order of reads, the same 503s. */
  transientSeed: number;
  tokenTtlS: number;
  clockSkewS: number;
  rejectAccount: string;
  maxBodyBytes: number;
  /** Longest time to receive a whole request (headers and body); then 408 and the connection closes. */
  requestTimeoutMs: number;
  /** Longest time to receive the request headers (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  /** Most transfers (payments, returns, refunds) kept in memory; the oldest final ones go first. */
  maxTransfers: number;
  /**
   * REF_FAULT_LATER_MS: when set, how much later every late fault acts (see lateFaultMs), instead of
   * each one's own delay, so that a run of a few seconds meets them.
   */
  faultLaterMs: number | undefined;
  /** Share of payments POSTs applied but answered by a closed connection (REF_DROP_POST_ANSWER_PERCENT), 0 to 100. */
  dropPostAnswerPercent: number;
  faults: readonly FaultName[];
  dialect: Dialect;
  /** A broken payments API behind a working token endpoint (REF_BROKEN, broken.ts); undefined: the API works. */
  broken: BrokenMode | undefined;
  /** Clients known from the start (REF_CLIENTS): registrations as POST /_admin/clients takes them, like a sandbox's onboarding. */
  clients: readonly unknown[];
}

/** Options for startReference(): any knob, in config form rather than env form. */
export interface ConfigOptions extends Partial<Omit<Config, 'dialect' | 'faults' | 'admin' | 'clients' | 'broken'>> {
  broken?: BrokenMode | string;
  clients?: readonly unknown[];
  admin?: boolean;
  dialect?: Dialect | string;
  faults?: readonly string[];
}

export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || /^::ffff:127\./.test(h);
}

function int(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min) throw new Error(`${name} must be at least ${min}`);
  return value;
}

function retryAfterForm(raw: string | undefined): Config['retryAfter'] {
  const value = (raw ?? '').trim() || 'seconds';
  if (value !== 'seconds' && value !== 'date') throw new Error(`REF_RETRY_AFTER must be seconds or date, got "${raw}"`);
  return value;
}

function tokenLimitPer(raw: string | undefined): Config['tokenRateLimitPer'] {
  const value = (raw ?? '').trim() || 'address';
  if (value !== 'address' && value !== 'client')
    throw new Error(`REF_TOKEN_RATE_LIMIT_PER must be address or client, got "${raw}"`);
  return value;
}

function flag(name: string, raw: string | undefined): boolean {
  const value = (raw ?? '').trim();
  if (value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new Error(`${name} must be 0 or 1, got "${raw}"`);
}

function percent(name: string, raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 0;
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value < 0 || value > 100)
    throw new Error(`${name} must be a number from 0 to 100, got "${raw}"`);
  return value;
}

/** Builds the configuration; explicit options win over the environment. */
export function loadConfig(options: ConfigOptions = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const host = options.host ?? env.REF_HOST ?? '127.0.0.1';
  const loopback = isLoopbackHost(host);
  const adminRaw = env.REF_ADMIN;
  let admin: boolean;
  if (options.admin !== undefined) admin = options.admin;
  else if (adminRaw === undefined || adminRaw === '') admin = loopback;
  else admin = adminRaw === '1' || adminRaw.toLowerCase() === 'true';
  // The admin API registers keys and injects faults: it must never be reachable from outside.
  if (admin && !loopback) throw new Error(`REF_ADMIN=1 is refused on the non-loopback host ${host}`);

  const dialectOpt = options.dialect;
  const dialect = typeof dialectOpt === 'object' ? dialectOpt : resolveDialect(dialectOpt ?? env.REF_DIALECT);
  const faults = parseFaultList(options.faults ?? (env.REF_FAULTS ?? '').split(','));

  const requestTimeoutMs =
    options.requestTimeoutMs ?? int('REF_REQUEST_TIMEOUT_MS', env.REF_REQUEST_TIMEOUT_MS, 10_000, 1);
  const headersTimeoutMs =
    options.headersTimeoutMs ??
    int('REF_HEADERS_TIMEOUT_MS', env.REF_HEADERS_TIMEOUT_MS, Math.min(5_000, requestTimeoutMs), 1);
  // Node refuses a headers timeout longer than the request timeout; say so in our own terms.
  if (headersTimeoutMs > requestTimeoutMs)
    throw new Error(
      `REF_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must be at most REF_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );

  return {
    host,
    port: options.port ?? int('REF_PORT', env.REF_PORT, 0, 0),
    admin,
    batchIntervalMs: options.batchIntervalMs ?? int('REF_BATCH_INTERVAL_MS', env.REF_BATCH_INTERVAL_MS, 100, 1),
    settlementDelayMs: options.settlementDelayMs ?? int('REF_SETTLEMENT_DELAY_MS', env.REF_SETTLEMENT_DELAY_MS, 100, 0),
    settlingMs: options.settlingMs ?? int('REF_SETTLING_MS', env.REF_SETTLING_MS, 1000, 0),
    latencyMs: options.latencyMs ?? int('REF_LATENCY_MS', env.REF_LATENCY_MS, 0, 0),
    rateLimitRps: options.rateLimitRps ?? int('REF_RATE_LIMIT_RPS', env.REF_RATE_LIMIT_RPS, 0, 0),
    tokenRateLimitRps: options.tokenRateLimitRps ?? int('REF_TOKEN_RATE_LIMIT_RPS', env.REF_TOKEN_RATE_LIMIT_RPS, 0, 0),
    tokenRateLimitPer: options.tokenRateLimitPer ?? tokenLimitPer(env.REF_TOKEN_RATE_LIMIT_PER),
    retryAfter: options.retryAfter ?? retryAfterForm(env.REF_RETRY_AFTER),
    rateLimitHeaders: options.rateLimitHeaders ?? flag('REF_RATE_LIMIT_HEADERS', env.REF_RATE_LIMIT_HEADERS),
    status503Percent: options.status503Percent ?? percent('REF_STATUS_503_PERCENT', env.REF_STATUS_503_PERCENT),
    transientSeed: options.transientSeed ?? int('REF_TRANSIENT_SEED', env.REF_TRANSIENT_SEED, 1, 0),
    tokenTtlS: options.tokenTtlS ?? int('REF_TOKEN_TTL_S', env.REF_TOKEN_TTL_S, 300, 1),
    clockSkewS: options.clockSkewS ?? int('REF_CLOCK_SKEW_S', env.REF_CLOCK_SKEW_S, 30, 0),
    rejectAccount: options.rejectAccount ?? env.REF_REJECT_ACCOUNT ?? '99999999',
    maxBodyBytes: options.maxBodyBytes ?? int('REF_MAX_BODY_BYTES', env.REF_MAX_BODY_BYTES, 1048576, 1),
    requestTimeoutMs,
    headersTimeoutMs,
    maxTransfers: options.maxTransfers ?? int('REF_MAX_TRANSFERS', env.REF_MAX_TRANSFERS, 200_000, 1),
    faultLaterMs:
      options.faultLaterMs ??
      (env.REF_FAULT_LATER_MS?.trim() ? int('REF_FAULT_LATER_MS', env.REF_FAULT_LATER_MS, 0, 0) : undefined),
    dropPostAnswerPercent:
      options.dropPostAnswerPercent ?? percent('REF_DROP_POST_ANSWER_PERCENT', env.REF_DROP_POST_ANSWER_PERCENT),
    faults,
    dialect,
    broken: parseBrokenMode(options.broken ?? env.REF_BROKEN),
    clients: options.clients ?? clientsFrom(env.REF_CLIENTS),
  };
}

/** The faults that act some time after what they break (the history sees them; no single test's requests do). */
export const LATE_FAULT_MS = {
  /** A final status read this long ago reads as interim again. */
  'status-reverts-later': 3_000,
  /** A transfer whose final status a read served this long ago is reported on under another msgId. */
  'report-renamed-later': 3_000,
  /** A payment final and created this long ago gives its id to the client's next payment. */
  'id-reused-after-final': 1_000,
  /** A msgId first submitted this long ago is processed as a new payment when repeated. */
  'late-repeat-new-payment': 30_000,
} as const;

/** How much later a late fault acts: REF_FAULT_LATER_MS when set, else the fault's own delay. */
export function lateFaultMs(config: Pick<Config, 'faultLaterMs'>, fault: keyof typeof LATE_FAULT_MS): number {
  return config.faultLaterMs ?? LATE_FAULT_MS[fault];
}

function clientsFrom(raw: string | undefined): unknown[] {
  if (raw === undefined || raw.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('REF_CLIENTS must be a JSON array of client registrations');
  }
  if (!Array.isArray(parsed)) throw new Error('REF_CLIENTS must be a JSON array of client registrations');
  return parsed;
}
