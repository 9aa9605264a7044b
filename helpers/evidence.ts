/**
 * Evidence bundles (reports/certification/<timestamp>/): the file manifest, its compact JWS (RS256,
 * node:crypto only), the per-rule summary of a run and the verdict. Pure apart from reading a
 * bundle's files, so the unit tests can tamper with bundles in memory.
 *
 * The JWS payload is the exact bytes of manifest.json: a verifier checks the signature, then that
 * manifest.json equals the signed payload, then every file against the signed hashes.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Capability, Rule } from '../fixtures/ledger/rules';
import type { Profile } from './profile';
import { flattenReport, type PlaywrightJsonReport } from './playwright-report';

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
  return { format: 'payments-evidence/1', algorithm: 'sha256', files: Object.fromEntries(entries.map(([p, bytes]) => [p, sha256(bytes)])) };
}

/** Stable bytes: the same manifest always serialises the same way (the JWS signs these bytes). */
export const serialiseManifest = (manifest: Manifest): string => JSON.stringify(manifest, null, 2) + '\n';

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

const b64url = (bytes: Uint8Array | string): string => Buffer.from(bytes).toString('base64url');

export interface JwsHeader {
  alg: 'RS256';
  kid: string;
  typ?: string;
  cty?: string;
}

export function signJws(payload: Uint8Array | string, privateKey: KeyObject, kid: string): string {
  const header: JwsHeader = { alg: 'RS256', kid, typ: 'JOSE', cty: 'application/json' };
  const input = `${b64url(JSON.stringify(header))}.${b64url(payload)}`;
  return `${input}.${b64url(sign('RSA-SHA256', Buffer.from(input), privateKey))}`;
}

export type JwsCheck = { ok: true; header: JwsHeader; payload: Buffer } | { ok: false; problem: string };

/** Verifies a compact RS256 JWS. Only RS256 is accepted: the header never chooses the algorithm. */
export function verifyJws(jws: string, publicKey: KeyObject): JwsCheck {
  const parts = jws.trim().split('.');
  if (parts.length !== 3) return { ok: false, problem: `manifest.jws is not a compact JWS (expected 3 dot-separated parts, found ${parts.length})` };
  const [h, p, s] = parts as [string, string, string];
  let header: JwsHeader;
  try {
    header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8')) as JwsHeader;
  } catch {
    return { ok: false, problem: 'manifest.jws has an unreadable header' };
  }
  if (header.alg !== 'RS256') return { ok: false, problem: `manifest.jws uses alg ${JSON.stringify(header.alg)}; only RS256 is accepted` };
  if (publicKey.asymmetricKeyType !== 'rsa') return { ok: false, problem: 'the verification key is not an RSA key' };
  const valid = verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'));
  if (!valid) return { ok: false, problem: `the signature of manifest.jws does not verify with the given public key (kid ${header.kid ?? '?'})` };
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

// ── the profile as evidence ──────────────────────────────────────────────────────────────────────

/** An environment variable name, as profiles hold them: kept, it is what a reader needs to reproduce the run. */
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const JWT_LIKE = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;
const SECRET_KEY_NAME = /secret|password|passwd|passphrase|token|private|credential|apikey|api_key/i;

/** Does a string value look like a secret rather than configuration? */
export function looksSecret(value: string, key = ''): boolean {
  if (ENV_NAME.test(value)) return false;
  if (value.includes('-----BEGIN') || JWT_LIKE.test(value)) return true;
  // Long unbroken base64/hex runs are keys or tokens; URLs, paths, sentences and codes are not.
  if (/^[A-Za-z0-9+/=_-]{32,}$/.test(value) && /[0-9]/.test(value) && /[a-zA-Z]/.test(value)) return true;
  // A secret-named field holding something that is not a path, a URL, a sentence or a plain word.
  return SECRET_KEY_NAME.test(key) && value.length >= 8 && !/[\s/]/.test(value) && !/^[a-z-]+$/.test(value);
}

/**
 * The profile for the bundle: profiles hold env var NAMES only, but a hand-edited profile may still
 * carry a value; anything secret-looking becomes "[redacted]" and URL credentials are dropped.
 */
export function sanitiseProfile(profile: unknown): unknown {
  const walk = (value: unknown, key: string): unknown => {
    if (typeof value === 'string') {
      if (looksSecret(value, key)) return '[redacted]';
      return value.replace(/^(https?:\/\/)[^/@\s]+@/i, '$1');
    }
    if (Array.isArray(value)) return value.map((v) => walk(v, key));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, k)]));
    return value;
  };
  return walk(profile, '');
}

// ── tests of a run, as read from a Playwright JSON report ────────────────────────────────────────

export type Outcome = 'passed' | 'failed' | 'skipped';

