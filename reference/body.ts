/**
 * Safe JSON body parsing from the raw bytes. The raw buffer is kept because the SCA hd claim is a
 * hash of the exact bytes (spec §5); anything malformed is a 400, never a 5xx (ledger ROB-01).
 */
import type { FaultSet } from './faults';
import { ApiError } from './errors';

export const MAX_DEPTH = 64;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const bad = (message: string): ApiError => new ApiError(400, { code: 'malformed_body', message });

/** Depth of [ and { nesting outside strings; stops early so a hostile body costs little. */
function exceedsDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

export interface ParsedBody {
  /** The decoded text, kept by the ledger in place of the parsed tree (see StoredMessage). */
  text: string;
  value: Record<string, unknown>;
}

export function parseJsonBody(raw: Buffer | undefined, faults: FaultSet): ParsedBody {
  if (!raw || raw.length === 0) throw bad('the request body is empty');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw bad('the request body is not valid UTF-8');
  }
  if (exceedsDepth(text, MAX_DEPTH)) throw bad(`the JSON nesting is deeper than ${MAX_DEPTH}`);
  let value: unknown;
  try {
    // The reviver only runs when a prototype key could be present (also \u-escaped): the fast path stays JSON.parse.
    if (text.includes('__proto__') || text.includes('\\u')) {
      value = JSON.parse(text, function (this: unknown, key: string, v: unknown) {
        if (key === '__proto__') {
          if (faults.has('robustness-proto-500')) throw new TypeError('prototype key reached the handler');
          throw bad('the key __proto__ is not allowed');
        }
        return v;
      });
    } else value = JSON.parse(text);
  } catch (error) {
    if (error instanceof ApiError || error instanceof TypeError) throw error;
    throw bad('the request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('the request body must be a JSON object');
  return { text, value: value as Record<string, unknown> };
}

/**
 * Reads a request body of at most `limit` bytes (REF_MAX_BODY_BYTES). A larger body is not cut off:
 * the rest is read and discarded, and 413 is answered only once the client has sent it all (the
 * framework then adds Connection: close). Answering early and closing while the client still writes
 * breaks its connection (EPIPE, ECONNRESET) instead of giving it the 413. Discarding costs no memory,
 * and REF_REQUEST_TIMEOUT_MS bounds how long an endless body is read (408, then the connection closes).
 * Works the same with Content-Length and chunked framing: the HTTP parser ends the stream either way.
 */
export function readBody(stream: NodeJS.ReadableStream, limit: number, done: (error: Error | null, body?: Buffer) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  let over = false;
  let finished = false;
  const finish = (error: Error | null, body?: Buffer): void => {
    if (finished) return;
    finished = true;
    stream.removeListener('data', onData);
    stream.removeListener('end', onEnd);
    stream.removeListener('error', onError);
    done(error, body);
  };
  const onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    if (over) return;
    if (received > limit) {
      over = true;
      chunks.length = 0; // from here on only counted, never kept
      return;
    }
    chunks.push(bytes);
  };
  const onEnd = (): void => {
    if (over) finish(new ApiError(413, { code: 'payload_too_large', message: `the request body is larger than ${limit} bytes` }));
    else finish(null, Buffer.concat(chunks, received));
  };
  // The client went away or the request timed out: the framework has nobody left to answer.
  const onError = (error: Error): void => finish(Object.assign(error, { statusCode: 400 }));
  stream.on('data', onData);
  stream.on('end', onEnd);
  stream.on('error', onError);
  stream.resume();
}
