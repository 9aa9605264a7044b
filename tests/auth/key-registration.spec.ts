/**
 * Spec §5.4: the registered key must be RSA, PEM, unencrypted and at least 2048 bits; otherwise the
 * token is rejected. Against the reference the suite registers such keys itself (keyRegistration);
 * against a remote target the provider may pre-register test clients with them (profile
 * target.clients.weakKeys). Twin: a client with a conforming key gets a token. The cases are rows of
 * cases/key-cases.ts.
 */
import { test } from '../../fixtures/test';
import { clientFromEnvironment } from '../../client/target';
import type { Signer } from '../../transport/jws';
import { signingKeyOf, type ClientIdentity } from '../../transport/client-jwts';
import { declaredClients } from '../../profile/profile';
import { refusedAnswer, twinAccepted } from '../../checks/answers';
import { keyCases, weakKeyOf } from '../../cases/key-cases';

/** The signature a key's owner would make: ES256 for an EC key, RS256 otherwise. */
const signerOf = (client: ClientIdentity): { signer: Signer; alg: string } =>
  signingKeyOf(client).asymmetricKeyType === 'ec'
    ? { signer: { kind: 'es256', key: signingKeyOf(client) }, alg: 'ES256' }
    : { signer: { kind: 'rs256', key: signingKeyOf(client) }, alg: 'RS256' };

test.describe('key registration: a key the spec forbids makes every token request fail', () => {
  for (const c of keyCases) {
    test(`registered ${c.name}: token refused`, { tag: [`@${c.rule}`] }, async ({
      api,
      verdicts,
      profile,
      granted,
      newClient,
    }) => {
      let weak: ClientIdentity;
      const preRegistered = declaredClients(profile)?.weakKeys?.[c.weakKey];
      if (preRegistered) {
        weak = clientFromEnvironment(profile, `pre-registered ${c.weakKey}`, preRegistered, { weak: true });
        const twin = await api.requestToken({
          label: 'valid twin: the primary client, registered with a conforming key',
        });
        twinAccepted(verdicts, twin, { rule: 'TOK-01', status: [200] });
      } else {
        if (!granted.has('keyRegistration'))
          verdicts.skip({ kind: 'capability', capability: 'keyRegistration', profile: profile.name, rule: c.rule });
        const good = await newClient('twin');
        const twin = await api.requestToken({
          client: good,
          label: 'valid twin: same client shape, conforming RSA-2048 PEM key',
        });
        twinAccepted(verdicts, twin, { rule: 'TOK-01', status: [200] });
        const { pair, registered } = weakKeyOf(c.weakKey);
        weak = await newClient('mutant', { keys: { ...pair, publicPem: registered }, publicKey: registered });
      }
      const { signer, alg } = signerOf(weak);
      const mutant = await api.requestToken({
        client: weak,
        assertion: { signer, header: { alg } },
        label: `mutant: client registered with ${c.name}`,
      });
      verdicts.check(c.rule, `no token is issued to a client registered with ${c.name}`, refusedAnswer(mutant));
    });
  }
});
