/**
 * TOK-13 where RFC 6749 §5.2 reads two ways (cases/token-cases.ts): a missing grant_type,
 * scope or assertion may get invalid_request or the parameter's own code. The default accepts both;
 * a profile may choose one (expectations.tokenErrorCodes); discovery reads an answer the same way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tokenCases, tokenErrorCodes } from '../../../cases/token-cases';
import { tokenErrorReading } from '../../../engines/discovery/triggers';
import type { Exchange } from '../../../transport/http';
import { parseProfile } from '../../../profile/profile';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const byName = (name: string) => tokenCases.find((c) => c.name === name)!;
const answer = (status: number, error: string, headers: Record<string, string> = {}): Exchange =>
  ({
    request: { method: 'POST', url: 'http://x/oauth/token', headers: {} },
    response: { status, headers, text: JSON.stringify({ error }), json: { error } },
  }) as unknown as Exchange;

test('a missing parameter: both RFC 6749 §5.2 readings pass by default, one when the profile chooses it', () => {
  for (const [name, specific] of [
    ['grant_type missing', 'unsupported_grant_type'],
    ['scope missing', 'invalid_scope'],
    ['assertion missing', 'invalid_grant'],
  ] as const) {
    const c = byName(name);
    assert.deepEqual(tokenErrorCodes(c, 'either'), ['invalid_request', specific], name);
    assert.deepEqual(tokenErrorCodes(c, 'generic'), ['invalid_request']);
    assert.deepEqual(tokenErrorCodes(c, 'specific'), [specific]);
    assert.deepEqual(tokenErrorReading(c, answer(400, 'invalid_request')), { rfc6749: true, codes: 'generic' });
    assert.deepEqual(tokenErrorReading(c, answer(400, specific)), { rfc6749: true, codes: 'specific' });
    assert.deepEqual(tokenErrorReading(c, answer(400, 'invalid_client')), { rfc6749: false });
  }
  // Where the RFC gives one reading, only it passes, whatever the profile says.
  const secret = byName('wrong client secret');
  assert.deepEqual(tokenErrorCodes(secret, 'either'), ['invalid_client']);
  assert.deepEqual(tokenErrorCodes(secret, 'specific'), ['invalid_client']);
  assert.deepEqual(tokenErrorReading(secret, answer(401, 'invalid_client', { 'www-authenticate': 'Basic' })), {
    rfc6749: true,
  });
  assert.deepEqual(
    tokenErrorReading(secret, answer(401, 'invalid_client')),
    { rfc6749: false },
    'a 401 names its challenge',
  );
  assert.equal(tokenCases.filter((c) => c.rfc.specific).length, 3, 'only the three missing parameters read two ways');
});

test('expectations.tokenErrorCodes is a profile field, absent by default (either)', () => {
  const local = JSON.parse(
    readFileSync(path.join(__dirname, '..', '..', '..', 'environments', 'local.json'), 'utf8'),
  ) as {
    expectations: Record<string, unknown>;
  };
  assert.equal(parseProfile(local, 'local').expectations.tokenErrorCodes, undefined);
  local.expectations.tokenErrorCodes = 'specific';
  assert.equal(parseProfile(local, 'local').expectations.tokenErrorCodes, 'specific');
  local.expectations.tokenErrorCodes = 'both';
  assert.throws(() => parseProfile(local, 'local'), /tokenErrorCodes/);
});
