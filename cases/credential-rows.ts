/**
 * The one format of credential cases: what a negative case changes in a request apart from its body
 * (a payments request's headers, access token and SCA JWT; a token request's Basic credentials, form
 * and assertion), written as the request's own options (SubmitOptions, TokenRequestOptions) whose
 * values may be named reads, as a message row's values are (field-rows.ts).
 *
 * A value that depends on the request is named, never computed by a function of the table:
 *   client(field)   the sending client's identity and tokens (its kid, iss, access token, a valid
 *                   authentication JWT, its Basic credentials, its public key, its signing key)
 *   other(field)    the same of the other client (a case that needs a second client says so)
 *   twin(path)      the valid twin as it was sent: `sca.claims.nonce`, `assertion.claims.jti`,
 *                   `headers.x-client-id`, `form.scope` (a reused nonce, a reused jti)
 *   body()          the mutant's exact body bytes (an hd over other bytes)
 *   clock()         the time of sending, in seconds (an SCA JWT that expired ten minutes ago)
 *   stranger(field) a key no service knows
 * each optionally changed by one named transformation (suffixed, hashed, signature bit flipped…).
 * A row that reads its twin says so in data (`reads(row, 'twin')`): discovery then sends the twin first,
 * and the live lane, which sends the mutant first, cannot run it.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { b64url, decodeCompact, signCompact, type JsonObject } from '../transport/jws';
import { getPath } from '../messages/json-edit';
import type { Exchange } from '../transport/http';
import {
  authenticationJwt,
  nowSeconds,
  publicPemOf,
  signingKeyOf,
  type ClientIdentity,
} from '../transport/client-jwts';
import { basicCredentials } from '../client/api';
import { strangerKey } from './jwt-attacks';

/** What a client's part of a request offers a case: its registered identity and what it holds. */
export type PartyField =
  | 'clientId'
  | 'clientSecret'
  | 'kid'
  | 'iss'
  /** Its access token, as the test fetched it. */
  | 'accessToken'
  /** A valid authentication JWT of its own, signed when the case is applied. */
  | 'authenticationJwt'
  /** Its HTTP Basic credentials (`Basic base64(id:secret)`). */
  | 'basic'
  | 'publicPem'
  | 'signingKey';

/** Named changes of a value read for a credential case. */
export interface CredentialTransformation {
  prefix?: string;
  suffix?: string;
  /** Plus this many (seconds of a NumericDate). */
  plus?: number;
  /** The SHA-256 of the text, in this encoding (hd over other bytes, or in the wrong encoding). */
  sha256?: 'base64' | 'hex' | 'base64url';
  /** With sha256: only the digest's first this many bytes (of 32), in that encoding. */
  digestBytes?: number;
  /** With sha256: each letter of the encoded digest in the other case (another value in Base64, the same in hex). */
  digestOtherCase?: true;
  /** Each letter in the other case: the same identifier to a case-insensitive comparison only. */
  otherCase?: true;
  /** Without its last this many characters: a prefix, the same value to a comparison over the bytes sent only. */
  dropLast?: number;
  /** A compact JWS with the last bit of its signature flipped. */
  signatureBitFlipped?: true;
  /** A compact JWS without its signature (the trailing dot kept). */
  signatureStripped?: true;
  /** The first this many dot-separated parts of a compact JWS. */
  parts?: number;
  /** A compact JWS signed again by a key no service knows (a token that is no JWS: its last characters changed). */
  resignedByStranger?: true;
  /** A compact JWS whose payload has these claims changed, its signature kept. */
  payloadEdited?: Record<string, unknown>;
}

type Source = 'client' | 'other' | 'twin' | 'body' | 'clock' | 'stranger';

/** A value read from the request a case is applied to, optionally transformed. */
export class CredentialValue {
  constructor(
    readonly from: Source,
    readonly path: string,
    readonly transformation: CredentialTransformation = {},
  ) {}
}

/** A value made of other values: Basic credentials of an id and a secret, or the JSON text of an object. */
export class ComposedValue {
  constructor(
    readonly kind: 'basic' | 'json',
    readonly parts: readonly unknown[],
  ) {}
}

export const client = (field: PartyField, t?: CredentialTransformation): CredentialValue =>
  new CredentialValue('client', field, t);
export const other = (field: PartyField, t?: CredentialTransformation): CredentialValue =>
  new CredentialValue('other', field, t);
/** A value of the valid twin as it was sent (sentCredentials): `sca.claims.<claim>`, `assertion.claims.<claim>`, `headers.<name>`, `form.<key>`. */
export const twin = (path: string, t?: CredentialTransformation): CredentialValue =>
  new CredentialValue('twin', path, t);
export const body = (t?: CredentialTransformation): CredentialValue => new CredentialValue('body', '', t);
export const clock = (t?: CredentialTransformation): CredentialValue => new CredentialValue('clock', '', t);
export const stranger = (field: 'privateKey'): CredentialValue => new CredentialValue('stranger', field);
/** `Basic base64(id:secret)` of the two values. */
export const basicOf = (id: unknown, secret: unknown): ComposedValue => new ComposedValue('basic', [id, secret]);
/** The JSON text of the object, its values read first. */
export const jsonOf = (value: JsonObject): ComposedValue => new ComposedValue('json', [value]);

