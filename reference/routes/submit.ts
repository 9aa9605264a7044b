/**
 * The common front half of every submitting POST, in the documented order:
 * authentication -> headers -> Content-Type -> body parse -> SCA (signature, hd, nonce).
 * Idempotency and validation follow in each route.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { type FaultSet, faultsFor } from '../faults';
import { type Caller, authenticate, checkAccept, headerValue, requireJsonContentType } from '../headers';
import { parseJsonBody } from '../body';
import { sha256Base64, verifySca } from '../sca';
import { ApiError, errorsOf, type FieldError } from '../errors';
import { isObject, type Json } from '../validate/check';
import { namedClient, operationOf, pathVersionOf } from '../request-scope';
import type { Client } from '../registry';
import { remoteKeysOf } from '../remote-keys';
import type { Dialect, ScaReading } from '../dialects';
import { isoErrors } from '../iso-schema';

export interface Submission {
  caller: Caller;
  raw: Buffer;
  /** raw decoded (what body was parsed from). */
  text: string;
  rawHash: string;
  body: Json;
  nowMs: number;
}

/**
 * `scaSkipped`: whether this route, for this caller, neither requires nor checks the sca-token (a
 * fault, or a dialect's reading of §5.5). The operation (for per-operation faults) is the route's,
 * looked up from its path.
 */
/** Whether the sca-token is left unchecked on this request under `reading`: never asked, or asked only when sent and not sent. */
export const scaNotAsked = (reading: ScaReading, req: FastifyRequest): boolean =>
  reading === 'notRequired' || (reading === 'verifiedWhenPresent' && headerValue(req, 'sca-token') === undefined);

export function prepareSubmission(
  ctx: ServiceContext,
  req: FastifyRequest,
  scaSkipped?: (caller: Caller) => boolean,
  /** Called with the submission an SCA refusal is about to refuse (payment-stored-before-sca). */
  beforeScaRefusal?: (refused: Submission) => void,
): Submission {
  const caller = authenticate(ctx, req, operationOf(req));
  checkAccept(req);
  // content-type-absent-taken: the defect refuses a declared wrong type but reads an undeclared body as JSON.
  const undeclared = caller.faults.has('content-type-absent-taken') && headerValue(req, 'content-type') === undefined;
  if (!caller.faults.has('content-type-unchecked') && !undeclared) requireJsonContentType(req);
  const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  const { text, value: body } = parseJsonBody(raw, caller.faults, caller.dialect);
  const rawHash = sha256Base64(raw);
  const nowMs = Date.now();
  if (!scaSkipped?.(caller))
    try {
      verifySca(
        ctx,
        caller,
        { token: headerValue(req, 'sca-token'), raw, rawHash, json: body, remoteKeys: remoteKeysOf(req) },
        nowMs,
      );
    } catch (error) {
      beforeScaRefusal?.({ caller, raw, text, rawHash, body, nowMs });
      throw error;
    }
  if (caller.dialect.isoValidation === 'xsd') refuseUnlessIsoValid(req, body);
  return { caller, raw, text, rawHash, body, nowMs };
}

/**
 * repeat-before-authentication (and per operation): the defect answers a repeat from its idempotency
 * record before it checks the access token and the sca-token, so a repeat with neither still gets the
 * original's answer. `lookup` finds the record of the body's idempotency key for the client the
 * request names; undefined: no repeat, or no defect, and the route goes on as it should.
 */
export function repeatBeforeAuthentication(
  ctx: ServiceContext,
  req: FastifyRequest,
  lookup: (client: Client, body: unknown) => { response: Record<string, unknown> } | undefined,
): Record<string, unknown> | undefined {
  const faulty = (
    c: Client | undefined,
    fault: 'repeat-before-authentication' | 'repeat-before-client-id-check',
  ): c is Client => c !== undefined && faultsFor(c.faults, operationOf(req), pathVersionOf(req)).has(fault);
  const named = namedClient(ctx, req);
  // repeat-before-client-id-check: the defect takes the caller from a valid access token and
  // answers the repeat before it compares X-Client-Id with the token's client.
  const owner = tokenOwner(ctx, req);
  const client = faulty(named, 'repeat-before-authentication')
    ? named
    : faulty(owner, 'repeat-before-client-id-check')
      ? owner
      : undefined;
  if (!client) return undefined;
  if (!Buffer.isBuffer(req.body)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(req.body.toString('utf8'));
  } catch {
    return undefined;
  }
  const found = lookup(client, body);
  return found ? (repeatBody(client.dialect, found.response) ?? {}) : undefined;
}

