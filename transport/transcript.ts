/** Human-readable renderings of an exchange, always redacted (the replayable curl is record/replay.ts). */
import type { Exchange } from './http';
import type { Redactor } from './redact';

const MAX_BODY_CHARS = 20_000;

function bodyText(body: Uint8Array | string | undefined): string {
  if (body === undefined) return '';
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  return text.length > MAX_BODY_CHARS
    ? `${text.slice(0, MAX_BODY_CHARS)}\n… (${text.length - MAX_BODY_CHARS} more characters)`
    : text;
}

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * What a reader sees of a request: the step that sends it, "valid twin — POST /payments/pacs008/v10",
 * and, once answered, the exchange's own title (its attachment, its step in the report, the terminal):
 * "valid twin — POST /payments/pacs008/v10 → 201". The label keeps a test's exchanges apart.
 */
export function requestTitle(label: string, request: { method: string; url: string }): string {
  return `${label} — ${request.method} ${new URL(request.url).pathname}`;
}

export const exchangeTitle = (exchange: Exchange): string =>
  `${requestTitle(exchange.label, exchange.request)} → ${exchange.response.status}`;

/**
 * What the attachment and the transcript line of an exchange share, redacted once for both: the
 * request's headers and body and the response's headers (the response body is pretty-printed in one
 * and cut in the other).
 */
export interface RedactedParts {
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseHeaders: Record<string, string>;
}

export const redactedParts = ({ request, response }: Exchange, redactor: Redactor): RedactedParts => ({
  requestHeaders: redactor.headers(request.headers),
  requestBody: redactor.text(bodyText(request.body)),
  responseHeaders: redactor.headers(response.headers),
});

/** The exchange as an HTTP/1.1-style text, request then response. */
export function renderExchange(
  exchange: Exchange,
  redactor: Redactor,
  parts: RedactedParts = redactedParts(exchange, redactor),
): string {
  const { request, response } = exchange;
  const url = new URL(request.url);
  const lines = [`${request.method} ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`];
  for (const [k, v] of Object.entries(parts.requestHeaders)) lines.push(`${k}: ${v}`);
  lines.push('', parts.requestBody, '', `── response ${response.status} in ${exchange.durationMs} ms ──`);
  for (const r of exchange.retries) lines.push(`(retried after ${r.status}, waited ${r.waitedMs} ms)`);
  for (const [k, v] of Object.entries(parts.responseHeaders)) lines.push(`${k}: ${v}`);
  lines.push('', redactor.text(pretty(response.text)));
  return lines.join('\n');
}

/** The exchange as a redacted, structured record for transcripts and evidence bundles. */
export function exchangeRecord(
  exchange: Exchange,
  redactor: Redactor,
  parts: RedactedParts = redactedParts(exchange, redactor),
): Record<string, unknown> {
  return {
    label: exchange.label,
    startedAt: exchange.startedAt,
    durationMs: exchange.durationMs,
    request: {
      method: exchange.request.method,
      url: exchange.request.url,
      headers: parts.requestHeaders,
      body: parts.requestBody,
    },
    response: {
      status: exchange.response.status,
      headers: parts.responseHeaders,
      body: redactor.text(exchange.response.text.slice(0, MAX_BODY_CHARS)),
    },
    retries: exchange.retries,
  };
}

const clip = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;

/**
 * An exchange in a few lines, redacted, for a record a person reads next to a conclusion drawn from
 * it (a discovered choice): the request line, headers and the start of both bodies.
 */
export function exchangeSummary(exchange: Exchange, redactor: Redactor, maxBody = 600): Record<string, unknown> {
  const url = new URL(exchange.request.url);
  const responseHeaders = Object.fromEntries(
    Object.entries(redactor.headers(exchange.response.headers)).filter(([k]) =>
      /^(content-type|www-authenticate|retry-after)$/i.test(k),
    ),
  );
  return {
    label: exchange.label,
    request: `${exchange.request.method} ${url.pathname}`,
    requestHeaders: redactor.headers(exchange.request.headers),
    ...(exchange.request.body !== undefined
      ? { requestBody: clip(redactor.text(bodyText(exchange.request.body)), maxBody) }
      : {}),
    status: exchange.response.status,
    responseHeaders,
    responseBody: clip(redactor.text(exchange.response.text), maxBody),
  };
}
