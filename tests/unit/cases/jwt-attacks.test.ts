/**
 * The JWT attacks of cases/jwt-attacks.ts that publish a document on the suite's loopback (x5u, jku)
 * can be judged only on a target on this machine: a remote target cannot fetch the URL, so its
 * refusal proves nothing and the test is not applicable there.
 * Run: node --import tsx --test tests/unit/cases/jwt-attacks.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jwtAttacks, outOfReach } from '../../../cases/jwt-attacks';

test('an attack that publishes a document is out of reach of a remote target only', () => {
  const hosted = jwtAttacks.filter((a) => a.needsHost);
  assert.ok(hosted.length >= 2, 'x5u and jku publish a document');
  for (const attack of jwtAttacks) {
    assert.equal(outOfReach(attack, 'reference'), undefined, `${attack.name} on the reference`);
    assert.equal(
      outOfReach(attack, 'remote') !== undefined,
      attack.needsHost === true,
      `${attack.name} on a remote target`,
    );
  }
});
