/**
 * One Playwright project per environment profile (environments/<name>.json). Only the projects named
 * with --project are built (default: local), so a run against the embedded reference never needs the
 * sandbox's secrets, and a profile error stops the run with one sentence.
 */
import { defineConfig, type PlaywrightTestConfig, type Project } from '@playwright/test';
import os from 'node:os';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadProfile, ProfileError, type Profile } from './helpers/profile';
import { ensureRunContext, portVariable } from './fixtures/run-context';
import { refuseUnsetSecrets } from './helpers/preflight';
import { runFolder } from './helpers/run-folder';
import packageJson from './package.json';

const { seed, runId } = ensureRunContext();

/**
 * Memory of the processes this config starts (issue 7: a 2-worker run under 600 MB of RSS, summed
 * over the process tree; it peaked at about 830 MiB). V8 sizes its heap for the machine: with a lot
 * of RAM each process grows a 32 MB young generation and lets the old one grow 4× before collecting,
 * although a worker's live heap stays near 60 MB. Workers are forked with the runner's environment
 * as it is once this file has run, so NODE_OPTIONS and the malloc variables set here reach them, and
 * the reference. The runner itself is already running: scripts/run-playwright.ts starts it with 1 MB
 * semi-spaces, a flag its workers inherit on their command line (which would win over NODE_OPTIONS,
 * hence no heap cap there).
 *  - Workers: 1 MB semi-spaces and a 256 MB old generation, which V8 then grows by ~1.3× instead of
 *    4×: 4× a worker's live heap, which grows by ~15 KB a test (a worker serves one project only).
 *  - Reference: 1 MB semi-spaces and --optimize-for-size (command line: NODE_OPTIONS refuses it),
 *    no cap: it keeps every client and payment, and the mutation matrix with scope "all" sends it
 *    143 × the suite.
 *  - glibc malloc: one arena instead of one per thread, and blocks of 128 KB and more given back to
 *    the system when freed: about 20 MB less per worker, no slower (other C libraries ignore them).
 */
const WORKER_V8_FLAGS = ['--max-semi-space-size=1', '--max-old-space-size=256'];
const REFERENCE_V8_FLAGS = ['--max-semi-space-size=1'];
process.env.MALLOC_ARENA_MAX ??= '1';
process.env.MALLOC_MMAP_THRESHOLD_ ??= '131072';

/** `options` plus each flag it does not set yet: a flag the user set wins. */
function withFlags(options: string, flags: string[]): string {
  const missing = flags.filter((flag) => !options.includes(flag.split('=')[0]!));
  return [options, ...missing].filter(Boolean).join(' ');
}
// Workers load this file again, with the flags already there: nothing is added twice.
const userNodeOptions = process.env.NODE_OPTIONS ?? '';
process.env.NODE_OPTIONS = withFlags(userNodeOptions, WORKER_V8_FLAGS);

function selectedProfileNames(argv: string[]): string[] {
  const names: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--project' && argv[i + 1]) names.push(argv[i + 1]!);
    else if (arg.startsWith('--project=')) names.push(arg.slice('--project='.length));
  });
  const fromEnv = process.env.PAYMENTS_PROFILES?.split(',').filter(Boolean) ?? [];
  const selected = [...new Set(names.length ? names : fromEnv.length ? fromEnv : ['local'])];
  // Workers load this config again without the --project arguments: hand them the selection.
  process.env.PAYMENTS_PROFILES = selected.join(',');
  return selected;
}

