/**
 * The pool's refill ahead (arrange/pool.ts aheadRefillSize): started once a worker holds no more than
 * its tests would take while a fill settles, sized to twice that, never beyond its share of what the
 * run still plans.
 * Run: node --import tsx --test tests/unit/arrange/pool-ahead.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aheadRefillSize } from '../../../arrange/pool';

// 10 payments a second over 10 s, fills of 10 s: 150 taken during a fill, with the margin.
const busy = { taken: 100, takingForMs: 10_000, fillMs: 10_000, stillPlanned: 1_000, workers: 2 };

test('a worker holding more than a fill’s worth of takes refills nothing', () => {
  assert.equal(aheadRefillSize({ ...busy, held: 151 }), 0);
});

test('one holding a fill’s worth or less refills up to twice that', () => {
  assert.equal(aheadRefillSize({ ...busy, held: 150 }), 150);
  assert.equal(aheadRefillSize({ ...busy, held: 0 }), 300);
});

test('never more than its share of what the run still plans, a fifth more', () => {
  // 100 still planned over 2 workers: 60 at most.
  assert.equal(aheadRefillSize({ ...busy, stillPlanned: 100, held: 10 }), 50);
  assert.equal(aheadRefillSize({ ...busy, stillPlanned: 10, held: 6 }), 0);
});

test('the first takes, a few milliseconds apart, count over a second, not as a burst', () => {
  // Two taken 1 ms in: 2 a second, 30 during a 10 s fill; a worker holding 40 waits.
  assert.equal(aheadRefillSize({ ...busy, taken: 2, takingForMs: 1, held: 40 }), 0);
});
