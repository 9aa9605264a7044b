/**
 * POST /oauth/token (spec §4.1, §5, §2.1): Basic client authentication, then the JWT-bearer grant
 * (RFC 7523) with the authentication JWT checked claim by claim against the registration.
 */
import { timingSafeEqual } from 'node:crypto';
import type { ServiceContext } from './context';
import type { FaultSet } from './faults';
import type { Client } from './registry';
import { OAuthError } from './errors';
import {
  chooseAlgorithm,
  critProblem,
  hs256WithPublicKeyHolds,
  isNumericDate,
  noRemoteKeys,
  parseCompactJws,
  verifyJws,
  type JwtAttackFaults,
  type ParsedJws,
  type RemoteKeys,
} from './jwt-verify';
import { usableKey } from './key-use';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const SCOPE = 'makePayments';
const DOCUMENTED_CLAIMS: ReadonlySet<string> = new Set(['iss', 'sub', 'aud', 'exp', 'nbf', 'iat', 'jti']);

export interface TokenRequest {
  authorization: string | undefined;
  contentType: string | undefined;
  body: Buffer | undefined;
  /** Keys fetched from x5u/jku URLs before the request (only under the trust faults). */
  remoteKeys?: RemoteKeys;
}

/** The assertion's RFC 8725 attack faults (README "JWT attack faults"). */
function assertionAttackFaults(faults: FaultSet): JwtAttackFaults {
  return {
    acceptNone: faults.has('token-accepts-alg-none'),
    firstAlgMember: faults.has('token-alg-first-member'),
    rsaFamily: faults.has('token-accepts-rsa-family-alg'),
    psychic: faults.has('token-accepts-psychic-signature'),
    ignoreCrit: faults.has('token-ignores-crit'),
    b64: faults.has('token-honours-b64-false'),
    trustJwk: faults.has('token-trusts-embedded-jwk'),
    trustJku: faults.has('token-trusts-jku'),
    trustX5c: faults.has('token-trusts-x5c'),
    trustX5u: faults.has('token-trusts-x5u'),
  };
}

export interface TokenResponse {
  status: number;
  body: Record<string, unknown>;
  /** The client the token was issued to, and the faults that applied. */
  client: Client;
  faults: FaultSet;
}

const invalidClient = (why: string): OAuthError => new OAuthError(401, 'invalid_client', why);
const invalidRequest = (why: string): OAuthError => new OAuthError(400, 'invalid_request', why);
const invalidGrant = (why: string): OAuthError => new OAuthError(400, 'invalid_grant', why);

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function decodeFormComponent(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** RFC 6749 §2.3.1: client id and secret are form-encoded, joined by ':', then Base64. */
function parseBasic(header: string | undefined): { id: string; secret: string } | null {
  if (!header) return null;
  const match = /^Basic\s+([A-Za-z0-9+/=._~-]+)\s*$/i.exec(header);
  if (!match?.[1]) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { id: decodeFormComponent(decoded.slice(0, colon)), secret: decodeFormComponent(decoded.slice(colon + 1)) };
}

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** The form parameters; a parameter sent twice is invalid (RFC 6749 §3.2). */
function readParams(req: TokenRequest, faults: FaultSet): Map<string, string> {
  const type = mediaType(req.contentType);
  const text = req.body ? req.body.toString('utf8') : '';
  const params = new Map<string, string>();
  if (type === 'application/json' && faults.has('token-accepts-json-body')) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null)
        for (const [k, v] of Object.entries(value as Record<string, unknown>))
          if (typeof v === 'string') params.set(k, v);
    } catch {
      throw invalidRequest('the body is not valid JSON');
    }
    return params;
  }
  if (type !== 'application/x-www-form-urlencoded')
    throw invalidRequest('Content-Type must be application/x-www-form-urlencoded');
  for (const [k, v] of new URLSearchParams(text)) {
    if (params.has(k)) throw invalidRequest(`parameter ${k} is repeated`);
    params.set(k, v);
  }
  return params;
}

/** token-verified-jti-trusted: the client|jti of each assertion the defect verified. */
const verifiedJtis = new Set<string>();

