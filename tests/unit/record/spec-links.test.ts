/**
 * Item "spec links resolve": the spec ships in the repo (spec/payments-api.md), an offline HTML copy
 * with a stable anchor per section is rendered next to every report (and embedded in it), and every
 * rule's link goes to the anchor of its first section; a profile's specUrl replaces the base.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { rules } from '../../../ledger/rules';
import { specLink, specLinkFor, firstSection } from '../../../record/spec-links';
import { renderSpecHtml, specHtml, specSourceLine, SPEC_FILE } from '../../../record/spec-html';
import { loadProfile, parseProfile, ProfileError } from '../../../profile/profile';
import { renderReport } from '../../../scripts/report';
import { cleanEnv, runPlaywrightCli, syntheticResults, tempDir } from '../support/cli';

const ids = (html: string): Set<string> => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!));

test('specLink maps ledger sections to the first section’s anchor, on spec.html or a profile’s base', () => {
  assert.equal(specLink('§4.2 §7'), 'spec.html#section-4.2');
  assert.equal(specLink('§1 rule 4 §3'), 'spec.html#section-1');
  assert.equal(specLink('§2.5'), 'spec.html#section-2.5');
  assert.equal(
    specLink('§5.4 §7 §8', 'https://wiki.bank.example/spec.html'),
    'https://wiki.bank.example/spec.html#section-5.4',
  );
  assert.equal(
    specLink('§9', 'https://wiki.bank.example/spec.html#old'),
    'https://wiki.bank.example/spec.html#section-9',
  );
  assert.equal(specLink('no section', 'x.html'), 'x.html');
  assert.equal(firstSection('§1 rule 5'), '1');
  assert.deepEqual(specLinkFor('§4.2 §7', 'P8-01'), ['spec.html#section-4.2', 'spec §4.2 §7 (P8-01)']);
  assert.deepEqual(specLinkFor('§4.2', 'P8-01', 'https://wiki.bank.example/s.html'), [
    'https://wiki.bank.example/s.html#section-4.2',
    'spec §4.2 (P8-01)',
  ]);
});

test('the spec ships in the repo and every rule’s link lands on an anchor of its offline copy', () => {
  assert.ok(existsSync(SPEC_FILE));
  const html = specHtml();
  const anchors = ids(html);
  const missing = rules
    .filter((r) => !anchors.has(specLink(r.section).split('#')[1]!))
    .map((r) => `${r.id} ${r.section}`);
  assert.deepEqual(missing, []);
  for (const a of [
    'section-1',
    'section-2.1',
    'section-4.2',
    'section-4.4',
    'section-9',
    'section-5.1',
    'section-5.7',
    'section-1-rule-4',
  ])
    assert.ok(anchors.has(a), `no anchor ${a}`);
  assert.equal(anchors.size, [...html.matchAll(/\sid="/g)].length, 'anchors are unique');
});

test('the offline copy needs no network: no script, no external asset, angle brackets escaped', () => {
  const html = specHtml();
  assert.doesNotMatch(html, /<script|<link|<img|<iframe|@import|url\(/i);
  assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//i);
  assert.match(html, /Bearer &#60;ACCESS_TOKEN&#62;/);
  const small = renderSpecHtml('# T\n\n## 3. Three\n\n1. one\n2. two\n\n| a | b |\n|---|---|\n| `x` | **y** |\n');
  assert.ok(ids(small).has('section-3.2'));
  assert.match(small, /<td><code>x<\/code><\/td><td><strong>y<\/strong><\/td>/);
});

test('a rendered report carries the spec and makes each local rule link open it at the section; spec.html is next to it', () => {
  const work = tempDir('spec');
  syntheticResults(path.join(work, 'results'), [
    { name: 't', attachment: 'a', links: [{ name: 'spec §4.2 §7 (P8-01)', url: 'spec.html#section-4.2' }] },
  ]);
  const index = renderReport(path.join(work, 'results'), path.join(work, 'report'), {
    historyPath: path.join(work, 'h.jsonl'),
    print: false,
  })!;
  assert.ok(readdirSync(path.dirname(index)).includes('spec.html'));
  assert.equal(readFileSync(path.join(path.dirname(index), 'spec.html'), 'utf8'), specHtml());
  const html = readFileSync(index, 'utf8');
  assert.ok(html.includes(JSON.stringify({ 'spec §4.2 §7 (P8-01)': 'spec.html#section-4.2' })), 'the link is named');
  assert.ok(html.includes('id=\\"section-4.2\\"'), 'the spec is embedded in the page');
  // Clicked in Chromium by npm run check-offline (tests/unit/scripts/report-offline.test.ts).
});

test('the terminal names a rule’s section as a line of the spec’s source', () => {
  const line = (section: string): string => specSourceLine(section, SPEC_FILE).replace(/^.*:/, '');
  const source = readFileSync(SPEC_FILE, 'utf8').split('\n');
  assert.match(source[Number(line('§4.2 §7')) - 1]!, /^### 4\.2 /);
  assert.match(source[Number(line('§5 §7')) - 1]!, /^## 5\. /);
  assert.match(source[Number(line('§5.4')) - 1]!, /^4\. /, '§5.4 is item 4 of §5');
  assert.match(specSourceLine('§2.5', SPEC_FILE), /payments-api\.md:\d+$/);
});

test('profiles may set specUrl (a string); anything else is refused naming the field', () => {
  const local = loadProfile('local');
  assert.equal(
    parseProfile({ ...local, specUrl: 'https://wiki.bank.example/spec.html' }, 'local.json').specUrl,
    'https://wiki.bank.example/spec.html',
  );
  assert.throws(
    () => parseProfile({ ...local, specUrl: 5 }, 'local.json'),
    (e: Error) => e instanceof ProfileError && /specUrl/.test(e.message),
  );
});

test('a run’s Allure results link each rule to spec.html#section-…, never to spec.invalid', () => {
  const runDir = path.join(tempDir('spec-run'), 'run');
  const run = runPlaywrightCli(
    ['--project=local', 'tests/status/status.spec.ts', '--grep', 'unknown paymentsServiceId'],
    cleanEnv({ PAYMENTS_RUN_DIR: runDir, PAYMENTS_WORKERS: '1' }),
  );
  assert.equal(run.status, 0, run.stdout + run.stderr);
  const results = readdirSync(path.join(runDir, 'allure-results')).filter((f) => f.endsWith('-result.json'));
  const links = results.flatMap(
    (f) =>
      (
        JSON.parse(readFileSync(path.join(runDir, 'allure-results', f), 'utf8')) as {
          links: { url: string; name: string }[];
        }
      ).links,
  );
  assert.ok(links.length > 0);
  for (const l of links) assert.match(l.url, /^spec\.html#section-\d+(\.\d+)*$/, `${l.name}: ${l.url}`);
});
