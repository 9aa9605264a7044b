/**
 * A reference profile without admin (local-sandbox-like) runs like a sandbox: the runner onboards the
 * clients the profile declares once (fills their variables, hands the reference REF_CLIENTS), the
 * reference knows them from its start and has no admin API, and workers read the clients exactly as
 * for a remote target.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadProfile, secretVariables } from '../../../profile/profile';
import { onboardedClients } from '../../../client/provisioning';
import { clientFromEnvironment, resolveTarget } from '../../../client/target';
import { grantedCapabilities } from '../../../ledger/capabilities';
import { shareClientKeys } from '../../../transport/keys';
import { startReference } from '../../../reference/server';
import { requestToken } from '../support/reference-http';
import type { RunSettings } from '../../../profile/run-settings';
import { is4xx } from '../../../messages/http-status';

test('onboarding fills every variable the profile names, once per run; other profiles are left alone', () => {
  const profile = loadProfile('local-sandbox-like');
  const env: NodeJS.ProcessEnv = {};
  shareClientKeys(env);
  const first = onboardedClients(profile, env);
  assert.ok(first);
  for (const name of secretVariables(profile)) assert.ok(env[name], `${name} is set`);
  assert.equal(
    onboardedClients(profile, env),
    first,
    'a second evaluation of the config (a worker) reuses the run’s clients',
  );
  assert.equal(JSON.parse(first).length, 6, 'primary, secondary and the four weak-key clients');
  assert.equal(onboardedClients(loadProfile('local'), env), undefined);
  // The profile's dialect is the sandbox's: every onboarded client is answered in it (the default needs no field).
  assert.ok((JSON.parse(first) as { dialect?: unknown }[]).every((r) => r.dialect === undefined));
  const onUs = { ...profile, name: 'on-us', target: { ...profile.target, dialect: { onUs: 'notIncoming' } } };
  const inDialect = JSON.parse(onboardedClients(onUs as typeof profile, {})!) as { dialect?: unknown }[];
  assert.ok(inDialect.every((r) => JSON.stringify(r.dialect) === '{"onUs":"notIncoming"}'));
  assert.ok(grantedCapabilities(profile).has('secondClient'));
  assert.equal(
    resolveTarget(profile, { referenceUrl: 'http://127.0.0.1:1' } as RunSettings).adminUrl,
    undefined,
    'no admin API to call',
  );
});

test('the reference knows the onboarded clients from its start, without admin: conforming keys get tokens, forbidden keys do not', async () => {
  const profile = loadProfile('local-sandbox-like');
  const env: NodeJS.ProcessEnv = {};
  shareClientKeys(env);
  const clients = JSON.parse(onboardedClients(profile, env)!) as unknown[];
  const ref = await startReference({ host: '127.0.0.1', port: 0, admin: false, clients });
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    assert.equal((await fetch(`${ref.url}/_admin/info`)).status, 404);
    const declared = profile.target.kind === 'reference' ? profile.target.clients! : undefined;
    assert.equal((await requestToken(ref, clientFromEnvironment(profile, 'primary', declared!.primary))).status, 200);
    assert.equal(
      (await requestToken(ref, clientFromEnvironment(profile, 'secondary', declared!.secondary!))).status,
      200,
    );
    for (const [kind, refs] of Object.entries(declared!.weakKeys!)) {
      const answer = await requestToken(ref, clientFromEnvironment(profile, kind, refs!, { weak: true }));
      assert.ok(is4xx(answer.status), `${kind}: ${answer.status}`);
    }
  } finally {
    process.env = saved;
    await ref.close();
  }
});

test('a registration REF_CLIENTS cannot take stops the start with its problem', async () => {
  await assert.rejects(
    startReference({
      host: '127.0.0.1',
      port: 0,
      admin: false,
      clients: [{ clientId: 'a', clientSecret: 'b', iss: 'c', publicKey: 'd' }],
    }),
    /REF_CLIENTS entry 1: kid is required/,
  );
});
