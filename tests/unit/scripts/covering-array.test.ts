/** scripts/lib/covering-array.ts: every pair covered, few rows, defaults where nothing is needed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  coverInRows,
  fewestRows,
  pairwiseCover,
  uncoveredPairs,
  valueCover,
  valueCoverPartition,
  type Factor,
  type Row,
} from '../../../scripts/lib/covering-array';

const factor = (name: string, ...values: (string | number)[]): Factor => ({ name, values });

/** The shape of the reference's dialect choices (GET /_admin/info dialectChoices): one 4-valued field, 8 three-valued, the rest two-valued, two fixed. */
const dialectShaped: Factor[] = [
  factor('refusalStatus.validation', 400, 422),
  factor('refusalStatus.malformed', 400, 422),
  factor('refusalStatus.unauthenticated', 401),
  factor('refusalStatus.forbidden', 403, 401, 404),
  factor('refusalStatus.sca', 401, 403, 400),
  factor('refusalStatus.notFound', 404),
  factor('refusalStatus.business', 400, 409, 422),
  factor('refusalStatus.mediaType', 415, 400),
  factor('refusalStatus.tooLarge', 413, 400),
  factor('refusalStatus.missingHeader', 400, 401),
  factor('refusalStatus.notAcceptable', 406, 400),
  factor('refusalStatus.conflict', 400, 409, 422),
  factor('errorBody', 'errors', 'problem', 'message'),
  factor('interimStatus', 'PEND', 'PDNG', 'ACSP', 'ACTC'),
  ...[
    'acceptedStatus',
    'rejectStatus',
    'expiresInType',
    'accessTokenFormat',
    'paymentsServiceIdFormat',
    'returnUnknownOriginal',
    'businessRejection',
    'idempotencyConflict',
    'assertionReplay',
    'cancellationRequestRoot',
    'resolutionRoot',
    'refundRoot',
    'extraInput',
    'utf8',
  ].map((n) => factor(n, `${n}-a`, `${n}-b`)),
  factor('repeatBody', 'original', 'empty', 'id-only'),
];

test('the dialect-shaped factors: every pair of values in some row, in at most 14 rows (at least 4 × 3 = 12 are needed)', () => {
  const rows = pairwiseCover(dialectShaped);
  assert.deepEqual(uncoveredPairs(dialectShaped, rows), []);
  assert.ok(rows.length >= 12 && rows.length <= 14, `${rows.length} rows`);
  for (const row of rows)
    assert.deepEqual(Object.keys(row).sort(), dialectShaped.map((f) => f.name).sort(), 'every row names every factor');
  // Deterministic: the matrix names its dialects by row number.
  assert.deepEqual(pairwiseCover(dialectShaped), rows);
});

test('valueCover: a few rows of a cover that hold every value of every factor', () => {
  const rows = pairwiseCover(dialectShaped);
  const picked = valueCover(dialectShaped, rows);
  for (const f of dialectShaped)
    for (const v of f.values)
      assert.ok(
        picked.some((i) => rows[i]![f.name] === v),
        `${f.name}=${v} is in a picked row`,
      );
  assert.ok(picked.length >= 4 && picked.length < rows.length, `${picked.length} of ${rows.length} rows`);
  assert.deepEqual(
    picked,
    [...picked].sort((a, b) => a - b),
    'in row order',
  );
  assert.deepEqual(valueCover([factor('a', 0, 1)], [{ a: 1 }, { a: 0 }, { a: 1 }]), [0, 1]);
  assert.throws(() => valueCover([factor('a', 0, 1)], [{ a: 0 }]), /no row holds a=1/);
});

test('valueCover: the fewest rows, where a greedy pick takes more', () => {
  // Greedy takes row 0 (every row holds three values), then needs two more; rows 1 and 2 hold them all.
  const abc = [factor('a', 0, 1), factor('b', 0, 1), factor('c', 0, 1)];
  const rows = [
    { a: 0, b: 0, c: 0 },
    { a: 1, b: 0, c: 1 },
    { a: 0, b: 1, c: 0 },
    { a: 1, b: 1, c: 1 },
  ];
  assert.deepEqual(valueCover(abc, rows), [0, 3], 'the first fewest set in row order');
  const skewed = [
    { a: 0, b: 0, c: 0 },
    { a: 1, b: 0, c: 0 },
    { a: 0, b: 1, c: 1 },
    { a: 1, b: 0, c: 1 },
  ];
  assert.deepEqual(valueCover(abc, skewed), [1, 2], 'not row 0 and two more');
});

test('small cases reach the optimum', () => {
  const three = [factor('a', 0, 1), factor('b', 0, 1), factor('c', 0, 1)];
  const rows = pairwiseCover(three);
  assert.equal(rows.length, 4);
  assert.deepEqual(uncoveredPairs(three, rows), []);
  const crossed = [factor('x', 1, 2, 3), factor('y', 'p', 'q')];
  assert.equal(pairwiseCover(crossed).length, 6, 'two factors: their full cross');
  assert.deepEqual(pairwiseCover([factor('only', 'a', 'b')]), [{ only: 'a' }, { only: 'b' }]);
});