/** Options written with named values: any value may be one (the request's options type, value by value). */
export type Template<T> =
  | T
  | CredentialValue
  | ComposedValue
  | (T extends readonly unknown[] ? never : T extends object ? { [K in keyof T]: Template<T[K]> } : never);

/** What a case is applied to: the sending client, the other one, the twin as sent, the mutant's body. */
export interface RequestSources {
  client: ClientIdentity;
  accessToken?: string;
  other?: ClientIdentity;
  otherAccessToken?: string;
  /** The valid twin's exchange, for a case that reads it. */
  twin?: Exchange;
  /** The exact text of the mutant's body ('' for a read). */
  body?: string;
}

/** The credentials a request carried, as a document a case reads (`twin(path)`): its headers, SCA JWT, form and assertion. */
export interface SentCredentials {
  headers: Record<string, string>;
  sca?: { header: JsonObject; claims: JsonObject };
  form?: Record<string, string>;
  assertion?: { header: JsonObject; claims: JsonObject };
}

const decoded = (token: string | undefined) => {
  const jws = token === undefined ? undefined : decodeCompact(token);
  return jws ? { header: jws.header, claims: jws.payload } : undefined;
};

/** The credentials of a request as it was sent: what `twin(path)` reads. */
export function sentCredentials(exchange: Exchange): SentCredentials {
  const headers = Object.fromEntries(Object.entries(exchange.request.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const text =
    typeof exchange.request.body === 'string'
      ? exchange.request.body
      : Buffer.from(exchange.request.body ?? new Uint8Array()).toString('utf8');
  const form = /application\/x-www-form-urlencoded/.test(headers['content-type'] ?? '')
    ? Object.fromEntries(new URLSearchParams(text))
    : undefined;
  const sca = decoded(headers['sca-token']);
  const assertion = decoded(form?.assertion);
  return { headers, ...(sca ? { sca } : {}), ...(form ? { form } : {}), ...(assertion ? { assertion } : {}) };
}

function flipLastSignatureBit(jws: string): string {
  const [h, p, s] = jws.split('.');
  const signature = Buffer.from(s ?? '', 'base64url');
  if (signature.length) signature[signature.length - 1]! ^= 0x01;
  return `${h}.${p}.${b64url(signature)}`;
}

/** The same token signed again by a key no service knows; a token that is no JWS (opaque) has its last characters changed. */
function resignedByStranger(token: string): string {
  const jws = decodeCompact(token);
  if (!jws) return `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
  return signCompact(jws.header, jws.payload, { kind: 'rs256', key: strangerKey().privateKey });
}

function editedPayload(jws: string, edit: Record<string, unknown>): string {
  const [h, p, s] = jws.split('.');
  const payload = { ...(JSON.parse(Buffer.from(p!, 'base64url').toString()) as JsonObject), ...edit };
  return `${h}.${b64url(JSON.stringify(payload))}.${s}`;
}

const otherCase = (text: string): string =>
  [...text].map((ch) => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');

function transform(value: unknown, t: CredentialTransformation, sources: RequestSources): unknown {
  let out = value;
  if (t.prefix !== undefined) out = `${t.prefix}${String(out)}`;
  if (t.suffix !== undefined) out = `${String(out)}${t.suffix}`;
  if (t.otherCase) out = otherCase(String(out));
  if (t.dropLast !== undefined) out = String(out).slice(0, -t.dropLast);
  if (t.plus !== undefined) out = (out as number) + t.plus;
  if (t.sha256) {
    const digest = createHash('sha256').update(String(out)).digest();
    out = digest.subarray(0, t.digestBytes ?? digest.length).toString(t.sha256);
    if (t.digestOtherCase) out = otherCase(String(out));
  }
  if (t.signatureBitFlipped) out = flipLastSignatureBit(String(out));
  if (t.signatureStripped) out = String(out).replace(/\.[^.]+$/, '.');
  if (t.parts !== undefined) out = String(out).split('.').slice(0, t.parts).join('.');
  if (t.resignedByStranger) out = resignedByStranger(String(out));
  if (t.payloadEdited) out = editedPayload(String(out), resolveRequest(t.payloadEdited, sources));
  return out;
}

function partyValue(identity: ClientIdentity, accessToken: string | undefined, field: PartyField): unknown {
  switch (field) {
    case 'clientId':
    case 'clientSecret':
    case 'kid':
    case 'iss':
      return identity[field];
    case 'accessToken':
      if (accessToken === undefined) throw new Error(`a case reads the access token of ${identity.role}, not fetched`);
      return accessToken;
    case 'authenticationJwt':
      return authenticationJwt(identity);
    case 'basic':
      return basicCredentials(identity);
    case 'publicPem':
      return publicPemOf(identity);
    case 'signingKey':
      return signingKeyOf(identity);
  }
}

function read(value: CredentialValue, sources: RequestSources): unknown {
  switch (value.from) {
    case 'client':
      return partyValue(sources.client, sources.accessToken, value.path as PartyField);
    case 'other':
      if (!sources.other) throw new Error(`a case reads ${value.path} of the other client, which was not given`);
      return partyValue(sources.other, sources.otherAccessToken, value.path as PartyField);
    case 'twin': {
      if (!sources.twin) throw new Error(`a case reads ${value.path} of the valid twin, which was not given`);
      const found = getPath(sentCredentials(sources.twin), value.path);
      if (found === undefined) throw new Error(`a case reads ${value.path}, absent from the valid twin as it was sent`);
      return found;
    }
    case 'body':
      if (sources.body === undefined) throw new Error('a case reads the body, which was not given');
      return sources.body;
    case 'clock':
      return nowSeconds();
    case 'stranger':
      return strangerKey().privateKey;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** The options with every named value read from `sources` (keys, symbols such as ABSENT and literals as written). */
export function resolveRequest<T>(template: Template<T>, sources: RequestSources): T {
  const walk = (value: unknown): unknown => {
    if (value instanceof CredentialValue) return transform(read(value, sources), value.transformation, sources);
    if (value instanceof ComposedValue) {
      const parts = value.parts.map(walk);
      return value.kind === 'basic'
        ? basicCredentials({ clientId: String(parts[0]), clientSecret: String(parts[1]) })
        : JSON.stringify(parts[0]);
    }
    if (Array.isArray(value)) return value.map(walk);
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    return value;
  };
  return walk(template) as T;
}

/**
 * The fields a case takes from the other client that this client holds too (two clients of one bank
 * may register one iss, or one kid), where everything it takes from the other client is such a field:
 * there the mutant is the valid twin, and proves nothing. A case that also takes the other client's
 * key (its kid, signed with its key) is no twin, and gets none.
 */
export function sharedWithOther(
  template: unknown,
  client: ClientIdentity,
  other: ClientIdentity | undefined,
): PartyField[] {
  const shared = new Set<PartyField>();
  let differs = false;
  const sameValue = (field: PartyField): boolean => {
    if (!other) return false;
    if (field === 'kid' || field === 'iss' || field === 'clientId') return other[field] === client[field];
    // One RSA key registered for two clients (nothing in §5.4 forbids it): the same public key, whatever its PEM text.
    if (field === 'signingKey' || field === 'publicPem') return sameKeyPair(client, other);
    return false;
  };
  const walk = (t: unknown): void => {
    if (t instanceof CredentialValue) {
      const field = t.path as PartyField;
      if (t.from === 'other') {
        const same = Object.keys(t.transformation).length === 0 && sameValue(field);
        if (same) shared.add(field);
        else differs = true;
      }
      walk(t.transformation.payloadEdited);
    } else if (t instanceof ComposedValue) t.parts.forEach(walk);
    else if (Array.isArray(t)) t.forEach(walk);
    else if (isPlainObject(t)) Object.values(t).forEach(walk);
  };
  walk(template);
  return differs ? [] : [...shared];
}

/** Whether two clients sign with one key pair: their public keys (SPKI DER) are equal. */
function sameKeyPair(a: ClientIdentity, b: ClientIdentity): boolean {
  if (!a.privateKey || !b.privateKey) return false;
  const spki = (c: ClientIdentity) => createPublicKey(c.privateKey!).export({ type: 'spki', format: 'der' });
  return spki(a).equals(spki(b));
}

const FIELD_WORDS: Partial<Record<PartyField, string>> = { signingKey: 'key pair', publicPem: 'key pair' };

/** Why a case is not applicable where sharedWithOther names fields; undefined where it names none. */
export function sameAsTwin(shared: readonly PartyField[]): string | undefined {
  const words = [...new Set(shared.map((f) => FIELD_WORDS[f] ?? f))];
  return words.length
    ? `both clients registered the same ${words.join(' and ')}: the mutant would be the valid twin`
    : undefined;
}

/** The client's identifiers a case may write in the other letter case (otherCase). */
export type LetteredField = 'kid' | 'iss' | 'clientId';

/** Why a case on the letters of the client's `field` (otherCase) is not applicable: the identifier has none, so its other case is itself. */
export function noLetterIn(
  field: LetteredField,
  client: { kid: string; iss: string; clientId: string },
): string | undefined {
  const value = client[field];
  return value.toLowerCase() === value.toUpperCase()
    ? `the registered ${field} ${JSON.stringify(value)} has no letter: in the other case it is the valid twin`
    : undefined;
}

/** Whether the options read `source` anywhere: the valid twin (sent first, as sent), the other client (a second client needed). */
export function reads(template: unknown, source: 'twin' | 'other'): boolean {
  if (template instanceof CredentialValue)
    return template.from === source || reads(template.transformation.payloadEdited, source);
  if (template instanceof ComposedValue) return template.parts.some((part) => reads(part, source));
  if (Array.isArray(template)) return template.some((item) => reads(item, source));
  if (isPlainObject(template)) return Object.values(template).some((value) => reads(value, source));
  return false;
}
