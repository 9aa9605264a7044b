/**
 * profile/profile-schema.ts is the one source of a profile's shape; environments/profile.schema.json
 * is generated from it for editors, and environments/README.md explains each field. These tests fail
 * when the generated file is stale, when a profile in environments/ would not validate in an editor,
 * and when a field has no word in the README.
 * Run: node --import tsx --test tests/unit/profile/profile-schema.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { environmentsDir, listProfileNames } from '../../../profile/profile';
import { profileSchemaDocument } from '../../../profile/profile-schema';

const SCHEMA_FILE = path.join(environmentsDir, 'profile.schema.json');
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  a: Ajv,
) => Ajv;

test('environments/profile.schema.json is what profile/profile-schema.ts generates (else: npm run profile-schema)', () => {
  assert.ok(existsSync(SCHEMA_FILE), 'environments/profile.schema.json is missing: run npm run profile-schema');
  assert.equal(
    readFileSync(SCHEMA_FILE, 'utf8'),
    profileSchemaDocument(),
    'environments/profile.schema.json is stale: run npm run profile-schema',
  );
});

test('every profile in environments/ names the schema and validates against the committed file', () => {
  // The committed file, read as an editor reads it: not the TypeBox object the loader uses.
  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
  const validate = addFormats(new Ajv({ allErrors: true, strict: true, discriminator: true })).compile(schema);
  const names = listProfileNames();
  assert.ok(names.length >= 2, `profiles found: ${names.join(', ')}`);
  for (const name of names) {
    const profile = JSON.parse(readFileSync(path.join(environmentsDir, `${name}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal(
      profile.$schema,
      './profile.schema.json',
      `environments/${name}.json: "$schema" must be "./profile.schema.json"`,
    );
    assert.ok(validate(profile), `environments/${name}.json: ${JSON.stringify(validate.errors)}`);
  }
});

/** Dotted paths of every declared member, e.g. target.clients.weakKeys.ec (both target kinds). */
function fieldPaths(schema: Record<string, any>, prefix = ''): string[] {
  const out: string[] = [];
  for (const branch of schema.oneOf ?? []) out.push(...fieldPaths(branch, prefix));
  for (const [key, child] of Object.entries<Record<string, any>>(schema.properties ?? {})) {
    const here = prefix ? `${prefix}.${key}` : key;
    out.push(here, ...fieldPaths(child, here));
  }
  return [...new Set(out)];
}

test('environments/README.md names every field of the schema', () => {
  const readme = readFileSync(path.join(environmentsDir, 'README.md'), 'utf8');
  const spans = [...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
  // A field counts as named when it is a word of a code span: `retry429.maxRetries`, `{creditorAccount, reasonCode}`.
  const named = (field: string): boolean =>
    spans.some((s) => new RegExp(`(^|[^\\w$])${field.replace(/\$/g, '\\$')}(\\W|$)`).test(s));
  const missing = fieldPaths(JSON.parse(profileSchemaDocument()) as Record<string, any>).filter(
    (p) => !named(p.split('.').pop()!),
  );
  assert.deepEqual(missing, [], `fields with no row in environments/README.md: ${missing.join(', ')}`);
});
