/**
 * The curl of a replay attachment is runnable as printed: these tests make a real request against a
 * reference started here, render its replay (record/replay.ts curlReplay), run the printed lines in
 * bash (`eval "$(npm run -s curl-env -- …)"`, then curl), and check the answer. A remote profile's
 * credentials come from its secret variables (scripts/lib/curl-env.ts), the sca-token's hd is the
 * SHA-256 of exactly the body file, and the rendering keeps URLs, clients and faults right. A negative
 * case's curl carries its mutation (--mutation): run as printed, it gets the answer the test got.
 * Run: node --import tsx --test tests/unit/transport/curl-env.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReference, type ReferenceHandle } from '../../../reference/server';
import { HttpClient, type Exchange } from '../../../transport/http';
import { Redactor } from '../../../transport/redact';
import { generateRsaKeyPair } from '../../../transport/keys';
import { authenticationJwt, scaJwt } from '../../../transport/client-jwts';
import { decodeCompact } from '../../../transport/jws';
import { buildPacs008 } from '../../../messages/pacs008';
import { curlReplay, replayFileStem, replayFiles, replayPointer, type CurlTarget } from '../../../record/replay';
import { loadProfile, parseProfile } from '../../../profile/profile';
import { generatedClient, registerClient } from '../../../client/target';
import {
  JWT_BEARER_GRANT,
  paymentRequestHeaders,
  scaTokenOf,
  tokenRequestParts,
  type SubmitOptions,
  type TokenRequestOptions,
} from '../../../client/api';
import { headerCases } from '../../../cases/sca-cases';
import { tokenCases } from '../../../cases/token-cases';
import { jwtAttacks } from '../../../cases/jwt-attacks';
import {
  headerMutant,
  mutations,
  replayMutation,
  headerMutationId,
  tokenMutant,
  type FreshCredentials,
} from '../../../cases/mutations';
import type { ClientIdentity } from '../../../transport/client-jwts';
import { curlEnvironment, exportLines } from '../../../scripts/lib/curl-env';
import { parseCurlEnvArgs } from '../../../scripts/curl-env';
import { root } from '../support/cli';
import { is4xx } from '../../../messages/http-status';

let reference: ReferenceHandle;
const http = new HttpClient();

before(async () => {
  reference = await startReference({
    host: '127.0.0.1',
    port: 0,
    admin: true,
    batchIntervalMs: 20,
    settlementDelayMs: 20,
  });
});
after(async () => {
  await reference.close();
  rmSync(path.join(root, 'body.json'), { force: true });
});

const targetOf = (extra: Partial<CurlTarget> = {}): CurlTarget => ({
  project: 'local',
  kind: 'reference',
  baseUrl: reference.url,
  authUrl: reference.url,
  faults: [],
  referenceKnobs: {},
  ...extra,
});

/** A registered client of the reference and a valid submission of a payment by it: the exchange a failing test would leave. */
async function submission(): Promise<Exchange> {
  const client = generatedClient('primary', 'curltest', 0, generateRsaKeyPair());
  await registerClient(http, { baseUrl: reference.url, authUrl: reference.url, adminUrl: reference.url }, client);
  const token = await http.send('token', {
    method: 'POST',
    url: `${reference.url}/oauth/token`,
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({
      grant_type: JWT_BEARER_GRANT,
      assertion: authenticationJwt(client),
      scope: 'makePayments',
    }).toString(),
  });
  const body = JSON.stringify(buildPacs008({ seed: 'curl-env' }));
  return http.send('submit payment', {
    method: 'POST',
    url: `${reference.url}/payments/pacs008/v10`,
    headers: {
      authorization: `Bearer ${(token.response.json as { access_token: string }).access_token}`,
      'x-client-id': client.clientId,
      'content-type': 'application/json',
      accept: 'application/json',
      'sca-token': scaJwt(client, body),
    },
    body,
  });
}

/** Runs printed shell lines in the repository folder, as a person would paste them (asynchronously: the reference answers from this process). */
function bash(script: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `set -e\n${script}`], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGTERM'), 60_000);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

