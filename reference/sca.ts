/**
 * The SCA JWT of every submitting request (spec §5, sca-token header): signed RS256 with the
 * client's registered key, kid/iss as registered, exp/iat/jti/alg/hd/nonce required, nbf optional.
 * hd is compared with Base64 (standard, padded) SHA-256 of the raw body bytes exactly as received.
 */
import { createHash } from 'node:crypto';
import type { ServiceContext } from './context';
import type { Caller } from './headers';
import { ApiError, errorsOf } from './errors';
import type { FaultSet } from './faults';
import type { RefusalCause } from './dialects';
import {
  chooseAlgorithm,
  critProblem,
  hs256WithPublicKeyHolds,
  isNumericDate,
  noRemoteKeys,
  parseCompactJws,
  verifyJws,
  type JwtAttackFaults,
  type RemoteKeys,
} from './jwt-verify';
import { usableKey } from './key-use';

export function sha256Base64(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('base64');
}

export interface ScaInput {
  token: string | undefined;
  raw: Buffer;
  /** Base64 SHA-256 of raw, computed once by the caller (also the idempotency fingerprint). */
  rawHash: string;
  json: unknown;
  /** Keys fetched from x5u/jku URLs before the request (only under the trust faults). */
  remoteKeys?: RemoteKeys;
}

/** The SCA JWT's RFC 8725 attack faults (README "JWT attack faults"); alg none is never accepted here. */
function scaAttackFaults(faults: FaultSet): JwtAttackFaults {
  return {
    acceptNone: false,
    firstAlgMember: faults.has('sca-alg-first-member'),
    rsaFamily: faults.has('sca-accepts-rsa-family-alg'),
    psychic: faults.has('sca-accepts-psychic-signature'),
    ignoreCrit: faults.has('sca-ignores-crit'),
    b64: faults.has('sca-honours-b64-false'),
    trustJwk: faults.has('sca-trusts-embedded-jwk'),
    trustJku: faults.has('sca-trusts-jku'),
    trustX5c: faults.has('sca-trusts-x5c'),
    trustX5u: faults.has('sca-trusts-x5u'),
  };
}

