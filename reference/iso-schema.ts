/**
 * The reference's reading of ISO 20022 (spec/iso20022/, ISO's XSDs unchanged), as a hub reads it:
 * the JSON request turned into the XML its version defines and validated by libxml2 before anything
 * else looks at it (dialect isoValidation "xsd": refused with libxml2's own words, naming the element
 * it expected in ISO's spelling), and the incoming pacs.008 served as ISO defines it (members no
 * definition knows are not served).
 *
 * The reference's own reading, not the suite's: a JSON member is the element whose tag it spells,
 * whatever the case (no two siblings of ISO's differ only by case), written in the order the XSD's
 * sequence gives; an amount's `value` is its text and its other members its attributes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { XmlDocument, XmlElement, XsdValidator } from 'libxml2-wasm';

const XSD_DIR = path.resolve(__dirname, '..', 'spec', 'iso20022');
const XS = { xs: 'http://www.w3.org/2001/XMLSchema' };

type Libxml2 = typeof import('libxml2-wasm');

interface Child {
  tag: string;
  type: string;
  order: number;
}

/** A complex type: its children by lower-cased tag, or, for an amount, its attributes by lower-cased name. */
interface TypeModel {
  children: Map<string, Child>;
  attributes: Map<string, string>;
  simpleContent: boolean;
}

interface Definition {
  namespace: string;
  rootType: string;
  types: Map<string, TypeModel>;
  validator: XsdValidator;
}

let lib: Libxml2 | undefined;
let loading: Promise<void> | undefined;
const definitions = new Map<string, Definition>();

/** libxml2, loaded once per process; the routes that need it wait for it (server.ts). */
export function loadIsoSchemas(): Promise<void> {
  loading ??= import('libxml2-wasm').then((m) => {
    lib = m as Libxml2;
  });
  return loading;
}

function definition(message: string): Definition {
  const cached = definitions.get(message);
  if (cached) return cached;
  if (!lib) throw new Error('libxml2 is not loaded (loadIsoSchemas)');
  const doc: XmlDocument = lib.XmlDocument.fromBuffer(readFileSync(path.join(XSD_DIR, `${message}.xsd`)));
  const types = new Map<string, TypeModel>();
  for (const node of doc.root.find('xs:complexType', XS)) {
    const complex = node as XmlElement;
    const children = new Map<string, Child>();
    complex.find('xs:sequence/xs:element | xs:choice/xs:element', XS).forEach((el, order) => {
      const tag = (el as XmlElement).attr('name')?.value ?? '';
      children.set(tag.toLowerCase(), { tag, type: (el as XmlElement).attr('type')?.value ?? '', order });
    });
    const attributes = new Map<string, string>();
    for (const a of complex.find('xs:simpleContent/xs:extension/xs:attribute', XS)) {
      const name = (a as XmlElement).attr('name')?.value ?? '';
      attributes.set(name.toLowerCase(), name);
    }
    types.set(complex.attr('name')?.value ?? '', {
      children,
      attributes,
      simpleContent: complex.get('xs:simpleContent', XS) !== null,
    });
  }
  const document = doc.root.get('xs:element[@name="Document"]', XS) as XmlElement;
  const made: Definition = {
    namespace: doc.root.attr('targetNamespace')?.value ?? '',
    rootType: document.attr('type')?.value ?? '',
    types,
    validator: lib.XsdValidator.fromDoc(doc),
  };
  definitions.set(message, made);
  return made;
}