test('a payment submission: the printed lines, run in bash against a reference of ones own, get 201', async () => {
  const exchange = await submission();
  assert.equal(exchange.response.status, 201, exchange.response.text);
  const printed = curlReplay(exchange, new Redactor(), targetOf());
  assert.match(printed, /^curl -sS -i -X POST "\$BASE_URL\/payments\/pacs008\/v10"/m);
  assert.match(printed, /-H "authorization: \$AUTHORIZATION"/);
  assert.match(printed, /-H "sca-token: \$SCA_TOKEN"/);
  assert.match(printed, /-H "x-client-id: \$X_CLIENT_ID"/);
  assert.match(printed, /--data-binary @body\.json/);
  assert.ok(!printed.includes(exchange.request.headers['sca-token']!), 'no stale sca-token is printed');
  const run = await bash(`export BASE_URL=${reference.url}\n${printed}`);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^HTTP\/1\.1 201/m, run.stdout + run.stderr);
});

test('a token request: the printed lines get an access token', async () => {
  const client = generatedClient('primary', 'curltest', 0, generateRsaKeyPair());
  await registerClient(http, { baseUrl: reference.url, authUrl: reference.url, adminUrl: reference.url }, client);
  const exchange = await http.send('token', {
    method: 'POST',
    url: `${reference.url}/oauth/token`,
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: new URLSearchParams({
      grant_type: JWT_BEARER_GRANT,
      assertion: authenticationJwt(client),
      scope: 'makePayments',
    }).toString(),
  });
  const printed = curlReplay(exchange, new Redactor(), targetOf());
  assert.match(printed, /--token-request/);
  assert.match(printed, /^curl -sS -i -X POST "\$AUTH_URL\/oauth\/token"/m);
  const run = await bash(`export BASE_URL=${reference.url}\n${printed}`);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /^HTTP\/1\.1 200/m, run.stdout + run.stderr);
  assert.match(run.stdout, /"access_token"/);
});

