/**
 * The value comparisons checks use: JSON objects are unordered (RFC 8259 §4), so a server that writes
 * an amount's members in another order sends the same amount; `holds` lets a part of a message carry
 * members of its own. Run: node --import tsx --test tests/unit/checks/answers.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { equals, holds } from '../../../checks/answers';

test('equals ignores the order of an object’s members, nothing else', () => {
  assert.equal(equals({ ccy: 'GBP', value: 12.5 }, { value: 12.5, ccy: 'GBP' }).ok, true);
  assert.equal(equals({ value: 12.5, ccy: 'GBP' }, { value: 12.5, ccy: 'GBP', extra: 1 }).ok, false);
  assert.equal(equals({ value: 12.5, ccy: 'GBP', extra: 1 }, { value: 12.5, ccy: 'GBP' }).ok, false);
  assert.equal(equals({ value: 12.51, ccy: 'GBP' }, { value: 12.5, ccy: 'GBP' }).ok, false);
  assert.equal(equals({ value: '12.5', ccy: 'GBP' }, { value: 12.5, ccy: 'GBP' }).ok, false);
  assert.equal(equals(['a', 'b'], ['b', 'a']).ok, false, 'an array keeps its order');
  assert.equal(equals(undefined, 'PENDING').ok, false);
  assert.equal(equals('PENDING', 'PENDING').ok, true);
});

test('holds: every expected member, in any order, members of its own allowed; arrays whole', () => {
  const sent = { nm: 'Ann Lee', pstlAdr: { adrLine: ['1 High St', 'Leeds'] } };
  assert.equal(holds({ pstlAdr: { adrLine: ['1 High St', 'Leeds'], ctry: 'GB' }, nm: 'Ann Lee' }, sent).ok, true);
  assert.equal(holds({ nm: 'Ann Lee' }, sent).ok, false, 'the address is missing');
  assert.equal(holds({ nm: 'Ann Lee', pstlAdr: { adrLine: ['1 High St'] } }, sent).ok, false, 'a line is missing');
  assert.equal(holds({ nm: 'Ann Lee', pstlAdr: { adrLine: ['Leeds', '1 High St'] } }, sent).ok, false);
  assert.equal(holds({ nm: 'Anne Lee', pstlAdr: sent.pstlAdr }, sent).ok, false);
  assert.equal(holds(null, sent).ok, false);
  assert.equal(holds([sent], sent).ok, false);
});
