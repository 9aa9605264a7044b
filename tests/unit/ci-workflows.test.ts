/**
 * The nightly CI definitions (.github/workflows/nightly.yml, .gitlab-ci.yml) are code no local run
 * executes, so they are checked here: they parse as YAML, every `npm run X` they call exists in
 * package.json, every script file they name exists, the sandbox profile's secret variables are all
 * mapped, and the sharding / merge / deviation steps are wired; the merge job checks drift (a
 * discovery of its own), the @slow lane runs once beside the shards, and the proxy and CA variables
 * are documented without being overridden.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { declaredSecretVariables, loadProfile } from '../../profile/profile';

const root = path.resolve(__dirname, '..', '..');
const WORKFLOWS = ['.github/workflows/nightly.yml', '.gitlab-ci.yml'];

function load(file: string): Record<string, any> {
  const doc = parseDocument(readFileSync(path.join(root, file), 'utf8'), { uniqueKeys: true });
  assert.deepEqual(
    doc.errors.map((e) => e.message),
    [],
    `${file} is not valid YAML`,
  );
  return doc.toJS() as Record<string, any>;
}

/** Every string anywhere in the parsed document: run steps, scripts, env values. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

const scripts = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** The env var names a profile reads its secrets from. */
function secretNames(profileName: string): string[] {
  return declaredSecretVariables(loadProfile(profileName)).sort();
}

for (const file of WORKFLOWS) {
  test(`${file} parses, and every npm script and script file it calls exists`, () => {
    const text = strings(load(file)).join('\n');
    const called = [...new Set([...text.matchAll(/npm run ([\w:-]+)/g)].map((m) => m[1]!))].sort();
    assert.ok(called.length > 0, `${file} calls no npm script`);
    const missing = called.filter((name) => !(name in scripts));
    assert.deepEqual(missing, [], `${file} calls npm scripts that package.json does not define: ${missing.join(', ')}`);
    const files = [...new Set([...text.matchAll(/(scripts\/[\w./-]+\.ts)/g)].map((m) => m[1]!))];
    for (const f of files) assert.ok(existsSync(path.join(root, f)), `${file} runs ${f}, which does not exist`);
    assert.doesNotMatch(text, /playwright install/, 'API-only suite: never download browsers');
  });
}

