/**
 * `npm run check-offline [-- <report.html | report folder> ...]` (default: reports/allure-report/index.html)
 *
 * Opens each report from disk in headless Chromium, as a reader would, and logs every request the
 * page and anything it opens makes. Passes only when every request is file:, data: or blob: — the
 * report opens offline and phones nobody (a bank's evidence must not). Requests to anything else are
 * blocked (they never leave the machine) and listed. The page is also driven a little: the overview,
 * then the first test, its attachments tab and its spec link. It prints each report's size and how
 * long its overview took to show (a report that takes seconds to open is one nobody reads).
 *
 * Chromium comes from the system (`apt-get install -y chromium`; PAYMENTS_CHROMIUM names another
 * binary): no browser is downloaded.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { suiteEnvironment } from '../helpers/run-settings';

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

export interface OfflineCheck {
  report: string;
  requests: number;
  external: string[];
  /** Text the page showed, for a reader of the log: the report's title and the first test's name. */
  seen: string;
}

export async function launchChromium(): Promise<{ browser: Browser; cleanup: () => Promise<void> }> {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium, or set PAYMENTS_CHROMIUM`);
  // Playwright's launch gives the browser a new empty profile of its own (it refuses --user-data-dir).
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return { browser, cleanup: () => browser.close() };
}

/** Test result ids of a single-file report: its embedded data files are named data/test-results/<id>.json. */
export function testResultIds(html: string): string[] {
  return [...new Set([...html.matchAll(/d\("data\/test-results\/([0-9a-f]+)\.json"/g)].map((m) => m[1]!))];
}

/** Opens the overview, then one test (its attachments, its spec link): what a reader does first. */
async function exercise(page: Page, url: string, ids: string[]): Promise<string> {
  const started = Date.now();
  await page.goto(url);
  await page.waitForLoadState('load');
  const seen: string[] = [await page.title()];
  try {
    await page.locator('[data-testid="report-title"]').waitFor({ timeout: 15_000 });
    seen.push(`overview shown in ${Date.now() - started} ms`);
    seen.push(
      `overview: ${((await page.locator('[data-testid="report-data"]').textContent()) ?? '').replace(/\s+/g, ' ').slice(0, 80)}`,
    );
  } catch {
    seen.push('overview did not render');
  }
  const id = ids[0];
  if (id) {
    await page.goto(`${url}#${id}`);
    try {
      await page.locator('[data-testid="test-result-info-title"]').waitFor({ timeout: 10_000 });
      seen.push(`test: ${await page.locator('[data-testid="test-result-info-title"]').textContent()}`);
      await page.locator('[data-testid="test-result-tab-attachments"]').click();
      await page.waitForTimeout(500);
      const link = page.locator('[data-testid="test-result-meta-link"] a, a[href*="spec"]').first();
      await page.locator('[data-testid="test-result-tab-overview"]').click();
      if (await link.count()) {
        const [popup] = await Promise.all([
          page
            .context()
            .waitForEvent('page', { timeout: 5_000 })
            .catch(() => undefined),
          link.click(),
        ]);
        if (popup) {
          await popup.waitForLoadState('load');
          seen.push(`spec link opened ${popup.url().replace(/^.*\//, '')}`);
        }
      }
    } catch (error) {
      seen.push(`test page: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  await page.waitForTimeout(1_000);
  return seen.join(' | ');
}

export async function checkReportOffline(report: string, browser: Browser): Promise<OfflineCheck> {
  const file = statSync(report).isDirectory() ? path.join(report, 'index.html') : report;
  const context = await browser.newContext({ serviceWorkers: 'block' });
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
  const page = await context.newPage();
  const seen = await exercise(page, pathToFileURL(path.resolve(file)).href, testResultIds(readFileSync(file, 'utf8')));
  await context.close();
  return { report: file, requests, external: [...new Set(external)], seen };
}

async function main(argv: string[]): Promise<number> {
  const reports = argv.length ? argv : [path.join('reports', 'allure-report', 'index.html')];
  for (const r of reports)
    if (!existsSync(r)) throw new Error(`${r} not found: render a report first (npm run conformance)`);
  const { browser, cleanup } = await launchChromium();
  let ok = true;
  try {
    for (const r of reports) {
      const check = await checkReportOffline(r, browser);
      if (check.external.length) {
        ok = false;
        console.error(
          `✖ ${check.report}: ${check.external.length} request(s) to the network when opened: ${check.external.join(', ')}`,
        );
      } else
        console.log(
          `✓ ${check.report} (${(statSync(check.report).size / 1e6).toFixed(1)} MB): ${check.requests} requests, all file:/data:/blob: (${check.seen})`,
        );
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
