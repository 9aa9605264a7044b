/**
 * Exact money (messages/money.ts): an amount is read from the text a JSON number is written as, never
 * by float arithmetic, and counted in integer minor units, so sums are exact at any size; the limits
 * of ISO 4217 (2 decimals for GBP and EUR) and ISO 20022 (18 digits) are recognised.
 * Run: node --import tsx --test tests/unit/messages/money.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  amountProblem,
  formatMinor,
  fractionDigits,
  minorToValue,
  readDecimal,
  showMinor,
  sumMinor,
  toMinor,
  totalDigits,
} from '../../../messages/money';

test('a number is read from its shortest round-trip text: digits and exponent, without float arithmetic', () => {
  assert.deepEqual(readDecimal(10.005), { negative: false, digits: '10005', exponent: -3 });
  assert.deepEqual(readDecimal(1e308), { negative: false, digits: '1', exponent: 308 });
  assert.deepEqual(readDecimal(1e-7), { negative: false, digits: '1', exponent: -7 });
  assert.deepEqual(readDecimal(-5.5), { negative: true, digits: '55', exponent: -1 });
  assert.deepEqual(readDecimal(0), { negative: false, digits: '0', exponent: 0 });
  assert.deepEqual(readDecimal(100), { negative: false, digits: '1', exponent: 2 });
  assert.equal(readDecimal(Number.NaN), undefined);
  assert.equal(readDecimal(Number.POSITIVE_INFINITY), undefined);
});

test('decimals and total digits as ISO counts them (XML Schema fractionDigits, totalDigits)', () => {
  assert.equal(fractionDigits(10.005), 3);
  assert.equal(fractionDigits(1.5), 1);
  assert.equal(fractionDigits(100), 0);
  assert.equal(fractionDigits(0.1 + 0.2), 17, '0.30000000000000004 is what a float sum writes');
  assert.equal(totalDigits(9999999999999.99), 15);
  assert.equal(totalDigits(1e17), 18);
  assert.equal(totalDigits(1e18), 19);
  assert.equal(totalDigits(0.001), 3);
  assert.equal(totalDigits(0), 1);
});

test('amountProblem: more decimals than GBP/EUR have, or more than 18 digits; none for an ordinary amount', () => {
  assert.equal(amountProblem(100.25), undefined);
  assert.equal(amountProblem(9000000000000), undefined);
  assert.equal(amountProblem(1e17), undefined, '18 digits are allowed');
  assert.equal(amountProblem(10.005), 'more decimals than the currency has');
  assert.equal(amountProblem(0.001), 'more decimals than the currency has');
  assert.equal(amountProblem(1e18), 'more than 18 digits');
  assert.equal(amountProblem(1e308), 'more than 18 digits');
  assert.equal(amountProblem(Number.NaN), 'not a finite number');
});

test('minor units are exact: 0.29 is 29 cents, 1e308 is a bigint, 10.005 has none', () => {
  assert.equal(toMinor(0.29), 29n);
  assert.equal(toMinor(8999999999999.99), 899999999999999n);
  assert.equal(toMinor(1e308), 10n ** 310n);
  assert.equal(toMinor(-5.5), -550n);
  assert.equal(toMinor(10.005), undefined);
  assert.equal(toMinor(10.005, 3), 10005n);
});

test('sums in minor units do not drift the way floating point does', () => {
  assert.notEqual(0.1 + 0.2, 0.3);
  assert.equal(sumMinor([toMinor(0.1)!, toMinor(0.2)!]), toMinor(0.3));
  // Near 9e12 a double's step is 1/512: 17 × 0.03 added in floats falls behind, in minor units it does not.
  let floats = 8999999999999.5;
  for (let i = 0; i < 17; i++) floats += 0.03;
  assert.ok(floats <= 9000000000000, 'the float total lets a 17th refund of 0.03 through');
  assert.equal(toMinor(8999999999999.5)! + 17n * 3n, 900000000000001n, 'exactly 0.01 over the original');
});

test('formatting: plain for messages, grouped for people; a JSON number only when it writes the amount exactly', () => {
  assert.equal(formatMinor(5n), '0.05');
  assert.equal(formatMinor(-123456n), '-1234.56');
  assert.equal(showMinor(900000000000000n), '9,000,000,000,000.00');
  assert.equal(showMinor(3n), '0.03');
  assert.equal(minorToValue(899999999999950n), 8999999999999.5);
  assert.equal(JSON.stringify(minorToValue(999999999999999n)), '9999999999999.99');
  assert.throws(() => minorToValue(9007199254740991n), /no exact JSON number/);
});