test('GitHub nightly: scheduled and manual, three shards, every sandbox secret mapped from the secret store', () => {
  const wf = load('.github/workflows/nightly.yml');
  assert.ok(wf.on?.schedule?.length, 'no schedule');
  assert.ok('workflow_dispatch' in (wf.on ?? {}), 'no workflow_dispatch');
  const shardJob = wf.jobs.test;
  assert.deepEqual(shardJob.strategy.matrix.shard, [1, 2, 3]);
  assert.equal(shardJob.strategy['fail-fast'], false);
  const shardText = strings(shardJob.steps).join('\n');
  assert.match(shardText, /--project=sandbox --shard=\$\{\{ matrix\.shard \}\}\/3/);
  assert.match(shardText, /allure-results-\$\{\{ matrix\.shard \}\}/);
  // A run writes into its run folder only: the shard names it and copies what the uploads take.
  assert.ok(shardJob.env?.PAYMENTS_RUN_DIR, 'the shard job names no run folder (PAYMENTS_RUN_DIR)');
  assert.match(shardText, /"\$PAYMENTS_RUN_DIR\/allure-results\/\." reports\/allure-results\//);
  assert.match(shardText, /"\$PAYMENTS_RUN_DIR\/results\.json" "reports\/json\/shard-/);
  // Every job reaches the sandbox (shards, slow lane, the merge job's discovery): every secret, for each.
  for (const [id, job] of Object.entries(wf.jobs as Record<string, { env?: Record<string, string> }>)) {
    for (const name of secretNames('sandbox')) {
      assert.equal(
        { ...wf.env, ...job.env }[name],
        `\${{ secrets.${name} }}`,
        `${name} (named in environments/sandbox.json) is not mapped from secrets for job ${id}`,
      );
    }
  }
});

test('GitHub nightly: the merge job restores history, renders, saves history, uploads, then applies deviations', () => {
  const wf = load('.github/workflows/nightly.yml');
  const job = wf.jobs.report;
  assert.deepEqual(job.needs, ['test', 'slow']);
  assert.equal(job.if, 'always()');
  const steps = job.steps as { uses?: string; run?: string; with?: Record<string, unknown> }[];
  const at = (pred: (s: (typeof steps)[number]) => boolean, what: string): number => {
    const i = steps.findIndex(pred);
    assert.ok(i >= 0, `merge job has no step that ${what}`);
    return i;
  };
  const download = at(
    (s) => Boolean(s.uses?.startsWith('actions/download-artifact') && s.with?.pattern === 'allure-results-*'),
    'downloads the shards’ allure results',
  );
  const restore = at((s) => Boolean(s.uses?.startsWith('actions/cache/restore')), 'restores the Allure history');
  const render = at((s) => s.run === 'npm run report -- reports/allure-results', 'renders the merged shards’ results');
  const save = at((s) => Boolean(s.uses?.startsWith('actions/cache/save')), 'saves the Allure history');
  const upload = at(
    (s) => Boolean(s.uses?.startsWith('actions/upload-artifact') && s.with?.path === 'reports/allure-report'),
    'uploads the report',
  );
  const deviations = at(
    (s) => Boolean(s.run?.startsWith('npm run nightly -- --project sandbox --from-report')),
    'applies the deviations',
  );
  assert.ok(
    download < render && restore < render && render < save && render < upload && upload < deviations,
    'steps are out of order',
  );
  for (const i of [restore, save])
    assert.equal(steps[i]!.with?.path, 'reports/history', 'the cached folder must be allurerc historyPath’s folder');
});

test('GitLab nightly: three parallel shards, a report job that needs them and keeps the history', () => {
  const ci = load('.gitlab-ci.yml');
  const shards = ci['nightly:sandbox'];
  assert.equal(shards.parallel, 3);
  const shardScript = strings(shards.script).join('\n');
  assert.match(shardScript, /--project=sandbox --shard=\$\{CI_NODE_INDEX\}\/\$\{CI_NODE_TOTAL\}/);
  assert.ok(shards.variables?.PAYMENTS_RUN_DIR, 'the shard job names no run folder (PAYMENTS_RUN_DIR)');
  assert.match(shardScript, /"\$PAYMENTS_RUN_DIR\/allure-results\/\." reports\/allure-results\//);
  assert.match(shardScript, /"\$PAYMENTS_RUN_DIR\/results\.json" "reports\/json\/shard-/);
  const report = ci['nightly:report'];
  assert.deepEqual(
    report.needs.map((n: { job: string }) => n.job),
    ['nightly:sandbox', 'nightly:slow'],
  );
  assert.ok(!('when' in report && 'rules' in report), 'GitLab rejects job-level when together with rules');
  assert.ok(
    report.cache.some((c: { paths: string[] }) => c.paths.includes('reports/history/')),
    'the Allure history is not cached',
  );
  assert.deepEqual(report.script, [
    'npm run report -- reports/allure-results',
    'npm run nightly -- --project sandbox --from-report reports/json --discover',
  ]);
  // Drift alone (exit 3) is a warning; a conformance failure (exit 1) still fails the pipeline.
  assert.deepEqual(report.allow_failure, { exit_codes: [3] });
});

/** Each template's jobs, by role: the sharded suite, the slow lane, the merge. */
function jobsOf(file: string): {
  shards: Record<string, any>;
  slow: Record<string, any>;
  merge: Record<string, any>;
  mergeText: string;
  text: string;
} {
  const doc = load(file);
  const raw = readFileSync(path.join(root, file), 'utf8');
  if (file.startsWith('.github'))
    return {
      shards: doc.jobs.test,
      slow: doc.jobs.slow,
      merge: doc.jobs.report,
      mergeText: strings(doc.jobs.report.steps).join('\n'),
      text: raw,
    };
  return {
    shards: doc['nightly:sandbox'],
    slow: doc['nightly:slow'],
    merge: doc['nightly:report'],
    mergeText: strings(doc['nightly:report'].script).join('\n'),
    text: raw,
  };
}

const slowLaneBound = (): number | undefined => loadProfile('sandbox').slowLane?.tokenExpiry?.maxWaitSeconds;

for (const file of WORKFLOWS) {
  test(`${file}: the merge job checks drift — nightly runs a discovery on the merged reports (exit 3, never a conformance failure)`, () => {
    const { mergeText } = jobsOf(file);
    const nightlyLine = mergeText.split('\n').find((l) => /npm run nightly -- /.test(l));
    assert.ok(nightlyLine, 'the merge job runs no nightly');
    assert.match(nightlyLine, /--from-report reports\/json/);
    // Without --discover a merge of reports prints "not checked — discovery not run": no drift detection.
    assert.match(
      nightlyLine,
      /(^|\s)--discover(\s|$)/,
      'the merge job runs nightly without --discover: drift is never detected',
    );
    assert.doesNotMatch(nightlyLine, /--no-discover/);
  });

  test(`${file}: the @slow lane runs once (PAYMENTS_SLOW=1 in one unsharded job), and the shards leave it out`, () => {
    const { shards, slow, text } = jobsOf(file);
    assert.ok(slow, 'no slow-lane job');
    const slowEnv = slow.env ?? slow.variables;
    assert.equal(slowEnv?.PAYMENTS_SLOW, '1', 'the slow-lane job does not set PAYMENTS_SLOW=1');
    const slowText = strings(slow.steps ?? slow.script).join('\n');
    assert.match(slowText, /npx playwright test --project=sandbox --grep @slow/);
    assert.doesNotMatch(slowText, /--shard/, 'the slow lane is one job, not sharded');
    assert.ok(!slow.strategy && !slow.parallel, 'the slow lane must not multiply');
    // Sharding splits one list of tests: every shard must compute the same one, without @slow.
    assert.equal((shards.env ?? shards.variables)?.PAYMENTS_SLOW, undefined, 'the shards run @slow too');
    assert.doesNotMatch(
      text
        .split('\n')
        .filter((l) => !l.trimStart().startsWith('#'))
        .join('\n')
        .replace(/^\s*PAYMENTS_SLOW: '1'$/m, ''),
      /PAYMENTS_SLOW/,
      'PAYMENTS_SLOW is set beyond the slow-lane job',
    );
    assert.match(slowText, /reports\/json\/slow\.json/, 'the slow lane hands its JSON report to the merge');
    // Its job must outlast the longest wait the profile allows, plus the run around it.
    const minutes = Number(String(slow['timeout-minutes'] ?? slow.timeout).match(/\d+/)?.[0]);
    assert.ok(
      minutes * 60 >= slowLaneBound()! + 15 * 60,
      `the slow lane's timeout (${minutes} min) is shorter than sandbox.json's slowLane wait plus 15 minutes`,
    );
  });

  test(`${file}: the proxy and CA variables are documented for the bank's runners, never set to a value that hides theirs`, () => {
    const { text } = jobsOf(file);
    for (const name of ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS']) {
      assert.match(text, new RegExp(`^#.*\\b${name}\\b`, 'm'), `${file} does not say where ${name} comes from`);
      assert.doesNotMatch(
        text,
        new RegExp(`^\\s*${name}\\s*:`, 'mi'),
        `${file} sets ${name}: an empty or fixed value would override the runner's`,
      );
    }
  });
}

test('GitHub nightly: the merge job downloads the slow lane’s results with the shards’ (same artifact prefixes)', () => {
  const wf = load('.github/workflows/nightly.yml');
  const uploads = (wf.jobs.slow.steps as { uses?: string; with?: { name?: string } }[])
    .filter((s) => s.uses?.startsWith('actions/upload-artifact'))
    .map((s) => s.with?.name);
  assert.deepEqual(uploads, ['allure-results-slow', 'playwright-json-slow']);
});

test('environments/sandbox.json sets a slow lane, so AT-05 is assessed without tokenLifetimeControl', () => {
  const bound = slowLaneBound();
  assert.ok(
    bound !== undefined,
    'sandbox.json has no slowLane.tokenExpiry.maxWaitSeconds: AT-05 is never assessed at night',
  );
  assert.ok(
    bound >= 300 && bound <= 3600,
    `a slow lane waiting ${bound} s: shorter misses common token lifetimes, longer holds a runner for hours`,
  );
});

test('GitLab nightly: the shards and the slow lane publish their run’s junit.xml as the pipeline’s test report', () => {
  const ci = load('.gitlab-ci.yml');
  for (const [name, copied] of [
    ['nightly:sandbox', `reports/junit/shard-\${CI_NODE_INDEX}.xml`],
    ['nightly:slow', 'reports/junit/slow.xml'],
  ] as const) {
    const job = ci[name];
    assert.equal(job.artifacts?.reports?.junit, 'reports/junit/*.xml', `${name} publishes no JUnit report`);
    assert.ok(
      strings(job.script).some((line) => line.includes('"$PAYMENTS_RUN_DIR/junit.xml"') && line.includes(copied)),
      `${name} does not copy its run folder's junit.xml to ${copied}`,
    );
  }
});

test('GitHub nightly: the merge job writes the rules line and the failed tests into the job summary', () => {
  const wf = load('.github/workflows/nightly.yml');
  const steps = wf.jobs.report.steps as { uses?: string; run?: string; if?: string; with?: Record<string, unknown> }[];
  const json = steps.findIndex(
    (s) => s.uses?.startsWith('actions/download-artifact') && s.with?.pattern === 'playwright-json-*',
  );
  const summary = steps.findIndex((s) => s.run?.includes('scripts/ci-summary.ts reports/json'));
  assert.ok(summary >= 0, 'no step writes scripts/ci-summary.ts into the job summary');
  assert.match(steps[summary]!.run!, />> "\$GITHUB_STEP_SUMMARY"$/);
  assert.equal(steps[summary]!.if, 'always()', 'a failed step before it must not hide the summary');
  assert.ok(json >= 0 && json < summary, 'the summary is written before the shards’ reports are downloaded');
});
