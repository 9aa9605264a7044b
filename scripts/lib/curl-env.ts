/**
 * Fresh credentials for the curl line of a replay attachment (record/replay.ts curlReplay): the
 * variables its curl reads, as shell `export` lines for `eval "$(npm run -s curl-env -- …)"`.
 *
 * A remote profile: the client is the profile's own (its secret variables must be set, as for a
 * run); the access token comes from the token endpoint, the sca-token is signed with the client's key.
 * A reference profile: the run's generated clients died with its reference, so a fresh client is
 * registered with a reference of one's own (`npm run reference`, --base-url), with the profile's
 * dialect and the run's faults.
 *
 * With a mutation (`--mutation <id>`, cases/mutations.ts) the credentials are those the
 * failed test sent: the same mutation applied to the fresh ones (an sca-token whose hd hashes another
 * body, a wrong kid, a missing header, a forged assertion…), built by the function the test used.
 */
import { readFileSync } from 'node:fs';
import type { Profile } from '../../profile/profile';
import { authenticationJwt, scaJwt, type ClientIdentity } from '../../transport/client-jwts';
import { HttpClient } from '../../transport/http';
import { generateRsaKeyPair } from '../../transport/keys';
import { clientFromEnvironment, generatedClient, registerClient, type Target } from '../../client/target';
import { basicCredentials, paymentRequestHeaders, scaTokenOf, tokenRequest, tokenRequestParts } from '../../client/api';
import { mutationOf, type Mutation } from '../../cases/mutations';
import { unsetSecretsSentence } from '../../runner/projects';

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
  /** The failed test's mutation, applied to the fresh credentials. */
  mutation?: string;
}

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

function targetOf(options: CurlEnvOptions): Target {
  const { profile } = options;
  if (profile.target.kind === 'remote')
    return { baseUrl: trimSlash(profile.target.baseUrl), authUrl: trimSlash(profile.target.authUrl) };
  if (!options.baseUrl)
    throw new Error(
      `profile ${profile.name} targets the embedded reference, whose run is over: start one (npm run reference) and give its URL with --base-url`,
    );
  const url = trimSlash(options.baseUrl);
  return { baseUrl: url, authUrl: url, adminUrl: url };
}

async function clientFor(
  options: CurlEnvOptions,
  role: 'primary' | 'secondary',
  target: Target,
  http: HttpClient,
): Promise<ClientIdentity> {
  const { profile } = options;
  if (profile.target.kind === 'remote') {
    const unset = unsetSecretsSentence(profile);
    if (unset) throw new Error(unset);
    const refs = profile.target.clients[role];
    if (!refs) throw new Error(`profile ${profile.name} declares no ${role} client`);
    return clientFromEnvironment(profile, role, refs);
  }
  const client = generatedClient(role, 'curlenv', 0, generateRsaKeyPair());
  const dialect =
    profile.target.dialect && profile.target.dialect !== 'default' ? { dialect: profile.target.dialect } : {};
  return registerClient(http, target, client, { faults: options.faults, ...dialect });
}

async function accessToken(
  profile: Profile,
  target: Target,
  client: ClientIdentity,
  http: HttpClient,
): Promise<string> {
  const exchange = await http.send(
    'curl-env: access token',
    tokenRequest(target.authUrl + (profile.tokenPath ?? '/oauth/token'), client, authenticationJwt(client)),
  );
  const token = (exchange.response.json as { access_token?: unknown } | undefined)?.access_token;
  if (exchange.response.status !== 200 || typeof token !== 'string')
    throw new Error(`the token endpoint ${target.authUrl} answered ${exchange.response.status}, not an access token`);
  return token;
}

/** The mutation to apply, checked against the request it is for. */
function mutationFor(options: CurlEnvOptions): Mutation | undefined {
  if (!options.mutation) return undefined;
  const mutation = mutationOf(options.mutation);
  const request = options.tokenRequest ? 'token' : 'payments';
  if (mutation.request !== request)
    throw new Error(`mutation ${mutation.id} is of a ${mutation.request} request, not of a ${request} request`);
  if (mutation.notReapplied || !mutation.options)
    throw new Error(
      `mutation ${mutation.id} cannot be applied to fresh credentials: ${mutation.notReapplied ?? 'no way to build it'}`,
    );
  return mutation;
}

/** A header of a built request, whatever the case of its name. */
const headerOf = (headers: Readonly<Record<string, string>>, name: string): string | undefined =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

/** Only the variables a header set has: a header the mutation removed is not in the curl either. */
const defined = (variables: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(variables).filter((e): e is [string, string] => e[1] !== undefined));

/** The variables the replay's curl line reads, in the order they are printed. */
export async function curlEnvironment(options: CurlEnvOptions): Promise<Record<string, string>> {
  const mutation = mutationFor(options);
  const target = targetOf(options);
  const http = new HttpClient();
  const client = await clientFor(options, options.client, target, http);
  const other = mutation?.needsOtherClient
    ? await clientFor(options, options.client === 'primary' ? 'secondary' : 'primary', target, http)
    : undefined;
  if (options.tokenRequest) {
    if (mutation?.request === 'token') {
      const { headers, fields } = tokenRequestParts(client, mutation.options!({ client, other }));
      return defined({
        AUTH_URL: target.authUrl,
        AUTHORIZATION: headerOf(headers, 'authorization'),
        ASSERTION: fields.assertion,
      });
    }
    return { AUTH_URL: target.authUrl, AUTHORIZATION: basicCredentials(client), ASSERTION: authenticationJwt(client) };
  }
  const token = await accessToken(options.profile, target, client, http);
  const body = options.bodyFile ? readFileSync(options.bodyFile) : undefined;
  if (mutation?.request === 'payments') {
    const otherAccessToken = other ? await accessToken(options.profile, target, other, http) : undefined;
    // The body text as the test's mutation read it (a hash over it, its compact form…): the file's exact bytes.
    const submit = mutation.options!({
      client,
      other,
      accessToken: token,
      otherAccessToken,
      body: body?.toString('utf8') ?? '',
    });
    const sca = body ? scaTokenOf(client, body, submit.sca) : undefined;
    const headers = paymentRequestHeaders(client, submit.accessToken ?? token, submit, sca ? { 'sca-token': sca } : {});
    return defined({
      BASE_URL: target.baseUrl,
      AUTHORIZATION: headerOf(headers, 'authorization'),
      X_CLIENT_ID: headerOf(headers, 'x-client-id'),
      SCA_TOKEN: headerOf(headers, 'sca-token'),
    });
  }
  const variables: Record<string, string> = {
    BASE_URL: target.baseUrl,
    AUTHORIZATION: `Bearer ${token}`,
    X_CLIENT_ID: client.clientId,
  };
  if (body) variables.SCA_TOKEN = scaJwt(client, body);
  return variables;
}

/** `export NAME='value'` lines; single quotes keep every value literal. */
export const exportLines = (variables: Readonly<Record<string, string>>): string =>
  Object.entries(variables)
    .map(([name, value]) => `export ${name}='${value.replace(/'/g, `'\\''`)}'`)
    .join('\n');
