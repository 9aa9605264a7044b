/**
 * The profile validator cached on disk (profile/profile-validator.ts) is ajv's own validator: it is
 * written once, loaded by every later process, and judges every profile and every broken one as a
 * validator compiled now does, to the error.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  compileProfileValidator,
  profileValidator,
  validatorCacheDir,
  type ProfileValidator,
} from '../../../profile/profile-validator';
import { environmentsDir, listProfileNames } from '../../../profile/profile';

type Json = Record<string, any>;
const read = (name: string): Json => JSON.parse(readFileSync(path.join(environmentsDir, name), 'utf8'));

const profiles = listProfileNames().map((name) => `${name}.json`);

/** Broken profiles, one field each: every kind of ajv error the profile schema gives. */
const broken: [string, (p: Json) => void][] = [
  ['a missing field', (p) => delete p.polling.timeoutMs],
  ['an unknown field', (p) => (p.capabilities.teleport = true)],
  ['a value outside its enum', (p) => (p.expectations.assumptions = 'sometimes')],
  ['a string for an integer', (p) => (p.polling.intervalMs = '50')],
  ['a status code out of range', (p) => (p.expectations.refusalStatus.validation = [200])],
  ['an unknown target kind', (p) => (p.target = { kind: 'cloud' })],
  [
    'a URL that is no URL',
    (p) => (p.target = { kind: 'remote', baseUrl: 'api dot example', authUrl: 'https://a.example', clients: {} }),
  ],
];

function verdict(validate: ProfileValidator, json: unknown): { valid: boolean; errors: unknown } {
  const valid = validate(json) === true;
  return {
    valid,
    errors: validate.errors?.map((e) => ({ path: e.instancePath, keyword: e.keyword, params: e.params })),
  };
}

/**
 * A cache folder of a test's own, where the real one is: the cached code requires ajv's runtime, which
 * resolves from inside node_modules/ (from a folder under /tmp it would not, and every call would compile).
 */
function cacheFolder(t: TestContext): string {
  mkdirSync(validatorCacheDir, { recursive: true });
  const dir = mkdtempSync(path.join(validatorCacheDir, 'test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('written once, then loaded from its file: the same verdict and errors as ajv compiling the schema now', (t) => {
  const cache = cacheFolder(t);
  const written = profileValidator(cache);
  const files = readdirSync(cache);
  assert.equal(files.length, 1, `one file in the cache: ${files}`);
  assert.match(files[0]!, /^profile-validator-[0-9a-f]{16}\.cjs$/);
  // Marked, so that what the second call returns can only have come from the file.
  const cached = path.join(cache, files[0]!);
  writeFileSync(cached, `${readFileSync(cached, 'utf8')}\nmodule.exports.fromCache = true;\n`);
  const loaded = profileValidator(cache) as ProfileValidator & { fromCache?: boolean };
  assert.equal(loaded.fromCache, true, 'the second call loads the file');
  assert.deepEqual(readdirSync(cache), files, 'and writes nothing');
  const fresh = compileProfileValidator().validate;
  const local = read('local.json');
  for (const name of profiles) {
    const json = read(name);
    assert.equal(verdict(fresh, json).valid, true, `${name} is valid`);
    assert.deepEqual(verdict(loaded, json), verdict(fresh, json), name);
    assert.deepEqual(verdict(written, json), verdict(fresh, json), name);
  }
  for (const [what, mutate] of broken) {
    const json = structuredClone(local);
    mutate(json);
    assert.equal(verdict(fresh, json).valid, false, `${what} is refused`);
    assert.deepEqual(verdict(loaded, json), verdict(fresh, json), what);
  }
});

test('a cached file that holds no validator (an empty file, say) is compiled and written again', (t) => {
  const cache = cacheFolder(t);
  profileValidator(cache);
  const [file] = readdirSync(cache);
  writeFileSync(path.join(cache, file!), '');
  const validate = profileValidator(cache);
  assert.equal(validate(read('local.json')), true);
  assert.equal(validate({ name: 'x' }), false);
  assert.ok(readFileSync(path.join(cache, file!), 'utf8').length > 1000, 'written again');
});

test('a cache folder that cannot be written: compiled in the process, still right', () => {
  const validate = profileValidator(path.join(environmentsDir, 'local.json', 'not-a-folder'));
  assert.equal(validate(read('local.json')), true);
  assert.equal(validate({ name: 'x' }), false);
});
