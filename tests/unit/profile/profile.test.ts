/**
 * A profile mistake must stop the run with one sentence that names the field, because the person
 * editing environments/<name>.json is a QA engineer, not someone who reads ajv output. Each case breaks
 * one field of the real local profile and checks that the message names THAT field.
 * Run: node --import tsx --test tests/unit/profile/profile.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  environmentsDir,
  listProfileNames,
  loadProfile,
  operationPath,
  parseProfile,
  ProfileError,
} from '../../../profile/profile';

/** A PEM header built at run time: no file in the repository looks like it holds a private key. */
const FAKE_PEM_BEGIN = ['-----BEGIN', 'PRIVATE', 'KEY-----'].join(' ');

const FILE = 'environments/local.json';
const local = JSON.parse(readFileSync(path.join(environmentsDir, 'local.json'), 'utf8')) as Record<string, unknown>;
// Mutations reach anywhere in the JSON.
type Json = any;
const copy = (): Json => structuredClone(local);

const remoteTarget = (): Json => ({
  kind: 'remote',
  baseUrl: 'https://api.sandbox.example',
  authUrl: 'https://auth.sandbox.example',
  clients: {
    primary: {
      clientId: 'PAY_CLIENT_ID',
      clientSecret: 'PAY_CLIENT_SECRET',
      privateKey: 'PAY_PRIVATE_KEY',
      kid: 'PAY_KID',
      iss: 'PAY_ISS',
    },
  },
});

function refusal(mutate: (p: Json) => void, file = FILE): string {
  const p = copy();
  mutate(p);
  try {
    parseProfile(p, file);
  } catch (error) {
    assert.ok(error instanceof ProfileError, `expected a ProfileError, got ${String(error)}`);
    assert.ok(!error.message.includes('\n'), 'one sentence, one line');
    return error.message;
  }
  assert.fail('the profile was accepted');
}

test('environments/local.json parses', () => {
  const profile = parseProfile(copy(), FILE);
  assert.equal(profile.name, 'local');
  assert.equal(profile.target.kind, 'reference');
  assert.equal(operationPath(profile, 'submitPayment'), '/payments/pacs008/v10');
  assert.equal(operationPath(profile, 'paymentStatus', 'v10', 'a/b'), '/payments/pacs002/v10/a%2Fb');
});

test('loadProfile("local") loads the same profile from disk', () => {
  assert.deepEqual(loadProfile('local'), parseProfile(copy(), FILE));
});

test('a valid remote profile parses', () => {
  const profile = parseProfile({ ...copy(), target: remoteTarget() }, FILE);
  assert.equal(profile.target.kind, 'remote');
});

