/**
 * The replay of one failed test: the command that reruns exactly that test (same data seed, same
 * target settings, its own run folder), and the failing request as a runnable curl whose credentials
 * come fresh from `npm run curl-env`, never from a stale header, with the negative case's mutation
 * applied to them; as an attachment that starts with the paths of its files in the run folder.
 */
import { createHash } from 'node:crypto';
import type { Exchange } from '../transport/http';
import type { Redactor } from '../transport/redact';

export interface ReplayInput {
  project: string;
  /** Path of the spec file, relative to the repository. */
  file: string;
  /** The test's title path inside its file (describe blocks, then the title). */
  titlePath: readonly string[];
  /** Settings the run was made with that the replay must repeat (PAYMENTS_SEED, faults, REF_* knobs). */
  env: Readonly<Record<string, string>>;
}

/** Environment of a run that decides what a test sees: the data seed, faults and reference knobs (profile/run-settings.ts referenceKnobs). */
export function replayEnvironment(
  seed: string,
  faults: readonly string[],
  referenceKnobs: Readonly<Record<string, string>>,
): Record<string, string> {
  return {
    PAYMENTS_SEED: seed,
    ...(faults.length ? { PAYMENTS_CLIENT_FAULTS: faults.join(',') } : {}),
    ...referenceKnobs,
  };
}

