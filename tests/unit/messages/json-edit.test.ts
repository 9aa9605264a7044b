/** messages/json-edit.ts: one value changed or one member added, every other byte kept. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getPath, inlineJson, removePath, setJsonValue, setPath } from '../../../messages/json-edit';

const local = readFileSync(path.join(__dirname, '..', '..', '..', 'environments', 'local.json'), 'utf8');
const lenient = readFileSync(path.join(__dirname, '..', '..', '..', 'environments', 'local-lenient.json'), 'utf8');

/** The lines that differ between two texts of the same line count. */
const changedLines = (a: string, b: string): string[] => {
  const x = a.split('\n');
  const y = b.split('\n');
  assert.equal(x.length, y.length, 'same number of lines');
  return y.filter((line, i) => line !== x[i]);
};

test('a one-line value is replaced on its line, nothing else moves', () => {
  const out = setJsonValue(local, ['expectations', 'refusalStatus', 'sca'], [403]);
  assert.deepEqual(changedLines(local, out), ['      "sca": [403],']);
  assert.deepEqual(getPath(JSON.parse(out), ['expectations', 'refusalStatus', 'sca']), [403]);
});

test('a string value and a value inside a one-line object', () => {
  const out = setJsonValue(
    setJsonValue(local, ['expectations', 'errorBody'], 'problem'),
    ['target', 'dialect'],
    'lenient',
  );
  assert.deepEqual(changedLines(local, out), [
    '  "target": { "kind": "reference", "dialect": "lenient" },',
    '    "errorBody": "problem",',
  ]);
});

test('a value spread over lines keeps the block style with its indentation', () => {
  const out = setJsonValue(lenient, ['expectations', 'statusCodes', 'pending'], ['PDNG']);
  const parsed = JSON.parse(out) as Record<string, unknown>;
  assert.deepEqual(getPath(parsed, ['expectations', 'statusCodes', 'pending']), ['PDNG']);
  assert.match(out, /\n {6}"pending": \[\n {8}"PDNG"\n {6}\],\n/);
  assert.equal(
    out.replace(/"pending": \[\s*"PDNG"\s*\]/, '').length,
    lenient.replace(/"pending": \[\s*"ACSP"\s*\]/, '').length,
  );
});

test('a missing member goes after the sibling named, with the siblings’ indentation', () => {
  const out = setJsonValue(local, ['messages', 'refund', 'root'], 'fitoFIPmtRvsl', { after: 'expectations' });
  const parsed = JSON.parse(out) as Record<string, unknown>;
  assert.deepEqual(Object.keys(parsed), [
    '$schema',
    'name',
    'description',
    'target',
    'tokenPath',
    'pathPrefix',
    'operations',
    'capabilities',
    'expectations',
    'messages',
    'polling',
    'prefetch',
    'slowLane',
    'exploration',
  ]);
  assert.match(out, /\n {2}\},\n {2}"messages": \{ "refund": \{ "root": "fitoFIPmtRvsl" \} \},\n {2}"polling"/);
  // Then a second member into the object just made.
  const twice = setJsonValue(out, ['messages', 'cancellation', 'root'], 'FIToFIPmtCxlReq');
  assert.deepEqual(getPath(JSON.parse(twice), ['messages']), {
    refund: { root: 'fitoFIPmtRvsl' },
    cancellation: { root: 'FIToFIPmtCxlReq' },
  });
});

test('a member added last to a block object, and to an empty one', () => {
  const out = setJsonValue(local, ['expectations', 'repeatBody'], 'id-only');
  assert.match(
    out,
    /"rejectTrigger": \{ "creditorAccount": "99999999", "reasonCode": "AC04" \},\n {4}"repeatBody": "id-only"\n {2}\},/,
  );
  assert.equal(setJsonValue('{}', ['a', 'b'], 1), '{ "a": { "b": 1 } }');
  assert.equal(setJsonValue('{\n  "x": {\n  }\n}\n', ['x', 'y'], [1, 2]), '{\n  "x": {\n    "y": [1, 2]\n  }\n}\n');
});

test('strings with escapes and brackets do not confuse the scanner', () => {
  const text = '{ "a": "x\\"}]{[", "b": [1, {"c": "}"}], "d": -1.5e3 }';
  assert.equal(setJsonValue(text, ['d'], 2), '{ "a": "x\\"}]{[", "b": [1, {"c": "}"}], "d": 2 }');
  assert.throws(() => setJsonValue(text, ['b', 'c'], 1), /"b" is not an object/);
});

test('inline JSON in the profiles’ style', () => {
  assert.equal(inlineJson({ path: '/x', versions: ['v1', 'v2'] }), '{ "path": "/x", "versions": ["v1", "v2"] }');
  assert.equal(inlineJson([]), '[]');
});

test('a parsed document: a dot path reads, sets and removes members and array elements', () => {
  const doc = { a: { list: [{ id: 'x' }, { id: 'y' }] } };
  assert.equal(getPath(doc, 'a.list.1.id'), 'y');
  assert.equal(getPath(doc, ['a', 'list', '0', 'id']), 'x');
  assert.equal(getPath(doc, 'a.list.2.id'), undefined);
  assert.equal(getPath(doc, 'a.list.id'), undefined, 'a member name does not index an array');
  setPath(doc, 'a.list.2', { id: 'z' });
  setPath(doc, 'a.list.0.id', 7);
  removePath(doc, 'a.list.1');
  assert.deepEqual(doc, { a: { list: [{ id: 7 }, { id: 'z' }] } });
});

test('a parsed document: an edit never creates a missing parent, and removing what is absent is an error', () => {
  const doc = { a: { b: 1 } };
  assert.throws(() => setPath(doc, 'a.x.y', 1), /its parent is not an object/);
  assert.throws(() => setPath({ list: [] }, 'list.3', 1), /not an element of its array/);
  assert.throws(() => removePath(doc, 'a.c'), /absent from the document/);
  assert.throws(() => setPath(doc, '', 1), /whole document/);
});
