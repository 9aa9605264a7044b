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
