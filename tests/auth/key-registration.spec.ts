/**
 * Spec §5.4: the registered key must be RSA, PEM, unencrypted and at least 2048 bits; otherwise the
 * token is rejected. Needs a target where the suite can register keys (the reference's admin API).
 * Twin: the same client registered with a conforming key gets a token.
 */
import { test, expect } from '../../fixtures/test';
import { generatedClient, registerClient } from '../../fixtures/target';
import { encryptedPem, generateEcKeyPair, generateRsaKeyPair, jwkText, type KeyPair } from '../../helpers/keys';
import type { Signer } from '../../helpers/jws';
import type { ClientIdentity } from '../../helpers/client-jwts';
import { brief } from '../../fixtures/verdicts';

interface KeyCase {
  name: string;
  rule: string;
  /**
   * The key registered as the client's public key, and the matching private key that signs the
   * assertion: the signature is then valid for the registered key, so the key itself is the only
   * reason left to refuse the token.
   */
  key: () => { pair: KeyPair; registered: string; signer: Signer };
}

let rsa1024: KeyPair | undefined;
const cases: KeyCase[] = [
  {
    name: 'an EC P-256 key (assertion signed ES256 with it)',
    rule: 'KEY-01',
    key: () => {
      const pair = generateEcKeyPair();
      return { pair, registered: pair.publicPem, signer: { kind: 'es256', key: pair.privateKey } };
    },
  },
  {
    name: 'an RSA-1024 key',
    rule: 'KEY-02',
    key: () => {
      rsa1024 ??= generateRsaKeyPair(1024);
      return { pair: rsa1024, registered: rsa1024.publicPem, signer: { kind: 'rs256', key: rsa1024.privateKey } };
    },
  },
  {
    name: 'a password-encrypted PEM',
    rule: 'KEY-03',
    key: () => {
      const pair = generateRsaKeyPair(2048);
      return { pair, registered: encryptedPem(pair), signer: { kind: 'rs256', key: pair.privateKey } };
    },
  },
  {
    name: 'a key that is not PEM (JWK)',
    rule: 'KEY-04',
    key: () => {
      const pair = generateRsaKeyPair(2048);
      return { pair, registered: jwkText(pair), signer: { kind: 'rs256', key: pair.privateKey } };
    },
  },
];

test.describe('key registration: a key the spec forbids makes every token request fail', () => {
  for (const c of cases) {
    test(`registered ${c.name}: token refused`, { tag: [`@${c.rule}`] }, async ({ api, http, target, verdicts }, testInfo) => {
      const good = generatedClient('twin', process.env.PAYMENTS_RUN_ID ?? 'run', testInfo.workerIndex);
      await registerClient(http, target, good);
      const twin = await api.requestToken({ client: good, label: 'valid twin: same client shape, conforming RSA-2048 PEM key' });
      verdicts.expectStatus(twin, [200], 'the valid twin must succeed');

      const { pair, registered, signer } = c.key();
      const bad: ClientIdentity = { ...generatedClient('mutant', process.env.PAYMENTS_RUN_ID ?? 'run', testInfo.workerIndex), privateKey: pair.privateKey, publicPem: registered };
      await registerClient(http, target, bad, { publicKey: registered });
      const alg = signer.kind === 'es256' ? 'ES256' : 'RS256';
      const mutant = await api.requestToken({ client: bad, assertion: { signer, header: { alg } }, label: `mutant: client registered with ${c.name}` });
      const status = mutant.response.status;
      expect(status >= 400 && status < 500, `a token must not be issued for ${c.name}: got ${status} ${brief(mutant)}`).toBe(true);
    });
  }
});
