/**
 * `npm run profile-schema [-- --check]`: writes environments/profile.schema.json from
 * profile/profile-schema.ts, the one source of a profile's shape. Every profile names it in
 * "$schema", so editors validate and complete profiles with the rules the loader applies.
 * --check writes nothing and fails when the committed file is stale.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { environmentsDir } from '../profile/profile';
import { profileSchemaDocument } from '../profile/profile-schema';
import { cliMain } from './lib/cli';

export const PROFILE_SCHEMA_FILE = path.join(environmentsDir, 'profile.schema.json');

cliMain('usage: npm run profile-schema [-- --check]', async () => {
  const wanted = profileSchemaDocument();
  const relative = path.relative(process.cwd(), PROFILE_SCHEMA_FILE);
  if (process.argv.includes('--check')) {
    const current = existsSync(PROFILE_SCHEMA_FILE) ? readFileSync(PROFILE_SCHEMA_FILE, 'utf8') : undefined;
    if (current === wanted) return true;
    console.error(`✖ ${relative} is ${current === undefined ? 'missing' : 'stale'}: run npm run profile-schema`);
    return false;
  }
  writeFileSync(PROFILE_SCHEMA_FILE, wanted);
  console.log(`written ${relative}`);
  return true;
});
