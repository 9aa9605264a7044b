/**
 * Request authentication and header rules (spec §4.2, §5.1; README fixed choices): bearer token
 * (401), X-Client-Id (400 missing, 403 not the token's client), Accept (406), Content-Type (415).
 */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from './context';
import type { FaultSet } from './faults';
import type { Client } from './registry';
import { ApiError, errorsOf } from './errors';

export interface Caller {
  client: Client;
  faults: FaultSet;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function authenticate(ctx: ServiceContext, req: FastifyRequest): Caller {
  const xClientId = header(req, 'x-client-id');
  const named = xClientId ? ctx.registry.get(xClientId) : undefined;
  // Before the token is known, faults come from the client the request names (or the global set).
  const preFaults = named?.faults ?? ctx.globalFaults;
  const authorization = header(req, 'authorization');
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;

  if (!authorization || !match?.[1]) {
    if (!authorization && named && preFaults.has('bearer-optional')) return { client: named, faults: named.faults };
    throw errorsOf.unauthorized(authorization ? 'Authorization must be a Bearer token' : 'a Bearer access token is required');
  }
  const record = ctx.tokens.lookup(match[1]);
  if (!record) {
    if (named && preFaults.has('bearer-accepts-unknown')) return { client: named, faults: named.faults };
    throw errorsOf.unauthorized('the access token is invalid');
  }
  const owner = ctx.registry.get(record.clientId);
  if (!owner) throw errorsOf.unauthorized('the access token is invalid');
  const faults = owner.faults;
  if (record.expiresAtMs <= Date.now() && !faults.has('bearer-never-expires')) throw errorsOf.unauthorized('the access token has expired');
  if (!xClientId) {
    if (faults.has('client-id-header-optional')) return { client: owner, faults };
    throw errorsOf.missingHeader('X-Client-Id');
  }
  if (xClientId !== owner.clientId && !faults.has('client-id-mismatch-ignored')) {
    throw new ApiError(403, { code: 'forbidden', message: 'X-Client-Id does not name the client the access token was issued to', path: 'header:X-Client-Id' });
  }
  return { client: owner, faults };
}

/** A missing Accept means "anything" (RFC 9110); a present one must allow JSON. */
export function checkAccept(req: FastifyRequest): void {
  const accept = header(req, 'accept');
  if (!accept) return;
  const ok = accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase();
    return type === '*/*' || type === 'application/*' || type === 'application/json' || type.endsWith('+json');
  });
  if (!ok) throw new ApiError(406, { code: 'not_acceptable', message: 'Accept must allow application/json', path: 'header:Accept' });
}

export function requireJsonContentType(req: FastifyRequest): void {
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError(415, { code: 'unsupported_media_type', message: 'Content-Type must be application/json', path: 'header:Content-Type' });
  }
}

export function headerValue(req: FastifyRequest, name: string): string | undefined {
  return header(req, name);
}
