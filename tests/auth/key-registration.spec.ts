/**
 * Spec §5.4: the registered key must be RSA, PEM, unencrypted and at least 2048 bits; otherwise the
 * token is rejected. Needs a target where the suite can register keys (the reference's admin API).
 * Twin: the same client registered with a conforming key gets a token.
 */
import { test, expect } from '../../fixtures/test';
import { generatedClient, registerClient } from '../../fixtures/target';
import { encryptedPem, generateEcPublicPem, generateRsaKeyPair, jwkText, type KeyPair } from '../../helpers/keys';
import type { ClientIdentity } from '../../helpers/client-jwts';
import { brief } from '../../fixtures/verdicts';

interface KeyCase {
  name: string;
  rule: string;
  /** The key that signs the assertion, and the text registered as the client's public key. */
  key: () => { signer: KeyPair; registered: string };
}

let rsa1024: KeyPair | undefined;
const cases: KeyCase[] = [
  { name: 'an EC P-256 key', rule: 'KEY-01', key: () => ({ signer: generateRsaKeyPair(2048), registered: generateEcPublicPem() }) },
  {
    name: 'an RSA-1024 key',
    rule: 'KEY-02',
    key: () => {
      rsa1024 ??= generateRsaKeyPair(1024);
      return { signer: rsa1024, registered: rsa1024.publicPem };
    },
  },
  {
    name: 'a password-encrypted PEM',
    rule: 'KEY-03',
    key: () => {
      const pair = generateRsaKeyPair(2048);
      return { signer: pair, registered: encryptedPem(pair) };
    },
  },
  {
    name: 'a key that is not PEM (JWK)',
    rule: 'KEY-04',
    key: () => {
      const pair = generateRsaKeyPair(2048);
      return { signer: pair, registered: jwkText(pair) };
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

      const { signer, registered } = c.key();
      const bad: ClientIdentity = { ...generatedClient('mutant', process.env.PAYMENTS_RUN_ID ?? 'run', testInfo.workerIndex), privateKey: signer.privateKey, publicPem: registered };
      await registerClient(http, target, bad, { publicKey: registered });
      const mutant = await api.requestToken({ client: bad, label: `mutant: client registered with ${c.name}` });
      const status = mutant.response.status;
      expect(status >= 400 && status < 500, `a token must not be issued for ${c.name}: got ${status} ${brief(mutant)}`).toBe(true);
    });
  }
});
