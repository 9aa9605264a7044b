/**
 * What a rendered report embeds (scripts/lib/report-content.ts, scripts/report.ts): a failed test
 * keeps every exchange; a passed test keeps each exchange as a step named with its answer, without
 * its text (the run's transcripts have it; --full embeds it); labels nobody reads are dropped; and
 * the earlier runs Allure embeds whole but its app never reads (data/history/…) are cut out.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { reportResults } from '../../../scripts/lib/report-content';
import { HISTORY_EPIC } from '../../../runner/history';
import { describeVerdicts, skipAnnotation, verdictOf, type SkipReason } from '../../../ledger/outcomes';
import { renderReport } from '../../../scripts/report';
import { embeddedFiles } from '../../../scripts/check-report-offline';
import { tempDir } from '../support/cli';

const step = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  status: 'passed',
  stage: 'finished',
  steps: [],
  attachments: [],
  parameters: [],
  ...extra,
});
/** An exchange as allure-playwright writes it: a step of its own, named like its attachment, inside the request's step. */
const exchange = (source: string, name = 'valid twin — POST /oauth/token → 200') => ({
  name,
  stage: 'finished',
  steps: [],
  attachments: [{ name, source, type: 'text/plain' }],
  parameters: [],
});

function results(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const [uuid, status] of [
    ['p', 'passed'],
    ['f', 'failed'],
  ] as const) {
    writeFileSync(path.join(dir, `${uuid}-twin.txt`), `POST /oauth/token (${uuid}) twin`);
    writeFileSync(path.join(dir, `${uuid}-pool.txt`), `POST /payments/pacs008/v10 (${uuid}) pool`);
    writeFileSync(path.join(dir, `${uuid}-note.txt`), 'rule outcomes');
    writeFileSync(
      path.join(dir, `${uuid}-result.json`),
      JSON.stringify({
        uuid,
        name: `a ${status} test`,
        fullName: `unit.spec.ts#${status}`,
        historyId: `h-${status}`,
        status,
        stage: 'finished',
        start: 1,
        stop: 2,
        labels: [
          { name: 'language', value: 'javascript' },
          { name: 'epic', value: 'Unit' },
          { name: 'tag', value: 'assumption' },
          { name: 'tag', value: 'assumption' },
        ],
        parameters: [],
        links: [],
        steps: [
          step('Before Hooks'),
          step('valid twin — POST /oauth/token', { steps: [exchange(`${uuid}-twin.txt`)] }),
          step('pay: 1 settled payment taken from the pool', {
            steps: [exchange(`${uuid}-pool.txt`, 'pay (pool) — POST /payments/pacs008/v10 → 201')],
          }),
          step('TOK-01 the valid twin gets 200'),
        ],
        attachments: [{ name: 'rule outcomes', source: `${uuid}-note.txt`, type: 'text/plain' }],
      }),
    );
  }
}

test('a passed test keeps its exchanges as steps named with their answer, without their text; a failed one keeps all', () => {
  const work = tempDir('content');
  results(path.join(work, 'in'));
  const slim = reportResults(path.join(work, 'in'), path.join(work, 'out'), 'failures');
  assert.deepEqual(
    { omitted: slim.omitted, passedTests: slim.passedTests, verdicts: slim.verdicts },
    { omitted: 2, passedTests: 1, verdicts: { passed: 1, failed: 1 } },
  );
  const files = readdirSync(path.join(work, 'out')).sort();
  assert.deepEqual(files, [
    'environment.properties',
    'f-note.txt',
    'f-pool.txt',
    'f-result.json',
    'f-twin.txt',
    'p-note.txt',
    'p-result.json',
  ]);
  const passed = JSON.parse(readFileSync(path.join(work, 'out', 'p-result.json'), 'utf8'));
  const names = (steps: { name: string; steps: unknown[] }[]): unknown[] =>
    steps.map((s) => (s.steps.length ? [s.name, names(s.steps as never)] : s.name));
  assert.deepEqual(names(passed.steps), [
    'valid twin — POST /oauth/token → 200',
    ['pay: 1 settled payment taken from the pool', ['pay (pool) — POST /payments/pacs008/v10 → 201']],
    'TOK-01 the valid twin gets 200',
  ]);
  assert.deepEqual(passed.labels, [
    { name: 'epic', value: 'Unit' },
    { name: 'tag', value: 'assumption' },
  ]);
  const failed = JSON.parse(readFileSync(path.join(work, 'out', 'f-result.json'), 'utf8'));
  assert.deepEqual(names(failed.steps), names(passed.steps), 'a failed test reads as a passed one');
  assert.deepEqual(
    failed.steps[0].attachments.map((a: { source: string }) => a.source),
    ['f-twin.txt'],
    'a failed test keeps each exchange, in the step named with its answer',
  );
  const full = reportResults(path.join(work, 'in'), path.join(work, 'full'), 'full');
  assert.deepEqual(
    { omitted: full.omitted, passedTests: full.passedTests, verdicts: full.verdicts },
    { omitted: 0, passedTests: 0, verdicts: { passed: 1, failed: 1 } },
  );
  assert.equal(readdirSync(path.join(work, 'full')).length, 9);
});

