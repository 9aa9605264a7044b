/**
 * A test's wait on a running pool fill (arrange/pool.ts whileFilling): it lasts as long as the fill,
 * past any one polling timeout, and ends inconclusive, not failed, once the test has waited ten of them
 * for its payments. Outside a test (the plain host) the time is not extended and the end is a throw.
 * Run: node --import tsx --test tests/unit/arrange/pool-wait.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { whileFilling } from '../../../arrange/pool';
import { InfrastructureInconclusive } from '../../../client/inconclusive';

test('a fill that delivers after several polling timeouts is waited for', async () => {
  const started = Date.now();
  await whileFilling(
    sleep(450).then(() => undefined),
    100,
    started,
  );
  assert.ok(Date.now() - started >= 440);
});

test('a wait of ten polling timeouts ends inconclusive, naming the pool', async () => {
  const started = Date.now();
  await assert.rejects(
    whileFilling(new Promise<void>(() => {}), 100, started),
    (error: unknown) =>
      error instanceof InfrastructureInconclusive &&
      /settled-payment pool had not delivered this test's payments after 1 s/.test(error.message),
  );
  assert.ok(Date.now() - started >= 1_000);
});
