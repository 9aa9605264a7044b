/**
 * Payment references are per client in the reference (XCL-01): another client's pacs.008 reusing a
 * payment's msgId and txId never changes which payment a return, refund or cancellation reaches.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ReferenceHandle } from '../../../reference/server';
import { buildCamt056 } from '../../../messages/camt056';
import { buildPacs008, freshIds } from '../../../messages/pacs008';
import {
  get,
  newParty,
  paySettled,
  paymentTo,
  post,
  refundOf,
  returnOf,
  startRef,
  waitFinal,
  PATHS,
  type Party,
} from '../support/reference-http';

let ref: ReferenceHandle;
let payer: Party;
let beneficiary: Party;
let intruder: Party;

before(async () => {
  ref = await startRef();
  payer = await newParty(ref, 'payer');
  beneficiary = await newParty(ref, 'beneficiary');
  intruder = await newParty(ref, 'intruder');
});
after(async () => {
  await ref.close();
});

/** A settled payment payer → `to`, then the intruder's later payment (to a bank outside the service)
 *  reusing its msgId and txId. */
async function shadowedPayment(to: Party, amount = 100) {
  const ids = freshIds();
  const genuine = paymentTo(to, amount, ids);
  await paySettled(ref, payer, genuine);
  const copy = buildPacs008({
    seed: `copy-${ids.msgId}`,
    amount: 5,
    ids: { msgId: ids.msgId, txId: ids.txId, endToEndId: `${ids.endToEndId}-X` },
  });
  await paySettled(ref, intruder, copy);
  return genuine;
}

test('another client reusing msgId and txId does not block the beneficiary’s refund and return', async () => {
  const forRefund = await shadowedPayment(beneficiary);
  const refund = await post(ref, beneficiary, PATHS.refund, refundOf(forRefund, 10));
  assert.equal(refund.status, 201, refund.text);
  assert.equal((await waitFinal(ref, beneficiary, refund.json.data.paymentsServiceId)).txSts, 'ACCC');

  const forReturn = await shadowedPayment(beneficiary);
  const ret = await post(ref, beneficiary, PATHS.return, returnOf(forReturn));
  assert.equal(ret.status, 201, ret.text);
});

test('the intruder can neither refund nor return the genuine payment (it is not its beneficiary)', async () => {
  const genuine = await shadowedPayment(beneficiary);
  const refund = await post(ref, intruder, PATHS.refund, refundOf(genuine, 10));
  assert.equal(refund.status, 400, refund.text);
  assert.match(refund.text, /AG02/);
  const ret = await post(ref, intruder, PATHS.return, returnOf(genuine));
  assert.equal(ret.status, 400, ret.text);
  assert.match(ret.text, /AG02/);
});

test('several incoming payments with one reference: orgnlEndToEndId and amount pick one; none picks → refused as unknown', async () => {
  const ids = freshIds();
  const fromPayer = paymentTo(beneficiary, 100, ids);
  await paySettled(ref, payer, fromPayer);
  // The intruder pays the same beneficiary with the same msgId and txId, another endToEndId and amount.
  const fromIntruder = paymentTo(beneficiary, 50, { ...ids, endToEndId: `${ids.endToEndId}-2` });
  await paySettled(ref, intruder, fromIntruder);

  // endToEndId and amount each name the payer's payment: a refund of 80 only fits that one.
  assert.equal((await post(ref, beneficiary, PATHS.refund, refundOf(fromPayer, 80))).status, 201);
  const byAmountOnly = refundOf(fromPayer, 10);
  delete (byAmountOnly.fIToFIPmtRvsl.txInf[0] as unknown as Record<string, unknown>).orgnlEndToEndId;
  assert.equal((await post(ref, beneficiary, PATHS.refund, byAmountOnly)).status, 201);
  // A return of the intruder's payment by its own endToEndId and amount.
  assert.equal((await post(ref, beneficiary, PATHS.return, returnOf(fromIntruder))).status, 201);

  // Same reference, endToEndId and amount twice: nothing tells them apart → refused (NOOR).
  const twinIds = freshIds();
  await paySettled(ref, payer, paymentTo(beneficiary, 20, twinIds));
  const twin = paymentTo(beneficiary, 20, twinIds);
  await paySettled(ref, intruder, twin);
  const ambiguous = await post(ref, beneficiary, PATHS.refund, refundOf(twin, 1));
  assert.equal(ambiguous.status, 400);
  assert.match(ambiguous.text, /NOOR/);
  const ambiguousReturn = await post(ref, beneficiary, PATHS.return, returnOf(twin));
  assert.equal(ambiguousReturn.status, 400);
  assert.match(ambiguousReturn.text, /NOOR/);
});

test('a cancellation reaches the caller’s own payment, never another client’s with the same reference', async () => {
  const manualPayer = await newParty(ref, 'payer-manual', { batching: 'manual' });
  const manualIntruder = await newParty(ref, 'intruder-manual', { batching: 'manual' });
  const ids = freshIds();
  const mine = paymentTo(beneficiary, 10, ids);
  const mineId = (await post(ref, manualPayer, PATHS.payment, mine)).json.data.paymentsServiceId as string;
  const theirsId = (await post(ref, manualIntruder, PATHS.payment, paymentTo(beneficiary, 10, ids))).json.data
    .paymentsServiceId as string;

  const cancel = await post(ref, manualPayer, PATHS.cancel, buildCamt056({ seed: 'xcl', original: mine }));
  assert.equal(cancel.status, 201, cancel.text);
  const resolution = await get(ref, manualPayer, `/payments/camt029/v09/${cancel.json.data.paymentsServiceId}`);
  assert.equal(resolution.json.rsltnOfInvstgtn.sts.conf, 'CNCL');
  assert.equal((await get(ref, manualPayer, PATHS.status(mineId))).json.fitoFIPmtStsRpt.txInfAndSts[0].txSts, 'CANC');
  assert.equal(
    (await get(ref, manualIntruder, PATHS.status(theirsId))).json.fitoFIPmtStsRpt.txInfAndSts[0].txSts,
    'PEND',
  );
});

test('fault payment-refs-global: the intruder’s later payment shadows the genuine one, the refund is refused', async () => {
  const faulty = await newParty(ref, 'beneficiary-faulty', { faults: ['payment-refs-global'] });
  const genuine = await shadowedPayment(faulty);
  const refund = await post(ref, faulty, PATHS.refund, refundOf(genuine, 10));
  assert.equal(refund.status, 400, refund.text);
  assert.match(refund.text, /AG02/);
});
