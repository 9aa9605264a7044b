/**
 * `npm run discover -- --project <env> [--write]`
 *
 * Probes the profile's target with a bounded number of requests (engines/discovery/) and prints how
 * many it sent and what it created. Writes environments/<env>.discovered.json: the answer to every
 * assumption of the ledger, each with the exchange that showed it (redacted), and the diff against the
 * profile's expectations, which it also prints. `--write` adopts the answers into environments/<env>.json,
 * changing only the fields that differ (key order and formatting kept). It ends with the fixpoint
 * check: the adopted profile must admit every answer the target gave, else it names the field and
 * why, and exits 1.
 *
 * A reference profile gets a reference of its own (its REF_* knobs; REF_URL names a running one
 * instead), its clients registered in the profile's dialect; one without admin gets the clients it
 * declares, onboarded as the runner onboards them. A live profile is refused unless
 * PAYMENTS_CONFIRM_LIVE names it, and then only read-safe probes run: nothing is submitted.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { environmentsDir, loadProfile, parseProfile, ProfileError, type Profile } from '../profile/profile';
import { type Redactor, workerRedactor } from '../transport/redact';
import { SecretMatcher } from './scan-secrets';
import { suiteEnvironment } from '../profile/run-settings';
import { shareClientKeys } from '../transport/keys';
import { unsetSecretsSentence } from '../runner/projects';
import { onboardedClients } from '../client/provisioning';
import { discover, type Discovery } from '../engines/discovery/session';
import {
  adoptInto,
  changesOf,
  diffAgainst,
  fixpointProblems,
  formatDiff,
  formatFixpoint,
  type Diff,
  type FieldDiff,
  type UnmetAnswer,
} from '../engines/discovery/diff';
import { choices, rulesOf } from '../engines/discovery/choices';
import { RATE_LIMIT_FIELD, rateLimitVerdict } from '../engines/discovery/rate-limit';
import { POLLING_TIMEOUT_FIELD, settlementVerdict } from '../engines/discovery/settlement';
import { setJsonValue } from '../messages/json-edit';
import { startReferenceProcess } from './lib/reference-process';
import { cliMain } from './lib/cli';

const USAGE =
  'usage: npm run discover -- --project <env> [--write] [--dir <profiles folder, default environments>] [--no-rate-limit]';

export interface DiscoverArgs {
  project: string;
  write: boolean;
  /** Folder of the profile (generated profiles, tests); default environments/. */
  dir?: string;
  /** Measure the target's rate limit (default yes; --no-rate-limit skips it). */
  rateLimit: boolean;
}

export function parseDiscoverArgs(argv: string[]): DiscoverArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      project: { type: 'string' },
      write: { type: 'boolean', default: false },
      dir: { type: 'string' },
      'no-rate-limit': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.project) throw new Error(`--project is required\n${USAGE}`);
  return {
    project: values.project,
    write: values.write!,
    ...(values.dir ? { dir: values.dir } : {}),
    rateLimit: !values['no-rate-limit'],
  };
}

/** Where a profile's discovery is written: next to it, `<env>.discovered.json` (not committed: .gitignore). */
export const discoveredFile = (dir: string, name: string): string => path.join(dir, `${name}.discovered.json`);

export interface DiscoverOptions {
  /** Folder of the profile (default environments/). */
  dir?: string;
  write?: boolean;
  /** A running reference to use for a reference profile (else REF_URL, else one is started). */
  referenceUrl?: string;
  /** Print the diff (default true). */
  print?: boolean;
  /** Measure the target's rate limit and declare it with write (engines/discovery/rate-limit.ts; default false: `npm run discover` asks for it). */
  measureRate?: boolean;
}

export interface DiscoverOutcome {
  profile: Profile;
  discovery: Discovery;
  diff: Diff;
  file: string;
  /** The fields --write changed. */
  adopted: FieldDiff[];
  /** The fixpoint check: the answers the adopted profile does not admit (empty: it holds on this target). */
  fixpoint: UnmetAnswer[];
}

/** One line of what the probes cost: the bound a reader of a sandbox's logs wants to see. */
export function costLine(name: string, d: Discovery): string {
  const created = Object.entries(d.created);
  const total = created.reduce((n, [, k]) => n + k, 0);
  // The refusal triggers asked, by catalogue case (engines/discovery/triggers.ts): each answered or said why not.
  const triggers = new Set(d.observations.flatMap((o) => (o.trigger ? [o.trigger] : []))).size;
  return `discover ${name}: ${d.requests} requests (${triggers} triggers), ${total} created${created.length ? ` (${created.map(([op, n]) => `${n} ${op}`).join(', ')})` : ''} in ${(d.wallMs / 1000).toFixed(1)} s${d.readSafeOnly ? ' — read-safe probes only (live profile)' : ''}`;
}

/** The discovered file: each answer with the rules it speaks for and the exchange that showed it. */
function discoveredDocument(
  profile: Profile,
  target: string,
  d: Discovery,
  diff: Diff,
  fixpoint: readonly UnmetAnswer[],
): unknown {
  return {
    profile: profile.name,
    discoveredAt: new Date().toISOString(),
    target,
    cost: { requests: d.requests, created: d.created, wallMs: d.wallMs, readSafeOnly: d.readSafeOnly },
    ...(d.rateLimit ? { rateLimit: d.rateLimit } : {}),
    ...(d.notRun ? { notRun: d.notRun } : {}),
    diff: diff.fields,
    // The answers the adopted profile would not admit: empty when it holds on this target.
    fixpoint,
    fixed: diff.fixed,
    observations: d.observations.map(({ key, ...rest }) => ({
      key,
      question: choices[key].question,
      rules: rulesOf(key),
      ...rest,
    })),
  };
}

