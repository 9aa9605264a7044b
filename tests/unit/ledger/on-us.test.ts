/**
 * On-us as a reading (INC-06, expectations.onUs): what a payment of the client to its own sort code
 * grants, which original a return or refund takes with one client, what a refusal of it blocks by,
 * and that the pool pays no original a profile's returns never take. Pure: profiles as loaded, no run.
 * Run: node --import tsx --test tests/unit/ledger/on-us.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProfile, type Profile } from '../../../profile/profile';
import {
  grantedCapabilities,
  originalAssumption,
  returnsUnknownOriginals,
  ruleApplies,
} from '../../../ledger/capabilities';
import { ruleOf } from '../../../ledger/rules';
import { addToPlan, emptyProjectPlan, takes } from '../../../arrange/plan';

const withExpectations = (profile: Profile, expectations: Partial<Profile['expectations']>): Profile => ({
  ...profile,
  expectations: { ...profile.expectations, ...expectations },
});

test('with one client the primary’s own sort code makes it the beneficiary only where the profile reads on-us payments as incoming', () => {
  const oneClient = loadProfile('local-one-client');
  const granted = grantedCapabilities(oneClient);
  assert.ok(granted.has('beneficiarySide') && granted.has('ownSortCode'), 'onUs left out: incoming, as before');
  assert.equal(originalAssumption(oneClient), 'INC-06', 'a refusal of its on-us original blocks by INC-06');

  const notIncoming = withExpectations(oneClient, { onUs: 'notIncoming' });
  const left = grantedCapabilities(notIncoming);
  assert.ok(!left.has('beneficiarySide'), 'no client receives the suite’s payments');
  assert.ok(left.has('returnableOriginal'), 'returns send back payments never made (returnUnknownOriginal: accept)');
  assert.ok(left.has('ownSortCode'), 'INC-06 still asks how the target reads a payment to it');
  assert.ok(returnsUnknownOriginals(notIncoming));
  assert.equal(originalAssumption(notIncoming), 'RTR-36');
  assert.ok(!ruleApplies(ruleOf('RFD-01'), notIncoming), 'refunds need a payment the client received');
  assert.ok(ruleApplies(ruleOf('RTR-01'), notIncoming));

  const refusing = withExpectations(notIncoming, { returnUnknownOriginal: 'refuse' });
  assert.ok(!grantedCapabilities(refusing).has('returnableOriginal'), 'nothing is left to return: skipped, naming it');

  // A second client receives: on-us does not decide anything then.
  const local = loadProfile('local');
  assert.ok(grantedCapabilities(withExpectations(local, { onUs: 'notIncoming' })).has('beneficiarySide'));
  assert.equal(originalAssumption(local), undefined, 'a refusal of the second client’s payment is evidence');
  assert.ok(!grantedCapabilities(loadProfile('local-one-client-nomember')).has('ownSortCode'));
});

test('INC-02 reads the profile’s incomingPaymentId where no client receives the suite’s payments', () => {
  const sandbox = loadProfile('sandbox');
  const notIncoming = withExpectations(sandbox, { onUs: 'notIncoming' });
  assert.ok(!ruleApplies(ruleOf('INC-02'), notIncoming));
  const declared = { ...notIncoming, target: { ...notIncoming.target, incomingPaymentId: 'PSI-KNOWN' } } as Profile;
  assert.ok(ruleApplies(ruleOf('INC-02'), declared));
  assert.ok(!ruleApplies(ruleOf('RFD-01'), declared), 'never refunded: it would spend a payment that outlives the run');
});

test('notifications are granted by a reference profile only: the suite’s listener is registered there', () => {
  assert.ok(grantedCapabilities(loadProfile('local')).has('notifications'));
  const sandbox = loadProfile('sandbox');
  const claiming = { ...sandbox, capabilities: { ...sandbox.capabilities, notifications: true } };
  assert.ok(!grantedCapabilities(claiming).has('notifications'), 'INC-01 and INC-04 skip, naming it');
  assert.ok(!ruleApplies(ruleOf('INC-01'), claiming));
});

test('the plan counts a return’s originals only where the profile’s returns take settled payments', () => {
  const annotations = [
    ...takes({ pool: 'settled', count: 2, forReturn: true }).annotation,
    ...takes({ pool: 'settled', count: 1 }).annotation,
  ];
  const known = emptyProjectPlan();
  addToPlan(known, annotations);
  assert.equal(known.pool.settled, 3);
  const unknown = emptyProjectPlan();
  addToPlan(unknown, annotations, { unknownOriginals: true });
  assert.equal(unknown.pool.settled, 1, 'the other test still takes its payment');
});
