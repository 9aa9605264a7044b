/**
 * Evidence bundles (reports/certification/<timestamp>/) are signed: a manifest of every file's
 * SHA-256 and its compact JWS (RS256). The JWS payload is the exact bytes of manifest.json: a verifier
 * checks the signature, then that manifest.json equals the signed payload, then every file against
 * the signed hashes. Pure apart from reading a bundle's files, so unit tests can tamper in memory.
 */
import { createHash, createPrivateKey, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { signCompactBytes } from '../../transport/jws';

// ── hashing and the manifest ─────────────────────────────────────────────────────────────────────

export const MANIFEST_FILE = 'manifest.json';
export const SIGNATURE_FILE = 'manifest.jws';
export const PUBLIC_KEY_FILE = 'signing-key.pub.pem';

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

export interface Manifest {
  format: 'payments-evidence/1';
  algorithm: 'sha256';
  /** Path relative to the bundle (POSIX separators) → hex SHA-256, sorted by path. */
  files: Record<string, string>;
}

/** Files the manifest covers: everything except the manifest and its signature themselves. */
export const coveredByManifest = (relPath: string): boolean => relPath !== MANIFEST_FILE && relPath !== SIGNATURE_FILE;

export function buildManifest(files: ReadonlyMap<string, Uint8Array>): Manifest {
  const entries = [...files].filter(([p]) => coveredByManifest(p)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    format: 'payments-evidence/1',
    algorithm: 'sha256',
    files: Object.fromEntries(entries.map(([p, bytes]) => [p, sha256(bytes)])),
  };
}

/** Stable bytes: the same manifest always serialises the same way (the JWS signs these bytes). */
export const serialiseManifest = (manifest: Manifest): string => `${JSON.stringify(manifest, null, 2)}\n`;

export interface ManifestDiff {
  altered: string[];
  added: string[];
  removed: string[];
}

export function diffManifest(signed: Manifest, files: ReadonlyMap<string, Uint8Array>): ManifestDiff {
  const diff: ManifestDiff = { altered: [], added: [], removed: [] };
  for (const [p, bytes] of files) {
    if (!coveredByManifest(p)) continue;
    const expected = signed.files[p];
    if (expected === undefined) diff.added.push(p);
    else if (expected !== sha256(bytes)) diff.altered.push(p);
  }
  for (const p of Object.keys(signed.files)) if (!files.has(p)) diff.removed.push(p);
  for (const list of Object.values(diff)) list.sort();
  return diff;
}

/** Every regular file under dir, keyed by POSIX relative path. */
export function readBundleFiles(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (sub: string): void => {
    for (const entry of readdirSync(path.join(dir, sub))) {
      const rel = sub ? `${sub}/${entry}` : entry;
      const st = statSync(path.join(dir, rel));
      if (st.isDirectory()) walk(rel);
      else if (st.isFile()) out.set(rel, readFileSync(path.join(dir, rel)));
    }
  };
  walk('');
  return out;
}

// ── compact JWS, RS256 ───────────────────────────────────────────────────────────────────────────

export interface JwsHeader {
  alg: 'RS256';
  kid: string;
  typ?: string;
  cty?: string;
}

export function signJws(payload: Uint8Array | string, privateKey: KeyObject, kid: string): string {
  const header: JwsHeader = { alg: 'RS256', kid, typ: 'JOSE', cty: 'application/json' };
  return signCompactBytes({ ...header }, payload, { kind: 'rs256', key: privateKey });
}

export type JwsCheck = { ok: true; header: JwsHeader; payload: Buffer } | { ok: false; problem: string };

/** Verifies a compact RS256 JWS. Only RS256 is accepted: the header never chooses the algorithm. */
export function verifyJws(jws: string, publicKey: KeyObject): JwsCheck {
  const parts = jws.trim().split('.');
  if (parts.length !== 3)
    return {
      ok: false,
      problem: `manifest.jws is not a compact JWS (expected 3 dot-separated parts, found ${parts.length})`,
    };
  const [h, p, s] = parts as [string, string, string];
  let header: JwsHeader;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as JwsHeader;
  } catch {
    return { ok: false, problem: 'manifest.jws has an unreadable header' };
  }
  if (header.alg !== 'RS256')
    return { ok: false, problem: `manifest.jws uses alg ${JSON.stringify(header.alg)}; only RS256 is accepted` };
  if (publicKey.asymmetricKeyType !== 'rsa') return { ok: false, problem: 'the verification key is not an RSA key' };
  const valid = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'));
  if (!valid)
    return {
      ok: false,
      problem: `the signature of manifest.jws does not verify with the given public key (kid ${header.kid ?? '?'})`,
    };
  return { ok: true, header, payload: Buffer.from(p, 'base64url') };
}

export function loadPrivateKeyPem(pem: string, passphrase?: string): KeyObject {
  const key = createPrivateKey(passphrase ? { key: pem, passphrase } : pem);
  if (key.asymmetricKeyType !== 'rsa') throw new Error('the signing key must be an RSA private key (RS256)');
  return key;
}

const publicOf = (key: KeyObject): KeyObject => (key.type === 'public' ? key : createPublicKey(key));
export const publicPemOf = (key: KeyObject): string => publicOf(key).export({ type: 'spki', format: 'pem' }).toString();
export const loadPublicKeyPem = (pem: string): KeyObject => createPublicKey(pem);
/** SHA-256 of the SPKI DER: how a reader compares the key in a bundle with the one they trust. */
export const keyFingerprint = (key: KeyObject): string => sha256(publicOf(key).export({ type: 'spki', format: 'der' }));