/**
 * Refuses to write a text holding any secret the run used: a discovered file is shared, a secret never
 * is. One pass of the leak scan's matcher: a discovery registers every token it got, thousands over a
 * dialect matrix's discoveries, and one search of the text per secret cost the matrix about a second.
 */
export function assertNoSecret(text: string, file: string, redactor: Redactor = workerRedactor()): void {
  const secrets = redactor.secretValues().filter((s) => s.value.length >= 8);
  const leaked = [...new SecretMatcher(secrets).find(text)].map((i) => secrets[i]!.label);
  if (leaked.length) throw new Error(`${file} would hold ${leaked.join(', ')}: not written`);
}

export async function discoverProfile(name: string, options: DiscoverOptions = {}): Promise<DiscoverOutcome> {
  const dir = options.dir ?? environmentsDir;
  const profileFile = path.join(dir, `${name}.json`);
  const profile = loadProfile(name, dir);
  const environment = suiteEnvironment();
  if (profile.live && environment.confirmLive !== profile.name) {
    throw new ProfileError(
      `profile ${profile.name} targets a LIVE deployment. Set PAYMENTS_CONFIRM_LIVE=${profile.name} to confirm; discovery then runs only read-safe probes (token requests, refused reads) and submits nothing.`,
    );
  }
  let referenceUrl = options.referenceUrl ?? environment.referenceUrl;
  shareClientKeys();
  // A reference without admin stands for a sandbox: discovery plays the provider's onboarding as the
  // runner does (its variables set, REF_CLIENTS), and asks with the clients the profile declares.
  const onboarded = referenceUrl ? undefined : onboardedClients(profile);
  const unset = unsetSecretsSentence(profile);
  if (unset) throw new ProfileError(unset);

  let stop: (() => Promise<void>) | undefined;
  if (profile.target.kind === 'reference' && !referenceUrl) {
    const started = await startReferenceProcess({
      ...(onboarded ? { REF_ADMIN: '0', REF_CLIENTS: onboarded } : {}),
      ...(profile.target.env ?? {}),
    });
    referenceUrl = started.url;
    stop = started.stop;
  }
  try {
    const discovery = await discover(profile, {
      ...(referenceUrl ? { referenceUrl } : {}),
      ...(options.measureRate ? { measureRate: true } : {}),
    });
    const text = readFileSync(profileFile, 'utf8');
    const diff = diffAgainst(JSON.parse(text), discovery.observations, discovery.notRun);
    const rate = discovery.rateLimit ? rateLimitVerdict(JSON.parse(text), discovery.rateLimit) : undefined;
    const target =
      profile.target.kind === 'remote'
        ? profile.target.baseUrl
        : `the embedded reference, dialect ${JSON.stringify(profile.target.dialect ?? 'default')}`;
    const file = discoveredFile(dir, profile.name);
    let adopted: FieldDiff[] = [];
    const settlement = settlementVerdict(JSON.parse(text), discovery.settlement);
    const measured = adoptInto(text, diff);
    const paced = rate?.adopt === undefined ? measured : setJsonValue(measured, RATE_LIMIT_FIELD, rate.adopt);
    const updated =
      settlement.adopt === undefined ? paced : setJsonValue(paced, POLLING_TIMEOUT_FIELD, settlement.adopt);
    // The fixpoint: the profile discovery adopts (written with --write), enforced against the target it
    // just asked, must admit every answer it saw. Judged over the observations: no second run.
    const fixpoint = fixpointProblems(JSON.parse(updated), discovery.observations);
    const document = `${JSON.stringify(discoveredDocument(profile, target, discovery, diff, fixpoint), null, 2)}\n`;
    assertNoSecret(document, file);
    writeFileSync(file, document);
    if (options.write) {
      adopted = changesOf(diff);
      // The adopted profile must load: a discovery never leaves a profile the suite refuses.
      parseProfile(JSON.parse(updated), path.relative(process.cwd(), profileFile) || profileFile);
      if (updated !== text) writeFileSync(profileFile, updated);
    }
    if (options.print !== false) {
      console.log(costLine(profile.name, discovery));
      console.log(formatDiff(diff, profile.name).join('\n'));
      if (rate) console.log(rate.lines.join('\n'));
      console.log(settlement.lines.join('\n'));
      console.log(`discovered: ${path.relative(process.cwd(), file) || file}`);
      if (options.write) {
        const fields = [
          ...adopted.map((f) => f.field),
          ...(rate?.adopt === undefined ? [] : [RATE_LIMIT_FIELD.join('.')]),
          ...(settlement.adopt === undefined ? [] : [POLLING_TIMEOUT_FIELD.join('.')]),
        ];
        console.log(
          fields.length
            ? `adopted into ${path.relative(process.cwd(), profileFile)}: ${fields.join(', ')}`
            : `${path.relative(process.cwd(), profileFile)} already states every observed answer`,
        );
      }
      console.log(
        formatFixpoint(fixpoint, discovery.observations.filter((o) => o.observed !== undefined).length).join('\n'),
      );
    }
    return { profile, discovery, diff, file, adopted, fixpoint };
  } finally {
    await stop?.();
  }
}

if (require.main === module) {
  cliMain(USAGE, async () => {
    const args = parseDiscoverArgs(process.argv.slice(2));
    try {
      const outcome = await discoverProfile(args.project, {
        write: args.write,
        measureRate: args.rateLimit,
        ...(args.dir ? { dir: path.resolve(args.dir) } : {}),
      });
      // An adopted profile that would fail on the target it came from is not an answer: say so before anyone runs the suite on it.
      return outcome.fixpoint.length === 0;
    } catch (error) {
      if (!(error instanceof ProfileError)) throw error;
      console.error(`✖ ${error.message}`);
      process.exit(2);
    }
    return true;
  });
}
