/**
 * Compact JWS parsing and signature checks for client JWTs (authentication and SCA).
 *
 * Why not jose.jwtVerify: every rule of spec §5 has to be checked (and faultable) one by one, in a
 * fixed order, and synchronously so that no await separates the idempotency check from the insert.
 * The algorithm is never taken from the token: callers pass the algorithm they expect, and RS256
 * is verified with node:crypto against the key registered for the client.
 */
import {
  createHmac,
  timingSafeEqual,
  createPublicKey,
  verify as cryptoVerify,
  constants,
  X509Certificate,
  type KeyObject,
  type JsonWebKey,
} from 'node:crypto';

export type JsonObject = Record<string, unknown>;

export interface ParsedJws {
  header: JsonObject;
  /** The decoded header JSON text (the first-alg-member faults scan it by hand). */
  headerText: string;
  payload: JsonObject;
  signingInput: string;
  signature: Buffer;
  /** The raw third segment, so "stripped signature" can be told apart from a bad one. */
  signatureText: string;
  /** Parsed as an RFC 7797 unencoded payload (only under a *-honours-b64-false fault). */
  unencoded: boolean;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

function decodeJsonText(text: string): JsonObject | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : null;
  } catch {
    return null;
  }
}

function segmentText(segment: string): string | null {
  return segment === '' || !B64URL.test(segment) ? null : Buffer.from(segment, 'base64url').toString('utf8');
}

/**
 * null when the text is not three Base64url segments with JSON-object header and payload.
 * `unencodedPayload` (the *-honours-b64-false faults): a header with b64 false makes everything
 * between the first and the last dot the payload itself (RFC 7797), read as the claims.
 */
export function parseCompactJws(token: string, options: { unencodedPayload?: boolean } = {}): ParsedJws | null {
  if (options.unencodedPayload) {
    const first = token.indexOf('.');
    const last = token.lastIndexOf('.');
    const headerText = first > 0 ? segmentText(token.slice(0, first)) : null;
    const header = headerText === null ? null : decodeJsonText(headerText);
    if (header && header.b64 === false && last > first) {
      const s = token.slice(last + 1);
      const payloadText = token.slice(first + 1, last);
      const payload = decodeJsonText(payloadText);
      if (!payload || !B64URL.test(s)) return null;
      return {
        header,
        headerText: headerText!,
        payload,
        signingInput: token.slice(0, last),
        signature: Buffer.from(s, 'base64url'),
        signatureText: s,
        unencoded: true,
      };
    }
  }
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [h, p, s] = parts as [string, string, string];
  if (!B64URL.test(s)) return null;
  const headerText = segmentText(h);
  const payloadText = segmentText(p);
  const header = headerText === null ? null : decodeJsonText(headerText);
  const payload = payloadText === null ? null : decodeJsonText(payloadText);
  if (!header || !payload) return null;
  return {
    header,
    headerText: headerText!,
    payload,
    signingInput: `${h}.${p}`,
    signature: Buffer.from(s, 'base64url'),
    signatureText: s,
    unencoded: false,
  };
}

/** alg "none" in any spelling: refused unless a fault says otherwise. */
export function isAlgNone(alg: unknown): boolean {
  return typeof alg === 'string' && alg.toLowerCase() === 'none';
}

export type JwsAlg = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'EdDSA';
const RSA_FAMILY: ReadonlySet<unknown> = new Set(['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']);

/** Verifies with an algorithm chosen by the caller (never read from the token, except under a fault). */
export function verifySignature(jws: ParsedJws, key: KeyObject, alg: JwsAlg): boolean {
  if (jws.signature.length === 0) return false;
  const data = Buffer.from(jws.signingInput, jws.unencoded ? 'utf8' : 'ascii');
  try {
    if (alg === 'ES256') return cryptoVerify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, jws.signature);
    if (alg === 'EdDSA') return cryptoVerify(null, data, key, jws.signature);
    const bits = alg.slice(2);
    if (alg.startsWith('PS')) {
      // RFC 7518 §3.5: PSS with MGF1 of the same hash and a salt as long as the hash.
      return cryptoVerify(
        `sha${bits}`,
        data,
        { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(bits) / 8 },
        jws.signature,
      );
    }
    return cryptoVerify(`sha${bits}`, data, key, jws.signature);
  } catch {
    return false;
  }
}

/**
 * The RFC 8725 attack faults a JWT check can be switched into (README "JWT attack faults"); the
 * authentication JWT and the SCA JWT each map their own fault names onto these.
 */
export interface JwtAttackFaults {
  /** alg none (any spelling) skips the signature (token-accepts-alg-none). */
  acceptNone: boolean;
  /** The alg check scans the header text for its first alg member; verification uses the parsed (last) one. */
  firstAlgMember: boolean;
  /** Any RSA-family alg named by the header is used for verification. */
  rsaFamily: boolean;
  /** ES256 with r = s = 0 passes (CVE-2022-21449). */
  psychic: boolean;
  /** crit is not checked at all. */
  ignoreCrit: boolean;
  /** b64 false is understood (RFC 7797): the token is parsed and verified with its payload unencoded. */
  b64: boolean;
  trustJwk: boolean;
  trustJku: boolean;
  trustX5c: boolean;
  trustX5u: boolean;
}

/** What verification uses: an algorithm, or 'none' (no signature check, reachable only under a fault). */
export type AlgDecision = { verifyAlg: JwsAlg | 'none' };