test('the exchange a failed check judged is its failed step; the replay and the rule outcomes leave After Hooks for steps of their own', () => {
  const work = tempDir('content-failed');
  const dir = path.join(work, 'in');
  mkdirSync(dir, { recursive: true });
  for (const f of ['twin', 'mutant', 'replay', 'outcomes']) writeFileSync(path.join(dir, `${f}.txt`), f);
  const attachmentStep = (name: string, source: string) => ({
    name,
    steps: [],
    attachments: [{ name, source, type: 'text/plain' }],
    parameters: [],
  });
  writeFileSync(
    path.join(dir, 'x-result.json'),
    JSON.stringify({
      uuid: 'x',
      historyId: 'x',
      name: 'refuses: SCA hd of another body',
      status: 'failed',
      stop: 1,
      labels: [
        { name: 'verdict', value: 'failed' },
        { name: 'failed answer', value: 'mutant: SCA hd — POST /payments/pacs008/v10 → 201' },
      ],
      steps: [
        step('Before Hooks'),
        step('valid twin — POST /payments/pacs008/v10', {
          steps: [exchange('twin.txt', 'valid twin — POST /payments/pacs008/v10 → 201')],
        }),
        step('P8-01 the valid twin is accepted'),
        step('mutant: SCA hd — POST /payments/pacs008/v10', {
          steps: [exchange('mutant.txt', 'mutant: SCA hd — POST /payments/pacs008/v10 → 201')],
        }),
        step('SCA-09 the submission is refused', {
          status: 'failed',
          statusDetails: {
            trace:
              'Error: x\n    at Verdicts.record (/repo/checks/verdicts.ts:394:54)\n    at /repo/tests/payments/headers-and-sca.spec.ts:87:18',
          },
        }),
        step('After Hooks', {
          steps: [attachmentStep('replay', 'replay.txt'), attachmentStep('rule outcomes', 'outcomes.txt')],
        }),
      ],
    }),
  );
  reportResults(dir, path.join(work, 'out'), 'failures');
  const result = JSON.parse(readFileSync(path.join(work, 'out', 'x-result.json'), 'utf8'));
  assert.deepEqual(
    result.steps.map((s: { name: string; status: string }) => `${s.status} ${s.name}`),
    [
      'passed valid twin — POST /payments/pacs008/v10 → 201',
      'passed P8-01 the valid twin is accepted',
      'failed mutant: SCA hd — POST /payments/pacs008/v10 → 201',
      'failed SCA-09 the submission is refused',
      'passed Reproduce',
      'passed Rule outcomes',
    ],
  );
  assert.deepEqual(result.steps[4].attachments, [{ name: 'replay', source: 'replay.txt', type: 'text/plain' }]);
  assert.equal(
    result.steps[3].statusDetails.trace,
    'Error: x\n    at /repo/tests/payments/headers-and-sca.spec.ts:87:18',
    "the failure's trace starts at the test's own line",
  );
  assert.deepEqual(
    result.labels.map((l: { name: string }) => l.name),
    ['verdict'],
    'the label that named the failed answer was read, not shown',
  );
});

