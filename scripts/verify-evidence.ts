/**
 * `npm run verify-evidence -- <bundle dir> [--public-key <pem>]`
 *
 * Checks a certification bundle: the JWS signature over the manifest, that manifest.json is the
 * signed one, then every file's SHA-256. Names each file altered, added or removed; exit 1 on any
 * problem. Without --public-key the key shipped inside the bundle is used, which proves integrity
 * only (whoever altered the bundle could have replaced that key too).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  MANIFEST_FILE,
  PUBLIC_KEY_FILE,
  SIGNATURE_FILE,
  diffManifest,
  keyFingerprint,
  loadPublicKeyPem,
  readBundleFiles,
  verifyJws,
  type Manifest,
} from './lib/signing';

export interface VerifyResult {
  ok: boolean;
  problems: string[];
  notes: string[];
}

export function verifyEvidence(dir: string, publicKeyPath?: string): VerifyResult {
  const problems: string[] = [];
  const notes: string[] = [];
  const done = (): VerifyResult => ({ ok: problems.length === 0, problems, notes });
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    problems.push(`${dir} is not a directory`);
    return done();
  }
  const files = readBundleFiles(dir);

  const keyFile = publicKeyPath ?? path.join(dir, PUBLIC_KEY_FILE);
  if (!publicKeyPath)
    notes.push(
      `no --public-key given: using ${PUBLIC_KEY_FILE} from the bundle itself, which proves integrity only, not origin`,
    );
  if (!existsSync(keyFile)) {
    problems.push(
      publicKeyPath
        ? `public key ${publicKeyPath} not found`
        : `${PUBLIC_KEY_FILE} removed from the bundle (or pass --public-key)`,
    );
    return done();
  }
  let publicKey: ReturnType<typeof loadPublicKeyPem>;
  try {
    publicKey = loadPublicKeyPem(readFileSync(keyFile, 'utf8'));
  } catch (error) {
    problems.push(`cannot read the public key ${keyFile}: ${(error as Error).message}`);
    return done();
  }

  const jws = files.get(SIGNATURE_FILE);
  if (!jws) {
    problems.push(`${SIGNATURE_FILE} removed: the bundle is unsigned`);
    return done();
  }
  const check = verifyJws(jws.toString('utf8'), publicKey);
  if (!check.ok) {
    problems.push(`${check.problem}: ${SIGNATURE_FILE} or ${MANIFEST_FILE} altered, or the wrong key`);
    return done();
  }
  notes.push(`signature valid: RS256, kid ${check.header.kid}, key sha256:${keyFingerprint(publicKey).slice(0, 16)}…`);

  let signed: Manifest;
  try {
    signed = JSON.parse(check.payload.toString('utf8')) as Manifest;
  } catch {
    problems.push('the signed payload is not a manifest');
    return done();
  }
  const manifestFile = files.get(MANIFEST_FILE);
  if (!manifestFile)
    problems.push(`${MANIFEST_FILE} removed (the signed copy inside ${SIGNATURE_FILE} is used for the checks below)`);
  else if (!manifestFile.equals(check.payload))
    problems.push(`${MANIFEST_FILE} altered: it differs from the manifest signed in ${SIGNATURE_FILE}`);

  const diff = diffManifest(signed, files);
  for (const f of diff.altered) problems.push(`${f} altered: its SHA-256 differs from the signed manifest`);
  for (const f of diff.added) problems.push(`${f} added: not in the signed manifest`);
  for (const f of diff.removed) problems.push(`${f} removed: listed in the signed manifest but missing`);
  if (!problems.length) notes.push(`${Object.keys(signed.files).length} files match the signed manifest`);
  return done();
}

if (require.main === module) {
  const args = process.argv.slice(2);
  let dir: string | undefined;
  let key: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--public-key') key = args[++i];
    else if (a.startsWith('--public-key=')) key = a.slice('--public-key='.length);
    else if (!a.startsWith('--') && !dir) dir = a;
    else {
      console.error(`✖ unknown argument ${a}\nusage: npm run verify-evidence -- <bundle dir> [--public-key <pem>]`);
      process.exit(2);
    }
  }
  if (!dir) {
    console.error('usage: npm run verify-evidence -- <bundle dir> [--public-key <pem>]');
    process.exit(2);
  }
  const result = verifyEvidence(dir, key);
  for (const n of result.notes) console.log(`  ${n}`);
  for (const p of result.problems) console.error(`✖ ${p}`);
  console.log(
    result.ok
      ? `VERIFIED: ${dir}`
      : `NOT VERIFIED: ${dir} (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'})`,
  );
  process.exit(result.ok ? 0 : 1);
}
