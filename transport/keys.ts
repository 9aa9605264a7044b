/**
 * RSA key material for clients. Generation is slow, so callers create keys once per worker or per
 * run, never per test.
 */
import { generateKeyPair, generateKeyPairSync, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
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
  const privateKey = modulusLength === 2048 ? rsa2048() : generateKeyPairSync('rsa', { modulusLength }).privateKey;
  registered(privateKey, `RSA-${modulusLength}`);
  const publicKey = createPublicKey(privateKey);
  return { privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** Keys made ahead that this process has not handed out yet (useKeysMadeAhead). */
const madeAhead: string[] = [];

/**
 * Hands these RSA-2048 private keys (PKCS#8 PEM) out, each once, before any key is made here: npm test
 * makes a few dozen for the unit tests' processes (tests/unit/support/key-pool.ts), which made about
 * 140 one at a time. Another process may hold the same keys; only a process whose references are its
 * own may take them.
 */
export function useKeysMadeAhead(pems: readonly string[]): void {
  madeAhead.push(...pems);
}

/** A new RSA-2048 private key: the next key made ahead, else one made now (about 120 ms of a core). */
function rsa2048(): KeyObject {
  const pem = madeAhead.shift();
  return pem ? createPrivateKey(pem) : generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
}

/** `count` RSA-2048 private keys (PKCS#8 PEM), made by libuv's thread pool, off the main thread. */
export function makeRsaPems(count: number): Promise<string[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<string>((resolve, reject) =>
          generateKeyPair('rsa', { modulusLength: 2048 }, (error, _publicKey, privateKey) =>
            error ? reject(error) : resolve(privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()),
          ),
        ),
    ),
  );
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
 * The RSA-2048 keys of a run, made once by the runner (or by `npm test`, for all its steps) and handed
 * to every worker through PAYMENTS_CLIENT_KEYS: a worker would otherwise spend a good part of its
 * start on them, and the dialect and kill matrices start a worker per project. Six: the primary and
 * the secondary client must sign with different keys (a test signs with "another client's key"), the
 * third serves every extra client; the last three no client of the run signs with as its own: a
 * stranger's key and the two keys the key cases register in a form the API refuses.
 */
export const SHARED_KEYS = 6;
/** The first three: the clients' own (primary, secondary, every other); a reference's onboarded clients need them at its start. */
export const CLIENT_KEYS = 3;
const SPARE_ROLES = ['stranger', 'encrypted', 'notPem'] as const;
export type SpareKeyRole = (typeof SPARE_ROLES)[number];
/** The spare keys this process has loaded, by role. */
const spares = new Map<SpareKeyRole, KeyPair>();

/** Makes the run's shared keys now, the first `count` of them at least (what is shared already is kept). */
export function shareClientKeys(env: NodeJS.ProcessEnv = process.env, count = SHARED_KEYS): void {
  const pems = sharedPems(env);
  if (pems.length >= count) return;
  while (pems.length < count) pems.push(rsa2048().export({ type: 'pkcs8', format: 'pem' }).toString());
  env.PAYMENTS_CLIENT_KEYS = JSON.stringify(pems);
}

let making: Promise<void> | undefined;

/**
 * The shared keys not made yet, made off this process's main thread: by libuv's thread pool while the
 * runner loads the tests and the reference starts, in the environment once the promise resolves
 * (before any worker forks: the global setup waits for it). A second call waits for the first's keys.
 */
export function shareClientKeysSoon(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const missing = SHARED_KEYS - sharedPems(env).length;
  if (missing <= 0) return Promise.resolve();
  making ??= makeRsaPems(missing).then((made) => {
    const pems = sharedPems(env);
    if (pems.length < SHARED_KEYS) env.PAYMENTS_CLIENT_KEYS = JSON.stringify([...pems, ...made].slice(0, SHARED_KEYS));
  });
  return making;
}

/** The keys shareClientKeysSoon is making, or none: what the global setup waits for. */
export const clientKeysBeingMade = (): Promise<void> | undefined => making;

function sharedPems(env: NodeJS.ProcessEnv): string[] {
  const shared = suiteEnvironment(env).clientKeys;
  return shared ? (JSON.parse(shared) as string[]) : [];
}

const sharedLabel = (index: number): string =>
  index < CLIENT_KEYS ? 'shared RSA-2048' : `shared RSA-2048 (${SPARE_ROLES[index - CLIENT_KEYS]})`;

/** The shared key at `index`, registered with the redactor under its label. */
function registeredShared(pem: string, index: number): KeyPair {
  workerRedactor().addSecret(pem, `generated ${sharedLabel(index)} private key`);
  return loadPrivateKey(pem);
}

/**
 * The shared client keys of this run, or fresh ones when none were shared. Every shared key is
 * registered with the redactor here, the spare ones too: the leak scan looks for all of them, used
 * or not.
 */
export function sharedClientKeys(env: NodeJS.ProcessEnv = process.env): KeyPair[] {
  const pems = sharedPems(env);
  if (pems.length < CLIENT_KEYS) return Array.from({ length: CLIENT_KEYS }, () => generateRsaKeyPair(2048));
  const pairs = pems.map((pem, i) => registeredShared(pem, i));
  for (const [i, role] of SPARE_ROLES.entries()) if (pairs[CLIENT_KEYS + i]) spares.set(role, pairs[CLIENT_KEYS + i]!);
  return pairs.slice(0, CLIENT_KEYS);
}

/** A shared key no client of the run signs with as its own, one per role and process; fresh when none were shared. */
export function spareKey(role: SpareKeyRole, env: NodeJS.ProcessEnv = process.env): KeyPair {
  let pair = spares.get(role);
  if (!pair) {
    const index = CLIENT_KEYS + SPARE_ROLES.indexOf(role);
    const pem = sharedPems(env)[index];
    pair = pem ? registeredShared(pem, index) : generateRsaKeyPair(2048);
    spares.set(role, pair);
  }
  return pair;
}