/** A hand-written scan for the first `"alg":"…"` member of the header text (the defect of the first-alg-member faults). */
function firstAlgMember(headerText: string): string | undefined {
  return /"alg"\s*:\s*"([^"\\]*)"/.exec(headerText)?.[1];
}

/** The algorithm to verify with, or the reason to refuse. Without faults: exactly `expected`. */
export function chooseAlgorithm(jws: ParsedJws, expected: JwsAlg, f: JwtAttackFaults): AlgDecision | string {
  const alg = jws.header.alg;
  if (alg === expected) return { verifyAlg: expected };
  if (isAlgNone(alg) && f.acceptNone) return { verifyAlg: 'none' };
  if (f.firstAlgMember && firstAlgMember(jws.headerText) === expected) {
    // The policy saw `expected`; the verifier goes by the parsed header, whose alg is the last member.
    if (isAlgNone(alg)) return { verifyAlg: 'none' };
    if (RSA_FAMILY.has(alg)) return { verifyAlg: alg as JwsAlg };
  }
  if (f.rsaFamily && RSA_FAMILY.has(alg) && RSA_FAMILY.has(expected)) return { verifyAlg: alg as JwsAlg };
  if (f.psychic && alg === 'ES256') return { verifyAlg: 'ES256' };
  return `alg must be ${expected}`;
}

/**
 * RFC 7515 §4.1.11: crit lists extensions that must be understood. This service understands none,
 * so any crit is refused; under a *-honours-b64-false fault it understands b64 (RFC 7797).
 */
export function critProblem(header: JsonObject, f: JwtAttackFaults): string | null {
  const crit = header.crit;
  if (crit === undefined || f.ignoreCrit) return null;
  if (f.b64 && Array.isArray(crit) && crit.length > 0 && crit.every((name) => name === 'b64') && header.b64 === false)
    return null;
  return 'crit header is not supported';
}

/** 64 zero bytes (JWS r||s) or the DER sequence of r = 0, s = 0. */
function isZeroEcdsaSignature(signature: Buffer): boolean {
  if (signature.length === 64) return signature.every((b) => b === 0);
  return signature.equals(Buffer.from('3006020100020100', 'hex'));
}

/** Keys fetched ahead of verification from x5u/jku URLs (remote-keys.ts), by URL; null: the fetch failed. */
export type RemoteKeys = (url: string) => KeyObject | null | undefined;
export const noRemoteKeys: RemoteKeys = () => undefined;

/** The key of the first (leaf) certificate of an x5c header (standard Base64 DER), without checking the chain. */
export function x5cKey(header: JsonObject): KeyObject | null {
  const chain = header.x5c;
  if (!Array.isArray(chain) || typeof chain[0] !== 'string') return null;
  try {
    return new X509Certificate(Buffer.from(chain[0], 'base64')).publicKey;
  } catch {
    return null;
  }
}

/** The key a faulty service takes from the token itself, when a trust fault is on and the header names one. */
function keyFromToken(header: JsonObject, f: JwtAttackFaults, remote: RemoteKeys): KeyObject | null {
  if (f.trustJwk && header.jwk !== undefined) return embeddedJwk(header);
  if (f.trustJku && typeof header.jku === 'string') return remote(header.jku) ?? null;
  if (f.trustX5c && header.x5c !== undefined) return x5cKey(header);
  if (f.trustX5u && typeof header.x5u === 'string') return remote(header.x5u) ?? null;
  return null;
}

/**
 * The signature check after chooseAlgorithm. The registered key verifies, unless a trust fault makes
 * the key named in the token itself do so (jwk/jku/x5c/x5u; when that key cannot be had, the
 * registered key is used).
 */
export function verifyJws(
  jws: ParsedJws,
  decision: AlgDecision,
  registered: KeyObject,
  f: JwtAttackFaults,
  remote: RemoteKeys,
): boolean {
  if (decision.verifyAlg === 'none') return true;
  if (decision.verifyAlg === 'ES256' && f.psychic && isZeroEcdsaSignature(jws.signature)) return true; // the broken verifier never looks at the key
  const key = keyFromToken(jws.header, f, remote) ?? registered;
  if (decision.verifyAlg === 'ES256' && key.asymmetricKeyType !== 'ec') return false;
  if (RSA_FAMILY.has(decision.verifyAlg) && key.asymmetricKeyType !== 'rsa') return false;
  return verifySignature(jws, key, decision.verifyAlg);
}

/** The natural JWS algorithm of a key, used only by the key-accepts-non-rsa fault. */
export function naturalAlg(key: KeyObject): 'RS256' | 'ES256' | 'EdDSA' {
  if (key.asymmetricKeyType === 'ec') return 'ES256';
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  return 'RS256';
}

/** Imports a key embedded in the JWS header (jwk); used only by the *-trusts-embedded-jwk faults. */
export function embeddedJwk(header: JsonObject): KeyObject | null {
  const jwk = header.jwk;
  if (typeof jwk !== 'object' || jwk === null) return null;
  try {
    return createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' });
  } catch {
    return null;
  }
}

/**
 * The key-confusion defect of RFC 8725 §2.1: a verifier that takes the header's alg HS256 and keys HMAC
 * with the registered public key's text. Whether the HMAC holds (the token and SCA faults share it).
 */
export function hs256WithPublicKeyHolds(jws: ParsedJws, publicKeyText: string): boolean {
  const mac = createHmac('sha256', publicKeyText).update(jws.signingInput).digest();
  return mac.length === jws.signature.length && timingSafeEqual(mac, jws.signature);
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
 * begun to expire: under sustained load the guard holds every nonce of the last few minutes, and
 * walking all of them on every prune would stall the event loop.
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
