/**
 * A JSON message held to its ISO 20022 version's official XSD by libxml2 (libxml2-wasm: the library
 * itself compiled to WebAssembly, no native build): the message is mapped to XML (./xml.ts) and
 * validated by libxml2's schema validator, each schema parsed once per process. Each finding names the
 * JSON field, its value and what libxml2 says it breaks, in ISO's words (the facet and the type).
 * A message the quick proof (./proof.ts) shows valid is not handed to libxml2: it would accept it.
 *
 * libxml2-wasm is an ES module with top-level await: it is loaded once, asynchronously
 * (`loadIsoSchemas`); validation itself is synchronous and takes a fraction of a millisecond.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { XmlDocument as XmlDocumentType, XsdValidator as XsdValidatorType } from 'libxml2-wasm';
import { ISO_MESSAGES, type IsoMessage } from './versions';
import { xsdModel, type XsdModel } from './xsd-model';
import { attributeFor, particleFor, toIsoXml, type MappedXml } from './xml';
import { validityProof } from './proof';

export const ISO_XSD_DIR = path.resolve(__dirname, '..', '..', 'spec', 'iso20022');

type Libxml2 = typeof import('libxml2-wasm');

export interface IsoFinding {
  /** The JSON path of the element libxml2 names ('' for the document). */
  path: string;
  /** The JSON value at that path, when it is a single value. */
  value?: unknown;
  /** What libxml2 says, without its namespace braces: "[facet 'maxLength'] The value has a length of '36'…". */
  message: string;
}

export interface IsoVerdict {
  message: IsoMessage;
  valid: boolean;
  findings: IsoFinding[];
}

interface LoadedSchema {
  model: XsdModel;
  proof: (message: unknown) => boolean;
  /** libxml2's compiled schema, made when a message first needs it. */
  validator: () => XsdValidatorType;
}

export interface IsoSchemas {
  /** The message held to its XSD (by libxml2 alone, not first by the quick proof, with `libxml2Only`). */
  validate(message: IsoMessage, json: unknown, options?: { libxml2Only?: boolean }): IsoVerdict;
  /** Whether the XSD requires the member a JSON path names in its parent (minOccurs ≥ 1); undefined where no definition knows the path. */
  requires(message: IsoMessage, jsonPath: string): boolean | undefined;
}

let loading: Promise<IsoSchemas> | undefined;

/**
 * libxml2 and the XSDs, loaded once per process; a schema is parsed when first used.
 *
 * V8 first compiles WebAssembly with its baseline compiler (Liftoff), then recompiles the functions
 * it sees run with its optimizing one on background threads: for libxml2, a tenth of a CPU-second
 * at its import and more with each schema, in every process that loads it (each worker, each worker
 * restarted after a failure), to speed up validations that take a fraction of a millisecond either
 * way. So the process keeps the baseline code: V8 reads `--liftoff-only` when it compiles a module,
 * which is why it can be set here, before libxml2 is compiled (NODE_OPTIONS does not take it). It
 * also holds for any WebAssembly the process compiles later (undici's HTTP parser, if not yet).
 */
export function loadIsoSchemas(): Promise<IsoSchemas> {
  if (!loading) {
    setFlagsFromString('--liftoff-only');
    loading = import('libxml2-wasm').then((lib) => schemasWith(lib as Libxml2));
  }
  return loading;
}

