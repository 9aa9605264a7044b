/**
 * Response validation that tells apart what breaks the spec (a missing or mistyped documented field:
 * a failure) from drift (a field the schema does not know: reported, never failed). Schemas are
 * compiled once per process.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  a: Ajv,
) => Ajv;

const strictAjv = addFormats(new Ajv({ allErrors: true, strict: true }));
const cache = new Map<object, { conform: ValidateFunction; closed: ValidateFunction }>();

export interface SchemaVerdict {
  /** Violations of documented fields: each one is a conformance failure. */
  errors: string[];
  /** Fields present in the response that the schema does not describe. */
  unknownFields: string[];
}

const describe = (e: ErrorObject): string =>
  `${e.instancePath || '(root)'} ${e.message ?? ''}${e.keyword === 'enum' ? ` ${JSON.stringify(e.params)}` : ''}`.trim();

/** Closes every object schema (additionalProperties: false) so unknown fields become visible. */
function closeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closeSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema))
    out[k] =
      k === 'properties'
        ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, closeSchema(s)]))
        : closeSchema(v);
  if (out.type === 'object' && out.properties && out.additionalProperties === undefined)
    out.additionalProperties = false;
  if (typeof out.$id === 'string') out.$id = `${out.$id}#closed`;
  return out;
}

export function validateAgainst(schema: object, value: unknown): SchemaVerdict {
  let compiled = cache.get(schema);
  if (!compiled) {
    compiled = { conform: strictAjv.compile(schema), closed: strictAjv.compile(closeSchema(schema) as object) };
    cache.set(schema, compiled);
  }
  const errors = compiled.conform(value) ? [] : (compiled.conform.errors ?? []).map(describe);
  compiled.closed(value);
  const unknownFields = (compiled.closed.errors ?? [])
    .filter((e) => e.keyword === 'additionalProperties')
    .map((e) => `${e.instancePath}/${String((e.params as { additionalProperty: string }).additionalProperty)}`);
  return { errors, unknownFields };
}
