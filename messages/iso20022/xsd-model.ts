/**
 * The content model of an ISO 20022 message definition, read from its official XSD by libxml2's own
 * parser: per complex type, its child elements in order (a sequence) or as alternatives (a choice),
 * or, for a type with simple content (an amount), the attributes it takes. That is all the JSON ↔ XML
 * mapping needs (./xml.ts): element order and which JSON member is an attribute. Every facet stays in
 * the XSD, where libxml2 reads it (./validate.ts); nothing is transcribed here.
 *
 * ISO's definitions are flat: each named complex type holds one sequence or one choice of elements
 * (no groups, no nesting), or a simple content extension; `xs:any` only in supplementary data.
 */
import type { XmlDocument, XmlElement } from 'libxml2-wasm';

const XS = 'http://www.w3.org/2001/XMLSchema';

export interface Particle {
  /** The element's tag, as ISO spells it (MsgId, BICFI, FIToFICstmrCdtTrf). */
  name: string;
  type: string;
  minOccurs: number;
  /** Infinity for unbounded. */
  maxOccurs: number;
}

export type ComplexType =
  | { kind: 'sequence' | 'choice'; children: readonly Particle[] }
  | { kind: 'simpleContent'; attributes: readonly { name: string; required: boolean }[] };

export interface XsdModel {
  /** The message's namespace, urn:iso:std:iso:20022:tech:xsd:<message>. */
  namespace: string;
  /** The type of the Document element: one child, the message's root (FIToFICstmrCdtTrf…). */
  documentType: string;
  complexTypes: ReadonlyMap<string, ComplexType>;
}

const occurs = (value: string | undefined, fallback: number): number =>
  value === undefined ? fallback : value === 'unbounded' ? Number.POSITIVE_INFINITY : Number(value);

function particles(group: XmlElement): Particle[] {
  return group.find('xs:element', { xs: XS }).map((node) => {
    const element = node as XmlElement;
    return {
      name: element.attr('name')?.value ?? '',
      type: element.attr('type')?.value ?? '',
      minOccurs: occurs(element.attr('minOccurs')?.value, 1),
      maxOccurs: occurs(element.attr('maxOccurs')?.value, 1),
    };
  });
}

function complexType(node: XmlElement): ComplexType {
  const simple = node.get('xs:simpleContent/xs:extension', { xs: XS }) as XmlElement | null;
  if (simple)
    return {
      kind: 'simpleContent',
      attributes: simple.find('xs:attribute', { xs: XS }).map((a) => ({
        name: (a as XmlElement).attr('name')?.value ?? '',
        required: (a as XmlElement).attr('use')?.value === 'required',
      })),
    };
  const sequence = node.get('xs:sequence', { xs: XS }) as XmlElement | null;
  if (sequence) return { kind: 'sequence', children: particles(sequence) };
  const choice = node.get('xs:choice', { xs: XS }) as XmlElement | null;
  if (choice) return { kind: 'choice', children: particles(choice) };
  return { kind: 'sequence', children: [] };
}

/** The model of one parsed XSD document. */
export function xsdModel(xsd: XmlDocument): XsdModel {
  const root = xsd.root;
  const namespace = root.attr('targetNamespace')?.value ?? '';
  const document = root.get('xs:element[@name="Document"]', { xs: XS }) as XmlElement | null;
  const documentType = document?.attr('type')?.value;
  if (!documentType) throw new Error(`the XSD of ${namespace} has no Document element`);
  const complexTypes = new Map<string, ComplexType>();
  for (const node of root.find('xs:complexType', { xs: XS })) {
    const element = node as XmlElement;
    complexTypes.set(element.attr('name')?.value ?? '', complexType(element));
  }
  return { namespace, documentType, complexTypes };
}
