/**
 * The one place the suite reads its environment. Every variable is documented once, in docs/environment.md
 * ("Environment variables"; tests/unit/profile/environment.test.ts fails on a variable read here that the
 * table does not list). The config sets the run's identity (seed, run id, run folder, fingerprint
 * key) in the environment before workers fork, so every worker, shard and script of one run agrees.
 * The reference is a program of its own and reads its REF_* knobs itself (reference/config.ts).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';

/** Every variable the suite reads, typed, with its default. Reading it changes nothing. */
export interface SuiteEnvironment {
  /** PAYMENTS_SEED: the data seed; the same seed replays the same message content. */
  seed: string | undefined;
  /** PAYMENTS_RUN_ID: names this run's clients, identifiers and folder. */
  runId: string | undefined;
  /** PAYMENTS_RUN_DIR: this run's own folder (results, report data, transcripts). */
  runDir: string | undefined;
  /** PAYMENTS_FINGERPRINT_KEY: keys the fingerprints of redacted secrets (per run, never written out). */
  fingerprintKey: string | undefined;
  /** PAYMENTS_PROFILES (comma-separated): the profiles to run when no --project is given. */
  profiles: string[];
  /** PAYMENTS_WORKERS: overrides the worker count. */
  workers: number | undefined;
  /** PAYMENTS_CONFIRM_LIVE: must equal a live profile's name for that profile to run. */
  confirmLive: string | undefined;
  /** PAYMENTS_CLIENT_FAULTS: faults the reference applies to this run's clients (replaying a kill-matrix failure). */
  clientFaults: string[];
  /** PAYMENTS_ALLURE=0 turns the Allure reporter off. */
  allure: boolean;
  /** PAYMENTS_SECRET_CANARY: where workers list the secrets they used, for the post-run leak scan. */
  secretCanary: string | undefined;
  /** PAYMENTS_SLOW=1 runs the @slow lane (tests that wait out real time, e.g. token expiry). */
  slow: boolean;
  /** PAYMENTS_CLIENT_KEYS: the run's shared client keys (JSON list of PEM), made once by the runner (transport/keys.ts). */
  clientKeys: string | undefined;
  /** PAYMENTS_RUN_COMMAND: the command that started the run, as run.json records it. */
  runCommand: string | undefined;
  /** PAYMENTS_RUNS_ROOT: the parent of the run folders. */
  runsRoot: string;
  /** PAYMENTS_KEEP_RUNS: how many run folders rotation keeps. */
  keepRuns: number;
  /** PAYMENTS_REPORT_DIR: where the scripts render the report of the run they made. */
  reportDir: string;
  /** PAYMENTS_ALLURE_HISTORY: the Allure history file (JSONL) a report appends to. */
  allureHistory: string;
  /** PAYMENTS_MUTATION_PLAN: the kill matrix's plan file (scripts/mutation.ts writes it for its config). */
  mutationPlan: string | undefined;
  /** PAYMENTS_DIALECT_PLAN: the dialect matrix's plan file (scripts/dialect-matrix.ts writes it for its config). */
  dialectPlan: string | undefined;
  /** PAYMENTS_WORKER_NODE_OPTIONS: the workers' NODE_OPTIONS, when the runner was started with a heap of its own. */
  workerNodeOptions: string | undefined;
  /** PAYMENTS_SIGNING_KEY_PASSPHRASE: passphrase of an encrypted certification signing key. */
  signingKeyPassphrase: string | undefined;
  /** PAYMENTS_CHROMIUM: the system Chromium that check-offline opens reports in. */
  chromium: string;
  /** PAYMENTS_EXPLORE=1 (npm run explore): the @explore tests run, with the profile's exploration budget; otherwise they are left out. */
  exploring: boolean;
  /** PAYMENTS_EXPLORE_SEQUENCES: overrides the profile's number of sequences (npm test's small budget). */
  exploreSequences: number | undefined;
  /** PAYMENTS_EXPLORE_REPLAY: `lane=…;seed=…;path=…;replayPath=…` of a counterexample, replayed instead of exploring. */
  exploreReplay: string | undefined;
  /** REF_URL: an already running reference service to use instead of starting one. */
  referenceUrl: string | undefined;
  /** The HTTP(S) proxy the suite's requests to a target go through (transport/http.ts). */
  proxy: ProxySettings;
  /** CI: set by CI systems; quieter reporter, test.only forbidden. */
  ci: boolean;
  /** GITHUB_STEP_SUMMARY: the file GitHub Actions shows as the job summary (nightly appends to it). */
  githubStepSummary: string | undefined;
  /** FORCE_COLOR / NO_COLOR: colour in terminal output, by the usual conventions. */
  color: boolean | undefined;
  /** TEST_WORKER_INDEX: this process is a Playwright worker (it loads the config the runner already checked). */
  worker: boolean;
}