test('a factor with one value is in every row; slots no pair needs take the first value', () => {
  const rows = pairwiseCover([
    factor('big', 1, 2, 3),
    factor('mid', 'x', 'y', 'z'),
    factor('fixed', 'always'),
    factor('bit', 'on', 'off'),
  ]);
  assert.ok(rows.every((r) => r.fixed === 'always'));
  assert.equal(rows.length, 9);
});

test('an uncovered pair is named', () => {
  const fs = [factor('a', 0, 1), factor('b', 0, 1)];
  assert.deepEqual(
    uncoveredPairs(fs, [
      { a: 0, b: 0 },
      { a: 1, b: 1 },
    ]),
    ['a=0 & b=1', 'a=1 & b=0'],
  );
});

/** Three three-valued factors, one fixed, four two-valued: 9 rows at the bound (3 × 3). */
const nineRowShape = [
  factor('p', 'p0', 'p1', 'p2'),
  factor('q', 'q0', 'q1', 'q2'),
  factor('r', 'r0', 'r1', 'r2'),
  factor('fixed', 'always'),
  ...['b1', 'b2', 'b3', 'b4'].map((n) => factor(n, `${n}-a`, `${n}-b`)),
];

test('coverInRows: three three-valued factors and four two-valued ones in 9 rows, the bound; deterministic', () => {
  const rows = coverInRows(nineRowShape, 9);
  assert.ok(rows, 'found');
  assert.equal(rows.length, 9);
  assert.deepEqual(uncoveredPairs(nineRowShape, rows), []);
  assert.ok(rows.every((r) => r.fixed === 'always'));
  assert.deepEqual(coverInRows(nineRowShape, 9), rows, 'the same rows again');
  assert.equal(coverInRows(nineRowShape, 8, 2), undefined, 'under the bound: none');
});

test('fewestRows: a cover with rows to spare comes back at the bound; one at the bound comes back as it is', () => {
  const padded = [...pairwiseCover(nineRowShape), ...pairwiseCover(nineRowShape).slice(0, 3)];
  assert.ok(padded.length > 9, `${padded.length} rows to start from`);
  const fewer = fewestRows(nineRowShape, padded);
  assert.equal(fewer.length, 9);
  assert.deepEqual(uncoveredPairs(nineRowShape, fewer), []);

  const bits = [factor('a', 0, 1), factor('b', 0, 1)];
  const rows: Row[] = [
    { a: 0, b: 0 },
    { a: 0, b: 1 },
    { a: 1, b: 0 },
    { a: 1, b: 1 },
  ];
  assert.deepEqual(fewestRows(bits, rows), rows);
});

test('the kept dialect cover (scripts/lib/dialect-cover.json) covers every pair at the bound: the two largest factors crossed', () => {
  const kept = JSON.parse(readFileSync('scripts/lib/dialect-cover.json', 'utf8')) as { factors: Factor[]; rows: Row[] };
  assert.deepEqual(uncoveredPairs(kept.factors, kept.rows), []);
  const [first, second] = kept.factors.map((f) => f.values.length).sort((a, b) => b - a);
  assert.equal(kept.rows.length, first! * second!);
});

test('valueCoverPartition: every row in one group, each group holding every value of every factor', () => {
  const kept = JSON.parse(readFileSync('scripts/lib/dialect-cover.json', 'utf8')) as { factors: Factor[]; rows: Row[] };
  const groups = valueCoverPartition(kept.factors, kept.rows);
  assert.ok(groups.length >= 2, `the kept cover's ${kept.rows.length} rows split into ${groups.length} groups`);
  assert.deepEqual(
    groups.flat().sort((a, b) => a - b),
    kept.rows.map((_, i) => i),
    'each row in exactly one group',
  );
  for (const [g, group] of groups.entries())
    for (const f of kept.factors)
      for (const v of f.values)
        assert.ok(
          group.some((i) => kept.rows[i]![f.name] === v),
          `group ${g + 1} holds ${f.name}=${v}`,
        );
});

test('valueCoverPartition: as many groups as the rarest value allows, else all the rows in one', () => {
  const a = factor('a', 0, 1);
  const b = factor('b', 'x', 'y');
  // Each value three times: three groups of two rows.
  const rows = [
    { a: 0, b: 'x' },
    { a: 1, b: 'y' },
    { a: 0, b: 'y' },
    { a: 1, b: 'x' },
    { a: 0, b: 'x' },
    { a: 1, b: 'y' },
  ];
  const groups = valueCoverPartition([a, b], rows);
  assert.equal(groups.length, 3);
  for (const group of groups) assert.deepEqual(new Set(group.map((i) => rows[i]!.a)), new Set([0, 1]));
  // b=y only once: no two groups can both hold it.
  assert.deepEqual(
    valueCoverPartition(
      [a, b],
      [
        { a: 0, b: 'x' },
        { a: 1, b: 'y' },
        { a: 0, b: 'x' },
        { a: 1, b: 'x' },
      ],
    ),
    [[0, 1, 2, 3]],
  );
});
