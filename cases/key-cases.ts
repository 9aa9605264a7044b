/**
 * Negative catalogue of key registration (spec §5.4, §7): a key that is not RSA, not PEM,
 * password-encrypted or shorter than 2048 bits makes every token request of its client fail. A row
 * names the kind of key (the profile's word for it: `target.clients.weakKeys.<kind>` names a client a
 * provider registered with such a key); `weakKeyOf` makes the key the suite registers itself.
 */
import {
  encryptedPem,
  generateEcKeyPair,
  generateRsaKeyPair,
  jwkText,
  spareKey,
  type KeyPair,
} from '../transport/keys';
import type { WeakKey } from '../profile/profile';

export interface KeyCase {
  name: string;
  rule: string;
  weakKey: WeakKey;
}

export const keyCases: readonly KeyCase[] = [
  { name: 'an EC P-256 key (assertion signed ES256 with it)', rule: 'KEY-01', weakKey: 'ec' },
  { name: 'an RSA-1024 key', rule: 'KEY-02', weakKey: 'rsa1024' },
  // One bit short: "at least 2048 bits" read as bytes (a 2047-bit modulus fills 256 of them) takes it.
  { name: 'an RSA key of 2047 bits', rule: 'KEY-02', weakKey: 'rsa2047' },
  { name: 'a password-encrypted PEM', rule: 'KEY-03', weakKey: 'encrypted' },
  { name: 'a key that is not PEM (JWK)', rule: 'KEY-04', weakKey: 'notPem' },
];

let rsa1024: KeyPair | undefined;
let rsa2047: KeyPair | undefined;

/**
 * The key registered as a client's public key, and the matching private key that signs its
 * assertion: the signature is then valid for the registered key, so the key itself is the only reason
 * left to refuse the token.
 */
export function weakKeyOf(kind: WeakKey): { pair: KeyPair; registered: string } {
  switch (kind) {
    case 'ec': {
      const pair = generateEcKeyPair();
      return { pair, registered: pair.publicPem };
    }
    case 'rsa1024':
      rsa1024 ??= generateRsaKeyPair(1024);
      return { pair: rsa1024, registered: rsa1024.publicPem };
    case 'rsa2047':
      rsa2047 ??= generateRsaKeyPair(2047);
      return { pair: rsa2047, registered: rsa2047.publicPem };
    // RSA-2048 keys of the run no client signs with as its own: only the form registered is wrong.
    case 'encrypted': {
      const pair = spareKey('encrypted');
      return { pair, registered: encryptedPem(pair) };
    }
    case 'notPem': {
      const pair = spareKey('notPem');
      return { pair, registered: jwkText(pair) };
    }
  }
}
