/** cases/field-rows.ts: the one row format of negative cases, its mutations and how they are applied. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyEdits, mutationsOf, otherUuid, ownValue, remove, set, twinValue, under } from '../../../cases/field-rows';
import { returnCases } from '../../../cases/pacs004-cases';
import { pacs008Cases } from '../../../cases/pacs008-cases';

test('a row gives removed (when required), the wrong type, then each value not allowed', () => {
  const cases = mutationsOf({
    path: 'a.b',
    rules: ['X-01'],
    kind: 'string',
    required: true,
    invalid: [{ label: 'empty', value: '' }],
  });
  assert.deepEqual(
    cases.map((c) => [c.kind, c.label, c.edits]),
    [
      ['removed', 'removed', [{ path: 'a.b', remove: true }]],
      ['wrongType', 'an object', [{ path: 'a.b', set: { text: 'x' } }]],
      ['invalid', 'empty', [{ path: 'a.b', set: '' }]],
    ],
  );
  assert.equal(
    mutationsOf({ path: 'n', rules: [], kind: 'number', wrongType: { label: 'an object', value: {} } })[0]!.label,
    'an object',
  );
});

test('values are read before the first edit, from the message or the twin as it was sent', () => {
  const message = { tx: { id: 'B', amount: 10, iban: 'GB82WEST12345698765432' }, total: 10 };
  const out = applyEdits(
    message,
    [
      set('tx.amount', ownValue('tx.amount', { plus: 1 })),
      set('total', ownValue('tx.amount', { plus: 1 })),
      set('tx.id', twinValue('tx.id')),
    ],
    { twin: { tx: { id: 'A' } } },
  );
  assert.deepEqual(out, { tx: { id: 'A', amount: 11, iban: 'GB82WEST12345698765432' }, total: 11 });
  assert.equal(
    (
      applyEdits(structuredClone(message), [
        set('tx.iban', ownValue('tx.iban', { ibanCheckDigitsBroken: true })),
      ]) as typeof message
    ).tx.iban,
    'GB83WEST12345698765432',
  );
  assert.throws(
    () => applyEdits(structuredClone(message), [set('tx.id', twinValue('tx.id'))]),
    /valid twin, which was not given/,
  );
});

test('edits under a root element, and edits of the whole message', () => {
  const body = { root: { a: 1 } };
  assert.deepEqual(applyEdits(structuredClone(body), under('root', [set('b', ownValue('a', { negated: true }))])), {
    root: { a: 1, b: -1 },
  });
  assert.deepEqual(applyEdits(structuredClone(body), [set('Root', ownValue('root')), remove('root')]), {
    Root: { a: 1 },
  });
  assert.deepEqual(applyEdits(structuredClone(body), [set('', ownValue('root'))]), { a: 1 });
});

test('every case of the pacs.008 and pacs.004 tables has a unique name and is data (edits, no function)', () => {
  for (const cases of [pacs008Cases, returnCases] as const) {
    const names = cases.map((c) => c.name);
    assert.equal(new Set(names).size, names.length, 'unique names');
    for (const c of cases)
      assert.ok(!Object.values(c).some((v) => typeof v === 'function'), `${c.name} holds no function`);
  }
});

test('pacs.004 has a wrong-type case for every row, and the rtrId row reads the twin (RTR-40)', () => {
  assert.ok(returnCases.filter((c) => / is (a number|a string|an object|a digit string)$/.test(c.name)).length >= 40);
  const reused = returnCases.find((c) => c.rules.includes('RTR-40'));
  assert.ok(reused, 'a case cites RTR-40');
  assert.equal(reused.outcome, 'reading', 'the spec names no result of a reused rtrId: the profile reads it');
  assert.deepEqual(reused.edits, [{ path: 'pmtRtr.txInf.0.rtrId', set: twinValue('pmtRtr.txInf.0.rtrId') }]);
});

test('otherUuid: another UUID of the same version and variant, the same for the same input', () => {
  const uuid = 'ffffffff-9dd5-4789-b8f9-83c0664c0804';
  assert.equal(otherUuid(uuid), '00000000-9dd5-4789-b8f9-83c0664c0804');
  assert.equal(otherUuid('0000000a-9dd5-4789-b8f9-83c0664c0804'), '0000000b-9dd5-4789-b8f9-83c0664c0804');
  assert.notEqual(otherUuid(uuid), uuid);
});
