/**
 * JSON files a person edits by hand (profiles, deviation files): a syntax error is told as
 * file:line:column with the offending line, not as "at position 61", which nobody can find in an editor.
 */
import { readFileSync } from 'node:fs';

export class JsonSyntaxError extends Error {
  override name = 'JsonSyntaxError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
    readonly excerpt: string,
  ) {
    super(
      `${file}:${line}:${column}: not valid JSON at line ${line}, column ${column}: ${reason}; the line reads: ${excerpt}`,
    );
  }
}

/** Where a marker shows the column in the quoted line. */
const MARK = '▸';
const EXCERPT_WIDTH = 80;

/** The 0-based offset of the error: V8 names it in most messages; otherwise the shortest prefix that fails as the whole text does. */
function errorOffset(text: string, message: string): number {
  const stated = /at position (\d+)/.exec(message);
  if (stated) return Number(stated[1]);
  if (/Unexpected end of JSON input/.test(message)) return text.length;
  // "Unexpected token 'x', "…" is not valid JSON" names no position. A prefix that ends before the
  // error is only incomplete: V8 then says "end of JSON input", or states the prefix's own length as
  // the position. From the error on, every prefix fails inside itself.
  const failsBefore = (n: number): boolean => {
    try {
      JSON.parse(text.slice(0, n));
      return false;
    } catch (error) {
      const said = (error as Error).message;
      if (/Unexpected end of JSON input/.test(said)) return false;
      const at = /at position (\d+)/.exec(said);
      return at ? Number(at[1]) < n : true;
    }
  };
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (failsBefore(mid + 1)) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** V8's reason without its position (and Node 22's "(line n column m)"), which file:line:column replaces. */
const reasonOf = (message: string): string =>
  message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/ in JSON at position \d+/, '')
    .replace(/ at position \d+/, '')
    .replace(/, ".*" is not valid JSON$/s, '');

/** The line holding the error, with a marker at the column, cut to a readable width around it. */
function excerptOf(lineText: string, column: number): string {
  const marked = `${lineText.slice(0, column - 1)}${MARK}${lineText.slice(column - 1)}`.replace(/\t/g, ' ');
  const start = Math.max(0, Math.min(column - 1 - EXCERPT_WIDTH / 2, marked.length - EXCERPT_WIDTH));
  const cut = marked.slice(start, start + EXCERPT_WIDTH);
  return `${start > 0 ? '…' : ''}${cut.trim()}${start + EXCERPT_WIDTH < marked.length ? '…' : ''}`;
}

/** Parses `text`, read from `file`; a syntax error becomes a JsonSyntaxError naming the line and column. */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    // An error past the last character that is not white space is the end of input: told where the text ends.
    const offset = Math.min(errorOffset(text, error.message), text.trimEnd().length);
    const before = text.slice(0, offset).split('\n');
    const line = before.length;
    const column = before[before.length - 1]!.length + 1;
    const lineText = text.split('\n')[line - 1] ?? '';
    throw new JsonSyntaxError(
      file,
      line,
      column,
      reasonOf(error.message),
      excerptOf(lineText.replace(/\r$/, ''), column),
    );
  }
}

/** Reads and parses a JSON file a person edits (see parseJsonText); a byte-order mark some editors write is no error. */
export const readJsonFile = (file: string, shownAs = file): unknown =>
  parseJsonText(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), shownAs);
