/**
 * The content model of an ISO 20022 message definition, read from its official XSD by libxml2's own
 * parser: per complex type, its child elements in order (a sequence) or as alternatives (a choice),
 * or, for a type with simple content (an amount), its text's type and the attributes it takes; per
 * simple type, the built-in type it restricts and its facets, as the XSD writes them. The mapping
 * (./xml.ts) needs the element order and which JSON member is an attribute; the proof (./proof.ts)
 * reads the facets where the XSD has them. Nothing is transcribed here.
 *
 * ISO's definitions are flat: each named complex type holds one sequence or one choice of elements
 * (no groups, no nesting), or a simple content extension; `xs:any` only in supplementary data. A type
 * built otherwise is marked `open`: the model does not say all it allows or requires.
 */
import type { XmlDocument, XmlElement, XmlTreeNode } from 'libxml2-wasm';

const XS = 'http://www.w3.org/2001/XMLSchema';

export interface Particle {
  /** The element's tag, as ISO spells it (MsgId, BICFI, FIToFICstmrCdtTrf). */
  name: string;
  type: string;
  minOccurs: number;
  /** Infinity for unbounded. */
  maxOccurs: number;
}

export interface Attribute {
  name: string;
  type: string;
  required: boolean;
}

export type ComplexType =
  | { kind: 'sequence' | 'choice'; children: readonly Particle[]; open?: true }
  | { kind: 'simpleContent'; base: string; attributes: readonly Attribute[]; open?: true };

/** A facet as the XSD writes it: `maxLength` "35", `pattern` "[A-Z]{3,3}", `enumeration` "CHQB". */
export interface Facet {
  name: string;
  value: string;
}

export interface SimpleType {
  /** The type it restricts, as the XSD names it: a built-in one (xs:string) or another of the XSD's. */
  base: string;
  facets: readonly Facet[];
}

export interface XsdModel {
  /** The message's namespace, urn:iso:std:iso:20022:tech:xsd:<message>. */
  namespace: string;
  /** The type of the Document element: one child, the message's root (FIToFICstmrCdtTrf…). */
  documentType: string;
  complexTypes: ReadonlyMap<string, ComplexType>;
  simpleTypes: ReadonlyMap<string, SimpleType>;
}

const occurs = (value: string | undefined, fallback: number): number =>
  value === undefined ? fallback : value === 'unbounded' ? Number.POSITIVE_INFINITY : Number(value);

// Only an element reads attributes (libxml2-wasm's classes are not loaded here: it is imported asynchronously).
const isElement = (node: XmlTreeNode): node is XmlElement => 'attr' in node;

/**
 * The element children of a node in the XML Schema namespace, but its annotations. A walk of the
 * tree, not XPath: libxml2-wasm compiles and evaluates each query anew, and an XSD holds hundreds of
 * types, read in every process that loads it.
 */
function xsChildren(node: XmlElement): XmlElement[] {
  const found: XmlElement[] = [];
  for (let child = node.firstChild; child; child = child.next)
    if (isElement(child) && child.namespaceUri === XS && child.name !== 'annotation') found.push(child);
  return found;
}

const attr = (node: XmlElement, name: string): string | undefined => node.attr(name)?.value;

/** What ISO's element declarations carry; another (nillable, default, fixed, ref…) opens the type. */
const PARTICLE_ATTRIBUTES = new Set(['name', 'type', 'minOccurs', 'maxOccurs']);

function particles(group: XmlElement): { children: Particle[]; open: boolean } {
  const nodes = xsChildren(group);
  const elements = nodes.filter((n) => n.name === 'element');
  return {
    children: elements.map((element) => ({
      name: attr(element, 'name') ?? '',
      type: attr(element, 'type') ?? '',
      minOccurs: occurs(attr(element, 'minOccurs'), 1),
      maxOccurs: occurs(attr(element, 'maxOccurs'), 1),
    })),
    // A wildcard (xs:any), a nested group, an occurrence on the group itself, an element by reference.
    open:
      elements.length !== nodes.length ||
      attr(group, 'minOccurs') !== undefined ||
      attr(group, 'maxOccurs') !== undefined ||
      elements.some(
        (e) =>
          attr(e, 'name') === undefined ||
          attr(e, 'type') === undefined ||
          e.attrs.some((a) => !PARTICLE_ATTRIBUTES.has(a.name)),
      ),
  };
}

function complexType(node: XmlElement): ComplexType {
  const [content, ...more] = xsChildren(node);
  const open = more.length > 0 || node.attrs.some((a) => a.name !== 'name') ? { open: true as const } : {};
  if (content?.name === 'simpleContent') {
    const [extension, ...others] = xsChildren(content);
    const attributes = extension?.name === 'extension' ? xsChildren(extension) : [];
    return {
      kind: 'simpleContent',
      base: (extension && attr(extension, 'base')) ?? '',
      attributes: attributes.map((a) => ({
        name: attr(a, 'name') ?? '',
        type: attr(a, 'type') ?? '',
        required: attr(a, 'use') === 'required',
      })),
      ...(others.length > 0 || extension?.name !== 'extension' || attributes.some((a) => a.name !== 'attribute')
        ? { open: true as const }
        : open),
    };
  }
  if (content?.name === 'sequence' || content?.name === 'choice') {
    const group = particles(content);
    return { kind: content.name, children: group.children, ...(group.open ? { open: true as const } : open) };
  }
  return { kind: 'sequence', children: [], ...(content ? { open: true as const } : open) };
}

function simpleType(node: XmlElement): SimpleType {
  const [restriction, ...more] = xsChildren(node);
  if (restriction?.name !== 'restriction' || more.length > 0) return { base: '', facets: [] };
  return {
    base: attr(restriction, 'base') ?? '',
    facets: xsChildren(restriction).map((f) => ({ name: f.name, value: attr(f, 'value') ?? '' })),
  };
}

/** The model of one parsed XSD document. */
export function xsdModel(xsd: XmlDocument): XsdModel {
  const root = xsd.root;
  const namespace = attr(root, 'targetNamespace') ?? '';
  const complexTypes = new Map<string, ComplexType>();
  const simpleTypes = new Map<string, SimpleType>();
  let documentType: string | undefined;
  for (const node of xsChildren(root)) {
    const name = attr(node, 'name') ?? '';
    if (node.name === 'complexType') complexTypes.set(name, complexType(node));
    else if (node.name === 'simpleType') simpleTypes.set(name, simpleType(node));
    else if (node.name === 'element' && name === 'Document') documentType = attr(node, 'type');
  }
  if (!documentType) throw new Error(`the XSD of ${namespace} has no Document element`);
  return { namespace, documentType, complexTypes, simpleTypes };
}
