/**
 * Two independent readings of the spec must agree on valid data: 1,000 seeded pacs.008 messages from
 * the suite's factory are all accepted (201) by the reference service, with full token and SCA checks.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startReference } from '../../../reference/server';
import { buildPacs008 } from '../../../messages/pacs008';
import { generatedClient } from '../../../client/target';
import { generateRsaKeyPair } from '../../../transport/keys';
import { authenticationJwt, scaJwt } from '../../../transport/client-jwts';
import { HttpClient } from '../../../transport/http';
import { registrationOf } from '../support/reference-http';

const http = new HttpClient();
let reference: Awaited<ReturnType<typeof startReference>>;

before(async () => {
  reference = await startReference({ host: '127.0.0.1', port: 0, admin: true });
});
after(async () => {
  await reference.close();
});

test('1,000 seeded pacs.008 messages are all accepted by the reference', async () => {
  const client = generatedClient('factory', 'unit', 0, generateRsaKeyPair(2048));
  const registered = await http.send('register', {
    method: 'POST',
    url: `${reference.url}/_admin/clients`,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registrationOf(client)),
  });
  assert.equal(registered.response.status, 201);
  const form = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: authenticationJwt(client),
    scope: 'makePayments',
  });
  const token = await http.send('token', {
    method: 'POST',
    url: `${reference.url}/oauth/token`,
    headers: {
      authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    },
    body: form.toString(),
  });
  const accessToken = (token.response.json as { access_token: string }).access_token;
  const refused: string[] = [];
  for (let batch = 0; batch < 1000; batch += 50) {
    await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const seed = `factory-seed-${batch + i}`;
        const body = JSON.stringify(buildPacs008({ seed }));
        const ex = await http.send('submit', {
          method: 'POST',
          url: `${reference.url}/payments/pacs008/v10`,
          headers: {
            authorization: `Bearer ${accessToken}`,
            'x-client-id': client.clientId,
            'content-type': 'application/json',
            accept: 'application/json',
            'sca-token': scaJwt(client, body),
          },
          body,
        });
        if (ex.response.status !== 201)
          refused.push(`${seed}: ${ex.response.status} ${ex.response.text.slice(0, 200)}`);
      }),
    );
  }
  assert.deepEqual(refused, [], `the reference refused factory output:\n${refused.slice(0, 5).join('\n')}`);
});
