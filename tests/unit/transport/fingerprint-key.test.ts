/**
 * Item "keyed fingerprints": a redacted value's fingerprint is 48 bits of HMAC-SHA256 under a per-run
 * key (PAYMENTS_FINGERPRINT_KEY, made with the run context and inherited by every worker), not of a
 * bare SHA-256 that would confirm a guessed weak secret offline. The key is in the secret scan's
 * canary and never in an artifact.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Redactor, fingerprint, fingerprintKey } from '../../../transport/redact';
import { runSettings } from '../../../profile/run-settings';
import { scanForSecrets } from '../../../scripts/scan-secrets';
import { cleanEnv, runPlaywrightCli, tempDir } from '../support/cli';

const sha48 = (v: string): string => createHash('sha256').update(v).digest('hex').slice(0, 12);
const hmac48 = (key: string, v: string): string => createHmac('sha256', key).update(v).digest('hex').slice(0, 12);

function withKey<T>(key: string | undefined, fn: () => T): T {
  const saved = process.env.PAYMENTS_FINGERPRINT_KEY;
  if (key === undefined) delete process.env.PAYMENTS_FINGERPRINT_KEY;
  else process.env.PAYMENTS_FINGERPRINT_KEY = key;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.PAYMENTS_FINGERPRINT_KEY;
    else process.env.PAYMENTS_FINGERPRINT_KEY = saved;
  }
}

test('fingerprints are HMAC-SHA256 under the run key, not a bare hash a guess can be checked against', () => {
  const weak = 'Summer2026!';
  withKey('run-key-one', () => {
    assert.equal(fingerprint(weak), hmac48('run-key-one', weak));
    assert.notEqual(fingerprint(weak), sha48(weak));
    const out = new Redactor().headers({
      authorization: `Basic ${Buffer.from(`client-1:${weak}`).toString('base64')}`,
    });
    assert.match(out.authorization!, /^Basic \[REDACTED hmac:[0-9a-f]{12}\]$/);
    assert.ok(!out.authorization!.includes(sha48(Buffer.from(`client-1:${weak}`).toString('base64'))));
  });
  const a = withKey('run-key-one', () => fingerprint(weak));
  const b = withKey('run-key-two', () => fingerprint(weak));
  assert.notEqual(a, b, 'another run, another key: fingerprints do not link runs');
  assert.equal(
    withKey(undefined, () => fingerprint(weak)),
    withKey(undefined, () => fingerprint(weak)),
    'a process without a run key keeps one key of its own',
  );
});

test('the run context makes the key once (32 random bytes) and keeps one it is given; the canary lists it', () => {
  withKey(undefined, () => {
    runSettings();
    const key = process.env.PAYMENTS_FINGERPRINT_KEY!;
    assert.equal(Buffer.from(key, 'base64url').length, 32);
    runSettings();
    assert.equal(process.env.PAYMENTS_FINGERPRINT_KEY, key, 'kept');
    assert.equal(fingerprintKey(), key);
    assert.ok(new Redactor().secretValues().some((s) => s.label === 'fingerprint key' && s.value === key));
  });
});

test('all workers of a run share one key: every fingerprint in the transcripts is an HMAC under it; it is in no artifact', () => {
  const work = tempDir('hmac');
  const runDir = path.join(work, 'run');
  const canary = path.join(work, 'canary.jsonl');
  const run = runPlaywrightCli(
    ['--project=local', 'tests/auth/token.spec.ts', '--grep', 'refuses'],
    cleanEnv({ PAYMENTS_RUN_DIR: runDir, PAYMENTS_SECRET_CANARY: canary, PAYMENTS_WORKERS: '2' }),
  );
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const secrets = readFileSync(canary, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { label: string; value: string });
  const keys = new Set(secrets.filter((s) => s.label === 'fingerprint key').map((s) => s.value));
  assert.equal(keys.size, 1, 'one key for the whole run');
  const key = [...keys][0]!;
  const workers = new Set<string>();
  const known = new Map<string, string>();
  for (const s of secrets) known.set(hmac48(key, s.value), s.label);
  let checked = 0;
  for (const f of readdirSync(path.join(runDir, 'transcripts'))) {
    const text = readFileSync(path.join(runDir, 'transcripts', f), 'utf8');
    for (const m of text.matchAll(/REDACTED JWT hmac:([0-9a-f]{12})/g)) {
      if (known.has(m[1]!)) {
        checked++;
        workers.add(f);
      }
    }
    assert.doesNotMatch(text, /REDACTED[^\]]*sha256:/, 'no bare-hash fingerprint is left');
  }
  assert.ok(checked > 0, 'fingerprints of registered secrets are HMACs under the run key');
  assert.equal(workers.size, 2, `both workers' transcripts use the run key (${[...workers].join(', ')})`);
  const leak = path.join(work, 'key-only.jsonl');
  require('node:fs').writeFileSync(leak, `${JSON.stringify({ label: 'fingerprint key', value: key })}\n`);
  assert.deepEqual(scanForSecrets(leak, [runDir]).leaks, [], 'the key is written to no artifact of the run');
});
