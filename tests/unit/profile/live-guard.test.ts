/**
 * The live guard (playwright.config.ts): a live profile refuses to start unless PAYMENTS_CONFIRM_LIVE
 * names it, and then only @live-safe tests exist. Checked by spawning Playwright's own CLI
 * (what `npx playwright test` runs) with --list, so no request is ever sent. Then the live lane runs
 * for real against the embedded reference (environments/local-live.json): no failure, within its
 * payment budget, the count printed before and after.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadProfile } from '../../../profile/profile';

const root = path.resolve(__dirname, '..', '..', '..');
const cli = path.join(root, 'node_modules', '@playwright', 'test', 'cli.js');

/** The parent's environment without anything that would select or confirm a profile. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of [
    'PAYMENTS_CONFIRM_LIVE',
    'PAYMENTS_PROFILES',
    'PAYMENTS_JSON_REPORT',
    'PAYMENTS_RUN_ID',
    'PAYMENTS_RUN_DIR',
    'CI',
  ])
    delete env[k];
  return env;
}

/** Dummy values for every variable the live profile names: --list must not need real secrets. */
function dummySecrets(): Record<string, string> {
  const profile = loadProfile('live');
  assert.equal(profile.target.kind, 'remote');
  if (profile.target.kind !== 'remote') return {};
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  const out: Record<string, string> = {};
  for (const refs of [profile.target.clients.primary, profile.target.clients.secondary]) {
    for (const [field, name] of Object.entries(refs ?? {})) out[name] = field === 'privateKey' ? pem : `dummy-${field}`;
  }
  return out;
}

const list = (project: string, env: NodeJS.ProcessEnv, reporter?: string) =>
  spawnSync(
    process.execPath,
    [cli, 'test', `--project=${project}`, '--list', ...(reporter ? [`--reporter=${reporter}`] : [])],
    {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 120_000,
      // The JSON list of the local project is over spawnSync's default 1 MB.
      maxBuffer: 64 * 1024 * 1024,
    },
  );

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
  for (const spec of specs)
    assert.ok(spec.tags.includes('@live-safe'), `"${spec.title}" is listed for live without the @live-safe tag`);
  const total = /Total: (\d+) tests? in/.exec(plain.stdout);
  assert.equal(Number(total?.[1]), specs.length, 'the plain --list and the JSON list agree');

  // The filter is doing something: the suite has tests that are not live-safe.
  const local = list('local', baseEnv(), 'json');
  assert.equal(local.status, 0, local.stderr);
  assert.ok(
    specsOf(local.stdout).some((s) => !s.tags.includes('@live-safe')),
    'every test is @live-safe, so the guard is untested',
  );
});

test('the live lane runs against the reference as live: 0 failures, payments within maxPayments, the count printed before and after', () => {
  const limits = loadProfile('local-live').liveLimits!;
  const runsRoot = mkdtempSync(path.join(os.tmpdir(), 'payments-live-lane-'));
  try {
    const run = spawnSync(process.execPath, [cli, 'test', '--project=local-live'], {
      cwd: root,
      env: { ...baseEnv(), PAYMENTS_CONFIRM_LIVE: 'local-live', PAYMENTS_RUNS_ROOT: runsRoot, PAYMENTS_ALLURE: '0' },
      encoding: 'utf8',
      timeout: 240_000,
    });
    assert.equal(run.status, 0, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-2000)}`);
    const closing = /^(\d+) passed, (\d+) failed, (\d+) skipped/m.exec(run.stdout);
    assert.ok(closing, 'the closing line is printed');
    assert.equal(Number(closing[2]), 0, 'no live-lane test failed');
    assert.ok(Number(closing[1]) > 0, 'the live lane ran tests');

    const count = (when: string) => {
      const line = new RegExp(
        `^live payments ${when} the run \\(local-live\\): (\\d+) made, (\\d+) of (\\d+) budget slots used`,
        'm',
      ).exec(run.stdout);
      assert.ok(line, `the count line ${when} the run is printed`);
      return { made: Number(line[1]), claimed: Number(line[2]), max: Number(line[3]) };
    };
    assert.deepEqual(count('before'), { made: 0, claimed: 0, max: limits.maxPayments });
    const after = count('after');
    assert.ok(after.made >= 1, 'the lane made its real low-value payment');
    assert.ok(
      after.claimed <= limits.maxPayments && after.made <= limits.maxPayments,
      `payments within maxPayments ${limits.maxPayments}: ${JSON.stringify(after)}`,
    );

    const [folder] = readdirSync(runsRoot);
    const record = JSON.parse(readFileSync(path.join(runsRoot, folder!, 'run.json'), 'utf8')) as {
      livePayments?: { before?: { made: number }[]; after?: { made: number; claimed: number }[] };
    };
    assert.equal(record.livePayments?.before?.[0]?.made, 0, 'run.json keeps the count before the run');
    assert.deepEqual(
      record.livePayments?.after?.map((p) => [p.made, p.claimed]),
      [[after.made, after.claimed]],
      'run.json keeps the count after the run',
    );
  } finally {
    rmSync(runsRoot, { recursive: true, force: true });
  }
});
