/**
 * npm test's keys made ahead (tests/unit/support/key-pool.ts): a unit-test process hands them out once
 * each, then makes its own, and no process it starts inherits them; node --test's own process, which
 * starts the test files' processes, keeps them for those.
 * Run: node --require tsx/cjs --test tests/unit/support/key-pool.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..', '..');
const made = Array.from({ length: 2 }, () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
);
const publicOf = (pem: string): string => createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString();

/** A process started with the preload, as node --test starts a test file's (NODE_TEST_CONTEXT) or not. */
function withPreload(testFile: boolean): { inherited: string | null; keys: string[] } {
  const code = `const { generateRsaKeyPair } = require('./transport/keys');
const keys = [1, 2, 3].map(() => generateRsaKeyPair().publicPem);
console.log(JSON.stringify({ inherited: process.env.PAYMENTS_KEY_POOL ?? null, keys }));`;
  const run = spawnSync(
    process.execPath,
    ['--require', 'tsx/cjs', '--require', './tests/unit/support/key-pool.ts', '-e', code],
    {
      cwd: root,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        PAYMENTS_KEY_POOL: JSON.stringify(made),
        ...(testFile ? { NODE_TEST_CONTEXT: 'child' } : {}),
      },
    },
  );
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as { inherited: string | null; keys: string[] };
}

test('a unit-test process hands out the keys made ahead once each, then makes its own; what it starts inherits none', () => {
  const { inherited, keys } = withPreload(true);
  assert.equal(inherited, null, 'the keys left the environment a child would inherit');
  assert.deepEqual(keys.slice(0, 2), made.map(publicOf), 'the keys made ahead, in turn');
  assert.ok(!made.map(publicOf).includes(keys[2]!), 'then a key made here');
});

test("node --test's own process keeps the keys for the test files it starts, and hands none out itself", () => {
  const { inherited, keys } = withPreload(false);
  assert.equal(inherited, JSON.stringify(made));
  assert.ok(keys.every((k) => !made.map(publicOf).includes(k)));
});
