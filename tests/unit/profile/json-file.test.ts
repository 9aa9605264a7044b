/**
 * Item "a JSON syntax error names the line and column": profiles and deviation files are edited by
 * hand; a syntax error in either is told as file:line:column with the offending line (a marker at the
 * column), by one helper (profile/json-file.ts) both loaders use, not "at position 61".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JsonSyntaxError, parseJsonText } from '../../../profile/json-file';
import { environmentsDir, loadProfile, ProfileError } from '../../../profile/profile';
import { DeviationsError, loadDeviations } from '../../../ledger/deviations';

const syntaxError = (text: string): JsonSyntaxError => {
  try {
    parseJsonText(text, 'f.json');
  } catch (error) {
    assert.ok(error instanceof JsonSyntaxError, String(error));
    return error;
  }
  assert.fail('parsed');
};
const where = (text: string): [number, number] => {
  const e = syntaxError(text);
  return [e.line, e.column];
};

test('line and column of every kind of V8 syntax error, with or without a stated position', () => {
  assert.deepEqual(where('{\n  "a": 1,\n}'), [3, 1], 'a trailing comma: the brace that follows it');
  assert.deepEqual(
    where('{\n  "a": tru\n}'),
    [2, 11],
    'a bad literal ("Unexpected token", no position stated): where it ends',
  );
  assert.deepEqual(where('{\n  "a": 1 "b": 2\n}'), [2, 10], 'a missing comma');
  assert.deepEqual(
    where('{\n  "a": [1, 2\n'),
    [2, 13],
    'an unterminated array: the end of the text, not the empty line after it',
  );
  assert.deepEqual(where('{"a": 1}}'), [1, 9], 'text after the document');
  assert.deepEqual(where("{\n\t'a': 1\n}"), [2, 2], 'single quotes after a tab');
  assert.deepEqual(where('{\r\n  "a": x\r\n}'), [2, 8], 'CRLF line ends');
  const e = syntaxError('{\n  "target": { "kind": "reference" },\n  "name": "x",\n}\n');
  assert.equal(
    e.message,
    'f.json:4:1: not valid JSON at line 4, column 1: Expected double-quoted property name; the line reads: ▸}',
  );
  assert.doesNotMatch(e.message, /position/);
});

test('the offending line is shown with a marker at the column, cut around it when long', () => {
  assert.equal(syntaxError('{\n    "versions": ["v10",]\n}').excerpt, '"versions": ["v10",▸]');
  const long = `{"a": "${'x'.repeat(300)}", "b": 1 "c": 2, "d": "${'y'.repeat(300)}"}`;
  const e = syntaxError(long);
  assert.equal(e.line, 1);
  assert.match(e.excerpt, /^….*"b": 1 ▸"c": 2.*…$/);
  assert.ok(e.excerpt.length <= 82, e.excerpt);
});

test('a profile with a syntax error: its file, line and column, and the line', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'json-profile-'));
  try {
    const broken = readFileSync(path.join(environmentsDir, 'local.json'), 'utf8').replace(
      '"name": "local",',
      '"name": "broken",,',
    );
    writeFileSync(path.join(dir, 'broken.json'), broken);
    const line = broken.split('\n').findIndex((l) => l.includes('"broken",,')) + 1;
    assert.throws(
      () => loadProfile('broken', dir),
      (e: unknown) =>
        e instanceof ProfileError &&
        new RegExp(
          `broken\\.json:${line}:\\d+: not valid JSON at line ${line}, column \\d+: .+; the line reads: "name": "broken",▸,$`,
        ).test(e.message),
    );
    // A byte-order mark (some Windows editors write one) is no syntax error.
    writeFileSync(
      path.join(dir, 'bom.json'),
      `\uFEFF${readFileSync(path.join(environmentsDir, 'local.json'), 'utf8').replace('"name": "local"', '"name": "bom"')}`,
    );
    assert.equal(loadProfile('bom', dir).name, 'bom');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a deviations file with a syntax error: its file, line and column, and the line', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'json-deviations-'));
  try {
    const file = path.join(dir, 'sandbox.deviations.json');
    writeFileSync(file, '[\n  {\n    "rule": "P8-01"\n    "reason": "missing comma"\n  }\n]\n');
    assert.throws(
      () => loadDeviations(file),
      (e: unknown) =>
        e instanceof DeviationsError &&
        e.message ===
          `${path.relative(process.cwd(), file)}:4:5: not valid JSON at line 4, column 5: Expected ',' or '}' after property value; the line reads: ▸"reason": "missing comma"`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
