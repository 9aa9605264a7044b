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

/**
 * The request as a curl a person can run: the body in a file, the target and the credentials as
 * variables that `npm run curl-env` prints fresh (an access token, and an sca-token signed over that
 * very file), so nothing expired or redacted is pasted back.
 */
export function curlReplay(exchange: Exchange, redactor: Redactor, project: string): string {
  const { request } = exchange;
  const url = new URL(request.url);
  const submitting = request.body !== undefined && request.method === 'POST';
  const lines: string[] = ['# The request with fresh, valid credentials. A mutation in its headers or its sca-token is not', '# carried over: the replay command above repeats the test exactly.'];
  const form = /x-www-form-urlencoded/i.test(Object.entries(request.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '');
  if (form) {
    const fields = new URLSearchParams(typeof request.body === 'string' ? request.body : Buffer.from(request.body ?? '').toString('utf8'));
    if (fields.has('assertion')) fields.set('assertion', '__ASSERTION__');
    lines.push(`eval "$(npm run -s curl-env -- --project ${project} --base-url "$BASE_URL")"`);
    const parts = [`curl -i -X ${request.method} "$AUTH_URL${url.pathname}"`, '-H "authorization: Basic $BASIC_CREDENTIALS"', '-H "content-type: application/x-www-form-urlencoded"', '-H "accept: application/json"'];
    parts.push(`--data "${redactor.text(fields.toString()).replace('__ASSERTION__', '$ASSERTION')}"`);
    lines.push(parts.join(' \\\n  '));
    return lines.join('\n');
  }
  if (submitting) {
    const body = typeof request.body === 'string' ? request.body : Buffer.from(request.body!).toString('utf8');
    lines.push(`cat > body.json <<'BODY'`, redactor.text(body), 'BODY');
  }
  const envArgs = [`--project ${project}`, '--base-url "$BASE_URL"', ...(submitting ? ['--body-file body.json'] : [])].join(' ');
  lines.push(`eval "$(npm run -s curl-env -- ${envArgs})"`);
  const parts = [`curl -i -X ${request.method} "$BASE_URL${url.pathname}${url.search}"`];
  for (const [name, value] of Object.entries(request.headers)) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') parts.push(/^basic/i.test(value) ? '-H "authorization: Basic $BASIC_CREDENTIALS"' : '-H "authorization: Bearer $ACCESS_TOKEN"');
    else if (lower === 'sca-token') parts.push('-H "sca-token: $SCA_TOKEN"');
    else if (lower === 'x-client-id') parts.push('-H "x-client-id: $CLIENT_ID"');
    else parts.push(`-H ${shellQuote(`${name}: ${redactor.text(value)}`)}`);
  }
  if (submitting) parts.push('--data-binary @body.json');
  lines.push(parts.join(' \\\n  '));
  return lines.join('\n');
}
