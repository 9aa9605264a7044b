/**
 * A small driver of the reference service over real HTTP for the reference-*.test.ts unit tests:
 * start a server, register clients through the admin API, get tokens with a JWT-bearer assertion,
 * submit messages with a valid SCA JWT, wait for settlement. Not a test file (no .test.ts suffix).
 */
import { startReference, type ReferenceHandle } from '../../../reference/server';
import type { ConfigOptions } from '../../../reference/config';
import { generatedClient, newMemberId } from '../../../client/target';
import { generateRsaKeyPair } from '../../../transport/keys';
import { authenticationJwt, scaJwt, type ClientIdentity } from '../../../transport/client-jwts';
import { buildPacs008, freshIds, type Pacs008Ids, type Pacs008Message } from '../../../messages/pacs008';
import { buildPacs004, type Pacs004Message } from '../../../messages/pacs004';
import { buildPacs007, type Pacs007Message } from '../../../messages/pacs007';

export const PATHS = {
  payment: '/payments/pacs008/v10',
  return: '/payments/pacs004/v08',
  refund: '/payments/pacs007/v08',
  cancel: '/payments/camt056/v08',
  status: (id: string) => `/payments/pacs002/v12/${encodeURIComponent(id)}`,
  incoming: (id: string) => `/payments/pacs008/v08/${encodeURIComponent(id)}`,
} as const;

export interface Party {
  identity: ClientIdentity;
  token: string;
}

export interface Answer {
  status: number;
  /** Parsed JSON body (any: the tests read into it freely). */
  json: any;
  text: string;
}

/** A reference with fast settlement unless told otherwise; admin on (loopback). */
export function startRef(options: ConfigOptions = {}): Promise<ReferenceHandle> {
  return startReference({
    host: '127.0.0.1',
    port: 0,
    admin: true,
    batchIntervalMs: 20,
    settlementDelayMs: 20,
    ...options,
  });
}

async function answer(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

export interface PartyOptions {
  faults?: string[];
  batching?: 'auto' | 'manual';
  notificationUrl?: string;
  /** A dialect (preset name or fields), as the registration takes it. */
  dialect?: string | Record<string, unknown>;
}

/** The body of POST /_admin/clients for `identity`, with its own sort code unless another is given. */
export function registrationOf(identity: ClientIdentity, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    clientId: identity.clientId,
    clientSecret: identity.clientSecret,
    kid: identity.kid,
    iss: identity.iss,
    publicKey: identity.publicPem,
    memberId: identity.memberId,
    ...extra,
  };
}

/** Registers a new client (own RSA key, own memberId) and gets its access token. */
export async function newParty(ref: ReferenceHandle, role: string, options: PartyOptions = {}): Promise<Party> {
  let identity = generatedClient(role, 'unit', 0, generateRsaKeyPair(2048));
  const register = () =>
    fetch(`${ref.url}/_admin/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        registrationOf(identity, {
          ...(options.faults ? { faults: options.faults } : {}),
          ...(options.batching ? { batching: options.batching } : {}),
          ...(options.notificationUrl ? { notificationUrl: options.notificationUrl } : {}),
          ...(options.dialect ? { dialect: options.dialect } : {}),
        }),
      ),
    });
  let registered = await register();
  // A sort code another party drew first (409): another, as client/target.ts registerClient does.
  if (registered.status === 409) {
    identity = { ...identity, memberId: newMemberId(new Set([identity.memberId!])) };
    registered = await register();
  }
  if (registered.status !== 201)
    throw new Error(`registration failed: ${registered.status} ${await registered.text()}`);
  const token = await requestToken(ref, identity);
  if (token.status !== 200) throw new Error(`token failed: ${token.status} ${token.text}`);
  return { identity, token: (token.json as { access_token: string }).access_token };
}

/** A JWT-bearer token request of §4.1 for `identity`, signed with its key (RS256, or ES256 for an EC key). */
export async function requestToken(ref: ReferenceHandle, identity: ClientIdentity): Promise<Answer> {
  const form = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: authenticationJwt(
      identity,
      identity.privateKey!.asymmetricKeyType === 'ec'
        ? { signer: { kind: 'es256', key: identity.privateKey! }, header: { alg: 'ES256' } }
        : {},
    ),
    scope: 'makePayments',
  });
  return answer(
    await fetch(`${ref.url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${identity.clientId}:${identity.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: form.toString(),
    }),
  );
}

