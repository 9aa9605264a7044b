/**
 * Checks made before any test runs, so that a run that cannot succeed stops in one sentence instead
 * of failing every test: the secret variables a remote profile names must all be set.
 */
import type { Profile } from './profile';

/** Every environment variable a profile names for secrets: target.clients.* and target.testJwts. */
export function secretVariables(profile: Profile): string[] {
  if (profile.target.kind !== 'remote') return [];
  const names: string[] = [];
  for (const refs of Object.values(profile.target.clients)) if (refs) names.push(...Object.values(refs));
  names.push(...Object.values(profile.target.testJwts ?? {}));
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n.length > 0))];
}

export function unsetSecretVariables(profile: Profile, env: NodeJS.ProcessEnv = process.env): string[] {
  return secretVariables(profile).filter((name) => !env[name]);
}

/** One sentence naming every unset variable, or undefined when all are set. */
export function unsetSecretsSentence(profile: Profile, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const unset = unsetSecretVariables(profile, env);
  if (!unset.length) return undefined;
  const what = unset.length === 1 ? 'secret variable is' : `${unset.length} secret variables are`;
  return `profile ${profile.name}: ${what} not set: ${unset.join(', ')} (export ${unset.length === 1 ? 'it' : 'them'}, or map ${unset.length === 1 ? 'it' : 'them'} from the CI secret store; see environments/README.md).`;
}

/**
 * For playwright.config.ts: stops the run (exit 2) with one line per profile whose secret variables
 * are not all set. Listing tests (--list) sends no request and needs no secret.
 */
export function refuseUnsetSecrets(profiles: readonly Profile[], argv: readonly string[] = process.argv): void {
  if (argv.includes('--list')) return;
  const sentences = profiles.map((p) => unsetSecretsSentence(p)).filter((s): s is string => Boolean(s));
  if (!sentences.length) return;
  console.error(`\n${sentences.map((s) => `✖ ${s}`).join('\n')}\n`);
  process.exit(2);
}
