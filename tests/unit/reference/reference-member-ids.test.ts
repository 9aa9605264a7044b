/**
 * A sort code names one institution: the reference refuses to register a memberId another client
 * holds (409 member_id_taken), and the suite's registration draws another. Before, a later
 * registration took the sort code over in silence, and on the dialect matrix's one reference (thousands
 * of clients with random sort codes) a payment to one project's beneficiary was notified to another's.
 * Run: node --import tsx --test tests/unit/reference/reference-member-ids.test.ts
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ReferenceHandle } from '../../../reference/server';
import { Registry } from '../../../reference/registry';
import { resolveDialect } from '../../../reference/dialects';
import { HttpClient } from '../../../transport/http';
import { generateRsaKeyPair } from '../../../transport/keys';
import { generatedClient, registerClient } from '../../../client/target';
import { registrationOf, startRef } from '../support/reference-http';

let ref: ReferenceHandle;
before(async () => {
  ref = await startRef();
});
after(async () => {
  await ref.close();
});

const keys = generateRsaKeyPair(2048);

function registration(client: ReturnType<typeof generatedClient>, memberId = client.memberId) {
  return fetch(`${ref.url}/_admin/clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationOf(client, { memberId })),
  });
}

test('a memberId another client holds is refused with 409 member_id_taken; its holder keeps it and may register again', async () => {
  const holder = generatedClient('holder', 'unit', 0, keys);
  assert.equal((await registration(holder)).status, 201);
  const other = generatedClient('other', 'unit', 0, keys);
  const refused = await registration(other, holder.memberId);
  assert.equal(refused.status, 409);
  assert.match(await refused.text(), /member_id_taken/);
  assert.equal((await registration(holder)).status, 201, 're-registering a client with its own sort code');
});

test('Registry: a refused clash leaves the sort code routing to its holder', () => {
  const registry = new Registry([], resolveDialect('default'));
  const holder = generatedClient('holder', 'unit', 0, keys);
  assert.equal(registry.register(registrationOf(holder)).ok, true);
  const clash = registry.register(
    registrationOf(generatedClient('other', 'unit', 0, keys), { memberId: holder.memberId }),
  );
  assert.deepEqual([clash.ok, clash.memberIdTaken], [false, true]);
  assert.equal(registry.byMemberId(holder.memberId!)?.clientId, holder.clientId);
});

test('registerClient draws another sort code where the reference says this one is taken', async () => {
  const target = { baseUrl: ref.url, authUrl: ref.url, adminUrl: ref.url };
  const http = new HttpClient();
  const first = await registerClient(http, target, generatedClient('first', 'unit', 0, keys));
  const clashing = { ...generatedClient('second', 'unit', 0, keys), memberId: first.memberId };
  const second = await registerClient(http, target, clashing);
  assert.notEqual(second.memberId, first.memberId);
  assert.equal(second.clientId, clashing.clientId);
  // The reference holds the new sort code for the second client: a third may not take it.
  const third = generatedClient('third', 'unit', 0, keys);
  assert.equal((await registration(third, second.memberId)).status, 409);
});
