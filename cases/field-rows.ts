/**
 * The one format of negative cases: rows of (path, kind, invalid values, rule). A row names a field of
 * a message, its JSON kind, whether the spec requires it and the values of the right kind the spec
 * excludes; from it come the "removed", "wrong type" and "value not allowed" mutations. A mutation is
 * data, a list of edits, applied by `applyEdits` through the one JSON path editor (messages/json-edit.ts).
 *
 * A value that depends on a message is named, not computed by a function of the table: `twinValue`
 * reads the valid twin as it was sent (a reused identifier), `ownValue` the mutant's own content before
 * any edit, optionally changed by one named transformation (negated, check digits broken...).
 */
import { getPath, removePath, setPath } from '../messages/json-edit';

/** JSON kinds of the spec's field tables: each gives the value of the "wrong type" mutant. */
export type FieldKind = 'string' | 'digitString' | 'object' | 'array' | 'stringArray' | 'number';

export interface LabelledValue {
  label: string;
  value: unknown;
}

export const labelled = (label: string, value: unknown): LabelledValue => ({ label, value });

/**
 * The wrong-type value of each kind: a value of another JSON type than the field's, one no reading
 * takes for the field. Not a scalar for a scalar: common JSON stacks coerce a number to a string
 * field and a digit string to a number (Jackson's defaults, pydantic's lax mode), so a target that
 * reads 12345 as "12345" still reads a valid message; nothing reads an object as a string or a number.
 */
export const WRONG_TYPE: Readonly<Record<FieldKind, LabelledValue>> = {
  string: labelled('an object', { text: 'x' }),
  digitString: labelled('an object', { value: '1' }),
  object: labelled('a string', 'text'),
  array: labelled('an object', {}),
  stringArray: labelled('an object', { line: 'x' }),
  number: labelled('an object', { value: 10 }),
};

/** Named changes of a value read from a message (`ownValue`, `twinValue`). */
export interface Transformation {
  /** Minus the absolute value (a number). */
  negated?: true;
  /** Plus this many pounds or euros, rounded to the cent. */
  plus?: number;
  /** Times this factor, rounded to the cent. */
  times?: number;
  /** This text appended (a string). */
  suffix?: string;
  /** The IBAN with its check digits changed, so that mod-97 fails. */
  ibanCheckDigitsBroken?: true;
  /** The IBAN in its print format: groups of four separated by spaces (ISO 13616's paper form). */
  ibanPrintFormat?: true;
  /** Another UUID of the same version, derived from this one (its first group plus one): unique as it is. */
  otherUuid?: true;
  /** The value followed by these in an array (a second occurrence). */
  followedBy?: unknown[];
}

/** A value read from a message when the case is applied. */
export class MessageValue {
  constructor(
    readonly from: 'twin' | 'own',
    readonly path: string,
    readonly transformation: Transformation = {},
  ) {}
}

/** The value at `path` of the valid twin as it was sent: a case that needs the twin's state (a reused rtrId). */
export const twinValue = (path: string, transformation?: Transformation): MessageValue =>
  new MessageValue('twin', path, transformation);
/** The value at `path` of the mutant's own message before any edit. */
export const ownValue = (path: string, transformation?: Transformation): MessageValue =>
  new MessageValue('own', path, transformation);

/** One edit of a message: a value set (an array index one past the end appends) or removed. `path` '' names the whole message. */
export type Edit = { readonly path: string; readonly set: unknown } | { readonly path: string; readonly remove: true };

export const set = (path: string, value: unknown): Edit => ({ path, set: value });
export const remove = (path: string): Edit => ({ path, remove: true });