test('the overview starts with the rules, then counts every verdict of the tests on its own (a retried test once), then the run metadata', () => {
  const work = tempDir('content-verdicts');
  const dir = path.join(work, 'in');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'environment.properties'), 'seed=42\nfaults=none');
  const outcomes = (o: unknown[], notMet: string[] = []) => ({
    name: 'rule outcomes',
    value: JSON.stringify({ outcomes: o, assumptionsNotMet: notMet }),
  });
  const verdicts = [
    ['a', 'passed', 'passed', 1, [outcomes([{ rule: 'TOK-01', status: 'passed' }], ['ERR-01'])]],
    [
      'b',
      'skipped',
      'skipped for a capability',
      1,
      [
        outcomes([
          {
            rule: 'KEY-01',
            status: 'skipped',
            reason: { kind: 'capability', capability: 'keyRegistration', profile: 'x' },
          },
        ]),
      ],
    ],
    ['c', 'skipped', 'blocked by an assumption or another rule', 1, []],
    ['d', 'broken', undefined, 1, [{ name: 'tag', value: 'TOK-03' }]],
    ['e', 'failed', 'inconclusive', 1, []],
    ['f', 'failed', 'failed', 1, [outcomes([{ rule: 'TOK-02', status: 'failed', why: 'x' }])]], // a first try that failed,
    ['f', 'passed', 'passed', 2, [outcomes([{ rule: 'TOK-02', status: 'passed' }])]], // then passed on retry: one passed test
  ] as const;
  for (const [i, [id, status, verdict, stop, labels]] of verdicts.entries())
    writeFileSync(
      path.join(dir, `${i}-result.json`),
      JSON.stringify({
        uuid: `${i}`,
        historyId: id,
        name: id,
        status,
        stop,
        steps: [],
        labels: [...(verdict ? [{ name: 'verdict', value: verdict }] : []), ...labels],
      }),
    );
  const { verdicts: counted, rules } = reportResults(dir, path.join(work, 'out'), 'failures');
  assert.deepEqual(counted, { passed: 2, capability: 1, blocked: 1, failed: 1, inconclusive: 1 });
  assert.equal(rules.length, 1);
  assert.deepEqual(
    { ...rules[0]!.glance, unassessed: rules[0]!.glance.unassessed.map((g) => `${g.rules.length} ${g.why}`) },
    {
      documented: rules[0]!.glance.documented,
      assessed: 3,
      violated: ['TOK-03'],
      unassessed: [
        `${rules[0]!.glance.documented - 4} not run, no test of this run cites them`,
        '1 need keyRegistration',
      ],
      assumptions: rules[0]!.glance.assumptions,
      assumptionsNotMet: ['ERR-01'],
    },
    'TOK-01 and TOK-02 held (the retry passed), TOK-03 violated (a broken test, by its tag), KEY-01 needs a capability',
  );
  const env = readFileSync(path.join(work, 'out', 'environment.properties'), 'utf8').split('\n');
  assert.deepEqual(
    env.map((line) => line.split('=')[0]),
    [
      'rules',
      'rules\\ not\\ assessed',
      'assumptions',
      'ISO\\ 20022\\ schema',
      'tests',
      'the\\ ring',
      'exchanges',
      'seed',
      'faults',
    ],
  );
  assert.match(env[0]!, /^rules=3 of \d+ documented rules assessed, 1 violated \(TOK-03\)$/);
  assert.match(env[2]!, /^assumptions=1 of \d+ assumptions not met \(ERR-01\)/);
  assert.match(env[3]!, /^ISO\\ 20022\\ schema=of \d+ documented rules, \d+ are enforced by the XSD itself/);
  assert.equal(
    env[4],
    'tests=2 passed, 1 failed, 1 skipped for a capability, 1 blocked by an assumption or another rule, 1 inconclusive',
  );
});

