/**
 * A provider's sandbox as a bank meets it on its first day (README, "Sandbox conditions"): a rate
 * limit per client answered 429 with Retry-After (the token endpoint's requests counted with their
 * client's, or in a bucket of their own, per address or per client: REF_TOKEN_RATE_LIMIT_RPS and
 * REF_TOKEN_RATE_LIMIT_PER, as gateways in front of an authorisation server often count them), a
 * share of status reads answered 503 with
 * Retry-After (in delta-seconds or as an HTTP-date, REF_RETRY_AFTER; the limit stated in RateLimit-Policy
 * and RateLimit headers if REF_RATE_LIMIT_HEADERS asks), and a share of payments POSTs whose answer is
 * lost. All are off unless a REF_* knob turns them on; none ever touches the admin API. The 429 and 503
 * come before any route (an onRequest hook, before the body is read), as a gateway in front of a real
 * service would: a request they refuse was not processed. A lost answer comes after the route: the
 * request was applied, and its connection is closed instead of answered (the client cannot tell whether it was).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from './context';
import { ApiError, sendApiError } from './errors';
import { requestDialect } from './request-scope';

/** A per-client token bucket: `rate` requests a second, a burst of one second's worth. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly rate: number) {}

  /** 0 when the request may go, else the milliseconds until it could. */
  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.rate, at: now };
    bucket.tokens = Math.min(this.rate, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) / this.rate) * 1000);
  }

  /** Requests the client may still send at once, and the seconds until its bucket is full again. */
  remaining(key: string): { requests: number; fullInS: number } {
    const tokens = this.buckets.get(key)?.tokens ?? this.rate;
    return { requests: Math.floor(tokens), fullInS: Math.ceil((this.rate - tokens) / this.rate) };
  }
}

/**
 * Retry-After for a wait: delta-seconds (whole, at least 1), or the HTTP-date it ends at, rounded up
 * to the next whole second (an HTTP-date has no fraction), beside the Date header the server sends.
 */
export function retryAfterValue(form: 'seconds' | 'date', waitMs: number, now = Date.now()): string {
  if (form === 'seconds') return String(Math.max(1, Math.ceil(waitMs / 1000)));
  return new Date(Math.ceil((now + Math.max(1000, waitMs)) / 1000) * 1000).toUTCString();
}

/** mulberry32: a small seeded generator, so a share of answers is the same run after run for the same order of requests. */
export function seededShare(seed: number, percent: number): () => boolean {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const draw = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    return draw * 100 < percent;
  };
}

/** Who a rate limit counts against: the X-Client-Id, else the Basic credentials' client (the token endpoint), else the peer. */
export function rateLimitKey(req: FastifyRequest): string {
  const clientId = req.headers['x-client-id'];
  if (typeof clientId === 'string' && clientId) return `client:${clientId}`;
  const auth = req.headers.authorization;
  if (typeof auth === 'string' && /^basic /i.test(auth)) {
    const user = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8').split(':')[0];
    if (user) return `client:${user}`;
  }
  return `peer:${req.ip}`;
}

/** The status reads a sandbox's flakiness hits: pacs.002 and camt.029 (reads of a state that moves). */
const STATUS_READ = /^\/payments\/(pacs002|camt029)\//;

/** The payments API's POSTs (not the token endpoint, not the admin API): their answers may be lost. */
const PAYMENTS_POST = /^\/payments\//;

/** The token endpoint's path: its requests count in a bucket of their own when REF_TOKEN_RATE_LIMIT_RPS sets one. */
const TOKEN_PATH = '/oauth/token';

/** A request's rate limit: its bucket's limiter, the key it counts against there, and the limit in words. */
interface Bucket {
  limiter: RateLimiter;
  key: string;
  rps: number;
  knob: string;
  who: string;
}

export function registerSandboxConditions(app: FastifyInstance, ctx: ServiceContext): void {
  const {
    rateLimitRps,
    tokenRateLimitRps,
    tokenRateLimitPer,
    status503Percent,
    transientSeed,
    retryAfter,
    rateLimitHeaders,
    dropPostAnswerPercent,
  } = ctx.config;
  const limiter = rateLimitRps > 0 ? new RateLimiter(rateLimitRps) : undefined;
  const tokenLimiter = tokenRateLimitRps > 0 ? new RateLimiter(tokenRateLimitRps) : undefined;
  const bucketOf = (req: FastifyRequest, url: string): Bucket | undefined => {
    if (tokenLimiter && url === TOKEN_PATH)
      return tokenRateLimitPer === 'address'
        ? {
            limiter: tokenLimiter,
            key: `peer:${req.ip}`,
            rps: tokenRateLimitRps,
            knob: 'REF_TOKEN_RATE_LIMIT_RPS',
            who: 'token requests from this address',
          }
        : {
            limiter: tokenLimiter,
            key: rateLimitKey(req),
            rps: tokenRateLimitRps,
            knob: 'REF_TOKEN_RATE_LIMIT_RPS',
            who: 'token requests of this client',
          };
    return limiter
      ? {
          limiter,
          key: rateLimitKey(req),
          rps: rateLimitRps,
          knob: 'REF_RATE_LIMIT_RPS',
          who: 'requests from this client',
        }
      : undefined;
  };
  const unavailable = status503Percent > 0 ? seededShare(transientSeed, status503Percent) : undefined;
  // A generator of its own: the lost answers do not shift which status reads get a 503.
  const lost = dropPostAnswerPercent > 0 ? seededShare(transientSeed + 1, dropPostAnswerPercent) : undefined;
  if (lost)
    app.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' || !PAYMENTS_POST.test(req.url) || reply.statusCode === 429 || !lost()) return payload;
      req.raw.socket.destroy();
      return payload;
    });
  if (!limiter && !tokenLimiter && !unavailable) return;
  app.addHook('onRequest', async (req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    if (url.startsWith('/_admin')) return;
    const bucket = bucketOf(req, url);
    const waitMs = bucket?.limiter.take(bucket.key) ?? 0;
    if (bucket && rateLimitHeaders) {
      // draft-ietf-httpapi-ratelimit-headers: the policy (quota q per w seconds) and what is left of it.
      const left = bucket.limiter.remaining(bucket.key);
      reply.header('RateLimit-Policy', `"default";q=${bucket.rps};w=1`);
      reply.header('RateLimit', `"default";r=${left.requests};t=${left.fullInS}`);
    }
    if (bucket && waitMs > 0) {
      const error = new ApiError(
        429,
        {
          code: 'rate_limited',
          message: `more than ${bucket.rps} ${bucket.who} a second (${bucket.knob})`,
        },
        { 'Retry-After': retryAfterValue(retryAfter, waitMs) },
      );
      return sendApiError(reply, requestDialect(ctx, req), error);
    }
    if (unavailable && req.method === 'GET' && STATUS_READ.test(url) && unavailable()) {
      const error = new ApiError(
        503,
        { code: 'service_unavailable', message: 'the status service is briefly unavailable (REF_STATUS_503_PERCENT)' },
        { 'Retry-After': retryAfterValue(retryAfter, 1000) },
      );
      return sendApiError(reply, requestDialect(ctx, req), error);
    }
  });
}
