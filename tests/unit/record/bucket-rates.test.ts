/**
 * A learned limit's rate measured over the run's history (record/bucket-rates.ts): what a bucket let
 * through between its refusals. Histories here come from a token bucket simulated on the clock (a
 * rate, a second's burst), sent to at a rate above it, with quiet spells where the run sent less.
 * Run: node --require tsx/cjs --test tests/unit/record/bucket-rates.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_MEASURED_SPAN_MS, measuredBucketRates, SATURATED_GAP_MS } from '../../../record/bucket-rates';
import { workerHistory, type HistoryLine, type HistoryOperation } from '../../../record/history';

interface Send {
  at: number;
  client: string;
  op?: HistoryOperation;
}

/** A token bucket of `rate` a second holding a second's worth, as the embedded reference plays one. */
function bucket(rate: number): (at: number) => boolean {
  let tokens = rate;
  let last = 0;
  return (at) => {
    tokens = Math.min(rate, tokens + ((at - last) / 1000) * rate);
    last = at;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/** Sends evenly spaced at `perSecond` from `from` to `to` (ms). */
const steady = (perSecond: number, from: number, to: number, client = 'primary', op?: HistoryOperation): Send[] =>
  Array.from({ length: Math.floor(((to - from) / 1000) * perSecond) }, (_, i) => ({
    at: from + (i * 1000) / perSecond,
    client,
    ...(op ? { op } : {}),
  }));

/** A seeded draw in [0, 1). */
function draws(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 16_807) % 2_147_483_647) / 2_147_483_647;
}

/**
 * The sends, split round-robin over `workers` worker files, each reaching the bucket its key names
 * `latency(send)` ms after it was sent (50 ms unless told): the bucket answers in the order they reach
 * it, the history keeps when each was sent.
 */
function history(
  sends: readonly Send[],
  buckets: Record<string, (at: number) => boolean>,
  workers = 3,
  latency: () => number = () => 50,
  route: (send: Send) => string = (send) => (send.op === 'token' ? 'token' : send.client),
) {
  const files: HistoryLine[][] = Array.from({ length: workers }, () => []);
  const sent = [...sends]
    .sort((a, b) => a.at - b.at)
    .map((send, i) => ({ send, worker: i % workers, arrives: send.at + latency() }));
  const passed = new Map<(typeof sent)[number], boolean>();
  for (const s of [...sent].sort((a, b) => a.arrives - b.arrives)) passed.set(s, buckets[route(s.send)]!(s.arrives));
  for (const s of sent) {
    const lines = files[s.worker]!;
    const n = lines.length / 2 + 1;
    lines.push(
      { k: 'i', n, t: s.send.at, c: s.send.client, op: s.send.op ?? 'paymentStatus', m: 'GET', p: '/x' },
      { k: 'c', n, t: s.arrives + 5, s: passed.get(s) ? 200 : 429 },
    );
  }
  return files.map((lines) => workerHistory(undefined, lines));
}

const near = (actual: number | undefined, expected: number, within: number): void =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) <= within, `${actual} is not ${expected} ± ${within}`);

test('a bucket sent to above its rate: what it let through between refusals is its rate', () => {
  const rates = measuredBucketRates(history(steady(30, 0, 20_000), { primary: bucket(20) }), 'client', (c) => c);
  near(rates.get('client primary')?.rate, 20, 0.5);
});

test('a quiet spell between refusals is not a slower limit: only refusals at most SATURATED_GAP_MS apart count', () => {
  // Above the limit for 10 s, 30 s at a third of it (no refusal), above it again for 10 s.
  const sends = [...steady(30, 0, 10_000), ...steady(7, 10_000, 40_000), ...steady(30, 40_000, 50_000)];
  const rates = measuredBucketRates(history(sends, { primary: bucket(20) }), 'client', (c) => c);
  near(rates.get('client primary')?.rate, 20, 0.5);
  // Counted across the quiet spell, the refill the run did not use reads as a slower bucket.
  const across = measuredBucketRates(history(sends, { primary: bucket(20) }), 'client', (c) => c, Infinity);
  assert.ok((across.get('client primary')?.rate ?? 0) < 15, `${across.get('client primary')?.rate}`);
  assert.ok(SATURATED_GAP_MS < 30_000);
});

