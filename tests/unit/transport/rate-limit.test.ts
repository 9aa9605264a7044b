/**
 * A rate limit found, not declared (transport/rate-limit.ts): the limit a target states in its headers,
 * the curve a refusal starts, one move per refusal of the newest state, the workers sharing what they
 * learned through the run's folder, Retry-After as an HTTP-date measured against the answer's Date,
 * and the whole against the reference's rate limit: no request bounces off a limit the run already met.
 * Run: node --import tsx --test tests/unit/transport/rate-limit.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  AdaptiveRateLimit,
  BETA,
  DeclaredRateLimit,
  FileRateLimitStore,
  SendRates,
  SharedSchedule,
  MemoryRateLimitStore,
  RATE_HEADROOM,
  describeLearnedLimits,
  estimatedLimit,
  learnedRate,
  letThrough,
  PROBE_CAP,
  RECOVERY_MS,
  readLearnedLimits,
  statedRateLimit,
  type LearnedLimit,
} from '../../../transport/rate-limit';
import { HttpClient, retryAfterMs, type Exchange } from '../../../transport/http';
import { startReference } from '../../../reference/server';
import { retryAfterValue } from '../../../reference/sandbox-conditions';
import {
  acceptedRate,
  declarableRate,
  describeRateMeasurement,
  measureRateLimit,
  RATE_MEASUREMENT_BOUNDS,
  rateLimitVerdict,
} from '../../../engines/discovery/rate-limit';

const tmp = (): string => mkdtempSync(path.join(os.tmpdir(), 'rate-limit-'));

test('statedRateLimit: RateLimit-Policy in both draft forms, a limit header only with its window, Kong’s per-second limit; the strictest', () => {
  assert.equal(statedRateLimit({ 'ratelimit-policy': '"default";q=40;w=1' }), 40);
  assert.equal(statedRateLimit({ 'RateLimit-Policy': '"burst";q=100;w=10, "daily";q=1000;w=86400' }), 1000 / 86400);
  assert.equal(
    statedRateLimit({ 'ratelimit-policy': '10, 50;w=5' }),
    10,
    'an earlier draft: quota, then quota;w=window',
  );
  assert.equal(statedRateLimit({ 'x-ratelimit-limit': '120;w=60' }), 2);
  assert.equal(
    statedRateLimit({ 'x-ratelimit-limit': '5000' }),
    undefined,
    'a bare number has no window (GitHub’s is an hour)',
  );
  assert.equal(statedRateLimit({ 'x-ratelimit-limit-second': '25', 'x-ratelimit-limit-minute': '600' }), 10);
  assert.equal(statedRateLimit({ 'content-type': 'application/json' }), undefined);
  assert.equal(statedRateLimit({ 'ratelimit-policy': 'garbage' }), undefined);
});

test('learnedRate: a refusal starts at BETA of the rate it came at, flattens back at that rate, then probes beyond it', () => {
  const limit: LearnedLimit = { rate: 40, since: 0, epoch: 1, source: 'refusals', refusedAt: [40] };
  const k = Math.cbrt((40 * (1 - BETA)) / 0.4) * 1000;
  assert.ok(Math.abs(learnedRate(limit, 0) - 40 * BETA) < 1e-9);
  assert.ok(Math.abs(learnedRate(limit, k) - 40) < 1e-9);
  assert.ok(
    learnedRate(limit, k - 1000) < 40 && learnedRate(limit, k - 1000) > 39,
    'flat near the rate it was refused at',
  );
  assert.ok(learnedRate(limit, k + 3000) > 45, 'then beyond it');
  assert.equal(learnedRate({ ...limit, source: 'stated' }, 0), 40 * RATE_HEADROOM, 'a stated limit: its share');
  assert.equal(
    estimatedLimit({ ...limit, refusedAt: [44, 41, 39, 60, 42] }),
    42,
    'the estimate: the median of recent refusals',
  );
});

test('learnedRate: once three refusals measured the limit, the probe stops at twice their median', () => {
  const limit: LearnedLimit = { rate: 40, since: 0, epoch: 3, source: 'refusals', refusedAt: [44, 41, 39] };
  assert.equal(learnedRate(limit, 30_000), PROBE_CAP * 41, 'thirty seconds on: the cap, not the cube');
  assert.ok(learnedRate({ ...limit, refusedAt: [44, 41] }, 30_000) > 1_000, 'two refusals measure nothing: the cube');
  assert.ok(Math.abs(learnedRate(limit, 0) - 40 * BETA) < 1e-9, 'below the cap the curve is as it was');
});

test('learnedRate with the run’s counts: from the first refusal, the probe stops at twice what the bucket let through, or twice the estimate', () => {
  const once: LearnedLimit = { rate: 13, since: 0, epoch: 1, source: 'refusals', refusedAt: [13] };
  assert.equal(
    learnedRate(once, 30_000, 0),
    PROBE_CAP * 13,
    'back from a quiet spell: twice the estimate, not the cube',
  );
  assert.equal(
    learnedRate(once, 30_000, 26),
    PROBE_CAP * 26,
    'paced at the bound with work waiting: the bound doubles',
  );
  assert.ok(learnedRate(once, 30_000) > 1_000, 'without the counts, one refusal measures nothing: the cube');
  assert.ok(Math.abs(learnedRate(once, 0, 100) - 13 * BETA) < 1e-9, 'below the bound the curve is as it was');
});

test('AdaptiveRateLimit: nothing paced before a refusal; one move per refusal of the newest state; a stated limit paces at once', () => {
  let now = 10_000;
  const learner = new AdaptiveRateLimit(new MemoryRateLimitStore(), 4, () => now);
  assert.equal(learner.intervalMs('c'), undefined, 'no limit met: not paced');
  for (let i = 0; i < 10; i++) {
    now += 50;
    learner.answered('c', 200, {}, learner.epochOf('c'));
  }
  const sentUnder = learner.epochOf('c');
  learner.answered('c', 429, {}, sentUnder);
  const first = learner.learned(['c'])[0]!;
  assert.equal(first.epoch, 1);
  assert.ok(
    Math.abs(first.rate - (11 * 1000 * 4) / 450) < 1e-9,
    'the rate it was sending at: 11 answers in the 450 ms since its first, times the 4 workers sharing the client',
  );
  learner.answered('c', 429, {}, sentUnder);
  assert.equal(learner.learned(['c'])[0]!.epoch, 1, 'a 429 to a request sent before the move moves nothing');
  assert.ok(
    Math.abs(learner.intervalMs('c')! - (1000 * 4) / (first.rate * BETA)) < 1e-6,
    'each of 4 workers: its share',
  );
  now += RECOVERY_MS - 1;
  learner.answered('c', 429, {}, learner.epochOf('c'));
  assert.equal(learner.learned(['c'])[0]!.epoch, 1, 'within RECOVERY_MS of the move, a refusal is the same excess');
  now += 1;
  learner.answered('c', 429, {}, learner.epochOf('c'));
  assert.equal(learner.learned(['c'])[0]!.epoch, 2, 'after it, a refusal moves the pace again');

  const stated = new AdaptiveRateLimit(new MemoryRateLimitStore(), 2, () => now);
  stated.answered('s', 200, { 'ratelimit-policy': '"default";q=40;w=1' }, 0);
  assert.equal(stated.intervalMs('s'), (1000 * 2) / (40 * RATE_HEADROOM));
});

test('FileRateLimitStore: what one worker learned, another follows (within the read interval), and the run can list it', () => {
  const dir = tmp();
  try {
    let now = 0;
    const one = new AdaptiveRateLimit(new FileRateLimitStore(dir, 200, () => now), 2, () => now);
    const two = new AdaptiveRateLimit(new FileRateLimitStore(dir, 200, () => now), 2, () => now);
    assert.equal(two.intervalMs('client-1'), undefined);
    one.answered('client-1', 200, {}, 0);
    now = 100;
    one.answered('client-1', 429, {}, 0);
    assert.equal(two.intervalMs('client-1'), undefined, 'read again only after 200 ms');
    now = 250;
    assert.ok(two.intervalMs('client-1')! > 0, 'then paced too');
    assert.equal(two.epochOf('client-1'), 1);
    const files = readdirSync(dir);
    assert.equal(files.length, 1);
    assert.doesNotMatch(files[0]!, /client-1/, 'named by the client’s fingerprint, never its id');
    const limits = readLearnedLimits(dir);
    assert.equal(limits.length, 1);
    assert.match(describeLearnedLimits(limits)!, /paced after 1 refusal, too few to estimate/);
    const stated: LearnedLimit = { rate: 40, since: 0, epoch: 1, source: 'stated', refusedAt: [] };
    const refused: LearnedLimit = { rate: 44, since: 0, epoch: 5, source: 'refusals', refusedAt: [44, 41, 43] };
    assert.equal(
      describeLearnedLimits([stated, refused, stated, stated]),
      'rate limit learned from the target (the profile declares none), requests/s per client: ≈ 43.0 (5 refusals moved the pace); 40 (stated in its headers) × 3 clients',
    );
    // A rate measured over the run's history (record/bucket-rates.ts) is said instead of the estimate, even of a bucket refused once.
    const once: LearnedLimit = { rate: 60, since: 0, epoch: 1, source: 'refusals', refusedAt: [60] };
    assert.equal(
      describeLearnedLimits([refused, once], [], {
        measured: (l) => (l === refused ? 40.2 : l === once ? 39.4 : undefined),
      }),
      'rate limit learned from the target (the profile declares none), requests/s per client: ≈ 40.2, let through between its refusals (5 refusals moved the pace); ≈ 39.4, let through between its refusals (1 refusal moved the pace)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('retryAfterMs: an HTTP-date is measured against the answer’s Date, whatever the runner’s clock says', () => {
  const serverNow = Date.now() - 45_000;
  const date = (ms: number) => new Date(ms).toUTCString();
  const at = Math.floor(serverNow / 1000) * 1000;
  assert.equal(retryAfterMs(date(at + 3_000), date(at)), 3_000, 'a server 45 s behind: still 3 s');
  assert.equal(retryAfterMs(date(at + 90_000 + 3_000), date(at + 90_000)), 3_000, 'a server 45 s ahead: still 3 s');
  assert.equal(retryAfterMs(date(at - 1_000), date(at)), 0, 'a date already past');
  const runnerClock = retryAfterMs(date(Date.now() + 5_000), 'not a date');
  assert.ok(runnerClock > 3_900 && runnerClock <= 5_000, 'no readable Date: the runner’s clock');
  assert.equal(retryAfterMs('2', date(at)), 2_000, 'delta-seconds need no Date');
});

test('Retry-After as a date 45 s off the runner’s clock: waited as the server meant; beyond the retry budget, not waited at all', async () => {
  const skewS = 45;
  let calls = 0;
  let waitS = 1;
  const server = createServer((_req, res) => {
    const serverNow = Date.now() + skewS * 1000;
    const date = new Date(Math.floor(serverNow / 1000) * 1000);
    if (++calls % 2 === 1)
      res
        .writeHead(429, {
          date: date.toUTCString(),
          'retry-after': new Date(date.getTime() + waitS * 1000).toUTCString(),
        })
        .end();
    else res.writeHead(200, { date: date.toUTCString() }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const http = new HttpClient({ retry: { maxRetries: 4, budgetMs: 5_000 } });
    const waited = await http.send('read', { method: 'GET', url, headers: {} });
    assert.equal(waited.response.status, 200);
    assert.deepEqual(waited.retries, [{ status: 429, waitedMs: 1_000 }], 'the server’s 1 s, not 46 s');
    waitS = 30;
    const started = Date.now();
    const refused = await http.send('read', { method: 'GET', url, headers: {} });
    assert.equal(refused.response.status, 429, 'a wait past the budget ends the retries: the answer stands');
    assert.equal(refused.retries.length, 0);
    assert.ok(Date.now() - started < 1_000);
  } finally {
    server.close();
  }
});

test('the reference’s Retry-After as an HTTP-date: whole seconds, at or after the Date it sends', async () => {
  const now = Date.parse('2026-01-01T00:00:00.300Z');
  assert.equal(retryAfterValue('seconds', 300, now), '1');
  assert.equal(retryAfterValue('seconds', 2_400, now), '3');
  assert.equal(retryAfterValue('date', 300, now), 'Thu, 01 Jan 2026 00:00:02 GMT');
  const ref = await startReference({ port: 0, rateLimitRps: 1, retryAfter: 'date', rateLimitHeaders: true });
  try {
    const http = new HttpClient({ retry: { maxRetries: 0, budgetMs: 0 } });
    const read = () =>
      http.send('read', { method: 'GET', url: `${ref.url}/payments/pacs002/v12/x`, headers: { 'x-client-id': 'c1' } });
    const first = await read();
    assert.equal(first.response.headers['ratelimit-policy'], '"default";q=1;w=1');
    assert.match(first.response.headers.ratelimit ?? '', /^"default";r=0;t=1$/);
    const limited = await read();
    assert.equal(limited.response.status, 429);
    const retryAt = Date.parse(limited.response.headers['retry-after'] ?? '');
    const date = Date.parse(limited.response.headers.date ?? '');
    assert.ok(
      Number.isFinite(retryAt) && retryAt >= date + 1_000,
      `${limited.response.headers['retry-after']} vs ${limited.response.headers.date}`,
    );
  } finally {
    await ref.close();
  }
});

/**
 * Workers as a run has them: separate HttpClients sharing one client and the run's folder, each with
 * its share of work, against the reference's limit, none of it declared.
 */
