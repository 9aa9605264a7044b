/**
 * What the suite adds to the page Allure renders (scripts/report.ts), each piece inline: the report
 * opens from disk and loads nothing.
 *
 * Working spec links. Allure 3.18 renders a link as `<a href>` only when its URL is http(s), mailto
 * or tel (its app's sanitiser); a rule's link to the offline spec (`spec.html#section-4.2`) showed as
 * blue text that did nothing. The page carries the offline spec and, as the app renders a test's
 * links, turns each link the results name with a local URL into an anchor that opens that copy at the
 * section (a blob: URL of the embedded spec, so the link works even when index.html travels alone).
 * It finds the links by the app's data-testid attributes, which its own tests rely on.
 *
 * Rules first: the overview's title carries each profile's rules assessed and violated (withRulesTitle).
 */

/** In-page script that turns the named local links into working anchors; `links` maps a link's name to its URL. */
export function specLinksScript(links: Readonly<Record<string, string>>, specHtml: string): string {
  // JSON inside a <script>: no "</" may close it early.
  const json = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');
  return `<script>
(function () {
  var LINKS = ${json(links)};
  var SPEC = ${json(specHtml)};
  var specUrl;
  function hrefOf(url) {
    var hash = url.indexOf('#') >= 0 ? url.slice(url.indexOf('#')) : '';
    if (url.split('#')[0] !== 'spec.html') return url;
    specUrl = specUrl || URL.createObjectURL(new Blob([SPEC], { type: 'text/html' }));
    return specUrl + hash;
  }
  function upgrade() {
    scheduled = false;
    var items = document.querySelectorAll('[data-testid="test-result-meta-link"]');
    for (var i = 0; i < items.length; i++) {
      var item = items[i];
      var text = item.lastElementChild;
      if (!text || text.tagName === 'A' || !Object.prototype.hasOwnProperty.call(LINKS, text.textContent)) continue;
      var a = document.createElement('a');
      a.href = hrefOf(LINKS[text.textContent]);
      a.target = '_blank';
      a.rel = 'noopener';
      a.className = text.className;
      a.textContent = text.textContent;
      a.setAttribute('data-testid', 'spec-link');
      text.replaceWith(a);
    }
  }
  var scheduled = false;
  new MutationObserver(function () {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(upgrade);
  }).observe(document.documentElement, { childList: true, subtree: true });
})();
</script>`;
}

/** The page with its working spec links (see the module comment); nothing changes when no link is local. */
export function withSpecLinks(html: string, links: Readonly<Record<string, string>>, specHtml: string): string {
  if (!Object.keys(links).length) return html;
  return html.replace('</head>', () => `${specLinksScript(links, specHtml)}\n</head>`);
}

/**
 * The overview's title says the rules first: "Payments API conformance · 148 of 151 documented rules
 * assessed, 0 violated" (the report name, which the app shows as its title, and the page's <title>).
 */
