/**
 * Redaction for everything that leaves a test: report attachments, transcripts, logs, curl lines.
 * Three layers, because any one alone misses something: known secret values (registered as they
 * appear), sensitive header and field names, and shapes (JWTs, PEM blocks, Basic credentials).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { decodeCompact } from './jws';
import { fingerprintKeyOf } from '../profile/run-settings';

const SENSITIVE_HEADERS = new Set(['authorization', 'sca-token', 'cookie', 'set-cookie', 'proxy-authorization']);
const SENSITIVE_FIELDS = [
  'assertion',
  'client_secret',
  'access_token',
  'refresh_token',
  'id_token',
  'password',
  'private_key',
  'privateKey',
];
/** A sensitive field as a JSON member and as a form or query parameter. */
const FIELD_SHAPES = SENSITIVE_FIELDS.map((field) => ({
  field,
  json: new RegExp(`("${field}"\\s*:\\s*)"((?:[^"\\\\]|\\\\.)*)"`, 'g'),
  form: new RegExp(`(^|[?&\\s])(${field}=)([^&\\s]*)`, 'g'),
}));
const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
/** A value that is a JWT and nothing else (addSecret runs for every sca-token: built once). */
const WHOLE_JWT = new RegExp(`^${JWT_SHAPE.source}$`);
// A PEM with no END line (a body cut at the attachment limit) is redacted to the end of the text.
const PEM_SHAPE = /-----BEGIN [A-Z ]+-----[\s\S]*?(?:-----END [A-Z ]+-----|$)/g;
/** `Basic <base64>` / `Bearer <token>` written into text (logs, error messages), outside a header map. */
const CREDENTIAL_SHAPE = /\b(Basic|Bearer)(\s+)([A-Za-z0-9+/=._~-]{8,})/gi;
const PEM_ESCAPED_SHAPE = /-----BEGIN [A-Z ]+-----(?:\\n|[A-Za-z0-9+/=\s])*?-----END [A-Z ]+-----/g;

/** Shorter values are not secrets worth the false matches; a secret is indexed by this many first characters. */
const MIN_SECRET_LENGTH = 6;
const PREFIX_LENGTH = MIN_SECRET_LENGTH;

/**
 * The first PREFIX_LENGTH characters from `at`, as a number: every position of every text redacted is
 * looked up, and a number costs no string. Two prefixes may share a key: a hit is confirmed in full.
 */
function prefixKey(text: string, at: number): number {
  let key = 0;
  for (let i = at; i < at + PREFIX_LENGTH; i++) key = (Math.imul(key, 31) + text.charCodeAt(i)) | 0;
  return key;
}

let processRedactor: Redactor | undefined;

/**
 * The redactor of this process (one Playwright worker): the fixtures register every secret with it,
 * and every path that turns a response into text for a reader (report attachments, transcripts,
 * assertion messages) goes through it.
 */
export function workerRedactor(): Redactor {
  return (processRedactor ??= new Redactor());
}

let processKey: string | undefined;

/**
 * The key of the fingerprints: PAYMENTS_FINGERPRINT_KEY, made with the run's identity
 * (profile/run-settings.ts) and inherited by every worker of the run, so one value gets one
 * fingerprint across the whole run; a process without it (a unit test, a script) gets a key of its own.
 * It is listed with the secrets for the leak scan and never written to an artifact.
 */
export const fingerprintKey = (): string =>
  fingerprintKeyOf() || (processKey ??= randomBytes(32).toString('base64url'));

/**
 * 48 bits of HMAC-SHA256 under the run's key: enough to tell two values apart within a run, and no
 * help to confirm a guessed secret (a bare hash of a weak client secret could be checked offline).
 */
export const fingerprint = (value: string): string =>
  createHmac('sha256', fingerprintKey()).update(value).digest('hex').slice(0, 12);

export class Redactor {
  /**
   * Secrets replaced by value (those no shape rule catches: client secrets, opaque tokens), and their
   * URL-encoded forms, by their first characters, longest first: a text is scanned once, whatever
   * the number of secrets a run registers (thousands of tokens by its end).
   */
  private readonly byPrefix = new Map<number, { value: string; label: string }[]>();
  /** Every secret seen, for the post-run leak scan; JWTs and PEMs are caught by shape, so only listed here. */
  private readonly seen = new Map<string, string>();