const cases: { what: string; mutate: (p: Json) => void; message: RegExp }[] = [
  { what: 'missing name', mutate: (p) => delete p.name, message: /missing field "name"/ },
  {
    what: 'missing nested field',
    mutate: (p) => delete p.polling.timeoutMs,
    message: /missing field "polling\.timeoutMs"/,
  },
  {
    what: 'missing operation',
    mutate: (p) => delete p.operations.paymentStatus,
    message: /missing field "operations\.paymentStatus"/,
  },
  { what: 'unknown top-level field', mutate: (p) => (p.basUrl = 'x'), message: /unknown field "basUrl"/ },
  {
    what: 'unknown nested field',
    mutate: (p) => (p.capabilities.teleport = true),
    message: /unknown field "capabilities\.teleport"/,
  },
  {
    what: 'bad enum',
    mutate: (p) => (p.expectations.assumptions = 'sometimes'),
    message: /field "expectations\.assumptions" must be one of \["enforce","report"\]/,
  },
  {
    what: 'bad enum (nested choice)',
    mutate: (p) => (p.expectations.expiresIn = 'int'),
    message: /field "expectations\.expiresIn" must be one of/,
  },
  {
    what: 'a secondary without its sort code (it could not be paid as the beneficiary)',
    mutate: (p) => {
      p.target = remoteTarget();
      p.target.clients.secondary = { ...p.target.clients.primary, clientId: 'PAY_B_ID' };
    },
    message: /field "target\.clients\.secondary\.memberId" is required/,
  },
  {
    what: 'bad URL (not a URL)',
    mutate: (p) => (p.target = { ...remoteTarget(), baseUrl: 'api dot example' }),
    message: /field "target\.baseUrl"/,
  },
  {
    what: 'bad URL (not http)',
    mutate: (p) => (p.target = { ...remoteTarget(), authUrl: 'ftp://auth.example' }),
    message: /field "target\.authUrl"/,
  },
  {
    what: 'bad env var name (a value where a variable name belongs)',
    mutate: (p) => {
      const t = remoteTarget();
      t.clients.primary.clientSecret = 's3cr3t-value';
      p.target = t;
    },
    message: /field "target\.clients\.primary\.clientSecret"/,
  },
  {
    what: 'remote target missing authUrl (the error of the remote branch, not of the reference branch)',
    mutate: (p) => {
      const t = remoteTarget();
      delete t.authUrl;
      p.target = t;
    },
    message: /missing field "target\.authUrl"/,
  },
  {
    what: 'unknown target kind',
    mutate: (p) => (p.target = { kind: 'cloud' }),
    message: /field "target" must be \{"kind":"reference"\} or/,
  },
  {
    what: 'wrong type',
    mutate: (p) => (p.polling.intervalMs = '50'),
    message: /field "polling\.intervalMs" must be integer/,
  },
  {
    what: 'bad status code',
    mutate: (p) => (p.expectations.refusalStatus.validation = [200]),
    message: /field "expectations\.refusalStatus\.validation\.0"/,
  },
  {
    what: 'bad operation path',
    mutate: (p) => (p.operations.submitPayment.path = '/pacs008/v10'),
    message: /field "operations\.submitPayment\.path"/,
  },
  {
    what: 'name ≠ file name',
    mutate: (p) => (p.name = 'sandbox'),
    message: /field "name" is "sandbox" but must equal the file name "local"/,
  },
  {
    what: 'maxIntervalMs < intervalMs',
    mutate: (p) => {
      p.polling.intervalMs = 500;
      p.polling.maxIntervalMs = 100;
    },
    message: /field "polling\.maxIntervalMs" must be at least polling\.intervalMs/,
  },
];

for (const c of cases) {
  test(`refused, naming the field: ${c.what}`, () => {
    const message = refusal(c.mutate);
    assert.match(message, c.message);
    assert.ok(message.startsWith(`${FILE}: `), `the message names the file: ${message}`);
  });
}

test('a refusal never echoes a secret-looking value back', () => {
  const message = refusal((p) => {
    const t = remoteTarget();
    t.clients.primary.privateKey = `${FAKE_PEM_BEGIN}MIIEvQ`;
    p.target = t;
  });
  assert.ok(!message.includes('MIIEvQ'), message);
});

test('loadProfile of an unknown name lists the known profiles', () => {
  assert.throws(
    () => loadProfile('no-such-profile'),
    (error: unknown) => {
      assert.ok(error instanceof ProfileError);
      assert.match(error.message, /no profile "no-such-profile"/);
      for (const name of listProfileNames())
        assert.ok(error.message.includes(name), `${name} not listed: ${error.message}`);
      assert.ok(error.message.includes('local'));
      return true;
    },
  );
});

test('loadProfile in another folder: lists its profiles, refuses bad JSON with the file name', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'profiles-'));
  try {
    for (const name of ['alpha', 'beta'])
      writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ ...copy(), name }));
    writeFileSync(path.join(dir, 'alpha.deviations.json'), '{}');
    writeFileSync(path.join(dir, 'alpha.discovered.json'), '{}');
    writeFileSync(path.join(dir, 'broken.json'), '{ "name": ');
    assert.deepEqual(listProfileNames(dir), ['alpha', 'beta', 'broken']);
    assert.equal(loadProfile('beta', dir).name, 'beta');
    assert.throws(() => loadProfile('gamma', dir), /profiles here: alpha, beta, broken/);
    assert.throws(
      () => loadProfile('broken', dir),
      (e: unknown) =>
        e instanceof ProfileError &&
        /broken\.json:1:10: not valid JSON at line 1, column 10: Unexpected end of JSON input; the line reads: { "name":▸$/.test(
          e.message,
        ),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
