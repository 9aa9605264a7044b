/**
 * scripts/dialect-matrix.ts coverOf: the dialect matrix uses the kept covering array only for the
 * very fields and values it was computed for, and only while it still covers every pair; anything
 * else is searched for again. The kept file itself covers the factors it names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { coverOf, parseDialectArgs, TABLE_FILES } from '../../../scripts/dialect-matrix';
import { uncoveredPairs, valueCover, type Factor, type Row } from '../../../scripts/lib/covering-array';
import { root, tempDir } from '../support/cli';

const factors: Factor[] = [
  { name: 'a', values: [1, 2] },
  { name: 'b', values: ['x', 'y'] },
  { name: 'c', values: ['p', 'q'] },
];
const rows: Row[] = [
  { a: 1, b: 'x', c: 'p' },
  { a: 1, b: 'y', c: 'q' },
  { a: 2, b: 'x', c: 'q' },
  { a: 2, b: 'y', c: 'p' },
];

function kept(content: unknown): string {
  const file = path.join(tempDir('dialect-cover'), 'cover.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

test('the kept rows are used for exactly the fields and values they were computed for', () => {
  assert.deepEqual(coverOf(factors, kept({ factors, rows })), { rows, kept: true });
});

test('other values, a missing pair or no file: searched for again, and the search covers every pair', () => {
  const other = [...factors.slice(0, 2), { name: 'c', values: ['p', 'q', 'r'] }];
  for (const [wanted, file] of [
    [other, kept({ factors, rows })],
    [factors, kept({ factors, rows: rows.slice(1) })],
    [factors, path.join(tempDir('dialect-cover'), 'none.json')],
  ] as const) {
    const cover = coverOf(wanted, file);
    assert.equal(cover.kept, false);
    assert.deepEqual(uncoveredPairs(wanted, cover.rows), []);
  }
});

test('the committed cover covers every pair of the factors it names', () => {
  const committed = JSON.parse(readFileSync(path.join(root, 'scripts', 'lib', 'dialect-cover.json'), 'utf8')) as {
    factors: Factor[];
    rows: Row[];
  };
  assert.deepEqual(uncoveredPairs(committed.factors, committed.rows), []);
  assert.equal(coverOf(committed.factors).kept, true);
});

test('--report-every N: the report lane on dialects 1, 1+N…; every dialect by default; N a whole number of 1 or more', () => {
  assert.equal(parseDialectArgs([]).reportEvery, 1);
  assert.equal(parseDialectArgs(['--report-every', '2']).reportEvery, 2);
  assert.throws(() => parseDialectArgs(['--report-every', '0']), /--report-every takes a whole number/);
  assert.throws(() => parseDialectArgs(['--report-every', 'half']), /--report-every takes a whole number/);
});

test('--split-rows: off unless asked for, and every table-driven file it names still exists', () => {
  assert.equal(parseDialectArgs([]).splitRows, false);
  assert.equal(parseDialectArgs(['--split-rows']).splitRows, true);
  for (const file of TABLE_FILES) assert.ok(existsSync(path.join(root, 'tests', file)), `tests/${file} exists`);
});

test('--report-values: the report lane on dialects that together hold every value; not with --report-every', () => {
  assert.equal(parseDialectArgs([]).reportValues, false);
  assert.equal(parseDialectArgs(['--report-values']).reportValues, true);
  assert.throws(() => parseDialectArgs(['--report-values', '--report-every', '3']), /give one/);
  const committed = JSON.parse(readFileSync(path.join(root, 'scripts', 'lib', 'dialect-cover.json'), 'utf8')) as {
    factors: Factor[];
    rows: Row[];
  };
  const picked = valueCover(committed.factors, committed.rows);
  // Every third dialect (npm test's choice before) took seven lanes and left three values unreported.
  assert.ok(picked.length <= 6, `${picked.length} dialects: ${picked.map((i) => i + 1).join(', ')}`);
});

test('--value-cover: both lanes on the dialects that together hold every value; off unless asked for; not with --only', () => {
  assert.equal(parseDialectArgs([]).valueCover, false);
  assert.equal(parseDialectArgs(['--value-cover']).valueCover, true);
  assert.throws(() => parseDialectArgs(['--value-cover', '--only', '2']), /give one/);
});

test('--split-lanes: off unless asked for; not with --split-rows, nor with a report lane on some dialects only', () => {
  assert.equal(parseDialectArgs([]).splitLanes, false);
  assert.equal(parseDialectArgs(['--split-lanes']).splitLanes, true);
  assert.throws(() => parseDialectArgs(['--split-lanes', '--split-rows']), /give one/);
  // A table-driven test left to a report lane that a dialect does not have would never meet it.
  assert.throws(() => parseDialectArgs(['--split-lanes', '--report-every', '2']), /every dialect in both lanes/);
  assert.throws(() => parseDialectArgs(['--split-lanes', '--report-values']), /every dialect in both lanes/);
  assert.equal(parseDialectArgs(['--split-lanes', '--report-values', '--value-cover']).splitLanes, true);
});

test('--grep narrows every dialect to the tests whose title matches; none by default', () => {
  assert.equal(parseDialectArgs([]).grep, undefined);
  assert.equal(parseDialectArgs(['--grep', 'a return|a refund']).grep, 'a return|a refund');
});
