/**
 * The client's seam to a test runner (client/context.ts): without one (discovery, scripts) a step is
 * the plain call and a failed precondition or an inconclusive answer is thrown; with a host, a test's
 * own work goes through it and background work never does.
 * Run: node --import tsx --test tests/unit/client/client-context.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allowForWaitOnBackground,
  ensure,
  inconclusive,
  PLAIN_HOST,
  PreconditionFailed,
  rethrowInTest,
  runInBackground,
  step,
  useTestHost,
  type TestHost,
} from '../../../client/context';
import { InfrastructureInconclusive } from '../../../client/inconclusive';

test('without a test runner: a step is the call, a failed precondition and an inconclusive answer are thrown', async () => {
  assert.equal(await step('a step', async () => 42), 42);
  assert.throws(
    () => ensure('P8-01', false, 'the payment is created'),
    (e: unknown) => e instanceof PreconditionFailed && e.rule === 'P8-01',
  );
  assert.throws(() => inconclusive(new InfrastructureInconclusive('503')), InfrastructureInconclusive);
});

test('with a host: a test’s own step and precondition go through it; background work never does', async (t) => {
  const seen: string[] = [];
  const host: TestHost = {
    testRunning: () => true,
    step: async (title, body) => {
      seen.push(`step ${title}`);
      return body();
    },
    fail: (title) => {
      seen.push(`fail ${title}`);
    },
    block: (failure) => {
      seen.push(`block ${failure.rule}`);
      throw failure;
    },
    endInconclusive: (failure) => {
      throw failure;
    },
    extendTimeout: (ms) => {
      seen.push(`extend ${ms}`);
    },
    skip: (reason) => {
      throw new Error(reason);
    },
  };
  useTestHost(host);
  t.after(() => useTestHost(PLAIN_HOST));
  await step('in the test', async () => undefined);
  assert.throws(() => ensure('STS-08', false, 'settles'));
  await runInBackground(async () => {
    await step('in the background', async () => undefined);
    // Background work waits on its own clock: no test's timeout is stretched for it.
    allowForWaitOnBackground(30_000);
    assert.throws(() => ensure('P8-02', false, 'names its id'), PreconditionFailed);
    // An observation taking from a pool of its own: the running test is another test.
    assert.throws(
      () => rethrowInTest(new PreconditionFailed('CXL-06', 'a pool cancellation is accepted')),
      PreconditionFailed,
    );
  });
  assert.throws(() => rethrowInTest(new PreconditionFailed('RTR-01', 'the return is accepted')), PreconditionFailed);
  // The test itself about to wait for work started ahead of it: its timeout grows by that wait's allowance.
  allowForWaitOnBackground(30_000);
  assert.deepEqual(seen, ['step in the test', 'block STS-08', 'block RTR-01', 'extend 30000']);
});