/** POSTs a message as `party` with a valid SCA JWT over the exact body bytes. */
export async function post(ref: ReferenceHandle, party: Party, path: string, message: unknown): Promise<Answer> {
  const body = typeof message === 'string' ? message : JSON.stringify(message);
  return answer(
    await fetch(`${ref.url}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${party.token}`,
        'x-client-id': party.identity.clientId,
        'content-type': 'application/json',
        accept: 'application/json',
        'sca-token': scaJwt(party.identity, body),
      },
      body,
    }),
  );
}

export async function get(ref: ReferenceHandle, party: Party, path: string): Promise<Answer> {
  return answer(
    await fetch(`${ref.url}${path}`, {
      headers: {
        authorization: `Bearer ${party.token}`,
        'x-client-id': party.identity.clientId,
        accept: 'application/json',
      },
    }),
  );
}

const INTERIM = new Set(['PEND', 'PDNG', 'ACSP']);

/** Polls pacs.002 until the transfer's status is final; returns the status entry. */
export async function waitFinal(
  ref: ReferenceHandle,
  party: Party,
  id: string,
  timeoutMs = 15_000,
): Promise<{ txSts: string; stsRsnInf?: { rsn: { cd: string } }[] }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await get(ref, party, PATHS.status(id));
    if (status.status !== 200) throw new Error(`status of ${id}: ${status.status} ${status.text}`);
    const entry = status.json.fitoFIPmtStsRpt.txInfAndSts[0];
    if (!INTERIM.has(entry.txSts)) return entry;
    if (Date.now() > deadline) throw new Error(`${id} did not settle`);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

/** A pacs.008 from `payer` to `beneficiary` (its memberId as creditor agent). */
export function paymentTo(beneficiary: Party, amount: number, ids: Pacs008Ids = freshIds()): Pacs008Message {
  return buildPacs008({ seed: `unit-${ids.msgId}`, amount, creditorMemberId: beneficiary.identity.memberId!, ids });
}

/** Pays and waits until the payment settles; fails unless it is accepted. */
export async function paySettled(ref: ReferenceHandle, payer: Party, message: Pacs008Message): Promise<string> {
  const submitted = await post(ref, payer, PATHS.payment, message);
  if (submitted.status !== 201) throw new Error(`payment refused: ${submitted.status} ${submitted.text}`);
  const id = submitted.json.data.paymentsServiceId as string;
  const final = await waitFinal(ref, payer, id);
  if (final.txSts !== 'ACCC' && final.txSts !== 'ACSC') throw new Error(`payment ${id} settled as ${final.txSts}`);
  return id;
}

/** A full return of `original` (EUR, same value, as the reference compares by value). */
export function returnOf(original: Pacs008Message, value?: number): Pacs004Message {
  const message = buildPacs004({
    seed: `unit-rtr-${original.fitoFICstmrCdtTrf.grpHdr.msgId}-${Math.random()}`,
    original,
    withCharges: true,
  });
  if (value !== undefined) {
    const tx = message.pmtRtr.txInf[0]!;
    tx.rtrdIntrBkSttlmAmt.value = value;
    if (message.pmtRtr.grpHdr.ttlRtrdIntrBkSttlmAmt) message.pmtRtr.grpHdr.ttlRtrdIntrBkSttlmAmt.value = value;
  }
  return message;
}

/** A refund of `value` pounds of `original`. */
export function refundOf(original: Pacs008Message, value: number): Pacs007Message {
  const message = buildPacs007({ seed: `unit-rfd-${Math.random()}`, original });
  message.fIToFIPmtRvsl.txInf[0]!.rvsdIntrBkSttlmAmt.value = value;
  return message;
}