/** The client a valid, unexpired Bearer access token was issued to; undefined for any other request. */
function tokenOwner(ctx: ServiceContext, req: FastifyRequest): Client | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headerValue(req, 'authorization') ?? '');
  const record = match?.[1] ? ctx.tokens.lookup(match[1]) : undefined;
  return record && record.expiresAtMs > Date.now() ? ctx.registry.get(record.clientId) : undefined;
}

/**
 * The ISO 20022 message a submitting route carries: its path's version (§9), the return's 001.09
 * whatever its path says.
 */
function isoMessageOfRoute(req: FastifyRequest): string {
  const [, , family = '', version = ''] = (req.routeOptions.url ?? '').split('/');
  const iso = { pacs008: 'pacs.008', camt056: 'camt.056', pacs004: 'pacs.004', pacs007: 'pacs.007' }[family];
  if (!iso) throw new Error(`route ${req.routeOptions.url} carries no ISO 20022 message`);
  return family === 'pacs004' ? 'pacs.004.001.09' : `${iso}.001.${version.slice(1)}`;
}

/** A hub that validates against the XSD first: libxml2's words, the element it names, its XPath. */
function refuseUnlessIsoValid(req: FastifyRequest, body: Json): void {
  const errors = isoErrors(isoMessageOfRoute(req), body);
  if (errors.length)
    throw validationError(
      undefined,
      errors.map((e) => ({ code: 'schema_invalid', message: e.message, path: e.xpath })),
    );
}

/** Faults of the client a request names, for checks made before authentication (route presence). */
export function namedFaults(ctx: ServiceContext, req: FastifyRequest): FaultSet {
  return namedClient(ctx, req)?.faults ?? ctx.globalFaults;
}

export function routeGone(): ApiError {
  return errorsOf.notFound('no such resource');
}

/** A schema-validation refusal; its status is the request dialect's refusalStatus.validation (ctx kept for the callers' sake). */
export function validationError(
  _ctx: ServiceContext | undefined,
  errors: FieldError | readonly FieldError[],
): ApiError {
  return new ApiError('validation', errors);
}

/** What an idempotent 200 repeat carries (dialect repeatBody); undefined sends no body. */
export function repeatBody(
  dialect: Dialect,
  response: Record<string, unknown>,
  shown: 'shown' | 'notShown' = 'shown',
): Record<string, unknown> | undefined {
  if (dialect.repeatBody === 'empty') return undefined;
  const envelope = (members: Record<string, unknown>) => enveloped(dialect, members, shown);
  if (dialect.repeatBody === 'id-only') {
    // Under payment-id-field-renamed the response names the id paymentsHubId: the repeat keeps that name.
    const key =
      'paymentsServiceId' in response || !('paymentsHubId' in response) ? 'paymentsServiceId' : 'paymentsHubId';
    return envelope({ [key]: response[key] });
  }
  return envelope(response);
}

/** An answer's members in §2.3's data object, or, for an answer the spec does not show, as the dialect's answerEnvelope says. */
const enveloped = (
  dialect: Dialect,
  members: Record<string, unknown>,
  shown: 'shown' | 'notShown',
): Record<string, unknown> => (shown === 'notShown' && dialect.answerEnvelope === 'none' ? members : { data: members });

/**
 * Sends the answer to an accepted camt.056, pacs.004 or pacs.007 (§4.4 shows no status): the dialect's
 * acceptanceStatus, with a Location header naming the status resource when it is 202. `otherStatus`
 * (a fault) answers the other one of 201 and 202, still with the dialect's Location. No `data`: no
 * body, and the Location header whatever the status, the only place that names the resource.
 */
export function sendAccepted(
  reply: FastifyReply,
  dialect: Dialect,
  statusPath: string,
  data: Record<string, unknown> | undefined,
  otherStatus = false,
): FastifyReply {
  const status = otherStatus ? (dialect.acceptanceStatus === 201 ? 202 : 201) : dialect.acceptanceStatus;
  if (dialect.acceptanceStatus === 202 || data === undefined) reply.header('location', statusPath);
  return data === undefined ? reply.code(status).send() : reply.code(status).send(enveloped(dialect, data, 'notShown'));
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
