/**
 * Item "credentials checked before any test": the runner loads every key a declared client signs
 * with and requests one token per client (runner/credentials.ts, runner/global-setup.ts). A bad
 * key path, an unreadable key, a wrong secret or a wrong kid refuses the run in one sentence naming the
 * profile, the client, the variable and the target's answer, with exit 2, no report and no run folder,
 * in seconds: for `npx playwright test --project=X` and `npm run conformance -- --project=X` alike.
 * Driven against the embedded reference as a sandbox (environments/local-sandbox-like.json: its clients
 * come from variables, onboarded here the way the runner onboards them, then one is spoiled).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { loadProfile, type SecretRefs } from '../../../profile/profile';
import { Redactor } from '../../../transport/redact';
import type { Exchange } from '../../../transport/http';
import { onboardedClients } from '../../../client/provisioning';
import { suspectVariables, tokenRefusalSentence } from '../../../runner/credentials';
import { keyProblem } from '../../../transport/declared-keys';
import { cleanEnv, runPlaywrightCli, runScript, tempDir } from '../support/cli';

const sandboxLike = loadProfile('local-sandbox-like');
const PRIMARY = 'PAYMENTS_SANDBOX_LIKE_PRIMARY';
const refs: SecretRefs = {
  clientId: `${PRIMARY}_CLIENT_ID`,
  clientSecret: `${PRIMARY}_CLIENT_SECRET`,
  privateKey: `${PRIMARY}_PRIVATE_KEY`,
  kid: `${PRIMARY}_KID`,
  iss: `${PRIMARY}_ISS`,
};

/** The variables of local-sandbox-like's onboarded clients, as the runner would fill them, with `spoil` over them. */
function onboarded(spoil: Record<string, string>): Record<string, string> {
  const env: NodeJS.ProcessEnv = {};
  onboardedClients(sandboxLike, env);
  return { ...(env as Record<string, string>), ...spoil };
}

function exchange(status: number, text: string): Exchange {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    label: 'preflight',
    request: { method: 'POST', url: 'https://auth.sandbox.example/oauth/token', headers: {} },
    response: { status, headers: {}, text, json },
    startedAt: new Date().toISOString(),
    durationMs: 1,
    retries: [],
  };
}

/** Runs `body` with `vars` set in this process's environment (keyProblem reads the variables as a worker does). */
function withVariables<T>(vars: Record<string, string>, body: () => T): T {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return body();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}

const oneLine = (s: string): void => assert.equal(s.split('\n').length, 1, `more than one line: ${s}`);

