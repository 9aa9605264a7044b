/**
 * A learned limit's rate measured over the run's history (record/bucket-rates.ts): what a bucket let
 * through between its refusals. Histories here come from a token bucket simulated on the clock (a
 * rate, a second's burst), sent to at a rate above it, with quiet spells where the run sent less.
 * Run: node --require tsx/cjs --test tests/unit/record/bucket-rates.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measuredBucketRates, SATURATED_GAP_MS } from '../../../record/bucket-rates';
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

/** The sends, split round-robin over `workers` worker files, each answered 50 ms later by the bucket its key names. */
function history(sends: readonly Send[], buckets: Record<string, (at: number) => boolean>, workers = 3) {
  const files: HistoryLine[][] = Array.from({ length: workers }, () => []);
  [...sends]
    .sort((a, b) => a.at - b.at)
    .forEach((send, i) => {
      const key = send.op === 'token' ? 'token' : send.client;
      const passed = buckets[key]!(send.at);
      const lines = files[i % workers]!;
      const n = lines.length / 2 + 1;
      lines.push(
        { k: 'i', n, t: send.at, c: send.client, op: send.op ?? 'paymentStatus', m: 'GET', p: '/x' },
        { k: 'c', n, t: send.at + 50, s: passed ? 200 : 429 },
      );
    });
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

test('a bucket never refused, or refused with too little let through between, measures nothing', () => {
  const calm = measuredBucketRates(history(steady(10, 0, 10_000), { primary: bucket(20) }), 'client', (c) => c);
  assert.equal(calm.size, 0);
  // A one-off burst: refused a few times within a second, a handful let through between.
  const burst = [...steady(400, 0, 100), ...steady(2, 100, 10_000)];
  const once = measuredBucketRates(history(burst, { primary: bucket(20) }), 'client', (c) => c);
  assert.equal(once.size, 0);
});

test('a request that had no answer is not counted either way: it may never have reached the bucket', () => {
  const worker = workerHistory(undefined, [
    { k: 'i', n: 1, t: 0, c: 'primary', op: 'paymentStatus', m: 'GET', p: '/x' },
    { k: 'c', n: 1, t: 50, s: 429 },
    ...Array.from({ length: 30 }, (_, i): HistoryLine[] => [
      { k: 'i', n: i + 2, t: 10 + i * 30, c: 'primary', op: 'paymentStatus', m: 'GET', p: '/x' },
      { k: 'c', n: i + 2, t: 60 + i * 30, s: i < 20 ? 200 : 0, ...(i < 20 ? {} : { err: 'ECONNRESET' }) },
    ]).flat(),
    { k: 'i', n: 40, t: 1000, c: 'primary', op: 'paymentStatus', m: 'GET', p: '/x' },
    { k: 'c', n: 40, t: 1050, s: 429 },
  ]);
  near(measuredBucketRates([worker], 'client', (c) => c).get('client primary')?.rate, 20, 0.01);
});
