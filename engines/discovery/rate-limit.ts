/**
 * How many requests a second the target allows one client (spec §8: "Rate limits: not shown"),
 * measured so that `npm run discover -- --write` can declare it (`concurrency.rateLimit`): a run then
 * paces to it from its first request instead of learning it from 429s.
 *
 * One cheap read first: a target that states its limit (RateLimit-Policy…, transport/rate-limit.ts) is
 * taken at its word. Otherwise reads go out on a few lanes, each sending its next as soon as the last
 * is answered, doubling the lanes every half second until the target refuses one (429). From that
 * refusal the target's bucket is empty, and the reads it accepts over the next two seconds (sent as
 * fast as the ones it refused) are what it lets through: the limit, the slope of their count over
 * time. Two whole seconds, so a limiter with fixed one-second windows is counted over whole windows. Bounded in requests and in time; a
 * target that refuses nothing within them is reported as such, with the rate it was asked at.
 */
import type { Exchange } from '../../transport/http';
import { statedRateLimit } from '../../transport/rate-limit';

export interface RateLimitMeasurement {
  /** Requests a second one client may send; absent when the target refused nothing. */
  requestsPerSecond?: number;
  /** stated: the target's own headers say it; measured: counted after its first 429; not met: no 429 came. */
  how: 'stated' | 'measured' | 'not met';
  requests: number;
  refused: number;
  /** The fastest the reads went out (requests a second over a half-second phase): what "not met" means. */
  sentAtMost: number;
  wallMs: number;
}

export interface MeasureBounds {
  maxRequests: number;
  maxMs: number;
}

/** What discover spends on it at most. */
export const RATE_MEASUREMENT_BOUNDS: MeasureBounds = { maxRequests: 500, maxMs: 10_000 };

const PHASE_MS = 500;
const WINDOW_MS = 2_000;
const MAX_LANES = 32;

/** A measured rate as a profile states it: whole requests a second from 5 up, tenths below (the run paces to 95 % of it). */
export const declarableRate = (rate: number): number =>
  rate >= 5 ? Math.round(rate) : Math.max(0.1, Math.round(rate * 10) / 10);

/**
 * `read(i)` sends the i-th cheap read as one client, once, with no retry and no pacing of its own
 * (the answer is all that is wanted: its status and its headers).
 */
export async function measureRateLimit(
  read: (i: number) => Promise<Exchange>,
  bounds: MeasureBounds = RATE_MEASUREMENT_BOUNDS,
  now: () => number = Date.now,
): Promise<RateLimitMeasurement> {
  const answers: { sent: number; status: number }[] = [];
  const started = now();
  let sent = 0;
  let refusedAt: number | undefined;
  let stated: number | undefined;
  const one = async (): Promise<void> => {
    const at = now();
    const exchange = await read(sent++);
    answers.push({ sent: at, status: exchange.response.status });
    stated ??= statedRateLimit(exchange.response.headers);
    if (exchange.response.status === 429) refusedAt ??= at;
  };
  const tally = (): Pick<RateLimitMeasurement, 'requests' | 'refused' | 'wallMs'> => ({
    requests: answers.length,
    refused: answers.filter((a) => a.status === 429).length,
    wallMs: now() - started,
  });
  const within = (): boolean => sent < bounds.maxRequests && now() - started < bounds.maxMs;
  /** `lanes` reads in flight until `until()` says stop. */
  const run = (lanes: number, until: () => boolean): Promise<void> =>
    Promise.all(
      Array.from({ length: lanes }, async () => {
        while (within() && !until()) await one();
      }),
    ).then(() => undefined);

  await one();
  if (stated !== undefined) return { requestsPerSecond: stated, how: 'stated', ...tally(), sentAtMost: 0 };
  let lanes = 2;
  let sentAtMost = 0;
  while (refusedAt === undefined && stated === undefined && within()) {
    const phaseEnd = now() + PHASE_MS;
    const before = answers.length;
    await run(lanes, () => now() >= phaseEnd || refusedAt !== undefined || stated !== undefined);
    sentAtMost = Math.max(sentAtMost, ((answers.length - before) * 1000) / PHASE_MS);
    if (refusedAt === undefined) lanes = Math.min(MAX_LANES, lanes * 2);
  }
  if (stated !== undefined) return { requestsPerSecond: stated, how: 'stated', ...tally(), sentAtMost };
  if (refusedAt === undefined) return { how: 'not met', ...tally(), sentAtMost };
  const from = refusedAt;
  const windowEnd = from + WINDOW_MS;
  await run(lanes, () => now() >= windowEnd);
  const accepted = answers.filter((a) => a.sent >= from && a.sent < windowEnd && a.status !== 429);
  return {
    requestsPerSecond: acceptedRate(accepted.map((a) => a.sent)) ?? (accepted.length * 1000) / WINDOW_MS,
    how: 'measured',
    ...tally(),
    sentAtMost,
  };
}

