/**
 * Request authentication and header rules (spec §4.2, §5.1; README fixed choices): bearer token
 * (401), X-Client-Id (400 missing, 403 not the token's client), Accept (406), Content-Type (415).
 */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from './context';
import type { Dialect } from './dialects';
import { type FaultSet, type Operation, faultsFor } from './faults';
import type { Client } from './registry';
import { ApiError, errorsOf } from './errors';
import { pathVersionOf, setRequestScope } from './request-scope';

export interface Caller {
  client: Client;
  /** The faults this operation checks: the client's set with its `base@op` faults read as `base`. */
  faults: FaultSet;
  /** The client's dialect: every answer to this request follows it. */
  dialect: Dialect;
  op: Operation;
  /** The route's path version (§9), undefined on the token endpoint. */
  version: string | undefined;
}

function callerOf(req: FastifyRequest, client: Client, op: Operation): Caller {
  const version = pathVersionOf(req);
  const caller: Caller = {
    client,
    faults: faultsFor(client.faults, op, version),
    dialect: client.dialect,
    op,
    version,
  };
  setRequestScope(req, caller);
  return caller;
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The authenticated caller of a payments operation. `op` is the route's operation: per-operation
 * faults (`bearer-optional@cancel`...) act as if that route had forgotten the check.
 */
export function authenticate(ctx: ServiceContext, req: FastifyRequest, op: Operation): Caller {
  const xClientId = header(req, 'x-client-id');
  const named = xClientId ? ctx.registry.get(xClientId) : undefined;
  // Before the token is known, faults come from the client the request names (or the global set).
  const preFaults = faultsFor(named?.faults ?? ctx.globalFaults, op, pathVersionOf(req));
  const authorization = header(req, 'authorization');
  const match = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;

  if (!authorization || !match?.[1]) {
    if (!authorization && named && preFaults.has('bearer-optional')) return callerOf(req, named, op);
    throw errorsOf.unauthorized(
      authorization ? 'Authorization must be a Bearer token' : 'a Bearer access token is required',
    );
  }
  const record =
    ctx.tokens.lookup(match[1]) ??
    (preFaults.has('bearer-signature-unchecked') ? ctx.tokens.decodeUnverified(match[1]) : undefined);
  if (!record) {
    if (named && preFaults.has('bearer-accepts-unknown')) return callerOf(req, named, op);
    throw errorsOf.unauthorized('the access token is invalid');
  }
  const owner = ctx.registry.get(record.clientId);
  if (!owner) throw errorsOf.unauthorized('the access token is invalid');
  // The token is valid: from here on the answer is in its owner's dialect, refusals included.
  const caller = callerOf(req, owner, op);
  const { faults } = caller;
  if (record.expiresAtMs <= Date.now() && !faults.has('bearer-never-expires'))
    throw errorsOf.unauthorized('the access token has expired');
  if (!xClientId) {
    if (faults.has('client-id-header-optional')) return caller;
    throw errorsOf.missingHeader('X-Client-Id');
  }
  if (xClientId !== owner.clientId && !faults.has('client-id-mismatch-ignored')) {
    throw new ApiError('forbidden', {
      code: 'forbidden',
      message: 'X-Client-Id does not name the client the access token was issued to',
      path: 'header:X-Client-Id',
    });
  }
  return caller;
}

/** A missing Accept means "anything" (RFC 9110); a present one must allow JSON. */
export function checkAccept(req: FastifyRequest): void {
  const accept = header(req, 'accept');
  if (!accept) return;
  const ok = accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase();
    return type === '*/*' || type === 'application/*' || type === 'application/json' || type.endsWith('+json');
  });
  if (!ok)
    throw new ApiError('notAcceptable', {
      code: 'not_acceptable',
      message: 'Accept must allow application/json',
      path: 'header:Accept',
    });
}

export function requireJsonContentType(req: FastifyRequest): void {
  const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new ApiError('mediaType', {
      code: 'unsupported_media_type',
      message: 'Content-Type must be application/json',
      path: 'header:Content-Type',
    });
  }
}

export function headerValue(req: FastifyRequest, name: string): string | undefined {
  return header(req, name);
}