async function workersAgainstLimit(options: { rps: number; workers: number; requests: number; headers?: boolean }) {
  const ref = await startReference({ port: 0, rateLimitRps: options.rps, rateLimitHeaders: options.headers ?? false });
  const dir = tmp();
  try {
    const exchanges: Exchange[] = [];
    const started = Date.now();
    await Promise.all(
      Array.from({ length: options.workers }, async () => {
        const http = new HttpClient({
          learnedRate: { store: new FileRateLimitStore(dir), sharedBy: options.workers },
          onExchange: (e) => exchanges.push(e),
        });
        // Three requests in flight per worker, as a worker's tests and background work are.
        const each = options.requests / options.workers / 3;
        await Promise.all(
          Array.from({ length: 3 }, async () => {
            for (let i = 0; i < each; i++)
              await http.send('read', {
                method: 'GET',
                url: `${ref.url}/payments/pacs002/v12/unknown-${i}`,
                headers: { 'x-client-id': 'shared-client' },
              });
          }),
        );
      }),
    );
    return { exchanges, wallMs: Date.now() - started, limits: readLearnedLimits(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await ref.close();
  }
}

test('workers sharing one client learn an undeclared limit from its 429s: no request spends its retries, the pace settles near the limit', async () => {
  // Enough requests for the pace to come down from the burst: a token bucket lets its burst through in
  // the first second, so the first refusals measure several times the limit, and on a loaded machine
  // 204 requests sometimes ended before a refusal measured less than twice the limit (CI: 104.6).
  const requests = 300;
  const { exchanges, wallMs, limits } = await workersAgainstLimit({ rps: 50, workers: 4, requests });
  assert.equal(exchanges.length, requests);
  assert.equal(exchanges.filter((e) => e.response.status === 429).length, 0, 'none left refused');
  const bounced = exchanges.filter((e) => e.retries.filter((r) => r.status === 429).length > 2);
  assert.equal(bounced.length, 0, 'no request refused more than twice');
  const refused = exchanges.reduce((n, e) => n + e.retries.length, 0);
  assert.ok(refused < requests / 4, `a few 429s while learning, not one in four requests: ${refused}`);
  assert.equal(limits.length, 1);
  const pace = limits[0]!.rate;
  assert.ok(pace > 25 && pace < 100, `the last refusal came near the limit: ${pace}`);
  // 300 requests at 50/s take 5 s at best (a second's burst of 50 first); learning costs a little more,
  // and a loaded machine more again: this bound only catches a pace stuck far below the limit.
  assert.ok(wallMs < (requests / 50) * 1000 * 3, `${wallMs} ms`);
});

test('a target that states its limit in RateLimit-Policy is paced from its first answer: no 429 at all', async () => {
  const { exchanges, limits } = await workersAgainstLimit({ rps: 100, workers: 2, requests: 120, headers: true });
  assert.equal(exchanges.filter((e) => e.response.status === 429 || e.retries.length).length, 0);
  assert.equal(limits[0]?.source, 'stated');
  assert.equal(limits[0]?.rate, 100);
});

// ── discover measures the limit (engines/discovery/rate-limit.ts) ───────────────────────────────

const measureAgainst = async (options: Parameters<typeof startReference>[0]) => {
  const ref = await startReference({ port: 0, ...options });
  try {
    const once = new HttpClient({ retry: { maxRetries: 0, budgetMs: 0 } });
    return await measureRateLimit((i) =>
      once.send('probe', {
        method: 'GET',
        url: `${ref.url}/payments/pacs002/v12/probe-${i}`,
        headers: { 'x-client-id': 'measured' },
      }),
    );
  } finally {
    await ref.close();
  }
};

test('discover measures an undeclared limit: the pace of the reads accepted after the first 429, within bounded requests', async () => {
  const m = await measureAgainst({ rateLimitRps: 25, latencyMs: 20 });
  assert.equal(m.how, 'measured');
  assert.ok(Math.abs(m.requestsPerSecond! - 25) < 2.5, `25 requests/s measured as ${m.requestsPerSecond}`);
  assert.ok(m.requests <= RATE_MEASUREMENT_BOUNDS.maxRequests && m.refused > 0);
  // Within the same tolerance as the measurement: a loaded machine measures 24.4 as well as 25.
  assert.ok(
    Math.abs(declarableRate(m.requestsPerSecond!) - 25) <= 2,
    `declared ${declarableRate(m.requestsPerSecond!)}`,
  );
  assert.match(
    describeRateMeasurement(m),
    /^rate limit: 2\d\.\d requests\/s per client, .*\(\d+ requests, \d+ refused with 429, \d+\.\d s\)$/,
  );
});

test('discover: a target that states its limit is taken at its word after one read; one that refuses nothing is said so', async () => {
  const stated = await measureAgainst({ rateLimitRps: 25, rateLimitHeaders: true });
  assert.deepEqual(
    { ...stated, wallMs: 0 },
    { requestsPerSecond: 25, how: 'stated', requests: 1, refused: 0, sentAtMost: 0, wallMs: 0 },
  );
  const started = Date.now();
  const none = await measureAgainst({});
  assert.equal(none.how, 'not met');
  assert.equal(none.requestsPerSecond, undefined);
  assert.ok(none.requests <= RATE_MEASUREMENT_BOUNDS.maxRequests, `${none.requests} requests`);
  assert.ok(Date.now() - started <= RATE_MEASUREMENT_BOUNDS.maxMs + 2_000);
  assert.match(describeRateMeasurement(none), /none met .*up to \d+ requests\/s/);
});

test('acceptedRate: the slope of the accepted reads, whether the limiter spreads them or lets each second’s quota through at once', () => {
  const spread = Array.from({ length: 80 }, (_, i) => 1_000 + i * 25);
  assert.ok(Math.abs(acceptedRate(spread)! - 40) < 0.01);
  const windows = [
    ...Array.from({ length: 40 }, (_, i) => 1_000 + i),
    ...Array.from({ length: 40 }, (_, i) => 2_000 + i),
  ];
  assert.ok(Math.abs(acceptedRate(windows)! - 40) < 2, String(acceptedRate(windows)));
  assert.equal(acceptedRate([1, 2]), undefined);
});

test('rateLimitVerdict: --write declares the measured rate where the profile states none or more; a stricter one is kept', () => {
  const measured = {
    requestsPerSecond: 40.3,
    how: 'measured',
    requests: 300,
    refused: 150,
    sentAtMost: 80,
    wallMs: 3_000,
  } as const;
  assert.equal(rateLimitVerdict({}, measured).adopt, 40);
  assert.equal(rateLimitVerdict({ concurrency: { rateLimit: { requestsPerSecond: 50 } } }, measured).adopt, 40);
  const kept = rateLimitVerdict({ concurrency: { rateLimit: { requestsPerSecond: 30 } } }, measured);
  assert.equal(kept.adopt, undefined);
  assert.match(kept.lines[1]!, /✓ concurrency\.rateLimit\.requestsPerSecond {2}profile 30; within the 40/);
  const none = { how: 'not met', requests: 500, refused: 0, sentAtMost: 900, wallMs: 600 } as const;
  assert.equal(rateLimitVerdict({ concurrency: { rateLimit: { requestsPerSecond: 30 } } }, none).adopt, undefined);
  assert.equal(declarableRate(4.96), 5);
  assert.equal(declarableRate(2.04), 2);
  assert.equal(declarableRate(0.01), 0.1);
});

/** A class of requests as workers share it (fingerprinted in a run). */
const API_A = { origin: 'o', kind: 'api', client: 'A' } as const;

/** Two workers' send counts, shared through a fresh folder, on one clock. */
function twoWorkers(): { dir: string; clock: { now: number }; one: SendRates; two: SendRates } {
  const dir = tmp();
  const clock = { now: 1_000 };
  return { dir, clock, one: new SendRates(dir, 0, () => clock.now), two: new SendRates(dir, 1, () => clock.now) };
}

test('SendRates: each worker shares its last second of sends by class; the run’s counts add them up, a stale file counts for nothing', () => {
  const { dir, clock, one, two } = twoWorkers();
  try {
    one.startSharing();
    two.startSharing();
    const a = API_A;
    const token = { origin: 'o', kind: 'token', client: 'A' } as const;
    for (let i = 0; i < 5; i++) one.record(a, false);
    clock.now += 150;
    one.share();
    two.record(a, true);
    two.record(token, false);
    const seen = two.counts(true);
    assert.deepEqual(
      [...seen.values()].map((c) => [c.cls.kind, c.sent, c.refused, c.passed, [...c.workers].sort()]),
      [
        ['api', 6, 1, 5, [0, 1]],
        ['token', 1, 0, 1, [1]],
      ],
    );
    assert.ok(
      readdirSync(dir).every((f) => !f.includes('A')),
      'fingerprints only, never a client id (the classes are given fingerprinted)',
    );
    clock.now += 2_000;
    assert.equal(
      two.counts(true).size,
      0,
      'a second later nothing is in the last second, and the other’s file is stale',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SendRates: an answer that came within SHARE_MS of the send it answers is shared all the same, a moment later', async () => {
  const { dir, clock, one, two } = twoWorkers();
  try {
    one.startSharing();
    one.sent(API_A);
    clock.now += 50;
    one.answered(API_A, false);
    assert.equal([...two.counts(true).values()][0]!.passed, 0, 'not yet: shared at most every SHARE_MS');
    clock.now += 60;
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal([...two.counts(true).values()][0]!.passed, 1, 'then shared without another send');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SendRates of a run that meets no limit shares nothing and keeps only its last second', () => {
  let now = 0;
  const rates = new SendRates(undefined, 0, () => now);
  for (let i = 0; i < 3_000; i++) {
    now += 1;
    rates.record(API_A, false);
  }
  const kept = (rates as unknown as { own: Map<string, { sent: number[]; passed: number[] }> }).own;
  const [entry] = [...kept.values()];
  assert.ok(entry!.sent.length <= 1_000 && entry!.passed.length <= 1_000, `${entry!.sent.length} sends kept`);
});

test('workers sharing a client: a refusal measures what the run let through, one sent within RECOVERY_MS of the cut moves nothing however late its answer, and the probe stops at twice the estimate', () => {
  const { dir, clock, one, two } = twoWorkers();
  try {
    const learner = (rates: SendRates, worker: number) =>
      new AdaptiveRateLimit(new FileRateLimitStore(dir, 0, () => clock.now), 2, () => clock.now, {
        rates,
        worker,
        workers: 2,
      });
    const [a, b] = [learner(one, 0), learner(two, 1)];
    const cls = a.classOf('o', 'api', 'c');
    const key = a.bucketOf(cls);
    // A second of 40 requests, half from each worker, every one let through.
    for (let i = 0; i < 20; i++)
      for (const worker of [a, b]) {
        clock.now += 25;
        worker.sending(cls);
        worker.answered(cls, 200, {}, worker.epochOf(key), clock.now);
      }
    a.sending(cls);
    a.answered(cls, 429, {}, a.epochOf(key), clock.now);
    const cut = a.learned([key])[0]!;
    assert.ok(cut.rate > 35 && cut.rate <= 41, `refused at what both workers let through: ${cut.rate}`);
    clock.now += 1_500;
    b.answered(cls, 429, {}, b.epochOf(key), clock.now - 1_400);
    assert.equal(
      a.learned([key])[0]!.epoch,
      cut.epoch,
      'sent 100 ms after the cut, answered 1.5 s after it (a slow target): the same excess',
    );
    clock.now += 30_000;
    const interval = a.pace(key)!.intervalMs;
    assert.ok(
      Math.abs(interval - (1000 * 2) / (PROBE_CAP * cut.rate)) < 1e-6,
      `30 s on, a quiet bucket: twice the estimate, each of 2 workers its share (${interval} ms)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('letThrough: what a refusal measures, the answers that passed or, when more, the requests sent and not refused', () => {
  assert.equal(letThrough({ sent: 40, refused: 2, passed: 3 }), 38, 'a burst still in flight counts');
  assert.equal(
    letThrough({ sent: 10, refused: 2, passed: 30 }),
    30,
    'answers of requests sent over a second ago count',
  );
});

test('the token endpoint’s scope: refused alone again and again, a bucket of its own; then, refused when its client sent no other, one for the address', () => {
  let now = 10_000;
  const store = new MemoryRateLimitStore();
  const rates = new SendRates(undefined, 0, () => now);
  const limits = new AdaptiveRateLimit(store, 1, () => now, { rates, worker: 0, workers: 1 });
  const A = limits.classOf('o', 'api', 'A');
  const tokenA = limits.classOf('o', 'token', 'A');
  const tokenB = limits.classOf('o', 'token', 'B');
  assert.equal(limits.bucketOf(tokenA), limits.bucketOf(A), 'at first in the client’s bucket');
  const tick = () => {
    now += 30;
  };
  const answer = (cls: typeof tokenA, status: number) => {
    tick();
    const epoch = limits.epochOf(limits.bucketOf(cls));
    limits.sending(cls);
    limits.answered(cls, status, {}, epoch);
  };
  const refuseToken = (cls: typeof tokenA) => answer(cls, 429);
  for (let i = 0; i < 5; i++) answer(A, 200);
  refuseToken(tokenA);
  refuseToken(tokenA);
  answer(A, 429);
  const origin = A.origin;
  assert.equal(store.readScope(origin)?.own, 0, 'the client’s own refusal: start over');
  now += 1_000;
  for (let i = 0; i < 3; i++) {
    answer(A, 200);
    refuseToken(tokenA);
  }
  assert.equal(store.readScope(origin)?.scope, 'own');
  assert.notEqual(limits.bucketOf(tokenA), limits.bucketOf(A), 'its own bucket now');
  assert.notEqual(limits.bucketOf(tokenA), limits.bucketOf(tokenB), 'one per client');
  // Its own token requests of the last second refused: nothing said of the address.
  refuseToken(tokenA);
  assert.equal(store.readScope(origin)?.address, 0);
  for (let i = 0; i < 2; i++) {
    now += 1_500;
    answer(tokenB, 200);
    refuseToken(tokenA);
  }
  assert.equal(store.readScope(origin)?.scope, 'address');
  assert.equal(limits.bucketOf(tokenA), limits.bucketOf(tokenB), 'one bucket for every client');
  const learned = store.read(limits.bucketOf(tokenA));
  assert.deepEqual(learned?.bucket, { kind: 'token', per: 'address' });
  assert.match(
    describeLearnedLimits([learned!], [store.readScope(origin)!])!,
    /the token endpoint a bucket of its own for every client of the address, requests\/s: /,
  );
});

test('a declared limit: each client’s bucket at its share of the workers, the token endpoint’s apart, for every worker of the address', () => {
  const limits = new DeclaredRateLimit(
    { requestsPerSecond: 40, tokenEndpoint: { requestsPerSecond: 20, per: 'address' } },
    3,
    { rates: new SendRates(undefined, 0), worker: 0, workers: 6 },
  );
  const A = limits.classOf('o', 'api', 'A');
  const tokenA = limits.classOf('o', 'token', 'A');
  assert.equal(limits.intervalMs(limits.bucketOf(A)), 3000 / (40 * RATE_HEADROOM), 'the 3 workers sending as A');
  assert.equal(limits.intervalMs(limits.bucketOf(tokenA)), 6000 / (20 * RATE_HEADROOM), 'every worker of the run');
  assert.equal(limits.bucketOf(tokenA), limits.bucketOf(limits.classOf('o', 'token', 'B')));
});

test('the run’s shared schedule: whichever worker has a request reserves the bucket’s next slot, none past the rate', () => {
  const dir = tmp();
  try {
    let now = 5_000;
    const schedule = new SharedSchedule(dir, () => now);
    const [mine, other] = [0, 1].map(
      (worker) =>
        new DeclaredRateLimit({ requestsPerSecond: 10 / RATE_HEADROOM }, 2, {
          rates: new SendRates(dir, worker, () => now),
          worker,
          workers: 2,
          schedule,
        }),
    );
    const A = mine!.classOf('o', 'api', 'A');
    const [p1, p2] = [mine!, other!].map((l) => l.pace(l.bucketOf(A)));
    assert.equal(p1!.intervalMs, 0, 'no share of its own: the schedule spaces them');
    assert.equal(p1!.reserve!(), 0, 'the first request goes');
    assert.equal(p2!.reserve!(), 0, 'idle before: one more at once');
    assert.equal(p2!.reserve!(), 100, 'then one every 100 ms, whoever asks');
    assert.equal(p1!.reserve!(), 200);
    now += 1_000;
    // Reserved one at a time, each when its slot has come, as a worker's queue does: 10 a second.
    let sent = 0;
    const free = [now, now];
    for (let t = 0; t < 2_000; t += 5) {
      now += 5;
      [p1!, p2!].forEach((p, i) => {
        if (free[i]! > now) return;
        free[i] = now + p.reserve!()!;
        sent++;
      });
    }
    // 20 slots in 2 s, and at most one reserved ahead by each worker and one left unused a moment before.
    assert.ok(sent >= 20 && sent <= 23, `10 a second over 2 s, shared: ${sent}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
