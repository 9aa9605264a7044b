/**
 * A small in-process harness for the reference's own unit tests (tests/unit/reference-*.test.ts):
 * starts the service, registers clients, gets tokens, signs JWTs by hand (every byte under the test's
 * control) and sends requests. It deliberately does not use the suite's fixtures: these tests check
 * the reference's switches (dialects, faults), not conformance.
 */
import { createHash, generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import { startReference, type ReferenceHandle } from '../../../reference/server';
import type { ConfigOptions } from '../../../reference/config';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface Keys {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicPem: string;
}

export function rsaKeys(): Keys {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

export const b64url = (data: Uint8Array | string): string => Buffer.from(data).toString('base64url');
export const nowS = (): number => Math.floor(Date.now() / 1000);
export const sha256b64 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('base64');

/** header.payload.signature from JSON texts (so duplicate members etc. survive), RS256-signed unless `signature` is given. */
export function compact(headerText: string, payloadText: string, key: KeyObject | null, signature?: Buffer): string {
  const input = `${b64url(headerText)}.${b64url(payloadText)}`;
  const sig = signature ?? (key ? sign('sha256', Buffer.from(input), key) : Buffer.alloc(0));
  return `${input}.${b64url(sig)}`;
}

export function jwt(header: Record<string, unknown>, payload: Record<string, unknown>, key: KeyObject | null): string {
  return compact(JSON.stringify(header), JSON.stringify(payload), key);
}

/**
 * A sort code no other client of this process holds: the reference refuses a taken one (409), and
 * random draws among 900,000 collide often enough over the hundreds of clients a grouped run registers.
 */
let memberIdsGiven = Math.floor(Math.random() * 9e5);
const nextMemberId = (): string => String(1e5 + (memberIdsGiven++ % 9e5));

export interface TestClient {
  clientId: string;
  clientSecret: string;
  kid: string;
  iss: string;
  keys: Keys;
  memberId: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export class Harness {
  private constructor(
    readonly ref: ReferenceHandle,
    readonly keys: Keys,
  ) {}

  static async start(options: ConfigOptions = {}, keys: Keys = rsaKeys()): Promise<Harness> {
    const ref = await startReference({
      host: '127.0.0.1',
      port: 0,
      admin: true,
      batchIntervalMs: 20,
      settlementDelayMs: 0,
      faults: [],
      dialect: 'default',
      ...options,
    });
    return new Harness(ref, keys);
  }

  get url(): string {
    return this.ref.url;
  }

  close(): Promise<void> {
    return this.ref.close();
  }

  /** Registers a fresh client (own key pair of the harness unless given); extra fields go into the registration. */
  async client(extra: Record<string, unknown> = {}, keys: Keys = this.keys): Promise<TestClient> {
    const id = randomUUID().slice(0, 8);
    const client: TestClient = {
      clientId: `client-${id}`,
      clientSecret: `secret-${id}`,
      kid: `kid-${id}`,
      iss: `iss-${id}`,
      keys,
      memberId: nextMemberId(),
    };
    const res = await this.register({
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      kid: client.kid,
      iss: client.iss,
      publicKey: keys.publicPem,
      memberId: client.memberId,
      ...extra,
    });
    if (res.status !== 201) throw new Error(`registration failed: ${res.status} ${res.text}`);
    return client;
  }

  register(body: Record<string, unknown>): Promise<Reply> {
    return send(`${this.url}/_admin/clients`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  assertionClaims(c: TestClient): Record<string, unknown> {
    const now = nowS();
    return { sub: c.clientId, iss: c.iss, iat: now, nbf: now, exp: now + 300, jti: randomUUID() };
  }

  assertion(c: TestClient): string {
    return jwt({ alg: 'RS256', typ: 'JWT', kid: c.kid }, this.assertionClaims(c), c.keys.privateKey);
  }

  tokenRequest(c: TestClient, assertion: string, headers: Record<string, string> = {}): Promise<Reply> {
    const body = new URLSearchParams({ grant_type: JWT_BEARER, assertion, scope: 'makePayments' }).toString();
    return send(`${this.url}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${c.clientId}:${c.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        ...headers,
      },
      body,
    });
  }

  async token(c: TestClient): Promise<string> {
    const res = await this.tokenRequest(c, this.assertion(c));
    if (res.status !== 200) throw new Error(`token failed: ${res.status} ${res.text}`);
    return (res.json as { access_token: string }).access_token;
  }

  scaClaims(c: TestClient, body: string | Uint8Array): Record<string, unknown> {
    const now = nowS();
    return {
      iss: c.iss,
      iat: now,
      exp: now + 300,
      jti: randomUUID(),
      alg: 'SHA256',
      hd: sha256b64(body),
      nonce: randomUUID(),
    };
  }

  sca(c: TestClient, body: string | Uint8Array): string {
    return jwt({ alg: 'RS256', typ: 'JWT', kid: c.kid }, this.scaClaims(c, body), c.keys.privateKey);
  }

  /** A payments POST with every header right unless overridden (a header set to null is left out). */
  post(
    path: string,
    c: TestClient,
    token: string,
    body: string | Uint8Array,
    headers: Record<string, string | null> = {},
  ): Promise<Reply> {
    const all: Record<string, string | null> = {
      authorization: `Bearer ${token}`,
      'x-client-id': c.clientId,
      'content-type': 'application/json',
      accept: 'application/json',
      'sca-token': this.sca(c, body),
      ...headers,
    };
    return send(`${this.url}/payments/${path}`, { method: 'POST', headers: clean(all), body });
  }

  get(path: string, c: TestClient, token: string, headers: Record<string, string | null> = {}): Promise<Reply> {
    const all: Record<string, string | null> = {
      authorization: `Bearer ${token}`,
      'x-client-id': c.clientId,
      accept: 'application/json',
      ...headers,
    };
    return send(`${this.url}/payments/${path}`, { headers: clean(all) });
  }

  /** Cuts the client's batch now (manual clients) and waits until settlement has run. */
  async settle(c: TestClient): Promise<void> {
    await send(`${this.url}/_admin/clients/${c.clientId}/send-batch`, { method: 'POST' });
    await new Promise((r) => setTimeout(r, 60));
  }
}

function clean(headers: Record<string, string | null>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => e[1] !== null));
}

let counter = 0;
export const uid = (prefix: string): string =>
  `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}-${randomUUID().slice(0, 6)}`;

/** A valid pacs.008 to the beneficiary with sort code `creditorMemberId`. */
export function pacs008(
  creditorMemberId = '400000',
  amount = 10.5,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    fitoFICstmrCdtTrf: {
      grpHdr: {
        msgId: uid('m'),
        creDtTm: new Date().toISOString().slice(0, 19),
        nbOfTxs: '1',
        sttlmInf: { sttlmMtd: 'CLRG' },
      },
      cdtTrfTxInf: [
        {
          pmtId: { endToEndId: uid('e'), txId: uid('t') },
          intrBkSttlmAmt: { value: amount, ccy: 'GBP' },
          chrgBr: 'SLEV',
          dbtr: { nm: 'Alice' },
          dbtrAcct: { id: { othr: { id: '12345678' } } },
          dbtrAgt: { finInstnId: { clrSysMmbId: { mmbId: '200000' } } },
          cdtrAgt: { finInstnId: { clrSysMmbId: { mmbId: creditorMemberId } } },
          cdtr: { nm: 'Bob' },
          cdtrAcct: { id: { othr: { id: '87654321' } } },
          ...extra,
        },
      ],
    },
  };
}

export function ids(p: Record<string, unknown>): { msgId: string; txId: string; e2e: string } {
  const root = p.fitoFICstmrCdtTrf as {
    grpHdr: { msgId: string };
    cdtTrfTxInf: Array<{ pmtId: { txId: string; endToEndId: string } }>;
  };
  return {
    msgId: root.grpHdr.msgId,
    txId: root.cdtTrfTxInf[0]!.pmtId.txId,
    e2e: root.cdtTrfTxInf[0]!.pmtId.endToEndId,
  };
}

export function camt056(p: Record<string, unknown>, root = 'fitoFIPmtCxlReq'): Record<string, unknown> {
  const { msgId, txId } = ids(p);
  return {
    [root]: {
      assgnmt: { id: uid('a'), creDtTm: new Date().toISOString() },
      undrlyg: [{ txInf: [{ orgnlGrpInf: { orgnlMsgId: msgId }, orgnlTxId: txId }] }],
    },
  };
}

export function pacs007(p: Record<string, unknown>, value = 1, root = 'fIToFIPmtRvsl'): Record<string, unknown> {
  const { msgId, txId } = ids(p);
  return {
    [root]: {
      grpHdr: { msgId: uid('r'), creDtTm: new Date().toISOString(), nbOfTxs: '1' },
      txInf: [
        {
          rvslId: uid('v'),
          orgnlGrpInf: { orgnlMsgId: msgId },
          orgnlTxId: txId,
          rvsdIntrBkSttlmAmt: { value, ccy: 'GBP' },
        },
      ],
    },
  };
}

/** A valid pacs.004 returning payment `p` (full amount, EUR by spec). */
export function pacs004(p: Record<string, unknown>, value = 10.5): Record<string, unknown> {
  const { msgId, txId, e2e } = ids(p);
  const today = new Date().toISOString().slice(0, 10);
  return {
    pmtRtr: {
      grpHdr: {
        msgId: uid('rt'),
        creDtTm: new Date().toISOString(),
        nbOfTxs: '1',
        intrBkSttlmDt: today,
        sttlmInf: { sttlmMtd: 'CLRG' },
      },
      txInf: [
        {
          rtrId: uid('rid'),
          orgnlGrpInf: { orgnlMsgId: msgId, orgnlMsgNmId: 'pacs.008.001.08' },
          orgnlEndToEndId: e2e,
          orgnlTxId: txId,
          orgnlIntrBkSttlmAmt: { value, ccy: 'EUR' },
          rtrdIntrBkSttlmAmt: { value, ccy: 'EUR' },
          chrgBr: 'SLEV',
          rtrRsnInf: [{ orgtr: { nm: 'Bank', id: { orgId: { anyBIC: 'DEUTDEFF' } } }, rsn: { cd: 'AC01' } }],
          orgnlTxRef: {
            dbtr: { pty: { nm: 'Alice' } },
            dbtrAcct: { id: { iban: 'DE89370400440532013000' } },
            dbtrAgt: { finInstnId: { bicfi: 'DEUTDEFF' } },
            cdtrAgt: { finInstnId: { bicfi: 'DEUTDEFF' } },
            cdtr: { pty: { nm: 'Bob' } },
            cdtrAcct: { id: { iban: 'DE89370400440532013000' } },
          },
        },
      ],
    },
  };
}
