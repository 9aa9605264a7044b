/**
 * The two client JWTs of spec §5: the authentication JWT (token requests) and the SCA JWT (every
 * request that submits a payment). Both start from every required claim and accept overrides so a
 * negative test can change, remove (ABSENT) or mistype any header field or claim.
 */
import { randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { applyOverride, signCompact, type JsonObject, type Override, type Signer } from './jws';
import { bodyHash } from './body-hash';

export interface ClientIdentity {
  /** A label for reports: "primary", "secondary"... */
  role: string;
  clientId: string;
  clientSecret: string;
  kid: string;
  iss: string;
  privateKey: KeyObject;
  publicPem: string;
  /** Sort code of the client's institution: payments to it are incoming payments for this client. */
  memberId?: string;
}

export interface JwtOptions {
  header?: Override;
  claims?: Override;
  /** Defaults to RS256 with the client's own private key. */
  signer?: Signer;
  /** Seconds since the epoch; defaults to now. */
  now?: number;
  lifetimeSeconds?: number;
}

export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** The header every client JWT starts from (§5): RS256, typ JWT, the registered kid. */
export const jwtHeader = (client: ClientIdentity, options: Pick<JwtOptions, 'header'> = {}): JsonObject => applyOverride({ alg: 'RS256', typ: 'JWT', kid: client.kid }, options.header);

/** The claims of the authentication JWT (§5), with any override. */
export function authenticationClaims(client: ClientIdentity, options: Pick<JwtOptions, 'claims' | 'now' | 'lifetimeSeconds'> = {}): JsonObject {
  const now = options.now ?? nowSeconds();
  return applyOverride({ sub: client.clientId, iss: client.iss, iat: now, nbf: now, exp: now + (options.lifetimeSeconds ?? 300), jti: randomUUID() }, options.claims);
}

/** The claims of the SCA JWT (§5): `body` must be the exact bytes that will be sent, hd hashes them. */
export function scaClaims(client: ClientIdentity, body: Uint8Array | string, options: Pick<JwtOptions, 'claims' | 'now' | 'lifetimeSeconds'> = {}): JsonObject {
  const now = options.now ?? nowSeconds();
  return applyOverride({ iss: client.iss, iat: now, exp: now + (options.lifetimeSeconds ?? 300), jti: randomUUID(), alg: 'SHA256', hd: bodyHash(body), nonce: randomUUID() }, options.claims);
}

export function authenticationJwt(client: ClientIdentity, options: JwtOptions = {}): string {
  return signCompact(jwtHeader(client, options), authenticationClaims(client, options), options.signer ?? { kind: 'rs256', key: client.privateKey });
}

/** `body` must be the exact bytes that will be sent: hd is computed over them. */
export function scaJwt(client: ClientIdentity, body: Uint8Array | string, options: JwtOptions = {}): string {
  return signCompact(jwtHeader(client, options), scaClaims(client, body, options), options.signer ?? { kind: 'rs256', key: client.privateKey });
}