  /** Registers a value that must never appear in clear (a client secret, an access token...). */
  addSecret(value: string | undefined, label: string): void {
    if (!value || value.length < MIN_SECRET_LENGTH) return;
    this.seen.set(value, label);
    const caughtByShape = value.includes('-----BEGIN') || WHOLE_JWT.test(value);
    if (caughtByShape) return;
    for (const form of new Set([value, encodeURIComponent(value)])) {
      const key = prefixKey(form, 0);
      const candidates = this.byPrefix.get(key) ?? [];
      if (candidates.some((c) => c.value === form)) continue;
      candidates.push({ value: form, label });
      candidates.sort((a, b) => b.value.length - a.value.length);
      this.byPrefix.set(key, candidates);
    }
  }

  /** Each registered secret replaced by its label; at a position where several start, the longest. */
  private replaceKnown(text: string): string {
    if (this.byPrefix.size === 0) return text;
    let out = '';
    let copied = 0;
    for (let i = 0; i + MIN_SECRET_LENGTH <= text.length; ) {
      const hit = this.byPrefix.get(prefixKey(text, i))?.find((c) => text.startsWith(c.value, i));
      if (!hit) {
        i++;
        continue;
      }
      out += `${text.slice(copied, i)}[REDACTED ${hit.label}]`;
      i += hit.value.length;
      copied = i;
    }
    return copied === 0 ? text : out + text.slice(copied);
  }

  /** Every secret registered so far, and the fingerprint key, for the post-run leak scan. */
  secretValues(): { label: string; value: string }[] {
    return [...this.seen, [fingerprintKey(), 'fingerprint key'] as const].map(([value, label]) => ({ label, value }));
  }

  text(input: string): string {
    let out = input.replace(PEM_SHAPE, '[REDACTED PEM]').replace(PEM_ESCAPED_SHAPE, '[REDACTED PEM]');
    // Named fields first, so a token inside a JSON string or a form value is replaced whole.
    for (const { field, json, form } of FIELD_SHAPES) {
      if (!out.includes(field)) continue;
      out = out
        .replace(json, (_m, key: string, value: string) => `${key}${JSON.stringify(describeSecret(value, field))}`)
        .replace(
          form,
          (_m, lead: string, key: string, value: string) => `${lead}${key}${describeSecret(safeDecode(value), field)}`,
        );
    }
    out = this.replaceKnown(out).replace(CREDENTIAL_SHAPE, redactCredential);
    return out.replace(JWT_SHAPE, (jwt) => describeJwt(jwt));
  }

  headers(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      out[name] = SENSITIVE_HEADERS.has(name.toLowerCase()) ? redactHeaderValue(value) : this.text(value);
    }
    return out;
  }
}

/** Keeps the scheme and what a reader needs to diagnose (JWT header and claim names), never the credential. */
function redactHeaderValue(value: string): string {
  const [scheme, ...rest] = value.split(' ');
  const credential = rest.join(' ');
  if (scheme && /^(basic|bearer)$/i.test(scheme)) return `${scheme} [REDACTED hmac:${fingerprint(credential)}]`;
  return describeJwt(value);
}

/** Plain words after "Basic"/"Bearer" in prose are kept. */
function redactCredential(match: string, scheme: string, space: string, credential: string): string {
  // A JWT is described below; `realm=…`/`error=…` are WWW-Authenticate parameters, not credentials.
  if ((credential.startsWith('eyJ') && decodeCompact(credential)) || /^[A-Za-z][\w-]*=[^=]/.test(credential))
    return match;
  const basicPair = /^basic$/i.test(scheme) && Buffer.from(credential, 'base64').toString('latin1').includes(':');
  const tokenLike = /[0-9+/=._~-]/.test(credential);
  return basicPair || tokenLike ? `${scheme}${space}[REDACTED hmac:${fingerprint(credential)}]` : match;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

function describeSecret(value: string, field: string): string {
  return decodeCompact(value) ? describeJwt(value) : `[REDACTED ${field} hmac:${fingerprint(value)}]`;
}

function describeJwt(jwt: string): string {
  const decoded = decodeCompact(jwt);
  if (!decoded) return `[REDACTED token hmac:${fingerprint(jwt)}]`;
  // Header and claims carry no secret and explain most failures (alg, kid, exp, hd); the signature is dropped.
  return `[REDACTED JWT hmac:${fingerprint(jwt)} header=${JSON.stringify(decoded.header)} claims=${JSON.stringify(decoded.payload)}]`;
}
