/**
 * A sandbox's conditions: the reference's knobs that play them (a rate limit per client, a
 * share of status reads answered 503, both with Retry-After), the token cache that renews a short-lived
 * token ahead of its expiry, and the inconclusive outcome what still fails for infrastructure gets:
 * never a failure, never a pass, its own count and exit status, never certified.
 * Run: node --import tsx --test tests/unit/reference/sandbox-conditions.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimiter, seededShare } from '../../../reference/sandbox-conditions';
import { startReference } from '../../../reference/server';
import { MemoryTokenCache, renewalMarginMs, saysTokenExpired } from '../../../client/api';
import {
  ruleOutcomes,
  describeSkip,
  INCONCLUSIVE_ANNOTATION,
  skipAnnotation,
  checkAnnotation,
} from '../../../ledger/outcomes';
import {
  InfrastructureInconclusive,
  describeInfrastructureAnswer,
  isInfrastructureAnswer,
  asInconclusive,
} from '../../../client/inconclusive';
import { summariseRules, verdictOf } from '../../../scripts/lib/certification';
import { runExitCode, EXIT_INCONCLUSIVE } from '../../../record/run-folder';
import { HttpClient, TransportFailure, type Exchange } from '../../../transport/http';
import type { ReportTest } from '../../../record/playwright-report';
import { reportTest, ruleFixture } from '../support/report-tests';
import type { ClientIdentity } from '../../../transport/client-jwts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadProfile, ProfileError, parseProfile } from '../../../profile/profile';
import { httpOptions } from '../../../fixtures/worker';
import { floorLimits } from '../../../runner/reporters/reporters';
import { remoteWorkers, workerCount } from '../../../runner/projects';
import {
  bucketFloors,
  describeBucketFloor,
  describeFloor,
  readRequestCounts,
  runFloor,
  writeRequestCount,
} from '../../../record/run-floor';

test("RateLimiter: a second's burst per client, then the wait until the next token", () => {
  const limiter = new RateLimiter(2);
  assert.equal(limiter.take('a', 0), 0);
  assert.equal(limiter.take('a', 0), 0);
  assert.equal(limiter.take('a', 0), 500, 'the third request in the same instant waits half a second');
  assert.equal(limiter.take('b', 0), 0, 'another client has its own bucket');
  assert.equal(limiter.take('a', 500), 0, 'a token came back after 500 ms');
});

test('seededShare: the same seed draws the same answers; the share is about the percentage', () => {
  const draw = (seed: number) => Array.from({ length: 2000 }, seededShare(seed, 3));
  assert.deepEqual(draw(7), draw(7));
  assert.notDeepEqual(draw(7), draw(8));
  const hits = draw(7).filter(Boolean).length;
  assert.ok(hits > 30 && hits < 95, `about 3 % of 2000, got ${hits}`);
  assert.equal(Array.from({ length: 100 }, seededShare(1, 0)).some(Boolean), false);
});

test('reference knobs: 429 over the rate limit and 503 on status reads, each with Retry-After; the admin API is never limited', async () => {
  const ref = await startReference({ port: 0, rateLimitRps: 2, status503Percent: 100 });
  try {
    const http = new HttpClient({ retry: { maxRetries: 0, budgetMs: 0 } });
    const status = (n: number) =>
      http.send('status', {
        method: 'GET',
        url: `${ref.url}/payments/pacs002/v12/id-${n}`,
        headers: { 'x-client-id': 'c1' },
      });
    const first = await status(1);
    assert.equal(first.response.status, 503);
    assert.equal(first.response.headers['retry-after'], '1');
    await status(2);
    const limited = await status(3);
    assert.equal(limited.response.status, 429);
    assert.ok(Number(limited.response.headers['retry-after']) >= 1);
    const other = await status(4).then(() =>
      http.send('other client', {
        method: 'GET',
        url: `${ref.url}/payments/pacs002/v12/x`,
        headers: { 'x-client-id': 'c2' },
      }),
    );
    assert.notEqual(other.response.status, 429, 'the limit is per client');
    for (let i = 0; i < 5; i++)
      assert.equal(
        (await http.send('admin', { method: 'GET', url: `${ref.url}/_admin/info`, headers: {} })).response.status,
        200,
      );
  } finally {
    await ref.close();
  }
});

test('a token endpoint with a bucket of its own: per address it counts every client’s token requests together, and none of them in the clients’ buckets', async () => {
  for (const per of ['address', 'client'] as const) {
    const ref = await startReference({ port: 0, rateLimitRps: 50, tokenRateLimitRps: 2, tokenRateLimitPer: per });
    try {
      const http = new HttpClient({ retry: { maxRetries: 0, budgetMs: 0 } });
      const token = (client: string) =>
        http.send('token', {
          method: 'POST',
          url: `${ref.url}/oauth/token`,
          headers: {
            authorization: `Basic ${Buffer.from(`${client}:s`).toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'grant_type=client_credentials',
        });
      const read = (client: string) =>
        http.send('read', {
          method: 'GET',
          url: `${ref.url}/payments/pacs002/v12/x`,
          headers: { 'x-client-id': client },
        });
      assert.notEqual((await token('c1')).response.status, 429);
      assert.notEqual((await token('c1')).response.status, 429);
      const third = await token('c1');
      assert.equal(third.response.status, 429, `${per}: the bucket holds 2`);
      assert.match(third.response.text, /REF_TOKEN_RATE_LIMIT_RPS/);
      assert.notEqual((await read('c1')).response.status, 429, `${per}: the client's own bucket is untouched`);
      assert.equal(
        (await token('c2')).response.status === 429,
        per === 'address',
        `${per}: another client's token request is ${per === 'address' ? '' : 'not '}refused`,
      );
    } finally {
      await ref.close();
    }
  }
});

const client = { clientId: 'c1', role: 'primary' } as ClientIdentity;

test('token cache: a 20 s token serves 15 s, a 300 s one 270 s; drop forgets it', () => {
  assert.equal(renewalMarginMs(20), 5_000);
  assert.equal(renewalMarginMs(300), 30_000);
  let now = 0;
  const cache = new MemoryTokenCache(() => now);
  cache.set(client, 'T', 20);
  now = 14_999;
  assert.equal(cache.get(client), 'T');
  now = 15_000;
  assert.equal(cache.get(client), undefined, 'renewed before it expires, not requested again for every call');
  cache.set(client, 'U', 300);
  now += 269_000;
  assert.equal(cache.get(client), 'U');
  cache.drop(client);
  assert.equal(cache.get(client), undefined);
});

const answer = (status: number, headers: Record<string, string> = {}, retries: Exchange['retries'] = []): Exchange => ({
  label: 'query status',
  request: { method: 'GET', url: 'http://t/payments/pacs002/v12/x', headers: {} },
  response: { status, headers, text: '', json: undefined },
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  retries,
});

test('a 401 renews the token only when it says, in RFC 6750 words, that the token expired', () => {
  assert.equal(
    saysTokenExpired(answer(401, { 'www-authenticate': 'Bearer realm="payments"' })),
    false,
    'a bare 401 is a refusal a test may have provoked',
  );
  assert.equal(
    saysTokenExpired(
      answer(401, {
        'www-authenticate': 'Bearer realm="p", error="invalid_token", error_description="The access token expired"',
      }),
    ),
    true,
  );
  assert.equal(
    saysTokenExpired(answer(403, { 'www-authenticate': 'Bearer error="invalid_token", error_description="expired"' })),
    false,
  );
});

test('infrastructure answers: 429, 502, 503, 504 after the retries, described with Retry-After and the retries', () => {
  for (const status of [429, 502, 503, 504]) assert.equal(isInfrastructureAnswer(answer(status)), true);
  for (const status of [200, 400, 401, 404, 500])
    assert.equal(isInfrastructureAnswer(answer(status)), false, `${status} is the API's answer`);
  assert.equal(
    describeInfrastructureAnswer(answer(503, { 'retry-after': '1' }, [{ status: 503, waitedMs: 1000 }])),
    'query status: GET /payments/pacs002/v12/x answered 503 with Retry-After 1, after 1 retry (503)',
  );
  const lost = new TransportFailure('read', answer(200).request, 'ECONNRESET', [], new Error('x'));
  assert.match(asInconclusive(lost)?.answer ?? '', /got no answer \(ECONNRESET\)/);
  assert.equal(asInconclusive(new Error('boom')), undefined, 'any other error stays an error');
});

const R = ruleFixture;
const T = reportTest;
const inconclusiveTest = (tags: string[]): ReportTest => {
  const failure = new InfrastructureInconclusive(
    'query status: GET /x answered 503 with Retry-After 1, after 4 retries (503, 503, 503, 503)',
  );
  return T(tags, 'skipped', [
    { type: INCONCLUSIVE_ANNOTATION, description: failure.answer },
    skipAnnotation(failure.reason),
  ]);
};

test('an inconclusive test is neither a failure nor a pass: its rules are skipped with the answer', () => {
  const failure = new InfrastructureInconclusive('x answered 503');
  assert.equal(describeSkip(failure.reason), 'inconclusive (infrastructure): x answered 503');
  const outcomes = ruleOutcomes({
    tags: ['@A-01'],
    annotations: [{ type: INCONCLUSIVE_ANNOTATION, description: 'x answered 503' }, skipAnnotation(failure.reason)],
    status: 'skipped',
  });
  assert.deepEqual(outcomes, [
    { rule: 'A-01', status: 'skipped', reason: { kind: 'inconclusive', answer: 'x answered 503' } },
  ]);
});

test('certify never certifies a rule one of whose tests was inconclusive, even when another test passed it; a failure still wins', () => {
  const local = loadProfile('local');
  const results = summariseRules(
    [R('A-01'), R('B-01'), R('C-01')],
    [
      T(['A-01'], 'passed'),
      inconclusiveTest(['A-01']),
      T(['B-01'], 'passed'),
      T(['C-01'], 'failed', [checkAnnotation({ rule: 'C-01', ok: false, what: 'x' })]),
      inconclusiveTest(['C-01']),
    ],
    local,
  );
  const byId = new Map(results.map((r) => [r.id, r]));
  assert.equal(byId.get('A-01')!.status, 'inconclusive');
  assert.match(byId.get('A-01')!.blockedBy![0]!, /^inconclusive \(infrastructure\): query status/);
  assert.equal(byId.get('B-01')!.status, 'passed');
  assert.equal(byId.get('C-01')!.status, 'failed');
  const verdict = verdictOf(results);
  assert.equal(verdict.certified, false);
  assert.deepEqual(
    verdict.inconclusive.map((r) => r.id),
    ['A-01'],
  );
});

test('exit status: 4 when tests were inconclusive and none failed; a failure is 1 whatever else', () => {
  assert.equal(EXIT_INCONCLUSIVE, 4);
  assert.equal(runExitCode('passed', { inconclusive: 0 }), 0);
  assert.equal(runExitCode('passed', {}), 0);
  assert.equal(runExitCode('passed', { inconclusive: 3 }), 4);
  assert.equal(runExitCode('failed', { inconclusive: 3 }), 1);
});

test('concurrency.retry429, the former name, is read as concurrency.retry; both at once is refused', async () => {
  const json = JSON.parse(readFileSync('environments/local.json', 'utf8')) as Record<string, unknown>;
  const old = parseProfile(
    { ...json, concurrency: { retry429: { maxRetries: 2, budgetMs: 500 } } },
    'environments/local.json',
  );
  assert.deepEqual(old.concurrency, { retry: { maxRetries: 2, budgetMs: 500 } });
  assert.throws(
    () =>
      parseProfile(
        { ...json, concurrency: { retry: { maxRetries: 1, budgetMs: 1 }, retry429: { maxRetries: 2, budgetMs: 500 } } },
        'environments/local.json',
      ),
    (e: unknown) => e instanceof ProfileError && /same setting/.test(e.message),
  );
});

test('the worker paces each declared client’s bucket to its share of the declared rate limit; registered clients are its own', async () => {
  const conditions = loadProfile('local-sandbox-conditions');
  assert.deepEqual(httpOptions(conditions, 6).declaredRate, {
    requestsPerSecond: 50,
    tokenEndpoint: { requestsPerSecond: 20, per: 'address' },
    sharedBy: 6,
  });
  assert.deepEqual(httpOptions(conditions, 6).retry, { maxRetries: 4, budgetMs: 30_000 }, 'retries on by default');
  assert.equal(httpOptions(conditions, 6).learnedRate, undefined, 'a declared rate is not learned');
  const local = httpOptions(loadProfile('local'), 2);
  assert.equal(local.requestsPerSecond, undefined, 'no declared rate: no pacing until a limit is met');
  assert.deepEqual(local.learnedRate, { sharedBy: 1 }, 'then learned, each registered client the worker’s own');
  const undeclared = httpOptions(loadProfile('local-sandbox-undeclared-rate'), 6, '/tmp/run/transcripts');
  assert.equal(undeclared.learnedRate?.sharedBy, 6, 'declared clients: every worker takes its share');
  assert.ok(undeclared.learnedRate?.store, 'shared through the run folder');
  assert.equal(undeclared.learnedRate?.shared?.workers, 6, 'with what every worker sends');
});

test('the floor of a run is measured against the limits the embedded reference plays, else those the profile declares', async () => {
  assert.deepEqual(floorLimits([loadProfile('local-sandbox-conditions')], {}), {
    source: 'played',
    perClient: 50,
    tokenEndpoint: { requestsPerSecond: 20, per: 'address' },
  });
  assert.deepEqual(floorLimits([loadProfile('local-sandbox-undeclared-rate')], {}), {
    source: 'played',
    perClient: 40,
    tokenEndpoint: { requestsPerSecond: 20, per: 'address' },
  });
  assert.equal(floorLimits([loadProfile('local')], {}), undefined);
  assert.deepEqual(
    floorLimits([loadProfile('local')], { REF_RATE_LIMIT_RPS: '25' }),
    { source: 'played', perClient: 25 },
    'a knob set in the shell',
  );
  const sandbox = loadProfile('sandbox');
  assert.deepEqual(
    floorLimits([{ ...sandbox, concurrency: { rateLimit: { requestsPerSecond: 30 } } }], {}),
    { source: 'declared', perClient: 30 },
    'a remote target: what its profile declares',
  );
});

test('a remote profile gets workers sized for round trips, not cores; a declared cap and PAYMENTS_WORKERS still win', async () => {
  const sandbox = loadProfile('sandbox');
  const settings = { workers: undefined } as unknown as Parameters<typeof workerCount>[1];
  assert.equal(remoteWorkers(2), 6);
  assert.equal(remoteWorkers(16), 8);
  assert.equal(workerCount([sandbox], settings, 2), 6);
  assert.equal(workerCount([loadProfile('local')], settings, 2), 2);
  assert.equal(workerCount([loadProfile('live')], settings, 2), 1, 'live declares 1');
  assert.equal(workerCount([sandbox], { workers: 3 } as unknown as Parameters<typeof workerCount>[1], 2), 3);
});

test('run floor: max(critical path × RTT, requests ÷ rate), from the transcripts', async () => {
  const at = (ms: number) => new Date(ms).toISOString();
  const exchanges = [
    // test a: three requests one after the other, and one alongside the second
    { test: 'a', startedAt: at(0), durationMs: 50 },
    { test: 'a', startedAt: at(60), durationMs: 50 },
    { test: 'a', startedAt: at(70), durationMs: 50 },
    { test: 'a', startedAt: at(130), durationMs: 50, retries: [{ status: 429, waitedMs: 1000 }] },
    { test: 'b', startedAt: at(0), durationMs: 80 },
  ];
  const floor = runFloor(exchanges, 2)!;
  assert.equal(floor.requests, 6, 'a retry is a request too');
  assert.equal(floor.criticalPath, 3);
  assert.equal(floor.criticalTest, 'a');
  assert.equal(floor.rttMs, 50);
  assert.equal(floor.floorMs, 3_000, '6 requests at 2/s outlast 3 × 50 ms');
  assert.match(describeFloor(floor, 2, 4_500), /wall 4\.5 s, floor 3\.0 s .*1\.50× the floor/);
  assert.equal(runFloor([], 2), undefined);
});

test("run floor: the workers' own count of requests (background work included) wins over the transcripts'", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'floor-'));
  try {
    assert.equal(readRequestCounts(dir), undefined);
    writeRequestCount(dir, 0, 30);
    writeRequestCount(dir, 3, 12);
    assert.equal(readRequestCounts(dir), 42);
    const floor = runFloor(
      [{ test: 'a', startedAt: new Date(0).toISOString(), durationMs: 50 }],
      10,
      readRequestCounts(dir),
    )!;
    assert.equal(floor.requests, 42);
    assert.equal(floor.floorMs, 4_200);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run floor by bucket: each client’s requests at its rate, the token endpoint’s apart; the busiest bucket bounds the run, not every request at one rate', async () => {
  const classes = [
    { origin: 'o', kind: 'api' as const, client: 'p', role: 'primary', sent: 2_320, refused: 12 },
    { origin: 'o', kind: 'api' as const, client: 's', role: 'secondary', sent: 746, refused: 0 },
    { origin: 'o', kind: 'token' as const, client: 'p', role: 'primary', sent: 150, refused: 10 },
    { origin: 'o', kind: 'token' as const, client: 's', role: 'secondary', sent: 60, refused: 0 },
  ];
  const played = {
    source: 'played' as const,
    scope: 'address' as const,
    clientRate: () => 40,
    tokenRate: 20,
    words: '40/s per client; the token endpoint 20/s for every client of the address',
  };
  const buckets = bucketFloors(classes, played);
  assert.deepEqual(
    buckets.map((b) => [b.name, b.requests, b.rate, b.floorMs]),
    [
      ['client primary', 2_308, 40, 57_700],
      ['client secondary', 746, 40, 18_650],
      ['token endpoint (every client)', 200, 20, 10_000],
    ],
  );
  const floor = runFloor([{ test: 'a', startedAt: new Date(0).toISOString(), durationMs: 50 }], buckets, 3_270)!;
  assert.equal(floor.floorMs, 57_700, 'the busiest bucket, not 3,270 requests at 40/s');
  const lines = describeBucketFloor(floor, played, 69_240);
  assert.equal(
    lines[0],
    'Rate limits (as the embedded reference plays them): 40/s per client; the token endpoint 20/s for every client of the address',
  );
  assert.match(lines[1]!, /^ {2}client primary +2308 requests ÷ 40\/s = 57\.7 s$/);
  assert.equal(lines.at(-1), 'wall 69.2 s, floor 57.7 s (client primary): 1.20× the floor');
  const shared = bucketFloors(classes, { ...played, scope: 'client' });
  assert.equal(shared[0]!.requests, 2_308 + 140, 'token requests in their client’s bucket');
  // Weak-key clients, a token request each in their own bucket: one line for them all.
  const weak = ['ec', 'rsa1024'].map((role) => ({
    origin: 'o',
    kind: 'api' as const,
    client: role,
    role,
    sent: 1,
    refused: 0,
  }));
  const folded = describeBucketFloor(
    runFloor(
      [{ test: 'a', startedAt: new Date(0).toISOString(), durationMs: 50 }],
      bucketFloors([...classes, ...weak], played),
    )!,
    played,
    69_240,
  );
  assert.equal(folded.length, lines.length + 1);
  assert.equal(folded.at(-3), '  2 more buckets, 2 requests in all: under 50 ms each');
});
