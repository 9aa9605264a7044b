/**
 * Reading the API's answers: the data object of a submission answer (§2.3), the id it names, its
 * msgId echo, the first entry of a pacs.002, and an incoming pacs.008 in its declared shape. Readers
 * only: what they read is judged in checks/.
 */
import type { Exchange } from '../transport/http';
import type { Profile } from '../profile/profile';
import type { Pacs008Message } from './pacs008';
import { fromDeclared } from '../profile/message-shape';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;

/** Where a target's answers name a payment: data.paymentsServiceId, or the renamed fields its deviations declare (client/api.ts Api has them). */
export interface IdFields {
  readonly idFields: readonly string[];
}

export function dataOf(exchange: Exchange): Obj | undefined {
  return obj(obj(exchange.response.json)?.data);
}

/** An answer whose data object names only the id ({"data":{"paymentsServiceId"}}): a repeat's or a return's shape some targets choose. */
export function namesOnlyItsId(exchange: Exchange): boolean {
  const keys = Object.keys(dataOf(exchange) ?? {});
  return keys.length === 1 && keys[0] === 'paymentsServiceId';
}

/** The two names §2.3 gives the msgId echo: paymentId in its example, paymentsId in its field table. */
export const MSG_ID_ECHO_NAMES = ['paymentId', 'paymentsId'] as const;
export type MsgIdEchoName = (typeof MSG_ID_ECHO_NAMES)[number];

/** The msgId echo members a data object carries (P8-03), by name. */
export function msgIdEchoes(data: Obj | undefined): Partial<Record<MsgIdEchoName, unknown>> {
  return Object.fromEntries(
    MSG_ID_ECHO_NAMES.filter((name) => data !== undefined && Object.hasOwn(data, name)).map((name) => [
      name,
      data![name],
    ]),
  );
}

/** `id` in `text` as a whole: not part of a longer id (payment 17 is not in a notification of payment 170). */
const holdsWhole = (text: string, id: string): boolean =>
  new RegExp(`(?<![\\w-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);

/**
 * Whether a notification's body carries `id`, the identifier used to query the payment (INC-01). §6
 * does not show the payload, so anywhere in it: a string at any depth (a link to the payment too), the
 * text of a body that is not JSON, or the payload of a body that is a compact JWS.
 */
export function notificationCarries(body: unknown, id: string): boolean {
  if (typeof body === 'string') {
    if (holdsWhole(body, id)) return true;
    const jws = /^[\w-]+\.([\w-]+)\.[\w-]*$/.exec(body.trim());
    return jws !== null && holdsWhole(Buffer.from(jws[1]!, 'base64url').toString('utf8'), id);
  }
  if (Array.isArray(body)) return body.some((v) => notificationCarries(v, id));
  const o = obj(body);
  return o !== undefined && Object.values(o).some((v) => notificationCarries(v, id));
}

/** The id a submission answer names: documented data.paymentsServiceId, else a declared rename of it. */
export function idOf(api: IdFields, exchange: Exchange): string | undefined {
  return firstId(api.idFields, dataOf(exchange));
}

/**
 * The id an answer whose payload the spec does not show (POST pacs004, POST pacs007, POST camt056)
 * names: in its data, as a payment's answer does; else under the same names at the body's top level
 * (not shown, so not necessarily wrapped in data); else as the last path segment of its Location
 * header (RFC 9110 §10.2.2: the resource the request created).
 */
export function createdIdOf(api: IdFields, exchange: Exchange): string | undefined {
  return createdIdIn(api.idFields, exchange.response);
}

/** createdIdOf on the answer alone (the run's history reads it as it is recorded). */
export function createdIdIn(
  idFields: readonly string[],
  response: Pick<Exchange['response'], 'json' | 'headers'>,
): string | undefined {
  const body = obj(response.json);
  const named = firstId(idFields, obj(body?.data)) ?? firstId(idFields, body);
  if (named !== undefined) return named;
  const location = response.headers.location;
  if (!location) return undefined;
  const segment = new URL(location, 'http://relative.invalid').pathname.split('/').filter(Boolean).at(-1);
  return segment ? decodeURIComponent(segment) : undefined;
}

/**
 * The id of a cancellation an accepted camt.056 names: as createdIdIn reads it, else under the name its
 * own resource takes (cancellationId, in data or at the top level).
 */
export function createdCancellationIdIn(
  idFields: readonly string[],
  response: Pick<Exchange['response'], 'json' | 'headers'>,
): string | undefined {
  const body = obj(response.json);
  return createdIdIn(idFields, response) ?? firstId(['cancellationId'], obj(body?.data) ?? body);
}

/** The first of `idFields` that `members` holds as a non-empty string. */
function firstId(idFields: readonly string[], members: Obj | undefined): string | undefined {
  for (const field of idFields) {
    const id = members?.[field];
    if (typeof id === 'string' && id !== '') return id;
  }
  return undefined;
}

/**
 * Whether a read served a message (rule 5: GET camt029 "returns that camt.029 message"): a 2xx with a
 * body. A 202 or 204 with none says only that there is none to serve yet.
 */
export const servesMessage = (exchange: Exchange): boolean =>
  exchange.response.status >= 200 && exchange.response.status < 300 && exchange.response.text.trim() !== '';

/** What to declare when an answer names the payment under another field than data.paymentsServiceId. */
export function idRemedy(api: { profile: { name: string } }, exchange: Exchange): string | undefined {
  const named = Object.keys(dataOf(exchange) ?? {}).filter(
    (k) => /id$/i.test(k) && !(MSG_ID_ECHO_NAMES as readonly string[]).includes(k),
  );
  return named.length
    ? `if data.${named[0]} is that id, declare it: {"rule":"P8-02","renamedField":{"documented":"paymentsServiceId","actual":"${named[0]}"},…} in environments/${api.profile.name}.deviations.json`
    : undefined;
}

/** The first status entry of a pacs.002 body, or undefined. */
export function firstStatusEntry(json: unknown): Obj | undefined {
  const entries = obj(obj(json)?.fitoFIPmtStsRpt)?.txInfAndSts;
  return Array.isArray(entries) ? obj(entries[0]) : undefined;
}

export function reasonCodesOf(entry: Obj | undefined): string[] {
  const reasons = entry?.stsRsnInf;
  if (!Array.isArray(reasons)) return [];
  return reasons.map((r) => obj(obj(r)?.rsn)?.cd).filter((cd): cd is string => typeof cd === 'string');
}

/** The pacs.008 an incoming read served, in the profile's declared shape (INC-05); undefined in any other. */
export function incomingMessage(
  api: { readonly profile: Pick<Profile, 'messages'> },
  read: Exchange,
): Pacs008Message['fitoFICstmrCdtTrf'] | undefined {
  return fromDeclared(read.response.json, api.profile.messages.incomingPayment) as
    | Pacs008Message['fitoFICstmrCdtTrf']
    | undefined;
}