function verifyAssertion(
  ctx: ServiceContext,
  client: Client,
  jws: ParsedJws,
  faults: FaultSet,
  nowMs: number,
  remoteKeys: RemoteKeys,
): void {
  const { header, payload } = jws;
  // token-verified-jti-trusted: the defect takes a jti it verified before as proof of the whole assertion.
  const cacheKey = `${client.clientId}\u0000${String(payload.jti)}`;
  if (faults.has('token-verified-jti-trusted') && verifiedJtis.has(cacheKey)) return;
  // Under token-key-of-any-client, the key, kid, iss and sub are those of whichever client registered the kid.
  const owner = faults.has('token-key-of-any-client') ? (ctx.registry.withKid(header.kid, client) ?? client) : client;
  const check = usableKey(owner, faults);
  // Spec §5.4/§7: a key that is not RSA, not PEM, encrypted or short makes the token request fail.
  if (check === null) throw invalidGrant(`the public key registered for this client is unusable: ${owner.key.detail}`);
  const attacks = assertionAttackFaults(faults);
  // token-accepts-hs256-public-key: a verifier that takes the header's alg, and keys HMAC with the
  // registered public key's text (RFC 8725 §2.1's key confusion).
  const confused = faults.has('token-accepts-hs256-public-key') && header.alg === 'HS256';
  if (confused && !hs256WithPublicKeyHolds(jws, owner.publicKeyText))
    throw invalidGrant('assertion signature is invalid');
  const decision = confused
    ? { verifyAlg: 'RS256' as const }
    : chooseAlgorithm(jws, check === 'skip' ? 'RS256' : check.alg, attacks);
  if (typeof decision === 'string') throw invalidGrant(`assertion ${decision}`);
  // token-typ-jose: the defect takes RFC 7515's JOSE beside JWT.
  const typOk =
    typeof header.typ === 'string' &&
    (header.typ.toUpperCase() === 'JWT' || (faults.has('token-typ-jose') && header.typ.toUpperCase() === 'JOSE'));
  if (!faults.has('token-ignores-typ') && !typOk) throw invalidGrant('assertion typ must be JWT');
  // token-kid-any-registered: any client's registered kid passes; the key stays the owner's.
  // token-kid-casefold: the defect compares the kid ignoring letter case.
  const kidKnown = faults.has('token-kid-any-registered')
    ? ctx.registry.withKid(header.kid, owner) !== undefined
    : faults.has('token-kid-casefold')
      ? String(header.kid).toLowerCase() === owner.kid.toLowerCase()
      : header.kid === owner.kid;
  if (!faults.has('token-ignores-kid') && !kidKnown)
    throw invalidGrant('assertion kid does not match the registered kid');
  const crit = critProblem(header, attacks);
  if (crit) throw invalidGrant(`assertion ${crit}`);
  if (check !== 'skip' && !confused && !faults.has('token-skips-signature')) {
    // jwk/jku/x5u/x5c in the token are ignored: only the registered key counts (unless a trust fault says otherwise).
    if (!verifyJws(jws, decision, check.key, attacks, remoteKeys)) throw invalidGrant('assertion signature is invalid');
  }
  const now = nowMs / 1000;
  const skew = ctx.config.clockSkewS;
  // token-iss-casefold: the defect compares the iss ignoring letter case.
  const sameIss = faults.has('token-iss-casefold')
    ? String(payload.iss).toLowerCase() === owner.iss.toLowerCase()
    : payload.iss === owner.iss;
  if (!faults.has('token-ignores-iss') && !sameIss)
    throw invalidGrant('assertion iss does not match the registered iss');
  // token-sub-any-registered-client: sub must name some registered client, not the authenticated one.
  // token-sub-casefold: the defect compares sub with the client id ignoring letter case.
  const subOk = faults.has('token-sub-any-registered-client')
    ? typeof payload.sub === 'string' && ctx.registry.get(payload.sub) !== undefined
    : faults.has('token-sub-casefold')
      ? String(payload.sub).toLowerCase() === owner.clientId.toLowerCase()
      : payload.sub === owner.clientId;
  if (!faults.has('token-ignores-sub') && !subOk) throw invalidGrant('assertion sub must be the client id');
  const exp = payload.exp;
  if (!faults.has('token-ignores-exp')) {
    if (!isNumericDate(exp)) throw invalidGrant('assertion exp is required (NumericDate)');
    if (now >= exp + skew && !faults.has('token-ages-by-iat-not-exp')) throw invalidGrant('assertion has expired');
  }
  // token-ages-by-iat-not-exp: the defect refuses an assertion issued over five minutes ago (RFC 7523
  // §3 lets a server), and never compares exp with the time.
  if (faults.has('token-ages-by-iat-not-exp') && !(isNumericDate(payload.iat) && now - payload.iat <= 300))
    throw invalidGrant('assertion is too old (iat)');
  if (!faults.has('token-ignores-nbf')) {
    const nbf = payload.nbf;
    // token-nbf-presence-only: `nbf > now` is false for a value that is not a number.
    if (faults.has('token-nbf-presence-only')) {
      if (nbf === undefined) throw invalidGrant('assertion nbf is required');
      if (isNumericDate(nbf) && nbf > now + skew) throw invalidGrant('assertion is not valid yet (nbf)');
    } else {
      if (!isNumericDate(nbf)) throw invalidGrant('assertion nbf is required (NumericDate)');
      if (nbf > now + skew) throw invalidGrant('assertion is not valid yet (nbf)');
    }
  }
  const iat = payload.iat;
  if (faults.has('token-iat-presence-only')) {
    if (iat === undefined) throw invalidGrant('assertion iat is required');
  } else if (!faults.has('token-iat-optional') || iat !== undefined) {
    if (!isNumericDate(iat)) throw invalidGrant('assertion iat is required (NumericDate)');
    if (iat > now + skew) throw invalidGrant('assertion iat is in the future');
  }
  const jti = payload.jti;
  if (!faults.has('token-jti-optional') && (typeof jti !== 'string' || jti === ''))
    throw invalidGrant('assertion jti is required');
  if (faults.has('token-rejects-extra-claims')) {
    for (const claim of Object.keys(payload))
      if (!DOCUMENTED_CLAIMS.has(claim)) throw invalidGrant(`assertion claim ${claim} is not allowed`);
  }
  // The predefined authentication JWT of a keyless sandbox client is meant to be sent again and again (§5.6).
  const predefined = typeof jti === 'string' && jti === client.predefinedTokens?.assertionJti;
  if (typeof jti === 'string' && jti !== '' && client.dialect.assertionReplay === 'refuse' && !predefined) {
    const key = `${client.clientId}\u0000${jti}`;
    if (ctx.assertionJtis.has(key)) throw invalidGrant('assertion jti was already used');
    const forgetAt = isNumericDate(exp) ? (exp + skew) * 1000 + 1000 : Number.MAX_SAFE_INTEGER;
    ctx.assertionJtis.add(key, forgetAt);
  }
  if (faults.has('token-verified-jti-trusted') && typeof jti === 'string') verifiedJtis.add(cacheKey);
}

