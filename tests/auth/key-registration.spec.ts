/**
 * Spec §5.4: the registered key must be RSA, PEM, unencrypted and at least 2048 bits; otherwise the
 * token is rejected. Against the reference the suite registers such keys itself (keyRegistration);
 * against a remote target the provider may pre-register test clients with them (profile
 * target.clients.weakKeys). Twin: a client with a conforming key gets a token.
 */
import { test } from '../../fixtures/test';
import { clientFromEnvironment } from '../../client/target';
import { encryptedPem, generateEcKeyPair, generateRsaKeyPair, jwkText, type KeyPair } from '../../helpers/keys';
import type { Signer } from '../../helpers/jws';
import { signingKeyOf, type ClientIdentity } from '../../helpers/client-jwts';
import { declaredClients, type WeakKey } from '../../helpers/profile';
import { refusedAnswer, twinAccepted } from '../../checks/answers';

interface KeyCase {
  name: string;
  rule: string;
  weakKey: WeakKey;
  /**
   * The key registered as the client's public key, and the matching private key that signs the
   * assertion: the signature is then valid for the registered key, so the key itself is the only
   * reason left to refuse the token.
   */
  key: () => { pair: KeyPair; registered: string };
}

let rsa1024: KeyPair | undefined;
const cases: KeyCase[] = [
  {
    name: 'an EC P-256 key (assertion signed ES256 with it)',
    rule: 'KEY-01',
    weakKey: 'ec',
    key: () => {
      const pair = generateEcKeyPair();
      return { pair, registered: pair.publicPem };
    },
  },
  {
    name: 'an RSA-1024 key',
    rule: 'KEY-02',
    weakKey: 'rsa1024',
    key: () => {
      rsa1024 ??= generateRsaKeyPair(1024);
      return { pair: rsa1024, registered: rsa1024.publicPem };
    },
  },
  {
    name: 'a password-encrypted PEM',
    rule: 'KEY-03',
    weakKey: 'encrypted',
    key: () => {
      const pair = generateRsaKeyPair(2048);
      return { pair, registered: encryptedPem(pair) };
    },
  },
  {
    name: 'a key that is not PEM (JWK)',
    rule: 'KEY-04',
    weakKey: 'notPem',
    key: () => {
      const pair = generateRsaKeyPair(2048);
      return { pair, registered: jwkText(pair) };
    },
  },
];

/** The signature a key's owner would make: ES256 for an EC key, RS256 otherwise. */
const signerOf = (client: ClientIdentity): { signer: Signer; alg: string } =>
  signingKeyOf(client).asymmetricKeyType === 'ec'
    ? { signer: { kind: 'es256', key: signingKeyOf(client) }, alg: 'ES256' }
    : { signer: { kind: 'rs256', key: signingKeyOf(client) }, alg: 'RS256' };

test.describe('key registration: a key the spec forbids makes every token request fail', () => {
  for (const c of cases) {
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
        const { pair, registered } = c.key();
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
