/**
 * Item "fail fast on unset secrets": a remote profile's secret variables (target.clients.* and
 * target.testJwts) are checked before any test runs and before the reachability check; the run stops
 * in one sentence naming every unset variable, with no stack, in well under 15 s. An unreachable
 * target stops it in one clean sentence too. Neither leaves a run folder behind.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadProfile, parseProfile } from '../../../profile/profile';
import { secretVariables } from '../../../profile/profile';
import { unsetSecretsSentence } from '../../../runner/projects';
import { cleanEnv, dummySecrets, runPlaywrightCli, tempDir } from '../support/cli';

const sandbox = loadProfile('sandbox');
const SANDBOX_VARS = [
  'PAYMENTS_SANDBOX_CLIENT_ID',
  'PAYMENTS_SANDBOX_CLIENT_SECRET',
  'PAYMENTS_SANDBOX_PRIVATE_KEY',
  'PAYMENTS_SANDBOX_KID',
  'PAYMENTS_SANDBOX_ISS',
  'PAYMENTS_SANDBOX_MEMBER_ID',
];

/** No code frame, no stack, no "Error:" prefix: what a thrown error would print. */
function assertNoStack(output: string): void {
  assert.doesNotMatch(output, /^\s+at .+:\d+:\d+\)?$/m, `a stack trace was printed:\n${output}`);
  assert.doesNotMatch(output, /^\s*\d+ \|/m, `a code frame was printed:\n${output}`);
  assert.doesNotMatch(output, /\bError: /, `an error object was printed:\n${output}`);
}

test('every secret variable a run of a remote profile uses is named: clients (all roles), and the test JWTs only for a client without a key pair', () => {
  assert.deepEqual(secretVariables(sandbox).sort(), [...SANDBOX_VARS].sort());
  const primary = (sandbox.target as { clients: { primary: Record<string, string> } }).clients.primary;
  const { privateKey: _key, kid: _kid, iss: _iss, ...keyless } = primary;
  const withoutKey = parseProfile(
    { ...sandbox, name: 'keyless', target: { ...sandbox.target, clients: { primary: keyless } } },
    'keyless.json',
  );
  assert.deepEqual(secretVariables(withoutKey).sort(), [
    'PAYMENTS_SANDBOX_CLIENT_ID',
    'PAYMENTS_SANDBOX_CLIENT_SECRET',
    'PAYMENTS_SANDBOX_MEMBER_ID',
    'PAYMENTS_SANDBOX_TEST_ASSERTION',
    'PAYMENTS_SANDBOX_TEST_SCA_TOKEN',
  ]);
  const both = parseProfile(
    {
      ...sandbox,
      name: 'two',
      target: {
        ...sandbox.target,
        clients: {
          primary: (sandbox.target as { clients: { primary: unknown } }).clients.primary,
          secondary: {
            clientId: 'B_ID',
            clientSecret: 'B_SECRET',
            privateKey: 'B_KEY',
            kid: 'B_KID',
            iss: 'B_ISS',
            memberId: 'B_MEMBER',
          },
        },
      },
    },
    'two.json',
  );
  assert.ok(
    ['B_ID', 'B_SECRET', 'B_KEY', 'B_KID', 'B_ISS', 'B_MEMBER'].every((n) => secretVariables(both).includes(n)),
  );
  assert.deepEqual(secretVariables(loadProfile('local')), []);
});

test('the sentence names every unset variable and nothing that is set', () => {
  const env = { PAYMENTS_SANDBOX_KID: 'k', PAYMENTS_SANDBOX_ISS: 'i' };
  const sentence = unsetSecretsSentence(sandbox, env)!;
  for (const name of SANDBOX_VARS.filter((n) => !(n in env))) assert.ok(sentence.includes(name), `${name} not named`);
  assert.ok(!sentence.includes('PAYMENTS_SANDBOX_KID') && !sentence.includes('PAYMENTS_SANDBOX_ISS'));
  assert.equal(sentence.split(/\.\s/).length, 1, 'one sentence');
  assert.equal(unsetSecretsSentence(sandbox, dummySecrets(SANDBOX_VARS)), undefined);
  assert.ok(!sentence.includes('testJwts'), 'a key pair half set is no keyless bank');
});

test('a bank with no key pair (§5.6) is told to remove the key fields and use the predefined tokens', () => {
  const keyless = SANDBOX_VARS.filter((n) => !/PRIVATE_KEY|_KID|_ISS/.test(n));
  const sentence = unsetSecretsSentence(sandbox, dummySecrets(keyless))!;
  assert.match(sentence, /remove privateKey, kid and iss from target\.clients\.primary instead.*target\.testJwts/);
  assert.equal(sentence.split(/\.\s/).length, 1, 'one sentence');
});

test('npx playwright test --project=sandbox without its variables stops at once, naming all 6, no stack, no run folder', () => {
  const runDir = path.join(tempDir('preflight'), 'run');
  const run = runPlaywrightCli(['--project=sandbox'], cleanEnv({ PAYMENTS_RUN_DIR: runDir }), 15_000);
  const output = run.stdout + run.stderr;
  assert.equal(run.status, 2, output);
  assert.ok(run.ms < 15_000, `took ${run.ms} ms`);
  for (const name of SANDBOX_VARS) assert.ok(output.includes(name), `${name} is not named:\n${output}`);
  assert.doesNotMatch(output, /unreachable|ENOTFOUND/, 'the secrets are checked before the reachability');
  assert.equal(output.trim().split('\n').length, 1, `one line:\n${output}`);
  assertNoStack(output);
  assert.ok(!existsSync(runDir), 'a refused run leaves no run folder');
});

test('an unreachable target (secrets set) stops in one sentence, no code frame, no stack', () => {
  const runDir = path.join(tempDir('unreachable'), 'run');
  const run = runPlaywrightCli(
    ['--project=sandbox'],
    cleanEnv({ ...dummySecrets(SANDBOX_VARS), PAYMENTS_RUN_DIR: runDir }),
    30_000,
  );
  const output = run.stdout + run.stderr;
  assert.equal(run.status, 2, output);
  assert.match(
    output,
    /✖ target of profile sandbox is unreachable: https:\/\/\S+ \((ENOTFOUND|EAI_AGAIN|ECONNREFUSED|[A-Z_]+)\); check the URL in environments\/sandbox\.json and your network\./,
  );
  assertNoStack(output);
  assert.ok(!existsSync(runDir), 'a refused run leaves no run folder');
});