const shellQuote = (s: string): string => (/^[A-Za-z0-9_./:=@,+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The grep that selects exactly one test by its title path. Playwright greps "project file describe
 * @tags title @tags": every title of the path, and the test's own title followed only by its tags, so
 * "alg none" never selects "alg none (unsigned)".
 */
export function titlePathGrep(titlePath: readonly string[]): string {
  const titles = [...titlePath];
  const title = titles.pop() ?? '';
  return [
    ...titles.map((t) => `(?=.*(?:^|\\s)${escapeRegExp(t)}\\s)`),
    `(?=.*(?:^|\\s)${escapeRegExp(title)}(?:\\s@|$))`,
  ].join('');
}

/** One command that reruns exactly this test: its file, its full title (not its line, a loop shares it). */
export function replayCommand(input: ReplayInput): string {
  const env = Object.entries(input.env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const grep = titlePathGrep(input.titlePath);
  return [
    ...env,
    'npx playwright test',
    `--project=${input.project}`,
    shellQuote(input.file),
    '--grep',
    shellQuote(grep),
  ].join(' ');
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
  /** The run's REF_* knobs, for a reference of one's own (profile/run-settings.ts referenceKnobs). */
  referenceKnobs: Readonly<Record<string, string>>;
  /** The mutation the failing request carried (cases/mutations.ts): curl-env applies it again. */
  mutation?: ReplayMutation;
}

/** A negative case's mutation as a replay states it. */
export interface ReplayMutation {
  id: string;
  description: string;
  /** Why it cannot be applied to fresh credentials; absent: curl-env applies it (--mutation). */
  notReapplied?: string;
}

/** The one line that says what the curl's credentials are: the test's mutation applied, or why not. */
export function credentialsLine(mutation: ReplayMutation | undefined): string {
  if (!mutation) return "credentials: fresh and valid, like the test's (it sent them unmutated)";
  if (mutation.notReapplied)
    return `credentials: fresh and VALID, not this test's mutation (${mutation.description}): ${mutation.notReapplied}; the rerun reproduces it`;
  return `credentials: fresh, with this test's mutation applied: ${mutation.description}`;
}

/** Bodies larger than this are not inlined (a too-large-body test sends megabytes): the replay command sends them. */
const MAX_INLINE_BODY = 64 * 1024;

const bodyText = (body: Uint8Array | string): string =>
  typeof body === 'string' ? body : Buffer.from(body).toString('utf8');

/**
 * The request as a curl a person can run, as printed: the body in a file, the target and the
 * credentials in variables that `npm run curl-env` prints fresh (scripts/curl-env.ts: an access
 * token, and an sca-token signed over that very file), so nothing expired or redacted is pasted back.
 * A negative case's mutation is applied to those fresh credentials (`--mutation`), so the curl sends
 * what the test sent and meets the same answer; one that cannot be applied again is said so.
 * Against the embedded reference the run's clients are gone with it: curl-env registers a fresh
 * client with a reference of one's own, so the request is runnable but meets none of the run's data
 * (a return finds no original); the replay command above is what reproduces the test itself.
 */
export function curlReplay(exchange: Exchange, redactor: Redactor, target: CurlTarget): string {
  const { request } = exchange;
  const header = (name: string): string | undefined =>
    Object.entries(request.headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const tokenRequest =
    /x-www-form-urlencoded/i.test(header('content-type') ?? '') && request.url.startsWith(target.authUrl);
  const base = tokenRequest ? target.authUrl : target.baseUrl;
  const urlVariable = tokenRequest ? 'AUTH_URL' : 'BASE_URL';
  const pathAndQuery = request.url.startsWith(base) ? request.url.slice(base.length) : undefined;
  const reapplied = target.mutation && !target.mutation.notReapplied ? target.mutation : undefined;
  const lines: string[] = [`# ${credentialsLine(target.mutation)}`];
  if (target.kind === 'reference') {
    const knobs = Object.entries(target.referenceKnobs)
      .map(([k, v]) => `${k}=${shellQuote(v)} `)
      .join('');
    lines.push(
      `# Start a reference of your own in another shell (${knobs}npm run reference), then here:`,
      '#   export BASE_URL=<the base_url it prints>',
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, for the script's reader
    lines.push(': "${BASE_URL:?start a reference (npm run reference) and export BASE_URL=<the base_url it prints>}"');
  }
  const envArgs = [
    `--project ${shellQuote(target.project)}`,
    ...(target.client ? [`--client ${target.client}`] : []),
    ...(target.kind === 'reference' ? ['--base-url "$BASE_URL"'] : []),
    ...(target.faults.length ? [`--faults ${shellQuote(target.faults.join(','))}`] : []),
    ...(reapplied ? [`--mutation ${shellQuote(reapplied.id)}`] : []),
  ];
  const parts = [
    `curl -sS -i -X ${request.method} ${pathAndQuery !== undefined ? `"$${urlVariable}${pathAndQuery}"` : shellQuote(request.url)}`,
  ];
  if (tokenRequest) {
    lines.push(`eval "$(npm run -s curl-env -- ${[...envArgs, '--token-request'].join(' ')})"`);
    for (const [name, value] of Object.entries(request.headers)) {
      parts.push(
        name.toLowerCase() === 'authorization'
          ? '-H "authorization: $AUTHORIZATION"'
          : `-H ${shellQuote(`${name}: ${redactor.text(value)}`)}`,
      );
    }
    // The form as sent, each field redacted on its own, the assertion a fresh one: literal text in
    // single quotes (a redacted JWT shows its header and claims, quotes included), "$ASSERTION" between.
    // (NUL marks the assertion's place: encodeURIComponent never writes one.)
    const form = [...new URLSearchParams(bodyText(request.body ?? ''))]
      .map(
        ([name, value]) =>
          `${encodeURIComponent(name)}=${name === 'assertion' ? '\0' : encodeURIComponent(redactor.text(value))}`,
      )
      .join('&');
    parts.push(
      `--data ${
        form
          .split('\0')
          .map((piece) => (piece ? shellQuote(piece) : ''))
          .join('"$ASSERTION"') || "''"
      }`,
    );
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
  lines.push(
    `eval "$(npm run -s curl-env -- ${[...envArgs, ...(inline ? ['--body-file body.json'] : [])].join(' ')})"`,
  );
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

/** Longest slug of a test title in a replay file's name: its path must fit a terminal line. */
const MAX_SLUG = 28;

/**
 * The name of a test's replay files: its title, short, and a hash of where it is (project, file, title
 * path), so that two tests never share one and a test keeps its name from run to run.
 */
export function replayFileStem(project: string, file: string, titlePath: readonly string[]): string {
  const title = titlePath.at(-1) ?? 'test';
  const whole = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  // Cut at a word's end when there is one far enough in: "refuses-sca-hd-of-another", not "…-another-bo".
  const cut = whole.length <= MAX_SLUG ? whole : whole.slice(0, MAX_SLUG + 1).replace(/-[^-]*$/, '');
  const slug = cut.length >= MAX_SLUG / 2 ? cut : whole.slice(0, MAX_SLUG);
  const hash = createHash('sha256')
    .update(JSON.stringify([project, file, ...titlePath]))
    .digest('hex')
    .slice(0, 6);
  return `${slug || 'test'}-${hash}`;
}

/** The replay's files: the rerun command, and the curl lines, each runnable as written (`bash <file>`). */
export function replayFiles(input: { command: string; curl?: string; testName: string }): {
  rerun: string;
  curl?: string;
} {
  const rerun = [
    '# Reruns exactly this test (same data seed, same target settings, a run folder of its own).',
    `# ${input.testName}`,
    '# In the repository folder: bash <this file>',
    input.command,
    '',
  ].join('\n');
  if (!input.curl) return { rerun };
  return {
    rerun,
    curl: [
      `# The last request of ${input.testName}`,
      '# In the repository folder: bash <this file> (or paste its lines)',
      input.curl,
      '',
    ].join('\n'),
  };
}

/** The first lines of the replay attachment: where its files are, and what the curl's credentials are. */
export function replayPointer(paths: { rerun: string; curl?: string }, mutation: ReplayMutation | undefined): string[] {
  const files = [`rerun:   bash ${paths.rerun}`, ...(paths.curl ? [`request: bash ${paths.curl}`] : [])];
  return paths.curl ? [...files, credentialsLine(mutation)] : files;
}
