/**
 * The JWT attacks of cases/jwt-attacks.ts that publish a document on the suite's loopback (x5u, jku)
 * can be judged only on a target on this machine: a target elsewhere cannot fetch the URL, so its
 * refusal proves nothing and the test is not applicable there; a remote profile on a loopback address can.
 * Run: node --import tsx --test tests/unit/cases/jwt-attacks.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jwtAttacks, outOfReach } from '../../../cases/jwt-attacks';

const elsewhere = { kind: 'remote', baseUrl: 'https://sandbox.example.com/api' } as const;

test('an attack that publishes a document is out of reach of a target elsewhere only', () => {
  const hosted = jwtAttacks.filter((a) => a.needsHost);
  assert.ok(hosted.length >= 2, 'x5u and jku publish a document');
  for (const attack of jwtAttacks) {
    assert.equal(outOfReach(attack, { kind: 'reference' }), undefined, `${attack.name} on the reference`);
    assert.equal(
      outOfReach(attack, elsewhere) !== undefined,
      attack.needsHost === true,
      `${attack.name} on a remote target`,
    );
  }
});

test('a remote profile on this machine (a loopback baseUrl) is within reach', () => {
  const hosted = jwtAttacks.find((a) => a.needsHost)!;
  for (const baseUrl of ['http://127.0.0.1:8091', 'http://localhost:8091/api', 'http://[::1]:8091'])
    assert.equal(outOfReach(hosted, { kind: 'remote', baseUrl }), undefined, baseUrl);
  assert.ok(outOfReach(hosted, { kind: 'remote', baseUrl: 'http://10.0.0.5:8091' }));
});
