/**
 * The common front half of every submitting POST, in the documented order:
 * authentication -> headers -> Content-Type -> body parse -> SCA (signature, hd, nonce).
 * Idempotency and validation follow in each route.
 */
import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import type { FaultName, FaultSet } from '../faults';
import { type Caller, authenticate, checkAccept, headerValue, requireJsonContentType } from '../headers';
import { parseJsonBody } from '../body';
import { sha256Base64, verifySca } from '../sca';
import { ApiError, errorsOf, type FieldError } from '../errors';
import { isObject, type Json } from '../validate/check';

export interface Submission {
  caller: Caller;
  raw: Buffer;
  /** raw decoded (what body was parsed from). */
  text: string;
  rawHash: string;
  body: Json;
  nowMs: number;
}

/** `scaSkippedBy`: a fault that, when on for the caller, drops the SCA requirement of this route. */
export function prepareSubmission(ctx: ServiceContext, req: FastifyRequest, scaSkippedBy?: FaultName): Submission {
  const caller = authenticate(ctx, req);
  checkAccept(req);
  requireJsonContentType(req);
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const { text, value: body } = parseJsonBody(raw, caller.faults);
  const rawHash = sha256Base64(raw);
  const nowMs = Date.now();
  if (!scaSkippedBy || !caller.faults.has(scaSkippedBy)) verifySca(ctx, caller, { token: headerValue(req, 'sca-token'), raw, rawHash, json: body }, nowMs);
  return { caller, raw, text, rawHash, body, nowMs };
}

/** Faults of the client a request names, for checks made before authentication (route presence). */
export function namedFaults(ctx: ServiceContext, req: FastifyRequest): FaultSet {
  const id = headerValue(req, 'x-client-id');
  return (id ? ctx.registry.get(id)?.faults : undefined) ?? ctx.globalFaults;
}

export function routeGone(): ApiError {
  return errorsOf.notFound('no such resource');
}

export function validationError(ctx: ServiceContext, errors: FieldError | readonly FieldError[]): ApiError {
  return new ApiError(ctx.dialect.validationStatus, errors);
}

/** A nested string read without validation (idempotency keys are looked up before validation). */
export function peekString(value: unknown, ...keys: (string | number)[]): string | null {
  let current: unknown = value;
  for (const key of keys) {
    if (typeof key === 'number') current = Array.isArray(current) ? current[key] : undefined;
    else current = isObject(current) ? current[key] : undefined;
  }
  return typeof current === 'string' && current !== '' ? current : null;
}
