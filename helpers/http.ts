/**
 * One HTTP exchange with the target, recorded whole. undici rather than Playwright's request context:
 * the SCA hash covers the exact body bytes, negative cases send bytes that are not valid UTF-8, and the
 * concurrency tests need many requests in flight from one worker.
 */
import type { Dispatcher, request } from 'undici';
import { suiteEnvironment, type ProxySettings } from './run-settings';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body when it is JSON, otherwise undefined. */
  json: unknown;
}

export interface Exchange {
  /** Business name of the step, e.g. "submit payment (twin)". */
  label: string;
  request: HttpRequest;
  response: HttpResponse;
  startedAt: string;
  durationMs: number;
  /** 429 answers that were retried after Retry-After, kept so that no retry is hidden. */
  retries: { status: number; waitedMs: number }[];
}

/** A JSON answer (spec §4): Content-Type application/json or a +json type, and a body that parsed. */
export function isJsonAnswer(exchange: Exchange): boolean {
  return /^application\/([\w.+-]+\+)?json\b/i.test(exchange.response.headers['content-type'] ?? '') && exchange.response.json !== undefined;
}

export class TargetUnreachableError extends Error {
  override name = 'TargetUnreachableError';
}

export interface HttpClientOptions {
  retry429?: { maxRetries: number; budgetMs: number };
  timeoutMs?: number;
  onExchange?: (exchange: Exchange) => void;
  /** Proxy settings of this client alone (tests); default: the environment's, one transport per process. */
  proxy?: ProxySettings;
}

/** undici's request and the dispatcher every request to a target goes through. */
export interface Transport {
  request: typeof request;
  agent: Dispatcher;
}

/** Hosts that are the runner itself: a proxy elsewhere cannot reach them (NO_PROXY matches names, not ranges). */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

export const proxied = (proxy: ProxySettings): boolean => Boolean(proxy.httpsProxy || proxy.httpProxy);

/** NO_PROXY as undici applies it: the user's list, plus loopback unless PAYMENTS_PROXY_LOOPBACK=1. */
export function noProxyList(proxy: ProxySettings): string {
  // undici reads `*` (nothing proxied) only as the whole value: a list with `*` in it would proxy all.
  if (proxy.noProxy?.trim() === '*') return '*';
  return [...(proxy.noProxy ? [proxy.noProxy] : []), ...(proxy.loopback ? [] : LOOPBACK_HOSTS)].join(',');
}

/** The proxy settings in words, for an error message: the proxies' origins (never their credentials) and NO_PROXY. */
export function describeProxy(proxy: ProxySettings): string {
  const origin = (url: string): string => {
    try {
      return new URL(url).origin;
    } catch {
      return '(not a URL)';
    }
  };
  const parts = [
    ...(proxy.httpsProxy ? [`HTTPS_PROXY ${origin(proxy.httpsProxy)}`] : []),
    ...(proxy.httpProxy ? [`HTTP_PROXY ${origin(proxy.httpProxy)}`] : []),
    `NO_PROXY ${JSON.stringify(noProxyList(proxy))}`,
  ];
  return parts.join(', ');
}

const POOL = { connections: 64, pipelining: 1, keepAliveTimeout: 10_000 };

/**
 * A transport honouring the proxy settings: undici's EnvHttpProxyAgent, given the values read in
 * helpers/run-settings.ts (never left to read the environment itself) when a proxy is set, else a
 * plain Agent. An http:// target is requested from the proxy by absolute URI (proxyTunnel: false: a
 * corporate proxy usually allows CONNECT to port 443 only); an https:// one through a CONNECT tunnel.
 * A custom CA (NODE_EXTRA_CA_CERTS) reaches both, being Node's own trust store.
 */
export function makeTransport(proxy: ProxySettings): Promise<Transport> {
  return import('undici').then((m) => ({
    request: m.request,
    agent: proxied(proxy)
      ? new m.EnvHttpProxyAgent({ ...POOL, httpProxy: proxy.httpProxy ?? '', httpsProxy: proxy.httpsProxy ?? '', noProxy: noProxyList(proxy), proxyTunnel: false })
      : new m.Agent(POOL),
  }));
}

/**
 * undici is loaded on the first request, not when this module loads: the Playwright runner imports
 * every spec (and so this module) only to list the tests, and undici compiles its WebAssembly HTTP
 * parser on load (about 20 MB the runner would carry for nothing).
 */
let transport: Promise<Transport> | undefined;
/** The process's transport to targets, made on first use from the environment's proxy settings. */
export function targetTransport(): Promise<Transport> {
  return (transport ??= makeTransport(suiteEnvironment().proxy));
}

export class HttpClient {
  private readonly transport: () => Promise<Transport>;

  constructor(private readonly options: HttpClientOptions = {}) {
    let own: Promise<Transport> | undefined;
    const proxy = options.proxy;
    this.transport = proxy ? () => (own ??= makeTransport(proxy)) : targetTransport;
  }

  async send(label: string, req: HttpRequest): Promise<Exchange> {
    const started = Date.now();
    const retries: Exchange['retries'] = [];
    const retry = this.options.retry429 ?? { maxRetries: 3, budgetMs: 10_000 };
    let budget = retry.budgetMs;
    for (;;) {
      const response = await this.once(req);
      if (response.status === 429 && retries.length < retry.maxRetries) {
        const wait = retryAfterMs(response.headers['retry-after']);
        if (wait <= budget) {
          budget -= wait;
          retries.push({ status: 429, waitedMs: wait });
          await new Promise((r) => setTimeout(r, wait));
          continue;
        }
      }
      const exchange: Exchange = {
        label,
        request: req,
        response,
        startedAt: new Date(started).toISOString(),
        durationMs: Date.now() - started,
        retries,
      };
      this.options.onExchange?.(exchange);
      return exchange;
    }
  }

  private async once(req: HttpRequest): Promise<HttpResponse> {
    const { request, agent } = await this.transport();
    let res;
    try {
      res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body === undefined ? undefined : Buffer.from(req.body),
        dispatcher: agent,
        headersTimeout: this.options.timeoutMs ?? 30_000,
        bodyTimeout: this.options.timeoutMs ?? 30_000,
      });
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      // A proxy that could not open the tunnel answers CONNECT with its own status (502, 403, 407...).
      const tunnelRefused = /^Proxy (response|Authentication)/.test((error as Error).message ?? '');
      if (tunnelRefused || ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].includes(code)) {
        const proxy = this.options.proxy ?? suiteEnvironment().proxy;
        const through = proxied(proxy) ? ` (proxy settings: ${describeProxy(proxy)}: is the proxy up, and should this host be in NO_PROXY?)` : '';
        throw new TargetUnreachableError(`cannot reach ${new URL(req.url).origin} (${tunnelRefused ? (error as Error).message : code}): is the target up and the profile's URL right?${through}`);
      }
      throw error;
    }
    const text = await res.body.text();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers, text, json: parseJson(text, headers['content-type']) };
  }
}

function parseJson(text: string, contentType: string | undefined): unknown {
  if (!text || !/json/i.test(contentType ?? 'json')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Retry-After is seconds or an HTTP date (RFC 9110 §10.2.3); absent means one second. */
export function retryAfterMs(value: string | undefined): number {
  if (!value) return 1000;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : 1000;
}
