/**
 * The live guard (playwright.config.ts): a live profile refuses to start unless PAYMENTS_CONFIRM_LIVE
 * names it, and then only @live-safe tests exist. Checked by spawning Playwright's own CLI
 * (what `npx playwright test` runs) with --list, so no request is ever sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import { loadProfile } from '../../helpers/profile';

const root = path.resolve(__dirname, '..', '..');
const cli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');

/** The parent's environment without anything that would select or confirm a profile. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['PAYMENTS_CONFIRM_LIVE', 'PAYMENTS_PROFILES', 'PAYMENTS_JSON_REPORT', 'CI']) delete env[k];
  return env;
}

/** Dummy values for every variable the live profile names: --list must not need real secrets. */
function dummySecrets(): Record<string, string> {
  const profile = loadProfile('live');
  assert.equal(profile.target.kind, 'remote');
  if (profile.target.kind !== 'remote') return {};
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const out: Record<string, string> = {};
  for (const refs of [profile.target.clients.primary, profile.target.clients.secondary]) {
    for (const [field, name] of Object.entries(refs ?? {})) out[name] = field === 'privateKey' ? pem : `dummy-${field}`;
  }
  return out;
}

const list = (project: string, env: NodeJS.ProcessEnv, reporter?: string) =>
  spawnSync(process.execPath, [cli, 'test', `--project=${project}`, '--list', ...(reporter ? [`--reporter=${reporter}`] : [])], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });

interface ListedSpec {
  title: string;
  tags: string[];
  tests: { projectName: string }[];
}
interface ListedSuite {
  specs?: ListedSpec[];
  suites?: ListedSuite[];
}
function specsOf(stdout: string): ListedSpec[] {
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { suites: ListedSuite[] };
  const out: ListedSpec[] = [];
  const walk = (s: ListedSuite): void => {
    out.push(...(s.specs ?? []));
    (s.suites ?? []).forEach(walk);
  };
  report.suites.forEach(walk);
  // The JSON reporter drops the leading @ of tags; put it back so tags read as written in the specs.
  return out.map((s) => ({ ...s, tags: s.tags.map((t) => (t.startsWith('@') ? t : `@${t}`)) }));
}

test('without PAYMENTS_CONFIRM_LIVE the live profile refuses to start', () => {
  const run = list('live', { ...baseEnv(), ...dummySecrets() });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /profile live targets a LIVE deployment\. Set PAYMENTS_CONFIRM_LIVE=live to confirm/);
  assert.doesNotMatch(run.stdout, /Listing tests/);
});

test('confirming another profile name does not unlock live', () => {
  const run = list('live', { ...baseEnv(), ...dummySecrets(), PAYMENTS_CONFIRM_LIVE: 'sandbox' });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /PAYMENTS_CONFIRM_LIVE=live/);
});

test('with PAYMENTS_CONFIRM_LIVE=live only @live-safe tests are listed, and some are', () => {
  const env = { ...baseEnv(), ...dummySecrets(), PAYMENTS_CONFIRM_LIVE: 'live' };
  const plain = list('live', env);
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /Listing tests:/);

  const json = list('live', env, 'json');
  assert.equal(json.status, 0, json.stderr);
  const specs = specsOf(json.stdout).filter((s) => s.tests.some((t) => t.projectName === 'live'));
  assert.ok(specs.length > 0, 'no @live-safe test exists: the live profile would run nothing');
  for (const spec of specs) assert.ok(spec.tags.includes('@live-safe'), `"${spec.title}" is listed for live without the @live-safe tag`);
  const total = /Total: (\d+) tests? in/.exec(plain.stdout);
  assert.equal(Number(total?.[1]), specs.length, 'the plain --list and the JSON list agree');

  // The filter is doing something: the suite has tests that are not live-safe.
  const local = list('local', baseEnv(), 'json');
  assert.equal(local.status, 0, local.stderr);
  assert.ok(specsOf(local.stdout).some((s) => !s.tags.includes('@live-safe')), 'every test is @live-safe, so the guard is untested');
});
