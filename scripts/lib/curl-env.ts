/**
 * Fresh credentials for the curl line of a replay attachment (helpers/replay.ts curlReplay): the
 * variables its curl reads, as shell `export` lines for `eval "$(npm run -s curl-env -- …)"`.
 *
 * A remote profile: the client is the profile's own (its secret variables must be set, as for a
 * run); the access token comes from the token endpoint, the sca-token is signed with the client's key.
 * A reference profile: the run's generated clients died with its reference, so a fresh client is
 * registered with a reference of one's own (`npm run reference`, --base-url), with the profile's
 * dialect and the run's faults.
 */
import { readFileSync } from 'node:fs';
import type { Profile } from '../../helpers/profile';
import { authenticationJwt, scaJwt, type ClientIdentity } from '../../helpers/client-jwts';
import { HttpClient } from '../../helpers/http';
import { generateRsaKeyPair } from '../../helpers/keys';
import { clientFromEnvironment, generatedClient, registerClient, type Target } from '../../fixtures/target';
import { basicCredentials, tokenRequest } from '../../fixtures/api';
import { unsetSecretsSentence } from '../../fixtures/projects';

export interface CurlEnvOptions {
  profile: Profile;
  client: 'primary' | 'secondary';
  /** A running reference (reference profiles only). */
  baseUrl?: string;
  /** The exact bytes the curl sends: the sca-token's hd is their SHA-256. */
  bodyFile?: string;
  /** Credentials for the token request itself (Basic and an assertion) instead of for the payments API. */
  tokenRequest: boolean;
  /** Reference faults for the fresh client (the run's PAYMENTS_CLIENT_FAULTS). */
  faults: readonly string[];
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

function targetOf(options: CurlEnvOptions): Target {
  const { profile } = options;
  if (profile.target.kind === 'remote') return { baseUrl: trimSlash(profile.target.baseUrl), authUrl: trimSlash(profile.target.authUrl) };
  if (!options.baseUrl) throw new Error(`profile ${profile.name} targets the embedded reference, whose run is over: start one (npm run reference) and give its URL with --base-url`);
  const url = trimSlash(options.baseUrl);
  return { baseUrl: url, authUrl: url, adminUrl: url };
}

async function clientFor(options: CurlEnvOptions, target: Target, http: HttpClient): Promise<ClientIdentity> {
  const { profile } = options;
  if (profile.target.kind === 'remote') {
    const unset = unsetSecretsSentence(profile);
    if (unset) throw new Error(unset);
    const refs = profile.target.clients[options.client];
    if (!refs) throw new Error(`profile ${profile.name} declares no ${options.client} client`);
    return clientFromEnvironment(profile, options.client, refs);
  }
  const client = generatedClient(options.client, 'curlenv', 0, generateRsaKeyPair());
  const dialect = profile.target.dialect && profile.target.dialect !== 'default' ? { dialect: profile.target.dialect } : {};
  await registerClient(http, target, client, { faults: options.faults, ...dialect });
  return client;
}

async function accessToken(profile: Profile, target: Target, client: ClientIdentity, http: HttpClient): Promise<string> {
  const exchange = await http.send('curl-env: access token', tokenRequest(target.authUrl + (profile.tokenPath ?? '/oauth/token'), client, authenticationJwt(client)));
  const token = (exchange.response.json as { access_token?: unknown } | undefined)?.access_token;
  if (exchange.response.status !== 200 || typeof token !== 'string') throw new Error(`the token endpoint ${target.authUrl} answered ${exchange.response.status}, not an access token`);
  return token;
}

/** The variables the replay's curl line reads, in the order they are printed. */
export async function curlEnvironment(options: CurlEnvOptions): Promise<Record<string, string>> {
  const target = targetOf(options);
  const http = new HttpClient();
  const client = await clientFor(options, target, http);
  if (options.tokenRequest) return { AUTH_URL: target.authUrl, AUTHORIZATION: basicCredentials(client), ASSERTION: authenticationJwt(client) };
  const variables: Record<string, string> = {
    BASE_URL: target.baseUrl,
    AUTHORIZATION: `Bearer ${await accessToken(options.profile, target, client, http)}`,
    X_CLIENT_ID: client.clientId,
  };
  if (options.bodyFile) variables.SCA_TOKEN = scaJwt(client, readFileSync(options.bodyFile));
  return variables;
}

/** `export NAME='value'` lines; single quotes keep every value literal. */
export const exportLines = (variables: Readonly<Record<string, string>>): string =>
  Object.entries(variables)
    .map(([name, value]) => `export ${name}='${value.replace(/'/g, `'\\''`)}'`)
    .join('\n');
