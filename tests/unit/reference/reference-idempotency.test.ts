/**
 * The fault idempotency-second-payment-after-settlement (IDEM-02): a repeated msgId is answered 200
 * with the original body either way, but once the original has settled the faulty reference books,
 * settles and notifies a second payment. The clean reference never does, before or after settlement.
 * A manual-batching payer makes it visible without timing: send-batch lists what a repeat queued.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ReferenceHandle } from '../../../reference/server';
import { LoopbackServer } from '../../../transport/loopback-server';
import { newParty, paymentTo, post, startRef, waitFinal, PATHS, type Party } from '../support/reference-http';

let ref: ReferenceHandle;
let listener: LoopbackServer;
let beneficiary: Party;

before(async () => {
  ref = await startRef();
  listener = new LoopbackServer();
  await listener.start();
  beneficiary = await newParty(ref, 'beneficiary', { notificationUrl: listener.urlFor('beneficiary') });
});
after(async () => {
  await ref.close();
  await listener.stop();
});

async function sendBatch(payer: Party): Promise<string[]> {
  const response = await fetch(`${ref.url}/_admin/clients/${encodeURIComponent(payer.identity.clientId)}/send-batch`, {
    method: 'POST',
  });
  return ((await response.json()) as { sent: string[] }).sent;
}

/** Pays once, repeats before and after settlement; returns what each repeat queued and the ids notified. */
async function repeatAroundSettlement(
  faults: string[],
): Promise<{ queuedBefore: string[]; queuedAfter: string[]; notified: string[]; originalId: string }> {
  const payer = await newParty(ref, 'payer', { batching: 'manual', faults });
  const message = JSON.stringify(paymentTo(beneficiary, 12.34));
  const first = await post(ref, payer, PATHS.payment, message);
  assert.equal(first.status, 201);
  const originalId = first.json.data.paymentsServiceId as string;

  const before = await post(ref, payer, PATHS.payment, message);
  assert.equal(before.status, 200);
  assert.deepEqual(before.json, first.json);
  const queuedBefore = (await sendBatch(payer)).filter((id) => id !== originalId);
  assert.equal((await waitFinal(ref, payer, originalId)).txSts, 'ACCC');

  const after = await post(ref, payer, PATHS.payment, message);
  assert.equal(after.status, 200);
  assert.deepEqual(after.json, first.json);
  const queuedAfter = await sendBatch(payer);
  // Wait for the notification of everything that settled; extra ones come in the same passes.
  const expected = 1 + queuedAfter.length;
  const deadline = Date.now() + 10_000;
  let notified: string[] = [];
  for (;;) {
    notified = listener
      .matching(() => true)
      .map((n) => (n.body as { paymentsServiceId: string }).paymentsServiceId)
      .filter((id) => id === originalId || queuedAfter.includes(id));
    if (notified.length >= expected || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { queuedBefore, queuedAfter, notified, originalId };
}

test('a repeated msgId never books a second payment, before or after settlement', async () => {
  const { queuedBefore, queuedAfter, notified, originalId } = await repeatAroundSettlement([]);
  assert.deepEqual(queuedBefore, []);
  assert.deepEqual(queuedAfter, []);
  assert.deepEqual(notified, [originalId]);
});

test('fault idempotency-second-payment-after-settlement: correct before settlement, a notified twin after it', async () => {
  const { queuedBefore, queuedAfter, notified, originalId } = await repeatAroundSettlement([
    'idempotency-second-payment-after-settlement',
  ]);
  assert.deepEqual(queuedBefore, [], 'before settlement a repeat is handled correctly');
  assert.equal(queuedAfter.length, 1, 'after settlement the repeat queued a second payment');
  assert.deepEqual(new Set(notified), new Set([originalId, queuedAfter[0]]), 'the beneficiary was notified of both');
});
