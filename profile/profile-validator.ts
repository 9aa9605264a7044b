/**
 * The validator of profile files (profile-schema.ts compiled by ajv), kept on disk as ajv's standalone
 * code under node_modules/.cache/payments-suite/. Compiling it cost each process that loads a profile
 * (the runner, the script that starts it) about half a second: loading ajv and the TypeBox schema, then
 * ajv's code generation. The cached file is named by a hash of everything it is made from: this
 * module (ajv's options, how it compiles), the schema module and the locked dependency versions. Any
 * change to one of them compiles it anew.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Ajv as AjvInstance, ErrorObject } from 'ajv';

export type ProfileValidator = ((json: unknown) => boolean) & { errors?: ErrorObject[] | null };

const root = path.resolve(__dirname, '..');
export const validatorCacheDir = path.join(root, 'node_modules', '.cache', 'payments-suite');
/** What the validator is made from: this module, the schema, and the versions of ajv, ajv-formats and TypeBox. */
const SOURCES = [__filename, path.join(__dirname, 'profile-schema.ts'), path.join(root, 'package-lock.json')];
const OPTIONS = { allErrors: false, strict: true, discriminator: true } as const;

/** The cached validator when there is one for these sources, else one compiled now (and cached for the next process). */
export function profileValidator(cacheDir = validatorCacheDir): ProfileValidator {
  const file = cachedFile(cacheDir);
  if (file && existsSync(file)) {
    try {
      const loaded = require(file) as unknown;
      if (typeof loaded === 'function') return loaded as ProfileValidator;
    } catch {
      /* unreadable: compiled and written again below */
    }
  }
  const { validate, code } = compileProfileValidator();
  if (file) {
    try {
      mkdirSync(cacheDir, { recursive: true });
      // Another process may write the same file at the same moment: each writes its own, then renames.
      const written = `${file}.${randomBytes(4).toString('hex')}`;
      writeFileSync(written, code);
      renameSync(written, file);
    } catch {
      /* a read-only checkout compiles in every process */
    }
  }
  return validate;
}

function cachedFile(cacheDir: string): string | undefined {
  try {
    const hash = createHash('sha256');
    for (const source of SOURCES) hash.update(readFileSync(source));
    return path.join(cacheDir, `profile-validator-${hash.digest('hex').slice(0, 16)}.cjs`);
  } catch {
    return undefined;
  }
}

/** ajv's validator of the profile schema, and the same validator as a CommonJS module's source. */
export function compileProfileValidator(): { validate: ProfileValidator; code: string } {
  const { Ajv, _ } = require('ajv') as typeof import('ajv');
  const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default;
  const addFormatsModule = require('ajv-formats') as { default?: unknown };
  const addFormats = (addFormatsModule.default ?? addFormatsModule) as (a: AjvInstance) => AjvInstance;
  const { profileSchema } = require('./profile-schema') as typeof import('./profile-schema');
  // The standalone code reaches the formats (a URL's) through this require.
  const ajv = addFormats(
    new Ajv({ ...OPTIONS, code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` } }),
  );
  const validate = ajv.compile(profileSchema);
  return { validate, code: standaloneCode(ajv, validate) };
}