function load(name: string): Profile {
  try {
    return loadProfile(name);
  } catch (error) {
    if (error instanceof ProfileError) {
      // One clear line instead of a stack trace: this is a configuration mistake, not a suite bug.
      console.error(`\n✖ ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

const profiles = selectedProfileNames(process.argv).map(load);

/**
 * Fault-injection kill matrix (scripts/mutation.ts): PAYMENTS_MUTATION_FAULTS names a JSON file
 * {scope, faults: [{name, rule}]} (or a plain list of fault names). Each fault becomes one project
 * `<profile>~<fault>` against the same reference server, whose clients are registered with that one
 * fault; with scope "cited" a fault project runs only the tests citing the fault's rule.
 */
function mutationProjects(profileName: string): Project[] {
  const file = process.env.PAYMENTS_MUTATION_FAULTS;
  if (!file) return [];
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  const list = (Array.isArray(parsed) ? parsed : (parsed as { faults: unknown[] }).faults) as (string | { name: string; rule?: string })[];
  const scope = Array.isArray(parsed) ? 'all' : ((parsed as { scope?: string }).scope ?? 'all');
  return list.map((entry) => {
    const fault = typeof entry === 'string' ? { name: entry } : entry;
    return {
      name: `${profileName}~${fault.name}`,
      testDir: './tests',
      testIgnore: ['**/unit/**'],
      metadata: { profile: profileName, faults: [fault.name] },
      // (?![0-9]) so that @P8-1 never selects @P8-12.
      ...(scope === 'cited' && fault.rule ? { grep: new RegExp(`@${fault.rule}(?![0-9])`) } : {}),
    };
  });
}

for (const profile of profiles) {
  if (profile.live && process.env.PAYMENTS_CONFIRM_LIVE !== profile.name) {
    console.error(
      `\n✖ profile ${profile.name} targets a LIVE deployment. Set PAYMENTS_CONFIRM_LIVE=${profile.name} to confirm; only tests tagged @live-safe will run.\n`,
    );
    process.exit(2);
  }
}
refuseUnsetSecrets(profiles);
const run = runFolder(runId);

const projects: Project[] = profiles.flatMap((profile) => [
  {
    name: profile.name,
    testDir: './tests',
    testIgnore: ['**/unit/**'],
    metadata: { profile: profile.name, faults: [] },
    // A live deployment only ever sees tests that are safe there: tokens, reads, bounded payments.
    ...(profile.live ? { grep: /@live-safe/ } : {}),
  },
  ...(profile.target.kind === 'reference' ? mutationProjects(profile.name) : []),
]);

const webServers: NonNullable<PlaywrightTestConfig['webServer']> = profiles
  .filter((p) => p.target.kind === 'reference' && !process.env.REF_URL)
  .map((profile) => {
    const target = profile.target as Extract<Profile['target'], { kind: 'reference' }>;
    const variable = portVariable(profile.name);
    return {
      // tsx's CommonJS hook only: `--import tsx` also registers its ESM hooks, which Node 20 runs on a
      // loader thread with its own V8 heap (10–30 MB of RSS); the reference is CommonJS throughout.
      command: `node --optimize-for-size --require tsx/cjs ${path.join('reference', 'main.ts')}`,
      env: {
        NODE_OPTIONS: withFlags(userNodeOptions, REFERENCE_V8_FLAGS),
        REF_HOST: '127.0.0.1',
        REF_PORT: '0',
        REF_DIALECT: target.dialect ?? 'default',
        ...(target.env ?? {}),
      },
      wait: { stdout: new RegExp(`reference listening on port (?<${variable}>\\d+)`) },
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
      gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 2_000 },
    };
  });

const workers = Number(process.env.PAYMENTS_WORKERS) || Math.min(...profiles.map((p) => p.concurrency?.workers ?? Math.max(2, os.cpus().length)));
const allureOn = process.env.PAYMENTS_ALLURE !== '0';

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers,
  retries: 0,
  timeout: 60_000,
  forbidOnly: Boolean(process.env.CI),
  globalSetup: './fixtures/global-setup.ts',
  outputDir: run.outputDir,
  reporter: [
    [process.env.CI ? 'dot' : 'list'],
    ...(run.jsonReport ? [['json', { outputFile: run.jsonReport }] as ['json', { outputFile: string }]] : []),
    ...(allureOn
      ? [
          [
            'allure-playwright',
            {
              resultsDir: run.allureResults,
              detail: true,
              suiteTitle: true,
              environmentInfo: {
                targets: profiles.map((p) => `${p.name} (${p.target.kind === 'remote' ? p.target.baseUrl : `reference, dialect ${p.target.dialect ?? 'default'}`})`).join('; '),
                apiVersions: profiles
                  .map((p) => `${p.name}: ${Object.entries(p.operations).map(([op, o]) => `${op} ${o.versions.join('/')}`).join(', ')}`)
                  .join('; '),
                suiteVersion: packageJson.version,
                seed,
                runId,
                node: process.version,
              },
            },
          ] as [string, unknown],
        ]
      : []),
    ['./fixtures/reporters/summary.ts'],
    ['./helpers/run-folder-reporter.ts'],
  ],
  ...(webServers.length ? { webServer: webServers } : {}),
  projects,
});