test('a remote profile: credentials from its secret variables, the sca-token hd hashes exactly the body file', async () => {
  const local = JSON.parse(readFileSync(path.join(root, 'environments', 'local.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const names = {
    clientId: 'CURLENV_TEST_CLIENT_ID',
    clientSecret: 'CURLENV_TEST_CLIENT_SECRET',
    privateKey: 'CURLENV_TEST_PRIVATE_KEY',
    kid: 'CURLENV_TEST_KID',
    iss: 'CURLENV_TEST_ISS',
  };
  const profile = parseProfile(
    {
      ...local,
      name: 'remote-test',
      target: { kind: 'remote', baseUrl: `${reference.url}/`, authUrl: reference.url, clients: { primary: names } },
    },
    'remote-test.json',
  );
  const client = generatedClient('primary', 'curltest', 0, generateRsaKeyPair());
  await registerClient(http, { baseUrl: reference.url, authUrl: reference.url, adminUrl: reference.url }, client);
  const values = {
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    privateKey: client.privateKey!.export({ type: 'pkcs8', format: 'pem' }).toString(),
    kid: client.kid,
    iss: client.iss,
  };
  for (const [field, variable] of Object.entries(names)) process.env[variable] = values[field as keyof typeof values];
  const dir = mkdtempSync(path.join(os.tmpdir(), 'curl-env-'));
  try {
    const bodyFile = path.join(dir, 'body.json');
    writeFileSync(bodyFile, `${JSON.stringify(buildPacs008({ seed: 'curl-env-remote' }))}\n`);
    const variables = await curlEnvironment({ profile, client: 'primary', bodyFile, tokenRequest: false, faults: [] });
    assert.deepEqual(Object.keys(variables), ['BASE_URL', 'AUTHORIZATION', 'X_CLIENT_ID', 'SCA_TOKEN']);
    assert.equal(variables.BASE_URL, reference.url, 'the profile URL, without its trailing slash');
    assert.equal(variables.X_CLIENT_ID, client.clientId);
    const bytes = readFileSync(bodyFile);
    assert.equal(decodeCompact(variables.SCA_TOKEN!)?.payload.hd, createHash('sha256').update(bytes).digest('base64'));
    const res = await http.send('submit', {
      method: 'POST',
      url: `${variables.BASE_URL}/payments/pacs008/v10`,
      headers: {
        authorization: variables.AUTHORIZATION!,
        'x-client-id': variables.X_CLIENT_ID!,
        'sca-token': variables.SCA_TOKEN!,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: bytes,
    });
    assert.equal(res.response.status, 201, res.response.text);
  } finally {
    for (const variable of Object.values(names)) delete process.env[variable];
    rmSync(dir, { recursive: true, force: true });
  }
});

test('rendering: paths after the base URL, the secondary client, faults, large bodies, remote targets', () => {
  const exchange = (url: string, body: string, headers: Record<string, string> = {}): Exchange => ({
    label: 'x',
    request: { method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, body },
    response: { status: 500, headers: {}, text: '', json: undefined },
    startedAt: '',
    durationMs: 0,
    retries: [],
  });
  const remote = {
    project: 'sandbox',
    kind: 'remote' as const,
    baseUrl: 'https://api.example/v1',
    authUrl: 'https://auth.example',
    faults: [],
    referenceKnobs: {},
  };
  const onRemote = curlReplay(
    exchange('https://api.example/v1/payments/pacs008/v10', '{}', { 'x-client-id': 'c' }),
    new Redactor(),
    { ...remote, client: 'secondary' },
  );
  assert.match(
    onRemote,
    /^curl -sS -i -X POST "\$BASE_URL\/payments\/pacs008\/v10"/m,
    'the path after a base URL with a path of its own',
  );
  assert.match(onRemote, /curl-env -- --project sandbox --client secondary --body-file body\.json\)"/);
  assert.doesNotMatch(onRemote, /--base-url|npm run reference/, 'a remote profile names its own URLs');
  const faulted = curlReplay(
    exchange(`${reference.url}/payments/pacs008/v10`, '{}'),
    new Redactor(),
    targetOf({ faults: ['sca-optional'], referenceKnobs: { REF_LATENCY_MS: '5' } }),
  );
  assert.match(faulted, /--base-url "\$BASE_URL" --faults sca-optional/);
  assert.match(faulted, /REF_LATENCY_MS=5 npm run reference/);
  const large = curlReplay(
    exchange(`${reference.url}/payments/pacs008/v10`, 'x'.repeat(200_000)),
    new Redactor(),
    targetOf(),
  );
  assert.ok(large.length < 5_000, 'a 200 kB body is not inlined');
  assert.doesNotMatch(large, /--data-binary|--body-file/);
});

test('export lines keep every value literal through eval', async () => {
  const run = await bash(`${exportLines({ A: 'it\'s $HOME `x` "q"', B: 'Bearer abc.def' })}\nprintf '%s|%s' "$A" "$B"`);
  assert.equal(run.stdout, 'it\'s $HOME `x` "q"|Bearer abc.def');
});

test('the local profile without --base-url is refused in one sentence', async () => {
  await assert.rejects(
    curlEnvironment({ profile: loadProfile('local'), client: 'primary', tokenRequest: false, faults: [] }),
    /start one \(npm run reference\) and give its URL with --base-url/,
  );
});

// ── a negative case's curl carries its mutation ──────────────────────────────────────────────────

const refs = () => ({ baseUrl: reference.url, authUrl: reference.url, adminUrl: reference.url });

async function registered(role: 'primary' | 'secondary', faults: string[] = []): Promise<ClientIdentity> {
  const client = generatedClient(role, 'curltest', 0, generateRsaKeyPair());
  await registerClient(http, refs(), client, { faults });
  return client;
}

async function tokenOf(client: ClientIdentity): Promise<string> {
  const { headers, fields } = tokenRequestParts(client);
  const answer = await http.send('token', {
    method: 'POST',
    url: `${reference.url}/oauth/token`,
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  return (answer.response.json as { access_token: string }).access_token;
}

/** The mutant a negative test sends (the headers Api builds), with the mutation id on the exchange as Api records it. */
async function mutantSubmission(
  mutant: (fresh: FreshCredentials) => SubmitOptions,
  faults: string[] = [],
): Promise<Exchange> {
  const client = await registered('primary', faults);
  const other = await registered('secondary', faults);
  const body = JSON.stringify(buildPacs008({ seed: 'curl-env-mutant' }));
  const options = mutant({
    client,
    other,
    accessToken: await tokenOf(client),
    otherAccessToken: await tokenOf(other),
    body,
  });
  const sca = scaTokenOf(client, body, options.sca);
  const headers = paymentRequestHeaders(client, options.accessToken ?? (await tokenOf(client)), options, {
    'content-type': 'application/json',
    ...(sca ? { 'sca-token': sca } : {}),
  });
  const exchange = await http.send('mutant', {
    method: 'POST',
    url: `${reference.url}/payments/pacs008/v10`,
    headers,
    body,
  });
  return options.mutation ? { ...exchange, mutation: options.mutation } : exchange;
}

const mutantTarget = (exchange: Exchange, faults: string[] = []): CurlTarget => {
  const mutation = replayMutation(exchange.mutation);
  return targetOf({ faults, ...(mutation ? { mutation } : {}) });
};
const statusLine = (stdout: string): string => /^HTTP\/1\.1 (\d{3})/m.exec(stdout)?.[1] ?? `no status in: ${stdout}`;
const errorCode = (text: string): unknown =>
  (JSON.parse(text.slice(text.indexOf('\n{') + 1)) as { errors?: { code: string }[] }).errors?.[0]?.code;
const hdCase = headerCases.find((c) => c.name === 'SCA hd of another body')!;
/** A case that reads its valid twin (the twin's nonce): a replay, which sends no twin, cannot apply it. */
const NONCE_REUSED = headerMutationId(headerCases.find((c) => c.name === 'SCA nonce reused for a second request')!);

test('a failed hd test: its curl, run as printed, gets the refusal the test got (401 invalid_sca_token), and without the mutation it would not', async () => {
  const exchange = await mutantSubmission((fresh) => headerMutant(hdCase, fresh));
  assert.equal(exchange.response.status, 401, exchange.response.text);
  const printed = curlReplay(exchange, new Redactor(), mutantTarget(exchange));
  assert.match(printed, /^# credentials: fresh, with this test's mutation applied: SCA hd of another body$/m);
  assert.match(printed, /--mutation SCA-hd-of-another-body --body-file body\.json\)"/);
  const run = await bash(`export BASE_URL=${reference.url}\n${printed}`);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(statusLine(run.stdout), '401', run.stdout);
  assert.equal(errorCode(run.stdout), 'invalid_sca_token');
  const unmutated = await bash(
    `export BASE_URL=${reference.url}\n${printed.replace(' --mutation SCA-hd-of-another-body', '')}`,
  );
  assert.equal(
    statusLine(unmutated.stdout),
    '201',
    'the same lines with valid credentials are accepted: the mutation is what the curl reproduces',
  );
});

test('a failed hd test against a target that ignores hd (fault sca-hd-unchecked): the curl is accepted, as the test was', async () => {
  const exchange = await mutantSubmission((fresh) => headerMutant(hdCase, fresh), ['sca-hd-unchecked']);
  assert.equal(exchange.response.status, 201, exchange.response.text);
  const printed = curlReplay(exchange, new Redactor(), mutantTarget(exchange, ['sca-hd-unchecked']));
  const run = await bash(`export BASE_URL=${reference.url}\n${printed}`);
  assert.equal(statusLine(run.stdout), '201', run.stdout + run.stderr);
});

test('mutations of headers and of the secondary client: a missing X-Client-Id, an access token of the other client', async () => {
  for (const name of ['no X-Client-Id header', "the secondary client's access token with the primary's X-Client-Id"]) {
    const c = headerCases.find((h) => h.name === name)!;
    const exchange = await mutantSubmission((fresh) => headerMutant(c, fresh));
    assert.ok(is4xx(exchange), `${name}: ${exchange.response.status}`);
    const printed = curlReplay(exchange, new Redactor(), mutantTarget(exchange));
    const run = await bash(`export BASE_URL=${reference.url}\n${printed}`);
    assert.equal(statusLine(run.stdout), String(exchange.response.status), `${name}: ${run.stdout}${run.stderr}`);
  }
});

test("a token request mutation: the assertion with an unknown kid gets the test's 400 invalid_grant", async () => {
  const c = tokenCases.find((t) => t.name === 'kid unknown')!;
  const client = await registered('primary');
  const options: TokenRequestOptions = tokenMutant(c, { client, other: undefined });
  const { headers, fields } = tokenRequestParts(client, options);
  const sent = await http.send('mutant', {
    method: 'POST',
    url: `${reference.url}/oauth/token`,
    headers,
    body: new URLSearchParams(fields).toString(),
  });
  assert.equal(sent.response.status, 400);
  const exchange = { ...sent, mutation: options.mutation! };
  const printed = curlReplay(exchange, new Redactor(), mutantTarget(exchange));
  assert.match(printed, /--mutation token-kid-unknown --token-request\)"/);
  const run = await bash(`export BASE_URL=${reference.url}\n${printed}`);
  assert.equal(statusLine(run.stdout), '400', run.stdout + run.stderr);
  assert.match(run.stdout, /"error":"invalid_grant"/);
});

test('a mutation that cannot be applied again is said so, and curl-env is not asked for it', () => {
  const exchange = {
    label: 'x',
    request: {
      method: 'POST' as const,
      url: `${reference.url}/payments/pacs008/v10`,
      headers: { 'content-type': 'application/json' },
      body: '{}',
    },
    response: { status: 201, headers: {}, text: '', json: undefined },
    startedAt: '',
    durationMs: 0,
    retries: [],
    mutation: NONCE_REUSED,
  };
  const printed = curlReplay(exchange, new Redactor(), mutantTarget(exchange));
  assert.match(
    printed,
    /^# credentials: fresh and VALID, not this test's mutation \(SCA nonce reused for a second request\): it reuses a value of the valid twin/m,
  );
  assert.doesNotMatch(printed, /--mutation/);
  const unknown = replayMutation('no-such-mutation');
  assert.equal(unknown?.notReapplied, 'a mutation curl-env does not know');
});

test('the mutation registry: every negative case of the catalogues has one id, and curl-env refuses an id it cannot apply in one sentence', async () => {
  const ids = new Set(mutations.map((m) => m.id));
  assert.equal(ids.size, mutations.length);
  assert.ok(mutations.length >= headerCases.length + tokenCases.length + 2 * jwtAttacks.length);
  assert.deepEqual(parseCurlEnvArgs(['--mutation', 'SCA-hd-of-another-body']).mutation, 'SCA-hd-of-another-body');
  const profile = loadProfile('local');
  await assert.rejects(
    curlEnvironment({
      profile,
      client: 'primary',
      baseUrl: reference.url,
      tokenRequest: false,
      faults: [],
      mutation: 'no-such',
    }),
    /unknown mutation no-such; known: /,
  );
  await assert.rejects(
    curlEnvironment({
      profile,
      client: 'primary',
      baseUrl: reference.url,
      tokenRequest: false,
      faults: [],
      mutation: NONCE_REUSED,
    }),
    /cannot be applied to fresh credentials: it reuses a value of the valid twin the test sent before it/,
  );
  await assert.rejects(
    curlEnvironment({
      profile,
      client: 'primary',
      baseUrl: reference.url,
      tokenRequest: true,
      faults: [],
      mutation: 'SCA-hd-of-another-body',
    }),
    /is of a payments request, not of a token request/,
  );
});

test('the replay attachment starts with the files, then the credentials, whole (the terminal prints it whole)', () => {
  const stem = replayFileStem('local', 'tests/access/cross-cutting.spec.ts', [
    'refund: SCA',
    'refuses: SCA x5u header pointing at an attacker’s certificate, signed with its key',
  ]);
  assert.match(stem, /^refuses-sca-x5u-header-[0-9a-f]{6}$/);
  assert.notEqual(
    stem,
    replayFileStem('local', 'tests/access/cross-cutting.spec.ts', [
      'cancel: SCA',
      'refuses: SCA x5u header pointing at an attacker’s certificate, signed with its key',
    ]),
  );
  const dir = 'reports/runs/20261125T183847Z-907affa0/replay';
  const pointer = replayPointer(
    { rerun: `${dir}/${stem}.sh`, curl: `${dir}/${stem}.curl.sh` },
    replayMutation('sca-x5u-header-pointing-at-an-attackers-certificate-signed-with-its-key'),
  );
  assert.match(pointer[0]!, /^rerun: {3}bash reports\/runs\/.*\.sh$/);
  assert.match(
    pointer[2]!,
    /^credentials: fresh and VALID, not this test's mutation \(SCA x5u header.*; the rerun reproduces it$/,
  );
  const files = replayFiles({
    command: 'PAYMENTS_SEED=1 npx playwright test',
    curl: 'curl …',
    testName: '[local] t › x',
  });
  assert.match(files.rerun, /^PAYMENTS_SEED=1 npx playwright test$/m);
  assert.match(files.curl!, /^curl …$/m);
});
