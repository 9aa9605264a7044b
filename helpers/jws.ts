/**
 * Compact JWS built by hand rather than with jose's SignJWT: negative tests need headers and claims
 * that a careful library refuses to produce (alg none, HS256 keyed with a public key, a missing typ,
 * a claim of the wrong type). Every byte of header and payload is under the caller's control.
 */
import { createHmac, sign, type KeyObject } from 'node:crypto';

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
    case 'none':
      return `${input}.`;
  }
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
