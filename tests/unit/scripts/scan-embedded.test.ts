/**
 * Item "the secret scan can be blind": the single-file report embeds every attachment as base64, so
 * the scan decodes embedded content (Allure's d("data/attachments/…","<base64>") items, data: URIs,
 * any base64 run) and searches it too; and every client identity and key a run creates is registered
 * with the worker's redactor, so the canary knows it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scanForSecrets, SecretMatcher, findSecrets } from '../../../scripts/scan-secrets';
import { renderReport } from '../../../scripts/report';
import { generatedClient } from '../../../client/target';
import { strangerKey } from '../../../cases/jwt-attacks';
import { generateEcKeyPair, generateRsaKeyPair, shareClientKeys } from '../../../transport/keys';
import { workerRedactor } from '../../../transport/redact';
import { cleanEnv, runPlaywrightCli, syntheticResults, tempDir } from '../support/cli';

function canaryOf(dir: string, secrets: { label: string; value: string }[]): string {
  const file = path.join(dir, 'canary.jsonl');
  writeFileSync(file, `${secrets.map((s) => JSON.stringify(s)).join('\n')}\n`);
  return file;
}

test('a client secret planted in one embedded attachment of a single-file report is found, and named', () => {
  const work = tempDir('plant');
  const secret = randomBytes(24).toString('base64url');
  syntheticResults(path.join(work, 'results'), [
    { name: 'clean', attachment: 'POST /oauth/token\nauthorization: Basic [REDACTED hmac:0123456789ab]' },
    { name: 'leaky', attachment: `POST /oauth/token\nclient_secret=${secret}\n` },
    { name: 'clean too', attachment: 'GET /payments/pacs002/v12/x' },
  ]);
  // Every exchange embedded, as a certification report has them (a default report leaves out passed tests' exchanges).
  const index = renderReport(path.join(work, 'results'), path.join(work, 'report'), {
    historyPath: path.join(work, 'h.jsonl'),
    print: false,
    evidence: 'full',
  })!;
  // As a certification bundle holds it: report.html alone, the raw results gone.
  const bundle = path.join(work, 'bundle');
  mkdirSync(bundle);
  copyFileSync(index, path.join(bundle, 'report.html'));
  const html = readFileSync(index, 'utf8');
  assert.ok(!html.includes(secret), 'the secret is only there base64-encoded');
  const scan = scanForSecrets(
    canaryOf(work, [
      { label: 'primary client secret', value: secret },
      { label: 'unused', value: randomBytes(24).toString('hex') },
    ]),
    [bundle],
  );
  assert.equal(scan.leaks.length, 1);
  assert.equal(scan.leaks[0]!.label, 'primary client secret');
  assert.match(scan.leaks[0]!.where, /^embedded data\/attachments\/.+\.txt$/);
});

test('base64 inside data: URIs, JSON strings and Basic credentials is decoded too; redacted text is clean', () => {
  const work = tempDir('decode');
  const secret = `s3cr3t-${randomBytes(8).toString('hex')}`;
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  mkdirSync(path.join(work, 'r'));
  writeFileSync(path.join(work, 'r', 'uri.html'), `<img src="data:text/plain;base64,${b64(`key=${secret}`)}">`);
  writeFileSync(
    path.join(work, 'r', 'nested.json'),
    JSON.stringify({ body: b64(JSON.stringify({ inner: b64(`x ${secret} y`) })) }),
  );
  writeFileSync(path.join(work, 'r', 'basic.txt'), `authorization: Basic ${b64(`client-1:${secret}`)}`);
  writeFileSync(
    path.join(work, 'r', 'clean.txt'),
    `authorization: Basic [REDACTED hmac:abcdef012345] ${b64('nothing to see here at all')}`,
  );
  const scan = scanForSecrets(canaryOf(work, [{ label: 'client secret', value: secret }]), [path.join(work, 'r')]);
  assert.deepEqual(scan.leaks.map((l) => path.basename(l.file)).sort(), ['basic.txt', 'nested.json', 'uri.html']);
  assert.match(scan.leaks.find((l) => l.file.endsWith('uri.html'))!.where, /data: URI \(text\/plain\)/);
  assert.match(scan.leaks.find((l) => l.file.endsWith('nested.json'))!.where, /base64 run › base64 run/);
});

test('the one-pass matcher finds exactly what a naive search finds', () => {
  const alphabet = 'abcAB01-_=';
  const pick = (n: number): string =>
    Array.from({ length: n }, () => alphabet[randomBytes(1)[0]! % alphabet.length]).join('');
  for (let round = 0; round < 50; round++) {
    const secrets = Array.from({ length: 20 }, (_, i) => ({ label: `s${i}`, value: pick(6 + (i % 5)) }));
    const text = pick(3000) + secrets[round % 20]!.value + pick(50);
    const naive = new Set(secrets.flatMap((s, i) => (text.includes(s.value) ? [i] : [])));
    assert.deepEqual([...new SecretMatcher(secrets).find(text)].sort(), [...naive].sort());
  }
  assert.equal(findSecrets('plain', new SecretMatcher([{ label: 'x', value: 'plain' }])).get(0), 'plain text');
});

test('every client and key a worker creates is registered with its redactor: extra clients, the stranger, forbidden keys', () => {
  const values = (): Map<string, string> =>
    new Map(
      workerRedactor()
        .secretValues()
        .map((s) => [s.value, s.label]),
    );
  const pem = (k: import('node:crypto').KeyObject): string => k.export({ type: 'pkcs8', format: 'pem' }).toString();
  for (const role of ['beneficiary', 'twin', 'mutant', 'shortlived', 'manual-batch']) {
    const client = generatedClient(role, 'unit', 0, generateRsaKeyPair(2048));
    assert.equal(values().get(client.clientSecret), `${role} client secret`);
    assert.ok(values().has(pem(client.privateKey!)), `${role} private key`);
  }
  for (const [what, key] of [
    ['the stranger key', strangerKey().privateKey],
    ['an RSA-1024 key a mutant registers', generateRsaKeyPair(1024).privateKey],
    ['an EC key a mutant registers', generateEcKeyPair().privateKey],
  ] as const) {
    assert.ok(values().has(pem(key)), what);
  }
});

test('a run’s canary holds a secret for every client that asked for a token, and every key its clients signed with', () => {
  const work = tempDir('count');
  const runDir = path.join(work, 'run');
  const canary = path.join(work, 'canary.jsonl');
  const env = cleanEnv({ PAYMENTS_RUN_DIR: runDir, PAYMENTS_SECRET_CANARY: canary, PAYMENTS_WORKERS: '2' });
  shareClientKeys(env);
  const run = runPlaywrightCli(
    [
      '--project=local',
      'tests/auth/key-registration.spec.ts',
      'tests/payments/headers-and-sca.spec.ts',
      '--grep',
      'registered|expires_in|never saw',
    ],
    env,
  );
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const secrets = readFileSync(canary, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { label: string; value: string });
  const clients = new Map<string, Set<string>>(); // role → client ids that asked for a token
  const kids = new Set<string>();
  for (const f of readdirSync(path.join(runDir, 'transcripts'))) {
    for (const line of readFileSync(path.join(runDir, 'transcripts', f), 'utf8')
      .split('\n')
      .filter(Boolean)) {
      const text = JSON.stringify(JSON.parse(line)).replace(/\\"/g, '"');
      for (const m of text.matchAll(/"sub":"(client-[^"]+?-w\d+-([a-z-]+)-[0-9a-f]{6})"/g)) {
        if (!clients.has(m[2]!)) clients.set(m[2]!, new Set());
        clients.get(m[2]!)!.add(m[1]!);
      }
      for (const m of text.matchAll(/"kid":"(kid-[^"]+)"/g)) kids.add(m[1]!);
    }
  }
  for (const role of ['twin', 'mutant', 'shortlived'])
    assert.ok(
      clients.has(role),
      `no ${role} client asked for a token (${[...clients.keys()].join(', ')}): the run did not exercise it`,
    );
  const distinct = (label: RegExp): number =>
    new Set(secrets.filter((s) => label.test(s.label)).map((s) => s.value)).size;
  for (const [role, ids] of clients)
    assert.ok(
      distinct(new RegExp(`^${role} client secret$`)) >= ids.size,
      `${ids.size} ${role} client(s) asked for a token, the canary knows ${distinct(new RegExp(`^${role} client secret$`))} ${role} secret(s)`,
    );
  assert.ok(kids.size > 0, 'no kid signed anything: the run did not exercise its clients');
  const known = new Set(secrets.map((s) => s.value));
  const shared = JSON.parse(env.PAYMENTS_CLIENT_KEYS!) as string[];
  for (const [i, pem] of shared.entries())
    assert.ok(known.has(pem), `shared client key ${i + 1} of ${shared.length} is not in the canary`);
  assert.ok(
    secrets.some((s) => /stranger/.test(s.label)) || distinct(/private key$/) > shared.length,
    'the stranger key (or a rotated key) is not in the canary',
  );
});