export function withRulesTitle(html: string, rules: string): string {
  if (!rules) return html;
  const options = /(window\.allureReportOptions = \{[^\n]*?"reportName":)("(?:[^"\\]|\\.)*")/.exec(html);
  if (!options) return html;
  const name = `${JSON.parse(options[2]!) as string} · ${rules}`;
  const escaped = name.replace(/[&<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  return html
    .replace(options[0], () => `${options[1]}${JSON.stringify(name).replace(/</g, '\\u003c')}`)
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escaped}</title>`);
}

/**
 * Opening fast, with a sign of life. The awesome app of Allure 3.18 comes as a base64 data: URL (megabytes
 * of script the browser decodes before compiling), removes its loading spinner as soon as it mounts,
 * before the data script after it (most of the file) has even been parsed, and waits for all of that
 * data before drawing anything: the page stays blank for seconds. Here:
 *  - the app's script is inline (nothing to decode);
 *  - a loading panel of ours says what is loading and how far, until the overview's title is drawn;
 *  - the data the overview reads comes first and the overview is drawn as soon as it is in; the rest
 *    (each test's result, the search index, the timeline and charts: most of the file) is read after.
 *    A test opened before its result is read waits for it: the app's lookup of a data file that is
 *    not there yet waits until it is (or until every file is in), instead of failing. Where the app's
 *    code no longer has the lookup this expects, every file is read before the overview, as Allure does.
 */
export function withLoadingProgress(html: string): string {
  const app = /<script\s+src="data:text\/javascript;base64,([A-Za-z0-9+/=]+)"><\/script>/.exec(html);
  const data =
    /<script defer>\s*Promise\.allSettled\(\[(d\("[\s\S]*?)\]\)\s*\.then\(function\s*\(\)\s*\{\s*window\.allureReportDataReady = true;\s*\}\)\s*<\/script>/.exec(
      html,
    );
  if (!app || !data) return html;
  const patched = waitingLookups(Buffer.from(app[1]!, 'base64').toString('utf8'));
  const js = (patched ?? Buffer.from(app[1]!, 'base64').toString('utf8')).replace(/<\/script/gi, '<\\/script');
  const files = [...data[1]!.matchAll(/d\("([^"]*)","([A-Za-z0-9+/=]*)"\)/g)].map((m) => ({
    name: m[1]!,
    value: m[2]!,
    call: m[0],
  }));
  const first = patched ? files.filter((f) => !READ_LATER.test(f.name)) : files;
  const later = patched ? files.filter((f) => READ_LATER.test(f.name)) : [];
  // The bar runs to the overview: the viewer's script to 40 %, the data the overview reads to 90 %, drawing it after.
  const size = first.reduce((n, f) => n + f.call.length, 0);
  let read = 0;
  const scripts = (list: typeof files): string[] =>
    chunked(list).map((chunk) => {
      read += chunk.reduce((n, f) => n + f.call.length, 0);
      return `<script>__reportData.push(${chunk.map((f) => f.call).join(',')});__reportLoading(${40 + Math.round((50 * read) / Math.max(1, size))});</script>`;
    });
  const ready = `<script>Promise.allSettled(__reportData).then(function () { window.allureReportDataReady = true; __reportLoading(95, 'drawing the overview…'); });</script>`;
  // Not run as scripts while the overview is drawn: JSON the page reads once the overview is on it, or
  // as soon as the app asks for a file in it.
  const laterBlocks = chunked(later).map(
    (chunk) =>
      `<script type="application/json" data-report-later>${JSON.stringify(chunk.map((f) => [f.name, f.value]))}</script>`,
  );
  const tests = files.filter((f) => f.name.startsWith('data/test-results/')).length;
  const page = html
    // First in the body: the first paint shows it.
    .replace(/<body>/, () => `<body>\n${loadingPanel(tests)}`)
    .replace(app[0], () => `<script>${js}</script>\n<script>__reportLoading(40);</script>`)
    .replace(data[0], () => [...scripts(first), ready, ...laterBlocks].join('\n'));
  return page.replace(SIZE, (Buffer.byteLength(page) / 1e6).toFixed(1));
}

/** Where the page's own size goes once it is known. */
const SIZE = '\u0000size\u0000';

/** Data files the overview does not read: each test's result, the search index, the timeline and the charts. */
const READ_LATER = /^(data\/|widgets\/(.+\/)?search-index\.json$|widgets\/timeline\.json$|widgets\/charts\.json$)/;

/** Scripts of about a megabyte: the parser paints between scripts, so the bar moves while the data is read. */
function chunked<T extends { call: string }>(files: readonly T[]): T[][] {
  const chunks: T[][] = [];
  let filled = Infinity;
  for (const file of files) {
    if (filled > 1_000_000) {
      chunks.push([]);
      filled = 0;
    }
    chunks.at(-1)!.push(file);
    filled += file.call.length;
  }
  return chunks;
}

/**
 * The app's lookups of a data file, made to wait for a file not read yet: each is a promise whose
 * executor reads `globalThis.allureReportData` and fails with 'Data "…" not found!'; it now runs once
 * the file is there or every file is (window.__reportComplete). Undefined when the app's code has no
 * such lookup (another Allure version): the caller then keeps Allure's order.
 */
function waitingLookups(js: string): string | undefined {
  const opening = /new Promise\(\(\((\w),(\w)\)=>\{const (\w)=globalThis\.allureReportData\?\?\{\};/g;
  const closing = /(\w)\(new Error\(`Data "\$\{(\w)\}" not found!`\)\)\}\)\)/g;
  const opened = js.match(opening)?.length ?? 0;
  if (!opened || opened !== (js.match(closing)?.length ?? 0)) return undefined;
  const key = /`Data "\$\{(\w)\}" not found!`/.exec(js)![1]!;
  return js
    .replace(
      opening,
      (_m, ok: string, fail: string, store: string) =>
        `new Promise(((${ok},${fail})=>__reportWhenRead(${key},()=>{const ${store}=globalThis.allureReportData??{};`,
    )
    .replace(closing, (_m, fail: string, name: string) => `${fail}(new Error(\`Data "\${${name}}" not found!\`))})))`);
}

/** The loading panel and its helpers: progress, waiting for a file, and the panel's end once the overview is drawn. */
function loadingPanel(tests: number): string {
  return `<div id="report-loading" role="status" aria-live="polite" style="position:fixed;inset:0;z-index:2147483647;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:12px;background:#f7f8fb;color:#22252a;font:14px/20px Arial,Helvetica,sans-serif">
<div data-testid="report-loading-text">Opening the conformance report: ${tests} tests, ${SIZE} MB</div>
<div style="width:320px;height:6px;background:#dde2ea;border-radius:3px;overflow:hidden"><div data-testid="report-loading-bar" style="width:2%;height:100%;background:#3d7eff"></div></div>
<div data-testid="report-loading-stage">reading the report viewer…</div>
</div>
<script>
// Before the app's script: the app reads its data from here, or fetches files beside the page when
// this is missing (blocked from file:). The parser may let the app run before Allure's own
// definition of it, after the app's script.
window.allureReportData = window.allureReportData || {};
window.allureReportDataReady = false;
window.__reportData = [];
window.__reportLoading = function (percent, stage) {
  var bar = document.querySelector('[data-testid="report-loading-bar"]');
  var text = document.querySelector('[data-testid="report-loading-stage"]');
  if (stage) window.__reportStage = stage;
  if (bar) bar.style.width = Math.max(2, Math.min(100, percent)) + '%';
  if (text) text.textContent = window.__reportStage || 'reading the results…';
};
window.__reportReadLater = function () {
  if (window.__reportComplete) return true;
  if (document.readyState === 'loading') return false;
  var blocks = document.querySelectorAll('script[data-report-later]');
  for (var i = 0; i < blocks.length; i++) {
    var files = JSON.parse(blocks[i].textContent);
    for (var j = 0; j < files.length; j++) window.allureReportData[files[j][0]] = files[j][1];
    blocks[i].remove();
  }
  return (window.__reportComplete = true);
};
window.__reportWhenRead = function (name, lookup) {
  var later = ${READ_LATER.toString()};
  if (!later.test(name.replace(/\\\\/g, '/')) || window.__reportReadLater()) return lookup();
  setTimeout(function () { window.__reportWhenRead(name, lookup); }, 30);
};
new MutationObserver(function (changes, observer) {
  if (!document.querySelector('[data-testid="report-title"], [data-testid="test-result-info-title"]')) return;
  var panel = document.getElementById('report-loading');
  if (panel) panel.remove();
  observer.disconnect();
  (function readLater() { if (!window.__reportReadLater()) setTimeout(readLater, 50); })();
}).observe(document.documentElement, { childList: true, subtree: true });
</script>`;
}
