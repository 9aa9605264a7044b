/**
 * The one mapping between the API's JSON and ISO 20022 XML (README.md here: the rule and its
 * irregular cases). A JSON message becomes the XML document its XSD describes, in the XSD's element
 * order, one element per line, with a map from each line back to the JSON path it came from: libxml2
 * reports a line, the suite names a field.
 *
 * The mapping never judges. A member no definition knows is written as an element of its own name
 * where the XSD will refuse it, a string where an element wants children stays text, an object where
 * a value is wanted becomes children: whatever is wrong with the JSON is wrong with the XML, and
 * libxml2 says what.
 */
import type { Attribute, ComplexType, Particle, XsdModel } from './xsd-model';

/** The XML of one message and, per line (1-based), the JSON path and XSD type of the element that starts there. */
export interface MappedXml {
  xml: string;
  pathAt: readonly string[];
  /** The element's type as its XSD declares it (Max35Text, ActiveCurrencyAndAmount); '' where none does. */
  typeAt: readonly string[];
}

const upperFirst = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The JSON names of an XML tag: its first letter lower-cased (MsgId → msgId, AnyBIC → anyBIC), or its
 * whole leading run of capitals lower-cased as Java's bean naming writes it (FIToFICstmrCdtTrf →
 * fitoFICstmrCdtTrf, BICFI → bicfi, IBAN → iban, UETR → uetr), or the tag itself (the spec's Flr).
 */
export function jsonNamesOf(tag: string): string[] {
  const run = /^[A-Z]*/.exec(tag)?.[0] ?? '';
  const bean = run.toLowerCase() + tag.slice(run.length);
  return [...new Set([tag.charAt(0).toLowerCase() + tag.slice(1), bean, tag])];
}

/** Per complex type, its particles by every JSON name they are read under (built once a type). */
const particlesByName = new WeakMap<ComplexType, ReadonlyMap<string, Particle>>();

/** The particle of a complex type a JSON member names, if any: how the mapping, the proof and `requires` read a member. */
export function particleFor(type: ComplexType | undefined, key: string): Particle | undefined {
  if (!type || type.kind === 'simpleContent') return undefined;
  let byName = particlesByName.get(type);
  if (!byName) {
    byName = new Map(type.children.flatMap((p) => jsonNamesOf(p.name).map((name) => [name, p] as const)));
    particlesByName.set(type, byName);
  }
  return byName.get(key);
}

/** The attribute of a type with simple content a JSON member names, if any (an amount's `ccy` is its Ccy). */
export function attributeFor(type: ComplexType | undefined, key: string): Attribute | undefined {
  return type?.kind === 'simpleContent' ? type.attributes.find((a) => jsonNamesOf(a.name).includes(key)) : undefined;
}

const escapeText = (s: string): string =>
  s.replace(
    /[&<>\r\n\t]/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;', '\n': '&#10;', '\t': '&#9;' })[ch]!,
  );
const escapeAttr = (s: string): string => escapeText(s).replace(/"/g, '&quot;');

/** A JSON number as an xs:decimal: never in exponent form (1e21 is 1000000000000000000000). */
export function plainNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const text = String(n);
  if (!/e/i.test(text)) return text;
  const [mantissa = '', exponentText = '0'] = text.toLowerCase().split('e');
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const [whole = '', fraction = ''] = mantissa.replace('-', '').split('.');
  const digits = whole + fraction;
  const point = whole.length + exponent;
  const plain =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + plain;
}

/** The text the mapping writes for a JSON value that is not an object. */
export const scalarText = (value: unknown): string =>
  typeof value === 'number' ? plainNumber(value) : typeof value === 'string' ? value : String(JSON.stringify(value));

class Writer {
  readonly lines: string[] = [];
  readonly paths: string[] = [];
  readonly types: string[] = [];
  line(text: string, jsonPath: string, type = ''): void {
    this.lines.push(text);
    this.paths.push(jsonPath);
    this.types.push(type);
  }
}

const childPath = (parent: string, key: string): string => (parent ? `${parent}.${key}` : key);

/**
 * One JSON value as the element `tag` of type `typeName` (undefined: a member no definition knows).
 * Arrays repeat the element; null is no element (the spec's "array of strings that may contain null
 * entries" holds nothing there); an amount {value, ccy} is the element's text and its Ccy attribute.
 */
function writeElement(
  out: Writer,
  model: XsdModel,
  tag: string,
  typeName: string | undefined,
  value: unknown,
  jsonPath: string,
): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) writeElement(out, model, tag, typeName, item, `${jsonPath}[${i}]`);
    return;
  }
  const type = typeName ? model.complexTypes.get(typeName) : undefined;
  if (typeof value !== 'object') {
    out.line(`<${tag}>${escapeText(scalarText(value))}</${tag}>`, jsonPath, typeName);
    return;
  }
  const members = value as Record<string, unknown>;
  if (type?.kind === 'simpleContent') {
    const attributes = Object.entries(members)
      .filter(([key]) => key !== 'value')
      .map(([key, v]) => ` ${attributeFor(type, key)?.name ?? upperFirst(key)}="${escapeAttr(scalarText(v))}"`)
      .join('');
    const text = 'value' in members ? escapeText(scalarText(members.value)) : '';
    out.line(`<${tag}${attributes}>${text}</${tag}>`, jsonPath, typeName);
    return;
  }
  out.line(`<${tag}>`, jsonPath, typeName);
  writeMembers(out, model, type, members, jsonPath);
  out.line(`</${tag}>`, jsonPath);
}

/** An object's members as child elements, in the order the type's sequence gives; members it does not know last. */
function writeMembers(
  out: Writer,
  model: XsdModel,
  type: ComplexType | undefined,
  members: Record<string, unknown>,
  jsonPath: string,
): void {
  const order = type && type.kind !== 'simpleContent' ? type.children : [];
  const placed = Object.keys(members).map((key, index) => {
    const particle = particleFor(type, key);
    const rank = particle ? order.indexOf(particle) : order.length + index;
    return { key, particle, rank };
  });
  placed.sort((a, b) => a.rank - b.rank);
  for (const { key, particle } of placed)
    writeElement(out, model, particle?.name ?? upperFirst(key), particle?.type, members[key], childPath(jsonPath, key));
}

/** The XML document a JSON message is, under the XSD's Document element and namespace. */
export function toIsoXml(model: XsdModel, message: unknown): MappedXml {
  const out = new Writer();
  out.line(`<Document xmlns="${model.namespace}">`, '');
  if (typeof message === 'object' && message !== null && !Array.isArray(message))
    writeMembers(out, model, model.complexTypes.get(model.documentType), message as Record<string, unknown>, '');
  else if (message !== undefined) out.line(escapeText(scalarText(message)), '');
  out.line('</Document>', '');
  return { xml: out.lines.join('\n'), pathAt: ['', ...out.paths], typeAt: ['', ...out.types] };
}