/**
 * The standard proxy variables, as curl and undici read them: the lower-case spelling wins over the
 * upper-case one. A bank's CI sets them globally; the suite honours them for every request to a target.
 */
export interface ProxySettings {
  /** https_proxy / HTTPS_PROXY: the proxy for https:// targets (HTTP_PROXY's when unset). */
  httpsProxy: string | undefined;
  /** http_proxy / HTTP_PROXY: the proxy for http:// targets. */
  httpProxy: string | undefined;
  /** no_proxy / NO_PROXY: hosts (and host:port, .domain, *) reached directly. */
  noProxy: string | undefined;
  /**
   * PAYMENTS_PROXY_LOOPBACK=1: loopback hosts (the embedded reference) go through the proxy too.
   * Otherwise they never do: a proxy cannot reach the runner's own loopback.
   */
  loopback: boolean;
}

/**
 * PAYMENTS_RUN_ID and PAYMENTS_FINGERPRINT_KEY alone, for the hot paths that read them on every
 * identifier made and every secret redacted, where reading all the run's settings each time adds up.
 */
export const runIdOf = (env: NodeJS.ProcessEnv = process.env): string | undefined => env.PAYMENTS_RUN_ID || undefined;
export const fingerprintKeyOf = (env: NodeJS.ProcessEnv = process.env): string | undefined =>
  env.PAYMENTS_FINGERPRINT_KEY || undefined;

const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export function suiteEnvironment(env: NodeJS.ProcessEnv = process.env): SuiteEnvironment {
  return {
    seed: env.PAYMENTS_SEED || undefined,
    runId: runIdOf(env),
    runDir: env.PAYMENTS_RUN_DIR || undefined,
    fingerprintKey: fingerprintKeyOf(env),
    profiles: list(env.PAYMENTS_PROFILES),
    workers: Number(env.PAYMENTS_WORKERS) || undefined,
    confirmLive: env.PAYMENTS_CONFIRM_LIVE || undefined,
    clientFaults: list(env.PAYMENTS_CLIENT_FAULTS),
    allure: env.PAYMENTS_ALLURE !== '0',
    secretCanary: env.PAYMENTS_SECRET_CANARY || undefined,
    slow: env.PAYMENTS_SLOW === '1',
    clientKeys: env.PAYMENTS_CLIENT_KEYS || undefined,
    runCommand: env.PAYMENTS_RUN_COMMAND || undefined,
    runsRoot: env.PAYMENTS_RUNS_ROOT || path.join('reports', 'runs'),
    keepRuns: Number(env.PAYMENTS_KEEP_RUNS) || 10,
    reportDir: env.PAYMENTS_REPORT_DIR || path.join('reports', 'allure-report'),
    allureHistory: env.PAYMENTS_ALLURE_HISTORY || path.join('reports', 'history', 'allure-history.jsonl'),
    mutationPlan: env.PAYMENTS_MUTATION_PLAN || undefined,
    dialectPlan: env.PAYMENTS_DIALECT_PLAN || undefined,
    workerNodeOptions: env.PAYMENTS_WORKER_NODE_OPTIONS,
    signingKeyPassphrase: env.PAYMENTS_SIGNING_KEY_PASSPHRASE || undefined,
    chromium: env.PAYMENTS_CHROMIUM || '/usr/bin/chromium',
    exploring: env.PAYMENTS_EXPLORE === '1',
    exploreSequences: Number(env.PAYMENTS_EXPLORE_SEQUENCES) || undefined,
    exploreReplay: env.PAYMENTS_EXPLORE_REPLAY || undefined,
    referenceUrl: env.REF_URL || undefined,
    proxy: {
      httpsProxy: env.https_proxy || env.HTTPS_PROXY || undefined,
      httpProxy: env.http_proxy || env.HTTP_PROXY || undefined,
      noProxy: env.no_proxy || env.NO_PROXY || undefined,
      loopback: env.PAYMENTS_PROXY_LOOPBACK === '1',
    },
    ci: Boolean(env.CI),
    githubStepSummary: env.GITHUB_STEP_SUMMARY || undefined,
    color: env.NO_COLOR !== undefined ? false : env.FORCE_COLOR ? true : undefined,
    worker: env.TEST_WORKER_INDEX !== undefined,
  };
}

