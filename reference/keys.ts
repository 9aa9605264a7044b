/**
 * Vetting of registered public keys (spec §5.4): RSA, PEM, not password-encrypted, >= 2048 bits.
 * Registration always succeeds; the verdict is stored and decides every later token request, so a
 * bad key is reported where the spec says ("the token is rejected").
 */
import { createPublicKey, type KeyObject, type JsonWebKey } from 'node:crypto';

export type KeyProblem = 'not-pem' | 'encrypted' | 'not-rsa' | 'too-short' | 'unparseable';

export interface KeyVerdict {
  /** null when the key is usable as registered. */
  problem: KeyProblem | null;
  detail: string;
  /** The parsed key when one could be obtained at all (also for some bad keys, so faults can use it). */
  key: KeyObject | null;
}

const PEM = /^-----BEGIN ([A-Z0-9 ]+)-----\r?\n([\s\S]*?)\r?\n?-----END \1-----\s*$/;
export const MIN_RSA_BITS = 2048;

function judgeParsed(key: KeyObject): KeyVerdict {
  if (key.asymmetricKeyType !== 'rsa') {
    // rsa-pss keys cannot be used for RS256 (PKCS#1 v1.5) either.
    return { problem: 'not-rsa', detail: `key type ${key.asymmetricKeyType ?? 'unknown'} is not RSA`, key };
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_RSA_BITS)
    return { problem: 'too-short', detail: `RSA key of ${bits} bits is shorter than ${MIN_RSA_BITS}`, key };
  return { problem: null, detail: `RSA ${bits} bits`, key };
}

/** Tries the non-PEM encodings a careless client might send, only so a fault can accept them. */
function parseNonPem(text: string): KeyObject | null {
  try {
    if (text.startsWith('{')) return createPublicKey({ key: JSON.parse(text) as JsonWebKey, format: 'jwk' });
    const der = Buffer.from(text.replace(/\s+/g, ''), 'base64');
    if (der.length === 0) return null;
    return createPublicKey({ key: der, format: 'der', type: 'spki' });
  } catch {
    return null;
  }
}

export function vetPublicKey(publicKeyText: string): KeyVerdict {
  const text = publicKeyText.trim();
  const pem = PEM.exec(text);
  if (!pem) {
    return { problem: 'not-pem', detail: 'the key is not PEM encoded', key: parseNonPem(text) };
  }
  const label = pem[1] ?? '';
  const inner = pem[2] ?? '';
  if (label.includes('ENCRYPTED') || /Proc-Type:\s*4,ENCRYPTED/i.test(inner)) {
    return { problem: 'encrypted', detail: 'the PEM is password-encrypted', key: null };
  }
  if (label !== 'PUBLIC KEY' && label !== 'RSA PUBLIC KEY') {
    return { problem: 'unparseable', detail: `PEM label "${label}" is not a public key`, key: null };
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: text, format: 'pem', type: label === 'RSA PUBLIC KEY' ? 'pkcs1' : 'spki' });
  } catch (error) {
    return { problem: 'unparseable', detail: `the PEM cannot be parsed: ${(error as Error).message}`, key: null };
  }
  return judgeParsed(key);
}

/** The verdict on the non-PEM key itself, used only when the key-accepts-non-pem fault is on. */
export function judgeNonPemKey(key: KeyObject): KeyVerdict {
  return judgeParsed(key);
}
