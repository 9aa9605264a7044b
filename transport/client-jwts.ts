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
  /** Absent for a keyless sandbox client (spec §5.6): it sends `predefined` instead of signing. */
  privateKey?: KeyObject;
  publicPem?: string;
  /** Sort code of the client's institution: payments to it are incoming payments for this client. */
  memberId?: string;
  /** The sandbox's predefined authentication JWT and test SCA JWT (spec §5.6), for a client without a key pair. */
  predefined?: PredefinedTokens;
  /** The aud claim of its authentication JWTs (the profile's assertionAudience): none unless the target requires one. */
  audience?: string;
}

export interface PredefinedTokens {
  /** Meant to be sent again and again (a fixed jti, a long lifetime). */
  assertion: string;
  /** Accepted by the sandbox for any body. */
  scaToken: string;
}

/** A JWT the client must sign itself, asked of a client that has no private key. */
export class MissingSigningKey extends Error {
  override name = 'MissingSigningKey';
}

/**
 * What happens when a test asks a keyless client for a signature of its own: the fixtures install a
 * handler that ends the test as skipped, naming the missing key; elsewhere (a script) it is an error.
 */
let onMissingKey: ((client: ClientIdentity) => never) | undefined;
export function handleMissingSigningKey(handler: ((client: ClientIdentity) => never) | undefined): void {
  onMissingKey = handler;
}

/** The client's private key; a keyless client (spec §5.6) has none: the test is skipped, or the call fails. */
export function signingKeyOf(client: ClientIdentity): KeyObject {
  if (client.privateKey) return client.privateKey;
  if (onMissingKey) onMissingKey(client);
  throw new MissingSigningKey(
    `client ${client.role} has no private key: it sends the sandbox's predefined tokens (spec §5.6), and this needs a JWT it signs itself`,
  );
}

/** The client's public key (PEM); a keyless client's is not known to it (the provider holds the pair). */
export function publicPemOf(client: ClientIdentity): string {
  if (client.publicPem) return client.publicPem;
  if (onMissingKey) onMissingKey(client);
  throw new MissingSigningKey(
    `client ${client.role} has no key pair of its own: it sends the sandbox's predefined tokens (spec §5.6)`,
  );
}

/** Whether the options ask for anything but the client's plain JWT (then only the client's own key can make it). */
const customised = (options: JwtOptions): boolean => Object.values(options).some((value) => value !== undefined);

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
export const jwtHeader = (client: ClientIdentity, options: Pick<JwtOptions, 'header'> = {}): JsonObject =>
  applyOverride({ alg: 'RS256', typ: 'JWT', kid: client.kid }, options.header);

/** The claims of the authentication JWT (§5), with any override. */
export function authenticationClaims(
  client: ClientIdentity,
  options: Pick<JwtOptions, 'claims' | 'now' | 'lifetimeSeconds'> = {},
): JsonObject {
  const now = options.now ?? nowSeconds();
  return applyOverride(
    {
      sub: client.clientId,
      iss: client.iss,
      ...(client.audience !== undefined ? { aud: client.audience } : {}),
      iat: now,
      nbf: now,
      exp: now + (options.lifetimeSeconds ?? 300),
      jti: randomUUID(),
    },
    options.claims,
  );
}

/** The claims of the SCA JWT (§5): `body` must be the exact bytes that will be sent, hd hashes them. */
export function scaClaims(
  client: ClientIdentity,
  body: Uint8Array | string,
  options: Pick<JwtOptions, 'claims' | 'now' | 'lifetimeSeconds'> = {},
): JsonObject {
  const now = options.now ?? nowSeconds();
  return applyOverride(
    {
      iss: client.iss,
      iat: now,
      exp: now + (options.lifetimeSeconds ?? 300),
      jti: randomUUID(),
      alg: 'SHA256',
      hd: bodyHash(body),
      nonce: randomUUID(),
    },
    options.claims,
  );
}

/** The authentication JWT: signed by the client, or a keyless client's predefined one (spec §5.6) when nothing in it is changed. */
export function authenticationJwt(client: ClientIdentity, options: JwtOptions = {}): string {
  if (!client.privateKey && client.predefined && !customised(options)) return client.predefined.assertion;
  return signCompact(
    jwtHeader(client, options),
    authenticationClaims(client, options),
    options.signer ?? { kind: 'rs256', key: signingKeyOf(client) },
  );
}

/**
 * `body` must be the exact bytes that will be sent: hd is computed over them. A keyless client sends
 * its predefined test SCA JWT, which the sandbox accepts for any body (spec §5.6).
 */
export function scaJwt(client: ClientIdentity, body: Uint8Array | string, options: JwtOptions = {}): string {
  if (!client.privateKey && client.predefined && !customised(options)) return client.predefined.scaToken;
  return signCompact(
    jwtHeader(client, options),
    scaClaims(client, body, options),
    options.signer ?? { kind: 'rs256', key: signingKeyOf(client) },
  );
}
