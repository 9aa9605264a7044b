/**
 * Compact JWS parsing and signature checks for client JWTs (authentication and SCA).
 *
 * Why not jose.jwtVerify: every rule of spec §5 has to be checked (and faultable) one by one, in a
 * fixed order, and synchronously so that no await separates the idempotency check from the insert.
 * The algorithm is never taken from the token: callers pass the algorithm they expect, and RS256
 * is verified with node:crypto against the key registered for the client.
 */
import { createHmac, createPublicKey, verify as cryptoVerify, type KeyObject, type JsonWebKey } from 'node:crypto';

export type JsonObject = Record<string, unknown>;

export interface ParsedJws {
  header: JsonObject;
  payload: JsonObject;
  signingInput: string;
  signature: Buffer;
  /** The raw third segment, so "stripped signature" can be told apart from a bad one. */
  signatureText: string;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

function decodeJsonSegment(segment: string): JsonObject | null {
  if (segment === '' || !B64URL.test(segment)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

/** null when the text is not three Base64url segments with JSON-object header and payload. */
export function parseCompactJws(token: string): ParsedJws | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  if (!B64URL.test(s)) return null;
  const header = decodeJsonSegment(h);
  const payload = decodeJsonSegment(p);
  if (!header || !payload) return null;
  return { header, payload, signingInput: `${h}.${p}`, signature: Buffer.from(s, 'base64url'), signatureText: s };
}

/** alg "none" in any spelling: refused unless a fault says otherwise. */
export function isAlgNone(alg: unknown): boolean {
  return typeof alg === 'string' && alg.toLowerCase() === 'none';
}

/** Verifies with an algorithm chosen by the caller (never read from the token). */
export function verifySignature(jws: ParsedJws, key: KeyObject, alg: 'RS256' | 'ES256' | 'EdDSA'): boolean {
  if (jws.signature.length === 0) return false;
  const data = Buffer.from(jws.signingInput, 'ascii');
  try {
    if (alg === 'RS256') return cryptoVerify('sha256', data, key, jws.signature);
    if (alg === 'ES256') return cryptoVerify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, jws.signature);
    return cryptoVerify(null, data, key, jws.signature);
  } catch {
    return false;
  }
}

/** The natural JWS algorithm of a key, used only by the key-accepts-non-rsa fault. */
export function naturalAlg(key: KeyObject): 'RS256' | 'ES256' | 'EdDSA' {
  if (key.asymmetricKeyType === 'ec') return 'ES256';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  return 'RS256';
}

/** Imports a key embedded in the JWS header (jwk); used only by the token-trusts-embedded-jwk fault. */
export function embeddedJwk(header: JsonObject): KeyObject | null {
  const jwk = header['jwk'];
  if (typeof jwk !== 'object' || jwk === null) return null;
  try {
    return createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch {
    return null;
  }
}

export function isNumericDate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Signs the service's own access tokens (HS256 with a per-process secret; they are also kept in a Map). */
export function signHs256(payload: JsonObject, secret: Buffer, kid: string): string {
  const h = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'at+jwt', kid })).toString('base64url');
  const p = Buffer.from(JSON.stringify(payload)).toString('base64url');
  const s = createHmac('sha256', secret).update(`${h}.${p}`).digest('base64url');
  return `${h}.${p}.${s}`;
}

/**
 * Remembers used identifiers (assertion jti, SCA nonce) until they could no longer be accepted
 * anyway (their token has expired), so memory stays bounded under load.
 *
 * Keys are also filed by the second their memory ends, so a prune visits only the seconds that have
 * begun to expire: under sustained load the guard holds every nonce of the last few minutes (about a
 * million at 3,000/s), and walking all of them stalled the event loop on every prune.
 */
export class ReplayGuard {
  private readonly seen = new Map<string, number>();
  /** ceil(forgetAfterMs / 1000) -> keys added with a forget time in that second (may hold stale keys). */
  private readonly expiring = new Map<number, string[]>();
  has(key: string): boolean {
    return this.seen.has(key);
  }
  add(key: string, forgetAfterMs: number): void {
    this.seen.set(key, forgetAfterMs);
    const slot = Math.ceil(forgetAfterMs / 1000);
    const keys = this.expiring.get(slot);
    if (keys) keys.push(key);
    else this.expiring.set(slot, [key]);
  }
  /** Forgets exactly the keys whose forget time is before nowMs. */
  prune(nowMs: number): void {
    for (const [slot, keys] of this.expiring) {
      if ((slot - 1) * 1000 >= nowMs) continue; // every key filed here has until > (slot - 1) * 1000 >= nowMs
      const kept: string[] = [];
      for (const key of keys) {
        const until = this.seen.get(key);
        if (until === undefined) continue;
        if (until < nowMs) this.seen.delete(key);
        else if (Math.ceil(until / 1000) === slot) kept.push(key); // else re-added later: filed under its new second
      }
      if (kept.length > 0) this.expiring.set(slot, kept);
      else this.expiring.delete(slot);
    }
  }
  get size(): number {
    return this.seen.size;
  }
}
