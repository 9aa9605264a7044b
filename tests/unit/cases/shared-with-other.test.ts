/**
 * A case that takes the other client's kid or iss is the valid twin again where both clients
 * registered the same value (two clients of one bank): sharedWithOther names it, and the test is
 * not applicable there. Run: node --import tsx --test tests/unit/cases/shared-with-other.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { sameAsTwin, sharedWithOther } from '../../../cases/credential-rows';
import { headerCases } from '../../../cases/sca-cases';
import { tokenCases } from '../../../cases/token-cases';
import type { ClientIdentity } from '../../../transport/client-jwts';

const a: ClientIdentity = { role: 'primary', clientId: 'A', clientSecret: 's', kid: 'key-1', iss: 'bank.example' };
const b: ClientIdentity = { role: 'secondary', clientId: 'B', clientSecret: 't', kid: 'key-2', iss: 'other.example' };
const byName = <C extends { name: string }>(cases: readonly C[], name: string): C => {
  const found = cases.find((c) => c.name === name);
  assert.ok(found, name);
  return found;
};

test('the other client’s kid or iss, where it is this client’s too', () => {
  const kid = byName(headerCases, 'SCA kid of the secondary client');
  const iss = byName(headerCases, 'SCA iss of the secondary client');
  const tokenIss = byName(tokenCases, 'iss of another client');
  assert.deepEqual(sharedWithOther(kid.change, a, b), []);
  assert.deepEqual(sharedWithOther(kid.change, a, { ...b, kid: a.kid }), ['kid']);
  assert.deepEqual(sharedWithOther(iss.change, a, { ...b, iss: a.iss }), ['iss']);
  assert.deepEqual(sharedWithOther(iss.change, a, { ...b, kid: a.kid }), [], 'the kid is not what this case takes');
  assert.deepEqual(sharedWithOther(tokenIss.change, a, { ...b, iss: a.iss }), ['iss']);
  assert.deepEqual(sharedWithOther(kid.change, a, undefined), []);
  // Signed with the other client's key: no twin, whatever the kids.
  const signed = byName(tokenCases, "another client's kid, signed with that client's key");
  assert.deepEqual(sharedWithOther(signed.change, a, { ...b, kid: a.kid }), []);
  // A value changed from the client's own is never the twin's.
  assert.deepEqual(sharedWithOther(byName(headerCases, 'SCA kid not the registered one').change, a, a), []);
});

test('the other client’s key, where both clients registered one key pair', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { privateKey: another } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyed = { ...a, privateKey };
  const scaKey = byName(headerCases, "SCA signed by the secondary client's key");
  assert.deepEqual(sharedWithOther(scaKey.change, keyed, { ...b, privateKey }), ['signingKey']);
  assert.equal(
    sameAsTwin(['signingKey']),
    'both clients registered the same key pair: the mutant would be the valid twin',
  );
  assert.deepEqual(sharedWithOther(scaKey.change, keyed, { ...b, privateKey: another }), []);
  // Its key but its kid too: no twin while the kids differ.
  const signed = byName(tokenCases, "another client's kid, signed with that client's key");
  assert.deepEqual(sharedWithOther(signed.change, keyed, { ...b, privateKey }), []);
});