const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  // A decimal never in exponent form: 1e21 and 1e-7 as the digits they stand for.
  if (typeof value === 'number' && Number.isFinite(value) && /e/.test(String(value)))
    return Math.abs(value) >= 1 ? BigInt(value).toString() : value.toFixed(20).replace(/0+$/, '');
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value) ?? '';
};

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\n': '&#10;',
  '\r': '&#13;',
};
const escaped = (s: string): string => s.replace(/[&<>"\n\r]/g, (c) => ESCAPES[c]!);

/** `value` as the element `tag` of type `typeName`: its text, its attributes (an amount's Ccy) or its children in the XSD's order. */
function xmlOf(def: Definition, tag: string, typeName: string | undefined, value: unknown): string {
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !def.types.get(typeName ?? '')?.simpleContent
  )
    return `<${tag}>${childrenOf(def, typeName, value as Record<string, unknown>)}</${tag}>`;
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((item) => xmlOf(def, tag, typeName, item)).join('');
  const type = typeName ? def.types.get(typeName) : undefined;
  if (typeof value !== 'object') return `<${tag}>${escaped(text(value))}</${tag}>`;
  const members = Object.entries(value as Record<string, unknown>);
  if (type?.simpleContent) {
    const attributes = members
      .filter(([key]) => key !== 'value')
      .map(([key, v]) => ` ${type.attributes.get(key.toLowerCase()) ?? key}="${escaped(text(v))}"`);
    const own = members.find(([key]) => key === 'value')?.[1];
    return `<${tag}${attributes.join('')}>${own === undefined ? '' : escaped(text(own))}</${tag}>`;
  }
  return '';
}

/** An object's members as the child elements of its type, in the order its sequence gives; unknown ones last. */
function childrenOf(def: Definition, typeName: string | undefined, members: Record<string, unknown>): string {
  const type = typeName ? def.types.get(typeName) : undefined;
  return Object.entries(members)
    .map(([key, v], i) => ({ v, child: type?.children.get(key.toLowerCase()), key, rank: 1e6 + i }))
    .sort((a, b) => (a.child?.order ?? a.rank) - (b.child?.order ?? b.rank))
    .map(({ v, child, key }) => xmlOf(def, child?.tag ?? key, child?.type, v))
    .join('');
}

/** libxml2's words without the namespace braces: "Element 'CreDtTm': This element is not expected. Expected is ( MsgId )." */
const plain = (message: string): string => message.replace(/\{urn:[^}]*\}/g, '').trim();

export interface IsoError {
  message: string;
  /** libxml2's XPath of the element (positional: /*\/*\/*[2]). */
  xpath: string;
}

/** The errors libxml2 finds in `json` as the ISO message `message`; none when it is valid. */
export function isoErrors(message: string, json: unknown): IsoError[] {
  if (!lib) throw new Error('libxml2 is not loaded (loadIsoSchemas)');
  const def = definition(message);
  let parsed: XmlDocument | undefined;
  try {
    parsed = lib.XmlDocument.fromString(
      `<Document xmlns="${def.namespace}">${
        typeof json === 'object' && json !== null && !Array.isArray(json)
          ? childrenOf(def, def.rootType, json as Record<string, unknown>)
          : escaped(text(json))
      }</Document>`,
    );
    def.validator.validate(parsed);
    return [];
  } catch (error) {
    if (error instanceof lib.XmlValidateError)
      return error.details.map((d) => ({ message: plain(d.message), xpath: d.xpath ?? '' }));
    // What no XML can hold (a JSON nested deeper than the stack, a name no element may have).
    return [{ message: `not an ISO 20022 ${message} document: ${String(error)}`, xpath: '/' }];
  } finally {
    parsed?.dispose();
  }
}

/**
 * The content of a message's root element as ISO defines it: members the message's definition does
 * not know are left out, at every depth.
 */
export function isoPrunedContent(message: string, content: Record<string, unknown>): Record<string, unknown> {
  const def = definition(message);
  const prune = (value: unknown, typeName: string | undefined): unknown => {
    if (Array.isArray(value)) return value.map((v) => prune(v, typeName));
    const type = typeName ? def.types.get(typeName) : undefined;
    if (typeof value !== 'object' || value === null || !type || type.simpleContent) return value;
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).flatMap(([key, v]) => {
        const child = type.children.get(key.toLowerCase());
        return child ? [[key, prune(v, child.type)]] : [];
      }),
    );
  };
  const [root] = def.types.get(def.rootType)?.children.values() ?? [];
  return prune(content, root?.type) as Record<string, unknown>;
}
