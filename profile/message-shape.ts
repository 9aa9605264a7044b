/**
 * Messages whose fields the spec does not show (camt.056, camt.029, pacs.007) are built in one
 * canonical ISO 20022 shape and sent in the shape the profile declares: another root element name,
 * or other member names. Answers are read back into the canonical shape the same way, so adapting the
 * suite to a server that spells them differently is a profile change, never a code change.
 */
export interface MessageShape {
  /** The root element the target uses. */
  root: string;
  /** Canonical member name → the target's name, applied at every depth. */
  rename?: Readonly<Record<string, string>>;
}

type Json = unknown;

function renameKeys(value: Json, names: Readonly<Record<string, string>>): Json {
  if (Array.isArray(value)) return value.map((v) => renameKeys(v, names));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [names[k] ?? k, renameKeys(v, names)]));
}

const inverse = (names: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(names).map(([k, v]) => [v, k]));

/** A canonical message `{ [canonicalRoot]: content }` in the declared shape. */
export function toDeclared(
  message: Record<string, Json>,
  canonicalRoot: string,
  shape: MessageShape,
): Record<string, Json> {
  const content = message[canonicalRoot];
  return { [shape.root]: shape.rename ? renameKeys(content, shape.rename) : content };
}

/** The content of a declared-shape answer under its root, with canonical member names; undefined when the root is missing. */
export function fromDeclared(body: Json, shape: MessageShape): Record<string, Json> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const content = (body as Record<string, Json>)[shape.root];
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return undefined;
  return (shape.rename ? renameKeys(content, inverse(shape.rename)) : content) as Record<string, Json>;
}

/**
 * The JSON spellings a root element is met in, from its ISO 20022 XML name: the first letter lowered
 * (`fIToFIPmtRvsl`), the leading word lowered as the spec spells pacs.008 (`FIToFICstmrCdtTrf` →
 * `fitoFICstmrCdtTrf`), and the XML name itself. Discovery tries them when a target refuses the
 * declared one.
 */
export function rootSpellings(xmlName: string): string[] {
  const lowerFirst = xmlName.charAt(0).toLowerCase() + xmlName.slice(1);
  const wordEnd = /[a-z][A-Z]/.exec(xmlName);
  const lowerWord = wordEnd
    ? xmlName.slice(0, wordEnd.index + 1).toLowerCase() + xmlName.slice(wordEnd.index + 1)
    : xmlName.toLowerCase();
  return [...new Set([lowerFirst, lowerWord, xmlName])];
}
