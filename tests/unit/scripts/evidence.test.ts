/** Evidence bundles: manifest, JWS, tamper detection on disk, the profile sanitiser, per-rule summary and verdict. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, createPublicKey } from 'node:crypto';
import { mkdtempSync, writeFileSync, rmSync, mkdirSync, appendFileSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  buildManifest,
  diffManifest,
  readBundleFiles,
  serialiseManifest,
  sha256,
  signJws,
  verifyJws,
  MANIFEST_FILE,
  PUBLIC_KEY_FILE,
  SIGNATURE_FILE,
  publicPemOf,
} from '../../../scripts/lib/signing';
import { sanitiseProfile, summariseRules, verdictOf } from '../../../scripts/lib/certification';
import { testRecords, type TestRecord } from '../../../scripts/lib/run-records';
import { reportTest, ruleFixture } from '../support/report-tests';
import { checkAnnotation, skipAnnotation } from '../../../ledger/outcomes';
import { loadProfile } from '../../../profile/profile';
import { verifyEvidence } from '../../../scripts/verify-evidence';
import {
  compareRuns,
  hasDifferences,
  normalisePath,
  normaliseTitle,
  renderText,
  type RunData,
} from '../../../scripts/compare';

/** A PEM header built at run time: no file in the repository looks like it holds a private key. */
const FAKE_PEM_BEGIN = ['-----BEGIN', 'PRIVATE', 'KEY-----'].join(' ');

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicKey = createPublicKey(privateKey);
const other = generateKeyPairSync('rsa', { modulusLength: 2048 });

const files = (entries: Record<string, string>): Map<string, Uint8Array> =>
  new Map(Object.entries(entries).map(([k, v]) => [k, Buffer.from(v)]));

test('the manifest hashes every file but itself and its signature, sorted by path', () => {
  const m = buildManifest(files({ 'b.txt': 'b', 'a.txt': 'a', [MANIFEST_FILE]: '{}', [SIGNATURE_FILE]: 'x' }));
  assert.deepEqual(Object.keys(m.files), ['a.txt', 'b.txt']);
  assert.equal(m.files['a.txt'], sha256('a'));
  assert.equal(serialiseManifest(m), serialiseManifest(buildManifest(files({ 'a.txt': 'a', 'b.txt': 'b' }))));
});

test('diffManifest names altered, added and removed files', () => {
  const signed = buildManifest(files({ 'a.txt': 'a', 'b.txt': 'b', 'c.txt': 'c' }));
  const diff = diffManifest(
    signed,
    files({ 'a.txt': 'a', 'b.txt': 'B', 'd.txt': 'd', [MANIFEST_FILE]: '', [SIGNATURE_FILE]: '' }),
  );
  assert.deepEqual(diff, { altered: ['b.txt'], added: ['d.txt'], removed: ['c.txt'] });
});

test('a JWS signed with RS256 verifies and returns the payload', () => {
  const jws = signJws('{"hello":1}', privateKey, 'k1');
  const check = verifyJws(jws, publicKey);
  assert.ok(check.ok);
  assert.equal(check.payload.toString(), '{"hello":1}');
  assert.equal(check.header.kid, 'k1');
  assert.equal(check.header.alg, 'RS256');
});

test('a JWS fails with another key, an altered payload, a truncated form or alg none', () => {
  const jws = signJws('{"hello":1}', privateKey, 'k1');
  assert.equal(verifyJws(jws, other.publicKey).ok, false);
  const [h, , s] = jws.split('.');
  assert.equal(verifyJws(`${h}.${Buffer.from('{"hello":2}').toString('base64url')}.${s}`, publicKey).ok, false);
  assert.equal(verifyJws(`${h}.x`, publicKey).ok, false);
  const none = Buffer.from(JSON.stringify({ alg: 'none', kid: 'k1' })).toString('base64url');
  const noneCheck = verifyJws(`${none}.${Buffer.from('{}').toString('base64url')}.`, publicKey);
  assert.equal(noneCheck.ok, false);
  assert.match((noneCheck as { problem: string }).problem, /only RS256/);
});

