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
