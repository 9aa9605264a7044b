/**
 * Compact JWS built by hand rather than with jose's SignJWT: negative tests need headers and claims
 * that a careful library refuses to produce (alg none, HS256 keyed with a public key, a missing typ,
 * a claim of the wrong type). Every byte of header and payload is under the caller's control.
 */
import { constants, createHmac, sign, type KeyObject } from 'node:crypto';

export type JsonObject = Record<string, unknown>;

/** Marks a header field or claim for removal in an override. */
export const ABSENT: unique symbol = Symbol('absent');
export type Override = Record<string, unknown | typeof ABSENT>;

export function applyOverride(base: JsonObject, override: Override = {}): JsonObject {
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === ABSENT) delete out[key];
    else out[key] = value;
  }
  return out;
}

export const b64url = (data: Uint8Array | string): string => Buffer.from(data).toString('base64url');

export type Signer =
  | { kind: 'rs256'; key: KeyObject }
  | { kind: 'hs256'; secret: Uint8Array | string }
  /** ECDSA P-256 (JWS uses the raw r||s signature, RFC 7518 §3.4). */
  | { kind: 'es256'; key: KeyObject }
  /** Another algorithm of the RSA family with the same key (RFC 7518 §3.3, §3.5). */
  | { kind: 'rsa'; alg: 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512'; key: KeyObject }
  | { kind: 'none' };

export function signCompact(header: JsonObject, payload: JsonObject, signer: Signer): string {
  return signCompactBytes(header, JSON.stringify(payload), signer);
}

/** A compact JWS over payload bytes given as they are (an evidence manifest is signed byte for byte). */
export function signCompactBytes(header: JsonObject, payload: Uint8Array | string, signer: Signer): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(payload)}`;
  switch (signer.kind) {
    case 'rs256':
      return `${input}.${b64url(sign('sha256', Buffer.from(input), signer.key))}`;
    case 'hs256':
      return `${input}.${b64url(createHmac('sha256', signer.secret).update(input).digest())}`;
    case 'es256':
      return `${input}.${b64url(sign('sha256', Buffer.from(input), { key: signer.key, dsaEncoding: 'ieee-p1363' }))}`;
    case 'rsa':
      return `${input}.${b64url(signRsa(input, signer.alg, signer.key))}`;
    case 'none':
      return `${input}.`;
  }
}

function signRsa(input: string, alg: 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512', key: KeyObject): Buffer {
  const hash = `sha${alg.slice(2)}`;
  if (alg.startsWith('RS')) return sign(hash, Buffer.from(input), key);
  // RFC 7518 §3.5: RSASSA-PSS with MGF1 and a salt as long as the hash.
  return sign(hash, Buffer.from(input), {
    key,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: Number(alg.slice(2)) / 8,
  });
}

/**
 * A token assembled from exact texts: a header written by hand (duplicate members, say) and a
 * signature given as it is (empty, or a forged one such as 64 zero bytes).
 */
export function compactFromTexts(headerText: string, payload: JsonObject, signature: string): string {
  return `${b64url(headerText)}.${b64url(JSON.stringify(payload))}.${signature}`;
}

/**
 * RFC 7797 with b64 false: the payload travels unencoded between the dots and the signature covers
 * the header segment, a dot and the raw payload. (A JWT must not be built this way: spec §5.5 wants
 * three Base64url strings, which is why a service must refuse it.)
 */
export function signUnencoded(header: JsonObject, payload: JsonObject, key: KeyObject): string {
  const text = JSON.stringify(payload);
  const input = `${b64url(JSON.stringify(header))}.${text}`;
  return `${input}.${b64url(sign('sha256', Buffer.from(input), key))}`;
}

export interface DecodedJws {
  header: JsonObject;
  payload: JsonObject;
  signature: string;
}

/** Decodes without verifying: for building tampered copies and for readable report attachments. */
export function decodeCompact(token: string): DecodedJws | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8')) as unknown;
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as unknown;
    if (!isObject(header) || !isObject(payload)) return undefined;
    return { header, payload, signature: parts[2]! };
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
