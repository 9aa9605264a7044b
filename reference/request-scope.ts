/**
 * Which client's dialect and faults answer a request (README "Dialects"). A route records the
 * caller once it is known (authenticate(), the token endpoint); error rendering and the response
 * hooks read it back. Before that, the client the X-Client-Id header names (on the token endpoint:
 * the Basic credentials' client id) stands in, else the process.
 */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from './context';
import type { Dialect } from './dialects';
import type { FaultSet, Operation } from './faults';
import type { Client } from './registry';

export interface RequestScope {
  dialect: Dialect;
  /** The faults the operation checks (faultsFor(client faults, op)). */
  faults: FaultSet;
  op: Operation;
}

/** Route path (as registered) -> operation, for helpers shared by several routes (prepareSubmission). */
const routeOperations: Readonly<Record<string, Operation>> = {
  '/oauth/token': 'token',
  '/payments/pacs008/v10': 'submitPayment',
  '/payments/pacs008/v08': 'submitPayment',
  '/payments/pacs002/v12/:id': 'paymentStatus',
  '/payments/pacs002/v10/:id': 'paymentStatus',
  '/payments/pacs008/v08/:id': 'incomingPayment',
  '/payments/camt056/v08': 'cancel',
  '/payments/camt029/v09/:id': 'cancellationStatus',
  '/payments/pacs004/v08': 'returnPayment',
  '/payments/pacs007/v08': 'refund',
};

/**
 * The path version of a payments route (`/payments/pacs008/v08` → `v08`): one operation has several
 * (§9), and a per-version fault (`base@op:version`) acts on one of them only.
 */
export function pathVersionOf(req: FastifyRequest): string | undefined {
  return /^\/payments\/[a-z0-9]+\/(v\d+)/.exec(req.routeOptions.url ?? '')?.[1];
}

export function operationOf(req: FastifyRequest): Operation {
  const route = req.routeOptions.url ?? '';
  const op = Object.hasOwn(routeOperations, route) ? routeOperations[route] : undefined;
  if (!op) throw new Error(`route ${route} has no operation`);
  return op;
}

const scopes = new WeakMap<FastifyRequest, RequestScope>();

export function setRequestScope(req: FastifyRequest, scope: RequestScope): void {
  scopes.set(req, scope);
}

export function requestScope(req: FastifyRequest): RequestScope | undefined {
  return scopes.get(req);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The client id of a Basic Authorization header, unverified (only to pick a dialect for an early error). */
function basicClientId(authorization: string | undefined): string | undefined {
  const match = authorization ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
  } catch {
    return decoded.slice(0, colon);
  }
}

/** The client a not yet authenticated request names: X-Client-Id, or the Basic client id on the token endpoint. */
export function namedClient(ctx: ServiceContext, req: FastifyRequest): Client | undefined {
  const xClientId = first(req.headers['x-client-id']);
  if (xClientId) return ctx.registry.get(xClientId);
  if (req.url.startsWith('/oauth/')) {
    const id = basicClientId(first(req.headers.authorization));
    return id ? ctx.registry.get(id) : undefined;
  }
  return undefined;
}

export function requestDialect(ctx: ServiceContext, req: FastifyRequest): Dialect {
  return scopes.get(req)?.dialect ?? namedClient(ctx, req)?.dialect ?? ctx.processDialect;
}