/** The settings of a run: its identity is always set, and --project arguments win over PAYMENTS_PROFILES. */
export interface RunSettings extends SuiteEnvironment {
  seed: string;
  runId: string;
  runDir: string;
  fingerprintKey: string;
  /** --project arguments, else PAYMENTS_PROFILES, else local. */
  profiles: string[];
  /** --list: the tests are only listed, nothing is sent (no secret needed, no run folder). */
  listing: boolean;
}

/** The profiles named with --project (several allowed), in the order given. */
export function projectArguments(argv: readonly string[]): string[] {
  const names: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--project' && argv[i + 1]) names.push(...list(argv[i + 1]));
    else if (arg.startsWith('--project=')) names.push(...list(arg.slice('--project='.length)));
  });
  return names;
}

/**
 * Sets the run's identity in the environment when it is not set yet (the config and every script
 * call it first; workers inherit it), then reads every setting.
 */
export function runSettings(env: NodeJS.ProcessEnv = process.env, argv: readonly string[] = process.argv): RunSettings {
  env.PAYMENTS_SEED ||= String(randomBytes(4).readUInt32BE(0));
  env.PAYMENTS_RUN_ID ||= randomBytes(4).toString('hex');
  env.PAYMENTS_RUN_DIR ||= newRunDir(env.PAYMENTS_RUN_ID, suiteEnvironment(env).runsRoot);
  env.PAYMENTS_FINGERPRINT_KEY ||= randomBytes(32).toString('base64url');
  // A runner started with a heap of its own (scripts/lib/run-playwright.ts runnerHeapMb): its workers fork with theirs.
  const workerNodeOptions = suiteEnvironment(env).workerNodeOptions;
  if (workerNodeOptions !== undefined) env.NODE_OPTIONS = workerNodeOptions;
  const fromArgs = projectArguments(argv);
  // Workers load the config again without the --project arguments: hand them the selection.
  if (fromArgs.length) env.PAYMENTS_PROFILES = fromArgs.join(',');
  const read = suiteEnvironment(env);
  return {
    ...read,
    seed: env.PAYMENTS_SEED,
    runId: env.PAYMENTS_RUN_ID,
    runDir: env.PAYMENTS_RUN_DIR,
    fingerprintKey: env.PAYMENTS_FINGERPRINT_KEY,
    profiles: read.profiles.length ? [...new Set(read.profiles)] : ['local'],
    listing: argv.includes('--list'),
  };
}

/**
 * PW_TEST_REPORTER, Playwright's own: the module of one more reporter it makes after the configured
 * or `--reporter` ones (runner/reporters/record.ts, the run's record). Set by the config in the
 * runner, removed by that reporter once made, so the workers and servers the runner starts do not
 * inherit it.
 */
export function nameRecordReporter(file: string, env: NodeJS.ProcessEnv = process.env): void {
  env.PW_TEST_REPORTER = file;
}
export function forgetRecordReporter(env: NodeJS.ProcessEnv = process.env): void {
  delete env.PW_TEST_REPORTER;
}

/** Environment variable through which Playwright's webServer hands a reference port to the workers. */
export const portVariable = (serverName: string): string =>
  `REF_PORT_${serverName.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`;

/** The port a reference server reported (REF_PORT_<server>, set by Playwright's webServer). */
export const referencePort = (serverName: string, env: NodeJS.ProcessEnv = process.env): string | undefined =>
  env[portVariable(serverName)] || undefined;

/** The reference's REF_* knobs set in this process (not the ports Playwright hands out): what decides what the reference did. */
export function referenceKnobs(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter(
      (e): e is [string, string] => e[0].startsWith('REF_') && !e[0].startsWith('REF_PORT_') && Boolean(e[1]),
    ),
  );
}

/** A variable a profile names for a secret (environments/README.md): its value, or undefined when unset or empty. */
export const profileVariable = (name: string, env: NodeJS.ProcessEnv = process.env): string | undefined =>
  env[name] || undefined;

/** 20261122T171622Z: sortable, UTC, valid in a file name everywhere. */
export const runStamp = (d: Date): string =>
  d
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

export const runIdInFolderName = (runId: string): string => runId.replace(/[^A-Za-z0-9._-]/g, '_');

export const runFolderName = (date: Date, runId: string): string => `${runStamp(date)}-${runIdInFolderName(runId)}`;

export const newRunDir = (runId: string, root: string, date = new Date()): string =>
  path.join(root, runFolderName(date, runId));
