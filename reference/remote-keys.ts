/**
 * Keys named by URL inside a client JWT (x5u: a PEM certificate or chain; jku: a JWK Set). The clean
 * service never fetches them (README); only the *-trusts-x5u / *-trusts-jku faults do, and then only
 * from loopback http(s) URLs, with a short timeout, no redirects and a size cap, never an outside host.
 *
 * JWT checks run synchronously (no await may separate an idempotency check from its insert), so the
 * keys are fetched before the handler runs (a preHandler hook) and looked up by URL afterwards.
 */
import { createPublicKey, X509Certificate, type KeyObject, type JsonWebKey } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServiceContext } from './context';
import type { FaultName, FaultSet } from './faults';
import { isLoopbackHost } from './config';
import { noRemoteKeys, parseCompactJws, type RemoteKeys } from './jwt-verify';
import { namedClient } from './request-scope';

const TIMEOUT_MS = 1000;
const MAX_BYTES = 64 * 1024;
const REMOTE_FAULTS: readonly FaultName[] = [
  'token-trusts-x5u',
  'token-trusts-jku',
  'sca-trusts-x5u',
  'sca-trusts-jku',
];

export function isFetchableKeyUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHost(url.hostname);
  } catch {
    return false;
  }
}

async function fetchText(url: string): Promise<string | null> {
  if (!isFetchableKeyUrl(url)) return null;
  try {
    const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok || !res.body) return null;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      size += chunk.length;
      if (size > MAX_BYTES) return null;
      chunks.push(Buffer.from(chunk));
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch {
    return null;
  }
}

/** x5u: the key of the first certificate of the PEM text. */
function certificateKey(text: string): KeyObject | null {
  const pem = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/.exec(text)?.[0];
  if (!pem) return null;
  try {
    return new X509Certificate(pem).publicKey;
  } catch {
    return null;
  }
}

/** jku: the key of the set whose kid is the token's (or the only key). */
function jwkSetKey(text: string, kid: unknown): KeyObject | null {
  try {
    const set = JSON.parse(text) as { keys?: unknown };
    const keys = Array.isArray(set.keys) ? (set.keys as Array<Record<string, unknown>>) : [];
    const jwk =
      keys.find((k) => typeof k === 'object' && k !== null && k.kid === kid) ??
      (keys.length === 1 ? keys[0] : undefined);
    return jwk ? createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }) : null;
  } catch {
    return null;
  }
}

const fetched = new WeakMap<FastifyRequest, Map<string, KeyObject | null>>();

/** The keys fetched for this request (nothing when no remote-key fault was on). */
export function remoteKeysOf(req: FastifyRequest): RemoteKeys {
  const map = fetched.get(req);
  return map ? (url) => map.get(url) : noRemoteKeys;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The client JWTs of a request: the sca-token header, and on the token endpoint the form's assertion. */
function clientJwts(req: FastifyRequest): string[] {
  const out: string[] = [];
  const sca = first(req.headers['sca-token']);
  if (sca) out.push(sca);
  if (req.url.startsWith('/oauth/token') && Buffer.isBuffer(req.body)) {
    const assertion = new URLSearchParams(req.body.toString('utf8')).get('assertion');
    if (assertion) out.push(assertion);
  }
  return out;
}

const hasRemoteFault = (faults: FaultSet): boolean => REMOTE_FAULTS.some((name) => faults.has(name));

/** The assertion's sub when the request names no client otherwise (only under token-accepts-missing-basic). */
function subClientFaults(ctx: ServiceContext, jwts: string[]): FaultSet {
  for (const token of jwts) {
    const sub = parseCompactJws(token, { unencodedPayload: true })?.payload.sub;
    const client = typeof sub === 'string' ? ctx.registry.get(sub) : undefined;
    if (client) return client.faults;
  }
  return ctx.globalFaults;
}

export function registerRemoteKeyPrefetch(app: FastifyInstance, ctx: ServiceContext): void {
  app.addHook('preHandler', async (req) => {
    if (req.method !== 'POST') return;
    // Whose faults: the client the request names (X-Client-Id, Basic), else the assertion's sub, else the
    // global set. Decided before reading any token, so a request without such a fault costs one lookup.
    const named = namedClient(ctx, req);
    if (named && !hasRemoteFault(named.faults)) return;
    const jwts = clientJwts(req);
    if (jwts.length === 0 || !hasRemoteFault(named?.faults ?? subClientFaults(ctx, jwts))) return;
    const map = new Map<string, KeyObject | null>();
    for (const token of jwts) {
      const jws = parseCompactJws(token, { unencodedPayload: true });
      if (!jws) continue;
      const { header } = jws;
      if (typeof header.x5u === 'string' && !map.has(header.x5u)) {
        const text = await fetchText(header.x5u);
        map.set(header.x5u, text === null ? null : certificateKey(text));
      }
      if (typeof header.jku === 'string' && !map.has(header.jku)) {
        const text = await fetchText(header.jku);
        map.set(header.jku, text === null ? null : jwkSetKey(text, header.kid));
      }
    }
    fetched.set(req, map);
  });
}