export function verifySca(ctx: ServiceContext, caller: Caller, input: ScaInput, nowMs: number): void {
  const { client, faults } = caller;
  if (!input.token) {
    if (faults.has('sca-optional')) return;
    throw errorsOf.missingHeader('sca-token');
  }
  const fail = (message: string, cause?: RefusalCause): ApiError =>
    new ApiError('sca', { code: 'invalid_sca_token', message, path: 'header:sca-token' }, {}, cause);
  const attacks = scaAttackFaults(faults);
  const jws = parseCompactJws(input.token, { unencodedPayload: attacks.b64 });
  if (!jws) throw fail('sca-token is not a JWS of three Base64url parts');
  const { header, payload } = jws;
  // Under sca-key-of-any-client, the key, kid and iss are those of whichever client registered the kid.
  const owner = faults.has('sca-key-of-any-client') ? (ctx.registry.withKid(header.kid, client) ?? client) : client;
  const check = usableKey(
    faults.has('sca-key-by-kid') ? (ctx.registry.withKid(header.kid, client) ?? owner) : owner,
    faults,
  );
  if (check === null) throw fail('the public key registered for this client is unusable');
  // sca-accepts-hs256-public-key: a verifier that takes the header's alg, and keys HMAC with the
  // registered public key's text (RFC 8725 §2.1's key confusion).
  const confused = faults.has('sca-accepts-hs256-public-key') && header.alg === 'HS256';
  if (confused && !hs256WithPublicKeyHolds(jws, owner.publicKeyText)) throw fail('sca-token signature is invalid');
  const decision = confused
    ? { verifyAlg: 'RS256' as const }
    : chooseAlgorithm(jws, check === 'skip' ? 'RS256' : check.alg, attacks);
  if (typeof decision === 'string') throw fail(`sca-token ${decision}`);
  // sca-typ-jose: the defect takes RFC 7515's JOSE beside JWT.
  const typOk =
    typeof header.typ === 'string' &&
    (header.typ.toUpperCase() === 'JWT' || (faults.has('sca-typ-jose') && header.typ.toUpperCase() === 'JOSE'));
  if (!faults.has('sca-ignores-typ') && !typOk) throw fail('sca-token typ must be JWT');
  // sca-kid-casefold: the defect compares the kid ignoring letter case. sca-kid-any-registered: any
  // client's registered kid passes, the key staying the caller's. sca-key-by-kid: the key is the one
  // registered under the kid by whichever client, the iss still the caller's.
  const sameKid = faults.has('sca-kid-casefold')
    ? String(header.kid).toLowerCase() === owner.kid.toLowerCase()
    : faults.has('sca-kid-any-registered') || faults.has('sca-key-by-kid')
      ? ctx.registry.withKid(header.kid, owner) !== undefined
      : header.kid === owner.kid;
  if (!faults.has('sca-ignores-kid') && !sameKid) throw fail('sca-token kid does not match the registered kid');
  const crit = critProblem(header, attacks);
  if (crit) throw fail(`sca-token ${crit}`);
  // jwk/jku/x5u/x5c in the token are ignored: only the registered key counts (unless a trust fault says otherwise).
  if (
    check !== 'skip' &&
    !confused &&
    !faults.has('sca-skips-signature') &&
    !verifyJws(jws, decision, check.key, attacks, input.remoteKeys ?? noRemoteKeys)
  )
    throw fail('sca-token signature is invalid');

  const now = nowMs / 1000;
  const skew = ctx.config.clockSkewS;
  // sca-iss-casefold: the defect compares the iss ignoring letter case.
  const sameIss = faults.has('sca-iss-casefold')
    ? String(payload.iss).toLowerCase() === owner.iss.toLowerCase()
    : payload.iss === owner.iss;
  if (!faults.has('sca-ignores-iss') && !sameIss) throw fail('sca-token iss does not match the registered iss');
  const exp = payload.exp;
  if (!faults.has('sca-ignores-exp')) {
    if (!isNumericDate(exp)) throw fail('sca-token exp is required (NumericDate)');
    if (now >= exp + skew && !faults.has('sca-ages-by-iat-not-exp')) throw fail('sca-token has expired');
  }
  const iat = payload.iat;
  // sca-iat-presence-only: the defect asks only that an iat be there, whatever its value.
  if (faults.has('sca-iat-presence-only')) {
    if (iat === undefined) throw fail('sca-token iat is required');
  } else if (!faults.has('sca-iat-optional') || iat !== undefined) {
    if (!isNumericDate(iat)) throw fail('sca-token iat is required (NumericDate)');
    if (iat > now + skew) throw fail('sca-token iat is in the future');
    // sca-ages-by-iat-not-exp: the defect refuses an SCA JWT issued over five minutes ago instead of reading its exp.
    if (faults.has('sca-ages-by-iat-not-exp') && now - iat > 300) throw fail('sca-token is too old (iat)');
  }
  const nbf = payload.nbf;
  if (nbf !== undefined && !faults.has('sca-ignores-nbf')) {
    // sca-nbf-number-only: the defect reads nbf only when it is a number.
    if (!isNumericDate(nbf)) {
      if (!faults.has('sca-nbf-number-only')) throw fail('sca-token nbf must be a NumericDate');
    } else if (nbf > now + skew) throw fail('sca-token is not valid yet (nbf)');
  }
  const jti = payload.jti;
  if (!faults.has('sca-jti-optional') && (typeof jti !== 'string' || jti === ''))
    throw fail('sca-token jti is required');
  if (!faults.has('sca-ignores-alg-claim') && payload.alg !== 'SHA256')
    throw fail('sca-token claim alg must be SHA256');
  if (payload.payment_id !== undefined && faults.has('sca-rejects-payment-id'))
    throw fail('sca-token payment_id is not allowed');

  // The predefined test SCA JWT of a keyless sandbox client is accepted for any body (§5.6): it was
  // signed once, over no body in particular, and is sent with every request.
  if (typeof jti === 'string' && jti === client.predefinedTokens?.scaJti) return;

  const hd = payload.hd;
  // sca-hd-optional: the defect compares hd only when the token carries one.
  const hdLeftOut = hd === undefined && faults.has('sca-hd-optional');
  if (!hdLeftOut && (typeof hd !== 'string' || hd === '')) throw fail('sca-token hd is required');
  // sca-verified-jti-trusted: the defect takes a jti it verified before as proof of the rest: neither its
  // hd nor the jti's reuse is looked at again.
  const trusted =
    faults.has('sca-verified-jti-trusted') &&
    typeof jti === 'string' &&
    ctx.scaJtis.has(`${client.clientId}\u0000${jti}`);
  if (!hdLeftOut && !faults.has('sca-hd-unchecked') && !trusted) {
    // sca-hd-over-trimmed-body: the defect hashes the body read as text with its surrounding whitespace trimmed.
    const expected = faults.has('sca-hd-over-reserialised-json')
      ? sha256Base64(JSON.stringify(input.json))
      : faults.has('sca-hd-over-trimmed-body')
        ? sha256Base64(input.raw.toString('utf8').trim())
        : input.rawHash;
    // sca-hd-prefix-match: the defect compares only as many bytes of the hash as hd carries (16 at least).
    const given = Buffer.from(hd as string, 'base64');
    const prefixTaken =
      faults.has('sca-hd-prefix-match') &&
      given.length >= 16 &&
      Buffer.from(expected, 'base64').subarray(0, given.length).equals(given);
    // sca-hd-ignore-case: the defect compares hd with the hash as one compares hex digests, ignoring case.
    // sca-hd-hex-taken: the defect takes the digest written in hex too, as many SDKs print it.
    const sameHd =
      (faults.has('sca-hd-ignore-case') ? (hd as string).toLowerCase() === expected.toLowerCase() : hd === expected) ||
      (faults.has('sca-hd-hex-taken') && hd === Buffer.from(expected, 'base64').toString('hex'));
    if (!sameHd && !prefixTaken) throw fail('sca-token hd does not match the SHA-256 of the request body', 'scaHd');
  }

  const nonce = payload.nonce;
  const hasNonce = typeof nonce === 'string' ? nonce !== '' : typeof nonce === 'number';
  if (!hasNonce) {
    if (faults.has('sca-nonce-optional')) return;
    throw fail('sca-token nonce is required');
  }
  const key = `${client.clientId}\u0000${String(nonce)}`;
  // §5 asks a "unique message ID, freely defined" of the client and names no result of a repeat: the dialect reads it.
  if (client.dialect.scaNonceReplay === 'refuse' && ctx.scaNonces.has(key) && !faults.has('sca-allows-nonce-reuse'))
    throw fail('sca-token nonce was already used');
  // The spec names no result of a reused jti ("unique token ID" is the client's duty): the dialect reads it.
  const jtiKey = `${client.clientId}\u0000${String(jti)}`;
  if (client.dialect.scaJtiReplay === 'refuse' && typeof jti === 'string' && ctx.scaJtis.has(jtiKey) && !trusted)
    throw fail('sca-token jti was already used');
  // Remember both as long as the token could still be accepted; without exp, for the process lifetime.
  const forgetAfter = isNumericDate(exp) ? (exp + skew) * 1000 + 1000 : Number.MAX_SAFE_INTEGER;
  ctx.scaNonces.add(key, forgetAfter);
  if (typeof jti === 'string') ctx.scaJtis.add(jtiKey, forgetAfter);
}
