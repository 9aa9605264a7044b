/** Access tokens issued by the token endpoint. Every format is looked up in a Map: one O(1) check per request. */
import { randomBytes, randomUUID } from 'node:crypto';
import { signHs256 } from './jwt-verify';

export interface AccessToken {
  clientId: string;
  expiresAtMs: number;
}

export class AccessTokens {
  private readonly tokens = new Map<string, AccessToken>();
  private readonly secret = randomBytes(32);
  private readonly kid = randomUUID();

  issue(clientId: string, ttlSeconds: number, format: 'jwt' | 'opaque', nowMs: number): string {
    const iat = Math.floor(nowMs / 1000);
    const token =
      format === 'jwt'
        ? signHs256(
            {
              iss: 'reference-payments',
              sub: clientId,
              client_id: clientId,
              scope: 'makePayments',
              iat,
              exp: iat + ttlSeconds,
              jti: randomUUID(),
            },
            this.secret,
            this.kid,
          )
        : randomBytes(32).toString('base64url');
    this.tokens.set(token, { clientId, expiresAtMs: nowMs + ttlSeconds * 1000 });
    return token;
  }

  /** The record, including expired ones: the caller decides (the bearer-never-expires fault needs it). */
  lookup(token: string): AccessToken | undefined {
    return this.tokens.get(token);
  }

  /**
   * bearer-signature-unchecked: the defect decodes a JWT access token without verifying it, and takes
   * it as its sub's, valid until its exp (an opaque token has nothing to decode).
   */
  decodeUnverified(token: string): AccessToken | undefined {
    const [, payload] = token.split('.');
    try {
      const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as {
        sub?: unknown;
        exp?: unknown;
      };
      return typeof claims.sub === 'string' && typeof claims.exp === 'number'
        ? { clientId: claims.sub, expiresAtMs: claims.exp * 1000 }
        : undefined;
    } catch {
      return undefined;
    }
  }

  /** Drops tokens long expired (an hour of grace keeps the expiry fault observable). */
  prune(nowMs: number): void {
    for (const [token, record] of this.tokens) if (record.expiresAtMs + 3_600_000 < nowMs) this.tokens.delete(token);
  }
}
