/**
 * `npm run check-offline [-- <report.html | report folder> ...] [--times N]` (default:
 * reports/allure-report/index.html)
 *
 * Opens each report from disk in headless Chromium, as a reader would, and checks what a reader
 * relies on:
 *  - offline: every request the page and anything it opens makes is file:, data: or blob: (the
 *    report phones nobody; a bank's evidence must not). Anything else is blocked and listed.
 *  - fast, with a sign of life: how long the overview took to show (the report's title), and that a
 *    loading panel with its progress was on the page before it (never a blank page);
 *  - steps that say what happened: a test's exchanges are steps titled with their answer
 *    ("… — POST /payments/pacs008/v10 → 201"); in a failed test the exchange a failed check judged
 *    is a failed step, and its replay is under "Reproduce";
 *  - links that work: a click on a rule's spec link opens the offline spec at that rule's section.
 * `--times N` opens each report N times and prints every opening time (the machine's load moves them).
 *
 * Chromium comes from the system (`apt-get install -y chromium`; PAYMENTS_CHROMIUM names another
 * binary): no browser is downloaded.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { suiteEnvironment } from '../profile/run-settings';
import { REPRODUCE_STEP } from './lib/report-content';

export const CHROMIUM = suiteEnvironment().chromium;
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

const LOCAL = /^(file|data|blob|about|chrome-error):/;
/** An exchange's step in the report: "label — METHOD /path → 201" (scripts/lib/report-content.ts). */
const EXCHANGE_STEP = / — [A-Z]+ \S+ → \d{3}$/;

export interface OfflineCheck {
  report: string;
  requests: number;
  external: string[];
  /** How long the overview (the report's title) took to show, in ms, each time the report was opened. */
  overviewMs: number[];
  /** What a reader relies on that did not hold (empty: the report reads as it should). */
  problems: string[];
  /** Text the page showed, for a reader of the log. */
  seen: string[];
  /** The tests whose steps and spec link were read: a failed one and a passed one, when the report has them. */
  read: { failed?: string; passed?: string };
}

export async function launchChromium(): Promise<{ browser: Browser; cleanup: () => Promise<void> }> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium, or set PAYMENTS_CHROMIUM`);
  // Playwright's launch gives the browser a new empty profile of its own (it refuses --user-data-dir).
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return { browser, cleanup: () => browser.close() };
}

interface EmbeddedStep {
  name?: string;
  status?: string;
  type?: string;
  steps?: EmbeddedStep[];
}
interface EmbeddedTest {
  id: string;
  name: string;
  status: string;
  steps: EmbeddedStep[];
  links: { url: string }[];
}

/**
 * The data files a single-file report embeds, by name (base64): as Allure writes them, d("name","…")
 * calls, and those the page reads after drawing the overview (scripts/lib/report-page.ts).
 */
export function embeddedFiles(html: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const m of html.matchAll(/d\("([^"]+)","([A-Za-z0-9+/=]*)"\)/g)) files.set(m[1]!, m[2]!);
  for (const m of html.matchAll(/<script type="application\/json" data-report-later>([^<]*)<\/script>/g))
    for (const [name, value] of JSON.parse(m[1]!) as [string, string][]) files.set(name, value);
  return files;
}

/** The embedded test results (their names, statuses, steps and links): which tests to open. */
export function embeddedTests(html: string): EmbeddedTest[] {
  return [...embeddedFiles(html)].flatMap(([name, value]) => {
    const id = /^data\/test-results\/([0-9a-f]+)\.json$/.exec(name)?.[1];
    return id
      ? [{ ...(JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as Omit<EmbeddedTest, 'id'>), id }]
      : [];
  });
}

/** A test with an exchange among its top-level steps (the ones its page shows without a click). */
const hasExchangeStep = (t: EmbeddedTest, status?: string): boolean =>
  t.steps.some((s) => s.type === 'step' && EXCHANGE_STEP.test(s.name ?? '') && (!status || s.status === status));

/**
 * Records, frame by frame, what the page shows until the overview's title: our loading panel, or a
 * blank page. Frames before anything is painted are the browser's own parsing, which takes longer on
 * a loaded machine; they are judged by where the panel sits in the file (panelOffset), not by time.
 */
const WATCH_LOADING = `(function () {
  window.__opening = [];
  function look() {
    var stage = document.querySelector('[data-testid="report-loading-stage"]');
    var title = document.querySelector('[data-testid="report-title"]');
    var text = document.body && document.body.innerText.trim();
    var panel = document.getElementById('report-loading');
    var shown = title ? 'overview' : stage ? 'progress: ' + stage.textContent : panel ? 'progress: (its first line)' : text ? 'other' : 'blank';
    var last = window.__opening[window.__opening.length - 1];
    if (last !== shown) window.__opening.push(shown);
    if (!title) requestAnimationFrame(look);
  }
  requestAnimationFrame(look);
})();`;

/**
 * The most the page may hold before its loading panel. A browser paints nothing until it has parsed
 * the head; Allure's head is about 60 kB, and the app and its data (megabytes) belong after the panel.
 */
const FIRST_PAINT_WITHIN = 200_000;

/** Where in the page its loading panel starts, in characters; undefined when it has none. */
export function panelOffset(html: string): number | undefined {
  const at = html.indexOf('data-testid="report-loading-stage"');
  return at < 0 ? undefined : at;
}

/** Opens the overview and times it; what the page showed before it. */
async function openOverview(context: BrowserContext, url: string): Promise<{ ms: number; shown: string[] }> {
  const page = await context.newPage();
  await page.addInitScript(WATCH_LOADING);
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('[data-testid="report-title"]').waitFor({ timeout: 30_000 });
  const ms = Date.now() - started;
  const shown = (await page.evaluate('window.__opening')) as string[];
  await page.close();
  return { ms, shown };
}

/** A test's steps as the page draws them: title and status. */
async function stepsOnPage(page: Page): Promise<{ title: string; status: string }[]> {
  await page.locator('[data-testid="test-result-step-title"]').first().waitFor({ timeout: 10_000 });
  return (await page.evaluate(`[...document.querySelectorAll('[data-testid="test-result-step-header"]')].map(function (h) {
    var title = h.querySelector('[data-testid="test-result-step-title"]');
    var status = h.querySelector('[data-testid^="tree-leaf-status-"]');
    return { title: title ? title.textContent.trim() : '', status: status ? status.getAttribute('data-testid').replace('tree-leaf-status-', '') : '' };
  })`)) as { title: string; status: string }[];
}

/** Opens a test's page; its title as shown. */
async function openTest(page: Page, url: string, id: string): Promise<string> {
  await page.goto(`${url}#${id}`);
  await page.locator('[data-testid="test-result-info-title"]').waitFor({ timeout: 15_000 });
  return ((await page.locator('[data-testid="test-result-info-title"]').textContent()) ?? '').trim();
}

