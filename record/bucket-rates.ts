/**
 * What each rate limit bucket let through while it was refusing, read from the run's history at its
 * end: the rate a run that learned a limit prints as learned, and measures its floor against, when
 * the history measures one (else the workers' estimate stands).
 *
 * A token bucket that answers 429 is empty. Between two of its refusals it is empty at both ends, so
 * what it let through in between is what it refilled: its rate × the time between them. Summed over
 * every two consecutive refusals of the bucket, by when their requests were sent, the requests that
 * passed ÷ the time is its rate. Only refusals at most SATURATED_GAP_MS apart count: longer apart,
 * the run may have sent less than the bucket allowed, and the refill it did not use would read as a
 * slower limit. Requests sent together reach the bucket in another order than they were sent: over
 * less than MIN_MEASURED_SPAN_MS in all (a first second's storm), that order is most of the count.
 * Other limiters read a little low: a fixed window or a small burst wastes refill between refusals,
 * a limiter that counts refused requests too refills less than its rate.
 *
 * The workers' own estimate (transport/rate-limit.ts estimatedLimit) is what the bucket let through
 * in the second before each refusal, requests still in flight included: it paces well, as it is
 * corrected a second later, but it runs high, and a floor divided by it runs low.
 */
import type { BucketKind, TokenScope } from '../transport/rate-limit';
import { fingerprint } from '../transport/redact';
import { readRunHistory, type HistoryInvoke, type WorkerHistory } from './history';

/** Two refusals further apart than this may have an idle bucket between them. */
export const SATURATED_GAP_MS = 5_000;
/** Fewer requests let through between refusals than this, or over less time, measure no rate. */
export const MIN_MEASURED_PASSES = 20;
export const MIN_MEASURED_SPAN_MS = 5_000;

export interface MeasuredRate {
  /** Requests a second the bucket let through between refusals. */
  rate: number;
  /** Requests it let through between refusals at most SATURATED_GAP_MS apart, and the time between them. */
  passes: number;
  spanMs: number;
}

/** A bucket as a learned limit names it (LearnedLimit.bucket): its client's fingerprint, as the workers share it. */
export function bucketName(bucket: BucketKind): string {
  if (bucket.kind === 'client') return `client ${bucket.client}`;
  return bucket.per === 'client' ? `token ${bucket.client}` : 'token';
}

/** The bucket a request of the history counts in, the token endpoint's scope given. */
function bucketOf(request: HistoryInvoke, scope: TokenScope, fp: (client: string) => string): string {
  const client = fp(request.c ?? '');
  if (request.op !== 'token' || scope === 'client') return `client ${client}`;
  return scope === 'own' ? `token ${client}` : 'token';
}

/**
 * Each bucket's measured rate, by bucketName, over one target's history (a project's workers):
 * buckets refused too little to measure are left out. `fp` names clients as the workers share them
 * (the run's fingerprints).
 */
export function measuredBucketRates(
  workers: readonly WorkerHistory[],
  scope: TokenScope,
  fp: (client: string) => string = fingerprint,
  gapMs = SATURATED_GAP_MS,
): Map<string, MeasuredRate> {
  const sent = new Map<string, { at: number; bucket: string }>();
  const answered = new Map<string, { at: number; refused: boolean }[]>();
  const names = new Map<string, string>();
  const nameOf = (client: string): string => {
    let name = names.get(client);
    if (name === undefined) names.set(client, (name = fp(client)));
    return name;
  };
  for (const [w, worker] of workers.entries()) {
    const lines = worker.lines();
    for (let next = lines.next(); !next.done; next = lines.next()) {
      const line = next.value;
      if (line.k === 'i') sent.set(`${w} ${line.n}`, { at: line.t, bucket: bucketOf(line, scope, nameOf) });
      else if (line.k === 'c') {
        const request = sent.get(`${w} ${line.n}`);
        sent.delete(`${w} ${line.n}`);
        // No answer: the request may never have reached the bucket.
        if (!request || line.s === 0) continue;
        const list = answered.get(request.bucket) ?? [];
        list.push({ at: request.at, refused: line.s === 429 });
        answered.set(request.bucket, list);
      }
    }
  }
  const rates = new Map<string, MeasuredRate>();
  for (const [bucket, requests] of answered) {
    requests.sort((a, b) => a.at - b.at);
    let passes = 0;
    let spanMs = 0;
    let lastRefusal: number | undefined;
    let passedSince = 0;
    for (const r of requests) {
      if (!r.refused) {
        passedSince++;
        continue;
      }
      if (lastRefusal !== undefined && r.at - lastRefusal <= gapMs) {
        passes += passedSince;
        spanMs += r.at - lastRefusal;
      }
      lastRefusal = r.at;
      passedSince = 0;
    }
    if (passes >= MIN_MEASURED_PASSES && spanMs >= MIN_MEASURED_SPAN_MS)
      rates.set(bucket, { rate: (passes * 1000) / spanMs, passes, spanMs });
  }
  return rates;
}

/**
 * Every bucket's measured rate over a run's history, each project's (its target's) apart. A name has
 * no origin in it: where two projects measure buckets named alike (the token endpoint's for every
 * client of an address; one client id at two targets), the longer measure is kept for both.
 */
export function readMeasuredRates(runDir: string, scope: TokenScope): Map<string, MeasuredRate> {
  const rates = new Map<string, MeasuredRate>();
  for (const workers of readRunHistory(runDir).values())
    for (const [bucket, rate] of measuredBucketRates(workers, scope))
      if ((rates.get(bucket)?.spanMs ?? 0) < rate.spanMs) rates.set(bucket, rate);
  return rates;
}