test('the History results count in the rules and have a line beside them, not among the tests', () => {
  const work = tempDir('content-history-results');
  const dir = path.join(work, 'in');
  mkdirSync(dir, { recursive: true });
  const result = (name: string, status: string, labels: { name: string; value: string }[]) =>
    writeFileSync(
      path.join(dir, `${name}-result.json`),
      JSON.stringify({ uuid: name, historyId: name, name, status, stop: 1, steps: [], labels }),
    );
  const outcomes = (o: unknown[]) => ({
    name: 'rule outcomes',
    value: JSON.stringify({ outcomes: o, assumptionsNotMet: [] }),
  });
  result('a test', 'passed', [{ name: 'verdict', value: 'passed' }, outcomes([{ rule: 'P8-33', status: 'passed' }])]);
  result('repeats', 'passed', [
    { name: 'epic', value: HISTORY_EPIC },
    { name: 'feature', value: 'repeats' },
    { name: 'verdict', value: 'passed' },
    outcomes([{ rule: 'IDEM-02', status: 'passed' }]),
  ]);
  result('identity', 'failed', [
    { name: 'epic', value: HISTORY_EPIC },
    { name: 'feature', value: 'identity' },
    { name: 'verdict', value: 'failed' },
    outcomes([
      { rule: 'P8-33', status: 'failed', why: 'an id names two payments' },
      { rule: 'XCL-01', status: 'passed' },
    ]),
  ]);
  const { verdicts, rules } = reportResults(dir, path.join(work, 'out'), 'failures');
  assert.deepEqual(verdicts, { passed: 1 }, 'the tests are counted without the History results');
  assert.equal(rules[0]!.glance.assessed, 3);
  assert.deepEqual(
    rules[0]!.glance.violated,
    ['P8-33'],
    "the history's violation is the rule's, whatever the test said",
  );
  const env = readFileSync(path.join(work, 'out', 'environment.properties'), 'utf8').split('\n');
  assert.deepEqual(env.map((line) => line.split('=')[0]).slice(0, 6), [
    'rules',
    'rules\\ not\\ assessed',
    'assumptions',
    "run's\\ history",
    'ISO\\ 20022\\ schema',
    'tests',
  ]);
  assert.equal(env[3], "run's\\ history=identity violated (P8-33); repeats passed (results under History)");
  assert.equal(
    env[5],
    'tests=1 passed, 0 failed, 0 skipped for a capability, 0 blocked by an assumption or another rule, 0 inconclusive',
  );
});

test('a report rendered over a history embeds no earlier run whole (data/history/…), which its app never reads', () => {
  const work = tempDir('content-history');
  results(path.join(work, 'in'));
  const history = path.join(work, 'h.jsonl');
  let html = '';
  for (const i of [1, 2, 3])
    html = readFileSync(
      renderReport(path.join(work, 'in'), path.join(work, `r${i}`), { historyPath: history, print: false })!,
      'utf8',
    );
  assert.equal(readFileSync(history, 'utf8').split('\n').filter(Boolean).length, 3, 'the history has every run');
  const names = [...embeddedFiles(html).keys()];
  assert.ok(!names.some((n) => n.startsWith('data/history/')));
  assert.ok(
    names.some((n) => n.startsWith('data/test-results/')),
    'the data list is still well formed',
  );
  // The app's own script, inline in the page (scripts/lib/report-page.ts).
  const app = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1]!)
    .sort((a, b) => b.length - a.length)[0]!;
  const read = [...new Set([...app.matchAll(/[`"']data\/([a-z-]+)\//g)].map((m) => m[1]))].sort();
  assert.deepEqual(
    read,
    ['attachments', 'test-env-groups', 'test-results'],
    'the data folders the app reads (a new one may be history: then keep it)',
  );
});

test('verdicts: a skip says why by its rule-skip annotation; an inconclusive annotation wins over any status', () => {
  const skip = (reason: SkipReason) => [skipAnnotation(reason)];
  assert.equal(
    verdictOf('skipped', skip({ kind: 'capability', capability: 'secondClient', profile: 'sandbox' })),
    'capability',
  );
  assert.equal(verdictOf('skipped', skip({ kind: 'blocked', by: 'assumption ERR-01', answer: 'x' })), 'blocked');
  assert.equal(verdictOf('skipped', skip({ kind: 'not-applicable', why: 'x' })), 'not-applicable');
  assert.equal(verdictOf('skipped', []), 'skipped');
  assert.equal(
    verdictOf('failed', [{ type: 'inconclusive', description: 'the scheme did not settle in time' }]),
    'inconclusive',
  );
  assert.equal(verdictOf('skipped', [{ type: 'inconclusive' }]), 'inconclusive');
  assert.equal(
    describeVerdicts({ passed: 3, 'not-applicable': 1 }),
    '3 passed, 0 failed, 0 skipped for a capability, 0 blocked by an assumption or another rule, 0 inconclusive, 1 not applicable',
  );
});
