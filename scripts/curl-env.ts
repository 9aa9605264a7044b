/**
 * `eval "$(npm run -s curl-env -- --project <profile> [--client secondary] [--body-file body.json]
 * [--base-url <reference URL>] [--faults a,b] [--token-request] [--mutation <id>])"`: the fresh credentials
 * the curl line of a replay attachment reads (scripts/lib/curl-env.ts), as `export` lines; with the
 * failed test's mutation applied to them when it names one. Prints secrets to
 * stdout on purpose: it is meant to be eval'd, not logged.
 */
import { parseArgs } from 'node:util';
import { loadProfile } from '../profile/profile';
import { cliMain } from './lib/cli';
import { curlEnvironment, exportLines, type CurlEnvOptions } from './lib/curl-env';

const USAGE =
  'usage: eval "$(npm run -s curl-env -- --project <profile> [--client primary|secondary] [--body-file <file>] [--base-url <reference URL>] [--faults a,b] [--token-request] [--mutation <id>])"';

export function parseCurlEnvArgs(argv: string[]): CurlEnvOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      project: { type: 'string', default: 'local' },
      client: { type: 'string', default: 'primary' },
      'body-file': { type: 'string' },
      'base-url': { type: 'string' },
      faults: { type: 'string', default: '' },
      'token-request': { type: 'boolean', default: false },
      mutation: { type: 'string' },
    },
    strict: true,
  });
  const client = values.client;
  if (client !== 'primary' && client !== 'secondary')
    throw new Error(`--client must be primary or secondary\n${USAGE}`);
  return {
    profile: loadProfile(values.project!),
    client,
    // An unset $BASE_URL arrives as "": the profile's own URL (remote) or a clear refusal (reference).
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(values['body-file'] ? { bodyFile: values['body-file'] } : {}),
    tokenRequest: values['token-request']!,
    faults: values
      .faults!.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    ...(values.mutation ? { mutation: values.mutation } : {}),
  };
}

if (require.main === module) {
  cliMain(USAGE, async () => {
    console.log(exportLines(await curlEnvironment(parseCurlEnvArgs(process.argv.slice(2)))));
    return true;
  });
}
