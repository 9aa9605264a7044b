/**
 * Item "the report must not phone home": Allure 3.18's awesome plugin writes a Google Analytics tag
 * into every report (no option turns it off). scripts/report.ts cuts it out and refuses a report that
 * would load anything from the network. (a) A small report is rendered and its HTML, and everything
 * it embeds as base64 (the app's script and style, the data files), is checked for a fetchable
 * external URL and for analytics. (b) When Chromium is installed, the report is opened in it and
 * every request is logged: only file:, data: and blob: may occur (scripts/check-report-offline.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { phoningHome, renderReport } from '../../../scripts/report';
import { CHROMIUM, embeddedFiles, panelOffset } from '../../../scripts/check-report-offline';
import { cleanEnv, root, runScript, syntheticResults, tempDir } from '../support/cli';

const ANALYTICS = /googletagmanager|google-analytics|gtag\(|dataLayer|G-[A-Z0-9]{8,}/;

/** URLs in the app bundle that are never fetched on opening: SVG/XML namespaces, two plain links, a fallback base. */
const NOT_FETCHED = [
  /^http:\/\/www\.w3\.org\//, // namespace identifiers (SVG, XHTML, MathML, XLink, XML)
  /^https:\/\/allurereport\.org\/?$/, // the "Powered by" footer link (a click, not a load)
  /^https:\/\/trace\.playwright\.dev\/?$/, // the trace viewer, only opened for a Playwright trace attachment on a click
  /^https?:\/\/localhost\/?$/, // URL base fallback when the page has no <base>
  /^https?:\/\/$/, // a scheme prefix in a URL parser
];

function decodedEmbeds(html: string): { what: string; text: string }[] {
  const out: { what: string; text: string }[] = [];
  for (const m of html.matchAll(/data:([a-z/+.-]+);base64,([A-Za-z0-9+/=]+)/g))
    out.push({ what: `data:${m[1]}`, text: Buffer.from(m[2]!, 'base64').toString('utf8') });
  for (const [name, value] of embeddedFiles(html))
    out.push({ what: name, text: Buffer.from(value, 'base64').toString('utf8') });
  // The app's script, inline in the page.
  for (const m of html.matchAll(/<script>([\s\S]*?)<\/script>/g)) out.push({ what: 'inline script', text: m[1]! });
  return out;
}

function render(): { dir: string; html: string } {
  const work = tempDir('offline');
  const link = { name: 'spec §5 §7 (SCA-09)', url: 'spec.html#section-5' };
  syntheticResults(path.join(work, 'results'), [
    { name: 'a token request gets 200', attachment: 'POST /oauth/token\n200 {"token_type":"bearer"}' },
    { name: 'refuses: expired token', status: 'failed', attachment: 'POST /payments/pacs008/v10\n500' },
    {
      name: 'refuses: SCA hd of another body',
      status: 'failed',
      links: [link],
      exchanges: [
        { label: 'valid twin', status: 201 },
        { label: 'mutant: SCA hd of another body', status: 201, judged: true },
      ],
    },
    {
      name: 'refuses: SCA without hd',
      links: [link],
      exchanges: [
        { label: 'valid twin', status: 201 },
        { label: 'mutant: SCA without hd', status: 400 },
      ],
    },
  ]);
  const index = renderReport(path.join(work, 'results'), path.join(work, 'report'), {
    historyPath: path.join(work, 'history.jsonl'),
    print: false,
  });
  assert.ok(index, 'rendered');
  return { dir: path.dirname(index), html: readFileSync(index, 'utf8') };
}

test('a rendered report holds no analytics and no fetchable external URL, in its HTML or anything it embeds', () => {
  const { html } = render();
  assert.deepEqual(phoningHome(html), []);
  assert.doesNotMatch(html, ANALYTICS, 'the analytics tag is still in the report');
  assert.doesNotMatch(html, /<(script|link|img|iframe)\b[^>]*(src|href)="https?:/i);
  // The first paint shows the loading panel: only the head comes before it, never the app or its data.
  const panel = panelOffset(html);
  assert.ok(panel !== undefined && panel < 200_000, `the loading panel starts at ${panel}`);
  const embeds = decodedEmbeds(html);
  assert.ok(
    embeds.some((e) => e.what === 'inline script' && e.text.length > 1_000_000),
    'the app script is embedded',
  );
  for (const e of embeds) {
    assert.doesNotMatch(e.text, ANALYTICS, `analytics code in ${e.what}`);
    if (e.what === 'data:text/css')
      assert.doesNotMatch(
        e.text,
        /url\(\s*["']?(https?:)?\/\/|@import/,
        'the style sheet loads nothing from the network',
      );
    const urls = [...new Set(e.text.match(/https?:\/\/[A-Za-z0-9.-]*[A-Za-z0-9/_.-]*/g) ?? [])];
    const unexpected = urls.filter((u) => !NOT_FETCHED.some((ok) => ok.test(u)));
    assert.deepEqual(unexpected, [], `${e.what} names external URLs`);
  }
});

test('the guard is needed: Allure renders the analytics tag unless scripts/report.ts removes it', () => {
  const work = tempDir('raw');
  syntheticResults(path.join(work, 'results'), [{ name: 'x', attachment: 'y' }]);
  const raw = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'allure', 'cli.js'),
      'generate',
      path.join(work, 'results'),
      '--output',
      path.join(work, 'raw'),
      '--config',
      path.join(root, 'allurerc.mjs'),
    ],
    {
      cwd: root,
      env: cleanEnv({ PAYMENTS_ALLURE_HISTORY: path.join(work, 'h.jsonl') }),
      encoding: 'utf8',
    },
  );
  assert.equal(raw.status, 0, raw.stderr);
  const html = readFileSync(path.join(work, 'raw', 'index.html'), 'utf8');
  assert.match(
    html,
    /googletagmanager\.com\/gtag\/js/,
    'Allure no longer writes the tag: the guard in scripts/report.ts may go',
  );
  assert.ok(phoningHome(html).length > 0);
});

test('opened in headless Chromium, the report makes no request but file:, data: and blob:, shows progress, and its steps and spec links read as they should', {
  skip: !existsSync(CHROMIUM) && `no Chromium at ${CHROMIUM}`,
}, () => {
  const { dir } = render();
  const ok = runScript('check-report-offline.ts', [dir], cleanEnv(), 90_000);
  assert.equal(ok.status, 0, ok.stdout + ok.stderr);
  assert.match(ok.stdout, /all file:\/data:\/blob:/);
  assert.match(ok.stdout, /before the overview: progress: /);
  assert.match(
    ok.stdout,
    /failed "refuses: SCA hd of another body": valid twin — POST \/payments\/pacs008\/v10 → 201 \| ✘ mutant: SCA hd of another body — POST \/payments\/pacs008\/v10 → 201/,
  );
  assert.match(
    ok.stdout,
    /passed "refuses: SCA without hd": valid twin — .* → 201 \| mutant: SCA without hd — .* → 400/,
  );
  assert.match(ok.stdout, /"refuses: SCA hd of another body": its spec link opened the spec at the section/);
});