/**
 * Requests a second the target accepted, from the times the accepted reads were sent: the slope of
 * their count over time (least squares), so a read that the event loop sent late at either end of
 * the window moves the result by a fraction of one, not by one whole request.
 */
export function acceptedRate(sentAt: readonly number[]): number | undefined {
  if (sentAt.length < 3) return undefined;
  const xs = [...sentAt].sort((a, b) => a - b).map((t) => t / 1000);
  const n = xs.length;
  const meanX = xs.reduce((a, b) => a + b, 0) / n;
  const meanY = (n - 1) / 2;
  let sxy = 0;
  let sxx = 0;
  xs.forEach((x, i) => {
    sxy += (x - meanX) * (i - meanY);
    sxx += (x - meanX) ** 2;
  });
  return sxx > 0 ? sxy / sxx : undefined;
}

/** The measurement in one line of discover's output. */
export function describeRateMeasurement(m: RateLimitMeasurement): string {
  const cost = `${m.requests} requests, ${m.refused} refused with 429, ${(m.wallMs / 1000).toFixed(1)} s`;
  if (m.how === 'stated')
    return `rate limit: ${m.requestsPerSecond} requests/s per client, as the target states it (${cost})`;
  if (m.how === 'not met')
    return `rate limit: none met (${cost}; reads sent at up to ${Math.round(m.sentAtMost)} requests/s): a limit, if any, is above that`;
  return `rate limit: ${m.requestsPerSecond!.toFixed(1)} requests/s per client, the pace of the reads the target accepted in the ${WINDOW_MS / 1000} s after its first 429 (${cost})`;
}

/** The profile field a measured rate limit is declared in. */
export const RATE_LIMIT_FIELD = ['concurrency', 'rateLimit', 'requestsPerSecond'] as const;

/**
 * What discover makes of a measurement against the profile (as parsed, defaults not filled in): the
 * line it prints, and the rate `--write` declares. A declared rate at or under what the target allows
 * is kept (a provider's published figure may be the stricter one); one above it, or none, is set to
 * what was measured. Nothing refused, nothing is set.
 */
export function rateLimitVerdict(profileJson: unknown, m: RateLimitMeasurement): { lines: string[]; adopt?: number } {
  const declared = (profileJson as { concurrency?: { rateLimit?: { requestsPerSecond?: unknown } } }).concurrency
    ?.rateLimit?.requestsPerSecond;
  const field = RATE_LIMIT_FIELD.join('.');
  const lines = [describeRateMeasurement(m)];
  if (m.requestsPerSecond === undefined) {
    if (typeof declared === 'number') lines.push(`  ? ${field}  profile ${declared}; kept: nothing was refused`);
    return { lines };
  }
  const allowed = m.how === 'stated' ? m.requestsPerSecond : declarableRate(m.requestsPerSecond);
  if (typeof declared === 'number' && declared <= allowed) {
    lines.push(`  ✓ ${field}  profile ${declared}; within the ${allowed} the target allows`);
    return { lines };
  }
  const profile =
    typeof declared === 'number'
      ? `${declared}, above the ${allowed} the target allows`
      : '— (not set: learned in each run)';
  lines.push(`  ${typeof declared === 'number' ? '✖' : '≈'} ${field}  profile ${profile} → --write sets ${allowed}`);
  return { lines, adopt: allowed };
}