export interface TestRecord {
  /** "project › file › describe › title". */
  title: string;
  project: string;
  /** Tags without the leading @ (rule IDs and markers such as live-safe). */
  tags: string[];
  outcome: Outcome;
  skipReason?: string;
  /** First line of the first error, for failed tests. */
  error?: string;
}

export type { PlaywrightJsonReport };

const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');

/** Flattens a Playwright JSON report into one record per (project, test), with skip reasons and errors. */
export function testsFromReport(report: PlaywrightJsonReport): TestRecord[] {
  return flattenReport(report).map((t) => {
    const record: TestRecord = {
      title: [t.project, ...t.titlePath].join(' › '),
      project: t.project,
      tags: t.tags.map((x) => x.replace(/^@/, '')),
      outcome: t.outcome,
    };
    const annotations = [...t.annotations, ...t.resultAnnotations];
    if (t.outcome === 'skipped') record.skipReason = annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description ?? 'skipped (no reason given)';
    if (t.outcome === 'failed') {
      const message = t.errors[0] ?? `status ${t.status}`;
      record.error = stripAnsi(message).split('\n').find((l) => l.trim())?.trim().slice(0, 300) ?? `status ${t.status}`;
    }
    return record;
  });
}

// ── per-rule summary and the verdict ─────────────────────────────────────────────────────────────

/** Capabilities a profile grants, as the test fixture computes them (a reference target always has a second client). */
export function profileCapabilities(profile: Profile): Set<Capability> {
  const granted = new Set<Capability>();
  for (const [name, on] of Object.entries(profile.capabilities)) if (on) granted.add(name as Capability);
  if (profile.target.kind === 'reference' || profile.target.clients.secondary) granted.add('secondClient');
  return granted;
}

export const ruleApplies = (rule: Rule, granted: ReadonlySet<Capability>): boolean =>
  rule.where === 'any' || granted.has(rule.where.slice('capability:'.length) as Capability);

/** A skip the fixture made because the profile lacks a capability: the test does not apply here. */
export const isCapabilitySkip = (reason: string | undefined): boolean => Boolean(reason && /needs capability "/.test(reason));

export type RuleStatus = 'passed' | 'failed' | 'skipped' | 'not cited';

export interface RuleResult {
  id: string;
  level: Rule['level'];
  where: Rule['where'];
  statement: string;
  applies: boolean;
  status: RuleStatus;
  tests: { passed: number; failed: number; skipped: number };
  failures?: { test: string; error: string }[];
  skipReasons?: string[];
}

/**
 * A rule passed when at least one test citing it ran and every one that ran passed, and the only
 * skips were "this profile lacks a capability" skips (those tests do not apply here); failed when
 * any failed; otherwise skipped, with the reasons. A rule no test cites is "not cited".
 */
export function summariseRules(rules: readonly Rule[], tests: readonly TestRecord[], granted: ReadonlySet<Capability>): RuleResult[] {
  return rules
    .filter((r) => !r.retired)
    .map((rule) => {
      const citing = tests.filter((t) => t.tags.includes(rule.id));
      const count = { passed: 0, failed: 0, skipped: 0 };
      for (const t of citing) count[t.outcome]++;
      const failures = citing.filter((t) => t.outcome === 'failed').map((t) => ({ test: t.title, error: t.error ?? 'failed' }));
      const skips = citing.filter((t) => t.outcome === 'skipped');
      const skipReasons = [...new Set(skips.map((t) => t.skipReason ?? 'skipped'))];
      let status: RuleStatus;
      if (!citing.length) status = 'not cited';
      else if (count.failed) status = 'failed';
      else if (count.passed && skips.every((t) => isCapabilitySkip(t.skipReason))) status = 'passed';
      else status = 'skipped';
      return {
        id: rule.id,
        level: rule.level,
        where: rule.where,
        statement: rule.statement,
        applies: ruleApplies(rule, granted),
        status,
        tests: count,
        ...(failures.length ? { failures } : {}),
        ...(skipReasons.length ? { skipReasons } : {}),
      };
    });
}

export interface Verdict {
  certified: boolean;
  /** Documented, applicable rules by status: what stands between this run and CERTIFIED. */
  failed: RuleResult[];
  skipped: RuleResult[];
  notCited: RuleResult[];
  passed: number;
  required: number;
}

/** CERTIFIED only when every documented rule that applies to the environment passed. */
export function verdictOf(results: readonly RuleResult[]): Verdict {
  const required = results.filter((r) => r.level === 'documented' && r.applies);
  const failed = required.filter((r) => r.status === 'failed');
  const skipped = required.filter((r) => r.status === 'skipped');
  const notCited = required.filter((r) => r.status === 'not cited');
  const passed = required.filter((r) => r.status === 'passed').length;
  return { certified: required.length > 0 && passed === required.length, failed, skipped, notCited, passed, required: required.length };
}
