import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { scanForSecrets } from '../../../scripts/scan-secrets';
import { generateRsaKeyPair } from '../../../transport/keys';
import { tempDir } from '../support/cli';

function fixture(
  files: Record<string, string>,
  secrets: { label: string; value: string }[],
): { dir: string; canary: string } {
  const dir = tempDir('scan');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, 'reports', name)), { recursive: true });
    writeFileSync(path.join(dir, 'reports', name), content);
  }
  const canary = path.join(dir, 'canary.jsonl');
  writeFileSync(canary, `${secrets.map((s) => JSON.stringify(s)).join('\n')}\n`);
  return { dir: path.join(dir, 'reports'), canary };
}

test('finds a client secret in a nested report file and names the file', () => {
  const { dir, canary } = fixture({ 'a/b/attachment.txt': 'client_secret=s3cr3t-value-42' }, [
    { label: 'client secret', value: 's3cr3t-value-42' },
  ]);
  const { leaks } = scanForSecrets(canary, [dir]);
  assert.equal(leaks.length, 1);
  assert.match(leaks[0]!.file, /attachment\.txt$/);
});

test('finds a private key even when its PEM was re-wrapped or JSON-escaped', () => {
  const pem = generateRsaKeyPair(2048).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const { dir, canary } = fixture({ 'r.json': JSON.stringify({ key: pem }) }, [{ label: 'private key', value: pem }]);
  assert.equal(scanForSecrets(canary, [dir]).leaks.length, 1);
});

test('reports nothing when the report holds only redacted renderings', () => {
  const { dir, canary } = fixture({ 'ok.txt': 'authorization: Bearer [REDACTED sha256:abc]' }, [
    { label: 'access token', value: 'opaque-token-123456' },
  ]);
  assert.deepEqual(scanForSecrets(canary, [dir]).leaks, []);
});
