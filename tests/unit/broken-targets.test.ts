/**
 * Broken targets: the reference's REF_BROKEN modes (a payments API that answers 500 to everything,
 * refuses everything with 400, or is a mock that answers every POST with a canned 201 and every read
 * 404), each behind a token endpoint that works.
 * Run: node --import tsx --test tests/unit/broken-targets.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../reference/config';
import { CANNED_CREATED } from '../../reference/broken';
import { PATHS, get, newParty, paymentTo, post, startRef } from './reference-harness';

test('REF_BROKEN: the three modes, anything else refuses to start', () => {
  assert.equal(loadConfig({}, {}).broken, undefined);
  for (const mode of ['answers-500', 'refuses-400', 'mock'])
    assert.equal(loadConfig({}, { REF_BROKEN: mode }).broken, mode);
  assert.throws(() => loadConfig({}, { REF_BROKEN: 'accept-all' }), /REF_BROKEN must be one of/);
});

for (const [mode, post201, read] of [
  ['answers-500', 500, 500],
  ['refuses-400', 400, 400],
  ['mock', 201, 404],
] as const) {
  test(`REF_BROKEN=${mode}: tokens are issued; every payments POST gets ${post201}, every read ${read}`, async () => {
    const ref = await startRef({ broken: mode });
    try {
      const payer = await newParty(ref, 'payer');
      const beneficiary = await newParty(ref, 'beneficiary');
      const payment = paymentTo(beneficiary, 10);
      const submitted = await post(ref, payer, PATHS.payment, payment);
      assert.equal(submitted.status, post201);
      // Nothing is checked: a body that is not even JSON gets the same answer.
      assert.equal((await post(ref, payer, PATHS.return, 'not json')).status, post201);
      assert.equal((await post(ref, payer, PATHS.refund, {})).status, post201);
      if (mode === 'mock') {
        assert.deepEqual(submitted.json, CANNED_CREATED, 'one canned body, whatever was sent');
        const id = submitted.json.data.paymentsServiceId as string;
        assert.equal((await get(ref, payer, PATHS.status(id))).status, 404, 'the mock keeps nothing');
      }
      assert.equal((await get(ref, payer, PATHS.status('any'))).status, read);
      assert.equal((await get(ref, beneficiary, PATHS.incoming('any'))).status, read);
      assert.equal((await fetch(`${ref.url}/_admin/info`)).status, 200, 'the admin API is left alone');
    } finally {
      await ref.close();
    }
  });
}
