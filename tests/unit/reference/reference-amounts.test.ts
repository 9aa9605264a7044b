/**
 * Exact amounts in the reference (MNY-04, MNY-05): every amount value of every message it reads is a
 * JSON number with at most 2 decimals (minor units of GBP and EUR) and at most 9,999,999,999,999.99,
 * read from its shortest round-trip text and kept as integer cents. Unit checks of readAmount, then
 * the same over HTTP for pacs.008, pacs.004, pacs.007 and camt.056, and the two amount faults.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ReferenceHandle } from '../../../reference/server';
import { readAmount, MAX_AMOUNT_CENTS } from '../../../reference/validate/check';
import { buildCamt056 } from '../../../messages/camt056';
import {
  newParty,
  paySettled,
  paymentTo,
  post,
  refundOf,
  returnOf,
  startRef,
  PATHS,
  type Party,
} from '../support/reference-http';

test('readAmount: decimals from the shortest round-trip text, cents built from the digits', () => {
  const cases: [number, number, boolean, number | null][] = [
    // value, decimals, in bound, exact cents (null: not exact)
    [1, 0, true, 100],
    [0.29, 2, true, 29], // 0.29 * 100 is 28.999999999999996 in floats
    [100.1, 1, true, 10_010],
    [1.15, 2, true, 115], // 1.15 * 100 is 114.99999999999999
    [1.005, 3, true, null],
    [0.001, 3, true, null],
    [1e-7, 7, true, null], // String(1e-7) is "1e-7"
    [1.5e-7, 8, true, null],
    [9_999_999_999_999.99, 2, true, MAX_AMOUNT_CENTS],
    [10_000_000_000_000, 0, false, null],
    [1e18, 0, false, null],
    [1e21, 0, false, null], // String(1e21) is "1e+21"
    [1e308, 0, false, null],
  ];
  for (const [value, decimals, inBound, cents] of cases) {
    const r = readAmount(value);
    assert.equal(r.decimals, decimals, `decimals of ${value}`);
    assert.equal(r.inBound, inBound, `bound of ${value}`);
    if (cents !== null) assert.equal(r.cents, cents, `cents of ${value}`);
  }
});

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

const REFUSED = [1e308, 1e18, 1e13, 10_000_000_000_000.01, 0.001, 10.005, 1e-7, 1.5e-7];

function refusedAt(
  answer: { status: number; json: { errors?: { code: string; path?: string }[] } },
  pathEnd: string,
): boolean {
  return (
    answer.status === 400 &&
    (answer.json.errors ?? []).some((e) => e.code === 'invalid_value' && (e.path ?? '').endsWith(pathEnd))
  );
}

test('pacs.008: an amount with more than 2 decimals or beyond 9999999999999.99 is refused (400 on the value)', async () => {
  for (const value of REFUSED) {
    const answer = await post(ref, payer, PATHS.payment, withAmount(paymentTo(beneficiary, 1), value));
    assert.ok(
      refusedAt(answer, 'cdtTrfTxInf[0].intrBkSttlmAmt.value'),
      `${value}: ${answer.status} ${answer.text.slice(0, 300)}`,
    );
  }
});

test('pacs.008: the group total follows the same rules, and is compared with the transaction in exact cents', async () => {
  const sub = paymentTo(beneficiary, 1);
  sub.fitoFICstmrCdtTrf.grpHdr.ttlIntrBkSttlmAmt = { value: 1.001, ccy: 'GBP' };
  assert.ok(refusedAt(await post(ref, payer, PATHS.payment, sub), 'grpHdr.ttlIntrBkSttlmAmt.value'));
  const exact = paymentTo(beneficiary, 0.29);
  exact.fitoFICstmrCdtTrf.grpHdr.ttlIntrBkSttlmAmt = { value: 0.29, ccy: 'GBP' };
  assert.equal((await post(ref, payer, PATHS.payment, exact)).status, 201);
});

test('pacs.008: the largest amount and the smallest are accepted', async () => {
  for (const value of [9_999_999_999_999.99, 0.01, 100.1]) {
    const answer = await post(ref, payer, PATHS.payment, paymentTo(beneficiary, value));
    assert.equal(answer.status, 201, `${value}: ${answer.text.slice(0, 300)}`);
  }
});

test('pacs.004, pacs.007 and camt.056 amounts are refused the same way', async () => {
  const original = paymentTo(beneficiary, 100);
  await paySettled(ref, payer, original);
  for (const value of [1e308, 0.001]) {
    const ret = returnOf(original, value);
    assert.ok(
      refusedAt(await post(ref, beneficiary, PATHS.return, ret), 'txInf[0].rtrdIntrBkSttlmAmt.value'),
      `return ${value}`,
    );
    const chrgs = returnOf(original);
    chrgs.pmtRtr.txInf[0]!.chrgsInf!.amt.value = value;
    assert.ok(
      refusedAt(await post(ref, beneficiary, PATHS.return, chrgs), 'txInf[0].chrgsInf.amt.value'),
      `return charges ${value}`,
    );
    assert.ok(
      refusedAt(
        await post(ref, beneficiary, PATHS.refund, refundOf(original, value)),
        'txInf[0].rvsdIntrBkSttlmAmt.value',
      ),
      `refund ${value}`,
    );
    const refundOrgnl = refundOf(original, 1);
    refundOrgnl.fIToFIPmtRvsl.txInf[0]!.orgnlIntrBkSttlmAmt.value = value;
    assert.ok(
      refusedAt(await post(ref, beneficiary, PATHS.refund, refundOrgnl), 'txInf[0].orgnlIntrBkSttlmAmt.value'),
      `refund original ${value}`,
    );
    const cancel = buildCamt056({ seed: `amounts-${value}`, original });
    cancel.fitoFIPmtCxlReq.undrlyg[0]!.txInf[0]!.orgnlIntrBkSttlmAmt.value = value;
    assert.ok(
      refusedAt(await post(ref, payer, PATHS.cancel, cancel), 'txInf[0].orgnlIntrBkSttlmAmt.value'),
      `cancellation ${value}`,
    );
  }
});

test('fault amount-sub-minor-units: 3 decimals are accepted (rounded); beyond the bound still refused', async () => {
  const faulty = await newParty(ref, 'payer-faulty', { faults: ['amount-sub-minor-units'] });
  assert.equal((await post(ref, faulty, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 10.005))).status, 201);
  assert.equal((await post(ref, faulty, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 1e18))).status, 400);
});

test('fault amount-unbounded: 1e18 and 1e308 are accepted; 3 decimals still refused', async () => {
  const faulty = await newParty(ref, 'payer-faulty', { faults: ['amount-unbounded'] });
  assert.equal((await post(ref, faulty, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 1e18))).status, 201);
  assert.equal((await post(ref, faulty, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 1e308))).status, 201);
  assert.equal((await post(ref, faulty, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 10.005))).status, 400);
});

test('dialect amountPrecision/amountDigits accept: a conforming-lenient server books 10.005 rounded and takes 1e18; each reading alone', async () => {
  const lenient = await newParty(ref, 'payer-lenient', {
    dialect: { amountPrecision: 'accept', amountDigits: 'accept' },
  });
  for (const value of [10.005, 0.001, 1e18])
    assert.equal(
      (await post(ref, lenient, PATHS.payment, withAmount(paymentTo(beneficiary, 1), value))).status,
      201,
      `${value}`,
    );
  const decimalsOnly = await newParty(ref, 'payer-decimals', { dialect: { amountPrecision: 'accept' } });
  assert.equal(
    (await post(ref, decimalsOnly, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 10.005))).status,
    201,
  );
  assert.equal((await post(ref, decimalsOnly, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 1e18))).status, 400);
  const digitsOnly = await newParty(ref, 'payer-digits', { dialect: { amountDigits: 'accept' } });
  assert.equal((await post(ref, digitsOnly, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 1e18))).status, 201);
  assert.equal((await post(ref, digitsOnly, PATHS.payment, withAmount(paymentTo(beneficiary, 1), 10.005))).status, 400);
});

/** The message with its transaction amount set to `value` as is (the factory rounds to pence). */
function withAmount<T extends ReturnType<typeof paymentTo>>(message: T, value: number): T {
  message.fitoFICstmrCdtTrf.cdtTrfTxInf[0]!.intrBkSttlmAmt.value = value;
  return message;
}
