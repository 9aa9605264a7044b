/**
 * Single faults of the reference that need more than the suite's own kill matrix to show they do
 * what their description says (reference/faults.ts).
 * Run: node --import tsx --test tests/unit/reference/reference-faults.test.ts
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Harness, camt056, pacs008 } from '../support/reference-harness';

let h: Harness;
before(async () => {
  h = await Harness.start();
});
after(() => h.close());

test('payment-id-field-renamed: data.paymentsHubId instead of data.paymentsServiceId; the id works in later calls and repeats', async () => {
  const c = await h.client({ faults: ['payment-id-field-renamed'], batching: 'manual' });
  const t = await h.token(c);
  const p = pacs008();
  const res = await h.post('pacs008/v10', c, t, JSON.stringify(p));
  assert.equal(res.status, 201);
  const data = (res.json as { data: Record<string, unknown> }).data;
  assert.ok(!('paymentsServiceId' in data));
  const id = data.paymentsHubId;
  assert.equal(typeof id, 'string');
  assert.equal((await h.get(`pacs002/v12/${id as string}`, c, t)).status, 200);
  const again = await h.post('pacs008/v10', c, t, JSON.stringify(p));
  assert.deepEqual(again.json, { data });
  const cxl = await h.post('camt056/v08', c, t, JSON.stringify(camt056(p)));
  assert.equal(cxl.status, 201);
  assert.equal((await h.get(`camt029/v09/${id as string}`, c, t)).status, 200, 'camt029 by the original payment id');

  const clean = await h.client();
  const ok = await h.post('pacs008/v10', clean, await h.token(clean), JSON.stringify(pacs008()));
  assert.equal(typeof (ok.json as { data: Record<string, unknown> }).data.paymentsServiceId, 'string');
});
