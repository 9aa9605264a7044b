/**
 * A discovered profile is shared; the secrets of the discovery that wrote it never are: the file is
 * refused, naming what it would hold, when its text holds any secret the process registered.
 * Run: node --require tsx/cjs --test tests/unit/scripts/discover-secrets.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoSecret } from '../../../scripts/discover';
import { Redactor } from '../../../transport/redact';

test('a discovered file holding a secret of the discovery is refused, naming the secret; one without is written', () => {
  // A redactor of its own: this file may share its process, and that process's redactor, with others.
  const redactor = new Redactor();
  for (let i = 0; i < 2000; i++) redactor.addSecret(`opaque-token-${i}-${'x'.repeat(20)}`, `access token ${i}`);
  redactor.addSecret('s3cr3t-client-value', 'client secret');
  const clean = JSON.stringify({
    answers: Array.from({ length: 200 }, (_, i) => `answer ${i}: [REDACTED client secret]`),
  });
  assert.doesNotThrow(() => assertNoSecret(clean, 'environments/x.discovered.json', redactor));
  assert.throws(
    () => assertNoSecret(`${clean}{"seen":"s3cr3t-client-value"}`, 'environments/x.discovered.json', redactor),
    /environments\/x\.discovered\.json would hold client secret: not written/,
  );
  assert.throws(
    () => assertNoSecret(`…opaque-token-1999-${'x'.repeat(20)}…`, 'f.json', redactor),
    /f\.json would hold access token 1999: not written/,
  );
});