function schemasWith(lib: Libxml2): IsoSchemas {
  const schemas = new Map<IsoMessage, LoadedSchema>();
  const schemaOf = (message: IsoMessage): LoadedSchema => {
    let loaded = schemas.get(message);
    if (!loaded) {
      if (!(ISO_MESSAGES as readonly string[]).includes(message)) throw new Error(`no XSD for ${message}`);
      const doc: XmlDocumentType = lib.XmlDocument.fromBuffer(readFileSync(path.join(ISO_XSD_DIR, `${message}.xsd`)));
      const model = xsdModel(doc);
      // The schema document stays alive with its validator for the process's life.
      let validator: XsdValidatorType | undefined;
      loaded = { model, proof: validityProof(model), validator: () => (validator ??= lib.XsdValidator.fromDoc(doc)) };
      schemas.set(message, loaded);
    }
    return loaded;
  };
  const api: IsoSchemas = {
    requires(message, jsonPath) {
      const { model } = schemaOf(message);
      return requiredIn(model, jsonPath);
    },
    validate(message, json, options) {
      const { model, proof, validator } = schemaOf(message);
      if (!options?.libxml2Only && proof(json)) return { message, valid: true, findings: [] };
      let mapped: ReturnType<typeof toIsoXml>;
      try {
        mapped = toIsoXml(model, json);
      } catch (error) {
        // Nothing a message could be (a JSON nested deeper than the stack) maps to no document at all.
        return {
          message,
          valid: false,
          findings: [{ path: '', message: `not an ISO 20022 document: ${String(error)}` }],
        };
      }
      let doc: XmlDocumentType | undefined;
      try {
        doc = lib.XmlDocument.fromString(mapped.xml);
        validator().validate(doc);
        return { message, valid: true, findings: [] };
      } catch (error) {
        // A character XML 1.0 forbids (a control character in a value) makes no document: libxml2's parser says where.
        if (!(error instanceof lib.XmlValidateError || error instanceof lib.XmlParseError)) throw error;
        return { message, valid: false, findings: findingsOf(error.details, mapped, json) };
      } finally {
        doc?.dispose();
      }
    },
  };
  return api;
}

/** The particle a dotted JSON path (array indexes left out) ends in, walked from the Document, and whether it is required there. */
function requiredIn(model: XsdModel, jsonPath: string): boolean | undefined {
  let type = model.complexTypes.get(model.documentType);
  let last: { minOccurs: number } | undefined;
  for (const step of jsonPath.split('.').filter((s) => s !== '' && !/^\d+$/.test(s))) {
    // An amount's value is its text; its other members are attributes (Ccy, use="required").
    if (type?.kind === 'simpleContent') return step === 'value' || attributeFor(type, step)?.required === true;
    if (!type) return undefined;
    const particle = particleFor(type, step);
    if (!particle) return undefined;
    last = particle;
    type = model.complexTypes.get(particle.type);
  }
  return last ? last.minOccurs >= 1 : undefined;
}

const withoutNamespaces = (text: string): string => text.replace(/\{(?:urn|https?):[^}]*\}/g, '').trim();

function valueAt(json: unknown, jsonPath: string): unknown {
  let value: unknown = json;
  for (const step of jsonPath.match(/[^.[\]]+/g) ?? []) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[step];
  }
  return value;
}

/**
 * One finding per element libxml2 names: its words, and for a facet the type whose facet it is
 * (libxml2 names the facet, the XSD the type: "[facet 'maxLength'] … '35'. (Max35Text)").
 */
function findingsOf(
  details: ReadonlyArray<{ message: string; line: number }>,
  mapped: MappedXml,
  json: unknown,
): IsoFinding[] {
  const byLine = new Map<number, string[]>();
  for (const d of details) byLine.set(d.line, [...(byLine.get(d.line) ?? []), withoutNamespaces(d.message)]);
  return [...byLine].map(([line, messages]) => {
    const jsonPath = mapped.pathAt[line] ?? '';
    const value = valueAt(json, jsonPath);
    const type = mapped.typeAt[line];
    const facet = messages.find((m) => m.includes('[facet'));
    const words = facet
      ? `${facet.replace(/^Element '[^']+'(, attribute '[^']+')?: /, (_m, attr?: string) => (attr ? `${attr.slice(2)}: ` : ''))}${type ? ` (${type})` : ''}`
      : messages.join(' ');
    return {
      path: jsonPath,
      ...(value !== undefined && (typeof value !== 'object' || value === null) ? { value } : {}),
      message: words,
    };
  });
}