test("each client's bucket apart, and the token endpoint's as its scope says", () => {
  const sends = [
    ...steady(60, 0, 10_000, 'primary'),
    ...steady(25, 0, 10_000, 'secondary'),
    ...steady(8, 0, 10_000, 'primary', 'token'),
    ...steady(8, 0, 10_000, 'secondary', 'token'),
  ];
  const buckets = { primary: bucket(40), secondary: bucket(20), token: bucket(10) };
  const rates = measuredBucketRates(history(sends, buckets), 'address', (c) => c);
  near(rates.get('client primary')?.rate, 40, 1);
  near(rates.get('client secondary')?.rate, 20, 1);
  near(rates.get('token')?.rate, 10, 0.5);
});

test('requests reach the bucket in another order than they were sent: counted by send time, the rate holds', () => {
  const jitter = draws(7);
  const sends = steady(60, 0, 30_000);
  const rates = measuredBucketRates(
    history(sends, { primary: bucket(40) }, 6, () => 20 + jitter() * 600),
    'client',
    (c) => c,
  );
  near(rates.get('client primary')?.rate, 40, 1);
});

test("the token endpoint per client: each client's token requests a bucket of their own", () => {
  const sends = [
    ...steady(50, 0, 10_000, 'primary'),
    ...steady(15, 0, 10_000, 'primary', 'token'),
    ...steady(30, 0, 10_000, 'secondary', 'token'),
  ];
  const buckets = { primary: bucket(40), 'token primary': bucket(10), 'token secondary': bucket(20) };
  const perClient = (send: Send) => (send.op === 'token' ? `token ${send.client}` : send.client);
  const rates = measuredBucketRates(
    history(sends, buckets, 3, () => 50, perClient),
    'own',
    (c) => c,
  );
  near(rates.get('client primary')?.rate, 40, 1);
  near(rates.get('token primary')?.rate, 10, 0.5);
  near(rates.get('token secondary')?.rate, 20, 0.5);
  assert.equal(rates.get('token'), undefined);
});

test("a first second's storm alone measures nothing: sent together, they reach the bucket in another order than sent", () => {
  const jitter = draws(7);
  // 8 workers, 6 requests each within 30 ms; then the run paces under the limit, refused once every 8 s.
  const storm = Array.from({ length: 48 }, () => ({ at: Math.floor(jitter() * 30), client: 'primary' }));
  const later = [
    ...steady(18, 1_000, 60_000),
    ...Array.from({ length: 7 }, (_, i) => ({ at: 8_000 * (i + 1) + 1, client: 'primary' })),
  ];
  const rates = measuredBucketRates(
    history([...storm, ...later], { primary: bucket(20) }, 8, () => 20 + jitter() * 100),
    'client',
    (c) => c,
  );
  assert.equal(
    rates.size,
    0,
    `${JSON.stringify([...rates])}: under ${MIN_MEASURED_SPAN_MS} ms between refusals in all`,
  );
});

test('a bucket never refused, or refused with too little let through between, measures nothing', () => {
  const calm = measuredBucketRates(history(steady(10, 0, 10_000), { primary: bucket(20) }), 'client', (c) => c);
  assert.equal(calm.size, 0);
  // A one-off burst: refused a few times within a second, a handful let through between.
  const burst = [...steady(400, 0, 100), ...steady(2, 100, 10_000)];
  const once = measuredBucketRates(history(burst, { primary: bucket(20) }), 'client', (c) => c);
  assert.equal(once.size, 0);
});

test('a request that had no answer is not counted either way: it may never have reached the bucket', () => {
  const get = (n: number, t: number): HistoryLine => ({
    k: 'i',
    n,
    t,
    c: 'primary',
    op: 'paymentStatus',
    m: 'GET',
    p: '/x',
  });
  // Refused at 0 and 5 s; between them 100 answered and 30 that never were.
  const worker = workerHistory(undefined, [
    get(1, 0),
    { k: 'c', n: 1, t: 50, s: 429 },
    ...Array.from({ length: 130 }, (_, i): HistoryLine[] => [
      get(i + 2, 10 + i * 38),
      i < 100
        ? { k: 'c', n: i + 2, t: 60 + i * 38, s: 200 }
        : { k: 'c', n: i + 2, t: 60 + i * 38, s: 0, err: 'ECONNRESET' },
    ]).flat(),
    get(200, 5_000),
    { k: 'c', n: 200, t: 5_050, s: 429 },
  ]);
  near(measuredBucketRates([worker], 'client', (c) => c).get('client primary')?.rate, 20, 0.01);
});
