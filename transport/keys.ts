/**
 * RSA key material for clients. Generation is slow, so callers create keys once per worker or per
 * run, never per test.
 */
import { generateKeyPairSync, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync, existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { workerRedactor } from './redact';
import { suiteEnvironment } from '../profile/run-settings';

export interface KeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** SPKI PEM of the public key, as registered with the service. */
  publicPem: string;
}

/**
 * Every private key made here is registered with this process's redactor, so the post-run leak scan
 * looks for it too (the keys of extra clients, a stranger's key, the mutants' forbidden keys).
 */
function registered(privateKey: KeyObject, what: string): KeyObject {
  workerRedactor().addSecret(
    privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    `generated ${what} private key`,
  );
  return privateKey;
}

export function generateRsaKeyPair(modulusLength = 2048): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength });
  registered(privateKey, `RSA-${modulusLength}`);
  return { privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** A P-256 key pair: a valid PEM key that is not RSA (spec §5.4). */
export function generateEcKeyPair(): KeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  registered(privateKey, 'EC P-256');
  return { privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** The same RSA key pair's private half, password-encrypted PEM: spec §5.4 says such a key is rejected. */
export function encryptedPem(pair: KeyPair, passphrase = 'not-a-secret-test-passphrase'): string {
  return pair.privateKey.export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase }).toString();
}

/** The public key as a JWK JSON text: RSA and at least 2048 bits, but not PEM (spec §5.4). */
export function jwkText(pair: KeyPair): string {
  return JSON.stringify(pair.publicKey.export({ format: 'jwk' }));
}

/**
 * Why a private key could not be loaded, as the end of a sentence whose subject is the variable or
 * option that held it ("PAYMENTS_SANDBOX_PRIVATE_KEY names no file: ./keys/sandbox.pem …"). Never the
 * key itself: a value is shown only when it has the shape of a file path.
 */
export class KeyLoadError extends Error {
  override name = 'KeyLoadError';
}

/**
 * Loads a private key given as PEM text or as a path to a PEM file (profile secrets allow both).
 * `anyType`: a pre-registered weak-key client's key may be EC (§5.4 says its tokens are refused).
 */
export function loadPrivateKey(pemOrPath: string, options: { anyType?: boolean } = {}): KeyPair {
  const fromFile = !pemOrPath.includes('-----BEGIN');
  const text = fromFile ? readPemFile(pemOrPath) : pemOrPath;
  const source = fromFile ? ` (the file ${pemOrPath})` : '';
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(text);
  } catch (error) {
    // Node's reason names the problem (a passphrase needed, an unsupported format), never the key.
    throw new KeyLoadError(`does not hold a usable private key${source}: ${(error as Error).message}`);
  }
  if (privateKey.asymmetricKeyType !== 'rsa' && !options.anyType) {
    throw new KeyLoadError(
      `holds a private key of type ${privateKey.asymmetricKeyType ?? 'unknown'}${source}, but the API needs RSA (spec §5.4)`,
    );
  }
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** A value that reads as a file path (./keys/a.pem, /etc/…, C:\…, ~/…, x.pem), not as key material pasted without its PEM lines. */
const PATH_SHAPE = /^(\.{1,2}[\\/]|[\\/]|~[\\/]|[A-Za-z]:[\\/])|\.(pem|key|p8|der|txt)$/i;

function readPemFile(file: string): string {
  const relative = isAbsolute(file) ? '' : ` (relative to ${process.cwd()})`;
  const shown =
    PATH_SHAPE.test(file) && file.length < 512 && !/\s/.test(file)
      ? `: ${file}${relative}`
      : ' (its value is not shown: it has the shape of neither)';
  if (!existsSync(file)) throw new KeyLoadError(`is neither PEM text nor the path of an existing file${shown}`);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new KeyLoadError(
      `names a file that cannot be read: ${file} (${(error as { code?: string }).code ?? (error as Error).message})`,
    );
  }
}

/**
 * The RSA-2048 keys of a run's generated clients, made once by the runner and handed to every worker
 * through PAYMENTS_CLIENT_KEYS (a worker would otherwise spend a good part of its start on them;
 * the kill matrix starts a worker per fault). Three: the primary and the secondary client must sign
 * with different keys (a test signs with "another client's key"), the third serves every extra client.
 */
export const SHARED_KEYS = 3;

export function shareClientKeys(env: NodeJS.ProcessEnv = process.env): void {
  if (suiteEnvironment(env).clientKeys) return;
  const pems = Array.from({ length: SHARED_KEYS }, () =>
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  env.PAYMENTS_CLIENT_KEYS = JSON.stringify(pems);
}

/** The shared client keys of this run (registered with the redactor), or fresh ones when none were shared. */
export function sharedClientKeys(env: NodeJS.ProcessEnv = process.env): KeyPair[] {
  const shared = suiteEnvironment(env).clientKeys;
  const pems = shared ? (JSON.parse(shared) as string[]) : [];
  if (pems.length < SHARED_KEYS) return Array.from({ length: SHARED_KEYS }, () => generateRsaKeyPair(2048));
  return pems.map((pem) => {
    const pair = loadPrivateKey(pem);
    registered(pair.privateKey, 'shared RSA-2048');
    return pair;
  });
}
