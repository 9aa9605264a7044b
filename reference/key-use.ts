/**
 * Which key (and algorithm) verifies a client's JWTs, given the stored registration verdict and the
 * client's faults. Shared by the authentication JWT and the SCA JWT so both read the same key.
 */
import type { KeyObject } from 'node:crypto';
import type { Client } from './registry';
import type { FaultSet } from './faults';
import { naturalAlg } from './jwt-verify';
import { judgeNonPemKey } from './keys';

export type SignatureCheck = { key: KeyObject; alg: 'RS256' | 'ES256' | 'EdDSA' } | 'skip';

/** null: the registered key is unusable (spec §5.4), so every JWT of the client fails. */
export function usableKey(client: Client, faults: FaultSet): SignatureCheck | null {
  const verdict = client.key;
  if (verdict.problem === null && verdict.key) return { key: verdict.key, alg: 'RS256' };
  if (verdict.problem === 'too-short' && verdict.key && faults.has('token-accepts-rsa-1024'))
    return { key: verdict.key, alg: 'RS256' };
  // key-length-in-bytes: the modulus measured in whole bytes, so 2041 to 2047 bits pass as 2048.
  const bits = verdict.key?.asymmetricKeyDetails?.modulusLength ?? 0;
  if (verdict.problem === 'too-short' && verdict.key && faults.has('key-length-in-bytes') && Math.ceil(bits / 8) >= 256)
    return { key: verdict.key, alg: 'RS256' };
  if (verdict.problem === 'not-rsa' && verdict.key && faults.has('key-accepts-non-rsa'))
    return { key: verdict.key, alg: naturalAlg(verdict.key) };
  if (verdict.problem === 'encrypted' && faults.has('key-accepts-encrypted-pem')) return 'skip';
  if (
    verdict.problem === 'not-pem' &&
    verdict.key &&
    faults.has('key-accepts-non-pem') &&
    judgeNonPemKey(verdict.key).problem === null
  ) {
    return { key: verdict.key, alg: 'RS256' };
  }
  return null;
}