/** The first of `cases` for each key, in order: one case of each field (or field and rule) where its siblings add nothing. */
export function firstPerKey<C>(cases: readonly C[], key: (c: C) => string): C[] {
  const seen = new Set<string>();
  return cases.filter((c) => {
    const k = key(c);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Changes the last check digit pair of an IBAN: mod-97 then fails (any single change of the check digits does). */
export function breakIbanCheckDigits(iban: string): string {
  const digits = Number(iban.slice(2, 4));
  const other = digits === 98 ? 2 : digits + 1;
  return `${iban.slice(0, 2)}${String(other).padStart(2, '0')}${iban.slice(4)}`;
}

/** The UUID with its first group plus one (mod 2^32): version and variant, in later groups, stay. */
export function otherUuid(uuid: string): string {
  const next = ((Number.parseInt(uuid.slice(0, 8), 16) + 1) >>> 0).toString(16).padStart(8, '0');
  return `${next}${uuid.slice(8)}`;
}

const toCents = (value: number): number => Math.round(value * 100) / 100;

function transform(value: unknown, t: Transformation): unknown {
  let out = structuredClone(value);
  if (t.negated) out = -Math.abs(out as number);
  if (t.plus !== undefined) out = toCents((out as number) + t.plus);
  if (t.times !== undefined) out = toCents((out as number) * t.times);
  if (t.suffix !== undefined) out = `${String(out)}${t.suffix}`;
  if (t.ibanCheckDigitsBroken) out = breakIbanCheckDigits(out as string);
  if (t.ibanPrintFormat) out = (out as string).replace(/(.{4})(?=.)/g, '$1 ');
  if (t.otherUuid) out = otherUuid(out as string);
  if (t.followedBy) out = [out, ...t.followedBy];
  return out;
}

function resolve(value: unknown, own: unknown, twin: unknown): unknown {
  if (!(value instanceof MessageValue)) return structuredClone(value);
  const source = value.from === 'twin' ? twin : own;
  if (source === undefined)
    throw new Error(
      `a case reads ${value.path} of the ${value.from === 'twin' ? 'valid twin, which was not given' : 'message'}`,
    );
  const read = value.path === '' ? source : getPath(source, value.path);
  if (read === undefined)
    throw new Error(`a case reads ${value.path}, absent from the ${value.from === 'twin' ? 'valid twin' : 'message'}`);
  return transform(read, value.transformation);
}

/**
 * The message with the edits applied, in order, in place (the result is the message, or what an edit
 * of the whole message put there). Every value is read before the first edit, so two edits reading one
 * field see the same value.
 */
export function applyEdits<T>(message: T, edits: readonly Edit[], context: { twin?: unknown } = {}): T {
  const own = structuredClone(message);
  const values = edits.map((e) => ('set' in e ? resolve(e.set, own, context.twin) : undefined));
  let out: unknown = message;
  edits.forEach((e, i) => {
    if (e.path === '') {
      if (!('set' in e)) throw new Error('a case cannot remove the whole message');
      out = values[i];
    } else if ('set' in e) setPath(out, e.path, values[i]);
    else removePath(out, e.path);
  });
  return out as T;
}

/** A field of a message table: one row, many cases. */
export interface FieldRow {
  path: string;
  rules: string[];
  kind: FieldKind;
  required?: boolean;
  /** Values of the right kind that the spec excludes. */
  invalid?: LabelledValue[];
  /** The wrong-type value when the kind's own could be read as allowed (a digit string where §2.2 sends one). */
  wrongType?: LabelledValue;
}

export type MutationKind = 'removed' | 'wrongType' | 'invalid';

/** One mutation a row gives: what it is, the value it sets (none for a removal) and its edit. */
export interface RowMutation {
  kind: MutationKind;
  label: string;
  edits: Edit[];
  /** The invalid value's index in the row (kind invalid), for tables that attach more to a value. */
  index?: number;
}

/** A row's mutations: removed (when required), the wrong type, then every value not allowed. */
export function mutationsOf(row: FieldRow): RowMutation[] {
  const out: RowMutation[] = [];
  if (row.required) out.push({ kind: 'removed', label: 'removed', edits: [remove(row.path)] });
  const wrong = row.wrongType ?? WRONG_TYPE[row.kind];
  out.push({ kind: 'wrongType', label: wrong.label, edits: [set(row.path, wrong.value)] });
  for (const [index, bad] of (row.invalid ?? []).entries())
    out.push({
      kind: 'invalid',
      label: bad.label,
      edits: [set(row.path, bad.value)],
      index,
    });
  return out;
}

const prefixed = (root: string, path: string): string => (path === '' ? root : `${root}.${path}`);

/** The edits with every path, theirs and the values' they read, under `root` (a table written relative to the root element). */
export const under = (root: string, edits: readonly Edit[]): Edit[] =>
  edits.map((e) => {
    if (!('set' in e)) return remove(prefixed(root, e.path));
    const value =
      e.set instanceof MessageValue
        ? new MessageValue(e.set.from, prefixed(root, e.set.path), e.set.transformation)
        : e.set;
    return set(prefixed(root, e.path), value);
  });