/** Clicks the test's first spec link: the page it opens must show the spec's section at the top. */
async function followSpecLink(page: Page): Promise<string | undefined> {
  const link = page.locator('[data-testid="test-result-meta-link"] a').first();
  await link.waitFor({ timeout: 10_000 }).catch(() => undefined);
  if (!(await link.count())) return 'no spec link is a link (an <a>) on the test page';
  const name = ((await link.textContent()) ?? '').trim();
  const [opened] = await Promise.all([
    page
      .context()
      .waitForEvent('page', { timeout: 10_000 })
      .catch(() => undefined),
    link.click(),
  ]);
  if (!opened) return `a click on "${name}" opened nothing`;
  await opened.waitForLoadState('load');
  const landed = (await opened.evaluate(`(function () {
    var target = location.hash ? document.getElementById(location.hash.slice(1)) : null;
    return { hash: location.hash, heading: target ? target.textContent.trim().slice(0, 60) : null, top: target ? target.getBoundingClientRect().top : null };
  })()`)) as { hash: string; heading: string | null; top: number | null };
  await opened.close();
  if (!/^#section-/.test(landed.hash) || landed.heading === null)
    return `"${name}" opened no section of the spec (${landed.hash || 'no anchor'})`;
  if (landed.top === null || Math.abs(landed.top) > 60)
    return `"${name}" opened ${landed.hash} but not at the section (${landed.top} px from the top)`;
  return undefined;
}

/** Opens the report's tests a reader opens first and checks their steps and spec links. */
async function readTests(
  context: BrowserContext,
  url: string,
  html: string,
): Promise<{ problems: string[]; seen: string[]; read: OfflineCheck['read'] }> {
  const problems: string[] = [];
  const seen: string[] = [];
  const read: OfflineCheck['read'] = {};
  const tests = embeddedTests(html);
  const page = await context.newPage();
  const failed = tests.find((t) => t.status === 'failed' && hasExchangeStep(t, 'failed'));
  const anyFailed = tests.find((t) => t.status === 'failed' && hasExchangeStep(t));
  const passed = tests.find((t) => t.status === 'passed' && hasExchangeStep(t) && t.links.length);
  if (anyFailed && !failed) problems.push(`failed test "${anyFailed.name}": no exchange of it is a failed step`);
  for (const test of [failed, passed].filter((t): t is EmbeddedTest => t !== undefined)) {
    const title = await openTest(page, url, test.id);
    read[test.status === 'failed' ? 'failed' : 'passed'] = title;
    const steps = await stepsOnPage(page);
    const exchanges = steps.filter((s) => EXCHANGE_STEP.test(s.title));
    seen.push(
      `${test.status} "${title}": ${exchanges.map((s) => `${s.status === 'failed' ? '✘ ' : ''}${s.title}`).join(' | ')}`,
    );
    if (!exchanges.length) problems.push(`"${title}": no step is titled with its answer (… → 201)`);
    if (test.status === 'failed') {
      if (!exchanges.some((s) => s.status === 'failed'))
        problems.push(`"${title}": the exchange a failed check judged is not a failed step`);
      if (!steps.some((s) => s.title === REPRODUCE_STEP)) problems.push(`"${title}": no "${REPRODUCE_STEP}" step`);
      if (steps.some((s) => s.title === 'After Hooks')) problems.push(`"${title}": a step is still "After Hooks"`);
    }
    if (test.links.length) {
      const broken = await followSpecLink(page);
      if (broken) problems.push(`"${title}": ${broken}`);
      else seen.push(`"${title}": its spec link opened the spec at the section`);
    }
  }
  if (!failed && !passed) seen.push('no test with an exchange step to open');
  await page.close();
  return { problems, seen, read };
}

export async function checkReportOffline(report: string, browser: Browser, times = 1): Promise<OfflineCheck> {
  const file = statSync(report).isDirectory() ? path.join(report, 'index.html') : report;
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1400, height: 1000 } });
  const external: string[] = [];
  let requests = 0;
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requests++;
    if (LOCAL.test(url)) return route.continue();
    external.push(`${route.request().method()} ${url}`);
    return route.abort('blockedbyclient');
  });
  // Requests that bypass routing (a WebSocket, a beacon) are still seen here.
  context.on('request', (r) => {
    if (!LOCAL.test(r.url()) && !external.some((e) => e.endsWith(` ${r.url()}`)))
      external.push(`${r.method()} ${r.url()}`);
  });
  context.on('websocket' as never, ((ws: { url(): string }) => external.push(`WS ${ws.url()}`)) as never);
  const url = pathToFileURL(path.resolve(file)).href;
  const problems: string[] = [];
  const seen: string[] = [];
  const overviewMs: number[] = [];
  for (let i = 0; i < times; i++) {
    try {
      const { ms, shown } = await openOverview(context, url);
      overviewMs.push(ms);
      // Blank until the first paint is the browser parsing the head (judged by panelOffset below).
      const painted = shown.slice(
        Math.max(
          0,
          shown.findIndex((s) => s !== 'blank'),
        ),
      );
      if (i === 0)
        seen.push(`before the overview: ${painted.filter((s) => s !== 'overview').join(' → ') || 'nothing'}`);
      if (painted.includes('blank')) problems.push('the page went blank after its loading panel showed');
      if (!shown.some((s) => s.startsWith('progress'))) problems.push('no loading progress showed before the overview');
    } catch (error) {
      problems.push(`the overview did not show: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const html = readFileSync(file, 'utf8');
  const panel = panelOffset(html);
  if (panel === undefined) problems.push('the page has no loading panel');
  else if (panel > FIRST_PAINT_WITHIN)
    problems.push(
      `the loading panel comes after ${Math.round(panel / 1000)} kB of the page: nothing is painted until those are parsed`,
    );
  const reading = await readTests(context, url, html).catch((error: Error) => ({
    problems: [`a test page: ${error.message.split('\n')[0]}`],
    seen: [],
    read: {},
  }));
  problems.push(...reading.problems);
  seen.push(...reading.seen);
  await context.close();
  return { report: file, requests, external: [...new Set(external)], overviewMs, problems, seen, read: reading.read };
}

async function main(argv: string[]): Promise<number> {
  const timesAt = argv.indexOf('--times');
  const times = timesAt >= 0 ? Math.max(1, Number(argv[timesAt + 1]) || 1) : 1;
  const given = argv.filter((_a, i) => timesAt < 0 || (i !== timesAt && i !== timesAt + 1));
  const reports = given.length ? given : [path.join('reports', 'allure-report', 'index.html')];
  for (const r of reports)
    if (!existsSync(r)) throw new Error(`${r} not found: render a report first (npm run conformance)`);
  const { browser, cleanup } = await launchChromium();
  let ok = true;
  try {
    for (const r of reports) {
      const check = await checkReportOffline(r, browser, times);
      const size = `${(statSync(check.report).size / 1e6).toFixed(1)} MB`;
      const opened = `overview shown in ${check.overviewMs.map((ms) => `${ms} ms`).join(', ')}`;
      if (check.external.length) {
        ok = false;
        console.error(
          `✖ ${check.report}: ${check.external.length} request(s) to the network when opened: ${check.external.join(', ')}`,
        );
      } else console.log(`✓ ${check.report} (${size}): ${check.requests} requests, all file:/data:/blob:; ${opened}`);
      for (const line of check.seen) console.log(`  ${line}`);
      if (check.problems.length) {
        ok = false;
        for (const problem of check.problems) console.error(`✖ ${check.report}: ${problem}`);
      }
    }
  } finally {
    await cleanup();
  }
  return ok ? 0 : 1;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`✖ ${(error as Error).message}`);
      process.exit(2);
    },
  );
}
