/**
 * JSON path editing, in one place. Two editors of one path syntax: `setJsonValue` edits a JSON text
 * the way a person would; `getPath`/`setPath`/`removePath` edit a parsed document (below).
 *
 * Edits a JSON text the way a person would: one value replaced, or one member added, and every other
 * byte left as it was (key order, spacing, one-line arrays). A profile is read and reviewed by people;
 * re-serialising the whole file to change one status code would bury the change in a reformatting.
 */

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

interface ObjectSpan {
  open: number;
  close: number;
  members: Member[];
}

export class JsonEditError extends Error {
  override name = 'JsonEditError';
}

const isWs = (c: string | undefined): boolean => c === ' ' || c === '\n' || c === '\r' || c === '\t';

function skipWs(text: string, i: number): number {
  while (isWs(text[i])) i++;
  return i;
}

function stringEnd(text: string, i: number): number {
  if (text[i] !== '"') throw new JsonEditError(`expected a string at offset ${i}`);
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j + 1;
  }
  throw new JsonEditError('unterminated string');
}

/** The offset just past the JSON value starting at `i`. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c === '{' || c === '[') {
    const close = c === '{' ? '}' : ']';
    let j = skipWs(text, i + 1);
    if (text[j] === close) return j + 1;
    for (;;) {
      if (c === '{') {
        j = skipWs(text, stringEnd(text, j));
        if (text[j] !== ':') throw new JsonEditError(`expected ":" at offset ${j}`);
        j = skipWs(text, j + 1);
      }
      j = skipWs(text, valueEnd(text, j));
      if (text[j] === ',') j = skipWs(text, j + 1);
      else if (text[j] === close) return j + 1;
      else throw new JsonEditError(`expected "," or "${close}" at offset ${j}`);
    }
  }
  const m = /^(?:-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
  if (!m) throw new JsonEditError(`unexpected character at offset ${i}`);
  return i + m[0].length;
}

function objectAt(text: string, open: number): ObjectSpan {
  if (text[open] !== '{') throw new JsonEditError(`expected an object at offset ${open}`);
  const members: Member[] = [];
  let j = skipWs(text, open + 1);
  if (text[j] === '}') return { open, close: j, members };
  for (;;) {
    const keyStart = j;
    const keyEnd = stringEnd(text, j);
    const key = JSON.parse(text.slice(keyStart, keyEnd)) as string;
    j = skipWs(text, keyEnd);
    j = skipWs(text, j + 1); // past ':'
    const end = valueEnd(text, j);
    members.push({ key, keyStart, valueStart: j, valueEnd: end });
    j = skipWs(text, end);
    if (text[j] === '}') return { open, close: j, members };
    j = skipWs(text, j + 1); // past ','
  }
}

/** JSON on one line, in the style of hand-written profiles: `[400, 422]`, `{ "root": "x" }`. */
export function inlineJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(inlineJson).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    return entries.length
      ? `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${inlineJson(v)}`).join(', ')} }`
      : '{}';
  }
  return JSON.stringify(value);
}

const lineIndent = (text: string, offset: number): string => {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
};

type Layout = 'inline' | 'block' | 'fit';

/** A value rendered for a place in the text: on one line, in 2-space blocks, or on one line when it fits. */
function render(value: unknown, indent: string, layout: Layout): string {
  const inline = inlineJson(value);
  if (layout === 'inline' || (layout === 'fit' && inline.length <= 80) || typeof value !== 'object' || value === null)
    return inline;
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

const nest = (path: readonly string[], value: unknown): unknown =>
  path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);

/**
 * The text with the value at `path` set to `value`: an existing value is replaced in place (on one line
 * if it was on one line, in blocks if it was not); a missing member is added to the deepest existing object, after the member
 * `after` names when it exists there, else last, with the indentation of its siblings.
 */
export function setJsonValue(
  text: string,
  path: readonly string[],
  value: unknown,
  options: { after?: string } = {},
): string {
  if (!path.length) throw new JsonEditError('an empty path names the whole document');
  let span = objectAt(text, skipWs(text, 0));
  for (let depth = 0; depth < path.length; depth++) {
    const key = path[depth]!;
    const member = span.members.find((m) => m.key === key);
    if (!member) return insertMember(text, span, key, nest(path.slice(depth + 1), value), options.after);
    if (depth === path.length - 1) {
      const old = text.slice(member.valueStart, member.valueEnd);
      return (
        text.slice(0, member.valueStart) +
        render(value, lineIndent(text, member.keyStart), old.includes('\n') ? 'block' : 'inline') +
        text.slice(member.valueEnd)
      );
    }
    if (text[member.valueStart] !== '{')
      throw new JsonEditError(`"${path.slice(0, depth + 1).join('.')}" is not an object`);
    span = objectAt(text, member.valueStart);
  }
  throw new JsonEditError('unreachable');
}

function insertMember(text: string, span: ObjectSpan, key: string, value: unknown, after: string | undefined): string {
  const anchor = span.members.find((m) => m.key === after) ?? span.members.at(-1);
  const multiLine = text.slice(span.open, span.close).includes('\n');
  if (!anchor) {
    const indent = lineIndent(text, span.open);
    const body = multiLine
      ? `\n${indent}  ${JSON.stringify(key)}: ${render(value, `${indent}  `, 'fit')}\n${indent}`
      : ` ${JSON.stringify(key)}: ${inlineJson(value)} `;
    return text.slice(0, span.open + 1) + body + text.slice(span.close);
  }
  const onOwnLine =
    multiLine && text.slice(text.lastIndexOf('\n', anchor.keyStart - 1) + 1, anchor.keyStart).trim() === '';
  const indent = lineIndent(text, anchor.keyStart);
  const member = `${JSON.stringify(key)}: ${render(value, indent, onOwnLine ? 'fit' : 'inline')}`;
  const insertion = onOwnLine ? `,\n${indent}${member}` : `, ${member}`;
  return text.slice(0, anchor.valueEnd) + insertion + text.slice(anchor.valueEnd);
}

// ── Parsed documents: the one editor of a path inside a JSON value ─────────────────────────────
// Profiles (engines/discovery) read through it, and every negative case table (cases/) edits its
// messages through it: a dot path names a member, a numeric segment an array element.

/** A dot path (`pmtRtr.txInf.0.rtrId`) or its segments; a numeric segment indexes an array. */
export type JsonPath = string | readonly string[];

const segmentsOf = (path: JsonPath): readonly string[] =>
  typeof path === 'string' ? (path === '' ? [] : path.split('.')) : path;
const isIndex = (segment: string): boolean => /^\d+$/.test(segment);

/** The value at `path` of a parsed document, or undefined (a numeric segment reads an array element). */
export function getPath(document: unknown, path: JsonPath): unknown {
  let at: unknown = document;
  for (const key of segmentsOf(path)) {
    if (Array.isArray(at) && isIndex(key)) at = at[Number(key)];
    else if (at && typeof at === 'object' && !Array.isArray(at) && Object.hasOwn(at, key))
      at = (at as Record<string, unknown>)[key];
    else return undefined;
  }
  return at;
}

/** The object or array holding the last segment of `path`; a missing parent is an error, never created. */
function parentOf(document: unknown, path: JsonPath): { parent: Record<string, unknown> | unknown[]; key: string } {
  const segments = segmentsOf(path);
  if (!segments.length) throw new JsonEditError('an empty path names the whole document');
  const parent = getPath(document, segments.slice(0, -1));
  if (typeof parent !== 'object' || parent === null)
    throw new JsonEditError(`"${segments.join('.')}": its parent is not an object or array in the document`);
  return { parent: parent as Record<string, unknown> | unknown[], key: segments[segments.length - 1]! };
}

/** Sets the value at `path` in place (an array element by index, one past the end appends). */
export function setPath(document: unknown, path: JsonPath, value: unknown): void {
  const { parent, key } = parentOf(document, path);
  if (Array.isArray(parent)) {
    if (!isIndex(key) || Number(key) > parent.length)
      throw new JsonEditError(`"${segmentsOf(path).join('.')}" is not an element of its array`);
    parent[Number(key)] = value;
  } else parent[key] = value;
}

/** Removes the value at `path` in place (an array element is spliced out); removing what is absent is an error. */
export function removePath(document: unknown, path: JsonPath): void {
  if (getPath(document, path) === undefined)
    throw new JsonEditError(`"${segmentsOf(path).join('.')}" is absent from the document: removing it changes nothing`);
  const { parent, key } = parentOf(document, path);
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else delete parent[key];
}
