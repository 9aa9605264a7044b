/**
 * The replay of one failed test: the command that reruns exactly that test (same data seed, same
 * target settings, its own run folder), and the failing request as a runnable curl whose credentials
 * come fresh from `npm run curl-env`, never from a stale header.
 */
import type { Exchange } from './http';
import type { Redactor } from './redact';

export interface ReplayInput {
  project: string;
  /** Path of the spec file, relative to the repository. */
  file: string;
  /** The test's title path inside its file (describe blocks, then the title). */
  titlePath: readonly string[];
  /** Settings the run was made with that the replay must repeat (PAYMENTS_SEED, faults, REF_* knobs). */
  env: Readonly<Record<string, string>>;
}

/** Environment of a run that decides what a test sees: the data seed, faults and reference knobs (helpers/run-settings.ts referenceKnobs). */
export function replayEnvironment(seed: string, faults: readonly string[], referenceKnobs: Readonly<Record<string, string>>): Record<string, string> {
  return { PAYMENTS_SEED: seed, ...(faults.length ? { PAYMENTS_CLIENT_FAULTS: faults.join(',') } : {}), ...referenceKnobs };
}

const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@,+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One command that reruns exactly this test: its file, its full title (not its line, a loop shares it). */
export function replayCommand(input: ReplayInput): string {
  const env = Object.entries(input.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  // Playwright greps "project file describe @tags title @tags": every title of the path, and the
  // test's own title followed only by its tags, so "alg none" never selects "alg none (unsigned)".
  const titles = [...input.titlePath];
  const title = titles.pop() ?? '';
  const grep = [...titles.map((t) => `(?=.*(?:^|\\s)${escapeRegExp(t)}\\s)`), `(?=.*(?:^|\\s)${escapeRegExp(title)}(?:\\s@|$))`].join('');
  return [...env, 'npx playwright test', `--project=${input.project}`, shellQuote(input.file), '--grep', shellQuote(grep)].join(' ');
}

/** Where the failing request went, and what curl-env needs to mint credentials for it. */
export interface CurlTarget {
  project: string;
  kind: 'reference' | 'remote';
  /** The run's base and auth URLs: the request's path is what follows them. */
  baseUrl: string;
  authUrl: string;
  /** The profile client that sent the request, when it is not the primary one. */
  client?: 'secondary';
  /** Faults the run's clients had (the kill matrix, a replay): a fresh reference client gets them too. */
  faults: readonly string[];
  /** The run's REF_* knobs, for a reference of one's own (helpers/run-settings.ts referenceKnobs). */
  referenceKnobs: Readonly<Record<string, string>>;
}

/** Bodies larger than this are not inlined (a too-large-body test sends megabytes): the replay command sends them. */
const MAX_INLINE_BODY = 64 * 1024;

const bodyText = (body: Uint8Array | string): string => (typeof body === 'string' ? body : Buffer.from(body).toString('utf8'));

/**
 * The request as a curl a person can run, as printed: the body in a file, the target and the
 * credentials in variables that `npm run curl-env` prints fresh (scripts/curl-env.ts: an access
 * token, and an sca-token signed over that very file), so nothing expired or redacted is pasted back.
 * Against the embedded reference the run's clients are gone with it: curl-env registers a fresh
 * client with a reference of one's own, so the request is runnable but meets none of the run's data
 * (a return finds no original); the replay command above is what reproduces the test itself.
 */
export function curlReplay(exchange: Exchange, redactor: Redactor, target: CurlTarget): string {
  const { request } = exchange;
  const header = (name: string): string | undefined => Object.entries(request.headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const tokenRequest = /x-www-form-urlencoded/i.test(header('content-type') ?? '') && request.url.startsWith(target.authUrl);
  const base = tokenRequest ? target.authUrl : target.baseUrl;
  const urlVariable = tokenRequest ? 'AUTH_URL' : 'BASE_URL';
  const pathAndQuery = request.url.startsWith(base) ? request.url.slice(base.length) : undefined;
  const lines: string[] = ['# The request with fresh, valid credentials. A mutation in its headers or its sca-token is not', '# carried over: the replay command above repeats the test exactly.'];
  if (target.kind === 'reference') {
    const knobs = Object.entries(target.referenceKnobs).map(([k, v]) => `${k}=${shellQuote(v)} `).join('');
    lines.push(`# Start a reference of your own in another shell (${knobs}npm run reference), then here:`, '#   export BASE_URL=<the base_url it prints>');
  }
  const envArgs = [`--project ${shellQuote(target.project)}`, ...(target.client ? [`--client ${target.client}`] : []), ...(target.kind === 'reference' ? ['--base-url "$BASE_URL"'] : []), ...(target.faults.length ? [`--faults ${shellQuote(target.faults.join(','))}`] : [])];
  const parts = [`curl -i -X ${request.method} ${pathAndQuery !== undefined ? `"$${urlVariable}${pathAndQuery}"` : shellQuote(request.url)}`];
  if (tokenRequest) {
    lines.push(`eval "$(npm run -s curl-env -- ${[...envArgs, '--token-request'].join(' ')})"`);
    for (const [name, value] of Object.entries(request.headers)) {
      parts.push(name.toLowerCase() === 'authorization' ? '-H "authorization: $AUTHORIZATION"' : `-H ${shellQuote(`${name}: ${redactor.text(value)}`)}`);
    }
    // The form as sent, each field redacted on its own, the assertion a fresh one: literal text in
    // single quotes (a redacted JWT shows its header and claims, quotes included), "$ASSERTION" between.
    // (NUL marks the assertion's place: encodeURIComponent never writes one.)
    const form = [...new URLSearchParams(bodyText(request.body ?? ''))].map(([name, value]) => `${encodeURIComponent(name)}=${name === 'assertion' ? '\0' : encodeURIComponent(redactor.text(value))}`).join('&');
    parts.push(`--data ${form.split('\0').map((piece) => (piece ? shellQuote(piece) : '')).join('"$ASSERTION"') || "''"}`);
    lines.push(parts.join(' \\\n  '));
    return lines.join('\n');
  }
  const body = request.body === undefined ? undefined : bodyText(request.body);
  const inline = body !== undefined && body.length <= MAX_INLINE_BODY;
  if (inline) {
    // The heredoc ends the file with a newline: the sca-token is signed over the file as written, and curl sends it as is.
    lines.push(`cat > body.json <<'BODY'`, redactor.text(body), 'BODY');
  } else if (body !== undefined) {
    lines.push(`# The body (${body.length} characters) is not shown: the replay command above sends it.`);
  }
  lines.push(`eval "$(npm run -s curl-env -- ${[...envArgs, ...(inline ? ['--body-file body.json'] : [])].join(' ')})"`);
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') parts.push('-H "authorization: $AUTHORIZATION"');
    else if (lower === 'sca-token') parts.push('-H "sca-token: $SCA_TOKEN"');
    else if (lower === 'x-client-id') parts.push('-H "x-client-id: $X_CLIENT_ID"');
    else parts.push(`-H ${shellQuote(`${name}: ${redactor.text(value)}`)}`);
  }
  if (inline) parts.push('--data-binary @body.json');
  lines.push(parts.join(' \\\n  '));
  return lines.join('\n');
}
