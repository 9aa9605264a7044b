/**
 * A test's wait on an observation still running (arrange/observations.ts): it lasts as long as the
 * observation, past any one polling timeout, and ends inconclusive, not failed, once the test has
 * waited ten of them. Measured: on a throttled sandbox (40 requests a second per client, undeclared)
 * RTR-22's eighteen return variants were still being paid, returned and followed when the test's
 * 90 s ran out, and the timeout failed it.
 * Run: node --require tsx/cjs --test tests/unit/arrange/observation-wait.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { observation, Observations, type ObservationWorker } from '../../../arrange/observations';
import { InfrastructureInconclusive } from '../../../client/inconclusive';
import type { TestRecord } from '../../../checks/host';
import type { Api } from '../../../client/api';
import { TAKES_ANNOTATION } from '../../../arrange/plan';

const TIMEOUT_MS = 100;

function observations(): Observations {
  const api = { background: () => api, adopt: async () => undefined, exchanges: [] } as unknown as Api;
  const worker = {
    runSeed: 'seed',
    api,
    granted: new Set(),
    profile: { name: 'p', polling: { timeoutMs: TIMEOUT_MS } },
  } as unknown as ObservationWorker;
  return new Observations(worker);
}

const taker = (name: string): TestRecord =>
  ({
    annotations: [{ type: TAKES_ANNOTATION, description: `observation:${name}` }],
    tags: [],
  }) as unknown as TestRecord;

test('an observation that ends after several polling timeouts is waited for, and its value taken', async () => {
  const slow = observation('slow', [], () => sleep(450).then(() => 'seen'));
  const started = Date.now();
  const value = await observations().take(slow, {} as Api, taker('slow'));
  assert.equal(value, 'seen');
  assert.ok(Date.now() - started >= 440);
});

test('a wait of ten polling timeouts on an observation ends inconclusive, naming it', async () => {
  const endless = observation('endless', [], () => new Promise<never>(() => {}));
  const started = Date.now();
  await assert.rejects(
    observations().take(endless, {} as Api, taker('endless')),
    (error: unknown) =>
      error instanceof InfrastructureInconclusive &&
      /the observation "endless" had not ended after 1 s of this test's wait/.test(error.message),
  );
  assert.ok(Date.now() - started >= 10 * TIMEOUT_MS);
});