test('a refused token request: one sentence naming the profile, the client, the suspect variables, the status and the redacted body', () => {
  const redactor = new Redactor();
  redactor.addSecret('s3cret-of-the-bank', 'primary client secret');
  const wrongSecret = tokenRefusalSentence(
    sandboxLike,
    'primary',
    refs,
    exchange(401, '{"error":"invalid_client",\n "error_description":"bad secret s3cret-of-the-bank"}'),
    redactor,
  )!;
  assert.match(
    wrongSecret,
    /^profile local-sandbox-like, client primary: the token endpoint refused the primary client's credentials with HTTP 401 \(POST https:\/\/auth\.sandbox\.example\/oauth\/token: \{"error":"invalid_client", "error_description":"bad secret \[REDACTED primary client secret\]"\}\); check PAYMENTS_SANDBOX_LIKE_PRIMARY_CLIENT_ID and PAYMENTS_SANDBOX_LIKE_PRIMARY_CLIENT_SECRET \(one token request per client was made, no test ran\)\.$/,
  );
  assert.ok(!wrongSecret.includes('s3cret-of-the-bank'));
  oneLine(wrongSecret);

  const wrongKid = tokenRefusalSentence(
    sandboxLike,
    'primary',
    refs,
    exchange(400, '{"error":"invalid_grant","error_description":"assertion kid does not match"}'),
    redactor,
  )!;
  assert.match(
    wrongKid,
    /HTTP 400 .*invalid_grant.*check PAYMENTS_SANDBOX_LIKE_PRIMARY_PRIVATE_KEY, PAYMENTS_SANDBOX_LIKE_PRIMARY_KID and PAYMENTS_SANDBOX_LIKE_PRIMARY_ISS/,
  );

  // An endpoint that requires RFC 7523's aud: the profile field that adds it is named.
  const noAudience = tokenRefusalSentence(
    sandboxLike,
    'primary',
    refs,
    exchange(400, '{"error":"invalid_grant","error_description":"Invalid audience"}'),
    redactor,
  )!;
  assert.match(
    noAudience,
    /KID and PAYMENTS_SANDBOX_LIKE_PRIMARY_ISS, or set assertionAudience in the profile if it requires an aud claim \(RFC 7523 §3\) \(one token/,
  );
  oneLine(noAudience);
  assert.ok(!wrongKid.includes('assertionAudience'), 'nor where the answer says nothing of an audience');

  // A target whose token errors are not RFC 6749's (the spec does not show them): every variable is a suspect.
  assert.deepEqual(suspectVariables(refs, undefined), [
    refs.clientId,
    refs.clientSecret,
    refs.privateKey,
    refs.kid,
    refs.iss,
  ]);
  const html = tokenRefusalSentence(
    sandboxLike,
    'primary',
    refs,
    exchange(403, `<html>${'x'.repeat(500)}</html>`),
    redactor,
  )!;
  assert.match(html, /HTTP 403 \(POST \S+: <html>x+…\)/);
  oneLine(html);

  assert.match(
    tokenRefusalSentence(sandboxLike, 'primary', refs, exchange(200, '{"token_type":"Bearer"}'), redactor)!,
    /answered 200 without an access_token/,
  );
  // An outage or a throttle is no credential problem: no variable is named, the sentence says try again.
  for (const status of [429, 503]) {
    const down = tokenRefusalSentence(sandboxLike, 'primary', refs, exchange(status, 'maintenance'), redactor)!;
    assert.match(down, new RegExp(`the token endpoint is unavailable \\(HTTP ${status}, infrastructure`));
    assert.ok(!down.includes('PAYMENTS_SANDBOX_LIKE'), down);
    oneLine(down);
  }
  assert.equal(
    tokenRefusalSentence(
      sandboxLike,
      'primary',
      refs,
      exchange(200, '{"access_token":"abc","expires_in":60}'),
      redactor,
    ),
    undefined,
  );
});

test('keys are loaded before any request: a bad path, a file that is no key, a non-RSA key each named by variable; a weak-key client may be EC', () => {
  const work = tempDir('keys');
  const good = onboarded({});
  assert.equal(
    withVariables(good, () => keyProblem(sandboxLike)),
    undefined,
  );

  const missing = withVariables({ ...good, [refs.privateKey!]: './keys/sandbox.pem' }, () => keyProblem(sandboxLike))!;
  assert.equal(
    missing,
    `profile local-sandbox-like, client primary: ${refs.privateKey} is neither PEM text nor the path of an existing file: ./keys/sandbox.pem (relative to ${process.cwd()}).`,
  );

  const notAKey = path.join(work, 'sandbox.pem');
  writeFileSync(notAKey, 'this is not a key\n');
  assert.match(
    withVariables({ ...good, [refs.privateKey!]: notAKey }, () => keyProblem(sandboxLike))!,
    new RegExp(
      `^profile local-sandbox-like, client primary: ${refs.privateKey} does not hold a usable private key \\(the file ${notAKey.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\): .+\\.$`,
    ),
  );

  const directory = path.join(work, 'keys');
  mkdirSync(directory);
  assert.match(
    withVariables({ ...good, [refs.privateKey!]: directory }, () => keyProblem(sandboxLike))!,
    /names a file that cannot be read: .*keys \(EISDIR\)\.$/,
  );

  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  assert.match(
    withVariables({ ...good, PAYMENTS_SANDBOX_LIKE_SECONDARY_PRIVATE_KEY: ec }, () => keyProblem(sandboxLike))!,
    /^profile local-sandbox-like, client secondary: PAYMENTS_SANDBOX_LIKE_SECONDARY_PRIVATE_KEY holds a private key of type ec, but the API needs RSA \(spec §5\.4\)\.$/,
  );
  assert.equal(
    withVariables({ ...good, PAYMENTS_SANDBOX_LIKE_EC_PRIVATE_KEY: ec }, () => keyProblem(sandboxLike)),
    undefined,
    'the weak-key EC client is meant to hold an EC key',
  );

  // A value that is neither a path nor PEM (key material pasted without its PEM lines) is never shown.
  const pasted = withVariables({ ...good, [refs.privateKey!]: 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' }, () =>
    keyProblem(sandboxLike),
  )!;
  assert.ok(!pasted.includes('MIIEvQ'), pasted);
});

/**
 * "In seconds", against a run that fails test by test for minutes: the refusal's time is mostly Node's
 * and tsx's start; the bound leaves room for a machine shared by a dozen processes.
 */
const IN_SECONDS_MS = 60_000;

interface Refusal {
  output: string;
  status: number | null;
  ms: number;
  runDir: string;
}

function refused(
  command: 'playwright' | 'conformance',
  spoil: Record<string, string>,
  extra: Record<string, string> = {},
): Refusal {
  const work = tempDir('credentials');
  const runDir = path.join(work, 'run');
  const env = cleanEnv({
    ...onboarded(spoil),
    PAYMENTS_RUN_DIR: runDir,
    PAYMENTS_ALLURE_HISTORY: path.join(work, 'history.jsonl'),
    ...extra,
  });
  const run =
    command === 'playwright'
      ? runPlaywrightCli(['--project=local-sandbox-like'], env, 2 * IN_SECONDS_MS)
      : runScript('conformance.ts', ['--project=local-sandbox-like'], env, 2 * IN_SECONDS_MS);
  return { output: run.stdout + run.stderr, status: run.status, ms: run.ms, runDir };
}

test('npx playwright test --project=local-sandbox-like with a wrong client secret: one sentence naming the variable and the answer, exit 2, in seconds', () => {
  const run = refused('playwright', { [refs.clientSecret]: 'a-wrong-client-secret' });
  assert.equal(run.status, 2, run.output);
  assert.match(
    run.output.trim(),
    /^✖ profile local-sandbox-like, client primary: the token endpoint refused the primary client's credentials with HTTP 401 \(POST http:\/\/127\.0\.0\.1:\d+\/oauth\/token: \{"error":"invalid_client","error_description":"wrong client credentials"\}\); check PAYMENTS_SANDBOX_LIKE_PRIMARY_CLIENT_ID and PAYMENTS_SANDBOX_LIKE_PRIMARY_CLIENT_SECRET \(one token request per client was made, no test ran\)\.$/,
  );
  assert.ok(!run.output.includes('a-wrong-client-secret'), 'the secret is not printed');
  assert.ok(run.ms < IN_SECONDS_MS, `took ${run.ms} ms`);
  assert.ok(!existsSync(run.runDir), 'a refused run leaves no run folder');
});

test('npm run conformance -- --project=local-sandbox-like with a private key path that names no file: one sentence, exit 2, no report, in seconds', () => {
  const reportDir = path.join(tempDir('credentials-report'), 'allure-report');
  mkdirSync(reportDir, { recursive: true });
  writeFileSync(path.join(reportDir, 'index.html'), '<html>stale</html>');
  const mtime = statSync(path.join(reportDir, 'index.html')).mtimeMs;
  const run = refused('conformance', { [refs.privateKey!]: './keys/sandbox.pem' }, { PAYMENTS_REPORT_DIR: reportDir });
  assert.equal(run.status, 2, run.output);
  assert.match(
    run.output,
    /✖ profile local-sandbox-like, client primary: PAYMENTS_SANDBOX_LIKE_PRIMARY_PRIVATE_KEY is neither PEM text nor the path of an existing file: \.\/keys\/sandbox\.pem \(relative to \S+\)\./,
  );
  assert.doesNotMatch(run.output, /report:|secret scan|run folder:|passed|failed/, run.output);
  assert.equal(statSync(path.join(reportDir, 'index.html')).mtimeMs, mtime, 'no report rendered');
  assert.equal(readFileSync(path.join(reportDir, 'index.html'), 'utf8'), '<html>stale</html>');
  assert.ok(run.ms < IN_SECONDS_MS, `took ${run.ms} ms`);
  assert.ok(!existsSync(run.runDir), 'a refused run leaves no run folder');
});

test('a wrong kid of the secondary client is told by the token endpoint, naming the assertion variables', () => {
  const run = refused('playwright', { PAYMENTS_SANDBOX_LIKE_SECONDARY_KID: 'kid-of-no-client' });
  assert.equal(run.status, 2, run.output);
  assert.match(
    run.output,
    /✖ profile local-sandbox-like, client secondary: the token endpoint refused the secondary client's credentials with HTTP 400 \(POST \S+: \{"error":"invalid_grant","error_description":"assertion kid does not match the registered kid"\}\); check PAYMENTS_SANDBOX_LIKE_SECONDARY_PRIVATE_KEY, PAYMENTS_SANDBOX_LIKE_SECONDARY_KID and PAYMENTS_SANDBOX_LIKE_SECONDARY_ISS/,
  );
});
