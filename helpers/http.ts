/**
 * One HTTP exchange with the target, recorded whole. undici rather than Playwright's request context:
 * the SCA hash covers the exact body bytes, negative cases send bytes that are not valid UTF-8, and the
 * concurrency tests need many requests in flight from one worker.
 */
import type { Agent, request } from 'undici';

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
  /** The id of the negative case's mutation this request carried (fixtures/catalogues/mutations.ts), for its replay. */
  mutation?: string;
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
}

/**
 * undici is loaded on the first request, not when this module loads: the Playwright runner imports
 * every spec (and so this module) only to list the tests, and undici compiles its WebAssembly HTTP
 * parser on load (about 20 MB the runner would carry for nothing).
 */
let transport: Promise<{ request: typeof request; agent: Agent }> | undefined;
function undici(): Promise<{ request: typeof request; agent: Agent }> {
  return (transport ??= import('undici').then((m) => ({ request: m.request, agent: new m.Agent({ connections: 64, pipelining: 1, keepAliveTimeout: 10_000 }) })));
}

export class HttpClient {
  constructor(private readonly options: HttpClientOptions = {}) {}

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
    const { request, agent } = await undici();
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
      if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'].includes(code)) {
        throw new TargetUnreachableError(`cannot reach ${new URL(req.url).origin} (${code}): is the target up and the profile's URL right?`);
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
