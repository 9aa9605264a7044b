/**
 * The keys of the clients a profile declares by variable, loaded as a worker loads them. The runner
 * loads every one before any server starts or any test runs (runner/projects.ts selectedProfiles):
 * a key that cannot be loaded would otherwise fail every test one at a time.
 */
import { declaredClientList, ProfileError, type Profile } from '../profile/profile';
import { KeyLoadError, loadPrivateKey, type KeyPair } from './keys';
import { profileVariable } from '../profile/run-settings';

/** A variable a profile names for a secret; unset, one sentence naming it. */
export function declaredVariable(profile: Profile, variable: string): string {
  // selectedProfiles (runner/projects.ts) refused the run already if any of these were unset.
  const value = profileVariable(variable);
  if (!value) throw new ProfileError(`profile ${profile.name}: environment variable ${variable} is not set`);
  return value;
}

/**
 * The key a declared client signs with. One that cannot be loaded is a ProfileError whose one
 * sentence names the profile, the client and the variable. `weak`: a weak-key client's key may be any type.
 */
export function declaredClientKey(
  profile: Profile,
  role: string,
  variable: string,
  options: { weak?: boolean } = {},
): KeyPair {
  const value = declaredVariable(profile, variable);
  try {
    return loadPrivateKey(value, { anyType: options.weak ?? false });
  } catch (error) {
    if (!(error instanceof KeyLoadError)) throw error;
    throw new ProfileError(`profile ${profile.name}, client ${role}: ${variable} ${error.message}.`);
  }
}

/** The first key of the profile's declared clients that cannot be loaded, as one sentence; undefined when all load. */
export function keyProblem(profile: Profile): string | undefined {
  for (const { role, refs, weak } of declaredClientList(profile)) {
    // A keyless client (spec §5.6) signs nothing: its predefined tokens are checked by the token request.
    if (!refs.privateKey) continue;
    try {
      declaredClientKey(profile, role, refs.privateKey, { weak });
    } catch (error) {
      if (error instanceof ProfileError) return error.message;
      throw error;
    }
  }
  return undefined;
}
