/**
 * The reference's money invariant (MNY-01): for one original payment, the return plus the refunds
 * never send back more than the original, whatever the order or concurrency, in exact cents.
 * Driven over real HTTP (admin registration, JWT-bearer tokens, SCA), and each MNY-01 fault of
 * reference/faults.ts is shown to break exactly what it names.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ReferenceHandle } from '../../../reference/server';
import {
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

before(async () => {
  ref = await startRef();
  payer = await newParty(ref, 'payer');
  beneficiary = await newParty(ref, 'beneficiary');
});
after(async () => {
  await ref.close();
});

function businessCode(answer: { json: { errors?: { code: string; message: string }[] } }): string {
  return answer.json.errors?.map((e) => `${e.code}: ${e.message}`).join('; ') ?? '';
}

test('a return after an accepted refund is refused (AM09): the return would send back more than the original', async () => {
  const original = paymentTo(beneficiary, 100);
  await paySettled(ref, payer, original);
  assert.equal((await post(ref, beneficiary, PATHS.refund, refundOf(original, 60))).status, 201);
  const ret = await post(ref, beneficiary, PATHS.return, returnOf(original));
  assert.equal(ret.status, 400, ret.text);
  assert.match(businessCode(ret), /^business_rule: .*refunded.*\(AM09\)/);
});

test('a refund after an accepted return is refused (DUPL)', async () => {
  const original = paymentTo(beneficiary, 100);
  await paySettled(ref, payer, original);
  assert.equal((await post(ref, beneficiary, PATHS.return, returnOf(original))).status, 201);
  const refund = await post(ref, beneficiary, PATHS.refund, refundOf(original, 60));
  assert.equal(refund.status, 400, refund.text);
  assert.match(businessCode(refund), /^business_rule: .*returned.*\(DUPL\)/);
});

test('the refund rules stay: several refunds may reach the full amount, never exceed it; a single full refund is refused', async () => {
  const original = paymentTo(beneficiary, 0.03);
  await paySettled(ref, payer, original);
  assert.equal((await post(ref, beneficiary, PATHS.refund, refundOf(original, 0.03))).status, 400);
  assert.equal((await post(ref, beneficiary, PATHS.refund, refundOf(original, 0.01))).status, 201);
  assert.equal((await post(ref, beneficiary, PATHS.refund, refundOf(original, 0.02))).status, 201);
  assert.equal((await post(ref, beneficiary, PATHS.refund, refundOf(original, 0.01))).status, 400);
});

/** One return and ten refunds of 10.00 of a 100.00 payment, all sent at once: accepted cents. */
async function concurrentReturnAndRefunds(as: Party): Promise<{ acceptedCents: number; statuses: number[] }> {
  const original = paymentTo(as, 100);
  await paySettled(ref, payer, original);
  const bodies: [string, number, unknown][] = [
    [PATHS.return, 10_000, returnOf(original)],
    ...Array.from({ length: 10 }, (): [string, number, unknown] => [PATHS.refund, 1_000, refundOf(original, 10)]),
  ];
  const answers = await Promise.all(bodies.map(([path, , message]) => post(ref, as, path, message)));
  let acceptedCents = 0;
  answers.forEach((a, i) => {
    if (a.status === 201) acceptedCents += bodies[i]![1];
  });
  return { acceptedCents, statuses: answers.map((a) => a.status) };
}

test('concurrent return and refunds: exactly the original goes back, never more (check and booking are atomic)', async () => {
  for (let round = 0; round < 3; round++) {
    const { acceptedCents, statuses } = await concurrentReturnAndRefunds(beneficiary);
    assert.equal(
      acceptedCents,
      10_000,
      `accepted ${acceptedCents} cents of a 10000-cent payment (${statuses.join(',')})`,
    );
  }
});

