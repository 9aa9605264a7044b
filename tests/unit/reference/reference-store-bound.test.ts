/**
 * The reference's in-memory store is bounded (REF_MAX_TRANSFERS): past the bound the oldest final
 * transfer (settled, rejected or cancelled) is evicted with all its index entries; transfers still
 * in flight are never evicted, and when nothing is final a new transfer is refused with 503.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '../../../reference/config';
import { buildCamt056 } from '../../../messages/camt056';
import {
  get,
  newParty,
  paySettled,
  paymentTo,
  post,
  refundOf,
  startRef,
  waitFinal,
  PATHS,
} from '../support/reference-http';

test('REF_MAX_TRANSFERS: default 200000, read from the environment', () => {
  assert.equal(loadConfig({}, {}).maxTransfers, 200_000);
  assert.equal(loadConfig({}, { REF_MAX_TRANSFERS: '50' }).maxTransfers, 50);
});

test('past the bound the oldest settled payment goes, with its id, idempotency and reference entries', async () => {
  const ref = await startRef({ maxTransfers: 3 });
  try {
    const payer = await newParty(ref, 'payer');
    const beneficiary = await newParty(ref, 'beneficiary');
    const messages = [
      paymentTo(beneficiary, 10),
      paymentTo(beneficiary, 20),
      paymentTo(beneficiary, 30),
      paymentTo(beneficiary, 40),
    ];
    const ids: string[] = [];
    for (const m of messages) ids.push(await paySettled(ref, payer, m));

    // The 4th evicted the 1st: unknown by id, and its msgId is free again (a new payment, 201).
    assert.equal((await get(ref, payer, PATHS.status(ids[0]!))).status, 404);
    assert.equal((await get(ref, beneficiary, PATHS.incoming(ids[0]!))).status, 404);
    for (const id of ids.slice(1)) assert.equal((await get(ref, payer, PATHS.status(id))).status, 200);
    // Its reference is gone too: a refund of it finds no original.
    const refund = await post(ref, beneficiary, PATHS.refund, refundOf(messages[0]!, 1));
    assert.equal(refund.status, 400);
    assert.match(refund.text, /NOOR/);
    const again = await post(ref, payer, PATHS.payment, messages[0]!);
    assert.equal(again.status, 201, 'the evicted msgId is no longer a repeat');
    assert.notEqual(again.json.data.paymentsServiceId, ids[0]);
  } finally {
    await ref.close();
  }
});

test('payments in flight are never evicted: a final one goes even if newer; none final → 503', async () => {
  const ref = await startRef({ maxTransfers: 3 });
  try {
    const manual = await newParty(ref, 'payer-manual', { batching: 'manual' });
    const auto = await newParty(ref, 'payer-auto');
    const beneficiary = await newParty(ref, 'beneficiary');
    const pendingId = (await post(ref, manual, PATHS.payment, paymentTo(beneficiary, 1))).json.data
      .paymentsServiceId as string;
    const settledId = await paySettled(ref, auto, paymentTo(beneficiary, 2));
    assert.equal((await post(ref, manual, PATHS.payment, paymentTo(beneficiary, 3))).status, 201);
    // Full. The oldest is in flight: the settled (newer) one is evicted instead.
    assert.equal((await post(ref, manual, PATHS.payment, paymentTo(beneficiary, 4))).status, 201);
    assert.equal((await get(ref, auto, PATHS.status(settledId))).status, 404);
    assert.equal((await get(ref, manual, PATHS.status(pendingId))).json.fitoFIPmtStsRpt.txInfAndSts[0].txSts, 'PEND');

    // All three in flight: a new transfer is refused, nothing is lost.
    const refused = await post(ref, auto, PATHS.payment, paymentTo(beneficiary, 5));
    assert.equal(refused.status, 503, refused.text);
    assert.equal((await get(ref, manual, PATHS.status(pendingId))).status, 200);

    // Once they settle there is room again.
    await fetch(`${ref.url}/_admin/clients/${encodeURIComponent(manual.identity.clientId)}/send-batch`, {
      method: 'POST',
    });
    await waitFinal(ref, manual, pendingId);
    assert.equal((await post(ref, auto, PATHS.payment, paymentTo(beneficiary, 5))).status, 201);
  } finally {
    await ref.close();
  }
});

test('a cancellation goes with its evicted payment', async () => {
  const ref = await startRef({ maxTransfers: 2 });
  try {
    const manual = await newParty(ref, 'payer-manual', { batching: 'manual' });
    const beneficiary = await newParty(ref, 'beneficiary');
    const original = paymentTo(beneficiary, 7);
    const paymentId = (await post(ref, manual, PATHS.payment, original)).json.data.paymentsServiceId as string;
    const cancel = await post(ref, manual, PATHS.cancel, buildCamt056({ seed: 'bound', original }));
    assert.equal(cancel.status, 201);
    assert.equal((await get(ref, manual, `/payments/camt029/v09/${paymentId}`)).status, 200);
    // The cancelled payment is final: two more payments evict it, and its cancellation with it.
    await post(ref, manual, PATHS.payment, paymentTo(beneficiary, 8));
    await post(ref, manual, PATHS.payment, paymentTo(beneficiary, 9));
    assert.equal((await get(ref, manual, PATHS.status(paymentId))).status, 404);
    assert.equal((await get(ref, manual, `/payments/camt029/v09/${paymentId}`)).status, 404);
    assert.equal((await get(ref, manual, `/payments/camt029/v09/${cancel.json.data.paymentsServiceId}`)).status, 404);
  } finally {
    await ref.close();
  }
});