/** A bundle on disk signed like certify signs it. */
function bundle(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'evidence-test-'));
  writeFileSync(path.join(dir, 'summary.json'), '{"verdict":"CERTIFIED"}\n');
  writeFileSync(path.join(dir, 'transcript.jsonl'), '{"a":1}\n');
  mkdirSync(path.join(dir, 'sub'));
  writeFileSync(path.join(dir, 'sub', 'x.txt'), 'x');
  writeFileSync(path.join(dir, PUBLIC_KEY_FILE), publicPemOf(privateKey));
  const manifest = serialiseManifest(buildManifest(readBundleFiles(dir)));
  writeFileSync(path.join(dir, MANIFEST_FILE), manifest);
  writeFileSync(path.join(dir, SIGNATURE_FILE), `${signJws(manifest, privateKey, 'test')}\n`);
  return dir;
}

test('verify-evidence accepts an untouched bundle and names each altered, added or removed file', () => {
  const dir = bundle();
  try {
    assert.deepEqual(verifyEvidence(dir).problems, []);
    // Flip one byte of one file.
    writeFileSync(path.join(dir, 'summary.json'), '{"verdict":"CERTIFIEE"}\n');
    appendFileSync(path.join(dir, 'extra.txt'), 'new');
    unlinkSync(path.join(dir, 'sub', 'x.txt'));
    const result = verifyEvidence(dir);
    assert.equal(result.ok, false);
    assert.deepEqual(
      result.problems.map((p) => p.split(':')[0]),
      ['summary.json altered', 'extra.txt added', 'sub/x.txt removed'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('verify-evidence catches an edited manifest and a signature checked with the wrong public key', () => {
  const dir = bundle();
  try {
    const wrongKey = path.join(dir, '..', `wrong-${path.basename(dir)}.pem`);
    writeFileSync(wrongKey, publicPemOf(other.privateKey));
    const wrong = verifyEvidence(dir, wrongKey);
    rmSync(wrongKey);
    assert.equal(wrong.ok, false);
    assert.match(wrong.problems[0]!, /does not verify/);

    // Someone edits a file and "fixes" manifest.json to match: the signed copy still tells.
    writeFileSync(path.join(dir, 'transcript.jsonl'), '{"a":2}\n');
    writeFileSync(path.join(dir, MANIFEST_FILE), serialiseManifest(buildManifest(readBundleFiles(dir))));
    const result = verifyEvidence(dir);
    assert.deepEqual(
      result.problems.map((p) => p.split(':')[0]),
      ['manifest.json altered', 'transcript.jsonl altered'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sanitiseProfile keeps env var names and configuration, strips secret-looking values and URL credentials', () => {
  const out = sanitiseProfile({
    name: 'sandbox',
    tokenPath: '/oauth/token',
    expectations0: { tokenErrors: 'rfc6749' },
    target: {
      baseUrl: 'https://user:pw@sandbox.example/api',
      clients: {
        primary: {
          clientId: 'PAYMENTS_SANDBOX_CLIENT_ID',
          clientSecret: 's3cr3t-value-xyz',
          privateKey: `${FAKE_PEM_BEGIN}\nMIIE\n-----END ${'PRIVATE'} KEY-----`,
        },
      },
      testJwts: { assertion: 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlc2ln' },
    },
    expectations: {
      statusCodes: { pending: ['PEND'] },
      rejectTrigger: { creditorAccount: '99999999', reasonCode: 'AC04' },
    },
    env: { REF_TOKEN_TTL_S: '300', SOME: 'QWxhZGRpbjpvcGVuIHNlc2FtZTEyMzQ1Njc4OTAxMjM0NTY3' },
  }) as Record<string, any>;
  assert.equal(out.target.baseUrl, 'https://sandbox.example/api');
  assert.equal(out.tokenPath, '/oauth/token', 'a path under a secret-sounding key is configuration');
  assert.deepEqual(out.expectations0, { tokenErrors: 'rfc6749' });
  assert.equal(out.target.clients.primary.clientId, 'PAYMENTS_SANDBOX_CLIENT_ID');
  assert.equal(out.target.clients.primary.clientSecret, '[redacted]');
  assert.equal(out.target.clients.primary.privateKey, '[redacted]');
  assert.equal(out.target.testJwts.assertion, '[redacted]');
  assert.deepEqual(out.expectations, {
    statusCodes: { pending: ['PEND'] },
    rejectTrigger: { creditorAccount: '99999999', reasonCode: 'AC04' },
  });
  assert.equal(out.env.REF_TOKEN_TTL_S, '300');
  assert.equal(out.env.SOME, '[redacted]');
});

test('testRecords reads outcomes, tags, skip reasons and first error lines', () => {
  const tests = testRecords({
    suites: [
      {
        title: 'auth/token.spec.ts',
        specs: [],
        suites: [
          {
            title: 'token',
            specs: [
              {
                title: 'ok',
                tags: ['@TOK-01'],
                tests: [{ status: 'expected', projectName: 'local', results: [{ status: 'passed' }] }],
              },
              {
                title: 'flaky',
                tags: ['@TOK-02'],
                tests: [
                  { status: 'flaky', projectName: 'local', results: [{ status: 'failed' }, { status: 'passed' }] },
                ],
              },
              {
                title: 'bad',
                tags: ['@TOK-03'],
                tests: [
                  {
                    status: 'unexpected',
                    projectName: 'local',
                    results: [
                      { status: 'failed', errors: [{ message: '\u001b[31mError: expected 200\u001b[39m\n  at x' }] },
                    ],
                  },
                ],
              },
              {
                title: 'skip',
                tags: ['@KEY-01'],
                tests: [
                  {
                    status: 'skipped',
                    projectName: 'local',
                    annotations: [
                      {
                        type: 'skip',
                        description: 'KEY-01 needs capability "keyRegistration", which profile s does not grant',
                      },
                    ],
                    results: [],
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
  assert.deepEqual(
    tests.map((t) => [t.title, t.outcome, t.tags.join(','), t.error ?? t.skipReason ?? '']),
    [
      ['local › auth/token.spec.ts › token › ok', 'passed', 'TOK-01', ''],
      ['local › auth/token.spec.ts › token › flaky', 'passed', 'TOK-02', ''],
      ['local › auth/token.spec.ts › token › bad', 'failed', 'TOK-03', 'Error: expected 200'],
      [
        'local › auth/token.spec.ts › token › skip',
        'skipped',
        'KEY-01',
        'KEY-01 needs capability "keyRegistration", which profile s does not grant',
      ],
    ],
  );
});

const R = ruleFixture;
const T = reportTest;
const check = (rule: string, ok: boolean) =>
  checkAnnotation({ rule, ok, what: `${rule} holds`, ...(ok ? {} : { detail: 'expected x; received y' }) });
const local = loadProfile('local');
const sandbox = loadProfile('sandbox');

test('a failing check fails only its own rule; the other rules the test checked pass', () => {
  const results = summariseRules(
    [R('S-01'), R('S-02'), R('S-03')],
    [T(['S-01', 'S-02', 'S-03'], 'failed', [check('S-01', true), check('S-02', false), check('S-03', true)])],
    local,
  );
  const byId = Object.fromEntries(results.map((r) => [r.id, r.status]));
  assert.deepEqual(byId, { 'S-01': 'passed', 'S-02': 'failed', 'S-03': 'passed' });
});

test('a failure no check claims fails every rule the test cites; a failed precondition leaves them not assessed', () => {
  const thrown = summariseRules([R('A-01'), R('A-02')], [T(['A-01', 'A-02'], 'failed', [], 'Error: boom')], local);
  assert.deepEqual(
    thrown.map((r) => r.status),
    ['failed', 'failed'],
  );
  const twin = summariseRules([R('A-01'), R('P-01')], [T(['A-01'], 'failed', [check('P-01', false)])], local);
  assert.deepEqual(Object.fromEntries(twin.map((r) => [r.id, r.status])), { 'A-01': 'not assessed', 'P-01': 'failed' });
});

test('a rule blocked by an assumption is not assessed, names the assumption, and blocks CERTIFIED', () => {
  const blocked = skipAnnotation({
    kind: 'blocked',
    by: 'assumption RFD-07',
    answer: 'the target refused it: HTTP 400',
    remedy: 'set messages.refund in the profile',
  });
  const results = summariseRules(
    [R('A-01'), R('B-01')],
    [T(['A-01'], 'passed'), T(['B-01'], 'skipped', [blocked])],
    local,
  );
  const b = results.find((r) => r.id === 'B-01')!;
  assert.equal(b.status, 'not assessed');
  assert.match(b.blockedBy!.join(), /blocked by assumption RFD-07: .*set messages.refund/);
  const verdict = verdictOf(results);
  assert.equal(verdict.certified, false);
  assert.deepEqual(
    verdict.notAssessed.map((r) => r.id),
    ['B-01'],
  );
});

test('CERTIFIED when every applicable documented rule passed; capability rules the profile cannot assess are not required', () => {
  const capSkip = skipAnnotation({ kind: 'capability', capability: 'keyRegistration', profile: 'sandbox' });
  const results = summariseRules(
    [R('A-01'), R('K-01', 'documented', 'keyRegistration'), R('S-01', 'assumption')],
    [T(['A-01'], 'passed'), T(['K-01'], 'skipped', [capSkip]), T(['S-01'], 'failed')],
    sandbox,
  );
  assert.equal(results.find((r) => r.id === 'K-01')!.status, 'not applicable');
  assert.equal(verdictOf(results).certified, true);
  const onLocal = summariseRules(
    [R('A-01'), R('K-01', 'documented', 'keyRegistration')],
    [T(['A-01'], 'passed')],
    local,
  );
  assert.equal(verdictOf(onLocal).certified, false, 'a granted capability makes its rules required');
  assert.deepEqual(
    verdictOf(onLocal).notCited.map((r) => r.id),
    ['K-01'],
  );
});

// ── run comparison (scripts/compare.ts): evidence of what changed between two runs ───────────────

test('compare normalises versions, ids and the project name, and leaves plain words alone', () => {
  assert.equal(
    normalisePath('http://127.0.0.1:1/payments/pacs002/v12/7f3e0c1a-0000-4000-8000-000000000000'),
    '/payments/pacs002/{version}/{id}',
  );
  assert.equal(normalisePath('https://x/payments/pacs008/v08'), '/payments/pacs008/{version}');
  assert.equal(normalisePath('https://x/oauth/token'), '/oauth/token');
  assert.equal(
    normaliseTitle('local › a.spec.ts › [local] local instrument', 'local'),
    'a.spec.ts › [<project>] local instrument',
  );
  assert.equal(normaliseTitle('local-flow-versions › a.spec.ts › t', 'local-flow-versions'), 'a.spec.ts › t');
});

const run = (project: string, outcome: TestRecord['outcome'], body: unknown, status = 201, polls = 1): RunData => ({
  source: project,
  projects: [project],
  tests: [{ title: `${project} › p.spec.ts › pays`, project, tags: [], outcome }],
  transcript: [
    {
      project,
      test: 'pays',
      label: 'submit',
      startedAt: '1',
      request: { method: 'POST', url: `http://h/payments/pacs008/${project === 'local' ? 'v10' : 'v08'}` },
      response: { status, body: JSON.stringify(body) },
    },
    ...Array.from({ length: polls }, (_, i) => ({
      project,
      test: 'pays',
      label: 'poll',
      startedAt: `2${i}`,
      request: { method: 'GET', url: 'http://h/payments/pacs002/v12/abc' },
      response: { status: 200, body: '{"s":"PEND"}' },
    })),
  ],
});

test('compare: runs of two projects that behave alike have no differences, whatever the poll count', () => {
  const c = compareRuns(
    run('local', 'passed', { data: { id: 'x' } }, 201, 2),
    run('local-flow-versions', 'passed', { data: { id: 'y' } }, 201, 5),
  );
  assert.equal(hasDifferences(c), false);
  assert.match(renderText(c), /no differences$/);
});

test('compare: newly failing tests, status changes and schema drift are reported', () => {
  const c = compareRuns(
    run('local', 'passed', { data: { id: 'x', n: 1 } }),
    run('local-flow-versions', 'failed', { data: { id: 1, extra: true } }, 200),
  );
  assert.deepEqual(
    c.newlyFailing.map((t) => t.test),
    ['p.spec.ts › pays'],
  );
  assert.deepEqual(c.statusChanges, [{ call: 'pays ⟶ submit', from: [201], to: [200] }]);
  assert.deepEqual(c.operationsOnlyInA, ['POST /payments/pacs008/{version} → 201']);
  const same = compareRuns(
    run('local', 'passed', { data: { id: 'x', n: 1 } }),
    run('local', 'passed', { data: { id: 1, extra: true } }),
  );
  assert.deepEqual(same.drift, [
    {
      operation: 'POST /payments/pacs008/{version} → 201',
      added: [{ path: '$.data.extra', types: 'boolean' }],
      removed: [{ path: '$.data.n', types: 'number' }],
      retyped: [{ path: '$.data.id', from: 'string', to: 'number' }],
    },
  ]);
});