test('businessRejection=status: a return that will settle as rejected is not counted (a later refund is accepted)', async () => {
  const lenient = await startRef({ dialect: 'lenient' });
  try {
    const p = await newParty(lenient, 'payer');
    const b = await newParty(lenient, 'beneficiary');
    const original = paymentTo(b, 100);
    await paySettled(lenient, p, original);
    assert.equal((await post(lenient, b, PATHS.refund, refundOf(original, 60))).status, 201);
    const ret = await post(lenient, b, PATHS.return, returnOf(original));
    assert.equal(ret.status, 201, ret.text);
    const retFinal = await waitFinal(lenient, b, ret.json.data.paymentsServiceId);
    assert.equal(retFinal.txSts, 'RJCT');
    assert.equal(retFinal.stsRsnInf?.[0]?.rsn.cd, 'AM09');
    const rest = await post(lenient, b, PATHS.refund, refundOf(original, 40));
    assert.equal(rest.status, 201);
    assert.equal((await waitFinal(lenient, b, rest.json.data.paymentsServiceId)).txSts, 'ACSC');
    // Now the whole 100.00 went back by refunds: one more cent is refused (settles rejected).
    const extra = await post(lenient, b, PATHS.refund, refundOf(original, 0.01));
    assert.equal((await waitFinal(lenient, b, extra.json.data.paymentsServiceId)).txSts, 'RJCT');
  } finally {
    await lenient.close();
  }
});

test('fault money-return-after-refund: a return after a refund is accepted', async () => {
  const faulty = await newParty(ref, 'beneficiary-faulty', { faults: ['money-return-after-refund'] });
  const original = paymentTo(faulty, 100);
  await paySettled(ref, payer, original);
  assert.equal((await post(ref, faulty, PATHS.refund, refundOf(original, 60))).status, 201);
  assert.equal((await post(ref, faulty, PATHS.return, returnOf(original))).status, 201);
});

test('fault money-refund-after-return: a refund after a return is accepted', async () => {
  const faulty = await newParty(ref, 'beneficiary-faulty', { faults: ['money-refund-after-return'] });
  const original = paymentTo(faulty, 100);
  await paySettled(ref, payer, original);
  assert.equal((await post(ref, faulty, PATHS.return, returnOf(original))).status, 201);
  assert.equal((await post(ref, faulty, PATHS.refund, refundOf(original, 60))).status, 201);
});

test('fault money-check-then-act: concurrent return and refunds together send back more than the original', async () => {
  const faulty = await newParty(ref, 'beneficiary-faulty', { faults: ['money-check-then-act'] });
  const { acceptedCents, statuses } = await concurrentReturnAndRefunds(faulty);
  assert.ok(
    acceptedCents > 10_000,
    `the race window should let more than the original through (${statuses.join(',')})`,
  );
});

/**
 * Near the amount bound a double's step is 1/512 (values in [2^43, 2^44)), so a refund of 0.03 added
 * to a float total adds 15/512 = 0.0293: the float total falls behind the true one by 0.0007 per
 * refund. After a first refund of original - 0.50, exact cents allow 16 refunds of 0.03 (0.48); the
 * float total lets a 17th through (0.51 in all: 0.01 more than the original).
 */
async function refundsOf3PenceAfterAlmostAll(as: Party): Promise<number> {
  const original = paymentTo(as, 9_000_000_000_000);
  await paySettled(ref, payer, original);
  const first = await post(ref, as, PATHS.refund, refundOf(original, 8_999_999_999_999.5));
  assert.equal(first.status, 201, first.text);
  let accepted = 0;
  for (let i = 0; i < 20; i++) {
    const refund = await post(ref, as, PATHS.refund, refundOf(original, 0.03));
    if (refund.status !== 201) break;
    accepted++;
  }
  return accepted;
}

test('exact cents near the amount bound: 16 refunds of 0.03 fit in the last 0.50, a 17th is refused', async () => {
  assert.equal(await refundsOf3PenceAfterAlmostAll(beneficiary), 16);
});

test('fault money-float-amounts: float pounds let the refunds exceed the original near the bound', async () => {
  const faulty = await newParty(ref, 'beneficiary-faulty', { faults: ['money-float-amounts'] });
  assert.equal(await refundsOf3PenceAfterAlmostAll(faulty), 17);
});
