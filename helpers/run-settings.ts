/**
 * The one place the suite reads its environment. Every variable is documented once, in README.md
 * ("Environment variables"). The config sets the run's identity (seed, run id, run folder) in the
 * environment before workers fork, so every worker, shard and script of one run agrees on it.
 */
import { randomBytes } from 'node:crypto';
import { newRunDir } from './run-folder';

export interface RunSettings {
  /** PAYMENTS_SEED: the data seed; the same seed replays the same message content. */
  seed: string;
  /** PAYMENTS_RUN_ID: names this run's clients and folder. */
  runId: string;
  /** PAYMENTS_RUN_DIR: this run's own folder (results, report data, transcripts). */
  runDir: string;
  /** --project arguments, else PAYMENTS_PROFILES (comma-separated), else local. */
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
  /** PAYMENTS_FINGERPRINT_KEY: keys the fingerprints of redacted secrets (per run, never written out). */
  fingerprintKey: string;
  /** PAYMENTS_SLOW=1 runs the @slow lane (tests that wait out real time, e.g. token expiry). */
  slow: boolean;
  /** REF_URL: an already running reference service to use instead of starting one. */
  referenceUrl: string | undefined;
  /** CI: set by CI systems; quieter reporter, test.only forbidden. */
  ci: boolean;
  /** --list: the tests are only listed, nothing is sent (no secret needed, no run folder). */
  listing: boolean;
  /** TEST_WORKER_INDEX: this process is a Playwright worker (it loads the config the runner already checked). */
  worker: boolean;
}

const list = (value: string | undefined): string[] => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

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
  env.PAYMENTS_RUN_DIR ||= newRunDir(env.PAYMENTS_RUN_ID);
  env.PAYMENTS_FINGERPRINT_KEY ||= randomBytes(32).toString('base64url');
  // A runner started with a heap of its own (scripts/lib/run-playwright.ts runnerHeapMb): its workers fork with theirs.
  if (env.PAYMENTS_WORKER_NODE_OPTIONS !== undefined) env.NODE_OPTIONS = env.PAYMENTS_WORKER_NODE_OPTIONS;
  const fromArgs = projectArguments(argv);
  // Workers load the config again without the --project arguments: hand them the selection.
  if (fromArgs.length) env.PAYMENTS_PROFILES = fromArgs.join(',');
  const profiles = list(env.PAYMENTS_PROFILES);
  return {
    seed: env.PAYMENTS_SEED,
    runId: env.PAYMENTS_RUN_ID,
    runDir: env.PAYMENTS_RUN_DIR,
    profiles: profiles.length ? [...new Set(profiles)] : ['local'],
    workers: Number(env.PAYMENTS_WORKERS) || undefined,
    confirmLive: env.PAYMENTS_CONFIRM_LIVE || undefined,
    clientFaults: list(env.PAYMENTS_CLIENT_FAULTS),
    allure: env.PAYMENTS_ALLURE !== '0',
    secretCanary: env.PAYMENTS_SECRET_CANARY || undefined,
    fingerprintKey: env.PAYMENTS_FINGERPRINT_KEY,
    slow: env.PAYMENTS_SLOW === '1',
    referenceUrl: env.REF_URL || undefined,
    ci: Boolean(env.CI),
    listing: argv.includes('--list'),
    worker: env.TEST_WORKER_INDEX !== undefined,
  };
}

/** Environment variable through which Playwright's webServer hands a reference port to the workers. */
export const portVariable = (serverName: string): string => `REF_PORT_${serverName.replace(/[^A-Za-z0-9]/g, '_').toUpperCase()}`;
