/**
 * Safe JSON body parsing from the raw bytes. The raw buffer is kept because the SCA hd claim is a
 * hash of the exact bytes (spec §5); anything malformed is a 400 (refusalStatus.malformed), never a
 * 5xx (ledger ROB-01).
 *
 * Dialect extraInput decides what happens with input the spec has no rule about: `refuse` (nesting
 * deeper than 64, any __proto__ key -> malformed) or `accept` (parsed at any depth, members nested
 * deeper than 64 dropped, __proto__ and constructor keys dropped). Dialect utf8 decides whether
 * invalid UTF-8 is malformed (`strict`) or decoded with U+FFFD (`lenient`), and whether a body in
 * UTF-16 or UTF-32 is read in its own encoding (`detect`) or as the UTF-8 it is not.
 */
import type { Dialect } from './dialects';
import type { FaultSet } from './faults';
import { ApiError } from './errors';

export const MAX_DEPTH = 64;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-32le' | 'utf-32be';

/**
 * The encoding a JSON text's first bytes tell (RFC 4627 §3, as Python's json.detect_encoding): a BOM,
 * else the zero bytes an ASCII first character leaves in UTF-16 and UTF-32.
 */
function detectEncoding(raw: Buffer): Encoding {
  const [a, b, c, d] = [raw[0], raw[1], raw[2], raw[3]];
  if (a === 0xff && b === 0xfe) return c === 0 && d === 0 ? 'utf-32le' : 'utf-16le';
  if (a === 0xfe && b === 0xff) return 'utf-16be';
  if (a === 0 && b === 0 && c === 0xfe && d === 0xff) return 'utf-32be';
  if (raw.length >= 4) {
    if (a === 0) return b === 0 ? 'utf-32be' : 'utf-16be';
    if (b === 0) return c === 0 && d === 0 ? 'utf-32le' : 'utf-16le';
  } else if (raw.length === 2) {
    if (a === 0) return 'utf-16be';
    if (b === 0) return 'utf-16le';
  }
  return 'utf-8';
}

/** UTF-32, which TextDecoder does not know; null when a code unit is no Unicode scalar value. */
function decodeUtf32(raw: Buffer, littleEndian: boolean): string | null {
  if (raw.length % 4 !== 0) return null;
  const points: number[] = [];
  for (let i = 0; i < raw.length; i += 4) {
    const point = littleEndian ? raw.readUInt32LE(i) : raw.readUInt32BE(i);
    if (point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return null;
    if (i === 0 && point === 0xfeff) continue;
    points.push(point);
  }
  let text = '';
  for (let i = 0; i < points.length; i += 4096) text += String.fromCodePoint(...points.slice(i, i + 4096));
  return text;
}

/** utf8 detect: the body read in the encoding its first bytes tell; null when it is not valid in it. */
function decodeDetected(raw: Buffer): string | null {
  const encoding = detectEncoding(raw);
  if (encoding === 'utf-32le' || encoding === 'utf-32be') return decodeUtf32(raw, encoding === 'utf-32le');
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(raw);
  } catch {
    return null;
  }
}

const bad = (message: string): ApiError => new ApiError('malformed', { code: 'malformed_body', message });

/** Depth of [ and { nesting outside strings; stops early so a hostile body costs little. */
function exceedsDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > limit) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

const DROPPED_KEYS = ['__proto__', 'constructor'] as const;

/**
 * extraInput accept: removes __proto__ and constructor members (own properties: JSON.parse never
 * touches a prototype, and deleting an own property does not either) and every container nested
 * deeper than MAX_DEPTH, walking with an explicit stack (a recursive walk, a reviver or
 * JSON.stringify would overflow the call stack on a 10,000-deep body). No documented field is
 * deeper than 64, so what is dropped is input the spec does not define. True when anything changed.
 */
function dropExtraInput(root: unknown, faults: FaultSet): boolean {
  let changed = false;
  const stack: Array<{ value: unknown; depth: number }> = [{ value: root, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item !== 'object' || item === null) continue;
        if (depth >= MAX_DEPTH) {
          value[i] = null;
          changed = true;
        } else stack.push({ value: item, depth: depth + 1 });
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    for (const key of DROPPED_KEYS) {
      if (!Object.hasOwn(record, key)) continue;
      if (key === '__proto__' && faults.has('robustness-proto-500'))
        throw new TypeError('prototype key reached the handler');
      Reflect.deleteProperty(record, key);
      changed = true;
    }
    for (const key of Object.keys(record)) {
      const member = record[key];
      if (typeof member !== 'object' || member === null) continue;
      if (depth >= MAX_DEPTH) {
        Reflect.deleteProperty(record, key);
        changed = true;
      } else stack.push({ value: member, depth: depth + 1 });
    }
  }
  return changed;
}

export interface ParsedBody {
  /** The decoded text (re-serialised when extraInput accept dropped members), kept by the ledger in place of the parsed tree (see StoredMessage). */
  text: string;
  value: Record<string, unknown>;
}

export function parseJsonBody(raw: Buffer | undefined, faults: FaultSet, dialect: Dialect): ParsedBody {
  if (!raw || raw.length === 0) throw bad('the request body is empty');
  let text: string;
  if (dialect.utf8 === 'lenient') text = lenientUtf8.decode(raw);
  else if (dialect.utf8 === 'detect') {
    const decoded = decodeDetected(raw);
    if (decoded === null) throw bad('the request body is not valid in the encoding its first bytes tell');
    text = decoded;
  } else
    try {
      text = strictUtf8.decode(raw);
    } catch {
      throw bad('the request body is not valid UTF-8');
    }
  const accept = dialect.extraInput === 'accept';
  if (faults.has('deep-nesting-500') && exceedsDepth(text, MAX_DEPTH))
    throw new RangeError('Maximum call stack size exceeded');
  if (!accept && exceedsDepth(text, MAX_DEPTH)) throw bad(`the JSON nesting is deeper than ${MAX_DEPTH}`);
  let value: unknown;
  try {
    // The reviver only runs when a prototype key could be present (also \u-escaped): the fast path stays JSON.parse.
    // JSON.parse itself is iterative (any depth); the reviver is recursive, so extraInput accept never uses it.
    if (!accept && (text.includes('__proto__') || text.includes('\\u'))) {
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
    if (faults.has('malformed-json-500')) throw new TypeError('the handler read a body that did not parse');
    throw bad('the request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw bad('the request body must be a JSON object');
  if (accept && dropExtraInput(value, faults)) text = JSON.stringify(value);
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
export function readBody(
  stream: NodeJS.ReadableStream,
  limit: number,
  done: (error: Error | null, body?: Buffer) => void,
): void {
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
    if (over)
      finish(
        new ApiError('tooLarge', {
          code: 'payload_too_large',
          message: `the request body is larger than ${limit} bytes`,
        }),
      );
    else finish(null, Buffer.concat(chunks, received));
  };
  // The client went away or the request timed out: the framework has nobody left to answer.
  const onError = (error: Error): void => finish(Object.assign(error, { statusCode: 400 }));
  stream.on('data', onData);
  stream.on('end', onEnd);
  stream.on('error', onError);
  stream.resume();
}