/**
 * The client an unauthenticated request claims to be (the assertion's sub). Never trusted: used only
 * to find that client's per-client faults, so a fault on client authentication can be injected per
 * client like every other fault.
 */
function claimedClient(ctx: ServiceContext, req: TokenRequest): Client | undefined {
  try {
    const assertion = readParams(req, ctx.globalFaults).get('assertion');
    const sub = assertion ? parseCompactJws(assertion)?.payload.sub : undefined;
    return typeof sub === 'string' ? ctx.registry.get(sub) : undefined;
  } catch {
    return undefined;
  }
}

export function handleTokenRequest(ctx: ServiceContext, req: TokenRequest): TokenResponse {
  const nowMs = Date.now();
  const basic = parseBasic(req.authorization);
  let client: Client | undefined;
  if (basic) {
    client = ctx.registry.get(basic.id);
    if (!client) throw invalidClient('unknown client');
    // token-secret-prefix: the defect compares the secret over the bytes sent only, so a prefix of it passes.
    const secretOk = client.faults.has('token-secret-prefix')
      ? client.clientSecret.startsWith(basic.secret)
      : safeEqual(basic.secret, client.clientSecret);
    if (!client.faults.has('token-ignores-client-secret') && !secretOk) throw invalidClient('wrong client credentials');
  } else if (!(claimedClient(ctx, req)?.faults ?? ctx.globalFaults).has('token-accepts-missing-basic')) {
    throw invalidClient(
      req.authorization ? 'malformed Basic client credentials' : 'client authentication (HTTP Basic) is required',
    );
  }
  let faults: FaultSet = client?.faults ?? ctx.globalFaults;
  // A missing parameter: RFC 6749 §5.2's invalid_request, or the parameter's own code (dialect tokenErrorCodes).
  const missing = (parameter: string, specific: string): OAuthError =>
    (client?.dialect ?? ctx.processDialect).tokenErrorCodes === 'specific'
      ? new OAuthError(400, specific, `${parameter} is required`)
      : invalidRequest(`${parameter} is required`);

  const params = readParams(req, faults);
  const grantType = params.get('grant_type');
  if (!faults.has('token-accepts-any-grant-type')) {
    if (grantType === undefined || grantType === '') throw missing('grant_type', 'unsupported_grant_type');
    if (grantType !== JWT_BEARER)
      throw new OAuthError(400, 'unsupported_grant_type', `grant_type must be ${JWT_BEARER}`);
  }
  const scope = params.get('scope');
  // token-grants-scope-list: the defect grants makePayments followed by whatever else was asked for.
  const grantsAsked = faults.has('token-grants-scope-list') && scope !== undefined && scope !== '';
  // token-grants-asked-scope-silently: grants any scope asked for, its answer naming none.
  const grantsSilently = faults.has('token-grants-asked-scope-silently') && scope !== undefined && scope !== SCOPE;
  // token-grants-list-with-makepayments: a list that names makePayments is granted as asked, and echoed.
  const echoesList = faults.has('token-grants-list-with-makepayments') && scope?.split(' ').includes(SCOPE) === true;
  if (scope === undefined || scope === '') {
    if (!faults.has('token-scope-optional')) throw missing('scope', 'invalid_scope');
  } else if (scope !== SCOPE && !grantsAsked && !grantsSilently && !echoesList)
    throw new OAuthError(400, 'invalid_scope', `scope must be ${SCOPE}`);

  const assertion = params.get('assertion');
  if (assertion === undefined || assertion === '') {
    if (!client || !faults.has('token-accepts-missing-assertion')) throw missing('assertion', 'invalid_grant');
  } else {
    const jws = parseCompactJws(assertion, { unencodedPayload: faults.has('token-honours-b64-false') });
    if (!jws) throw invalidGrant('assertion is not a JWS of three Base64url parts');
    if (!client) {
      // Only reachable with token-accepts-missing-basic: the client is taken from the assertion.
      const sub = jws.payload.sub;
      client = typeof sub === 'string' ? ctx.registry.get(sub) : undefined;
      if (!client) throw invalidClient('unknown client');
      faults = client.faults;
    }
    verifyAssertion(ctx, client, jws, faults, nowMs, req.remoteKeys ?? noRemoteKeys);
  }

  const ttl = client.tokenTtlSeconds ?? ctx.config.tokenTtlS;
  // The client's dialect shapes the answer (the client authenticated by Basic, else the assertion's sub).
  const dialect = client.dialect;
  // token-dies-before-expires-in: the defect keeps the token a second, whatever expires_in tells the client.
  const kept = faults.has('token-dies-before-expires-in') ? Math.min(ttl, 1) : ttl;
  const accessToken = ctx.tokens.issue(client.clientId, kept, dialect.accessTokenFormat, nowMs);
  const expiresIn: number | string = faults.has('token-expires-in-fraction')
    ? ttl + 0.5
    : dialect.expiresInType === 'string'
      ? String(ttl)
      : ttl;
  return {
    client,
    faults,
    status: faults.has('token-answers-201') ? 201 : 200,
    body: {
      access_token: faults.has('token-access-token-not-string') ? [accessToken] : accessToken,
      token_type: faults.has('token-type-mac') ? 'mac' : 'bearer',
      expires_in: expiresIn,
      ...(grantsSilently
        ? {}
        : {
            scope: faults.has('token-scope-renamed')
              ? 'payments'
              : echoesList
                ? scope
                : grantsAsked && scope !== SCOPE
                  ? `${SCOPE} ${scope}`
                  : SCOPE,
          }),
    },
  };
}
